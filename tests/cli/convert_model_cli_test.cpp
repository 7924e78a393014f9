// `mmdkit convert` of models (issue 13.19): --copy-textures into another folder (copies equal to
// the input's textures, nothing outside the output's folder, the --force rule, missing textures
// named) and PMX → PMD: a model that came from a PMD converts back with the original's geometry,
// bones, IK, morphs and physics; a model that does not fit is refused with every reason.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "mmdkit/core/file.hpp"
#include "mmdkit/formats/pmd.hpp"
#include "mmdkit/formats/pmd_generate.hpp"
#include "mmdkit/formats/pmx.hpp"
#include "mmdkit/model/model.hpp"
#include "support/cli_run.hpp"

namespace mmdkit::test {
namespace {

namespace fs = std::filesystem;

class ConvertModelCli : public CliTest {
 protected:
  ConvertModelCli() : CliTest("convert_model_cli") {}
};

TEST_F(ConvertModelCli, CopyTexturesCopiesWhatTheModelRefersTo) {
  const fs::path src = dir / "src", out = dir / "out";
  fs::create_directories(src);
  fs::create_directories(out);
  ASSERT_EQ(run("generate pmd -o " + quote((src / "m.pmd").string()) + " --vertices 60").code, 0);
  const Outcome r = run("convert --copy-textures " + quote((src / "m.pmd").string()) + " " + quote((out / "m.pmx").string()));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.err, "");  // every texture copied: nothing left unresolved
  for (const char* t : {"body.bmp", "face.bmp", "face.sph"}) {
    ASSERT_TRUE(fs::exists(out / t)) << t;
    EXPECT_EQ(slurp(out / t), slurp(src / t)) << t;
  }
  EXPECT_EQ(run("check " + quote((out / "m.pmx").string())).out.find("texture_missing"), std::string::npos);
  // Again: the copies already hold these bytes (no --force needed for them, only for the model).
  EXPECT_EQ(run("convert --copy-textures --force " + quote((src / "m.pmd").string()) + " " + quote((out / "m.pmx").string())).code, 0);
  // A texture there with other contents: refused without --force, nothing written.
  ASSERT_TRUE(write_file_atomic(out / "body.bmp", std::string_view("other")));
  fs::remove(out / "m.pmx");
  const Outcome clash = run("convert --copy-textures " + quote((src / "m.pmd").string()) + " " + quote((out / "m.pmx").string()));
  EXPECT_EQ(clash.code, 1);
  EXPECT_NE(clash.err.find("body.bmp: exists with other contents"), std::string::npos) << clash.err;
  EXPECT_FALSE(fs::exists(out / "m.pmx"));
  EXPECT_EQ(slurp(out / "body.bmp"), "other");
  EXPECT_EQ(run("convert --copy-textures --force " + quote((src / "m.pmd").string()) + " " + quote((out / "m.pmx").string())).code, 0);
  EXPECT_EQ(slurp(out / "body.bmp"), slurp(src / "body.bmp"));
  // A missing texture is named and not copied; the rest are.
  fs::remove(src / "face.sph");
  const fs::path out2 = dir / "out2";
  fs::create_directories(out2);
  const Outcome miss = run("convert --copy-textures " + quote((src / "m.pmd").string()) + " " + quote((out2 / "m.pmd").string()));
  EXPECT_EQ(miss.code, 0) << miss.err;
  EXPECT_NE(miss.err.find("texture_missing: not copied (missing beside the input): 'face.sph' not found in"),
            std::string::npos)
      << miss.err;
  EXPECT_TRUE(fs::exists(out2 / "face.bmp"));
  EXPECT_FALSE(fs::exists(out2 / "face.sph"));
  // Only for a model written to a file.
  EXPECT_EQ(run("convert --copy-textures " + quote((src / "m.pmd").string()) + " " + quote((out / "m.json").string())).code, 2);
}

TEST_F(ConvertModelCli, CopyTexturesNeverWritesOutsideTheOutputFolder) {
  // A texture reference that climbs out of the model's folder is not copied (and not followed).
  const fs::path src = dir / "a" / "src", out = dir / "a" / "out";
  fs::create_directories(src);
  fs::create_directories(out);
  ASSERT_EQ(run("generate pmd -o " + quote((src / "m.pmd").string()) + " --vertices 60").code, 0);
  auto p = pmd::read_file(src / "m.pmd");
  ASSERT_TRUE(p);
  p->model.materials[0].texture.text = "../x.bmp";
  p->model.materials[0].texture.raw.clear();
  ASSERT_TRUE(write_file_atomic(src / "up.pmd", *pmd::write(p->model)));
  ASSERT_TRUE(write_file_atomic(dir / "a" / "x.bmp", std::string_view("outside")));
  const Outcome r = run("convert --copy-textures " + quote((src / "up.pmd").string()) + " " + quote((out / "up.pmd").string()));
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.err.find("texture_escapes: not copied (it leaves the input's folder)"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(dir / "x.bmp"));
  EXPECT_EQ(slurp(dir / "a" / "x.bmp"), "outside");
}

TEST_F(ConvertModelCli, PmxFromAPmdConvertsBackToPmd) {
  auto original = pmd::generate({.seed = 3, .vertices = 120, .morphs = 5});
  ASSERT_TRUE(original);
  const fs::path a = file("a.pmd", *pmd::write(*original));
  ASSERT_EQ(run("convert " + quote(a.string()) + " " + quote((dir / "b.pmx").string())).code, 0);
  const Outcome r = run("convert " + quote((dir / "b.pmx").string()) + " " + quote((dir / "c.pmd").string()));
  ASSERT_EQ(r.code, 0) << r.err;
  auto back = pmd::read_file(dir / "c.pmd");
  ASSERT_TRUE(back) << back.error().to_string();
  const pmd::Model& o = *original;
  const pmd::Model& c = back->model;
  // Geometry and materials as the original.
  ASSERT_EQ(c.vertices.size(), o.vertices.size());
  for (std::size_t i = 0; i < o.vertices.size(); ++i) {
    EXPECT_EQ(c.vertices[i].position, o.vertices[i].position) << i;
    EXPECT_EQ(c.vertices[i].uv, o.vertices[i].uv) << i;
    EXPECT_EQ(c.vertices[i].edge_off, o.vertices[i].edge_off) << i;
    // One bone at 100 % (either slot) or the same two bones and weight.
    if (o.vertices[i].weight == 100 || o.vertices[i].bones[0] == o.vertices[i].bones[1]) {
      EXPECT_EQ(c.vertices[i].bones[0], o.vertices[i].bones[0]) << i;
      EXPECT_EQ(c.vertices[i].weight, 100) << i;
    } else if (o.vertices[i].weight != 0) {
      EXPECT_EQ(c.vertices[i].bones, o.vertices[i].bones) << i;
      EXPECT_EQ(c.vertices[i].weight, o.vertices[i].weight) << i;
    }
  }
  EXPECT_EQ(c.indices, o.indices);
  ASSERT_EQ(c.materials.size(), o.materials.size());
  for (std::size_t i = 0; i < o.materials.size(); ++i) {
    EXPECT_EQ(c.materials[i].diffuse, o.materials[i].diffuse);
    EXPECT_EQ(c.materials[i].texture.text, o.materials[i].texture.text);
    EXPECT_EQ(c.materials[i].toon_index, o.materials[i].toon_index);
    EXPECT_EQ(c.materials[i].edge_flag, o.materials[i].edge_flag);
    EXPECT_EQ(c.materials[i].index_count, o.materials[i].index_count);
  }
  // Bones, IK and physics.
  ASSERT_EQ(c.bones.size(), o.bones.size());
  for (std::size_t i = 0; i < o.bones.size(); ++i) {
    EXPECT_EQ(c.bones[i].name.text, o.bones[i].name.text);
    EXPECT_EQ(c.bones[i].parent, o.bones[i].parent) << i;
    EXPECT_EQ(c.bones[i].position, o.bones[i].position) << i;
  }
  ASSERT_EQ(c.ik_chains.size(), o.ik_chains.size());
  for (std::size_t i = 0; i < o.ik_chains.size(); ++i) {
    EXPECT_EQ(c.ik_chains[i].target, o.ik_chains[i].target);
    EXPECT_EQ(c.ik_chains[i].effector, o.ik_chains[i].effector);
    EXPECT_EQ(c.ik_chains[i].links, o.ik_chains[i].links);
    EXPECT_EQ(c.ik_chains[i].iterations, o.ik_chains[i].iterations);
    EXPECT_FLOAT_EQ(c.ik_chains[i].unit_angle, o.ik_chains[i].unit_angle);
  }
  ASSERT_EQ(c.rigid_bodies.size(), o.rigid_bodies.size());
  for (std::size_t i = 0; i < o.rigid_bodies.size(); ++i)
    for (int k = 0; k < 3; ++k) EXPECT_NEAR(c.rigid_bodies[i].position[k], o.rigid_bodies[i].position[k], 1e-5f);
  ASSERT_EQ(c.joints.size(), o.joints.size());
  // Morphs: same names, and each moves the same vertices by the same offsets.
  ASSERT_EQ(c.morphs.size(), o.morphs.size());
  for (std::size_t i = 1; i < o.morphs.size(); ++i) {
    EXPECT_EQ(c.morphs[i].name.text, o.morphs[i].name.text);
    ASSERT_EQ(c.morphs[i].offsets.size(), o.morphs[i].offsets.size()) << i;
    for (std::size_t k = 0; k < o.morphs[i].offsets.size(); ++k) {
      const auto vo = o.morphs[0].offsets[o.morphs[i].offsets[k].vertex].vertex;
      const auto vc = c.morphs[0].offsets[c.morphs[i].offsets[k].vertex].vertex;
      EXPECT_EQ(vc, vo);
      EXPECT_EQ(c.morphs[i].offsets[k].offset, o.morphs[i].offsets[k].offset);
    }
  }
  // Same check result (clean).
  EXPECT_EQ(run("check " + quote((dir / "c.pmd").string())).code, 0);
}

TEST_F(ConvertModelCli, PmxThatDoesNotFitPmdIsRefusedWithEveryReason) {
  // generate pmx: BDEF4 and SDEF vertices, bone / material / group / UV morphs.
  ASSERT_EQ(run("generate pmx -o " + quote((dir / "g.pmx").string()) + " --vertices 200 --morphs 12").code, 0);
  const Outcome r = run("convert " + quote((dir / "g.pmx").string()) + " " + quote((dir / "g.pmd").string()));
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("the model does not fit PMD: "), std::string::npos) << r.err;
  for (const char* why : {"BDEF4 vertices (", "SDEF vertices (", "bone morphs (PMD has vertex morphs only) (",
                          "material morphs", "group morphs", "UV morphs"})
    EXPECT_NE(r.err.find(why), std::string::npos) << why << "\n" << r.err;
  EXPECT_FALSE(fs::exists(dir / "g.pmd"));
  // More vertices than PMD holds.
  ASSERT_EQ(run("generate pmx -o " + quote((dir / "big.pmx").string()) + " --vertices 70000").code, 0);
  const Outcome big = run("convert " + quote((dir / "big.pmx").string()) + " " + quote((dir / "big.pmd").string()));
  EXPECT_EQ(big.code, 1);
  EXPECT_NE(big.err.find("70000 vertices (PMD holds 65535)"), std::string::npos) << big.err;
  // A name longer than the 20-byte field.
  auto p = pmx::read_file(dir / "g.pmx");
  ASSERT_TRUE(p);
  p->model.bones[0].name.text = "とても長いボーンの名前です";  // 13 characters, 26 bytes in CP932
  p->model.bones[0].name.raw.clear();
  ASSERT_TRUE(write_file_atomic(dir / "n.pmx", *pmx::write(p->model)));
  const Outcome name = run("convert " + quote((dir / "n.pmx").string()) + " " + quote((dir / "n.pmd").string()));
  EXPECT_EQ(name.code, 1);
  EXPECT_NE(name.err.find("bone names longer than 20 bytes in CP932 (1: 0)"), std::string::npos) << name.err;
}

}  // namespace
}  // namespace mmdkit::test
