// Scene physics: every model of a scene in one world (physics/scene_physics.hpp).
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>

#include "mmdkit/anim/input_files.hpp"
#include "mmdkit/physics/character_physics.hpp"
#include "mmdkit/physics/scene_physics.hpp"
#include "scene/scene_fixture.hpp"
#include "support/corpus.hpp"

namespace mmdkit::physics {
namespace {

namespace fs = std::filesystem;

// A generated humanoid whose only rigid body is a simulated sphere (radius 1) on 頭, colliding
// with every group; no joints, so with no gravity it stays where it is unless pushed.
fs::path ball_head_model(const fs::path& dir, const std::string& name) {
  pmx::Model m = scene::test::generated_model(7, 100);
  std::int32_t head = -1;
  for (std::size_t i = 0; i < m.bones.size(); ++i)
    if (m.bones[i].name.text == "頭") head = static_cast<std::int32_t>(i);
  EXPECT_GE(head, 0);
  pmx::RigidBody b{};
  b.name.text = "ball";
  b.bone = head;
  b.group = 0;
  b.collision_mask = 0xFFFF;
  b.shape = 0;
  b.size = {1, 1, 1};
  b.position = m.bones[static_cast<std::size_t>(head)].position;
  b.mass = 1;
  b.mode = 1;
  m.rigid_bodies = {b};
  m.joints.clear();
  m.soft_bodies.clear();
  return scene::test::write_model(dir, name, m);
}

Vec3 head_world(const scene::Scene& s, std::size_t i) {
  const std::int32_t h = s.character(i).data().skeleton().find("頭");
  return scene::transform_point(s.character_placement(i), s.character(i).pose().model_positions()[static_cast<std::size_t>(h)]);
}

float distance(Vec3 a, Vec3 b) {
  return std::sqrt((a[0] - b[0]) * (a[0] - b[0]) + (a[1] - b[1]) * (a[1] - b[1]) + (a[2] - b[2]) * (a[2] - b[2]));
}

Settings no_gravity() {
  Settings s;
  s.gravity = {0, 0, 0};
  s.warmup_steps = 0;
  return s;
}

TEST(ScenePhysics, BodiesOfTwoModelsCollideInOneWorld) {
  const fs::path dir = mmdkit::test::temp_dir("scene_physics");
  const fs::path model = ball_head_model(dir, "ball.pmx");
  scene::SceneDescription d;
  d.models.push_back({model, {}, {}});
  d.models.push_back({model, {}, scene::Placement{{0.5f, 0, 0}, {}, 1.0f}});  // heads 0.5 apart, radii 1
  std::vector<mmdkit::Warning> w;
  auto s = scene::Scene::load(d, {}, w);
  ASSERT_TRUE(s.has_value()) << s.error().to_string();
  auto sp = ScenePhysics::create(*s, no_gravity());
  ASSERT_TRUE(sp.has_value()) << sp.error().to_string();
  EXPECT_EQ((*sp)->body_count(), 2u);
  ASSERT_TRUE((*sp)->evaluate(0).has_value());
  const Vec3 a0 = head_world(*s, 0), b0 = head_world(*s, 1);
  EXPECT_NEAR(distance(head_world(*s, 0), head_world(*s, 1)), 0.5f, 1e-3f) << "frame 0: bodies on their bones";
  ASSERT_TRUE((*sp)->evaluate(60).has_value());
  // In one world the spheres overlap by 1.5 and are pushed apart towards 2 (their radii's sum);
  // the heads follow their bodies.
  const float together = distance(head_world(*s, 0), head_world(*s, 1));
  EXPECT_GT(together, 1.5f);
  EXPECT_LT(together, 3.0f);

  // The same two models in separate worlds: nothing touches, the heads stay where they were.
  auto s2 = scene::Scene::load(d, {}, w);
  ASSERT_TRUE(s2.has_value());
  CharacterPhysics p0(s2->character(0), no_gravity()), p1(s2->character(1), no_gravity());
  ASSERT_TRUE(p0.evaluate(60).has_value());
  ASSERT_TRUE(p1.evaluate(60).has_value());
  EXPECT_NEAR(distance(head_world(*s2, 0), head_world(*s2, 1)), 0.5f, 1e-3f);
  EXPECT_NEAR(distance(head_world(*s2, 0), a0), 0.0f, 1e-3f);
  EXPECT_NEAR(distance(head_world(*s2, 1), b0), 0.0f, 1e-3f);
}

TEST(ScenePhysics, OneModelSceneGivesTheBytesOfCharacterPhysicsAndAnyOrderOfFrames) {
  const fs::path dir = mmdkit::test::temp_dir("scene_physics_one");
  const fs::path model = scene::test::write_model(dir, "m.pmx", 3, 200);  // the generator's head + upper body
  const fs::path motion = scene::test::write_motion(dir, "m.vmd", 4, 20, 200);
  scene::SceneDescription d;
  d.models.push_back({model, {motion}, {}});
  std::vector<mmdkit::Warning> w;
  auto s = scene::Scene::load(d, {}, w);
  ASSERT_TRUE(s.has_value());
  auto sp = ScenePhysics::create(*s);
  ASSERT_TRUE(sp.has_value());
  ASSERT_GT((*sp)->body_count(), 0u);
  const fs::path motions[] = {motion};
  auto loaded = anim::load_character(model, motions, {});
  ASSERT_TRUE(loaded.has_value());
  anim::Character ch(loaded->data);
  CharacterPhysics cp(ch);
  for (std::uint32_t f : {0u, 5u, 12u, 3u, 20u, 20u}) {
    ASSERT_TRUE((*sp)->evaluate(f).has_value());
    ASSERT_TRUE(cp.evaluate(f).has_value());
    const auto a = s->character(0).pose().model_matrices(), b = ch.pose().model_matrices();
    EXPECT_EQ(std::memcmp(a.data(), b.data(), a.size_bytes()), 0) << "frame " << f;
  }
}

// Half frames (render --fps 60): sample k at 2 per frame of a one-model scene is CharacterPhysics'
// sample k at that rate, byte for byte, in any order; a rate that does not divide the world's
// substeps is refused.
TEST(ScenePhysics, OneModelSceneHalfFramesGiveTheBytesOfCharacterPhysics) {
  const fs::path dir = mmdkit::test::temp_dir("scene_physics_half");
  const fs::path model = scene::test::write_model(dir, "m.pmx", 3, 200);
  const fs::path motion = scene::test::write_motion(dir, "m.vmd", 4, 20, 200);
  scene::SceneDescription d;
  d.models.push_back({model, {motion}, {}});
  std::vector<mmdkit::Warning> w;
  auto s = scene::Scene::load(d, {}, w);
  ASSERT_TRUE(s.has_value());
  auto sp = ScenePhysics::create(*s);
  ASSERT_TRUE(sp.has_value());
  ASSERT_GT((*sp)->body_count(), 0u);
  const fs::path motions[] = {motion};
  auto loaded = anim::load_character(model, motions, {});
  ASSERT_TRUE(loaded.has_value());
  anim::Character ch(loaded->data);
  CharacterPhysics cp(ch);
  for (std::uint64_t k : {0u, 1u, 7u, 8u, 3u, 25u, 25u}) {
    ASSERT_TRUE((*sp)->evaluate_sample(k, 2).has_value());
    ASSERT_TRUE(cp.evaluate_sample(k, 2).has_value());
    EXPECT_EQ((*sp)->last_frame(), static_cast<std::int64_t>(k));
    const auto a = s->character(0).pose().model_matrices(), b = ch.pose().model_matrices();
    EXPECT_EQ(std::memcmp(a.data(), b.data(), a.size_bytes()), 0) << "sample " << k;
  }
  // A half frame differs from both whole neighbours (the simulation moved in between).
  ASSERT_TRUE((*sp)->evaluate_sample(13, 2).has_value());
  const std::vector<Mat4> half(s->character(0).pose().model_matrices().begin(), s->character(0).pose().model_matrices().end());
  ASSERT_TRUE((*sp)->evaluate(6).has_value());
  EXPECT_NE(std::memcmp(half.data(), s->character(0).pose().model_matrices().data(), half.size() * sizeof(Mat4)), 0);
  const auto bad = (*sp)->evaluate_sample(3, 7);
  ASSERT_FALSE(bad.has_value());
  EXPECT_EQ(bad.error().code, ErrorCode::invalid_argument);
}

TEST(ScenePhysics, PlacedModelSimulatesLikeTheModelAtTheOrigin) {
  const fs::path dir = mmdkit::test::temp_dir("scene_physics_placed");
  const fs::path model = scene::test::write_model(dir, "m.pmx", 3, 200);
  const fs::path motion = scene::test::write_motion(dir, "m.vmd", 4, 20, 200);
  scene::SceneDescription d;
  d.models.push_back({model, {motion}, {}});
  d.models.push_back({model, {motion}, scene::Placement{{40, 0, 0}, {0, 90, 0}, 1.0f}});  // far apart
  std::vector<mmdkit::Warning> w;
  auto s = scene::Scene::load(d, {}, w);
  ASSERT_TRUE(s.has_value());
  Settings st;
  st.gravity = {0, 0, 0};  // gravity is world -Y; a turned model about Y feels the same
  auto sp = ScenePhysics::create(*s, st);
  ASSERT_TRUE(sp.has_value());
  ASSERT_TRUE((*sp)->evaluate(20).has_value());
  const auto a = s->character(0).pose().model_matrices(), b = s->character(1).pose().model_matrices();
  for (std::size_t i = 0; i < a.size(); ++i)
    for (std::size_t k = 0; k < 16; ++k) EXPECT_NEAR(a[i][k], b[i][k], 2e-3f) << "bone " << i << " element " << k;
  // Scale with rigid bodies is refused.
  d.models[1].placement.scale = 2;
  auto s3 = scene::Scene::load(d, {}, w);
  ASSERT_TRUE(s3.has_value());
  auto bad = ScenePhysics::create(*s3);
  ASSERT_FALSE(bad.has_value());
  EXPECT_EQ(bad.error().message.rfind("models[1].scale: ", 0), 0u) << bad.error().message;
}


// The scene's gravity (SceneDescription::gravity, MMD units / s²): a free ball (no damping, no
// joints) falls along it. Semi-implicit Euler at 60 steps / s: after n steps v = n · g / 60 exactly
// (Bullet: v += g·dt, then x += v·dt; tests/physics/analytic_test.cpp). The gravity of the step into
// frame F is the key at or before F: keys (0, −98, 0) at 0 and (0, 98, 0) at 10 give 18 steps down
// and 22 up by frame 20. Sideways gravity moves it sideways by what MMD's gravity drops it.
TEST(ScenePhysics, SceneGravityKeysPullTheBodiesAlongThem) {
  const fs::path dir = mmdkit::test::temp_dir("scene_gravity");
  const fs::path model = ball_head_model(dir, "ball.pmx");
  Settings st;
  st.warmup_steps = 0;
  auto run = [&](std::vector<scene::GravityKey> gravity, bool ground, std::uint32_t frame, Vec3& moved, Vec3& velocity) {
    scene::SceneDescription d;
    d.models.push_back({model, {}, {}});
    d.gravity = std::move(gravity);
    d.physics_ground = ground;
    std::vector<mmdkit::Warning> w;
    auto s = scene::Scene::load(d, {}, w);
    ASSERT_TRUE(s.has_value()) << s.error().to_string();
    auto sp = ScenePhysics::create(*s, st);
    ASSERT_TRUE(sp.has_value()) << sp.error().to_string();
    ASSERT_TRUE((*sp)->evaluate(0).has_value());
    const Vec3 start = head_world(*s, 0);
    ASSERT_TRUE((*sp)->evaluate(frame).has_value());
    const Vec3 end = head_world(*s, 0);
    moved = {end[0] - start[0], end[1] - start[1], end[2] - start[2]};
    velocity = (*sp)->character_physics(0)->body_linear_velocity(0);
  };
  Vec3 down{}, v_down{}, side{}, v_side{}, keyed{}, v_keyed{}, floor{}, v_floor{};
  run({}, false, 20, down, v_down);
  EXPECT_NEAR(v_down[1], -40 * 98.0 / 60, 1e-3) << "MMD's default gravity";
  EXPECT_LT(down[1], -10.0f);
  run({{0, {98, 0, 0}}}, false, 20, side, v_side);
  EXPECT_NEAR(v_side[0], 40 * 98.0 / 60, 1e-3);
  EXPECT_NEAR(v_side[1], 0, 1e-5);
  EXPECT_NEAR(side[0], -down[1], 1e-3) << "sideways by what the default drops";
  EXPECT_NEAR(side[1], 0, 1e-4);
  run({{0, {0, -98, 0}}, {10, {0, 98, 0}}}, false, 20, keyed, v_keyed);
  EXPECT_NEAR(v_keyed[1], (22 - 18) * 98.0 / 60, 1e-3) << "18 steps down, then 22 up";
  // The physics ground (MMD's 物理床): the ball (radius 1) lands on y = 0 instead of falling through.
  run({}, true, 60, floor, v_floor);
  scene::SceneDescription d;
  d.models.push_back({model, {}, {}});
  std::vector<mmdkit::Warning> w;
  auto s = scene::Scene::load(d, {}, w);
  ASSERT_TRUE(s.has_value());
  ASSERT_TRUE(s->evaluate(0).has_value());
  const float rest_y = head_world(*s, 0)[1];
  EXPECT_NEAR(rest_y + floor[1], 1.0f, 0.1f) << "resting on the ground";
}

// Outside parents with physics (Scene::apply_outside_parents between the halves): model 1's センター
// follows model 0's 頭 (placed elsewhere); with physics its bones before physics are those of the
// scene evaluated without physics, bit for bit, and its ball starts on its moved 頭.
TEST(ScenePhysics, OutsideParentsMoveTheBonesTheBodiesFollow) {
  const fs::path dir = mmdkit::test::temp_dir("scene_physics_parents");
  const fs::path model = ball_head_model(dir, "ball.pmx");
  scene::SceneDescription d;
  d.models.push_back({model, {}, scene::Placement{{30, 0, 0}, {}, 1.0f}});
  d.models.push_back({model, {}, {}});
  d.models[1].parents = {{0, "センター", 0, "頭"}};
  std::vector<mmdkit::Warning> w;
  auto plain = scene::Scene::load(d, {}, w);
  auto s = scene::Scene::load(d, {}, w);
  ASSERT_TRUE(plain.has_value() && s.has_value());
  auto sp = ScenePhysics::create(*s, no_gravity());
  ASSERT_TRUE(sp.has_value()) << sp.error().to_string();
  ASSERT_TRUE((*sp)->evaluate(0).has_value());
  ASSERT_TRUE(plain->evaluate(0).has_value());
  const auto center = static_cast<std::size_t>(s->character(1).data().skeleton().find("センター"));
  EXPECT_EQ(s->character(1).pose().model_positions()[center], plain->character(1).pose().model_positions()[center]);
  EXPECT_GT(plain->character(1).pose().model_positions()[center][0], 20.0f) << "moved onto model 0's 頭";
  Quat q;
  Vec3 ball;
  (*sp)->character_physics(1)->body_transform(0, q, ball);
  EXPECT_LT(distance(ball, head_world(*plain, 1)), 1e-3f) << "the ball starts on the moved 頭";
}

}  // namespace
}  // namespace mmdkit::physics
