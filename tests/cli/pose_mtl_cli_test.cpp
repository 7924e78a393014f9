// `mmdkit pose` outputs beyond the geometry (issue 13.9, 13.10, 13.11, 13.18, 13.19): one
// missing-texture warning per file naming the folder searched, sphere maps in the MTL
// (`refl -type sphere`), OBJ/MTL file names without spaces, --scale, the summary line and --quiet,
// and the warning for a model that fails `check`. Models come from `mmdkit generate pmx` (3
// materials: 0 tex/body.png, 1 tex/face.png, 2 tex/body.png + additive sphere tex/hair_s.spa).
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include "mmdkit/core/file.hpp"
#include "mmdkit/core/number.hpp"
#include "mmdkit/formats/pmx.hpp"
#include "support/cli_run.hpp"

namespace mmdkit::test {
namespace {

namespace fs = std::filesystem;

class PoseMtlCli : public CliTest {
 protected:
  PoseMtlCli() : CliTest("pose_mtl_cli") {}
  // dir/m.pmx with its textures (generate writes them beside it).
  std::string model() {
    const fs::path m = dir / "m.pmx";
    if (!fs::exists(m)) {
      EXPECT_EQ(run("generate pmx --vertices 60 -o " + quote(m.string())).code, 0);
    }
    return m.string();
  }
};

std::vector<std::string> lines_starting(const std::string& text, const std::string& prefix) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);)
    if (line.rfind(prefix, 0) == 0) out.push_back(line);
  return out;
}

TEST_F(PoseMtlCli, MissingTexturesAreWarnedOncePerFileWithTheFolderSearched) {
  const std::string m = model();
  const fs::path bare = dir / "bare";
  fs::create_directories(bare);
  fs::copy_file(m, bare / "m.pmx");  // the model without its textures
  const Outcome r = run("pose " + quote((bare / "m.pmx").string()) + " -o " + quote((dir / "p.obj").string()));
  ASSERT_EQ(r.code, 0) << r.err;
  // Three files are missing (body.png serves materials 0 and 2): three warnings, not four.
  EXPECT_EQ(count(r.err, "not found in"), 3u) << r.err;
  const std::string folder = fs::absolute(bare).lexically_normal().string();
  EXPECT_NE(r.err.find("texture 'tex/body.png' not found in " + folder + " (materials 0, 2; kept as a reference)"),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("texture 'tex/face.png' not found in " + folder + " (material 1;"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("texture 'tex/hair_s.spa' not found in " + folder + " (material 2;"), std::string::npos)
      << r.err;
  // With --copy-textures: the same three, "not copied".
  const Outcome c = run("pose " + quote((bare / "m.pmx").string()) + " --copy-textures -o " +
                        quote((dir / "c.obj").string()));
  ASSERT_EQ(c.code, 0) << c.err;
  EXPECT_EQ(count(c.err, "; not copied"), 3u) << c.err;
  EXPECT_EQ(count(c.err, "not found in"), 3u) << c.err;
}

TEST_F(PoseMtlCli, SphereMapsAreWrittenAsReflSphereMaps) {
  const std::string m = model();
  const Outcome r = run("pose " + quote(m) + " -o " + quote((dir / "p.obj").string()));
  ASSERT_EQ(r.code, 0) << r.err;
  const std::string mtl = slurp(dir / "p.mtl");
  // Only material 2 has a sphere map (additive, tex/hair_s.spa), after its map_Kd.
  EXPECT_EQ(count(mtl, "refl -type sphere "), 1u) << mtl;
  EXPECT_NE(mtl.find("map_Kd tex/body.png\n# sphere map: MMD adds it (.spa); MTL's refl has no blend mode\n"
                     "refl -type sphere tex/hair_s.spa\n"),
            std::string::npos)
      << mtl;
  EXPECT_LT(mtl.find("newmtl m1_"), mtl.find("refl -type sphere"));
  // Copied: the sphere map is copied too and the MTL points at the copy.
  const Outcome c = run("pose " + quote(m) + " --copy-textures -o " + quote((dir / "c.obj").string()));
  ASSERT_EQ(c.code, 0) << c.err;
  EXPECT_NE(slurp(dir / "c.mtl").find("refl -type sphere c_textures/tex/hair_s.spa\n"), std::string::npos);
  EXPECT_EQ(slurp(dir / "c_textures" / "tex" / "hair_s.spa"), slurp(dir / "tex" / "hair_s.spa"));
  EXPECT_EQ(slurp(dir / "c_textures" / "tex" / "body.png"), slurp(dir / "tex" / "body.png"));
}

TEST_F(PoseMtlCli, FileNamesWithSpacesAreAvoidedInMtllibAndCopiedTextures) {
  // A model whose first texture has a space in its name, and an OBJ name with a space.
  const std::string m0 = model();
  auto p = pmx::read_file(m0);
  ASSERT_TRUE(p);
  p->model.textures[0].text = "tex/body skin.png";
  p->model.textures[0].raw.clear();
  const fs::path m = dir / "spaced.pmx";
  ASSERT_TRUE(write_file_atomic(m, *pmx::write(p->model)));
  fs::copy_file(dir / "tex" / "body.png", dir / "tex" / "body skin.png");
  const fs::path obj = dir / "my pose.obj";
  const Outcome r = run("pose " + quote(m.string()) + " --copy-textures -o " + quote(obj.string()));
  ASSERT_EQ(r.code, 0) << r.err;
  const std::string text = slurp(obj);
  EXPECT_EQ(lines_starting(text, "mtllib "), std::vector<std::string>{"mtllib my_pose.mtl"});
  ASSERT_TRUE(fs::exists(dir / "my_pose.mtl"));
  const std::string mtl = slurp(dir / "my_pose.mtl");
  for (const std::string& l : lines_starting(mtl, "map_Kd ")) EXPECT_EQ(l.find(' ', 7), std::string::npos) << l;
  EXPECT_NE(mtl.find("map_Kd my_pose_textures/tex/body_skin.png\n"), std::string::npos) << mtl;
  EXPECT_EQ(slurp(dir / "my_pose_textures" / "tex" / "body_skin.png"), slurp(dir / "tex" / "body.png"));
  EXPECT_EQ(r.err.find("contains a space"), std::string::npos) << r.err;
  // Referenced in place, the name keeps its space and a warning says so.
  const Outcome ref = run("pose " + quote(m.string()) + " -o " + quote((dir / "ref.obj").string()));
  ASSERT_EQ(ref.code, 0) << ref.err;
  EXPECT_NE(slurp(dir / "ref.mtl").find("map_Kd tex/body skin.png\n"), std::string::npos);
  EXPECT_NE(ref.err.find("texture path 'tex/body skin.png' contains a space (materials 0, 2)"), std::string::npos)
      << ref.err;
}

TEST_F(PoseMtlCli, ScaleMultipliesPositionsAndTheHeaderSaysMetres) {
  const std::string m = model();
  ASSERT_EQ(run("pose " + quote(m) + " -o " + quote((dir / "u.obj").string())).code, 0);
  const Outcome r = run("pose " + quote(m) + " --scale 0.08 -o " + quote((dir / "s.obj").string()));
  ASSERT_EQ(r.code, 0) << r.err;
  const auto unscaled = lines_starting(slurp(dir / "u.obj"), "v "), scaled = lines_starting(slurp(dir / "s.obj"), "v ");
  ASSERT_EQ(unscaled.size(), 60u);
  ASSERT_EQ(scaled.size(), unscaled.size());
  for (std::size_t i = 0; i < scaled.size(); ++i) {
    std::istringstream a(unscaled[i].substr(2)), b(scaled[i].substr(2));
    for (int k = 0; k < 3; ++k) {
      std::string x, y;
      a >> x;
      b >> y;
      const float u = static_cast<float>(*parse_float(x)), s = static_cast<float>(*parse_float(y));
      EXPECT_NEAR(s, u * 0.08f, 1e-6f * (1 + std::fabs(u))) << i;
    }
  }
  EXPECT_NE(slurp(dir / "s.obj").find("MMD units x 0.08 (metres)"), std::string::npos);
  for (const char* bad : {"0", "-1", "nan"})
    EXPECT_EQ(run("pose " + quote(m) + " --scale " + bad + " -o " + quote((dir / "b.obj").string())).code, 2) << bad;
}

TEST_F(PoseMtlCli, SummaryLineOnSuccessSilencedByQuiet) {
  const std::string m = model();
  const Outcome r = run("pose " + quote(m) + " --copy-textures -o " + quote((dir / "p.obj").string()));
  ASSERT_EQ(r.code, 0) << r.err;
  // 60 vertices, 58 triangles (a strip), 3 materials; 3 texture files copied.
  EXPECT_EQ(r.err, "mmdkit pose: wrote " + (dir / "p.obj").string() + " (60 vertices, 58 triangles, 3 materials) and " +
                       (dir / "p.mtl").string() + ", 3 textures copied into " + (dir / "p_textures").string() + "\n");
  const Outcome q = run("pose " + quote(m) + " --quiet --force -o " + quote((dir / "p.obj").string()));
  ASSERT_EQ(q.code, 0) << q.err;
  EXPECT_EQ(q.err, "");
}

TEST_F(PoseMtlCli, AModelThatFailsCheckIsUsedWithOneWarning) {
  const std::string m0 = model();
  auto p = pmx::read_file(m0);
  ASSERT_TRUE(p);
  p->model.materials[1].texture = 40;  // 3 textures: out of range (check: one error)
  const fs::path m = dir / "bad.pmx";
  ASSERT_TRUE(write_file_atomic(m, *pmx::write(p->model)));
  ASSERT_EQ(run("check " + quote(m.string())).code, 1);
  const Outcome r = run("pose " + quote(m.string()) + " -o " + quote((dir / "p.obj").string()));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(count(r.err, "fails 'mmdkit check'"), 1u) << r.err;
  EXPECT_NE(r.err.find("mmdkit: warning: " + m.string() + ": the model fails 'mmdkit check' with 1 error "),
            std::string::npos)
      << r.err;
  const Outcome s = run("sample " + quote(m.string()) + " -o " + quote((dir / "s.json").string()));
  EXPECT_EQ(count(s.err, "fails 'mmdkit check' with 1 error"), 1u) << s.err;
  const Outcome q = run("pose " + quote(m.string()) + " --quiet --force -o " + quote((dir / "p.obj").string()));
  EXPECT_EQ(q.err, "");
  // A clean model: no such warning.
  EXPECT_EQ(run("pose " + quote(m0) + " --force -o " + quote((dir / "p.obj").string())).err.find("fails"),
            std::string::npos);
}

}  // namespace
}  // namespace mmdkit::test
