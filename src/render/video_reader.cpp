// mmdkit — video frames decoded one at a time (video.hpp VideoFrameReader).
#include "mmdkit/render/video.hpp"

#include "render/ffmpeg.hpp"

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
  const detail::Ffmpeg* ff = nullptr;
  std::filesystem::path path;
  AVFormatContext* ctx = nullptr;
  AVStream* stream = nullptr;
  AVCodecContext* dec = nullptr;
  AVPacket* pkt = nullptr;
  AVFrame* frame = nullptr;
  SwsContext* sws = nullptr;
  std::array<int, 3> sws_size{};  // width, height, pixel format sws was made for
  double last_seconds = 0;        // the time last asked (frame_at)
  bool draining = false, ended = false;
  std::optional<TimedImage> current, next;  // next: decoded ahead, after the time last asked

  ~Impl() { close(); }

  void close() {
    if (!ff) return;
    if (sws) ff->sws_freeContext(sws);
    sws = nullptr;
    ff->avcodec_free_context(&dec);
    ff->av_packet_free(&pkt);
    ff->av_frame_free(&frame);
    if (ctx) ff->avformat_close_input(&ctx);
    stream = nullptr;
    draining = ended = false;
    current.reset();
    next.reset();
  }

  std::unexpected<Error> fail(ErrorCode code, const std::string& why, int ret = 0) const {
    Error e = make_error(code, path.string() + ": " + why + (ret < 0 ? ": " + detail::av_error_text(*ff, ret) : "")).error();
    e.file = path.string();
    return std::unexpected(e);
  }

  Result<void> open() {
    const std::string name = path.string();
    int ret = ff->avformat_open_input(&ctx, name.c_str(), nullptr, nullptr);
    if (ret < 0) return fail(ErrorCode::invalid_value, "cannot open the video", ret);
    if ((ret = ff->avformat_find_stream_info(ctx, nullptr)) < 0) return fail(ErrorCode::invalid_value, "cannot read the video", ret);
    const AVCodec* codec = nullptr;
    const int index = ff->av_find_best_stream(ctx, AVMEDIA_TYPE_VIDEO, -1, -1, &codec, 0);
    if (index < 0 || !codec) return fail(ErrorCode::invalid_value, "no video stream this FFmpeg decodes");
    stream = ctx->streams[index];
    dec = ff->avcodec_alloc_context3(codec);
    pkt = ff->av_packet_alloc();
    frame = ff->av_frame_alloc();
    if (!dec || !pkt || !frame) return fail(ErrorCode::io_error, "out of memory");
    ff->avcodec_parameters_to_context(dec, stream->codecpar);
    if ((ret = ff->avcodec_open2(dec, codec, nullptr)) < 0) return fail(ErrorCode::invalid_value, "cannot open the decoder", ret);
    return {};
  }

  // The decoded frame as RGBA with its time.
  Result<TimedImage> convert() {
    const int w = frame->width, h = frame->height;
    if (w < 1 || h < 1 || w > 16384 || h > 16384) return fail(ErrorCode::invalid_value, "a frame is not 1..16384 pixels a side");
    if (!sws || w != sws_size[0] || h != sws_size[1] || frame->format != sws_size[2]) {
      if (sws) ff->sws_freeContext(sws);
      sws = ff->sws_getContext(w, h, static_cast<AVPixelFormat>(frame->format), w, h, AV_PIX_FMT_RGBA, SWS_BILINEAR,
                               nullptr, nullptr, nullptr);
      if (!sws) return fail(ErrorCode::invalid_value, "cannot convert its frames to RGBA");
      sws_size = {w, h, frame->format};
    }
    TimedImage t;
    t.image.width = w;
    t.image.height = h;
    t.image.rgba.resize(std::size_t(w) * std::size_t(h) * 4);
    std::uint8_t* dst[1] = {t.image.rgba.data()};
    const int dst_stride[1] = {w * 4};
    ff->sws_scale(sws, frame->data, frame->linesize, 0, h, dst, dst_stride);
    std::int64_t pts = frame->best_effort_timestamp;
    if (pts == AV_NOPTS_VALUE) pts = frame->pts;
    const std::int64_t start = stream->start_time == AV_NOPTS_VALUE ? 0 : stream->start_time;
    t.seconds = pts == AV_NOPTS_VALUE ? (current ? current->seconds : 0.0) : double(pts - start) * av_q2d(stream->time_base);
    ff->av_frame_unref(frame);
    return t;
  }

  // The next frame in presentation order, or nullopt at the end.
  Result<std::optional<TimedImage>> decode_next() {
    for (;;) {
      int ret = ff->avcodec_receive_frame(dec, frame);
      if (ret >= 0) {
        auto t = convert();
        if (!t) return std::unexpected(t.error());
        return std::optional<TimedImage>(std::move(*t));
      }
      if (ret == AVERROR_EOF) return std::optional<TimedImage>();
      if (ret != AVERROR(EAGAIN)) return fail(ErrorCode::invalid_value, "video decoding failed", ret);
      if (draining) return std::optional<TimedImage>();
      while ((ret = ff->av_read_frame(ctx, pkt)) >= 0 && pkt->stream_index != stream->index) ff->av_packet_unref(pkt);
      if (ret < 0) {
        draining = true;
        ff->avcodec_send_packet(dec, nullptr);
        continue;
      }
      ret = ff->avcodec_send_packet(dec, pkt);
      ff->av_packet_unref(pkt);
      if (ret < 0 && ret != AVERROR(EAGAIN)) return fail(ErrorCode::invalid_value, "video decoding failed", ret);
    }
  }
};

VideoFrameReader::VideoFrameReader(std::unique_ptr<Impl> impl) noexcept : impl_(std::move(impl)) {}
VideoFrameReader::VideoFrameReader(VideoFrameReader&&) noexcept = default;
VideoFrameReader& VideoFrameReader::operator=(VideoFrameReader&&) noexcept = default;
VideoFrameReader::~VideoFrameReader() = default;

Result<VideoFrameReader> VideoFrameReader::open(const std::filesystem::path& path) {
  auto loaded = detail::ffmpeg();
  if (!loaded) return std::unexpected(loaded.error());
  auto impl = std::make_unique<Impl>();
  impl->ff = *loaded;
  impl->ff->av_log_set_level(AV_LOG_ERROR);
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
  if (!r.current) return r.fail(ErrorCode::invalid_value, "the video has no frame");
  return &r.current->image;
}

}  // namespace mmdkit::render
