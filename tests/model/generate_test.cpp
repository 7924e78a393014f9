// PMD generator: reads back, deterministic, its view has the humanoid skeleton and IK legs.
#include <gtest/gtest.h>

#include <numbers>

#include "mmdkit/formats/humanoid.hpp"
#include "mmdkit/formats/pmd_generate.hpp"
#include "mmdkit/model/check.hpp"
#include "mmdkit/model/model.hpp"

namespace mmdkit::model {
namespace {

std::vector<std::uint8_t> generated(std::uint64_t seed, std::uint64_t vertices, std::uint64_t morphs) {
  auto m = pmd::generate({.seed = seed, .vertices = vertices, .morphs = morphs});
  EXPECT_TRUE(m) << m.error().to_string();
  auto b = pmd::write(*m);
  EXPECT_TRUE(b) << b.error().to_string();
  return *b;
}

TEST(GeneratePmd, ReadsBackExactlyAndIsDeterministic) {
  auto a = generated(7, 500, 10);
  auto r = pmd::read(a, pmd::ReadOptions{.encoding = std::nullopt, .strict = true});
  ASSERT_TRUE(r) << r.error().to_string();
  EXPECT_TRUE(r->warnings.empty());
  EXPECT_EQ(r->model.vertices.size(), 500u);
  EXPECT_EQ(r->model.indices.size(), 3u * 498u);
  EXPECT_EQ(r->model.morphs.size(), 11u);
  EXPECT_EQ(r->model.tail, pmd::Tail::joints);
  auto again = pmd::write(r->model);
  ASSERT_TRUE(again);
  EXPECT_EQ(*again, a);
  EXPECT_EQ(generated(7, 500, 10), a);
  EXPECT_NE(generated(8, 500, 10), a);
  // Size: header 283 + 4 + 500×38 + 4 + 1494×2 + 4 + 2×70 + 2 + 29×39 + IK (2 + 2×(11+4) + 2×(11+2))
  // + morphs (2 + 25 + 64×16 + 10×(25 + 16×16)) + display (1 + 10×2) + frames (1 + 2×50)
  // + bone display (4 + 3 × visible bones except 全ての親) + English (1 + 20 + 256 + 29×20 + 10×20
  // + 2×50) + toons 1000 + rigid bodies 4 + 2×83 + joints 4 + 124.
  std::size_t visible = 0;
  for (std::size_t i = 1; i < humanoid::bones().size(); ++i) visible += humanoid::bones()[i].visible;
  const std::size_t expect = 283 + 4 + 500 * 38 + 4 + 1494 * 2 + 4 + 2 * 70 + 2 + 29 * 39 + 2 + 2 * 15 + 2 * 13 +
                             2 + 25 + 64 * 16 + 10 * (25 + 16 * 16) + 1 + 20 + 1 + 100 + 4 + 3 * visible + 1 + 20 +
                             256 + 29 * 20 + 10 * 20 + 100 + 1000 + 4 + 166 + 4 + 124;
  EXPECT_EQ(a.size(), expect);
}

TEST(GeneratePmd, ViewHasHumanoidBonesAndIkLegs) {
  auto bytes = generated(3, 300, 8);
  auto v = load(bytes);
  ASSERT_TRUE(v) << v.error().to_string();
  EXPECT_TRUE(v->findings.empty());
  auto fs = model::check(pmd::read(bytes)->model);
  EXPECT_TRUE(fs.empty()) << fs.size();
  const auto specs = humanoid::bones();
  ASSERT_EQ(v->bones.size(), specs.size());
  for (std::size_t i = 0; i < specs.size(); ++i) {
    EXPECT_EQ(v->bones[i].name, specs[i].name);
    EXPECT_EQ(v->bones[i].name_en, specs[i].name_en);
    EXPECT_EQ(v->bones[i].parent, specs[i].parent);
    EXPECT_EQ(v->bones[i].position, specs[i].position);
  }
  ASSERT_EQ(v->ik_chains.size(), 4u);
  for (std::size_t c = 0; c < 4; ++c) {
    const auto& spec = humanoid::ik_chains()[c];
    const IkChain& k = v->ik_chains[c];
    EXPECT_EQ(k.ik_bone, spec.ik_bone);
    EXPECT_EQ(k.effector, spec.target);
    EXPECT_EQ(k.iterations, spec.iterations);
    EXPECT_FLOAT_EQ(k.unit_angle, spec.limit_angle);  // stored / 4, × 4 in the view
    ASSERT_EQ(k.links.size(), static_cast<std::size_t>(spec.link_count));
    EXPECT_EQ(k.links[0].has_limits, spec.knee);
    if (spec.knee) {
      EXPECT_FLOAT_EQ(k.links[0].lower[0], humanoid::kKneeLower[0]);
      EXPECT_FLOAT_EQ(k.links[0].upper[0], humanoid::kKneeUpper[0]);
    }
  }
  EXPECT_TRUE(v->bones[static_cast<std::size_t>(humanoid::find_bone("左足ＩＫ"))].is_ik);
  const Bone& eye = v->bones[static_cast<std::size_t>(humanoid::find_bone("左目"))];
  EXPECT_EQ(eye.append_parent, humanoid::find_bone("両目"));
  EXPECT_FLOAT_EQ(eye.append_ratio, 1.0f);
  EXPECT_EQ(v->morphs.size(), 8u);
  EXPECT_EQ(v->morphs[0].name, "あ");
  EXPECT_EQ(v->morphs[5].name_en, "blink");
  EXPECT_EQ(v->materials[1].sphere, "face.sph");
  EXPECT_EQ(v->materials[1].shared_toon, 1);
  // Head sphere: bone 頭 (0, 16.9, 0.1) + (0, 1.2, 0).
  EXPECT_FLOAT_EQ(v->rigid_bodies[0].position[1], 18.1f);
}

TEST(GeneratePmd, Limits) {
  auto a = pmd::generate({.seed = 1, .vertices = 65536, .morphs = 1});
  ASSERT_FALSE(a);
  EXPECT_EQ(a.error().code, ErrorCode::limit_exceeded);
  auto b = pmd::generate({.seed = 1, .vertices = 0, .morphs = 300});
  ASSERT_TRUE(b);
  EXPECT_EQ(b->morph_display.size(), 255u);
  auto bytes = pmd::write(*b);
  ASSERT_TRUE(bytes) << bytes.error().to_string();
  auto v = load(*bytes);
  ASSERT_TRUE(v);
  EXPECT_EQ(v->morphs.size(), 300u);
}

}  // namespace
}  // namespace mmdkit::model
