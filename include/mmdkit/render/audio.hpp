// mmdkit — decoding audio to mono samples through FFmpeg (the render layer's run-time loaded
// libraries, src/render/ffmpeg.hpp), for analysis such as motion::analyze_audio (lip sync).
#pragma once

#include <filesystem>
#include <vector>

#include "mmdkit/core/error.hpp"

namespace mmdkit::render {

/// Every sample of the best audio stream of `file` (any container and codec this FFmpeg decodes:
/// WAV, FLAC, MP3, AAC, Opus, a video's sound track, ...), mixed down to mono (FFmpeg's
/// swresample downmix: channels averaged with its default matrix) and resampled to
/// `sample_rate` Hz (8000..384000), as floats, full scale −1..1.
/// Errors: unsupported (FFmpeg's libraries cannot be loaded), invalid_value (the file cannot be
/// opened or has no decodable audio stream; the message names the file and FFmpeg's reason),
/// invalid_argument (a rate out of range), limit_exceeded (more than 2^31 samples).
Result<std::vector<float>> decode_audio_mono(const std::filesystem::path& file, int sample_rate);

}  // namespace mmdkit::render
