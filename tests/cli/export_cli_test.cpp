// `mmdkit export` (cli/cmd_export.hpp): usage, outputs, the --force rule.
#include <gtest/gtest.h>

#include "support/cli_run.hpp"

namespace mmdkit::test {
namespace {

class ExportCli : public CliTest {
 protected:
  ExportCli() : CliTest("export_cli") {}
};

TEST_F(ExportCli, WritesGlbAndGltfWithTheModelsTextures) {
  const std::string model = (dir / "m.pmx").string();
  ASSERT_EQ(run("generate pmx -o " + quote(model)).code, 0);
  const Outcome glb = run("export " + quote(model) + " -o " + quote((dir / "m.glb").string()));
  ASSERT_EQ(glb.code, 0) << glb.err;
  const std::string bytes = slurp(dir / "m.glb");
  ASSERT_GE(bytes.size(), 20u);
  EXPECT_EQ(bytes.substr(0, 4), "glTF");
  EXPECT_NE(bytes.find("\"images\""), std::string::npos);  // generate writes the textures beside it
  EXPECT_EQ(glb.err.find("not embedded"), std::string::npos) << glb.err;
  const Outcome text = run("export " + quote(model) + " -o " + quote((dir / "m.gltf").string()) + " --unlit");
  ASSERT_EQ(text.code, 0) << text.err;
  EXPECT_EQ(slurp(dir / "m.gltf").substr(0, 1), "{");
  // Existing output: refused without --force, replaced with it.
  EXPECT_EQ(run("export " + quote(model) + " -o " + quote((dir / "m.glb").string())).code, 1);
  EXPECT_EQ(run("export " + quote(model) + " -o " + quote((dir / "m.glb").string()) + " --force").code, 0);
}

TEST_F(ExportCli, UsageErrors) {
  const std::string model = (dir / "m.pmd").string();
  ASSERT_EQ(run("generate pmd -o " + quote(model)).code, 0);
  EXPECT_EQ(run("export " + quote(model) + " -o " + quote((dir / "m.obj").string())).code, 2);
  EXPECT_EQ(run("export " + quote(model) + " -o -").code, 2);
  EXPECT_EQ(run("export " + quote(model) + " -o " + quote((dir / "x.glb").string()) + " --scale 0").code, 2);
  EXPECT_EQ(run("export " + quote(model) + " -o " + quote((dir / "x.glb").string()) + " --fps 24").code, 2);
  const Outcome missing = run("export " + quote((dir / "none.pmx").string()) + " -o " + quote((dir / "x.glb").string()));
  EXPECT_EQ(missing.code, 1);
  EXPECT_NE(missing.err.find("none.pmx"), std::string::npos);
}

}  // namespace
}  // namespace mmdkit::test

namespace mmdkit::test {
namespace {

class ExportAnimCli : public CliTest {
 protected:
  ExportAnimCli() : CliTest("export_anim_cli") {}
};

TEST_F(ExportAnimCli, MotionFramesFpsReduceAndCamera) {
  const std::string model = (dir / "m.pmx").string(), motion = (dir / "m.vmd").string();
  ASSERT_EQ(run("generate pmx -o " + quote(model)).code, 0);
  ASSERT_EQ(run("generate vmd -o " + quote(motion) + " --frames 60 --camera-keys 5").code, 0);
  const std::string out = (dir / "a.glb").string();
  const Outcome full = run("export " + quote(model) + " " + quote(motion) + " --camera " + quote(motion) +
                           " --frames 10-20 --fps 60 -o " + quote(out));
  ASSERT_EQ(full.code, 0) << full.err;
  const std::string glb = slurp(out);
  EXPECT_NE(glb.find("\"animations\""), std::string::npos);
  EXPECT_NE(glb.find("\"cameras\""), std::string::npos);
  // 10..20 at 60 fps: 21 samples, the time accessor's max is 20 / 60 s.
  EXPECT_NE(glb.find("\"count\":21,\"type\":\"SCALAR\",\"min\":[0.0],\"max\":[0.3333333"), std::string::npos);
  const std::string red = (dir / "r.glb").string();
  const Outcome reduced = run("export " + quote(model) + " " + quote(motion) + " --reduce 0.1 -o " + quote(red));
  ASSERT_EQ(reduced.code, 0) << reduced.err;
  EXPECT_NE(reduced.out.find("keys kept"), std::string::npos) << reduced.out;
  EXPECT_LT(slurp(red).size(), slurp(out).size() * 4);
  EXPECT_NE(slurp(red).find("\"reduction\""), std::string::npos);
}

TEST_F(ExportAnimCli, AnimationUsageErrors) {
  const std::string model = (dir / "m.pmd").string(), motion = (dir / "m.vmd").string();
  ASSERT_EQ(run("generate pmd -o " + quote(model)).code, 0);
  ASSERT_EQ(run("generate vmd -o " + quote(motion)).code, 0);
  const std::string out = " -o " + quote((dir / "x.glb").string());
  EXPECT_EQ(run("export " + quote(model) + out + " --frames 0-10").code, 2);  // no motion
  EXPECT_EQ(run("export " + quote(model) + " " + quote(motion) + out + " --frames 10-5").code, 2);
  EXPECT_EQ(run("export " + quote(model) + " " + quote(motion) + out + " --frames x").code, 2);
  EXPECT_EQ(run("export " + quote(model) + " " + quote(motion) + out + " --reduce -1").code, 2);
  // --physics steps whole 30 fps frames (tests/cli/physics_cli_test.cpp exports with it).
  const Outcome phys = run("export " + quote(model) + " " + quote(motion) + out + " --physics --fps 60");
  EXPECT_EQ(phys.code, 2);
  EXPECT_NE(phys.err.find("physics"), std::string::npos);
  EXPECT_EQ(run("export " + quote(model) + " " + quote(model) + out).code, 1);  // a model as a motion
}

}  // namespace
}  // namespace mmdkit::test
