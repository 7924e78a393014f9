// Internal (render layer): one video stream decoded frame after frame in presentation order —
// FFmpeg's demux / send-packet / receive-frame loop, written once for both readers of video:
// VideoFrameReader (frames as RGBA at a time, video_reader.cpp) and decode_video (every frame's
// planes, video.cpp).
#pragma once

#include <filesystem>
#include <string>

#include "render/ffmpeg.hpp"

namespace mmdkit::render::detail {

class VideoDecoder {
 public:
  VideoDecoder() = default;
  VideoDecoder(const VideoDecoder&) = delete;
  VideoDecoder& operator=(const VideoDecoder&) = delete;
  ~VideoDecoder() { close(); }

  /// Opens the best video stream of `path` (anything libavformat reads) and its decoder; loads
  /// FFmpeg on first use. Errors (naming the file): unsupported (no FFmpeg), invalid_value (cannot
  /// open or read the file, no video stream this FFmpeg decodes, the decoder does not open).
  Result<void> open(const std::filesystem::path& path);

  /// Closes the file (open() may be called again).
  void close() noexcept;

  /// The next decoded frame (owned by the decoder: valid until the next call; the caller may
  /// av_frame_unref it), or nullptr after the last. Errors: invalid_value (decoding failed).
  Result<AVFrame*> next();

  const Ffmpeg& ff() const noexcept { return *ff_; }
  const AVStream& stream() const noexcept { return *stream_; }
  const std::filesystem::path& path() const noexcept { return path_; }

  /// An error naming the file: "<path>: <why>[: <FFmpeg's text for ret>]".
  std::unexpected<Error> fail(ErrorCode code, const std::string& why, int ret = 0) const;

 private:
  const Ffmpeg* ff_ = nullptr;
  std::filesystem::path path_;
  AVFormatContext* ctx_ = nullptr;
  AVStream* stream_ = nullptr;
  AVCodecContext* dec_ = nullptr;
  AVPacket* pkt_ = nullptr;
  AVFrame* frame_ = nullptr;
  bool draining_ = false;
};

}  // namespace mmdkit::render::detail
