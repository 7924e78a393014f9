// mmdkit — video writing through FFmpeg's libraries (video.hpp).
#include "mmdkit/render/video.hpp"

#include "render/ffmpeg.hpp"  // FFmpeg's headers; its libraries are loaded by open()
#include "render/video_decoder.hpp"

#include <algorithm>
#include <condition_variable>
#include <cstring>
#include <limits>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

namespace mmdkit::render {

namespace {

// FFmpeg's functions: set by VideoWriter::open() before anything else here runs.
const detail::Ffmpeg* ff = nullptr;

std::string av_error(int code) { return detail::av_error_text(*ff, code); }

std::unexpected<Error> fail(ErrorCode code, const std::string& what) { return make_error(code, what); }

}  // namespace

struct VideoWriter::Impl {
  AVFormatContext* fmt = nullptr;
  AVCodecContext* venc = nullptr;
  AVStream* vst = nullptr;
  AVFrame* vframe = nullptr;
  AVPacket* pkt = nullptr;
  SwsContext* sws = nullptr;
  std::int64_t next_pts = 0;
  int width = 0, height = 0, fps = 30;
  // Audio: input file → decoder → resampler → FIFO → encoder.
  AVFormatContext* ain = nullptr;
  AVCodecContext* adec = nullptr;
  int ain_stream = -1;
  AVCodecContext* aenc = nullptr;
  AVStream* ast = nullptr;
  SwrContext* swr = nullptr;
  AVAudioFifo* fifo = nullptr;
  AVFrame* aframe = nullptr;  // encoder-sized frame
  AVFrame* dframe = nullptr;  // decoded frame
  AVPacket* apkt = nullptr;
  std::int64_t apts = 0;
  bool audio_eof = false;
  bool header_written = false;
  std::string path;
  // The encoder thread (video.hpp write): one frame waiting, one being encoded.
  std::thread worker;
  std::mutex mutex;
  std::condition_variable changed;
  Image waiting, encoding;
  bool has_waiting = false, busy = false, stop = false;
  std::optional<Error> failure;  // the first error of the thread; it then stops

  ~Impl() {
    stop_worker();
    ff->sws_freeContext(sws);
    ff->av_frame_free(&vframe);
    ff->av_frame_free(&aframe);
    ff->av_frame_free(&dframe);
    ff->av_packet_free(&pkt);
    ff->av_packet_free(&apkt);
    ff->avcodec_free_context(&venc);
    ff->avcodec_free_context(&aenc);
    ff->avcodec_free_context(&adec);
    ff->swr_free(&swr);
    if (fifo) ff->av_audio_fifo_free(fifo);
    if (ain) ff->avformat_close_input(&ain);
    if (fmt) {
      if (!(fmt->oformat->flags & AVFMT_NOFILE)) ff->avio_closep(&fmt->pb);
      ff->avformat_free_context(fmt);
    }
  }

  void stop_worker() {
    if (!worker.joinable()) return;
    {
      std::lock_guard lock(mutex);
      stop = true;
    }
    changed.notify_all();
    worker.join();
  }

  // Converts and encodes one frame (and the audio up to its end).
  Result<void> encode(const Image& frame) {
    if (ff->av_frame_make_writable(vframe) < 0) return fail(ErrorCode::io_error, "out of memory");
    const uint8_t* src[1] = {frame.rgba.data()};
    const int stride[1] = {frame.width * 4};
    ff->sws_scale(sws, src, stride, 0, frame.height, vframe->data, vframe->linesize);
    vframe->pts = next_pts++;
    if (auto r = drain(venc, vst, vframe); !r) return r;
    if (aenc) return pump_audio(ff->av_rescale_q(next_pts, venc->time_base, aenc->time_base));
    return {};
  }

  // The thread: takes the waiting frame, encodes it, until stopped with nothing waiting or failed.
  void run() {
    std::unique_lock lock(mutex);
    for (;;) {
      changed.wait(lock, [&] { return has_waiting || stop; });
      if (!has_waiting) return;  // stopped, everything encoded
      std::swap(waiting, encoding);
      has_waiting = false;
      busy = true;
      lock.unlock();
      changed.notify_all();
      auto r = encode(encoding);
      lock.lock();
      busy = false;
      if (!r) failure = r.error();
      changed.notify_all();
      if (failure) return;
    }
  }

  Result<void> drain(AVCodecContext* enc, AVStream* st, AVFrame* frame) {
    int ret = ff->avcodec_send_frame(enc, frame);
    if (ret < 0 && ret != AVERROR_EOF) return fail(ErrorCode::io_error, "encoder refused a frame: " + av_error(ret));
    for (;;) {
      ret = ff->avcodec_receive_packet(enc, pkt);
      if (ret == AVERROR(EAGAIN) || ret == AVERROR_EOF) return {};
      if (ret < 0) return fail(ErrorCode::io_error, "encoding failed: " + av_error(ret));
      // Every packet says how long it lasts. libx264 and libvpx-vp9 (FFmpeg 5.1) leave a video
      // packet's duration 0; MP4's muxer then gives the last sample 0 ticks (stts) and its edit
      // list ends where that sample starts, so decoders drop the last frame (a one-frame file has
      // none). A video frame lasts one tick of the encoder's time base 1/fps; audio encoders set
      // theirs (samples per frame).
      if (pkt->duration <= 0 && enc->codec_type == AVMEDIA_TYPE_VIDEO) pkt->duration = 1;
      ff->av_packet_rescale_ts(pkt, enc->time_base, st->time_base);
      pkt->stream_index = st->index;
      ret = ff->av_interleaved_write_frame(fmt, pkt);
      if (ret < 0) return fail(ErrorCode::io_error, path + ": write failed: " + av_error(ret));
    }
  }

  // Decodes and resamples input audio into the FIFO until it holds `want` samples or the input ends.
  Result<void> fill_fifo(int want) {
    while (!audio_eof && ff->av_audio_fifo_size(fifo) < want) {
      int ret = ff->av_read_frame(ain, apkt);
      if (ret < 0) {
        audio_eof = true;
        ff->avcodec_send_packet(adec, nullptr);
      } else {
        if (apkt->stream_index != ain_stream) {
          ff->av_packet_unref(apkt);
          continue;
        }
        ret = ff->avcodec_send_packet(adec, apkt);
        ff->av_packet_unref(apkt);
        if (ret < 0 && ret != AVERROR(EAGAIN)) return fail(ErrorCode::invalid_value, "audio decoding failed: " + av_error(ret));
      }
      for (;;) {
        ret = ff->avcodec_receive_frame(adec, dframe);
        if (ret == AVERROR(EAGAIN) || ret == AVERROR_EOF) break;
        if (ret < 0) return fail(ErrorCode::invalid_value, "audio decoding failed: " + av_error(ret));
        const int out_max = ff->swr_get_out_samples(swr, dframe->nb_samples);
        uint8_t** data = nullptr;
        if (ff->av_samples_alloc_array_and_samples(&data, nullptr, aenc->ch_layout.nb_channels, out_max, aenc->sample_fmt, 0) < 0)
          return fail(ErrorCode::io_error, "out of memory (audio)");
        const int got = ff->swr_convert(swr, data, out_max, const_cast<const uint8_t**>(dframe->extended_data), dframe->nb_samples);
        if (got > 0) ff->av_audio_fifo_write(fifo, reinterpret_cast<void**>(data), got);
        ff->av_freep(&data[0]);
        ff->av_freep(&data);
        ff->av_frame_unref(dframe);
      }
    }
    return {};
  }

  // Encodes audio frames until the audio reaches `limit` samples (the video's length so far);
  // after the end of the input, silence.
  Result<void> pump_audio(std::int64_t limit) {
    if (!aenc) return {};
    const int fs = aframe->nb_samples;
    while (apts < limit) {
      if (auto r = fill_fifo(fs); !r) return r;
      const int n = std::min(ff->av_audio_fifo_size(fifo), fs);
      if (n < fs && !audio_eof) break;
      if (ff->av_frame_make_writable(aframe) < 0) return fail(ErrorCode::io_error, "out of memory (audio)");
      ff->av_samples_set_silence(aframe->data, 0, fs, aenc->ch_layout.nb_channels, aenc->sample_fmt);
      if (n > 0) ff->av_audio_fifo_read(fifo, reinterpret_cast<void**>(aframe->data), n);
      aframe->pts = apts;
      apts += fs;
      if (auto r = drain(aenc, ast, aframe); !r) return r;
    }
    return {};
  }

  // Creates the file and writes the container's header (MP4: +faststart).
  Result<void> write_header(bool webm) {
    int ret = ff->avio_open(&fmt->pb, path.c_str(), AVIO_FLAG_WRITE);
    if (ret < 0) return fail(ErrorCode::io_error, path + ": cannot create: " + av_error(ret));
    AVDictionary* opts = nullptr;
    if (!webm) ff->av_dict_set(&opts, "movflags", "+faststart", 0);
    ret = ff->avformat_write_header(fmt, &opts);
    ff->av_dict_free(&opts);
    if (ret < 0) return fail(ErrorCode::io_error, path + ": cannot write the header: " + av_error(ret));
    header_written = true;
    return {};
  }

  Result<void> open_audio(const std::filesystem::path& file, bool webm) {
    const std::string name = file.string();
    int ret = ff->avformat_open_input(&ain, name.c_str(), nullptr, nullptr);
    if (ret < 0) return fail(ErrorCode::invalid_value, name + ": cannot open the audio file: " + av_error(ret));
    if ((ret = ff->avformat_find_stream_info(ain, nullptr)) < 0)
      return fail(ErrorCode::invalid_value, name + ": cannot read the audio file: " + av_error(ret));
    const AVCodec* dec = nullptr;
    ain_stream = ff->av_find_best_stream(ain, AVMEDIA_TYPE_AUDIO, -1, -1, &dec, 0);
    if (ain_stream < 0 || !dec) return fail(ErrorCode::invalid_value, name + ": no audio stream this FFmpeg can decode");
    adec = ff->avcodec_alloc_context3(dec);
    ff->avcodec_parameters_to_context(adec, ain->streams[ain_stream]->codecpar);
    if ((ret = ff->avcodec_open2(adec, dec, nullptr)) < 0)
      return fail(ErrorCode::invalid_value, name + ": cannot open the audio decoder: " + av_error(ret));

    const char* enc_name = webm ? "libopus" : "aac";
    const AVCodec* enc = ff->avcodec_find_encoder_by_name(enc_name);
    if (!enc) return fail(ErrorCode::unsupported, std::string("the audio encoder ") + enc_name + " is not in this FFmpeg build (Debian libavcodec59 has it)");
    aenc = ff->avcodec_alloc_context3(enc);
    aenc->sample_rate = 48000;
    aenc->sample_fmt = enc->sample_fmts ? enc->sample_fmts[0] : AV_SAMPLE_FMT_FLTP;
    ff->av_channel_layout_default(&aenc->ch_layout, 2);
    aenc->bit_rate = webm ? 128000 : 192000;
    aenc->time_base = {1, aenc->sample_rate};
    if (fmt->oformat->flags & AVFMT_GLOBALHEADER) aenc->flags |= AV_CODEC_FLAG_GLOBAL_HEADER;
    if ((ret = ff->avcodec_open2(aenc, enc, nullptr)) < 0)
      return fail(ErrorCode::unsupported, std::string("cannot open the audio encoder ") + enc_name + ": " + av_error(ret));
    ast = ff->avformat_new_stream(fmt, nullptr);
    ast->time_base = aenc->time_base;
    ff->avcodec_parameters_from_context(ast->codecpar, aenc);
    AVChannelLayout in_layout{};
    if (adec->ch_layout.order == AV_CHANNEL_ORDER_UNSPEC || adec->ch_layout.nb_channels == 0)
      ff->av_channel_layout_default(&in_layout, std::max(1, adec->ch_layout.nb_channels));
    else
      ff->av_channel_layout_copy(&in_layout, &adec->ch_layout);
    ret = ff->swr_alloc_set_opts2(&swr, &aenc->ch_layout, aenc->sample_fmt, aenc->sample_rate, &in_layout,
                              adec->sample_fmt, adec->sample_rate, 0, nullptr);
    ff->av_channel_layout_uninit(&in_layout);
    if (ret < 0 || ff->swr_init(swr) < 0) return fail(ErrorCode::invalid_value, name + ": cannot convert its audio format");
    fifo = ff->av_audio_fifo_alloc(aenc->sample_fmt, aenc->ch_layout.nb_channels, 4096);
    aframe = ff->av_frame_alloc();
    dframe = ff->av_frame_alloc();
    apkt = ff->av_packet_alloc();
    aframe->nb_samples = aenc->frame_size > 0 ? aenc->frame_size : 1024;
    aframe->format = aenc->sample_fmt;
    ff->av_channel_layout_copy(&aframe->ch_layout, &aenc->ch_layout);
    aframe->sample_rate = aenc->sample_rate;
    if (!fifo || !aframe || !dframe || !apkt || ff->av_frame_get_buffer(aframe, 0) < 0)
      return fail(ErrorCode::io_error, "out of memory (audio)");
    return {};
  }
};

VideoWriter::VideoWriter(std::unique_ptr<Impl> impl) noexcept : impl_(std::move(impl)) {}
VideoWriter::VideoWriter(VideoWriter&&) noexcept = default;
VideoWriter& VideoWriter::operator=(VideoWriter&&) noexcept = default;
VideoWriter::~VideoWriter() = default;

Result<VideoWriter> VideoWriter::open(const VideoSettings& s) {
  if (s.width < 2 || s.height < 2 || s.width % 2 || s.height % 2)
    return fail(ErrorCode::invalid_argument, "video size " + std::to_string(s.width) + "x" + std::to_string(s.height) +
                                                 " must be even (yuv420p)");
  if (s.fps < 1 || s.fps > 240) return fail(ErrorCode::invalid_argument, "fps " + std::to_string(s.fps) + " outside 1..240");
  const bool webm = s.container == "webm";
  if (!webm && s.container != "mp4") return fail(ErrorCode::invalid_argument, "unknown container '" + s.container + "' (mp4, webm)");
  auto loaded = detail::ffmpeg();
  if (!loaded) return std::unexpected(loaded.error());
  ff = *loaded;
  ff->av_log_set_level(AV_LOG_ERROR);
  auto impl = std::make_unique<Impl>();
  Impl& v = *impl;
  v.width = s.width;
  v.height = s.height;
  v.fps = s.fps;
  v.path = s.path.string();
  int ret = ff->avformat_alloc_output_context2(&v.fmt, nullptr, s.container.c_str(), v.path.c_str());
  if (ret < 0 || !v.fmt) return fail(ErrorCode::unsupported, "FFmpeg has no " + s.container + " muxer: " + av_error(ret));
  const char* enc_name = webm ? "libvpx-vp9" : "libx264";
  const AVCodec* codec = ff->avcodec_find_encoder_by_name(enc_name);
  if (!codec)
    return fail(ErrorCode::unsupported, std::string("the video encoder ") + enc_name +
                                            " is not in this FFmpeg build (Debian's libavcodec59 has it)");
  v.venc = ff->avcodec_alloc_context3(codec);
  AVCodecContext* c = v.venc;
  c->width = s.width;
  c->height = s.height;
  c->pix_fmt = AV_PIX_FMT_YUV420P;
  c->time_base = {1, s.fps};
  c->framerate = {s.fps, 1};
  c->gop_size = s.fps * 2;
  c->thread_count = 0;
  c->color_range = AVCOL_RANGE_MPEG;
  c->colorspace = AVCOL_SPC_SMPTE170M;
  c->color_primaries = AVCOL_PRI_SMPTE170M;
  c->color_trc = AVCOL_TRC_SMPTE170M;
  if (webm) {
    c->bit_rate = 0;
    ff->av_opt_set(c->priv_data, "crf", "32", 0);
    ff->av_opt_set(c->priv_data, "deadline", "good", 0);
    ff->av_opt_set(c->priv_data, "cpu-used", "5", 0);
    ff->av_opt_set(c->priv_data, "row-mt", "1", 0);
  } else {
    ff->av_opt_set(c->priv_data, "crf", "20", 0);
    ff->av_opt_set(c->priv_data, "preset", "fast", 0);
  }
  if (v.fmt->oformat->flags & AVFMT_GLOBALHEADER) c->flags |= AV_CODEC_FLAG_GLOBAL_HEADER;
  if ((ret = ff->avcodec_open2(c, codec, nullptr)) < 0)
    return fail(ErrorCode::unsupported, std::string("cannot open the encoder ") + enc_name + ": " + av_error(ret));
  v.vst = ff->avformat_new_stream(v.fmt, nullptr);
  v.vst->time_base = c->time_base;
  ff->avcodec_parameters_from_context(v.vst->codecpar, c);
  v.vframe = ff->av_frame_alloc();
  v.pkt = ff->av_packet_alloc();
  if (!v.vframe || !v.pkt) return fail(ErrorCode::io_error, "out of memory");
  v.vframe->format = c->pix_fmt;
  v.vframe->width = c->width;
  v.vframe->height = c->height;
  if (ff->av_frame_get_buffer(v.vframe, 0) < 0) return fail(ErrorCode::io_error, "out of memory");
  v.sws = ff->sws_getContext(s.width, s.height, AV_PIX_FMT_RGBA, s.width, s.height, AV_PIX_FMT_YUV420P,
                         SWS_BILINEAR | SWS_ACCURATE_RND, nullptr, nullptr, nullptr);
  if (!v.sws) return fail(ErrorCode::unsupported, "swscale cannot convert RGBA to yuv420p");
  if (!s.audio.empty())
    if (auto r = v.open_audio(s.audio, webm); !r) return std::unexpected(r.error());
  if (auto r = v.write_header(webm); !r) return std::unexpected(r.error());
  v.worker = std::thread([&v] { v.run(); });
  return VideoWriter(std::move(impl));
}

Result<void> VideoWriter::write(const Image& frame) {
  Impl& v = *impl_;
  if (frame.width != v.width || frame.height != v.height ||
      frame.rgba.size() != std::size_t(v.width) * std::size_t(v.height) * 4)
    return fail(ErrorCode::invalid_argument, "frame of " + std::to_string(frame.width) + "x" +
                                                 std::to_string(frame.height) + " for a video of " +
                                                 std::to_string(v.width) + "x" + std::to_string(v.height));
  // Handed to the encoder thread: wait for the slot, copy the frame into it (its buffer is
  // reused), return; the caller draws the next frame while this one is encoded.
  std::unique_lock lock(v.mutex);
  v.changed.wait(lock, [&] { return !v.has_waiting || v.failure || !v.worker.joinable(); });
  if (v.failure) return std::unexpected(*v.failure);
  if (!v.worker.joinable()) return fail(ErrorCode::invalid_argument, v.path + ": frame written after finish()");
  v.waiting.width = frame.width;
  v.waiting.height = frame.height;
  v.waiting.rgba.assign(frame.rgba.begin(), frame.rgba.end());
  v.has_waiting = true;
  lock.unlock();
  v.changed.notify_all();
  return {};
}

Result<void> VideoWriter::finish() {
  Impl& v = *impl_;
  v.stop_worker();  // encodes what is waiting first
  if (v.failure) return std::unexpected(*v.failure);
  if (auto r = v.drain(v.venc, v.vst, nullptr); !r) return r;
  if (v.aenc) {
    if (auto r = v.pump_audio(ff->av_rescale_q(v.next_pts, v.venc->time_base, v.aenc->time_base)); !r) return r;
    if (auto r = v.drain(v.aenc, v.ast, nullptr); !r) return r;
  }
  const int ret = ff->av_write_trailer(v.fmt);
  if (ret < 0) return fail(ErrorCode::io_error, v.path + ": cannot finish the file: " + av_error(ret));
  if (!(v.fmt->oformat->flags & AVFMT_NOFILE)) ff->avio_closep(&v.fmt->pb);
  return {};
}

namespace {

// One segment opened for reading (closed when it goes).
struct SegmentInput {
  AVFormatContext* ctx = nullptr;
  AVStream* stream = nullptr;
  ~SegmentInput() {
    if (ctx) ff->avformat_close_input(&ctx);
  }
};

Result<void> open_segment(const std::filesystem::path& path, SegmentInput& in) {
  const std::string name = path.string();
  int ret = ff->avformat_open_input(&in.ctx, name.c_str(), nullptr, nullptr);
  if (ret < 0) return fail(ErrorCode::invalid_value, name + ": cannot open the segment: " + av_error(ret));
  if ((ret = ff->avformat_find_stream_info(in.ctx, nullptr)) < 0)
    return fail(ErrorCode::invalid_value, name + ": cannot read the segment: " + av_error(ret));
  const int index = ff->av_find_best_stream(in.ctx, AVMEDIA_TYPE_VIDEO, -1, -1, nullptr, 0);
  if (index < 0) return fail(ErrorCode::invalid_value, name + ": the segment has no video stream");
  in.stream = in.ctx->streams[index];
  return {};
}

// Whether two segments' video can follow each other in one stream without re-encoding.
bool same_codec(const AVCodecParameters& a, const AVCodecParameters& b) {
  return a.codec_id == b.codec_id && a.width == b.width && a.height == b.height && a.format == b.format &&
         a.extradata_size == b.extradata_size &&
         (a.extradata_size == 0 || std::memcmp(a.extradata, b.extradata, std::size_t(a.extradata_size)) == 0);
}

}  // namespace

Result<void> join_video_segments(const std::vector<std::filesystem::path>& segments, const VideoSettings& s) {
  if (segments.empty()) return fail(ErrorCode::invalid_argument, "no video segments to join");
  const bool webm = s.container == "webm";
  if (!webm && s.container != "mp4") return fail(ErrorCode::invalid_argument, "unknown container '" + s.container + "' (mp4, webm)");
  if (s.fps < 1 || s.fps > 240) return fail(ErrorCode::invalid_argument, "fps " + std::to_string(s.fps) + " outside 1..240");
  auto loaded = detail::ffmpeg();
  if (!loaded) return std::unexpected(loaded.error());
  ff = *loaded;
  ff->av_log_set_level(AV_LOG_ERROR);
  VideoWriter::Impl v;  // the writer's output and audio path, without a video encoder
  v.fps = s.fps;
  v.path = s.path.string();
  int ret = ff->avformat_alloc_output_context2(&v.fmt, nullptr, s.container.c_str(), v.path.c_str());
  if (ret < 0 || !v.fmt) return fail(ErrorCode::unsupported, "FFmpeg has no " + s.container + " muxer: " + av_error(ret));
  SegmentInput first;
  if (auto r = open_segment(segments[0], first); !r) return r;
  v.vst = ff->avformat_new_stream(v.fmt, nullptr);
  v.pkt = ff->av_packet_alloc();
  AVPacket* copy = ff->av_packet_alloc();
  struct PacketGuard {
    AVPacket** p;
    ~PacketGuard() { ff->av_packet_free(p); }
  } guard{&copy};
  if (!v.vst || !v.pkt || !copy) return fail(ErrorCode::io_error, "out of memory");
  if (ff->avcodec_parameters_copy(v.vst->codecpar, first.stream->codecpar) < 0) return fail(ErrorCode::io_error, "out of memory");
  v.vst->codecpar->codec_tag = 0;  // the muxer chooses its own tag
  v.vst->time_base = first.stream->time_base;
  v.vst->avg_frame_rate = v.vst->r_frame_rate = AVRational{s.fps, 1};
  if (!s.audio.empty())
    if (auto r = v.open_audio(s.audio, webm); !r) return r;
  if (auto r = v.write_header(webm); !r) return r;
  // Each segment's time stamps (in the output's time base) are moved to start where the previous
  // segment ended (its last frame's time stamp + duration).
  std::int64_t end = 0;
  for (std::size_t i = 0; i < segments.size(); ++i) {
    SegmentInput other;
    SegmentInput& in = i == 0 ? first : other;
    if (i > 0)
      if (auto r = open_segment(segments[i], in); !r) return r;
    if (!same_codec(*in.stream->codecpar, *v.vst->codecpar))
      return fail(ErrorCode::invalid_value, segments[i].string() + ": the segment's codec, size or codec header differs from " +
                                                segments[0].string() + "'s: it cannot be joined without re-encoding");
    std::int64_t shift = 0, seg_end = end;
    bool started = false;
    while ((ret = ff->av_read_frame(in.ctx, copy)) >= 0) {
      if (copy->stream_index != in.stream->index) {
        ff->av_packet_unref(copy);
        continue;
      }
      // Matroska's demuxer leaves a block's duration 0: every frame lasts 1/fps (VideoWriter's rule).
      if (copy->duration <= 0) copy->duration = ff->av_rescale_q(1, AVRational{1, s.fps}, in.stream->time_base);
      ff->av_packet_rescale_ts(copy, in.stream->time_base, v.vst->time_base);
      if (!started) {  // a segment starts on a key frame: the first packet read has its first time stamp
        started = true;
        shift = end - (copy->pts != AV_NOPTS_VALUE ? copy->pts : 0);
      }
      if (copy->pts != AV_NOPTS_VALUE) copy->pts += shift;
      if (copy->dts != AV_NOPTS_VALUE) copy->dts += shift;
      if (copy->pts != AV_NOPTS_VALUE) seg_end = std::max(seg_end, copy->pts + std::max<std::int64_t>(copy->duration, 0));
      copy->stream_index = v.vst->index;
      copy->pos = -1;
      ret = ff->av_interleaved_write_frame(v.fmt, copy);
      if (ret < 0) return fail(ErrorCode::io_error, v.path + ": write failed: " + av_error(ret));
      if (v.aenc)  // audio beside the video as it goes (the muxer interleaves them)
        if (auto r = v.pump_audio(ff->av_rescale_q(seg_end, v.vst->time_base, v.aenc->time_base)); !r) return r;
    }
    if (ret != AVERROR_EOF) return fail(ErrorCode::invalid_value, segments[i].string() + ": cannot read the segment: " + av_error(ret));
    end = seg_end;
    if (v.aenc)
      if (auto r = v.pump_audio(ff->av_rescale_q(end, v.vst->time_base, v.aenc->time_base)); !r) return r;
  }
  if (v.aenc)
    if (auto r = v.drain(v.aenc, v.ast, nullptr); !r) return r;
  if ((ret = ff->av_write_trailer(v.fmt)) < 0) return fail(ErrorCode::io_error, v.path + ": cannot finish the file: " + av_error(ret));
  if (!(v.fmt->oformat->flags & AVFMT_NOFILE)) ff->avio_closep(&v.fmt->pb);
  return {};
}

Result<DecodedVideo> decode_video(const std::filesystem::path& path) {
  detail::VideoDecoder d;
  if (auto r = d.open(path); !r) return std::unexpected(r.error());
  DecodedVideo out;
  for (;;) {
    auto next = d.next();
    if (!next) return std::unexpected(next.error());
    AVFrame* frame = *next;
    if (!frame) return out;
    if (frame->format != AV_PIX_FMT_YUV420P) return d.fail(ErrorCode::unsupported, "decoded frames are not yuv420p");
    const int w = frame->width, h = frame->height;
    out.width = w;
    out.height = h;
    std::vector<std::uint8_t> planes;
    planes.reserve(std::size_t(w) * std::size_t(h) * 3 / 2);
    for (int p = 0; p < 3; ++p) {
      const int pw = p == 0 ? w : w / 2, ph = p == 0 ? h : h / 2;
      for (int y = 0; y < ph; ++y) {
        const std::uint8_t* row = frame->data[p] + std::ptrdiff_t(y) * frame->linesize[p];
        planes.insert(planes.end(), row, row + pw);
      }
    }
    out.frames.push_back(std::move(planes));
    d.ff().av_frame_unref(frame);
  }
}

}  // namespace mmdkit::render
