// Motions that do not fit the model, as a fresh user meets them: a camera-only VMD given to
// `sample` (refused unless --camera, then a warning), the unmatched-track warning of `export`
// (the same words as `sample`'s: anim::unmatched_messages), and `sample --each` telling a model's
// check warning once, not once per motion.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "mmdkit/core/file.hpp"
#include "mmdkit/formats/pmx.hpp"
#include "support/cli_run.hpp"

namespace mmdkit::test {
namespace {

namespace fs = std::filesystem;

class UnmatchedCli : public CliTest {
 protected:
  UnmatchedCli() : CliTest("unmatched_cli") {}
  void SetUp() override {
    ASSERT_EQ(run("generate pmx --vertices 40 --morphs 3 -o " + q("m.pmx")).code, 0);
    ASSERT_EQ(run("generate vmd --bone-keys 0 --morph-keys 0 --camera-keys 4 --frames 90 -o " + q("cam.vmd")).code, 0);
    // The standard names: 5 bones (グルーブ, 上半身2, 腰, 左親指１, 右親指１) and 13 morphs the model lacks.
    ASSERT_EQ(run("generate vmd --bone-keys 100 --morph-keys 32 --frames 20 -o " + q("std.vmd")).code, 0);
  }
  std::string q(const std::string& name) const { return quote((dir / name).string()); }
  std::string p(const std::string& name) const { return (dir / name).string(); }
};

TEST_F(UnmatchedCli, SampleRefusesACameraMotionWithoutCamera) {
  // Before: 91 frames x 29 rest-pose bones written without a word.
  const Outcome r = run("sample " + q("m.pmx") + " " + q("cam.vmd") + " -o " + q("s.json"));
  EXPECT_EQ(r.code, 1);
  EXPECT_EQ(r.err, "mmdkit: error: " + p("cam.vmd") + ": the motion keys no bone or morph of the model '" + p("m.pmx") +
                       "': every frame would be the rest pose (a camera motion: add --camera to sample its camera)\n");
  EXPECT_FALSE(fs::exists(dir / "s.json"));
  // --morphs asks for no camera either.
  EXPECT_EQ(run("sample " + q("m.pmx") + " " + q("cam.vmd") + " --morphs -o " + q("s.json")).code, 1);
}

TEST_F(UnmatchedCli, SampleOfACameraMotionWithCameraWarnsAndWrites) {
  const Outcome r = run("sample " + q("m.pmx") + " " + q("cam.vmd") + " --camera --frames 0-2 -o " + q("s.json"));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(r.err.starts_with("mmdkit: warning: " + p("cam.vmd") + ": the motion keys no bone or morph of the model '" +
                                p("m.pmx") + "': its bones are written at the rest pose (--bones NAME,... writes fewer)\n"))
      << r.err;
  EXPECT_NE(r.err.find("mmdkit sample: wrote " + p("s.json") + " (3 frames x 29 bones, camera, json, "), std::string::npos)
      << r.err;
  // --bones given: no hint; --quiet: nothing at all.
  const Outcome b = run("sample " + q("m.pmx") + " " + q("cam.vmd") + " --camera --bones 頭 --frames 0 --force -o " + q("s.json"));
  ASSERT_EQ(b.code, 0) << b.err;
  EXPECT_NE(b.err.find("its bones are written at the rest pose\n"), std::string::npos) << b.err;
  const Outcome qq = run("sample " + q("m.pmx") + " " + q("cam.vmd") + " --camera --quiet --force -o " + q("s.json"));
  ASSERT_EQ(qq.code, 0) << qq.err;
  EXPECT_EQ(qq.err, "");
}

TEST_F(UnmatchedCli, SampleEachFailsTheCameraMotionAloneAndTellsTheCheckWarningOnce) {
  // A model that fails check (one texture index out of range), three motions.
  auto m = pmx::read_file(dir / "m.pmx");
  ASSERT_TRUE(m);
  m->model.materials[1].texture = 40;
  ASSERT_TRUE(write_file_atomic(dir / "bad.pmx", *pmx::write(m->model)));
  ASSERT_EQ(run("generate vmd --model " + q("m.pmx") + " --bone-keys 60 --frames 10 -o " + q("a.vmd")).code, 0);
  ASSERT_EQ(run("generate vmd --model " + q("m.pmx") + " --bone-keys 60 --frames 10 --seed 2 -o " + q("b.vmd")).code, 0);
  fs::create_directories(dir / "out");
  const Outcome r = run("sample " + q("bad.pmx") + " " + q("a.vmd") + " " + q("cam.vmd") + " " + q("b.vmd") +
                        " --each --frames 0-3 -o " + q("out"));
  EXPECT_EQ(r.code, 1) << r.err;  // the camera motion failed, the others were written
  EXPECT_TRUE(fs::exists(dir / "out" / "a.json"));
  EXPECT_TRUE(fs::exists(dir / "out" / "b.json"));
  EXPECT_FALSE(fs::exists(dir / "out" / "cam.json"));
  EXPECT_EQ(count(r.err, "the model fails 'mmdkit check' with 1 error"), 1u) << r.err;
  EXPECT_EQ(count(r.err, "mmdkit: error: " + p("cam.vmd") + ": the motion keys no bone or morph"), 1u) << r.err;
  EXPECT_EQ(count(r.err, "mmdkit sample: wrote "), 2u) << r.err;
}

TEST_F(UnmatchedCli, ExportWarnsAboutUnmatchedTracksAsSampleDoes) {
  const Outcome s = run("sample " + q("m.pmx") + " " + q("std.vmd") + " --frames 0 -o " + q("s.json"));
  ASSERT_EQ(s.code, 0) << s.err;
  const std::string bones = "mmdkit: warning: " + p("std.vmd") +
                            ": 5 bone tracks of the motion match no bone of the model and are ignored: 'グルーブ', '上半身2'";
  const std::string morphs =
      "mmdkit: warning: " + p("std.vmd") + ": 13 morph tracks of the motion match no morph of the model and are ignored: ";
  EXPECT_NE(s.err.find(bones), std::string::npos) << s.err;
  EXPECT_NE(s.err.find(morphs), std::string::npos) << s.err;
  const std::string sample_lines = s.err.substr(0, s.err.find("mmdkit sample: wrote"));
  const Outcome e = run("export " + q("m.pmx") + " " + q("std.vmd") + " --frames 0-2 -o " + q("e.glb"));
  ASSERT_EQ(e.code, 0) << e.err;
  EXPECT_TRUE(e.err.starts_with(sample_lines)) << e.err;  // the same two lines
  EXPECT_EQ(count(e.err, "match no"), 2u) << e.err;
  EXPECT_EQ(run("export " + q("m.pmx") + " " + q("std.vmd") + " --quiet --force -o " + q("e.glb")).err, "");
  // A motion made for the model: no such warning.
  ASSERT_EQ(run("generate vmd --model " + q("m.pmx") + " --bone-keys 60 --frames 10 -o " + q("own.vmd")).code, 0);
  EXPECT_EQ(run("export " + q("m.pmx") + " " + q("own.vmd") + " --force -o " + q("e.glb")).err.find("match no"),
            std::string::npos);
}

}  // namespace
}  // namespace mmdkit::test
