// mmdkit — audio decoding to mono through FFmpeg (render/audio.hpp).
#include "mmdkit/render/audio.hpp"

#include "render/ffmpeg.hpp"

#include <algorithm>
#include <string>

namespace mmdkit::render {

namespace {

struct Decoder {
  const detail::Ffmpeg* ff = nullptr;
  AVFormatContext* in = nullptr;
  AVCodecContext* dec = nullptr;
  SwrContext* swr = nullptr;
  AVFrame* frame = nullptr;
  AVPacket* pkt = nullptr;
  ~Decoder() {
    if (!ff) return;
    if (pkt) ff->av_packet_free(&pkt);
    if (frame) ff->av_frame_free(&frame);
    if (swr) ff->swr_free(&swr);
    if (dec) ff->avcodec_free_context(&dec);
    if (in) ff->avformat_close_input(&in);
  }
  std::string error(int code) const {
    char buf[AV_ERROR_MAX_STRING_SIZE] = {};
    ff->av_strerror(code, buf, sizeof buf);
    return buf;
  }
};

}  // namespace

Result<std::vector<float>> decode_audio_mono(const std::filesystem::path& file, int sample_rate) {
  if (sample_rate < 8000 || sample_rate > 384000) return make_error(ErrorCode::invalid_argument, "sample rate must be 8000..384000 Hz");
  auto loaded = detail::ffmpeg();
  if (!loaded) return std::unexpected(loaded.error());
  Decoder d;
  d.ff = *loaded;
  const auto* ff = d.ff;
  ff->av_log_set_level(AV_LOG_QUIET);
  const std::string name = file.string();
  int ret = ff->avformat_open_input(&d.in, name.c_str(), nullptr, nullptr);
  if (ret < 0) return make_error(ErrorCode::invalid_value, name + ": cannot open the audio file: " + d.error(ret));
  if ((ret = ff->avformat_find_stream_info(d.in, nullptr)) < 0)
    return make_error(ErrorCode::invalid_value, name + ": cannot read the audio file: " + d.error(ret));
  const AVCodec* codec = nullptr;
  const int stream = ff->av_find_best_stream(d.in, AVMEDIA_TYPE_AUDIO, -1, -1, &codec, 0);
  if (stream < 0 || !codec) return make_error(ErrorCode::invalid_value, name + ": no audio stream this FFmpeg can decode");
  d.dec = ff->avcodec_alloc_context3(codec);
  if (!d.dec) return make_error(ErrorCode::io_error, "out of memory (audio)");
  ff->avcodec_parameters_to_context(d.dec, d.in->streams[stream]->codecpar);
  if ((ret = ff->avcodec_open2(d.dec, codec, nullptr)) < 0)
    return make_error(ErrorCode::invalid_value, name + ": cannot open the audio decoder: " + d.error(ret));
  AVChannelLayout in_layout{}, out_layout{};
  if (d.dec->ch_layout.order == AV_CHANNEL_ORDER_UNSPEC || d.dec->ch_layout.nb_channels == 0)
    ff->av_channel_layout_default(&in_layout, std::max(1, d.dec->ch_layout.nb_channels));
  else
    ff->av_channel_layout_copy(&in_layout, &d.dec->ch_layout);
  ff->av_channel_layout_default(&out_layout, 1);
  ret = ff->swr_alloc_set_opts2(&d.swr, &out_layout, AV_SAMPLE_FMT_FLT, sample_rate, &in_layout, d.dec->sample_fmt,
                                d.dec->sample_rate, 0, nullptr);
  ff->av_channel_layout_uninit(&in_layout);
  ff->av_channel_layout_uninit(&out_layout);
  if (ret < 0 || ff->swr_init(d.swr) < 0) return make_error(ErrorCode::invalid_value, name + ": cannot convert its audio format");
  d.frame = ff->av_frame_alloc();
  d.pkt = ff->av_packet_alloc();
  if (!d.frame || !d.pkt) return make_error(ErrorCode::io_error, "out of memory (audio)");
  std::vector<float> out;
  auto convert = [&](const AVFrame* f) -> Result<void> {
    const int in_n = f ? f->nb_samples : 0;
    const int max = ff->swr_get_out_samples(d.swr, in_n);
    if (max <= 0) return {};
    const std::size_t at = out.size();
    if (at + static_cast<std::size_t>(max) > (std::size_t{1} << 31))
      return make_error(ErrorCode::limit_exceeded, name + ": more than 2^31 samples");
    out.resize(at + static_cast<std::size_t>(max));
    auto* dst = reinterpret_cast<uint8_t*>(out.data() + at);
    const int got = ff->swr_convert(d.swr, &dst, max, f ? const_cast<const uint8_t**>(f->extended_data) : nullptr, in_n);
    if (got < 0) return make_error(ErrorCode::invalid_value, name + ": audio conversion failed: " + d.error(got));
    out.resize(at + static_cast<std::size_t>(got));
    return {};
  };
  auto receive = [&]() -> Result<void> {
    for (;;) {
      const int r = ff->avcodec_receive_frame(d.dec, d.frame);
      if (r == AVERROR(EAGAIN) || r == AVERROR_EOF) return {};
      if (r < 0) return make_error(ErrorCode::invalid_value, name + ": audio decoding failed: " + d.error(r));
      auto c = convert(d.frame);
      ff->av_frame_unref(d.frame);
      if (!c) return c;
    }
  };
  while (ff->av_read_frame(d.in, d.pkt) >= 0) {
    if (d.pkt->stream_index == stream) {
      ret = ff->avcodec_send_packet(d.dec, d.pkt);
      ff->av_packet_unref(d.pkt);
      if (ret < 0 && ret != AVERROR(EAGAIN) && ret != AVERROR_INVALIDDATA)
        return make_error(ErrorCode::invalid_value, name + ": audio decoding failed: " + d.error(ret));
      if (auto r = receive(); !r) return std::unexpected(r.error());
    } else {
      ff->av_packet_unref(d.pkt);
    }
  }
  ff->avcodec_send_packet(d.dec, nullptr);
  if (auto r = receive(); !r) return std::unexpected(r.error());
  if (auto r = convert(nullptr); !r) return std::unexpected(r.error());  // the resampler's delay
  return out;
}

}  // namespace mmdkit::render
