// VideoWriter's files decoded again by FFmpeg's own demuxers and decoders (linked here directly,
// not through the writer's run-time loader): every frame written is a frame a player shows, and the
// file lasts frames / fps. A new user's MP4s each lost their last frame and a one-frame MP4 had
// none: the packets had no duration, so the MP4 muxer gave the last sample 0 ticks and the edit
// list ended where it began (libavformat's mov demuxer drops what the edit list does not cover).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

extern "C" {
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
}

#include "mmdkit/core/file.hpp"
#include "mmdkit/render/video.hpp"
#include "support/cli_run.hpp"

namespace mmdkit::render {
namespace {

namespace fs = std::filesystem;

/// What a player gets from a file.
struct Decoded {
  std::string error;            ///< empty when the file opened and decoded
  int frames = 0;               ///< video frames the decoder returned
  std::vector<int> luma;        ///< Y of each frame's centre pixel, in order
  double video_seconds = -1;    ///< the video stream's duration (-1: not stored, as in WebM)
  double file_seconds = -1;     ///< the container's duration (AVFormatContext::duration)
  bool audio = false;           ///< an audio stream is there
  double audio_seconds = -1;    ///< its duration (-1: not stored)
};

Decoded decode(const fs::path& path) {
  Decoded d;
  AVFormatContext* fmt = nullptr;
  if (avformat_open_input(&fmt, path.c_str(), nullptr, nullptr) < 0) {
    d.error = "cannot open";
    return d;
  }
  AVCodecContext* dec = nullptr;
  AVPacket* pkt = av_packet_alloc();
  AVFrame* frame = av_frame_alloc();
  auto take = [&] {
    while (avcodec_receive_frame(dec, frame) == 0) {
      ++d.frames;
      d.luma.push_back(frame->data[0][static_cast<std::ptrdiff_t>(frame->height / 2) * frame->linesize[0] + frame->width / 2]);
      av_frame_unref(frame);
    }
  };
  const AVCodec* codec = nullptr;
  const int vs = avformat_find_stream_info(fmt, nullptr) < 0 ? -1 : av_find_best_stream(fmt, AVMEDIA_TYPE_VIDEO, -1, -1, &codec, 0);
  if (vs < 0 || !codec) {
    d.error = "no video stream";
  } else {
    const AVStream* st = fmt->streams[vs];
    if (st->duration != AV_NOPTS_VALUE) d.video_seconds = static_cast<double>(st->duration) * av_q2d(st->time_base);
    if (fmt->duration != AV_NOPTS_VALUE) d.file_seconds = static_cast<double>(fmt->duration) / AV_TIME_BASE;
    const int as = av_find_best_stream(fmt, AVMEDIA_TYPE_AUDIO, -1, -1, nullptr, 0);
    if (as >= 0) {
      d.audio = true;
      const AVStream* a = fmt->streams[as];
      if (a->duration != AV_NOPTS_VALUE) d.audio_seconds = static_cast<double>(a->duration) * av_q2d(a->time_base);
    }
    dec = avcodec_alloc_context3(codec);
    avcodec_parameters_to_context(dec, st->codecpar);
    if (avcodec_open2(dec, codec, nullptr) < 0) {
      d.error = "cannot open the decoder";
    } else {
      while (av_read_frame(fmt, pkt) >= 0) {
        if (pkt->stream_index == vs && avcodec_send_packet(dec, pkt) == 0) take();
        av_packet_unref(pkt);
      }
      avcodec_send_packet(dec, nullptr);
      take();
    }
  }
  av_frame_free(&frame);
  av_packet_free(&pkt);
  avcodec_free_context(&dec);
  avformat_close_input(&fmt);
  return d;
}

/// Grey of frame k: distinct for neighbouring frames (7 levels apart, 6 in Y).
int grey(int k) { return 30 + (k * 7) % 190; }
/// BT.601 limited range Y of a grey (what swscale writes).
int luma_of(int g) { return static_cast<int>(std::lround(16 + 219.0 * g / 255.0)); }

/// One second of a 440 Hz sine, 16-bit mono WAV at 22050 Hz.
std::string sine_wav() {
  const int rate = 22050, n = rate;
  std::string wav = "RIFF";
  auto u32 = [&](std::uint32_t v) { for (int i = 0; i < 4; ++i) wav += static_cast<char>(v >> (8 * i) & 255); };
  auto u16 = [&](std::uint16_t v) { wav += static_cast<char>(v & 255); wav += static_cast<char>(v >> 8); };
  u32(36 + n * 2);
  wav += "WAVEfmt ";
  u32(16); u16(1); u16(1); u32(rate); u32(rate * 2); u16(2); u16(16);
  wav += "data";
  u32(n * 2);
  for (int i = 0; i < n; ++i)
    u16(static_cast<std::uint16_t>(static_cast<std::int16_t>(8000 * std::sin(2 * 3.14159265358979 * 440 * i / rate))));
  return wav;
}

class VideoFile : public ::testing::Test {
 protected:
  void SetUp() override {
    dir = fs::temp_directory_path() / ("mmdkit_video_" + std::to_string(::getpid()));
    fs::create_directories(dir);
  }
  void TearDown() override { fs::remove_all(dir); }

  /// Writes `n` flat grey frames of 64 x 48 (frame k of grey(k)); the path.
  /// (`first`: frame k is grey(first + k); `width`: another size.)
  fs::path write(const std::string& container, int n, int fps, const fs::path& audio = {}, int first = 0, int width = 64) {
    VideoSettings s;
    s.path = dir / (std::to_string(n) + "_" + std::to_string(fps) + (audio.empty() ? "" : "_a") + "_" +
                    std::to_string(first) + "_" + std::to_string(width) + "." + container);
    s.container = container;
    s.width = width;
    s.height = 48;
    s.fps = fps;
    s.audio = audio;
    auto v = VideoWriter::open(s);
    EXPECT_TRUE(v) << v.error().to_string();
    if (!v) return s.path;
    for (int k = 0; k < n; ++k) {
      Image img{width, 48, std::vector<std::uint8_t>(std::size_t(width) * 48 * 4, 255)};
      for (std::size_t i = 0; i < img.rgba.size(); i += 4)
        img.rgba[i] = img.rgba[i + 1] = img.rgba[i + 2] = static_cast<std::uint8_t>(grey(first + k));
      auto r = v->write(img);
      EXPECT_TRUE(r) << r.error().to_string();
    }
    auto r = v->finish();
    EXPECT_TRUE(r) << r.error().to_string();
    return s.path;
  }

  /// N frames written: N decoded, in order, the last one the last written; the video stream and
  /// the file last N / fps (within half a frame: a lost last frame is a whole frame short).
  void expect_whole(const fs::path& p, int n, int fps) {
    SCOPED_TRACE(p.filename().string());
    const Decoded d = decode(p);
    ASSERT_EQ(d.error, "");
    EXPECT_EQ(d.frames, n);
    for (int k = 0; k < std::min<int>(n, d.frames); ++k) EXPECT_NEAR(d.luma[static_cast<std::size_t>(k)], luma_of(grey(k)), 2) << "frame " << k;
    const double want = static_cast<double>(n) / fps, tol = 0.5 / fps;
    // MP4 stores each stream's duration; Matroska (WebM) only the segment's.
    if (p.extension() == ".mp4") {
      EXPECT_NEAR(d.video_seconds, want, tol);
    }
    EXPECT_NEAR(d.file_seconds, want, d.audio ? 1024.0 / 48000 + tol : tol);
  }

  fs::path dir;
};

TEST_F(VideoFile, EveryFrameWrittenIsDecodedAndTheFileLastsFramesOverFps) {
  for (const char* container : {"mp4", "webm"})
    for (int fps : {30, 60})
      for (int n : {1, 2, 31}) expect_whole(write(container, n, fps), n, fps);
}

// With an audio track (AAC in MP4, Opus in WebM): the video keeps its frames and length; the audio
// is cut at the end of the video (to within one encoder frame of 1024 samples at 48 kHz, its unit).
// VideoFrameReader (a scene's background video): frame k of a 30 fps file at k / 30 s, the frame
// before a time between two, the first before its start, the last after its end; going back in
// time reads the file again.
TEST_F(VideoFile, FrameReaderGivesTheFrameShownAtEachTime) {
  const fs::path p = write("mp4", 10, 30);
  auto reader = VideoFrameReader::open(p);
  ASSERT_TRUE(reader) << reader.error().to_string();
  auto grey_at = [&](double seconds) {
    auto im = reader->frame_at(seconds);
    EXPECT_TRUE(im) << im.error().to_string();
    if (!im) return -1;
    EXPECT_EQ((*im)->width, 64);
    EXPECT_EQ((*im)->height, 48);
    return int((*im)->at(32, 24)[0]);
  };
  for (int k = 0; k < 10; ++k) EXPECT_NEAR(grey_at(k / 30.0), grey(k), 3) << "frame " << k;
  EXPECT_NEAR(grey_at(4.5 / 30.0 + 1.0), grey(9), 3);  // after the end: the last frame
  EXPECT_NEAR(grey_at(0.0), grey(0), 3);                 // back to the start
  EXPECT_NEAR(grey_at(4.5 / 30.0), grey(4), 3);          // between frames 4 and 5: frame 4
  EXPECT_FALSE(VideoFrameReader::open(dir / "missing.mp4"));
}

TEST_F(VideoFile, WithAudioTheVideoKeepsEveryFrame) {
  const fs::path wav = dir / "a.wav";
  ASSERT_TRUE(write_file_atomic(wav, std::string_view(sine_wav())));
  for (const char* container : {"mp4", "webm"})
    for (int fps : {30, 60})
      for (int n : {1, 31}) {
        const fs::path p = write(container, n, fps, wav);
        expect_whole(p, n, fps);
        const Decoded d = decode(p);
        EXPECT_TRUE(d.audio) << p;
        if (d.audio_seconds >= 0) {
          EXPECT_NEAR(d.audio_seconds, static_cast<double>(n) / fps, 1024.0 / 48000 + 0.5 / fps) << p;
        }
      }
}

// The render farm's join (join_video_segments): segments encoded apart, each from a key frame,
// joined by stream copy into one file of every frame in order, as long as their frames over fps,
// with the audio encoded once; the frames decode bit for bit as the segments' own (no
// re-encoding). Segments of another size are refused, naming the segment.
TEST_F(VideoFile, SegmentsJoinedByStreamCopyKeepEveryFrame) {
  const fs::path wav = dir / "a.wav";
  ASSERT_TRUE(write_file_atomic(wav, std::string_view(sine_wav())));
  for (const char* container : {"mp4", "webm"}) {
    SCOPED_TRACE(container);
    const std::vector<fs::path> segs{write(container, 7, 30), write(container, 5, 30, {}, 7), write(container, 1, 30, {}, 12)};
    VideoSettings out;
    out.path = dir / (std::string("joined.") + container);
    out.container = container;
    out.fps = 30;
    out.audio = wav;
    auto r = join_video_segments(segs, out);
    ASSERT_TRUE(r) << r.error().to_string();
    expect_whole(out.path, 13, 30);
    EXPECT_TRUE(decode(out.path).audio);
    auto joined = decode_video(out.path);
    ASSERT_TRUE(joined) << joined.error().to_string();
    std::vector<std::vector<std::uint8_t>> parts;
    for (const fs::path& p : segs) {
      auto d = decode_video(p);
      ASSERT_TRUE(d) << d.error().to_string();
      parts.insert(parts.end(), d->frames.begin(), d->frames.end());
    }
    EXPECT_EQ(joined->width, 64);
    EXPECT_EQ(joined->height, 48);
    EXPECT_TRUE(joined->frames == parts);
    const fs::path other = write(container, 2, 30, {}, 0, 32);
    auto bad = join_video_segments({segs[0], other}, out);
    ASSERT_FALSE(bad);
    EXPECT_NE(bad.error().message.find(other.string()), std::string::npos) << bad.error().message;
    EXPECT_NE(bad.error().message.find("without re-encoding"), std::string::npos) << bad.error().message;
  }
}

// The new user's commands end to end: `mmdkit render MODEL -o one.mp4` (one frame) and
// --frames 0-30 at --fps 60 give files of 1 and 31 frames.
TEST_F(VideoFile, RenderCommandsWriteEveryFrame) {
  const std::string m = test::quote((dir / "m.pmx").string());
  ASSERT_EQ(test::run_cli(dir, "generate pmx --vertices 2000 --shape figure -o " + m).code, 0);
  ASSERT_EQ(test::run_cli(dir, "generate vmd --model " + m + " --bone-keys 60 --morph-keys 0 --frames 30 -o " +
                                   test::quote((dir / "d.vmd").string())).code, 0);
  test::Outcome r = test::run_cli(dir, "render " + m + " --size 64x48 -o " + test::quote((dir / "one.mp4").string()));
  ASSERT_EQ(r.code, 0) << r.err;
  Decoded d = decode(dir / "one.mp4");
  EXPECT_EQ(d.frames, 1);
  EXPECT_NEAR(d.file_seconds, 1.0 / 30, 0.5 / 30);
  r = test::run_cli(dir, "render " + m + " " + test::quote((dir / "d.vmd").string()) +
                             " --frames 0-30 --fps 60 --size 64x48 -o " + test::quote((dir / "d.mp4").string()));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.err.find("(61 frames"), std::string::npos) << r.err;
  d = decode(dir / "d.mp4");
  EXPECT_EQ(d.frames, 61);
  EXPECT_NEAR(d.file_seconds, 61.0 / 60, 0.5 / 60);
}

}  // namespace
}  // namespace mmdkit::render
