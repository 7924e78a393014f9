// PMX 2.1 soft bodies are not simulated (docs/PHYSICS.md "Soft bodies"): the model view keeps
// their number, and adding the model to a world gives exactly one warning for the model.
#include <gtest/gtest.h>

#include "mmdkit/anim/skeleton.hpp"
#include "mmdkit/formats/pmx_generate.hpp"
#include "mmdkit/model/model.hpp"
#include "mmdkit/physics/physics.hpp"

namespace mmdkit::physics {
namespace {

model::Model view_of(pmx::GenerateVariant variant, std::size_t soft_copies, std::size_t& stored) {
  auto p = pmx::generate({.seed = 7, .vertices = 40, .bones = 0, .morphs = 2, .variant = variant});
  EXPECT_TRUE(p) << p.error().to_string();
  if (!p) return {};
  // More soft bodies than the generator's one: copies of it.
  if (!p->soft_bodies.empty())
    while (p->soft_bodies.size() < soft_copies) p->soft_bodies.push_back(p->soft_bodies.front());
  stored = p->soft_bodies.size();
  auto m = model::from_pmx(*p);
  EXPECT_TRUE(m) << m.error().to_string();
  return m ? std::move(*m) : model::Model{};
}

std::size_t soft_warnings(const World& world, std::size_t model, std::string* text = nullptr) {
  std::size_t n = 0;
  for (const Warning& w : world.warnings())
    if (w.section == "soft bodies" && w.model == model) {
      ++n;
      if (text) *text = w.to_string();
    }
  return n;
}

TEST(SoftBodies, OneWarningPerModelSayingTheyAreNotSimulated) {
  std::size_t stored21 = 0, stored20 = 0;
  const model::Model m21 = view_of(pmx::GenerateVariant::pmx21_utf8, 3, stored21);
  const model::Model m20 = view_of(pmx::GenerateVariant::pmx20_utf16, 0, stored20);
  ASSERT_EQ(stored21, 3u);
  ASSERT_EQ(stored20, 0u);
  EXPECT_EQ(m21.soft_body_count, 3u);
  EXPECT_EQ(m20.soft_body_count, 0u);
  auto s21 = anim::build_skeleton(m21);
  auto s20 = anim::build_skeleton(m20);
  ASSERT_TRUE(s21 && s20);
  World world;
  world.add_model(m21, *s21);
  world.add_model(m20, *s20);
  world.add_model(m21, *s21);
  std::string text;
  EXPECT_EQ(soft_warnings(world, 0, &text), 1u);
  EXPECT_EQ(text, "soft bodies: 3 soft bodies (PMX 2.1) are not simulated: the vertices follow their bones only "
                  "(skinning, no cloth; docs/PHYSICS.md)");
  EXPECT_EQ(soft_warnings(world, 1), 0u);
  EXPECT_EQ(soft_warnings(world, 2), 1u);
  // The rigid bodies of the same model are still simulated.
  EXPECT_EQ(world.model(0).body_count(), m21.rigid_bodies.size());
  EXPECT_GT(m21.rigid_bodies.size(), 0u);
}

}  // namespace
}  // namespace mmdkit::physics
