// Skinning (skinning.hpp): BDEF cases by hand, SDEF against a hand-computed vertex, QDEF against
// rigid transforms and an analytic blend, weights zero, morph offsets before skinning, and the
// thread pool giving the same bytes as one thread.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <numbers>
#include <vector>

#include "mmdkit/anim/bone_math.hpp"
#include "mmdkit/anim/pose.hpp"
#include "mmdkit/anim/skinning.hpp"

namespace mmdkit::anim {
namespace {

constexpr float kPi = std::numbers::pi_v<float>;
constexpr Mat4 kI{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};

// Skinning matrix of a bone at `pivot` rotated by q and then moved by t: x -> q(x - pivot) + pivot + t.
Mat4 pivot_matrix(const Quat& q, const Vec3& pivot, const Vec3& t = {0, 0, 0}) {
  const Vec3 rp = quat_rotate(q, pivot);
  return rigid_matrix(q, {pivot[0] - rp[0] + t[0], pivot[1] - rp[1] + t[1], pivot[2] - rp[2] + t[2]});
}

using V = SkinningData::VertexIn;

V vtx(Vec3 p, SkinType t, std::array<std::int32_t, 4> b, std::array<float, 4> w, Vec3 n = {0, 1, 0}) {
  V v;
  v.position = p;
  v.normal = n;
  v.type = t;
  v.bones = b;
  v.weights = w;
  return v;
}

struct Out {
  std::vector<Vec3> p, n;
};

Out run(const std::vector<V>& vs, std::size_t bones, std::vector<Mat4> mats, std::vector<Quat> rots = {},
        std::vector<Vec3> offsets = {}) {
  auto d = SkinningData::create(vs, bones);
  EXPECT_TRUE(d.has_value());
  SkinWorkspace ws(*d);
  Out o{std::vector<Vec3>(vs.size()), std::vector<Vec3>(vs.size())};
  EXPECT_TRUE(skin(*d, {mats, rots}, ws, offsets, o.p, o.n));
  return o;
}

void expect_vec(const Vec3& a, const Vec3& b, float tol = 1e-5f) {
  EXPECT_NEAR(a[0], b[0], tol);
  EXPECT_NEAR(a[1], b[1], tol);
  EXPECT_NEAR(a[2], b[2], tol);
}

TEST(Skinning, Bdef1RotationAboutYMovesVertexAnalytically) {
  // +90° about Y maps (1,0,0) to (cos, 0, -sin) = (0, 0, -1); the bone sits at (0, 0, 0) then moves by (0, 2, 0).
  const Quat q = quat_from_axis_angle({0, 1, 0}, kPi / 2);
  auto o = run({vtx({1, 0, 0}, SkinType::bdef1, {0, -1, -1, -1}, {1, 0, 0, 0}, {1, 0, 0})}, 1,
               {pivot_matrix(q, {0, 0, 0}, {0, 2, 0})});
  expect_vec(o.p[0], {0, 2, -1});
  expect_vec(o.n[0], {0, 0, -1});
}

TEST(Skinning, Bdef2BlendsTranslationsByWeight) {
  // w0 = 0.25 on an identity bone, 0.75 on a bone moved by (4, 0, 0): +3 in X.
  auto o = run({vtx({1, 2, 3}, SkinType::bdef2, {0, 1, -1, -1}, {0.25f, 0.75f, 0, 0})}, 2,
               {kI, rigid_matrix(kIdentityQuat, {4, 0, 0})});
  expect_vec(o.p[0], {4, 2, 3});
  expect_vec(o.n[0], {0, 1, 0});
}

TEST(Skinning, Bdef2SecondWeightIsOneMinusFirstWhateverIsStored) {
  // BDEF2 stores only w0: weights[1] is 1 - w0 even if the input says otherwise.
  auto o = run({vtx({0, 0, 0}, SkinType::bdef2, {0, 1, -1, -1}, {0.5f, 0.0f, 0, 0})}, 2,
               {kI, rigid_matrix(kIdentityQuat, {2, 0, 0})});
  expect_vec(o.p[0], {1, 0, 0});
}

TEST(Skinning, Bdef4WeightsAreUsedAsStoredNotNormalized) {
  // Weights 0.5 + 0.25 = 0.75 on identity bones: the position is scaled by 0.75 (MMD / babylon-mmd
  // use BDEF4 weights as stored); the normal is renormalized.
  auto o = run({vtx({4, 8, -4}, SkinType::bdef4, {0, 1, 2, 3}, {0.5f, 0.25f, 0, 0})}, 4, {kI, kI, kI, kI});
  expect_vec(o.p[0], {3, 6, -3});
  expect_vec(o.n[0], {0, 1, 0});
  // Four bones with translations 1, 2, 3, 4 along X and weights 0.1..0.4: + (0.1+0.4+0.9+1.6) = 3.
  auto o2 = run({vtx({0, 0, 0}, SkinType::bdef4, {0, 1, 2, 3}, {0.1f, 0.2f, 0.3f, 0.4f})}, 4,
                {rigid_matrix(kIdentityQuat, {1, 0, 0}), rigid_matrix(kIdentityQuat, {2, 0, 0}),
                 rigid_matrix(kIdentityQuat, {3, 0, 0}), rigid_matrix(kIdentityQuat, {4, 0, 0})});
  expect_vec(o2.p[0], {3, 0, 0});
}

TEST(Skinning, AllWeightsZeroKeepsBindPositionAndInvalidBoneIsIdentity) {
  const Mat4 moved = rigid_matrix(kIdentityQuat, {10, 0, 0});
  auto o = run({vtx({1, 2, 3}, SkinType::bdef4, {0, 0, 0, 0}, {0, 0, 0, 0}),
                vtx({1, 2, 3}, SkinType::bdef1, {-1, -1, -1, -1}, {1, 0, 0, 0}),
                vtx({1, 2, 3}, SkinType::bdef2, {0, 7, -1, -1}, {0.5f, 0.5f, 0, 0})},
               1, {moved});
  expect_vec(o.p[0], {1, 2, 3});
  expect_vec(o.p[1], {1, 2, 3});
  expect_vec(o.p[2], {6, 2, 3});  // half of +10 from bone 0, the other half from "no bone"
}

TEST(Skinning, SdefMatchesHandComputedVertex) {
  // Bone 0 at the origin, unmoved; bone 1 at (0,1,0) rotated +90° about Z. C = (0,1,0),
  // R0 = (0,0.5,0), R1 = (0,1.5,0), w0 = w1 = 0.5:
  //   rw = (0,1,0); R0' = (0,0.5,0); R1' = (0,1.5,0); CR0 = (0,0.75,0); CR1 = (0,1.25,0)
  //   q = slerp(I, Rz90, 0.5) = Rz45; p = (1,1,0): Rz45 (p - C) = (√½, √½, 0)
  //   M0 CR0 = (0,0.75,0); M1 CR1 = Rz90 (0,0.25,0) + (0,1,0) = (-0.25, 1, 0)
  //   p' = (√½ - 0.125, √½ + 0.375 + 0.5, 0); n' = Rz45 (1,0,0) = (√½, √½, 0).
  const Quat q1 = quat_from_axis_angle({0, 0, 1}, kPi / 2);
  V v = vtx({1, 1, 0}, SkinType::sdef, {0, 1, -1, -1}, {0.5f, 0.5f, 0, 0}, {1, 0, 0});
  v.sdef_c = {0, 1, 0};
  v.sdef_r0 = {0, 0.5f, 0};
  v.sdef_r1 = {0, 1.5f, 0};
  const float h = std::sqrt(0.5f);
  auto o = run({v}, 2, {kI, pivot_matrix(q1, {0, 1, 0})}, {kIdentityQuat, q1});
  expect_vec(o.p[0], {h - 0.125f, h + 0.875f, 0});
  expect_vec(o.n[0], {h, h, 0});
  // Without rotation the SDEF vertex does not move (the R0/R1 correction keeps it in place).
  auto o0 = run({v}, 2, {kI, kI}, {kIdentityQuat, kIdentityQuat});
  expect_vec(o0.p[0], {1, 1, 0});
  // A common rigid motion of both bones moves an SDEF vertex rigidly.
  const Quat r = quat_from_axis_angle({0, 1, 0}, 0.7f);
  const Mat4 m = pivot_matrix(r, {0, 0, 0}, {1, 2, 3});
  auto o1 = run({v}, 2, {m, m}, {r, r});
  const Vec3 expect = quat_rotate(r, {1, 1, 0});
  expect_vec(o1.p[0], {expect[0] + 1, expect[1] + 2, expect[2] + 3});
}

TEST(Skinning, QdefEqualsRigidTransformWhenAllBonesAgree) {
  const Quat r = quat_from_axis_angle({0.6f, 0.8f, 0}, 1.1f);
  const Mat4 m = rigid_matrix(r, {0.5f, -2, 7});
  const Vec3 p{1.5f, -0.5f, 2};
  const Vec3 rp = quat_rotate(r, p);
  // Bone 2 gets -q (the same rotation): the blend aligns signs.
  const Quat neg{-r[0], -r[1], -r[2], -r[3]};
  auto o = run({vtx(p, SkinType::qdef, {0, 1, 2, 3}, {0.1f, 0.2f, 0.3f, 0.4f}, {1, 0, 0})}, 4, {m, m, m, m},
               {r, r, neg, r});
  expect_vec(o.p[0], {rp[0] + 0.5f, rp[1] - 2, rp[2] + 7});
  expect_vec(o.n[0], quat_rotate(r, {1, 0, 0}));
}

TEST(Skinning, QdefHalfwayBetweenTwoRotationsAboutTheSameAxis) {
  // Identity and +90° about Y (both about the origin), weights 0.5 / 0.5: the dual-quaternion blend
  // is the 45° rotation, so (1,0,0) -> (cos45, 0, -sin45) with no shrinking (linear blend would
  // give (0.5, 0, -0.5)).
  const Quat q = quat_from_axis_angle({0, 1, 0}, kPi / 2);
  auto o = run({vtx({1, 0, 0}, SkinType::qdef, {0, 1, -1, -1}, {0.5f, 0.5f, 0, 0}),
                vtx({1, 0, 0}, SkinType::bdef4, {0, 1, -1, -1}, {0.5f, 0.5f, 0, 0})},
               2, {kI, rigid_matrix(q, {0, 0, 0})}, {kIdentityQuat, q});
  const float h = std::sqrt(0.5f);
  expect_vec(o.p[0], {h, 0, -h});
  expect_vec(o.p[1], {0.5f, 0, -0.5f});
}

TEST(Skinning, MorphOffsetsAreAppliedBeforeSkinning) {
  const Quat q = quat_from_axis_angle({0, 0, 1}, kPi / 2);  // (x, y) -> (-y, x)
  auto o = run({vtx({1, 0, 0}, SkinType::bdef1, {0, -1, -1, -1}, {1, 0, 0, 0})}, 1, {rigid_matrix(q, {0, 0, 0})}, {},
               {Vec3{0, 2, 0}});
  expect_vec(o.p[0], {-2, 1, 0});
}

TEST(Skinning, ThreadPoolGivesTheSameBytesAsOneThread) {
  std::vector<V> vs;
  for (int i = 0; i < 10007; ++i) {
    const float f = static_cast<float>(i);
    const std::int32_t b = i % 5;
    vs.push_back(vtx({std::sin(f), std::cos(f * 0.3f), f * 0.001f}, static_cast<SkinType>(i % 5 == 3 ? 2 : i % 5),
                     {b, (b + 1) % 5, (b + 2) % 5, (b + 3) % 5}, {0.4f, 0.3f, 0.2f, 0.1f}, {0, 0, 1}));
  }
  std::vector<Mat4> mats;
  std::vector<Quat> rots;
  for (int b = 0; b < 5; ++b) {
    rots.push_back(quat_from_axis_angle({0, 1, 0}, 0.3f * static_cast<float>(b)));
    mats.push_back(rigid_matrix(rots.back(), {static_cast<float>(b), 0, 1}));
  }
  auto d = SkinningData::create(vs, 5);
  ASSERT_TRUE(d.has_value());
  SkinWorkspace ws(*d);
  std::vector<Vec3> p1(vs.size()), n1(vs.size()), p2(vs.size()), n2(vs.size());
  skin(*d, {mats, rots}, ws, {}, p1, n1);
  ThreadPool pool(3);
  EXPECT_EQ(pool.size(), 3u);
  for (int rep = 0; rep < 20; ++rep) {
    std::fill(p2.begin(), p2.end(), Vec3{});
    skin_parallel(pool, *d, {mats, rots}, ws, {}, p2, n2);
    ASSERT_EQ(std::memcmp(p1.data(), p2.data(), p1.size() * sizeof(Vec3)), 0) << rep;
    ASSERT_EQ(std::memcmp(n1.data(), n2.data(), n1.size() * sizeof(Vec3)), 0) << rep;
  }
}

TEST(Skinning, CreateRejectsNothingAndCountsBones) {
  auto d = SkinningData::create(std::vector<V>{}, 3);
  ASSERT_TRUE(d.has_value());
  EXPECT_EQ(d->vertex_count(), 0u);
  EXPECT_EQ(d->bone_count(), 3u);
  EXPECT_FALSE(d->needs_rotations());
}

}  // namespace

// skin / skin_parallel refuse a workspace of other skinning data (same sizes, other create()),
// one never sized, and spans that do not fit the vertices, instead of skinning nothing silently.
TEST(Skinning, MismatchedWorkspaceOrSpansAreErrors) {
  const std::vector<V> vs{vtx({1, 0, 0}, SkinType::bdef1, {0, -1, -1, -1}, {1, 0, 0, 0}),
                          vtx({0, 1, 0}, SkinType::bdef1, {0, -1, -1, -1}, {1, 0, 0, 0})};
  auto a = SkinningData::create(vs, 1);
  auto b = SkinningData::create(vs, 1);
  ASSERT_TRUE(a && b);
  EXPECT_NE(a->id(), b->id());
  const std::vector<Mat4> mats{rigid_matrix(kIdentityQuat, {0, 5, 0})};
  const Vec3 sentinel{-7, -7, -7};
  std::vector<Vec3> p(2, sentinel), n(2, sentinel);

  SkinWorkspace ws_b(*b);
  EXPECT_EQ(ws_b.data_id(), b->id());
  auto r = skin(*a, {mats, {}}, ws_b, {}, p, n);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, ErrorCode::invalid_argument);
  EXPECT_EQ(r.error().section, "skin workspace");
  EXPECT_FALSE(validate(*a, ws_b));
  EXPECT_TRUE(validate(*b, ws_b));
  ThreadPool pool(2);
  EXPECT_FALSE(skin_parallel(pool, *a, {mats, {}}, ws_b, {}, p, n));
  SkinWorkspace never;
  EXPECT_FALSE(skin(*a, {mats, {}}, never, {}, p, n));
  EXPECT_FALSE(prepare_skin(*a, {mats, {}}, never));
  for (const Vec3& v : p) expect_vec(v, sentinel, 0);  // nothing written
  for (const Vec3& v : n) expect_vec(v, sentinel, 0);

  SkinWorkspace ws_a(*a);
  std::vector<Vec3> short_out(1);
  const std::vector<Vec3> one_offset(1);
  auto s1 = skin(*a, {mats, {}}, ws_a, {}, short_out, {});
  ASSERT_FALSE(s1);
  EXPECT_EQ(s1.error().section, "skin");
  EXPECT_FALSE(skin(*a, {mats, {}}, ws_a, one_offset, p, n));  // offsets: none or one per vertex
  EXPECT_FALSE(skin(*a, {mats, {}}, ws_a, {}, {}, {}));       // nothing to skin into
  for (const Vec3& v : p) expect_vec(v, sentinel, 0);

  // The matching workspace skins: (1,0,0) and (0,1,0) moved up by 5.
  ASSERT_TRUE(skin(*a, {mats, {}}, ws_a, {}, p, n));
  expect_vec(p[0], {1, 5, 0});
  expect_vec(p[1], {0, 6, 0});
}

}  // namespace mmdkit::anim
