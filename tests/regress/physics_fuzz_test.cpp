// The physics fuzz property (fuzz/physics_check.hpp: build a world from any PMD / PMX bytes, step
// a few animated frames, no crash, no NaN that physics adds to an output) on the physics seed and
// on deterministic mutations of its rigid-body and joint records: random bytes and special float
// values (NaN, ±infinity, ±huge, 0, tiny, negative) written over the fields, as libFuzzer's
// fuzz_physics does at random (this test runs in the default build, without the fuzz preset).
#include <gtest/gtest.h>

#include "mmdkit/version.hpp"
#if MMDKIT_HAS_PHYSICS

#include <cmath>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <limits>
#include <string>
#include <vector>

#include "../../fuzz/physics_check.hpp"
#include "mmdkit/formats/pmx.hpp"
#include "mmdkit/formats/pmx_generate.hpp"

namespace {

using namespace mmdkit;

/// A 12-bone chain with a body on every bone (every shape and mode) and a joint of every PMX 2.1
/// type between neighbours (as fuzz/make_seeds.cpp's physics seed). Also returns where the rigid
/// body section starts (the bodies and joints are the file's tail).
std::vector<std::uint8_t> chain_seed(std::size_t& tail) {
  auto m = pmx::generate({.seed = 5, .vertices = 3, .bones = 12, .morphs = 0, .variant = pmx::GenerateVariant::pmx21_utf8});
  EXPECT_TRUE(m);
  if (!m) return {};
  m->rigid_bodies.clear();
  m->joints.clear();
  m->soft_bodies.clear();
  auto head = pmx::write(*m);
  EXPECT_TRUE(head);
  const auto nb = static_cast<std::int32_t>(m->bones.size());
  for (std::int32_t b = 0; b < nb; ++b) {
    pmx::RigidBody r;
    r.name.assign("body" + std::to_string(b));
    r.bone = b;
    r.group = static_cast<std::uint8_t>(b % 2);
    r.collision_mask = b % 3 == 0 ? 0xFFFF : 0xFFFE;
    r.shape = static_cast<std::uint8_t>(b % 3);
    r.size = {0.4f, 0.8f, 0.4f};
    r.position = m->bones[static_cast<std::size_t>(b)].position;
    r.rotation = {0, 0, 0.3f * static_cast<float>(b)};
    r.mass = 1;
    r.linear_damping = r.angular_damping = 0.5f;
    r.mode = static_cast<std::uint8_t>(b == 0 ? 0 : b % 3);
    m->rigid_bodies.push_back(r);
    const std::int32_t parent = m->bones[static_cast<std::size_t>(b)].parent;
    if (parent < 0) continue;
    pmx::Joint j;
    j.name.assign("joint" + std::to_string(b));
    j.type = static_cast<std::uint8_t>(b % 6);
    j.rigid_body_a = parent;
    j.rigid_body_b = b;
    j.position = m->bones[static_cast<std::size_t>(b)].position;
    j.linear_lower = {-0.1f, -0.1f, -0.1f};
    j.linear_upper = {0.1f, 0.1f, 0.1f};
    j.angular_lower = {-0.5f, -0.5f, -0.5f};
    j.angular_upper = {0.5f, 0.5f, 0.5f};
    j.angular_spring = {5, 5, 5};
    m->joints.push_back(j);
  }
  auto full = pmx::write(*m);
  EXPECT_TRUE(full);
  if (!head || !full) return {};
  // The empty sections' counts (rigid bodies, joints, soft bodies: 3 × 4 bytes) end the head.
  tail = head->size() - 12;
  return *full;
}

TEST(PhysicsFuzz, SeedAndMutatedBodiesAndJointsKeepTheProperty) {
  std::size_t tail = 0;
  const std::vector<std::uint8_t> seed = chain_seed(tail);
  ASSERT_FALSE(seed.empty());
  ASSERT_LT(tail, seed.size());
  EXPECT_EQ(fuzz::check_physics(seed), "");
  const float specials[] = {std::numeric_limits<float>::quiet_NaN(), std::numeric_limits<float>::infinity(),
                            -std::numeric_limits<float>::infinity(), 3e38f, -3e38f, 1e20f, -1e20f, 0.0f, -0.0f,
                            1e-30f, -1.0f, -1000.0f, 1000.0f};
  std::uint64_t state = 0x9E3779B97F4A7C15ull;
  auto next = [&] {
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    return state;
  };
  int checked = 0;
  for (int round = 0; round < 400; ++round) {
    std::vector<std::uint8_t> b = seed;
    const int edits = 1 + static_cast<int>(next() % 6);
    for (int e = 0; e < edits; ++e) {
      const std::size_t at = tail + next() % (b.size() - tail);
      if (next() % 2) {
        b[at] = static_cast<std::uint8_t>(next());
      } else if (at + 4 <= b.size()) {
        const float v = specials[next() % std::size(specials)];
        std::memcpy(&b[at], &v, 4);
      }
    }
    const std::string finding = fuzz::check_physics(b);
    ASSERT_EQ(finding, "") << "round " << round;
    ++checked;
  }
  EXPECT_EQ(checked, 400);
}

// Inputs fuzz_physics found (scripts/fuzz.sh keeps them in tests/regress/inputs/fuzz_physics/):
// each keeps the property now. crash-a72c1a0d...: a body following its bone left non-finite by
// Bullet after the reset (src/physics/world.cpp check_bodies puts it back on its target).
TEST(PhysicsFuzz, SavedFindingsKeepTheProperty) {
  const std::filesystem::path dir = std::filesystem::path(MMDKIT_TESTS_DIR) / "regress/inputs/fuzz_physics";
  ASSERT_TRUE(std::filesystem::is_directory(dir));
  std::size_t n = 0;
  for (const auto& e : std::filesystem::directory_iterator(dir)) {
    std::ifstream in(e.path(), std::ios::binary);
    const std::vector<std::uint8_t> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    ASSERT_FALSE(bytes.empty()) << e.path();
    EXPECT_EQ(fuzz::check_physics(ByteSpan(bytes.data(), bytes.size())), "") << e.path();
    ++n;
  }
  EXPECT_GE(n, 1u);
}

}  // namespace

#endif  // MMDKIT_HAS_PHYSICS
