// Morphs (morph.hpp) on a model view built in code: vertex / group / flip / bone / material / UV /
// impulse rules with values computed by hand, sparse reset between frames, loops cut.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include "mmdkit/anim/morph.hpp"
#include "mmdkit/formats/vpd.hpp"
#include "mmdkit/model/model.hpp"

namespace mmdkit::anim {
namespace {

constexpr float kPi = std::numbers::pi_v<float>;

model::Morph morph(model::MorphType t) {
  model::Morph m;
  m.type = t;
  return m;
}

// 4 vertices, 2 bones, 2 materials, 1 additional UV; morphs:
//  0 vertex  v1 (1,2,3)            1 vertex  v1 (0,1,0), v2 (1,0,0)
//  2 group   {0 ×0.5, 1 ×2}         3 bone    bone 1: t (0,0,2), r 90° about X
//  4 material add  material 1: diffuse +0.25
//  5 material mul  all (−1): diffuse ×0.5, edge size ×2
//  6 flip    {0 ×1, 1 ×0.5}         7 uv      v3 (0.1, 0.2)
//  8 add.uv1 v0 (1,2,3,4)           9 impulse body 0 velocity (0,10,0) torque (1,0,0)
// 10 group   {11 ×1}               11 group   {10 ×1, 0 ×1}   (a loop, built past the view's checks)
model::Model make_model() {
  model::Model m;
  m.vertices.resize(4);
  m.additional_uv_count = 1;
  m.additional_uvs.resize(4);
  m.bones.resize(2);
  m.materials.resize(2);
  for (auto& mat : m.materials) {
    mat.diffuse = {0.8f, 0.6f, 0.4f, 1.0f};
    mat.edge_size = 1.5f;
    mat.specular_power = 10;
  }
  auto v0 = morph(model::MorphType::vertex);
  v0.vertex_offsets = {{1, {1, 2, 3}}};
  auto v1 = morph(model::MorphType::vertex);
  v1.vertex_offsets = {{1, {0, 1, 0}}, {2, {1, 0, 0}}};
  auto g = morph(model::MorphType::group);
  g.group_offsets = {{0, 0.5f}, {1, 2.0f}};
  auto b = morph(model::MorphType::bone);
  const Quat rx = quat_from_axis_angle({1, 0, 0}, kPi / 2);
  b.bone_offsets = {{1, {0, 0, 2}, {rx[0], rx[1], rx[2], rx[3]}}};
  auto madd = morph(model::MorphType::material);
  model::MaterialOffset a;
  a.material = 1;
  a.operation = 1;
  a.diffuse = {0.25f, 0.25f, 0.25f, 0};
  madd.material_offsets = {a};
  auto mmul = morph(model::MorphType::material);
  model::MaterialOffset mu;
  mu.material = -1;
  mu.operation = 0;
  mu.diffuse = {0.5f, 0.5f, 0.5f, 1};
  mu.specular = {1, 1, 1};
  mu.specular_power = 1;
  mu.ambient = {1, 1, 1};
  mu.edge_color = {1, 1, 1, 1};
  mu.edge_size = 2;
  mu.texture_tint = mu.sphere_tint = mu.toon_tint = {1, 1, 1, 1};
  mmul.material_offsets = {mu};
  auto f = morph(model::MorphType::flip);
  f.flip_offsets = {{0, 1.0f}, {1, 0.5f}};
  auto uv = morph(model::MorphType::uv);
  uv.uv_offsets = {{3, {0.1f, 0.2f, 9, 9}}};
  auto auv = morph(model::MorphType::additional_uv1);
  auv.uv_offsets = {{0, {1, 2, 3, 4}}};
  auto imp = morph(model::MorphType::impulse);
  imp.impulse_offsets = {{0, true, {0, 10, 0}, {1, 0, 0}}};
  auto l1 = morph(model::MorphType::group);
  l1.group_offsets = {{11, 1.0f}};
  auto l2 = morph(model::MorphType::group);
  l2.group_offsets = {{10, 1.0f}, {0, 1.0f}};
  m.morphs = {v0, v1, g, b, madd, mmul, f, uv, auv, imp, l1, l2};
  return m;
}

struct Fixture {
  MorphData data;
  MorphWorkspace ws;
  std::vector<float> w;
  Fixture() {
    auto d = MorphData::create(make_model());
    EXPECT_TRUE(d.has_value());
    data = std::move(*d);
    ws.reset(data);
    w.assign(data.morph_count(), 0.0f);
  }
  void only(std::size_t m, float weight) {
    std::fill(w.begin(), w.end(), 0.0f);
    w[m] = weight;
    EXPECT_TRUE(apply_morphs(data, w, ws));
  }
};

void expect_vec(const Vec3& a, const Vec3& b) {
  EXPECT_NEAR(a[0], b[0], 1e-6f);
  EXPECT_NEAR(a[1], b[1], 1e-6f);
  EXPECT_NEAR(a[2], b[2], 1e-6f);
}

TEST(Morphs, VertexOffsetsAddAndGroupsScaleChildren) {
  Fixture f;
  f.w[0] = 0.5f;
  f.w[1] = 1.0f;
  apply_morphs(f.data, f.w, f.ws);
  expect_vec(f.ws.vertex_offsets()[1], {0.5f, 2.0f, 1.5f});
  expect_vec(f.ws.vertex_offsets()[2], {1, 0, 0});
  EXPECT_EQ(f.ws.touched_vertices().size(), 2u);
  // Group at 1: 0.5·(1,2,3) + 2·(0,1,0) = (0.5, 3, 1.5); v2: 2·(1,0,0).
  f.only(2, 1.0f);
  expect_vec(f.ws.vertex_offsets()[1], {0.5f, 3.0f, 1.5f});
  expect_vec(f.ws.vertex_offsets()[2], {2, 0, 0});
  // Group and a direct weight add up: group 0.5 + morph 0 at 1 -> v1 = 0.25(1,2,3) + (0,1,0) + (1,2,3).
  std::fill(f.w.begin(), f.w.end(), 0.0f);
  f.w[2] = 0.5f;
  f.w[0] = 1.0f;
  apply_morphs(f.data, f.w, f.ws);
  expect_vec(f.ws.vertex_offsets()[1], {1.25f, 3.5f, 3.75f});
}

TEST(Morphs, NextFrameResetsOnlyWhatWasTouched) {
  Fixture f;
  f.only(1, 1.0f);
  EXPECT_EQ(f.ws.touched_vertices().size(), 2u);
  f.only(0, 0.0f);  // all zero
  EXPECT_TRUE(f.ws.touched_vertices().empty());
  for (const Vec3& v : f.ws.vertex_offsets()) expect_vec(v, {0, 0, 0});
  for (const auto& b : f.ws.bone_offsets()) EXPECT_EQ(b.rotation, kIdentityQuat);
}

TEST(Morphs, FlipPicksOneChildByWeight) {
  Fixture f;
  // n = 2: k = clamp(floor(3w) − 1, 0, 1); the child gets its own factor, not w.
  f.only(6, 0.2f);  // floor(0.6) − 1 = −1 -> child 0 at 1
  expect_vec(f.ws.vertex_offsets()[1], {1, 2, 3});
  expect_vec(f.ws.vertex_offsets()[2], {0, 0, 0});
  f.only(6, 0.5f);  // floor(1.5) − 1 = 0 -> child 0
  expect_vec(f.ws.vertex_offsets()[1], {1, 2, 3});
  f.only(6, 0.7f);  // floor(2.1) − 1 = 1 -> child 1 at 0.5
  expect_vec(f.ws.vertex_offsets()[1], {0, 0.5f, 0});
  expect_vec(f.ws.vertex_offsets()[2], {0.5f, 0, 0});
  f.only(6, 1.0f);  // floor(3) − 1 = 2 -> clamped to 1
  expect_vec(f.ws.vertex_offsets()[2], {0.5f, 0, 0});
  f.only(6, -0.5f);  // w ≤ 0: nothing
  EXPECT_TRUE(f.ws.touched_vertices().empty());
}

TEST(Morphs, BoneMorphTranslatesAndSlerpsFromIdentity) {
  Fixture f;
  f.only(3, 0.5f);
  const auto& b = f.ws.bone_offsets();
  ASSERT_EQ(b.size(), 2u);
  EXPECT_EQ(b[0].rotation, kIdentityQuat);
  expect_vec(b[1].translation, {0, 0, 1});
  // Half of 90° about X: (sin 22.5°, 0, 0, cos 22.5°).
  EXPECT_NEAR(b[1].rotation[0], std::sin(kPi / 8), 1e-6f);
  EXPECT_NEAR(b[1].rotation[3], std::cos(kPi / 8), 1e-6f);
  ASSERT_EQ(f.ws.touched_bones().size(), 1u);
  EXPECT_EQ(f.ws.touched_bones()[0], 1u);
}

TEST(Morphs, MaterialMultipliesBeforeAddsWhateverTheOrder) {
  Fixture f;
  // The add morph (4) comes before the multiply morph (5): still base × mul + add.
  f.w[4] = 1.0f;
  f.w[5] = 1.0f;
  apply_morphs(f.data, f.w, f.ws);
  const auto mats = f.ws.materials();
  EXPECT_NEAR(mats[0].diffuse[0], 0.8f * 0.5f, 1e-6f);         // target −1 reaches material 0
  EXPECT_NEAR(mats[1].diffuse[0], 0.8f * 0.5f + 0.25f, 1e-6f);  // 0.65, not (0.8 + 0.25) × 0.5
  EXPECT_NEAR(mats[1].diffuse[3], 1.0f, 1e-6f);
  EXPECT_NEAR(mats[1].edge_size, 3.0f, 1e-6f);
  EXPECT_NEAR(mats[1].specular_power, 10.0f, 1e-6f);
  // Multiply at weight 0.5: factor 1 + (0.5 − 1)·0.5 = 0.75.
  f.only(5, 0.5f);
  EXPECT_NEAR(f.ws.materials()[0].diffuse[1], 0.6f * 0.75f, 1e-6f);
  // Weight 0: back to the base values.
  f.only(5, 0.0f);
  EXPECT_EQ(f.ws.materials()[0].diffuse, (Vec4{0.8f, 0.6f, 0.4f, 1.0f}));
  EXPECT_TRUE(f.ws.touched_materials().empty());
}

TEST(Morphs, UvAndAdditionalUvOffsetsAdd) {
  Fixture f;
  f.w[7] = 0.5f;
  f.w[8] = 2.0f;
  apply_morphs(f.data, f.w, f.ws);
  EXPECT_NEAR(f.ws.uv_offsets()[3][0], 0.05f, 1e-6f);
  EXPECT_NEAR(f.ws.uv_offsets()[3][1], 0.1f, 1e-6f);
  EXPECT_EQ(f.ws.uv_offsets()[3][2], 0.0f);  // UV morphs use x, y only
  EXPECT_EQ(f.ws.additional_uv_offsets()[0], (Vec4{2, 4, 6, 8}));
  f.only(0, 0.0f);
  EXPECT_EQ(f.ws.additional_uv_offsets()[0], (Vec4{0, 0, 0, 0}));
}

TEST(Morphs, ImpulsesAreRecordedScaled) {
  Fixture f;
  f.only(9, 0.5f);
  ASSERT_EQ(f.ws.impulses().size(), 1u);
  EXPECT_EQ(f.ws.impulses()[0].rigid_body, 0);
  EXPECT_TRUE(f.ws.impulses()[0].local);
  expect_vec(f.ws.impulses()[0].velocity, {0, 5, 0});
  expect_vec(f.ws.impulses()[0].torque, {0.5f, 0, 0});
  f.only(0, 0.0f);
  EXPECT_TRUE(f.ws.impulses().empty());
}

TEST(Morphs, GroupLoopsAreCut) {
  Fixture f;
  // 10 -> 11 -> {10 (on the path: skipped), 0 ×1}: morph 0 applied once.
  f.only(10, 1.0f);
  expect_vec(f.ws.vertex_offsets()[1], {1, 2, 3});
  f.only(11, 1.0f);  // 11 -> {10 -> 11 (skipped), 0}: once
  expect_vec(f.ws.vertex_offsets()[1], {1, 2, 3});
}

TEST(Morphs, VpdWeightsMatchByNameBytes) {
  vpd::Pose pose;
  vpd::Morph a;
  a.name.raw = {0x82, 0xa0};  // あ in CP932
  a.weight = 0.75f;
  pose.morphs = {a};
  std::vector<std::vector<std::uint8_t>> keys{{0x82, 0xa2}, {0x82, 0xa0}};
  auto w = morph_weights_from_vpd(keys, pose);
  ASSERT_EQ(w.size(), 2u);
  EXPECT_EQ(w[0], 0.0f);
  EXPECT_EQ(w[1], 0.75f);
}

}  // namespace

// A workspace that was never sized, or was sized for other morph data (even of the same sizes), is
// refused with invalid_argument and nothing is written (ozz-style Validate, as pose.hpp's validate).
TEST(Morphs, MismatchedWorkspaceIsAnErrorAndWritesNothing) {
  Fixture f;
  f.w[0] = 1.0f;
  MorphWorkspace never;
  auto r = apply_morphs(f.data, f.w, never);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, ErrorCode::invalid_argument);
  EXPECT_EQ(r.error().section, "morph workspace");
  EXPECT_FALSE(validate(f.data, never));

  // Same model, another create(): same sizes, another id.
  auto other = MorphData::create(make_model());
  ASSERT_TRUE(other);
  EXPECT_NE(other->id(), f.data.id());
  EXPECT_NE(other->id(), 0u);
  MorphWorkspace ws_other(*other);
  EXPECT_EQ(ws_other.data_id(), other->id());
  auto r2 = apply_morphs(f.data, f.w, ws_other);
  ASSERT_FALSE(r2);
  EXPECT_EQ(r2.error().code, ErrorCode::invalid_argument);
  EXPECT_NE(r2.error().message.find("other morph data"), std::string::npos) << r2.error().message;
  for (const Vec3& v : ws_other.vertex_offsets()) expect_vec(v, {0, 0, 0});  // nothing written
  EXPECT_TRUE(ws_other.touched_vertices().empty());

  // A copy of the data keeps its id (it holds the same morphs): the workspace still fits.
  const MorphData copy = f.data;
  EXPECT_EQ(copy.id(), f.data.id());
  ASSERT_TRUE(apply_morphs(copy, f.w, f.ws));
  expect_vec(f.ws.vertex_offsets()[1], {1, 2, 3});
}

}  // namespace mmdkit::anim
