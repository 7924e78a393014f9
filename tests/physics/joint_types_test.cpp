// PMX 2.1 joint types (docs/PHYSICS.md "Joints"): each against what its constraint must keep.
// One body follows a still bone (A), one is simulated (B) and hangs from a joint at the pivot;
// gravity pulls B; the two do not collide (mask 0). The expectations are geometric: the pivot
// distance (point-to-point), rotation about one axis only (hinge), motion along one axis only
// (slider), the swing angle limit (cone-twist), the angular limit of a 6DOF axis.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <vector>

#include "physics/physics_test_util.hpp"

namespace mmdkit::physics {
namespace {

using model::JointType;
using model::RigidBodyMode;
using model::RigidBodyShape;
using test::Rig;

constexpr Vec3 kPivot{0, 10, 0};

struct Sample {
  Quat rotation;
  Vec3 position;
};

/// Runs 90 frames (3 s, 240 steps/s) of A at the pivot and B (a sphere of radius 0.5) starting at `b_at`,
/// joined by `joint` (its bodies are filled in). Returns B's transform after each frame, the
/// bind transform first.
std::vector<Sample> run(model::Joint joint, Vec3 b_at) {
  model::Model m;
  test::add_bone(m, "root", -1, kPivot);
  test::add_bone(m, "arm", 0, b_at);
  test::add_body(m, 0, RigidBodyMode::follow_bone, kPivot);
  test::add_body(m, 1, RigidBodyMode::physics, b_at);
  for (auto& r : m.rigid_bodies) r.collision_mask = 0;
  joint.rigid_body_a = 0;
  joint.rigid_body_b = 1;
  m.joints.push_back(joint);
  Rig rig(m);
  Settings s;
  s.warmup_steps = 0;
  // 240 steps/s and 40 solver iterations keep the constraints' own error (Bullet's constraints are
  // soft, solved iteratively) at about 1 % of the arm, so the checks below can be tight.
  s.steps_per_second = 240;
  s.solver_iterations = 40;
  World world(s);
  ModelPhysics& mp = world.add_model(m, rig.skeleton);
  EXPECT_EQ(mp.joint_count(), 1u);
  for (const Warning& w : world.warnings()) ADD_FAILURE() << w.to_string();
  std::vector<Sample> out;
  for (int f = 0; f <= 90; ++f) {
    test::frame(world, mp, rig, f == 0);
    Sample x;
    mp.body_transform(1, x.rotation, x.position);
    out.push_back(x);
  }
  return out;
}

model::Joint joint(JointType type, Vec3 rotation = {}) {
  model::Joint j;
  j.name = "joint";
  j.type = type;
  j.position = kPivot;
  j.rotation = rotation;
  return j;
}

Vec3 sub(Vec3 a, Vec3 b) { return {a[0] - b[0], a[1] - b[1], a[2] - b[2]}; }
float dot(Vec3 a, Vec3 b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }
float length(Vec3 a) { return std::sqrt(dot(a, a)); }
/// v rotated by unit quaternion q (x, y, z, w).
Vec3 rotate(const Quat& q, Vec3 v) {
  const Vec3 u{q[0], q[1], q[2]};
  const float w = q[3];
  const Vec3 c{u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]};
  const Vec3 cc{u[1] * c[2] - u[2] * c[1], u[2] * c[0] - u[0] * c[2], u[0] * c[1] - u[1] * c[0]};
  return {v[0] + 2 * (w * c[0] + cc[0]), v[1] + 2 * (w * c[1] + cc[1]), v[2] + 2 * (w * c[2] + cc[2])};
}
/// Rotation angle of a unit quaternion (radians, 0..π).
float angle(const Quat& q) { return 2 * std::acos(std::min(1.0f, std::abs(q[3]))); }

// Point-to-point (btPoint2PointConstraint): B swings freely about the pivot, which stays where
// it is in B's frame; so B's distance to the pivot stays the arm length (3 units here).
TEST(JointTypes, PointToPointKeepsThePivotDistance) {
  const Vec3 b0{3, 10, 1};
  const auto s = run(joint(JointType::point_to_point), b0);
  const float arm = length(sub(b0, kPivot));
  float worst = 0, lowest = b0[1];
  for (const Sample& x : s) {
    worst = std::max(worst, std::abs(length(sub(x.position, kPivot)) - arm));
    // The pivot, carried by B's rotation from its place in B's bind frame.
    const Vec3 pivot = rotate(x.rotation, sub(kPivot, b0));
    const Vec3 at{x.position[0] + pivot[0], x.position[1] + pivot[1], x.position[2] + pivot[2]};
    worst = std::max(worst, length(sub(at, kPivot)));
    lowest = std::min(lowest, x.position[1]);
  }
  EXPECT_LT(worst, 0.02f * arm);       // the arm keeps its length (Bullet: 0.4 %)
  EXPECT_LT(lowest, kPivot[1] - 2.5f);  // and it does swing down (below the pivot)
}

// Hinge (btHingeConstraint about the joint's Z): B rotates about Z only. B starts off the XY plane
// (z = 2), where a ball joint would also turn it about other axes; it keeps z = 2 and a rotation
// axis of ±Z. The Z limits (±0.6 rad) hold.
TEST(JointTypes, HingeRotatesAboutOneAxisOnly) {
  model::Joint j = joint(JointType::hinge);
  j.angular_lower = {0, 0, -0.6f};
  j.angular_upper = {0, 0, 0.6f};
  const Vec3 b0{3, 10, 2};
  const auto s = run(j, b0);
  float off_axis = 0, dz = 0, largest = 0;
  for (const Sample& x : s) {
    off_axis = std::max({off_axis, std::abs(x.rotation[0]), std::abs(x.rotation[1])});
    dz = std::max(dz, std::abs(x.position[2] - b0[2]));
    largest = std::max(largest, angle(x.rotation));
  }
  EXPECT_LT(off_axis, 0.01f);   // sin(θ/2) of any rotation about X or Y
  EXPECT_LT(dz, 0.02f);
  EXPECT_GT(largest, 0.5f);     // it swings down to the limit...
  EXPECT_LT(largest, 0.6f + 0.05f);  // ...and no further
}

// Slider (btSliderConstraint along the joint's X): the joint is turned −45° about Z, so its X
// axis points down and to the right; B slides along it only, without turning, and stops at the
// upper linear X limit (2 units).
TEST(JointTypes, SliderMovesAlongOneAxisOnly) {
  const float a = -std::numbers::pi_v<float> / 4;
  model::Joint j = joint(JointType::slider, {0, 0, a});
  j.linear_lower = {-5, 0, 0};
  j.linear_upper = {2, 0, 0};
  const Vec3 b0{0, 10, 0};  // B's centre on the pivot
  const auto s = run(j, b0);
  const Vec3 axis{std::cos(a), std::sin(a), 0};
  float across = 0, along = 0, turn = 0;
  for (const Sample& x : s) {
    const Vec3 d = sub(x.position, b0);
    const float t = dot(d, axis);
    across = std::max(across, length(sub(d, {t * axis[0], t * axis[1], t * axis[2]})));
    along = std::max(along, t);
    turn = std::max(turn, angle(x.rotation));
  }
  EXPECT_LT(across, 0.02f);
  EXPECT_GT(along, 1.9f);
  EXPECT_LT(along, 2.1f);
  EXPECT_LT(turn, 0.01f);
}

// Cone-twist (btConeTwistConstraint, twist about the joint's X): the arm lies along X; gravity
// swings it about Z, limited by swing 1 = angular upper Z (0.5 rad); swing 2 (angular upper Y,
// 1.2 rad) would let it fall further if the two were swapped.
TEST(JointTypes, ConeTwistLimitsTheSwingAngle) {
  model::Joint j = joint(JointType::cone_twist);
  j.angular_upper = {0.2f, 1.2f, 0.5f};
  const Vec3 b0{3, 10, 0};
  const auto s = run(j, b0);
  const float arm = length(sub(b0, kPivot));
  float swing = 0, stretch = 0;
  for (const Sample& x : s) {
    const Vec3 dir = rotate(x.rotation, {1, 0, 0});
    swing = std::max(swing, std::acos(std::clamp(dir[0], -1.0f, 1.0f)));
    stretch = std::max(stretch, std::abs(length(sub(x.position, kPivot)) - arm));
  }
  EXPECT_GT(swing, 0.4f);
  EXPECT_LT(swing, 0.5f + 0.05f);
  EXPECT_LT(stretch, 0.02f * arm);
}

// 6DOF without springs (btGeneric6DofConstraint, limits as stored): linear axes locked, angular
// X and Y locked, Z within ±0.4 rad: B swings down about Z to the limit and no further.
TEST(JointTypes, SixDofKeepsItsLimits) {
  model::Joint j = joint(JointType::six_dof);
  j.angular_lower = {0, 0, -0.4f};
  j.angular_upper = {0, 0, 0.4f};
  const Vec3 b0{3, 10, 0};
  const auto s = run(j, b0);
  const float arm = length(sub(b0, kPivot));
  float largest = 0, off_axis = 0, stretch = 0;
  for (const Sample& x : s) {
    largest = std::max(largest, angle(x.rotation));
    off_axis = std::max({off_axis, std::abs(x.rotation[0]), std::abs(x.rotation[1])});
    stretch = std::max(stretch, std::abs(length(sub(x.position, kPivot)) - arm));
  }
  EXPECT_GT(largest, 0.3f);
  EXPECT_LT(largest, 0.4f + 0.05f);
  EXPECT_LT(off_axis, 0.01f);
  EXPECT_LT(stretch, 0.02f * arm);
}

}  // namespace
}  // namespace mmdkit::physics
