// anim::Character's two halves (evaluate_before_physics / evaluate_after_physics), which scene
// physics uses, give the bytes of evaluate().
#include <gtest/gtest.h>

#include <cstring>

#include "mmdkit/anim/input_files.hpp"
#include "scene/scene_fixture.hpp"
#include "support/corpus.hpp"

namespace mmdkit::scene {
namespace {

TEST(CharacterSplit, TwoHalvesEqualEvaluate) {
  const auto dir = mmdkit::test::temp_dir("character_split");
  const auto model = test::write_model(dir, "m.pmx", 4);
  const auto motion = test::write_motion(dir, "m.vmd", 9, 30, 300);
  const std::filesystem::path motions[] = {motion};
  auto loaded = anim::load_character(model, motions, {});
  ASSERT_TRUE(loaded.has_value());
  anim::Character a(loaded->data), b(loaded->data);
  for (double f : {0.0, 3.5, 10.0, 29.0}) {
    ASSERT_TRUE(a.evaluate(f).has_value());
    ASSERT_TRUE(b.evaluate_before_physics(f).has_value());
    ASSERT_TRUE(b.evaluate_after_physics().has_value());
    const auto ma = a.pose().skinning_matrices(), mb = b.pose().skinning_matrices();
    ASSERT_EQ(ma.size(), mb.size());
    EXPECT_EQ(std::memcmp(ma.data(), mb.data(), ma.size_bytes()), 0) << "frame " << f;
    EXPECT_EQ(b.frame(), f);
  }
  // The second half alone is refused.
  EXPECT_FALSE(b.evaluate_after_physics().has_value());
}

}  // namespace
}  // namespace mmdkit::scene
