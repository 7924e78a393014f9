// Outside parents (外部親) of scene models (description.hpp ModelParentKey): a bone of one model
// following a bone of another, evaluated as nanoem's Bone::applyOutsideParentTransform.
#include <gtest/gtest.h>

#include <cmath>

#include "mmdkit/anim/pose.hpp"
#include "mmdkit/scene/scene.hpp"
#include "scene/scene_fixture.hpp"
#include "support/corpus.hpp"

namespace mmdkit::scene {
namespace {

namespace fs = std::filesystem;
using test::write_model;
using test::write_motion;

// Independent rigid maths in double: (rotation matrix, translation), column vectors.
struct Rigid {
  double r[3][3]{};
  double t[3]{};
};

Rigid rigid(const Quat& q, const Vec3& p) {
  const double x = q[0], y = q[1], z = q[2], w = q[3];
  Rigid o;
  const double m[3][3] = {{1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)},
                          {2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)},
                          {2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)}};
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) o.r[i][j] = m[i][j];
    o.t[i] = p[static_cast<std::size_t>(i)];
  }
  return o;
}

Rigid mul(const Rigid& a, const Rigid& b) {
  Rigid o;
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j)
      for (int k = 0; k < 3; ++k) o.r[i][j] += a.r[i][k] * b.r[k][j];
    o.t[i] = a.t[i];
    for (int k = 0; k < 3; ++k) o.t[i] += a.r[i][k] * b.t[k];
  }
  return o;
}

Rigid inverse(const Rigid& a) {
  Rigid o;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) o.r[i][j] = a.r[j][i];
  for (int i = 0; i < 3; ++i)
    for (int k = 0; k < 3; ++k) o.t[i] -= o.r[i][k] * a.t[k];
  return o;
}

Rigid translation(const Vec3& v) { return rigid(kIdentityQuat, v); }

Rigid bone_of(const Scene& s, std::size_t model, std::size_t bone) {
  const anim::PoseWorkspace& ws = s.character(model).pose();
  return rigid(ws.model_rotations()[bone], ws.model_positions()[bone]);
}

void expect_near(const Rigid& got, const Rigid& want, double tol, const std::string& what) {
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) EXPECT_NEAR(got.r[i][j], want.r[i][j], 1e-5) << what << " r" << i << j;
    EXPECT_NEAR(got.t[i], want.t[i], tol) << what << " t" << i;
  }
}

class OutsideParents : public ::testing::Test {
 protected:
  void SetUp() override {
    dir = mmdkit::test::temp_dir("outside_parent");
    dancer = write_model(dir, "dancer.pmx", 1);
    other = write_model(dir, "other.pmx", 2, 200);
    dance = write_motion(dir, "dance.vmd", 11, 40, 400);
    dance2 = write_motion(dir, "dance2.vmd", 12, 40, 400);
  }
  fs::path dir, dancer, other, dance, dance2;
};

// Model 0's センター follows model 1's 頭 from frame 10 to frame 30. Before and after, model 0 is
// the model alone; in between センター = W · T(−head) · P (P = 頭 in model 0's space through both
// placements) and the bones below センター move rigidly with it; 全ての親 (above it) does not.
TEST_F(OutsideParents, BoneFollowsAnotherModelsBoneByNanoemsRule) {
  SceneDescription alone;
  alone.models.push_back({dancer, {dance}, Placement{{2, 0, 1}, {0, 20, 0}, 1.0f}});
  alone.models.push_back({other, {dance2}, Placement{{-4, 1, 3}, {0, -35, 5}, 1.0f}});
  SceneDescription d = alone;
  d.models[0].parents = {{10, "センター", 1, "頭"}, {30, "センター", std::nullopt, ""}};
  std::vector<Warning> w;
  auto a = Scene::load(alone, {}, w);
  auto s = Scene::load(d, {}, w);
  ASSERT_TRUE(a.has_value()) << a.error().to_string();
  ASSERT_TRUE(s.has_value()) << s.error().to_string();
  EXPECT_TRUE(w.empty());
  ASSERT_EQ(s->evaluation_order().size(), 2u);
  EXPECT_EQ(s->evaluation_order()[0], 1u) << "the parent model first";
  const anim::Skeleton& sk = s->character(0).data().skeleton();
  const auto center = static_cast<std::size_t>(sk.find("センター"));
  const auto root = static_cast<std::size_t>(sk.find("全ての親"));
  const auto wrist = static_cast<std::size_t>(sk.find("右手首"));
  const auto head = static_cast<std::size_t>(s->character(1).data().skeleton().find("頭"));
  const Rigid place0 = rigid(placement_rotation(d.models[0].placement), d.models[0].placement.position);
  const Rigid place1 = rigid(placement_rotation(d.models[1].placement), d.models[1].placement.position);
  int followed = 0;
  for (double f : {0.0, 9.0, 10.0, 17.5, 29.0, 30.0, 36.0}) {
    ASSERT_TRUE(a->evaluate(f).has_value());
    ASSERT_TRUE(s->evaluate(f).has_value());
    const std::string at = "frame " + std::to_string(f);
    // The parent model is not changed.
    expect_near(bone_of(*s, 1, head), bone_of(*a, 1, head), 0.0, at + " parent");
    const Rigid wc = bone_of(*a, 0, center);
    if (f < 10 || f >= 30) {
      for (std::size_t b : {center, root, wrist}) expect_near(bone_of(*s, 0, b), bone_of(*a, 0, b), 0.0, at + " alone");
      continue;
    }
    ++followed;
    const Rigid p = mul(inverse(place0), mul(place1, bone_of(*a, 1, head)));
    // W · T(−head) · P, head = センター's bind position.
    const Vec3 h = sk.bind_positions()[center];
    const Rigid want2 = mul(mul(wc, translation({-h[0], -h[1], -h[2]})), p);
    expect_near(bone_of(*s, 0, center), want2, 1e-4, at + " センター");
    const Rigid c = mul(want2, inverse(wc));
    expect_near(bone_of(*s, 0, wrist), mul(c, bone_of(*a, 0, wrist)), 1e-4, at + " 右手首 below it");
    expect_near(bone_of(*s, 0, root), bone_of(*a, 0, root), 0.0, at + " 全ての親 above it");
  }
  EXPECT_EQ(followed, 3);
}

TEST_F(OutsideParents, ErrorsNameTheKey) {
  SceneDescription d;
  d.models.push_back({dancer, {dance}, {}});
  d.models.push_back({other, {dance2}, {}});
  std::vector<Warning> w;
  d.models[0].parents = {{0, "センター", 1, "nothing"}};
  auto r = Scene::load(d, {}, w);
  ASSERT_FALSE(r.has_value());
  EXPECT_NE(r.error().message.find("models[0].parents[0].parent_bone: model 1 has no bone 'nothing'"), std::string::npos)
      << r.error().message;
  d.models[0].parents = {{0, "nobone", 1, "頭"}};
  r = Scene::load(d, {}, w);
  ASSERT_FALSE(r.has_value());
  EXPECT_NE(r.error().message.find("models[0].parents[0].bone: model 0 has no bone 'nobone'"), std::string::npos)
      << r.error().message;
  d.models[0].parents = {{0, "センター", 1, "頭"}};
  d.models[1].parents = {{5, "頭", 0, "右手首"}};
  r = Scene::load(d, {}, w);
  ASSERT_FALSE(r.has_value());
  EXPECT_NE(r.error().message.find("outside parents form a cycle (models[0] -> models[1] -> models[0])"), std::string::npos)
      << r.error().message;
}

TEST(OutsideParentsJson, ParsedWithFieldErrors) {
  const std::string ok = R"({"models": [{"file": "/a.pmx"}, {"file": "/b.pmx", "parents": [
    {"frame": 0, "bone": "センター", "model": 0, "parent_bone": "頭"}, {"frame": 10, "bone": "センター"}]}],
    "gravity": [{"frame": 0, "gravity": [0, -49, 0]}, {"frame": 30, "gravity": [10, 0, 0]}],
    "physics_mode": "off", "physics_ground": true})";
  auto s = parse_scene(ok, "/");
  ASSERT_TRUE(s.has_value()) << s.error().to_string();
  ASSERT_EQ(s->models[1].parents.size(), 2u);
  EXPECT_EQ(s->models[1].parents[0].model, std::optional<std::size_t>(0));
  EXPECT_EQ(s->models[1].parents[0].parent_bone, "頭");
  EXPECT_FALSE(s->models[1].parents[1].model.has_value());
  EXPECT_EQ(s->models[1].parents[1].frame, 10u);
  ASSERT_EQ(s->gravity.size(), 2u);
  EXPECT_EQ(s->gravity[1].gravity, (Vec3{10, 0, 0}));
  EXPECT_EQ(s->physics_mode, PhysicsMode::off);
  EXPECT_TRUE(s->physics_ground);
  auto constant = parse_scene(R"({"models": [{"file": "/a.pmx"}], "gravity": [0, -20, 0]})", "/");
  ASSERT_TRUE(constant.has_value());
  ASSERT_EQ(constant->gravity.size(), 1u);
  EXPECT_EQ(constant->gravity[0].gravity, (Vec3{0, -20, 0}));
  const std::pair<const char*, const char*> bad[] = {
      {R"({"models": [{"file": "/a.pmx", "parents": [{"frame": 0, "bone": "x", "model": 0, "parent_bone": "y"}]}]})",
       "models[0].parents[0].model: a model cannot be its own outside parent"},
      {R"({"models": [{"file": "/a.pmx", "parents": [{"frame": 0, "bone": "x", "model": 1, "parent_bone": "y"}]}]})",
       "models[0].parents[0].model: must be the index of a model of the scene"},
      {R"({"models": [{"file": "/a.pmx"}, {"file": "/b.pmx", "parents": [{"frame": 0, "bone": "x", "model": 0}]}]})",
       "models[1].parents[0].parent_bone: required"},
      {R"({"models": [{"file": "/a.pmx"}, {"file": "/b.pmx", "parents": [{"frame": 5, "bone": "x"}, {"frame": 5, "bone": "x"}]}]})",
       "models[1].parents[1].frame: must be after the previous key's frame 5"},
      {R"({"models": [{"file": "/a.pmx"}, {"file": "/b.pmx", "parents": [{"frame": 5, "bones": "x"}]}]})",
       "models[1].parents[0].bones: unknown field"},
      {R"({"models": [{"file": "/a.pmx"}], "physics_mode": "sometimes"})", "physics_mode: must be one of"},
      {R"({"models": [{"file": "/a.pmx"}], "gravity": [{"frame": 0}]})", "gravity[0].gravity: required"},
  };
  for (const auto& [text, message] : bad) {
    auto r = parse_scene(text, "/");
    ASSERT_FALSE(r.has_value()) << text;
    EXPECT_NE(r.error().message.find(message), std::string::npos) << r.error().message;
  }
}

}  // namespace
}  // namespace mmdkit::scene
