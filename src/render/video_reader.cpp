// mmdkit — video frames decoded one at a time (video.hpp VideoFrameReader).
#include "mmdkit/render/video.hpp"

#include "render/video_decoder.hpp"

#include <array>
#include <optional>
#include <string>

namespace mmdkit::render {

namespace {

// A decoded frame: its picture and presentation time in seconds from the stream's start.
struct TimedImage {
  Image image;
  double seconds = 0;
};

}  // namespace

struct VideoFrameReader::Impl {
  detail::VideoDecoder decoder;
  std::filesystem::path path;
  SwsContext* sws = nullptr;
  std::array<int, 3> sws_size{};  // width, height, pixel format sws was made for
  double last_seconds = 0;        // the time last asked (frame_at)
  bool ended = false;
  std::optional<TimedImage> current, next;  // next: decoded ahead, after the time last asked

  ~Impl() { close(); }

  void close() {
    if (sws) decoder.ff().sws_freeContext(sws);
    sws = nullptr;
    decoder.close();
    ended = false;
    current.reset();
    next.reset();
  }

  Result<void> open() { return decoder.open(path); }

  // The decoded frame as RGBA with its time.
  Result<TimedImage> convert(AVFrame* frame) {
    const detail::Ffmpeg& ff = decoder.ff();
    const AVStream& stream = decoder.stream();
    const int w = frame->width, h = frame->height;
    if (w < 1 || h < 1 || w > 16384 || h > 16384) return decoder.fail(ErrorCode::invalid_value, "a frame is not 1..16384 pixels a side");
    if (!sws || w != sws_size[0] || h != sws_size[1] || frame->format != sws_size[2]) {
      if (sws) ff.sws_freeContext(sws);
      sws = ff.sws_getContext(w, h, static_cast<AVPixelFormat>(frame->format), w, h, AV_PIX_FMT_RGBA, SWS_BILINEAR,
                              nullptr, nullptr, nullptr);
      if (!sws) return decoder.fail(ErrorCode::invalid_value, "cannot convert its frames to RGBA");
      sws_size = {w, h, frame->format};
    }
    TimedImage t;
    t.image.width = w;
    t.image.height = h;
    t.image.rgba.resize(std::size_t(w) * std::size_t(h) * 4);
    std::uint8_t* dst[1] = {t.image.rgba.data()};
    const int dst_stride[1] = {w * 4};
    ff.sws_scale(sws, frame->data, frame->linesize, 0, h, dst, dst_stride);
    std::int64_t pts = frame->best_effort_timestamp;
    if (pts == AV_NOPTS_VALUE) pts = frame->pts;
    const std::int64_t start = stream.start_time == AV_NOPTS_VALUE ? 0 : stream.start_time;
    t.seconds = pts == AV_NOPTS_VALUE ? (current ? current->seconds : 0.0) : double(pts - start) * av_q2d(stream.time_base);
    ff.av_frame_unref(frame);
    return t;
  }

  // The next frame in presentation order, or nullopt at the end.
  Result<std::optional<TimedImage>> decode_next() {
    auto frame = decoder.next();
    if (!frame) return std::unexpected(frame.error());
    if (!*frame) return std::optional<TimedImage>();
    auto t = convert(*frame);
    if (!t) return std::unexpected(t.error());
    return std::optional<TimedImage>(std::move(*t));
  }
};

VideoFrameReader::VideoFrameReader(std::unique_ptr<Impl> impl) noexcept : impl_(std::move(impl)) {}
VideoFrameReader::VideoFrameReader(VideoFrameReader&&) noexcept = default;
VideoFrameReader& VideoFrameReader::operator=(VideoFrameReader&&) noexcept = default;
VideoFrameReader::~VideoFrameReader() = default;

Result<VideoFrameReader> VideoFrameReader::open(const std::filesystem::path& path) {
  auto impl = std::make_unique<Impl>();
  impl->path = path;
  if (auto r = impl->open(); !r) return std::unexpected(r.error());
  return VideoFrameReader(std::move(impl));
}

Result<const Image*> VideoFrameReader::frame_at(double seconds) {
  Impl& r = *impl_;
  if (r.current && seconds < r.last_seconds) {  // back in time: from the start again
    r.close();
    if (auto e = r.open(); !e) return std::unexpected(e.error());
  }
  r.last_seconds = seconds;
  for (;;) {
    if (!r.next && !r.ended) {
      auto n = r.decode_next();
      if (!n) return std::unexpected(n.error());
      r.next = std::move(*n);
      r.ended = !r.next;
    }
    if (!r.next || (r.current && r.next->seconds > seconds)) break;
    r.current = std::move(r.next);  // at or before `seconds`, or the first frame
    r.next.reset();
  }
  if (!r.current) return r.decoder.fail(ErrorCode::invalid_value, "the video has no frame");
  return &r.current->image;
}

}  // namespace mmdkit::render
