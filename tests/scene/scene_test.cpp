// Scene layer: loading, accessory transforms, camera / light defaults, placement.
#include <gtest/gtest.h>

#include <cmath>

#include "mmdkit/anim/pose.hpp"
#include "mmdkit/model/model.hpp"
#include "mmdkit/scene/scene.hpp"
#include "scene/scene_fixture.hpp"
#include "support/corpus.hpp"

namespace mmdkit::scene {
namespace {

namespace fs = std::filesystem;
using test::write_model;
using test::write_motion;

constexpr double kPi = 3.14159265358979323846;

// Independent matrix maths for the expectations (row-major double 4×4, column vectors).
struct M4 {
  double m[4][4]{};
};
M4 mul(const M4& a, const M4& b) {
  M4 c;
  for (int r = 0; r < 4; ++r)
    for (int k = 0; k < 4; ++k)
      for (int q = 0; q < 4; ++q) c.m[r][q] += a.m[r][k] * b.m[k][q];
  return c;
}
M4 ident() {
  M4 a;
  for (int i = 0; i < 4; ++i) a.m[i][i] = 1;
  return a;
}
M4 rot_x(double deg) {
  const double a = deg * kPi / 180, c = std::cos(a), s = std::sin(a);
  M4 m = ident();
  m.m[1][1] = c, m.m[1][2] = -s, m.m[2][1] = s, m.m[2][2] = c;
  return m;
}
M4 rot_y(double deg) {  // z → x
  const double a = deg * kPi / 180, c = std::cos(a), s = std::sin(a);
  M4 m = ident();
  m.m[0][0] = c, m.m[0][2] = s, m.m[2][0] = -s, m.m[2][2] = c;
  return m;
}
M4 rot_z(double deg) {  // x → y
  const double a = deg * kPi / 180, c = std::cos(a), s = std::sin(a);
  M4 m = ident();
  m.m[0][0] = c, m.m[0][1] = -s, m.m[1][0] = s, m.m[1][1] = c;
  return m;
}
M4 trs(Vec3 t, Vec3 r, double s) {
  M4 T = ident();
  for (int i = 0; i < 3; ++i) T.m[i][3] = static_cast<double>(t[static_cast<std::size_t>(i)]);
  M4 S = ident();
  for (int i = 0; i < 3; ++i) S.m[i][i] = s;
  return mul(mul(T, mul(rot_z(static_cast<double>(r[2])), mul(rot_y(static_cast<double>(r[1])),
      rot_x(static_cast<double>(r[0]))))), S);
}
// A bone's model transform from its quaternion and position (not from the stored matrix).
M4 rigid(const Quat& q, const Vec3& p) {
  const double x = static_cast<double>(q[0]), y = static_cast<double>(q[1]), z = static_cast<double>(q[2]),
      w = static_cast<double>(q[3]);
  M4 m = ident();
  m.m[0][0] = 1 - 2 * (y * y + z * z), m.m[0][1] = 2 * (x * y - z * w), m.m[0][2] = 2 * (x * z + y * w);
  m.m[1][0] = 2 * (x * y + z * w), m.m[1][1] = 1 - 2 * (x * x + z * z), m.m[1][2] = 2 * (y * z - x * w);
  m.m[2][0] = 2 * (x * z - y * w), m.m[2][1] = 2 * (y * z + x * w), m.m[2][2] = 1 - 2 * (x * x + y * y);
  for (int i = 0; i < 3; ++i) m.m[i][3] = static_cast<double>(p[static_cast<std::size_t>(i)]);
  return m;
}
void expect_near(const Mat4& got, const M4& want, double tol, const std::string& what) {
  for (int r = 0; r < 4; ++r)
    for (int c = 0; c < 4; ++c)
      EXPECT_NEAR(got[static_cast<std::size_t>(c * 4 + r)], want.m[r][c], tol) << what << " row " << r << " col " << c;
}

TEST(Placement, MatrixIsTranslationRotationsScaleInOrder) {
  const Placement p{{1, 2, 3}, {30, -45, 60}, 2.5f};
  expect_near(placement_matrix(p), trs(p.position, p.rotation, 2.5), 1e-5, "placement");
  // X first: (0, 1, 0) turned 90° about X goes to (0, 0, 1), then 90° about Z leaves it there.
  const Mat4 m = placement_matrix({{}, {90, 0, 90}, 1});
  const Vec3 v = transform_point(m, {0, 1, 0});
  EXPECT_NEAR(v[0], 0, 1e-6);
  EXPECT_NEAR(v[1], 0, 1e-6);
  EXPECT_NEAR(v[2], 1, 1e-6);
}

class SceneFiles : public ::testing::Test {
 protected:
  void SetUp() override {
    dir = mmdkit::test::temp_dir("scene");
    dancer = write_model(dir, "dancer.pmx", 1);
    other = write_model(dir, "other.pmx", 2, 200);
    prop = write_model(dir, "prop.pmx", 3, 30);
    dance = write_motion(dir, "dance.vmd", 11, 40, 400);
    dance2 = write_motion(dir, "dance2.vmd", 12, 40, 400);
  }
  fs::path dir, dancer, other, prop, dance, dance2;
};

TEST_F(SceneFiles, AttachedAccessoryFollowsItsBoneExactlyAtEveryFrame) {
  SceneDescription d;
  d.models.push_back({dancer, {dance}, Placement{{5, 0, -3}, {0, 30, 0}, 1.0f}});
  d.models.push_back({other, {dance2}, {}});
  d.accessories.push_back({prop, 0, "右手首", Placement{{0.5f, 1, 0}, {10, 20, 30}, 2.0f}, true, {}, false});
  d.accessories.push_back({prop, 1, "頭", {}, true, {}, false});
  d.accessories.push_back({prop, std::nullopt, "", Placement{{0, 0, 7}, {}, 1.0f}, true, {}, false});
  std::vector<Warning> w;
  auto s = Scene::load(d, {}, w);
  ASSERT_TRUE(s.has_value()) << s.error().to_string();
  ASSERT_EQ(s->character_count(), 2u);
  const std::int32_t wrist = s->character(0).data().skeleton().find("右手首");
  ASSERT_GE(wrist, 0);
  EXPECT_EQ(s->accessory_bone(0), wrist);
  const M4 model_place = trs({5, 0, -3}, {0, 30, 0}, 1);
  const M4 acc_place = trs({0.5f, 1, 0}, {10, 20, 30}, 2);
  Mat4 previous{};
  int moved = 0;
  for (double f = 0; f <= 40; f += 0.5) {
    ASSERT_TRUE(s->evaluate(f).has_value());
    const auto& pose = s->character(0).pose();
    const auto b = static_cast<std::size_t>(wrist);
    // Exactly the formula of the scene (same float operations) ...
    EXPECT_EQ(s->accessory_transform(0),
              multiply(multiply(s->character_placement(0), pose.model_matrices()[b]),
                       multiply(placement_matrix(d.accessories[0].placement), scale_matrix(1.0f))))
        << "frame " << f;
    // ... and the same transform computed independently in double precision.
    const M4 want = mul(mul(model_place, rigid(pose.model_rotations()[b], pose.model_positions()[b])), acc_place);
    expect_near(s->accessory_transform(0), want, 2e-4, "frame " + std::to_string(f));
    const auto hb = static_cast<std::size_t>(s->accessory_bone(1));
    const auto& pose1 = s->character(1).pose();
    expect_near(s->accessory_transform(1), rigid(pose1.model_rotations()[hb], pose1.model_positions()[hb]), 1e-5,
                "head accessory");
    expect_near(s->accessory_transform(2), trs({0, 0, 7}, {}, 1), 0, "world accessory");
    if (f > 0 && s->accessory_transform(0) != previous) ++moved;
    previous = s->accessory_transform(0);
  }
  EXPECT_GT(moved, 40) << "the motion should move the wrist";
}

// Accessory keys (AccessoryEntry::keys): linear between keys, as nanoem's
// Accessory::synchronizeMotion; visibility and parent from the key before; the keys' frames
// checked against independently computed transforms.
TEST_F(SceneFiles, AccessoryKeysMoveItLinearlyAndSwitchParentAndVisibility) {
  SceneDescription d;
  d.models.push_back({dancer, {dance}, Placement{{5, 0, -3}, {0, 30, 0}, 1.0f}});
  AccessoryEntry a;
  a.file = prop;
  AccessoryKey k0, k10, k20;
  k0.frame = 0;
  k0.placement = {{0, 0, 0}, {0, 0, 0}, 1.0f};
  k10.frame = 10;
  k10.placement = {{10, 20, 0}, {0, 90, 0}, 3.0f};
  k10.opacity = 0.5f;
  k20.frame = 20;
  k20.placement = {{0, 1, 0}, {}, 1.0f};
  k20.visible = false;
  k20.model = 0;
  k20.bone = "頭";
  a.keys = {k0, k10, k20};
  d.accessories.push_back(a);
  std::vector<Warning> w;
  auto s = Scene::load(d, {}, w);
  ASSERT_TRUE(s.has_value()) << s.error().to_string();
  EXPECT_EQ(s->accessory_bone(0), -1);
  EXPECT_TRUE(s->accessory_ever_visible(0));
  // Frame 5: halfway from key 0 to key 10: position (5, 10, 0), 45° about Y, scale 2, opacity 0.75.
  ASSERT_TRUE(s->evaluate(5).has_value());
  expect_near(s->accessory_transform(0), trs({5, 10, 0}, {0, 45, 0}, 2), 1e-5, "frame 5");
  EXPECT_FLOAT_EQ(s->accessory_opacity(0), 0.75f);
  EXPECT_TRUE(s->accessory_visible(0));
  // Frame 2.5 (a quarter): position (2.5, 5, 0), 22.5°, scale 1.5.
  ASSERT_TRUE(s->evaluate(2.5).has_value());
  expect_near(s->accessory_transform(0), trs({2.5f, 5, 0}, {0, 22.5f, 0}, 1.5), 1e-5, "frame 2.5");
  // Exactly at key 10: its placement matrix, bit for bit.
  ASSERT_TRUE(s->evaluate(10).has_value());
  EXPECT_EQ(s->accessory_transform(0), multiply(placement_matrix(k10.placement), scale_matrix(1.0f)));
  EXPECT_FLOAT_EQ(s->accessory_opacity(0), 0.5f);
  // Frame 15: still key 10's parent (the world) and visibility; halfway to key 20's values.
  ASSERT_TRUE(s->evaluate(15).has_value());
  EXPECT_TRUE(s->accessory_visible(0));
  expect_near(s->accessory_transform(0), trs({5, 10.5f, 0}, {0, 45, 0}, 2), 1e-5, "frame 15");
  // From frame 20 on: on the head of model 0 (model placement · head · key placement), hidden.
  const auto head = static_cast<std::size_t>(s->character(0).data().skeleton().find("頭"));
  for (double f : {20.0, 33.0}) {
    ASSERT_TRUE(s->evaluate(f).has_value());
    EXPECT_FALSE(s->accessory_visible(0));
    EXPECT_FLOAT_EQ(s->accessory_opacity(0), 1.0f);
    const auto& pose = s->character(0).pose();
    const M4 want = mul(mul(trs({5, 0, -3}, {0, 30, 0}, 1), rigid(pose.model_rotations()[head], pose.model_positions()[head])),
                        trs({0, 1, 0}, {}, 1));
    expect_near(s->accessory_transform(0), want, 2e-4, "frame " + std::to_string(f));
  }
  EXPECT_GE(s->last_frame(), 20u);
  // A key's bone the model does not have: the key's field in the error.
  d.accessories[0].keys[2].bone = "no such bone";
  auto bad = Scene::load(d, {}, w);
  ASSERT_FALSE(bad.has_value());
  EXPECT_NE(bad.error().message.find("accessories[0].keys[2].bone: model 0 has no bone 'no such bone'"), std::string::npos)
      << bad.error().message;
}

// The camera following a bone (camera_parents): look-at and eye moved by the bone's world origin
// (model placement · bone origin) while a key names it, back to the camera's own after a key
// without a model.
TEST_F(SceneFiles, CameraFollowsABonesOriginWhileAParentKeyNamesIt) {
  SceneDescription d;
  d.models.push_back({dancer, {dance}, Placement{{5, 0, -3}, {0, 30, 0}, 1.0f}});
  CameraParentKey on, off;
  on.frame = 10;
  on.model = 0;
  on.bone = "頭";
  off.frame = 30;
  d.camera_parents = {on, off};
  std::vector<Warning> w;
  auto s = Scene::load(d, {}, w);
  ASSERT_TRUE(s.has_value()) << s.error().to_string();
  std::uint32_t cursor = 0;
  const anim::CameraState mmd = anim::sample_camera({}, 0.0, cursor);
  const auto head = static_cast<std::size_t>(s->character(0).data().skeleton().find("頭"));
  for (double f : {0.0, 5.0, 10.0, 17.5, 29.0, 30.0, 35.0}) {
    ASSERT_TRUE(s->evaluate(f).has_value());
    const bool follows = f >= 10 && f < 30;
    Vec3 origin{};
    if (follows) {
      const Vec3 p = s->character(0).pose().model_positions()[head];
      const M4 want = mul(trs({5, 0, -3}, {0, 30, 0}, 1), rigid(kIdentityQuat, p));
      origin = {float(want.m[0][3]), float(want.m[1][3]), float(want.m[2][3])};
    }
    for (std::size_t i = 0; i < 3; ++i) {
      EXPECT_NEAR(s->camera().target[i], mmd.target[i] + origin[i], 1e-4) << "frame " << f << " axis " << i;
      EXPECT_NEAR(s->camera().position[i], mmd.position[i] + origin[i], 1e-4) << "frame " << f << " axis " << i;
    }
  }
  d.camera_parents[0].bone = "nothing";
  auto bad = Scene::load(d, {}, w);
  ASSERT_FALSE(bad.has_value());
  EXPECT_NE(bad.error().message.find("camera_parents[0].bone: model 0 has no bone 'nothing'"), std::string::npos)
      << bad.error().message;
}

TEST_F(SceneFiles, SameModelAndMotionsShareTheirData) {
  SceneDescription d;
  d.models.push_back({dancer, {dance}, {}});
  d.models.push_back({dancer, {dance}, Placement{{10, 0, 0}, {}, 1}});
  d.models.push_back({dancer, {dance2}, {}});
  std::vector<Warning> w;
  auto s = Scene::load(d, {}, w);
  ASSERT_TRUE(s.has_value());
  EXPECT_EQ(s->character(0).data_ptr(), s->character(1).data_ptr());
  EXPECT_NE(s->character(0).data_ptr(), s->character(2).data_ptr());
}

TEST_F(SceneFiles, DefaultsAreMmdsCameraAndLight) {
  SceneDescription d;
  d.models.push_back({dancer, {}, {}});
  std::vector<Warning> w;
  auto s = Scene::load(d, {}, w);
  ASSERT_TRUE(s.has_value());
  ASSERT_TRUE(s->evaluate(0).has_value());
  EXPECT_EQ(s->camera().target, (Vec3{0, 10, 0}));
  EXPECT_EQ(s->camera().distance, -45.0f);
  EXPECT_EQ(s->camera().fov_degrees, 30.0f);
  EXPECT_EQ(s->camera().position, (Vec3{0, 10, -45}));
  EXPECT_EQ(s->light().direction, (Vec3{-0.5f, -1, 0.5f}));
  EXPECT_EQ(s->last_frame(), 0u);
}

TEST_F(SceneFiles, CameraMotionDrivesTheCamera) {
  const fs::path cam = write_motion(dir, "cam.vmd", 5, 60, 0, 8);
  SceneDescription d;
  d.models.push_back({dancer, {dance}, {}});
  d.camera = cam;
  std::vector<Warning> w;
  auto s = Scene::load(d, {}, w);
  ASSERT_TRUE(s.has_value()) << s.error().to_string();
  EXPECT_EQ(s->last_frame(), 60u);
  auto m = vmd::read(test::read_bytes_of(cam));
  ASSERT_TRUE(m.has_value());
  const auto track = anim::build_camera_track(m->motion.camera_keys);
  ASSERT_FALSE(track.empty());
  ASSERT_TRUE(s->evaluate(track.front().frame).has_value());
  EXPECT_EQ(s->camera().target, track.front().target);
  EXPECT_EQ(s->camera().distance, track.front().distance);
}

// A camera VMD is the camera even without camera keys (MMD's default camera then, as when MMD loads
// such a file onto its camera); without a camera VMD the first model motion with camera keys is.
TEST_F(SceneFiles, ACameraVmdWithoutCameraKeysGivesMmdsDefaultCamera) {
  const fs::path with_camera = write_motion(dir, "dance_cam.vmd", 6, 60, 50, 8);
  const fs::path no_camera = write_motion(dir, "nocam.vmd", 7, 30, 20, 0);
  SceneDescription d;
  d.models.push_back({dancer, {with_camera}, {}});
  std::vector<Warning> w;
  auto s = Scene::load(d, {}, w);
  ASSERT_TRUE(s.has_value()) << s.error().to_string();
  EXPECT_EQ(s->camera_source(), CameraSource::model_motion);
  auto m = vmd::read(test::read_bytes_of(with_camera));
  ASSERT_TRUE(m.has_value());
  const auto track = anim::build_camera_track(m->motion.camera_keys);
  ASSERT_FALSE(track.empty());
  ASSERT_TRUE(s->evaluate(track.front().frame).has_value());
  EXPECT_EQ(s->camera().target, track.front().target);
  d.camera = no_camera;
  auto s2 = Scene::load(d, {}, w);
  ASSERT_TRUE(s2.has_value()) << s2.error().to_string();
  EXPECT_EQ(s2->camera_source(), CameraSource::mmd_default);
  ASSERT_TRUE(s2->evaluate(track.front().frame).has_value());
  EXPECT_EQ(s2->camera().target, (Vec3{0, 10, 0}));
  EXPECT_EQ(s2->camera().distance, -45.0f);
  EXPECT_EQ(s2->camera().fov_degrees, 30.0f);
}

TEST_F(SceneFiles, LoadErrorsNameTheField) {
  SceneDescription d;
  d.models.push_back({dancer, {dance}, {}});
  d.models.push_back({other, {dance, prop}, {}});  // a model given as a motion
  std::vector<Warning> w;
  auto s = Scene::load(d, {}, w);
  ASSERT_FALSE(s.has_value());
  EXPECT_EQ(s.error().message.rfind("models[1].motions[1]: ", 0), 0u) << s.error().message;
  EXPECT_EQ(s.error().file, prop.string());

  SceneDescription d2;
  d2.models.push_back({dancer, {}, {}});
  d2.accessories.push_back({prop, 0, "no such bone", {}, true, {}, false});
  auto s2 = Scene::load(d2, {}, w);
  ASSERT_FALSE(s2.has_value());
  EXPECT_EQ(s2.error().message, "accessories[0].bone: model 0 has no bone 'no such bone'");
  EXPECT_EQ(s2.error().code, ErrorCode::invalid_value);  // not json_schema: --accessory FILE@BONE names it too
}

TEST_F(SceneFiles, XAccessoryIsReadAtMmdsTenfoldSizeAndVacIsRefused) {
  const fs::path x = test::write_text(dir / "tri.x",
                                      "xof 0302txt 0032\nMesh {\n 3;\n 0.0;0.0;0.0;,\n 1.0;0.0;0.0;,\n 0.0;1.0;0.0;;\n"
                                      " 1;\n 3;0,1,2;;\n}\n");
  std::vector<Warning> w;
  auto a = load_accessory(x, w);
  ASSERT_TRUE(a.has_value()) << a.error().to_string();
  EXPECT_TRUE(a->accessory_shading);
  EXPECT_EQ(a->unit_scale, 1.0f);
  ASSERT_EQ(a->model->vertices.size(), 3u);
  EXPECT_EQ(a->model->vertices[1].position, (Vec3{10, 0, 0}));  // MMD draws .x accessories ×10
  const fs::path vac = test::write_text(dir / "tri.vac", "tri\ntri.x\n1.0\n0,0,0\n0,0,0\n頭\n");
  auto v = load_accessory(vac, w);
  ASSERT_FALSE(v.has_value());
  EXPECT_EQ(v.error().code, ErrorCode::unsupported);
  // In a scene, attached to a bone; and the seam: a loader given by the caller is used instead.
  SceneDescription d;
  d.models.push_back({dancer, {}, {}});
  d.accessories.push_back({x, 0, "頭", Placement{{0, 1, 0}, {}, 1.0f}, true, {}, false});
  auto s = Scene::load(d, {}, w);
  ASSERT_TRUE(s.has_value()) << s.error().to_string();
  ASSERT_TRUE(s->evaluate(0).has_value());
  const auto head = static_cast<std::size_t>(s->accessory_bone(0));
  const Vec3 hp = s->character(0).pose().model_positions()[head];
  const Vec3 p = transform_point(s->accessory_transform(0), a->model->vertices[1].position);
  EXPECT_NEAR(p[0], hp[0] + 10, 1e-4);
  EXPECT_NEAR(p[1], hp[1] + 1, 1e-4);
  EXPECT_NEAR(p[2], hp[2], 1e-4);
  LoadOptions o;
  int calls = 0;
  o.accessory_loader = [&](const fs::path& path, std::vector<Warning>& ww) {
    ++calls;
    EXPECT_EQ(path, x);
    auto acc = load_accessory(prop, ww);
    if (acc) acc->unit_scale = 10;
    return acc;
  };
  d.accessories[0] = {x, std::nullopt, "", {}, true, {}, false};
  auto s2 = Scene::load(d, o, w);
  ASSERT_TRUE(s2.has_value()) << s2.error().to_string();
  EXPECT_EQ(calls, 1);
  ASSERT_TRUE(s2->evaluate(0).has_value());
  EXPECT_EQ(s2->accessory_transform(0), scale_matrix(10));
}

}  // namespace
}  // namespace mmdkit::scene
