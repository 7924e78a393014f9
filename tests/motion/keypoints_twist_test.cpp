// Keypoints → VMD: the forearm twist (手捩) from the hand's knuckle line (mediapipe33). A synthetic
// hand turned by a known angle θ about the forearm: the 手捩 key is that rotation about the
// forearm axis and 手首 keeps none of it; on a model without 手捩 the 手首 key carries it; the
// evaluated finger points are the turned ones. Layouts without the knuckle line key no 手捩.
#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <string>

#include "mmdkit/anim/character.hpp"
#include "mmdkit/formats/pmx.hpp"
#include "mmdkit/formats/pmx_generate.hpp"
#include "mmdkit/formats/vmd.hpp"
#include "mmdkit/model/model.hpp"
#include "mmdkit/motion/keypoints.hpp"

namespace mmdkit::motion {
namespace {

using D3 = std::array<double, 3>;
constexpr double kPi = 3.14159265358979323846;

D3 sub(const D3& a, const D3& b) { return {a[0] - b[0], a[1] - b[1], a[2] - b[2]}; }
double dot(const D3& a, const D3& b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }
D3 cross(const D3& a, const D3& b) { return {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]}; }
D3 unit(const D3& a) {
  const double n = std::sqrt(dot(a, a));
  return {a[0] / n, a[1] / n, a[2] / n};
}
D3 of(const Vec3& v) { return {double(v[0]), double(v[1]), double(v[2])}; }
Vec3 to_f(const D3& v) { return {float(v[0]), float(v[1]), float(v[2])}; }

// Rodrigues: p turned by angle t about the unit axis u through c.
D3 turn(const D3& p, const D3& c, const D3& u, double t) {
  const D3 v = sub(p, c);
  const D3 x = cross(u, v);
  const double d = dot(u, v);
  D3 r;
  for (int i = 0; i < 3; ++i) r[i] = c[i] + v[i] * std::cos(t) + x[i] * std::sin(t) + u[i] * d * (1 - std::cos(t));
  return r;
}

std::int32_t index_of(const pmx::Model& m, const std::string& n) {
  for (std::size_t i = 0; i < m.bones.size(); ++i)
    if (m.bones[i].name.text == n) return static_cast<std::int32_t>(i);
  return -1;
}

// The generated humanoid plus, per side, 人指１ / 小指１ on 手首 (on either side of the forearm
// axis, halfway out along it: the hand point mid(pinky, index) lies on the axis) and, with
// `twist_bone`, 手捩 halfway down the forearm (fixed axis along it) as 手首's parent (deform layer
// 1 for 手首 and the fingers, which come after it in the list).
std::shared_ptr<const model::Model> hand_model(bool twist_bone) {
  pmx::GenerateOptions g;
  g.vertices = 0;
  g.morphs = 0;
  pmx::Model p = *pmx::generate(g);
  for (const std::string side : {"左", "右"}) {
    const std::int32_t elbow = index_of(p, side + "ひじ"), wrist = index_of(p, side + "手首");
    const D3 e = of(p.bones[static_cast<std::size_t>(elbow)].position), w = of(p.bones[static_cast<std::size_t>(wrist)].position);
    const D3 u = unit(sub(w, e));
    const D3 v = unit(cross(u, {0, 0, 1}));  // across the hand, perpendicular to the forearm
    auto bone = [&](const std::string& name, std::int32_t parent, const D3& at) {
      pmx::Bone b = p.bones[static_cast<std::size_t>(wrist)];
      b.name.assign(name);
      b.name_en.assign("");
      b.parent = parent;
      b.position = to_f(at);
      b.flags = static_cast<std::uint16_t>(pmx::kRotatable | pmx::kVisible | pmx::kOperable);
      b.tail_bone = pmx::kNone;
      b.tail_offset = to_f({u[0] * 0.5, u[1] * 0.5, u[2] * 0.5});
      b.deform_layer = 1;
      p.bones.push_back(b);
      return static_cast<std::int32_t>(p.bones.size() - 1);
    };
    if (twist_bone) {
      const std::int32_t t = bone(side + "手捩", elbow, {(e[0] + w[0]) / 2, (e[1] + w[1]) / 2, (e[2] + w[2]) / 2});
      auto& tb = p.bones[static_cast<std::size_t>(t)];
      tb.deform_layer = 0;
      tb.flags = static_cast<std::uint16_t>(tb.flags | pmx::kFixedAxis);
      tb.fixed_axis = to_f(u);
      p.bones[static_cast<std::size_t>(wrist)].parent = t;
      p.bones[static_cast<std::size_t>(wrist)].deform_layer = 1;
    }
    const D3 h{w[0] + u[0] * 1.0, w[1] + u[1] * 1.0, w[2] + u[2] * 1.0};
    bone(side + "人指１", wrist, {h[0] + v[0] * 0.3, h[1] + v[1] * 0.3, h[2] + v[2] * 0.3});
    bone(side + "小指１", wrist, {h[0] - v[0] * 0.3, h[1] - v[1] * 0.3, h[2] - v[2] * 0.3});
  }
  auto m = model::from_pmx(p, {.geometry = false});
  EXPECT_TRUE(m) << m.error().to_string();
  return std::make_shared<const model::Model>(std::move(*m));
}

std::shared_ptr<const anim::CharacterData> bind_to(std::shared_ptr<const model::Model> m, const vmd::Motion* mo) {
  anim::MotionInputs in;
  if (mo) in.motions = {mo};
  auto d = anim::CharacterData::create(std::move(m), in);
  EXPECT_TRUE(d) << d.error().to_string();
  return *d;
}

constexpr int kFrames = 9;
double theta(int f) { return (f - 4) * 20.0 * kPi / 180.0; }  // -80° .. 80°

// mediapipe33 joints of the rest pose with the left hand's points (pinky 17, index 19, thumb 21)
// turned by θ(f) about the left forearm axis through the wrist, the right hand's by −θ(f).
Keypoints turned_hands(const std::shared_ptr<const model::Model>& m) {
  anim::Character ch(bind_to(m, nullptr));
  EXPECT_TRUE(ch.evaluate(0));
  const std::vector<float> rest = keypoints_on_model(ch, KeypointLayout::mediapipe33);
  Keypoints k;
  k.frames = kFrames;
  k.joints = 33;
  auto at = [&](std::size_t j) { return D3{static_cast<double>(rest[j * 3]), static_cast<double>(rest[j * 3 + 1]),
      static_cast<double>(rest[j * 3 + 2])}; };
  for (int f = 0; f < kFrames; ++f) {
    std::vector<float> p = rest;
    for (int s = 0; s < 2; ++s) {
      const std::size_t elbow = 13 + s, wrist = 15 + s;
      const D3 u = unit(sub(at(wrist), at(elbow)));
      for (std::size_t j : {17 + s, 19 + s, 21 + s}) {
        if (!std::isfinite(rest[j * 3])) continue;
        const D3 q = turn(at(j), at(wrist), u, s == 0 ? theta(f) : -theta(f));
        for (int c = 0; c < 3; ++c) p[j * 3 + c] = float(q[static_cast<std::size_t>(c)]);
      }
    }
    k.positions.insert(k.positions.end(), p.begin(), p.end());
  }
  return k;
}

KeypointOptions options(KeypointLayout l) {
  KeypointOptions o;
  o.layout = l;
  o.axes = {"x", "y", "z"};
  o.scale = 1.0;
  o.reduce = false;
  return o;
}

// The key of `bone` at frame f (identity when the track has none there).
std::array<double, 4> key_of(const vmd::Motion& mo, const std::string& bone, int f, bool* found = nullptr) {
  if (found) *found = false;
  for (const auto& k : mo.bone_keys)
    if (mo.bone_names[k.name].text == bone && k.frame == static_cast<std::uint32_t>(f)) {
      if (found) *found = true;
      return {static_cast<double>(k.rotation[0]), static_cast<double>(k.rotation[1]),
          static_cast<double>(k.rotation[2]), static_cast<double>(k.rotation[3])};
    }
  return {0, 0, 0, 1};
}

// Angle (radians, 0..π) of q and the cosine between its axis and u.
double angle_of(const std::array<double, 4>& q) {
  const double s = std::sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2]);
  return 2 * std::atan2(s, std::fabs(q[3]));
}
double signed_angle_about(const std::array<double, 4>& q, const D3& u) {
  const double d = q[0] * u[0] + q[1] * u[1] + q[2] * u[2];
  return 2 * std::atan2(q[3] < 0 ? -d : d, std::fabs(q[3]));
}

// Finger points of the result evaluated on the model, against the input's.
double finger_error(const std::shared_ptr<const model::Model>& m, const vmd::Motion& mo, const Keypoints& k) {
  anim::Character ch(bind_to(m, &mo));
  double worst = 0;
  for (int f = 0; f < kFrames; ++f) {
    EXPECT_TRUE(ch.evaluate(f));
    const auto p = keypoints_on_model(ch, KeypointLayout::mediapipe33);
    for (std::size_t j : {15, 16, 17, 18, 19, 20})
      for (std::size_t c = 0; c < 3; ++c)
        worst = std::max(worst, double(std::fabs(p[j * 3 + c] - k.positions[(std::size_t(f) * 33 + j) * 3 + c])));
  }
  return worst;
}

D3 forearm(const model::Model& m, const std::string& side) {
  std::int32_t e = -1, w = -1;
  for (std::size_t i = 0; i < m.bones.size(); ++i) {
    if (m.bones[i].name == side + "ひじ") e = static_cast<std::int32_t>(i);
    if (m.bones[i].name == side + "手首") w = static_cast<std::int32_t>(i);
  }
  return unit(sub(of(m.bones[static_cast<std::size_t>(w)].position), of(m.bones[static_cast<std::size_t>(e)].position)));
}

TEST(KeypointsTwist, HandTurnGoesOnto手捩) {
  const auto m = hand_model(true);
  const Keypoints k = turned_hands(m);
  auto mo = keypoints_to_vmd(k, m, options(KeypointLayout::mediapipe33));
  ASSERT_TRUE(mo) << mo.error().to_string();
  for (int s = 0; s < 2; ++s) {
    const std::string side = s == 0 ? "左" : "右";
    const D3 u = forearm(*m, side);
    for (int f = 0; f < kFrames; ++f) {
      const double want = s == 0 ? theta(f) : -theta(f);
      bool found = false;
      const auto t = key_of(*mo, side + "手捩", f, &found);
      EXPECT_TRUE(found) << side << f;
      EXPECT_NEAR(signed_angle_about(t, u), want, 1e-4) << side << " frame " << f;
      EXPECT_NEAR(angle_of(t), std::fabs(want), 1e-4) << side << " frame " << f;  // about u alone
      EXPECT_LT(angle_of(key_of(*mo, side + "手首", f)), 1e-4) << side << " frame " << f;  // 手首 keeps none
      EXPECT_LT(angle_of(key_of(*mo, side + "ひじ", f)), 1e-4) << side << " frame " << f;
    }
  }
  EXPECT_LT(finger_error(m, *mo, k), 1e-4);
}

TEST(KeypointsTwist, WithoutTwistBoneTheWristTurns) {
  const auto m = hand_model(false);
  const Keypoints k = turned_hands(m);
  auto mo = keypoints_to_vmd(k, m, options(KeypointLayout::mediapipe33));
  ASSERT_TRUE(mo) << mo.error().to_string();
  for (int s = 0; s < 2; ++s) {
    const std::string side = s == 0 ? "左" : "右";
    const D3 u = forearm(*m, side);
    for (int f = 0; f < kFrames; ++f) {
      const double want = s == 0 ? theta(f) : -theta(f);
      const auto w = key_of(*mo, side + "手首", f);
      EXPECT_NEAR(signed_angle_about(w, u), want, 1e-4) << side << " frame " << f;
      EXPECT_NEAR(angle_of(w), std::fabs(want), 1e-4) << side << " frame " << f;
      EXPECT_LT(angle_of(key_of(*mo, side + "ひじ", f)), 1e-4) << side << " frame " << f;
    }
  }
  EXPECT_LT(finger_error(m, *mo, k), 1e-4);
}

// Without the knuckle line (h36m17: no hand points; smpl24: one hand point) 手捩 gets no key.
TEST(KeypointsTwist, NoKnuckleLineNoTwistKey) {
  const auto m = hand_model(true);
  for (KeypointLayout l : {KeypointLayout::h36m17, KeypointLayout::smpl24}) {
    anim::Character ch(bind_to(m, nullptr));
    ASSERT_TRUE(ch.evaluate(0));
    const auto rest = keypoints_on_model(ch, l);
    Keypoints k;
    k.frames = 2;
    k.joints = static_cast<std::uint32_t>(keypoint_joint_names(l).size());
    k.positions = rest;
    k.positions.insert(k.positions.end(), rest.begin(), rest.end());
    auto mo = keypoints_to_vmd(k, m, options(l));
    ASSERT_TRUE(mo) << mo.error().to_string();
    for (const auto& key : mo->bone_keys) EXPECT_NE(mo->bone_names[key.name].text, "左手捩");
  }
}

}  // namespace
}  // namespace mmdkit::motion
