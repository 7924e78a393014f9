// The built `mmdkit` binary on `motion lipsync` (issue 31): a UST and a lab made here give a VMD
// whose keys (read back with the VMD reader, not the motion layer) sit at the frames computed
// here from the ticks / times; the result merges into a dance and renders with the audio; audio
// from espeak-ng (skipped when absent) gives keys, silence a note, noise a warning; a model
// without vowel morphs, a bad map, an unknown --closed-morph exit 1; usage problems exit 2.
#include <gtest/gtest.h>

#include <algorithm>

#include <cmath>
#include <cstdlib>
#include <string>

#include "mmdkit/core/file.hpp"
#include "mmdkit/formats/vmd.hpp"
#include "mmdkit/version.hpp"
#include "support/cli_run.hpp"

namespace mmdkit {
namespace {

namespace fs = std::filesystem;
using test::quote;

bool have(const char* tool) { return std::system((std::string("command -v ") + tool + " >/dev/null 2>&1").c_str()) == 0; }

class LipsyncCli : public test::CliTest {
 protected:
  LipsyncCli() : CliTest("lipsync_cli") {}
  void SetUp() override {
    model = (dir / "m.pmx").string();
    ASSERT_EQ(run("generate pmx --shape figure -o " + quote(model)).code, 0);
  }
  vmd::Motion read_vmd(const fs::path& p) const {
    auto bytes = read_file(p);
    EXPECT_TRUE(bytes.has_value());
    auto m = vmd::read(ByteSpan(bytes->data(), bytes->size()));
    EXPECT_TRUE(m.has_value());
    return m ? m->motion : vmd::Motion{};
  }
  // Weight of the key of morph `name` at `frame`, or -1.
  static float key(const vmd::Motion& m, const std::string& name, std::uint32_t frame) {
    for (const auto& k : m.morph_keys)
      if (m.morph_names[k.name].text == name && k.frame == frame) return k.weight;
    return -1;
  }
  std::string model;
};

TEST_F(LipsyncCli, UstKeysAtTheNotesFrames) {
  // 120 BPM: 480 ticks = 0.5 s; from note 2 on 150 BPM: 480 ticks = 0.4 s.
  const auto ust = file("s.ust",
                        std::string("[#SETTING]\nTempo=120\n[#0000]\nLength=480\nLyric=さ\n[#0001]\nLength=240\nLyric=い\n"
                                    "[#0002]\nLength=480\nLyric=ご\nTempo=150\n[#0003]\nLength=480\nLyric=xyz\n"));
  const auto out = dir / "lips.vmd";
  auto r = run("motion lipsync " + quote(ust.string()) + " --model " + quote(model) + " --lead-ms 0 -o " + quote(out.string()));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.err.find("note 3"), std::string::npos) << r.err;  // the unknown lyric, by index
  EXPECT_NE(r.err.find("wrote"), std::string::npos);
  const vmd::Motion m = read_vmd(out);
  // The summary's "to frame N" is where the keys end (the score's end was printed before).
  std::uint32_t last = 0;
  for (const auto& k : m.morph_keys) last = std::max(last, k.frame);
  EXPECT_NE(r.err.find("morph keys to frame " + std::to_string(last) + ","), std::string::npos) << r.err;
  // さ at 0 s → frame 0; い at 0.5 s → 15; ご at 0.75 s → 22.5 → 23 (round half away); its end
  // 1.15 s → 34.5 → 35.
  EXPECT_EQ(key(m, "あ", 0), 1.0f);
  EXPECT_EQ(key(m, "い", 15), 1.0f);
  EXPECT_EQ(key(m, "お", static_cast<std::uint32_t>(std::round(0.75 * 30))), 1.0f);
  EXPECT_EQ(key(m, "お", static_cast<std::uint32_t>(std::round(1.15 * 30))), 0.0f);
  // With the default lead (50 ms = 1.5 frames) い is full at round(13.5) = 14.
  const auto lead = dir / "lead.vmd";
  ASSERT_EQ(run("motion lipsync " + quote(ust.string()) + " --model " + quote(model) + " -q -o " + quote(lead.string())).code, 0);
  EXPECT_EQ(key(read_vmd(lead), "い", 14), 1.0f);
}

TEST_F(LipsyncCli, LabWithMapAndClosedMorph) {
  const auto lab = file("s.lab", std::string("0 3000000 sil\n3000000 6000000 a\n6000000 9000000 N\n9000000 12000000 e\n"));
  const auto map = file("map.tsv", std::string("a\tお\ne\tい\n"));
  const auto out = dir / "lab.vmd";
  auto r = run("motion lipsync " + quote(lab.string()) + " --model " + quote(model) + " --map " + quote(map.string()) +
               " --closed-morph まばたき --lead-ms 0 -o " + quote(out.string()));
  ASSERT_EQ(r.code, 0) << r.err;
  const vmd::Motion m = read_vmd(out);
  EXPECT_EQ(key(m, "お", 9), 1.0f);        // a → お (the map), 0.3 s
  EXPECT_EQ(key(m, "まばたき", 18), 1.0f);  // N closed at 0.6 s
  EXPECT_EQ(key(m, "い", 27), 1.0f);       // e → い at 0.9 s
  EXPECT_EQ(key(m, "まばたき", 0), 1.0f);   // silence before the first vowel
  for (const auto& n : m.morph_names) EXPECT_NE(n.text, "あ");
}

TEST_F(LipsyncCli, MergesIntoADance) {
  const auto ust = file("s.ust", std::string("[#0000]\nLength=960\nLyric=あ\n[#0001]\nLength=960\nLyric=う\n"));
  const auto lips = dir / "lips.vmd", dance = dir / "dance.vmd", both = dir / "both.vmd";
  ASSERT_EQ(run("motion lipsync " + quote(ust.string()) + " --model " + quote(model) + " -q -o " + quote(lips.string())).code, 0);
  ASSERT_EQ(run("generate vmd --model " + quote(model) + " --frames 90 -o " + quote(dance.string())).code, 0);
  auto r = run("motion merge " + quote(dance.string()) + " " + quote(lips.string()) + " -o " + quote(both.string()));
  ASSERT_EQ(r.code, 0) << r.err;
  const vmd::Motion m = read_vmd(both);
  EXPECT_EQ(key(m, "う", static_cast<std::uint32_t>(std::round((1.0 - 0.05) * 30))), 1.0f);
  EXPECT_FALSE(m.bone_keys.empty());
#if MMDKIT_HAS_RENDER
  if (have("sox")) {
    const auto wav = dir / "tone.wav";
    ASSERT_EQ(std::system(("sox -n -r 16000 -c 1 " + quote(wav.string()) + " synth 1 sine 220").c_str()), 0);
    const auto mp4 = dir / "out.mp4";
    auto v = run("render " + quote(model) + " " + quote(both.string()) + " --frames 0-5 --size 64x64 --audio " +
                 quote(wav.string()) + " -q -o " + quote(mp4.string()));
    EXPECT_EQ(v.code, 0) << v.err;
    EXPECT_TRUE(fs::exists(mp4));
  }
#endif
}

TEST_F(LipsyncCli, AudioSpeechSilenceAndNoise) {
#if !MMDKIT_HAS_RENDER
  GTEST_SKIP() << "audio input needs the render layer (FFmpeg)";
#endif
  if (!have("espeak-ng") || !have("sox")) GTEST_SKIP() << "espeak-ng and sox make the test audio (Debian packages espeak-ng, sox)";
  const auto wav = dir / "say.wav";
  ASSERT_EQ(std::system(("espeak-ng -v ja -w " + quote(wav.string()) + " 'あーおー'").c_str()), 0);
  const auto out = dir / "say.vmd";
  auto r = run("motion lipsync " + quote(wav.string()) + " --model " + quote(model) + " -o " + quote(out.string()));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.err.find("warning"), std::string::npos) << r.err;
  const vmd::Motion m = read_vmd(out);
  float peak_a = 0, peak_o = 0;
  for (const auto& k : m.morph_keys) {
    if (m.morph_names[k.name].text == "あ") peak_a = std::max(peak_a, k.weight);
    if (m.morph_names[k.name].text == "お") peak_o = std::max(peak_o, k.weight);
  }
  EXPECT_GT(peak_a, 0.5f);
  EXPECT_GT(peak_o, 0.5f);

  const auto sil = dir / "sil.wav";
  ASSERT_EQ(std::system(("sox -n -r 22050 -c 2 " + quote(sil.string()) + " trim 0 1.5").c_str()), 0);
  r = run("motion lipsync " + quote(sil.string()) + " --model " + quote(model) + " -o " + quote((dir / "sil.vmd").string()));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.err.find("silent"), std::string::npos) << r.err;
  for (const auto& k : read_vmd(dir / "sil.vmd").morph_keys) EXPECT_EQ(k.weight, 0.0f);

  const auto noise = dir / "noise.wav", noisy = dir / "noisy.wav";
  ASSERT_EQ(std::system(("sox -n -r 22050 -c 1 " + quote(noise.string()) + " synth 1.5 whitenoise vol 0.5").c_str()), 0);
  ASSERT_EQ(std::system(("sox -m " + quote(wav.string()) + " " + quote(noise.string()) + " " + quote(noisy.string())).c_str()), 0);
  r = run("motion lipsync " + quote(noisy.string()) + " --model " + quote(model) + " -o " + quote((dir / "noisy.vmd").string()));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.err.find("looks like a voice"), std::string::npos) << r.err;

  // Not audio at all.
  const auto junk = file("junk.wav", std::string("not audio"));
  r = run("motion lipsync " + quote(junk.string()) + " --model " + quote(model) + " -o " + quote((dir / "j.vmd").string()));
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("junk.wav"), std::string::npos) << r.err;
}

TEST_F(LipsyncCli, BadInputExit1) {
  const auto ust = file("s.ust", std::string("[#0000]\nLength=480\nLyric=あ\n"));
  const auto bare = (dir / "bare.pmx").string();
  ASSERT_EQ(run("generate pmx --morphs 0 -o " + quote(bare)).code, 0);
  auto r = run("motion lipsync " + quote(ust.string()) + " --model " + quote(bare) + " -o " + quote((dir / "o.vmd").string()));
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("あ い う え お"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("bare.pmx"), std::string::npos) << r.err;
  const auto map = file("bad.tsv", std::string("a\tあ\nz\tい\n"));
  r = run("motion lipsync " + quote(ust.string()) + " --model " + quote(model) + " --map " + quote(map.string()) + " -o " +
          quote((dir / "o.vmd").string()));
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("bad.tsv"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("record 2"), std::string::npos) << r.err;
  r = run("motion lipsync " + quote(ust.string()) + " --model " + quote(model) + " --closed-morph nope -o " + quote((dir / "o.vmd").string()));
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("nope"), std::string::npos);
  const auto bad_ust = file("b.ust", std::string("[#0000]\nLength=-1\nLyric=あ\n"));
  r = run("motion lipsync " + quote(bad_ust.string()) + " --model " + quote(model) + " -o " + quote((dir / "o.vmd").string()));
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("#0000"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(dir / "o.vmd"));
}

TEST_F(LipsyncCli, UsageExit2AndNoOverwrite) {
  const auto ust = file("s.ust", std::string("[#0000]\nLength=480\nLyric=あ\n"));
  EXPECT_EQ(run("motion lipsync " + quote(ust.string()) + " -o " + quote((dir / "o.vmd").string())).code, 2);  // no --model
  EXPECT_EQ(run("motion lipsync " + quote(ust.string()) + " --model " + quote(model) + " --gain 0 -o " + quote((dir / "o.vmd").string())).code, 2);
  EXPECT_EQ(run("motion lipsync " + quote(ust.string()) + " --model " + quote(model) + " --fps -3 -o " + quote((dir / "o.vmd").string())).code, 2);
  EXPECT_EQ(run("motion lipsync " + quote(ust.string()) + " --model " + quote(model) + " -o " + quote((dir / "o.txt").string())).code, 2);
  const auto out = dir / "o.vmd";
  ASSERT_EQ(run("motion lipsync " + quote(ust.string()) + " --model " + quote(model) + " -q -o " + quote(out.string())).code, 0);
  EXPECT_EQ(run("motion lipsync " + quote(ust.string()) + " --model " + quote(model) + " -q -o " + quote(out.string())).code, 1);
  EXPECT_EQ(run("motion lipsync " + quote(ust.string()) + " --model " + quote(model) + " -q --force -o " + quote(out.string())).code, 0);
}

}  // namespace
}  // namespace mmdkit
