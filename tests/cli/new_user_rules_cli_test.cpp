// What a new user met (ux3): `export` and `bake` given a camera-only motion (refused as by
// `sample`, or a warning when export writes the camera), convert / info / check with -q, the one
// error form ("mmdkit: error: ...") for `pose` and `sample`'s input errors, and `render`'s
// short-form error naming the model without a 'scene' section.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "mmdkit/core/file.hpp"
#include "mmdkit/version.hpp"
#include "support/cli_run.hpp"

namespace mmdkit::test {
namespace {

namespace fs = std::filesystem;

class NewUserRulesCli : public CliTest {
 protected:
  NewUserRulesCli() : CliTest("new_user_rules_cli") {}
  void SetUp() override {
    ASSERT_EQ(run("generate pmx --vertices 40 -o " + q("m.pmx")).code, 0);
    ASSERT_EQ(run("generate vmd --bone-keys 0 --morph-keys 0 --camera-keys 4 --frames 90 -o " + q("cam.vmd")).code, 0);
  }
  std::string q(const std::string& name) const { return quote((dir / name).string()); }
  std::string p(const std::string& name) const { return (dir / name).string(); }
  std::string keys_nothing(const std::string& motion) const {
    return "mmdkit: error: " + p(motion) + ": the motion keys no bone or morph of the model '" + p("m.pmx") +
           "': every frame would be the rest pose";
  }
};

TEST_F(NewUserRulesCli, ExportRefusesACameraMotionGivenAsMotion) {
  // Before: exit 0, 91 rest-pose samples, the camera dropped.
  const Outcome r = run("export " + q("m.pmx") + " " + q("cam.vmd") + " -o " + q("x.glb"));
  EXPECT_EQ(r.code, 1) << r.err;
  EXPECT_EQ(r.err, keys_nothing("cam.vmd") + " (a camera motion: give it as --camera to export its camera)\n");
  EXPECT_FALSE(fs::exists(dir / "x.glb"));
}

TEST_F(NewUserRulesCli, ExportWithCameraOnlyWarnsAboutTheRestPose) {
  const Outcome r = run("export " + q("m.pmx") + " " + q("cam.vmd") + " --camera " + q("cam.vmd") + " --frames 0-2 -o " +
                        q("x.glb"));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(r.err.starts_with("mmdkit: warning: " + p("cam.vmd") + ": the motion keys no bone or morph of the model '" +
                                p("m.pmx") + "': its bones are exported at the rest pose\n"))
      << r.err;
  EXPECT_NE(r.err.find("3 samples at 30 fps with the camera"), std::string::npos) << r.err;
  EXPECT_EQ(run("export " + q("m.pmx") + " " + q("cam.vmd") + " --camera " + q("cam.vmd") + " -q --force -o " + q("x.glb")).err,
            "");
  // The camera alone (no MOTION): nothing to judge, no warning.
  const Outcome c = run("export " + q("m.pmx") + " --camera " + q("cam.vmd") + " --frames 0-2 --force -o " + q("x.glb"));
  ASSERT_EQ(c.code, 0) << c.err;
  EXPECT_EQ(c.err.find("keys no bone"), std::string::npos) << c.err;
}

TEST_F(NewUserRulesCli, BakeRefusesAMotionKeyingNothing) {
  // Before: exit 0, frame 0 baked alone.
  const Outcome r = run("bake " + q("m.pmx") + " " + q("cam.vmd") + " -o " + q("out.vmd"));
  EXPECT_EQ(r.code, 1) << r.err;
  EXPECT_EQ(r.err, keys_nothing("cam.vmd") + " (a camera motion: bake simulates the model under its bone motion)\n");
  EXPECT_FALSE(fs::exists(dir / "out.vmd"));
  // A motion made for the model is still baked.
  ASSERT_EQ(run("generate vmd --model " + q("m.pmx") + " --bone-keys 30 --frames 5 -o " + q("own.vmd")).code, 0);
  const Outcome ok = run("bake " + q("m.pmx") + " " + q("own.vmd") + " -q -o " + q("out.vmd"));
  EXPECT_EQ(ok.code, 0) << ok.err;
  EXPECT_TRUE(fs::exists(dir / "out.vmd"));
}

TEST_F(NewUserRulesCli, PoseAndSampleInputErrorsUseTheOneErrorForm) {
  ASSERT_EQ(run("generate vpd -o " + q("a.vpd")).code, 0);
  ASSERT_EQ(run("generate vpd --seed 2 -o " + q("b.vpd")).code, 0);
  // Before: "mmdkit: pose: FILE: section 'inputs': invalid_argument: ...".
  for (const std::string cmd : {"pose", "sample"}) {
    const Outcome r = run(cmd + " " + q("m.pmx") + " " + q("a.vpd") + " " + q("b.vpd") + " -o " +
                          q(cmd == "pose" ? "x.obj" : "x.json"));
    EXPECT_EQ(r.code, 2) << cmd;
    EXPECT_TRUE(r.err.starts_with("mmdkit: error: " + p("b.vpd") + ": section 'inputs'")) << cmd << ": " << r.err;
    EXPECT_EQ(r.err.find("mmdkit: " + cmd + ":"), std::string::npos) << r.err;
  }
}

TEST_F(NewUserRulesCli, RenderShortFormNamesTheModelWithoutASceneSection) {
  // Before: "FILE: section 'scene': io_error: MODEL: file not found ('FILE')" with no scene used.
  const Outcome r = run("render " + q("nomodel.pmx") + " -o " + q("x.png"));
  EXPECT_EQ(r.code, 1);
  EXPECT_EQ(r.err, "mmdkit: error: " + p("nomodel.pmx") + ": io_error: MODEL: file not found\n");
}

TEST_F(NewUserRulesCli, ConvertQuietSilencesTextureWarningsOfAnyConversion) {
  fs::create_directories(dir / "sub");
  ASSERT_EQ(run("generate pmd -o " + q("a.pmd")).code, 0);  // with textures beside it
  // Without -q: the textures the output's folder lacks are named.
  const Outcome loud = run("convert " + q("a.pmd") + " " + q("sub/b.pmx"));
  ASSERT_EQ(loud.code, 0) << loud.err;
  EXPECT_NE(loud.err.find("texture_missing"), std::string::npos) << loud.err;
  // Before: "--quiet applies only to BVH conversions", exit 2.
  const Outcome quiet = run("convert " + q("a.pmd") + " " + q("sub/c.pmx") + " -q");
  EXPECT_EQ(quiet.code, 0) << quiet.err;
  EXPECT_EQ(quiet.err, "");
  EXPECT_TRUE(fs::exists(dir / "sub" / "c.pmx"));
  const Outcome json = run("convert " + q("a.pmd") + " " + q("b.json") + " --quiet");
  EXPECT_EQ(json.code, 0) << json.err;
  EXPECT_TRUE(fs::exists(dir / "b.json"));
}

TEST_F(NewUserRulesCli, InfoQuietSilencesReaderWarningsAndCheckKeepsItsFindings) {
  // A text .x with a data object mmdkit skips (one reader warning).
  const std::string x =
      "xof 0303txt 0032\nKeyValuePair {\n \"a\";\n \"b\";\n}\nMesh {\n 3;\n 0.0;0.0;0.0;,\n 1.0;0.0;0.0;,\n "
      "0.0;1.0;0.0;;\n 1;\n 3;0,1,2;;\n}\n";
  ASSERT_TRUE(write_file_atomic(dir / "k.x", ByteSpan(reinterpret_cast<const std::uint8_t*>(x.data()), x.size())));
  const std::string skipped = "data objects of type 'KeyValuePair' are skipped";
  const Outcome loud = run("info " + q("k.x"));
  ASSERT_EQ(loud.code, 0) << loud.err;
  EXPECT_NE(loud.err.find(skipped), std::string::npos) << loud.err;
  const Outcome quiet = run("info -q " + q("k.x"));
  ASSERT_EQ(quiet.code, 0) << quiet.err;
  EXPECT_EQ(quiet.err, "");
  EXPECT_EQ(quiet.out, loud.out);
  // check: the warning is a finding (its output, stdout) and stays with -q.
  const Outcome check = run("check --quiet " + q("k.x"));
  EXPECT_EQ(check.code, 0) << check.err;
  EXPECT_NE(check.out.find(skipped), std::string::npos) << check.out;
  EXPECT_NE(check.out.find("0 error(s), 1 warning(s)"), std::string::npos) << check.out;
}

#if MMDKIT_HAS_RENDER
// A fresh user gave `render` a camera-only VMD as MOTION: it drew the rest pose without a word.
// It still draws (the camera's view is what was asked) and says so, in sample's words; a motion
// that keys the model, or the camera given as --camera with no MOTION, gets no such warning.
TEST_F(NewUserRulesCli, RenderWarnsThatACameraMotionDrawsTheRestPose) {
  const Outcome r = run("render " + q("m.pmx") + " " + q("cam.vmd") + " --size 32x18 --frame 3 -o " + q("c.png"));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(r.err.starts_with("mmdkit: warning: " + p("cam.vmd") + ": the motion keys no bone or morph of the model '" +
                                p("m.pmx") + "': it is drawn in its rest pose (the motion's camera is used)\n"))
      << r.err;
  EXPECT_TRUE(fs::exists(dir / "c.png"));
  const Outcome camera = run("render " + q("m.pmx") + " --camera " + q("cam.vmd") + " --size 32x18 --frame 3 -o " + q("d.png"));
  ASSERT_EQ(camera.code, 0) << camera.err;
  EXPECT_EQ(camera.err.find("keys no bone"), std::string::npos) << camera.err;
  ASSERT_EQ(run("generate vmd --bone-keys 3 --morph-keys 0 --frames 10 -o " + q("m.vmd")).code, 0);
  const Outcome keyed = run("render " + q("m.pmx") + " " + q("m.vmd") + " --size 32x18 --frame 3 -o " + q("e.png"));
  ASSERT_EQ(keyed.code, 0) << keyed.err;
  EXPECT_EQ(keyed.err.find("keys no bone"), std::string::npos) << keyed.err;
}
#endif

}  // namespace
}  // namespace mmdkit::test
