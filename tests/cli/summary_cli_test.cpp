// Progress and the summary line of long commands (issue 13.18; cli/progress.hpp): the bar and the
// plain lines on a test clock, the summary line of sample / export / bake with the right counts,
// --quiet silencing it; and the fresh-user findings of export --camera and render's named files.
#include <gtest/gtest.h>

#include <filesystem>
#include <sstream>
#include <string>

#include "cli/progress.hpp"
#include "mmdkit/version.hpp"
#include "support/cli_run.hpp"

namespace mmdkit::test {
namespace {

namespace fs = std::filesystem;
using cli::Progress;
using cli::ProgressMode;

TEST(Progress, BarOnlyAfterTwoSecondsAndClearedAtTheEnd) {
  double now = 0;
  std::ostringstream err;
  {
    Progress p(err, 10, ProgressMode::bar, "mmdkit x", "frames", [&] { return now; });
    now = 1.0;
    p.update(3);
    EXPECT_EQ(err.str(), "");  // under 2 s: nothing
    now = 2.0;
    p.update(4);  // 4 frames in 2 s: 2 a second, 6 left: 3 s
    EXPECT_EQ(err.str(), "\rmmdkit x [############..................] 4/10  2.0 frames/s  ETA 3 s ");
    now = 2.1;
    p.update(6);  // 0.1 s after the last draw: not redrawn
    EXPECT_EQ(err.str().find("6/10"), std::string::npos);
    p.clear();
    EXPECT_TRUE(err.str().ends_with("\r\033[K"));
  }
}

TEST(Progress, PlainLinesEveryFiveSecondsNoneAtTheEndNothingWhenOff) {
  double now = 0;
  std::ostringstream err;
  Progress p(err, 100, ProgressMode::lines, "mmdkit y", "frames", [&] { return now; });
  now = 4.0;
  p.update(40);
  EXPECT_EQ(err.str(), "");
  now = 5.0;
  p.update(50);
  EXPECT_EQ(err.str(), "mmdkit y: 50/100 frames, 10.0 frames/s, ETA 5 s\n");
  now = 9.0;
  p.update(100);  // done: the summary follows, no progress line
  EXPECT_EQ(err.str(), "mmdkit y: 50/100 frames, 10.0 frames/s, ETA 5 s\n");
  std::ostringstream quiet;
  Progress q(quiet, 100, ProgressMode::off, "mmdkit z", "frames", [&] { return now; });
  now = 100;
  q.update(1);
  q.clear();
  EXPECT_EQ(quiet.str(), "");
}

TEST(Progress, ModeFollowsQuietAndTheStream) {
  std::ostringstream s;
  EXPECT_EQ(cli::progress_mode(s, true), ProgressMode::off);
  EXPECT_EQ(cli::progress_mode(s, false), ProgressMode::lines);  // a string stream is no terminal
}

class SummaryCli : public CliTest {
 protected:
  SummaryCli() : CliTest("summary_cli") {}
  void SetUp() override {
    ASSERT_EQ(run("generate pmx --vertices 50 -o " + quote((dir / "m.pmx").string())).code, 0);
    ASSERT_EQ(run("generate vmd --frames 20 -o " + quote((dir / "a.vmd").string())).code, 0);
  }
  std::string m() const { return quote((dir / "m.pmx").string()); }
  std::string a() const { return quote((dir / "a.vmd").string()); }
};

TEST_F(SummaryCli, SampleSaysWhatItWroteWithTheByteCount) {
  const fs::path out = dir / "s.json";
  const Outcome r = run("sample " + m() + " " + a() + " --frames 0-4 --bones センター,頭 --morphs -o " +
                        quote(out.string()));
  ASSERT_EQ(r.code, 0) << r.err;
  const std::string line = "mmdkit sample: wrote " + out.string() + " (5 frames x 2 bones, 8 morphs, json, " +
                           std::to_string(fs::file_size(out)) + " bytes)\n";
  EXPECT_TRUE(r.err.ends_with(line)) << r.err;
  const Outcome q = run("sample " + m() + " " + a() + " --frames 0-4 --quiet --force -o " + quote(out.string()));
  ASSERT_EQ(q.code, 0) << q.err;
  EXPECT_EQ(q.err, "");
  // To the standard output: the summary names it, stdout holds only the data.
  const Outcome o = run("sample " + m() + " " + a() + " --frames 2 --format binary > " + quote((dir / "b.bin").string()));
  ASSERT_EQ(o.code, 0) << o.err;
  EXPECT_NE(o.err.find("mmdkit sample: wrote the standard output (1 frame x "), std::string::npos) << o.err;
  EXPECT_NE(o.err.find(", binary, " + std::to_string(fs::file_size(dir / "b.bin")) + " bytes)"), std::string::npos)
      << o.err;
}

TEST_F(SummaryCli, ExportSaysWhatItWroteAndRefusesACameraWithoutKeys) {
  const fs::path out = dir / "e.glb";
  const Outcome r = run("export " + m() + " " + a() + " --frames 0-9 -o " + quote(out.string()));
  ASSERT_EQ(r.code, 0) << r.err;
  // 50 vertices, 48 triangles, 3 materials; 10 samples at 30 fps.
  EXPECT_NE(r.err.find("mmdkit export: wrote " + out.string() + " (50 vertices, 48 triangles, 3 materials, "),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find(" bones, 10 samples at 30 fps, " + std::to_string(fs::file_size(out)) + " bytes)\n"),
            std::string::npos)
      << r.err;
  EXPECT_EQ(run("export " + m() + " " + a() + " --quiet --force -o " + quote(out.string())).err, "");
  // --camera naming a motion without camera keys: refused, named, nothing written.
  const Outcome cam = run("export " + m() + " --camera " + a() + " -o " + quote((dir / "c.glb").string()));
  EXPECT_EQ(cam.code, 1);
  EXPECT_NE(cam.err.find("mmdkit: error: " + (dir / "a.vmd").string() +
                         ": --camera: the motion has no camera keys (it has bone or morph keys: give it as a MOTION)"),
            std::string::npos)
      << cam.err;
  EXPECT_FALSE(fs::exists(dir / "c.glb"));
}

#if MMDKIT_HAS_PHYSICS
TEST_F(SummaryCli, BakeSaysWhatItWroteSilencedByQuiet) {
  const fs::path out = dir / "b.vmd";
  const Outcome r = run("bake " + m() + " " + a() + " --frames 0-5 -o " + quote(out.string()));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.err.find("mmdkit bake: wrote " + out.string() + " ("), std::string::npos) << r.err;
  // The bytes written, as every other summary says them.
  EXPECT_NE(r.err.find(", " + std::to_string(fs::file_size(out)) + " bytes)\n"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("mmdkit: physics: frame"), std::string::npos) << r.err;  // no line per frame
  EXPECT_EQ(run("bake " + m() + " " + a() + " --frames 0-5 --quiet --force -o " + quote(out.string())).err, "");
}
#endif

#if MMDKIT_HAS_RENDER
TEST_F(SummaryCli, RenderNamesAMissingAudioFileOrToonFolder) {
  const Outcome audio = run("render " + m() + " --audio " + quote((dir / "none.wav").string()) + " -o " +
                            quote((dir / "v.mp4").string()));
  EXPECT_EQ(audio.code, 1);
  EXPECT_NE(audio.err.find("mmdkit: error: " + (dir / "none.wav").string() + ": --audio: audio file not found"),
            std::string::npos)
      << audio.err;
  const Outcome toon = run("render " + m() + " --toon-dir " + quote((dir / "toons").string()) + " -o " +
                           quote((dir / "t.png").string()));
  EXPECT_EQ(toon.code, 1);
  EXPECT_NE(toon.err.find("mmdkit: error: " + (dir / "toons").string() + ": --toon-dir: folder not found"),
            std::string::npos)
      << toon.err;
  EXPECT_FALSE(fs::exists(dir / "t.png"));
}
#endif

}  // namespace
}  // namespace mmdkit::test
