// mmdkit — video files from rendered frames through FFmpeg's libraries, streamed frame by frame
// (memory does not grow with the frame count), with an optional audio track muxed in.
//
// Containers and codecs: "mp4" = H.264 (libx264, yuv420p, CRF 20, +faststart) with AAC audio;
// "webm" = VP9 (libvpx-vp9, yuv420p, CRF 32, constant quality) with Opus audio. Frames are
// converted from RGBA with swscale (BT.601 limited range, as FFmpeg's default). Width and height
// must be even (yuv420p). The audio file is anything libavformat reads (WAV, MP3, OGG, ...),
// resampled to the encoder's rate and layout and cut at the end of the video. Every frame lasts
// 1/fps (each packet carries that duration): a file of N frames decodes to N frames and lasts
// N/fps seconds.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "mmdkit/core/error.hpp"
#include "mmdkit/render/image.hpp"

namespace mmdkit::render {

/// What to write.
struct VideoSettings {
  std::filesystem::path path;  ///< file written (any name: the container is `container`)
  std::string container = "mp4";  ///< "mp4" or "webm"
  int width = 1280, height = 720;  ///< even, ≥ 2
  int fps = 30;                ///< frames per second of the file
  std::filesystem::path audio; ///< optional audio file to mux
};

/// An open video file being written.
class VideoWriter {
 public:
  /// Opens the file and the encoders. Errors: invalid_argument (odd size, unknown container),
  /// unsupported naming a missing encoder ("libx264 is not in this FFmpeg build ..."), io_error
  /// (cannot create the file), invalid_value (the audio file cannot be read or decoded).
  static Result<VideoWriter> open(const VideoSettings& settings);

  VideoWriter(VideoWriter&&) noexcept;
  VideoWriter& operator=(VideoWriter&&) noexcept;
  ~VideoWriter();  ///< closes without finishing (the file is incomplete: callers remove it)

  /// Hands one frame (size as opened, copied) to the writer's encoder thread and returns while it
  /// is converted and encoded, so the caller can draw the next one (one frame waits at most;
  /// frames are encoded in order). Errors: invalid_argument (size); io_error (encoder/write) of an
  /// earlier frame, reported by the next write or by finish.
  Result<void> write(const Image& frame);
  /// Flushes the encoders, writes the audio up to the video's length and the trailer.
  Result<void> finish();

  struct Impl;  ///< private (src/render/video.cpp)

 private:
  explicit VideoWriter(std::unique_ptr<Impl> impl) noexcept;
  std::unique_ptr<Impl> impl_;
};

/// Joins video files that VideoWriter wrote with the same settings (segments of one render, each
/// starting on its own key frame) into `out.path` by stream copy: the video packets are copied,
/// not decoded or re-encoded, their time stamps moved so that each segment follows the previous
/// one (a segment of N frames lasts N/fps s); `out.audio`, when given, is encoded once over the
/// whole length (as VideoWriter does: AAC in MP4, Opus in WebM, cut at the video's end).
/// `out.container` must be the segments' ("mp4" or "webm"); width and height are taken from the
/// segments. Errors: invalid_argument (no segment, unknown container), invalid_value (a segment
/// that cannot be read, has no video stream, or whose codec, size or codec header differs from the
/// first's: such segments cannot be joined without re-encoding; the message names the segment),
/// io_error (the output), unsupported (no FFmpeg, no audio encoder). The output is written in
/// place: callers write to a temporary file and rename it.
Result<void> join_video_segments(const std::vector<std::filesystem::path>& segments, const VideoSettings& out);

/// The frames of a video file decoded (for comparisons: tests, the render farm's equality measure).
struct DecodedVideo {
  int width = 0, height = 0;
  /// Per frame in decoding output (presentation) order: the yuv420p planes, Y (width × height
  /// bytes) then U and V ((width / 2) × (height / 2) bytes each), rows without padding.
  std::vector<std::vector<std::uint8_t>> frames;
};

/// Decodes every frame of the first video stream of `path` (anything libavformat reads; the
/// decoder must give yuv420p, as VideoWriter's H.264 and VP9 do). Errors: invalid_value (cannot
/// read or decode, naming the file), unsupported (no FFmpeg, another pixel format).
Result<DecodedVideo> decode_video(const std::filesystem::path& path);

/// The frames of a video file decoded one at a time into RGBA (a scene's background video,
/// docs/RENDER.md "Background pictures"): memory holds two frames whatever the video's length.
class VideoFrameReader {
 public:
  /// Opens the first video stream of `path` (anything libavformat reads). Errors: unsupported (no
  /// FFmpeg, no decoder), invalid_value (cannot read, no video stream; naming the file).
  static Result<VideoFrameReader> open(const std::filesystem::path& path);
  VideoFrameReader(VideoFrameReader&&) noexcept;
  VideoFrameReader& operator=(VideoFrameReader&&) noexcept;
  ~VideoFrameReader();

  /// The frame shown `seconds` after the video's start: the last frame whose presentation time is
  /// at or before it (the first frame before that, the last after the end: MMD keeps showing a
  /// background video's last frame). Decodes forward from the last call; an earlier time opens the
  /// file again. The image stays valid until the next call. Errors: invalid_value (decoding
  /// failed, or the video has no frame; naming the file).
  Result<const Image*> frame_at(double seconds);

  struct Impl;  ///< private (src/render/video_reader.cpp)

 private:
  explicit VideoFrameReader(std::unique_ptr<Impl> impl) noexcept;
  std::unique_ptr<Impl> impl_;
};

}  // namespace mmdkit::render
