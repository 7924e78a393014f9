// mmdkit — one video stream decoded frame after frame (video_decoder.hpp).
#include "render/video_decoder.hpp"

namespace mmdkit::render::detail {

std::unexpected<Error> VideoDecoder::fail(ErrorCode code, const std::string& why, int ret) const {
  Error e = make_error(code, path_.string() + ": " + why + (ret < 0 && ff_ ? ": " + av_error_text(*ff_, ret) : "")).error();
  e.file = path_.string();
  return std::unexpected(e);
}

Result<void> VideoDecoder::open(const std::filesystem::path& path) {
  close();
  path_ = path;
  auto loaded = ffmpeg();
  if (!loaded) return std::unexpected(loaded.error());
  ff_ = *loaded;
  ff_->av_log_set_level(AV_LOG_ERROR);
  const std::string name = path.string();
  int ret = ff_->avformat_open_input(&ctx_, name.c_str(), nullptr, nullptr);
  if (ret < 0) return fail(ErrorCode::invalid_value, "cannot open the video", ret);
  if ((ret = ff_->avformat_find_stream_info(ctx_, nullptr)) < 0) return fail(ErrorCode::invalid_value, "cannot read the video", ret);
  const AVCodec* codec = nullptr;
  const int index = ff_->av_find_best_stream(ctx_, AVMEDIA_TYPE_VIDEO, -1, -1, &codec, 0);
  if (index < 0 || !codec) return fail(ErrorCode::invalid_value, "no video stream this FFmpeg decodes");
  stream_ = ctx_->streams[index];
  dec_ = ff_->avcodec_alloc_context3(codec);
  pkt_ = ff_->av_packet_alloc();
  frame_ = ff_->av_frame_alloc();
  if (!dec_ || !pkt_ || !frame_) return fail(ErrorCode::io_error, "out of memory");
  ff_->avcodec_parameters_to_context(dec_, stream_->codecpar);
  if ((ret = ff_->avcodec_open2(dec_, codec, nullptr)) < 0) return fail(ErrorCode::invalid_value, "cannot open the decoder", ret);
  return {};
}

void VideoDecoder::close() noexcept {
  if (!ff_) return;
  ff_->avcodec_free_context(&dec_);
  ff_->av_packet_free(&pkt_);
  ff_->av_frame_free(&frame_);
  if (ctx_) ff_->avformat_close_input(&ctx_);
  stream_ = nullptr;
  draining_ = false;
}

Result<AVFrame*> VideoDecoder::next() {
  if (!dec_) return fail(ErrorCode::invalid_argument, "the video is not open");
  for (;;) {
    int ret = ff_->avcodec_receive_frame(dec_, frame_);
    if (ret >= 0) return frame_;
    if (ret == AVERROR_EOF) return nullptr;
    if (ret != AVERROR(EAGAIN)) return fail(ErrorCode::invalid_value, "video decoding failed", ret);
    if (draining_) return nullptr;
    // the next packet of our stream (the others skipped); at the end, flush the decoder
    while ((ret = ff_->av_read_frame(ctx_, pkt_)) >= 0 && pkt_->stream_index != stream_->index) ff_->av_packet_unref(pkt_);
    if (ret < 0) {
      draining_ = true;
      ff_->avcodec_send_packet(dec_, nullptr);
      continue;
    }
    ret = ff_->avcodec_send_packet(dec_, pkt_);
    ff_->av_packet_unref(pkt_);
    if (ret < 0 && ret != AVERROR(EAGAIN)) return fail(ErrorCode::invalid_value, "video decoding failed", ret);
  }
}

}  // namespace mmdkit::render::detail
