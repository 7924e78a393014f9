// Internal (render layer): FFmpeg's libraries, loaded when a video is first written (dlopen), not
// when the program starts. Linked normally they cost every mmdkit process ~40 ms of start-up
// (libavcodec and libavformat pull in ~130 shared libraries: codecs, TLS, XML, ...), which is
// most of the time of `mmdkit info` or `sample` on a short motion (docs/BENCHMARKS.md).
#pragma once

extern "C" {
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/audio_fifo.h>
#include <libavutil/channel_layout.h>
#include <libavutil/opt.h>
#include <libswresample/swresample.h>
#include <libswscale/swscale.h>
}

#include <string>

#include "mmdkit/core/error.hpp"

namespace mmdkit::render::detail {

// Every FFmpeg function video.cpp calls (the writer and join_video_segments): X(library, function).
#define MMDKIT_FFMPEG_FUNCTIONS(X)                                                                          \
  X(avutil, av_strerror) X(avutil, av_log_set_level) X(avutil, av_opt_set) X(avutil, av_dict_set)          \
  X(avutil, av_dict_free) X(avutil, av_frame_alloc) X(avutil, av_frame_free) X(avutil, av_frame_get_buffer) \
  X(avutil, av_frame_make_writable) X(avutil, av_frame_unref) X(avutil, av_freep) X(avutil, av_rescale_q)   \
  X(avutil, av_channel_layout_default) X(avutil, av_channel_layout_copy) X(avutil, av_channel_layout_uninit) \
  X(avutil, av_samples_alloc_array_and_samples) X(avutil, av_samples_set_silence)                           \
  X(avutil, av_audio_fifo_alloc) X(avutil, av_audio_fifo_free) X(avutil, av_audio_fifo_size)                \
  X(avutil, av_audio_fifo_read) X(avutil, av_audio_fifo_write)                                              \
  X(avcodec, avcodec_find_encoder_by_name) X(avcodec, avcodec_alloc_context3) X(avcodec, avcodec_free_context) \
  X(avcodec, avcodec_open2) X(avcodec, avcodec_parameters_from_context) X(avcodec, avcodec_parameters_to_context) \
  X(avcodec, avcodec_parameters_copy)                                                                       \
  X(avcodec, avcodec_send_frame) X(avcodec, avcodec_receive_packet) X(avcodec, avcodec_send_packet)         \
  X(avcodec, avcodec_receive_frame) X(avcodec, av_packet_alloc) X(avcodec, av_packet_free)                  \
  X(avcodec, av_packet_unref) X(avcodec, av_packet_rescale_ts)                                              \
  X(avformat, avformat_alloc_output_context2) X(avformat, avformat_free_context) X(avformat, avformat_new_stream) \
  X(avformat, avformat_write_header) X(avformat, av_write_trailer) X(avformat, av_interleaved_write_frame)  \
  X(avformat, avformat_open_input) X(avformat, avformat_close_input) X(avformat, avformat_find_stream_info) \
  X(avformat, av_find_best_stream) X(avformat, av_read_frame) X(avformat, avio_open) X(avformat, avio_closep) \
  X(swscale, sws_getContext) X(swscale, sws_freeContext) X(swscale, sws_scale)                              \
  X(swresample, swr_alloc_set_opts2) X(swresample, swr_init) X(swresample, swr_free)                        \
  X(swresample, swr_convert) X(swresample, swr_get_out_samples)

/// The functions, each with its declared type.
struct Ffmpeg {
#define MMDKIT_FFMPEG_MEMBER(lib, fn) decltype(&::fn) fn = nullptr;
  MMDKIT_FFMPEG_FUNCTIONS(MMDKIT_FFMPEG_MEMBER)
#undef MMDKIT_FFMPEG_MEMBER
};

/// Loads libavutil, libavcodec, libavformat, libswscale and libswresample of the major versions
/// the headers are (e.g. libavcodec.so.59: the ABI compiled against) on the first call; later
/// calls return the same table. Errors (unsupported): a library or a function is missing, naming
/// it and dlerror()'s reason. Thread-safe.
Result<const Ffmpeg*> ffmpeg();

/// FFmpeg's text for an error code (av_strerror through `ff`).
inline std::string av_error_text(const Ffmpeg& ff, int code) {
  char buf[AV_ERROR_MAX_STRING_SIZE] = {};
  ff.av_strerror(code, buf, sizeof buf);
  return buf;
}

}  // namespace mmdkit::render::detail
