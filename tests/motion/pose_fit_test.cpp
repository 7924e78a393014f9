// VPD conversions and fit (motion/vpd_pose.hpp, fit.hpp), checked through anim::Character.
#include <gtest/gtest.h>

#include <cmath>

#include "mmdkit/formats/pmx_generate.hpp"
#include "mmdkit/motion/fit.hpp"
#include "mmdkit/motion/vpd_pose.hpp"
#include "motion/motion_test_util.hpp"

namespace mmdkit::motion {
namespace {

TEST(Pose, AFrameBecomesAPoseAndBack) {
  const vmd::Motion m = test::generated(13, 60, 300);
  const auto model = test::humanoid();
  auto pose = pose_from_motion(model, m, {23.5, "model.pmx"});
  ASSERT_TRUE(pose);
  EXPECT_GT(pose->bones.size(), 10u);
  EXPECT_GT(pose->morphs.size(), 0u);
  // Through the VPD file and back into a one-key motion: frame 0 of it = frame 23.5 of the input.
  auto bytes = vpd::write(*pose);
  ASSERT_TRUE(bytes);
  auto read = vpd::read(*bytes);
  ASSERT_TRUE(read);
  auto one = motion_from_pose(*read, 0);
  ASSERT_TRUE(one);
  EXPECT_EQ(one->bone_keys.size(), pose->bones.size());
  EXPECT_EQ(one->model_name.text, "model");
  anim::MotionInputs in;
  in.motions = {&m};
  auto da = anim::CharacterData::create(model, in);
  in.motions = {&*one};
  auto db = anim::CharacterData::create(model, in);
  ASSERT_TRUE(da && db);
  // IK off on both: a pose holds no IK switches (the motion's property keys turn leg IK off at
  // some frames, the one-key motion has none).
  anim::Character a(*da), b(*db);
  a.set_ik(false);
  b.set_ik(false);
  ASSERT_TRUE(a.evaluate(23.5) && b.evaluate(0));
  for (std::size_t i = 0; i < a.pose().model_positions().size(); ++i)
    for (int c = 0; c < 3; ++c) EXPECT_NEAR(a.pose().model_positions()[i][c], b.pose().model_positions()[i][c], 1e-4) << i;
  for (std::size_t i = 0; i < a.morph_weights().size(); ++i) EXPECT_NEAR(a.morph_weights()[i], b.morph_weights()[i], 1e-6);
  EXPECT_FALSE(pose_from_motion(model, m, {-1, ""}));
}

std::shared_ptr<const model::Model> view(const pmx::Model& p) {
  auto v = model::from_pmx(p, model::BuildOptions{false});
  EXPECT_TRUE(v);
  return std::make_shared<const model::Model>(std::move(*v));
}

pmx::Model generated_pmx() {
  pmx::GenerateOptions o;
  o.vertices = 0;
  return *pmx::generate(o);
}

// A target 1.25 times as large: the leg ratios are 1.25, and the fitted motion poses every bone at
// 1.25 times the source's position (IK included: the targets scale with the chain).
TEST(Fit, ScaledModelPosesScaled) {
  pmx::Model big = generated_pmx();
  for (auto& b : big.bones) {
    for (float& c : b.position) c *= 1.25f;
    for (float& c : b.tail_offset) c *= 1.25f;
  }
  vmd::Motion m;
  m.bone_names = {test::name("センター"), test::name("左足ＩＫ"), test::name("上半身"), test::name("左腕")};
  m.bone_keys = {test::key(0, 0, {1, -2, 0.5f}), test::key(1, 0, {0.3f, 1.0f, -0.4f}),
                 test::key(2, 0, {0, 0, 0}, {0.1f, 0.2f, 0, 0.97f}), test::key(3, 0, {0, 0, 0}, {0, 0, 0.3f, 0.95f})};
  FitReport r;
  auto fitted = fit(m, *test::humanoid(), *view(big), {}, &r);
  ASSERT_TRUE(fitted);
  EXPECT_NEAR(r.xz_ratio, 1.25, 1e-6);
  EXPECT_NEAR(r.y_ratio, 1.25, 1e-6);
  EXPECT_EQ(r.scaled.size(), 2u);
  EXPECT_FLOAT_EQ(fitted->bone_keys[0].position[1], -2.5f);
  const auto a = test::evaluate(test::humanoid(), m, 0, 0), b = test::evaluate(view(big), *fitted, 0, 0);
  for (std::size_t i = 0; i < a[0].positions.size(); ++i)
    for (int c = 0; c < 3; ++c) EXPECT_NEAR(b[0].positions[i][c], 1.25 * double(a[0].positions[i][c]), 2e-4) << i;
}

Vec3 rotate_about(const Vec3& p, const Vec3& pivot, float angle) {  // about Z
  const float x = p[0] - pivot[0], y = p[1] - pivot[1];
  return {pivot[0] + x * std::cos(angle) - y * std::sin(angle), pivot[1] + x * std::sin(angle) + y * std::cos(angle), p[2]};
}

// A target whose arms rest 20° lower: after fit, each arm segment of the posed target points the
// way it points on the posed source.
TEST(Fit, ArmRestAngleCorrected) {
  pmx::Model low = generated_pmx();
  auto idx = [&](const char* n) {
    for (std::size_t i = 0; i < low.bones.size(); ++i)
      if (low.bones[i].name.text == n) return i;
    return std::size_t(-1);
  };
  for (const char* side : {"左", "右"}) {
    const float angle = (std::string(side) == "左" ? -1.0f : 1.0f) * 20.0f * 3.14159265f / 180.0f;
    const Vec3 pivot = low.bones[idx((std::string(side) + "腕").c_str())].position;
    for (const char* b : {"ひじ", "手首"}) {
      auto& bone = low.bones[idx((std::string(side) + b).c_str())];
      bone.position = rotate_about(bone.position, pivot, angle);
      bone.tail_offset = rotate_about(bone.tail_offset, {0, 0, 0}, angle);
    }
  }
  vmd::Motion m;
  m.bone_names = {test::name("左腕"), test::name("左ひじ"), test::name("左手首"), test::name("右腕"), test::name("右ひじ")};
  m.bone_keys = {test::key(0, 0, {0, 0, 0}, {0.1f, 0.3f, 0.2f, 0.92f}), test::key(1, 0, {0, 0, 0}, {0, 0.5f, 0, 0.86f}),
                 test::key(2, 0, {0, 0, 0}, {0.2f, 0, 0.1f, 0.97f}), test::key(3, 0, {0, 0, 0}, {-0.2f, 0.1f, 0.3f, 0.92f}),
                 test::key(4, 0, {0, 0, 0}, {0, -0.4f, 0.1f, 0.9f})};
  FitReport r;
  const auto target = view(low);
  auto fitted = fit(m, *test::humanoid(), *target, {}, &r);
  ASSERT_TRUE(fitted);
  EXPECT_EQ(r.arm_corrected.size(), 5u);
  const auto a = test::evaluate(test::humanoid(), m, 0, 0), b = test::evaluate(target, *fitted, 0, 0);
  auto dir = [](const test::Frame& f, std::size_t from, std::size_t to) {
    Vec3 d{f.positions[to][0] - f.positions[from][0], f.positions[to][1] - f.positions[from][1], f.positions[to][2] - f.positions[from][2]};
    const float l = std::sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
    return Vec3{d[0] / l, d[1] / l, d[2] / l};
  };
  const auto& bones = test::humanoid()->bones;
  auto bi = [&](const std::string& n) {
    for (std::size_t i = 0; i < bones.size(); ++i)
      if (bones[i].name == n) return i;
    return std::size_t(0);
  };
  for (const std::string side : {"左", "右"})
    for (const auto& [x, y] : {std::pair<std::string, std::string>{"腕", "ひじ"}, {"ひじ", "手首"}}) {
      const Vec3 da = dir(a[0], bi(side + x), bi(side + y)), db = dir(b[0], bi(side + x), bi(side + y));
      for (int c = 0; c < 3; ++c) EXPECT_NEAR(da[c], db[c], 1e-4) << side << x;
    }
  // Without the correction the directions differ by the 20°.
  auto plain = fit(m, *test::humanoid(), *target, {true, false});
  ASSERT_TRUE(plain);
  const auto c = test::evaluate(target, *plain, 0, 0);
  const Vec3 da = dir(a[0], bi("左腕"), bi("左ひじ")), dc = dir(c[0], bi("左腕"), bi("左ひじ"));
  EXPECT_NEAR(double(std::acos(da[0] * dc[0] + da[1] * dc[1] + da[2] * dc[2])) * 180 / 3.14159265, 20.0, 0.1);
}

}  // namespace
}  // namespace mmdkit::motion
