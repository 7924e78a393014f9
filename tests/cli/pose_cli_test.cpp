// `mmdkit pose` through cmd_pose(): OBJ vertex count, bind pose reproduced, a known rotation moves
// BDEF1 vertices to the analytic place, right-handed flip, MTL, refusing to overwrite inputs.
// Inputs are generated in code (humanoid PMX, VMD).
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <limits>
#include <numbers>
#include <sstream>

#include "cli/cmd_pose.hpp"
#include "mmdkit/core/file.hpp"
#include "mmdkit/core/number.hpp"
#include "mmdkit/core/text.hpp"
#include "mmdkit/formats/pmx.hpp"
#include "mmdkit/formats/pmx_generate.hpp"
#include "mmdkit/formats/vmd.hpp"
#include "support/corpus.hpp"

namespace mmdkit::cli {
namespace {

namespace fs = std::filesystem;

struct PoseRun {
  int code = -1;
  std::string out, err;
};

PoseRun run(const std::vector<std::string>& args) {
  std::vector<const char*> argv{"mmdkit-pose"};
  for (const auto& a : args) argv.push_back(a.c_str());
  std::ostringstream out, err;
  PoseRun r;
  r.code = cmd_pose(static_cast<int>(argv.size()), argv.data(), out, err);
  r.out = out.str();
  r.err = err.str();
  return r;
}

struct Files {
  fs::path dir, model, motion;
  pmx::Model pmx;
};

// Generated humanoid PMX (300 vertices) and a VMD rotating 全ての親 by +90° about Y at frame 0.
const Files& files() {
  static const Files f = [] {
    Files x;
    x.dir = test::temp_dir("pose_cli");
    pmx::GenerateOptions o;
    o.vertices = 300;
    x.pmx = *pmx::generate(o);
    x.model = x.dir / "model.pmx";
    EXPECT_TRUE(write_file_atomic(x.model, *pmx::write(x.pmx)).has_value());
    vmd::Motion m;
    vmd::TrackName root;
    root.raw = *encode_text("全ての親", Encoding::cp932);
    m.bone_names = {root};
    const float h = std::sqrt(0.5f);
    const auto lin = vmd::encode_bone_interpolation(vmd::kLinearCurve, vmd::kLinearCurve, vmd::kLinearCurve,
                                                    vmd::kLinearCurve);
    m.bone_keys = {vmd::BoneKey{0, 0, {0, 0, 0}, {0, h, 0, h}, lin}};
    x.motion = x.dir / "turn.vmd";
    EXPECT_TRUE(write_file_atomic(x.motion, *vmd::write(m)).has_value());
    return x;
  }();
  return f;
}

struct Obj {
  std::vector<std::array<float, 3>> v, vn;
  std::vector<std::array<float, 2>> vt;
  std::vector<std::array<std::uint32_t, 3>> f;
  std::vector<std::string> header;
  std::string mtllib;
};

Obj parse_obj(const fs::path& p) {
  Obj o;
  auto bytes = read_file(p);
  EXPECT_TRUE(bytes.has_value());
  std::istringstream in(std::string(bytes->begin(), bytes->end()));
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream l(line);
    std::string tag;
    l >> tag;
    auto num = [&] {
      std::string t;
      l >> t;
      return static_cast<float>(*parse_float(t));
    };
    if (tag == "#") {
      o.header.push_back(line);
    } else if (tag == "v") {
      std::array<float, 3> a{num(), num(), num()};
      o.v.push_back(a);
    } else if (tag == "vn") {
      std::array<float, 3> a{num(), num(), num()};
      o.vn.push_back(a);
    } else if (tag == "vt") {
      std::array<float, 2> a{num(), num()};
      o.vt.push_back(a);
    } else if (tag == "f") {
      std::array<std::uint32_t, 3> t{};
      for (auto& k : t) {
        std::string c;
        l >> c;
        k = static_cast<std::uint32_t>(std::stoul(c.substr(0, c.find('/'))));
      }
      o.f.push_back(t);
    } else if (tag == "mtllib") {
      l >> o.mtllib;
    }
  }
  return o;
}

TEST(PoseCli, BindPoseWritesEveryVertexAtItsBindPosition) {
  const Files& x = files();
  const fs::path out = x.dir / "bind.obj";
  PoseRun r = run({x.model.string(), "-o", out.string(), "--force"});
  ASSERT_EQ(r.code, 0) << r.err;
  const Obj o = parse_obj(out);
  ASSERT_EQ(o.v.size(), x.pmx.vertices.size());
  ASSERT_EQ(o.vn.size(), x.pmx.vertices.size());
  ASSERT_EQ(o.vt.size(), x.pmx.vertices.size());
  EXPECT_EQ(o.f.size(), x.pmx.faces.size() / 3);
  EXPECT_EQ(o.mtllib, "bind.mtl");
  std::size_t exact = 0;
  for (std::size_t i = 0; i < o.v.size(); ++i) {
    const auto& p = x.pmx.vertices[i].position;
    // The bind-pose skinning matrices are identity up to float rounding of the bone chain
    // (model position = Σ parent offsets, anim/pose.cpp), so positions agree to a few ulps, not
    // bit for bit (see docs/EVALUATION-MORPH-SKIN.md "Bind pose").
    for (int c = 0; c < 3; ++c) EXPECT_NEAR(o.v[i][c], p[c], 2e-6f * (1.0f + std::fabs(p[c]))) << i;
    if (o.v[i] == p) ++exact;
    EXPECT_NEAR(o.vt[i][1], 1.0f - x.pmx.vertices[i].uv[1], 1e-6f);
  }
  EXPECT_GT(exact, 0u);
  // Faces keep the model's triangles (1-based), in MMD winding.
  EXPECT_EQ(o.f[0], (std::array<std::uint32_t, 3>{x.pmx.faces[0] + 1, x.pmx.faces[1] + 1, x.pmx.faces[2] + 1}));
  ASSERT_TRUE(fs::exists(x.dir / "bind.mtl"));
  auto mtl = read_file(x.dir / "bind.mtl");
  const std::string ms(mtl->begin(), mtl->end());
  std::size_t count = 0;
  for (std::size_t p = ms.find("newmtl "); p != std::string::npos; p = ms.find("newmtl ", p + 1)) ++count;
  EXPECT_EQ(count, x.pmx.materials.size());
  bool said = false;
  for (const auto& h : o.header) said = said || h.find("left-handed") != std::string::npos;
  EXPECT_TRUE(said);
}

TEST(PoseCli, KnownRotationMovesBdef1VerticesAnalytically) {
  const Files& x = files();
  const fs::path out = x.dir / "turn.obj";
  PoseRun r = run({x.model.string(), x.motion.string(), "--frame", "0", "-o", out.string(), "--force"});
  ASSERT_EQ(r.code, 0) << r.err;
  const Obj o = parse_obj(out);
  ASSERT_EQ(o.v.size(), x.pmx.vertices.size());
  // 全ての親 is the root of every bone: +90° about Y about its head c maps p to
  // (c.x + (p.z − c.z), p.y, c.z − (p.x − c.x)).
  std::int32_t root = -1;
  for (std::size_t b = 0; b < x.pmx.bones.size(); ++b)
    if (x.pmx.bones[b].name.text == "全ての親") root = static_cast<std::int32_t>(b);
  ASSERT_GE(root, 0);
  const auto c = x.pmx.bones[static_cast<std::size_t>(root)].position;
  std::size_t checked = 0;
  for (std::size_t i = 0; i < o.v.size(); ++i) {
    const auto& p = x.pmx.vertices[i].position;
    const std::array<float, 3> e{c[0] + (p[2] - c[2]), p[1], c[2] - (p[0] - c[0])};
    const float tol = x.pmx.vertices[i].deform == pmx::DeformType::bdef1 ? 1e-5f : 1e-4f;
    for (int k = 0; k < 3; ++k) EXPECT_NEAR(o.v[i][k], e[k], tol * (1 + std::fabs(e[k]))) << i;
    if (x.pmx.vertices[i].deform == pmx::DeformType::bdef1) ++checked;
  }
  EXPECT_GT(checked, 0u);
  // Right-handed: Z negated, winding reversed.
  const fs::path rh = x.dir / "turn_rh.obj";
  r = run({x.model.string(), x.motion.string(), "-o", rh.string(), "--right-handed", "--force"});
  ASSERT_EQ(r.code, 0) << r.err;
  const Obj q = parse_obj(rh);
  ASSERT_EQ(q.v.size(), o.v.size());
  for (std::size_t i = 0; i < o.v.size(); ++i) {
    EXPECT_EQ(q.v[i][0], o.v[i][0]);
    EXPECT_EQ(q.v[i][2], -o.v[i][2]);
  }
  EXPECT_EQ(q.f[0], (std::array<std::uint32_t, 3>{o.f[0][0], o.f[0][2], o.f[0][1]}));
}

TEST(PoseCli, RefusesToOverwriteAnInput) {
  const Files& x = files();
  // A real motion whose name ends in .obj (inputs are told apart by content): posing with it is
  // fine, writing the OBJ over it is refused as an input, and the file is left as it was.
  const fs::path motion_obj = x.dir / "motion_named.obj";
  const auto motion_bytes = read_file(x.motion);
  ASSERT_TRUE(motion_bytes);
  ASSERT_TRUE(write_file_atomic(motion_obj, ByteSpan(motion_bytes->data(), motion_bytes->size())).has_value());
  PoseRun r = run({x.model.string(), motion_obj.string(), "-o", (x.dir / "ok.obj").string(), "--force"});
  ASSERT_EQ(r.code, 0) << r.err;
  r = run({x.model.string(), motion_obj.string(), "-o", motion_obj.string()});
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("is an input file"), std::string::npos) << r.err;
  const auto after = read_file(motion_obj);
  ASSERT_TRUE(after);
  EXPECT_EQ(*after, *motion_bytes);
}

TEST(PoseCli, UsageErrorsExitWithTwo) {
  const Files& x = files();
  PoseRun r = run({x.model.string(), "-o", (x.dir / "x.txt").string()});
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("must end in .obj"), std::string::npos) << r.err;
  r = run({x.model.string(), "-o", (x.dir / "neg.obj").string(), "--frame", "-1"});
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("--frame must be a finite number >= 0"), std::string::npos) << r.err;
  r = run({x.model.string(), "-o", "-"});
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("cannot write to stdout"), std::string::npos) << r.err;
}

TEST(PoseCli, MissingModelIsBadInputNamingTheFile) {
  const Files& x = files();
  PoseRun r = run({(x.dir / "missing.pmx").string(), "-o", (x.dir / "m.obj").string()});
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("missing.pmx"), std::string::npos) << r.err;
}

// A user's test: a model with a NaN vertex (check: error) was posed with exit 0 into an OBJ with
// "nan:7fc00000" coordinates. pose now refuses it naming the vertex; a bone at infinity is refused
// by the skeleton, for pose and sample alike.
TEST(PoseCli, NonFiniteModelIsRefusedWithTheRecord) {
  const Files& x = files();
  pmx::Model bad = x.pmx;
  bad.vertices[7].position[1] = std::numeric_limits<float>::quiet_NaN();
  const fs::path nan_model = x.dir / "nan.pmx";
  ASSERT_TRUE(write_file_atomic(nan_model, *pmx::write(bad)).has_value());
  const fs::path out = x.dir / "nan.obj";
  PoseRun r = run({nan_model.string(), x.motion.string(), "-o", out.string()});
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("'vertices', record 7"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(out));

  pmx::Model far = x.pmx;
  far.bones[1].position[0] = std::numeric_limits<float>::infinity();
  const fs::path inf_model = x.dir / "inf.pmx";
  ASSERT_TRUE(write_file_atomic(inf_model, *pmx::write(far)).has_value());
  r = run({inf_model.string(), x.motion.string(), "-o", out.string()});
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("'bones', record 1"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("not finite"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(out));
  // The unchanged model still poses.
  EXPECT_EQ(run({x.model.string(), x.motion.string(), "-o", out.string()}).code, 0);
}

TEST(PoseCli, CorpusMikuV2WithWavefileMotionAndMorphs) {
  MMDKIT_REQUIRE_CORPUS();
  const fs::path dir = *test::corpus_dir();
  const fs::path model = dir / "jomin398__jomin398.github.io/docs/assets/models/mmd/miku_v2/miku_v2.pmd";
  const fs::path motion = dir / "moeru-ai__three-mmd/examples/vanilla/src/assets/vmds/wavefile_v2.vmd";
  if (!fs::exists(model) || !fs::exists(motion)) GTEST_SKIP() << "miku_v2.pmd / wavefile_v2.vmd not in the corpus";
  const fs::path out = test::temp_dir("pose_cli_corpus") / "miku.obj";
  PoseRun r = run({model.string(), motion.string(), "--frame", "300", "-o", out.string(), "--force"});
  ASSERT_EQ(r.code, 0) << r.err;
  const Obj o = parse_obj(out);
  // miku_v2.pmd: 12,354 vertices and 68,883 face indices = 22,961 triangles (PMD header counts,
  // read with a 6-line Python struct script).
  EXPECT_EQ(o.v.size(), 12354u);
  EXPECT_EQ(o.f.size(), 22961u);
  for (const auto& v : o.v)
    for (float c : v) ASSERT_TRUE(std::isfinite(c));
}

}  // namespace
}  // namespace mmdkit::cli
