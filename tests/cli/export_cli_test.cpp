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
