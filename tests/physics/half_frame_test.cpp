// CharacterPhysics::evaluate_sample: the half frames of 60 fps output (issue 12, `render --fps 60`).
// A run at 2 samples per frame steps half as many fixed steps per sample, so its whole frames are
// the frames of the 30 fps run when the kinematic bodies move linearly between frames (here: at
// rest), bit for bit; a rate change restarts from frame 0; rates that do not divide the world's
// substeps are refused.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <vector>

#include "mmdkit/anim/binding.hpp"
#include "mmdkit/anim/character.hpp"
#include "mmdkit/physics/character_physics.hpp"
#include "physics/physics_test_util.hpp"

namespace mmdkit::physics {
namespace {

using model::RigidBodyMode;

// A two-body chain hinged to a root at rest, starting horizontal: it swings down under gravity.
std::shared_ptr<const model::Model> pendulum() {
  auto m = std::make_shared<model::Model>();
  test::add_bone(*m, "root", -1, {0, 20, 0});
  test::add_bone(*m, "hair1", 0, {2, 20, 0});
  test::add_bone(*m, "hair2", 1, {4, 20, 0});
  test::add_body(*m, 0, RigidBodyMode::follow_bone, {0, 20, 0});
  m->rigid_bodies[0].collision_mask = 0;
  test::add_body(*m, 1, RigidBodyMode::physics, {3, 20, 0});
  test::add_body(*m, 2, RigidBodyMode::physics, {5, 20, 0});
  test::add_z_hinge(*m, 0, 1, {1, 20, 0});
  test::add_z_hinge(*m, 1, 2, {4, 20, 0});
  return m;
}

std::vector<Mat4> matrices(const anim::Character& c) {
  const auto m = c.pose().model_matrices();
  return {m.begin(), m.end()};
}

// The model matrices of frames 0..last of a 30 fps run (one evaluate per frame, in order).
std::vector<std::vector<Mat4>> run_30fps(const std::shared_ptr<const anim::CharacterData>& data, std::uint32_t last) {
  anim::Character character(data);
  CharacterPhysics physics(character);
  std::vector<std::vector<Mat4>> out;
  for (std::uint32_t f = 0; f <= last; ++f) {
    EXPECT_TRUE(physics.evaluate(f));
    out.push_back(matrices(character));
  }
  return out;
}

TEST(CharacterPhysicsHalfFrames, WholeFramesOfA60FpsRunEqualThe30FpsRunAtRest) {
  auto data = anim::CharacterData::create(pendulum(), {});
  ASSERT_TRUE(data) << data.error().to_string();
  const auto expected = run_30fps(*data, 20);
  // The chain does swing: frames differ (so equality below is not the rest pose twice).
  ASSERT_FALSE(std::equal(expected[5].begin(), expected[5].end(), expected[20].begin()));
  anim::Character character(*data);
  CharacterPhysics physics(character);
  std::vector<Mat4> half;  // sample 9 = frame 4.5
  for (std::uint64_t i = 0; i <= 40; ++i) {
    ASSERT_TRUE(physics.evaluate_sample(i, 2));
    EXPECT_EQ(physics.last_frame(), static_cast<std::int64_t>(i));
    if (i == 9) half = matrices(character);
    if (i % 2) continue;
    const auto got = matrices(character);
    ASSERT_TRUE(std::equal(got.begin(), got.end(), expected[i / 2].begin())) << "frame " << i / 2;
  }
  // A half frame lies between its neighbours (the chain is moving there, not held).
  EXPECT_FALSE(std::equal(half.begin(), half.end(), expected[4].begin()));
  EXPECT_FALSE(std::equal(half.begin(), half.end(), expected[5].begin()));
}

TEST(CharacterPhysicsHalfFrames, SeeksAndRateChangesRestartFromFrameZero) {
  auto data = anim::CharacterData::create(pendulum(), {});
  ASSERT_TRUE(data) << data.error().to_string();
  const auto expected = run_30fps(*data, 12);
  anim::Character character(*data);
  CharacterPhysics physics(character);
  std::vector<Mat4> half7;
  {
    anim::Character fresh(*data);
    CharacterPhysics p(fresh);
    ASSERT_TRUE(p.evaluate_sample(7, 2));
    half7 = matrices(fresh);
  }
  // Any order at rate 2, then rate 1 (restart), then rate 2 again.
  for (auto [index, rate] : {std::pair<std::uint64_t, std::uint32_t>{20, 2}, {7, 2}, {12, 1}, {6, 1}, {24, 2}, {7, 2}}) {
    ASSERT_TRUE(physics.evaluate_sample(index, rate));
    const auto got = matrices(character);
    if (index == 7) {
      EXPECT_TRUE(std::equal(got.begin(), got.end(), half7.begin())) << "sample 7 at rate 2";
    } else {
      const std::size_t frame = rate == 1 ? index : index / 2;
      EXPECT_TRUE(std::equal(got.begin(), got.end(), expected[frame].begin())) << "sample " << index << " rate " << rate;
    }
  }
}

TEST(CharacterPhysicsHalfFrames, RatesThatDoNotDivideTheSubstepsAreRefused) {
  auto data = anim::CharacterData::create(pendulum(), {});
  ASSERT_TRUE(data) << data.error().to_string();
  anim::Character character(*data);
  CharacterPhysics physics(character);  // 60 steps / s: 2 per frame
  for (std::uint32_t rate : {0u, 3u, 4u}) {
    auto r = physics.evaluate_sample(1, rate);
    ASSERT_FALSE(r) << rate;
    EXPECT_EQ(r.error().code, ErrorCode::invalid_argument);
  }
  Settings s;
  s.steps_per_second = 120;
  anim::Character c2(*data);
  CharacterPhysics p2(c2, s);
  EXPECT_TRUE(p2.evaluate_sample(3, 4));
}

}  // namespace
}  // namespace mmdkit::physics
