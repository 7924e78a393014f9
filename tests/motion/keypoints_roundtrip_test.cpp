// Keypoints → VMD: the conversion's errors, missing joints held, and the round trip of issue 17:
// a real motion → its joints on the model (keypoints_on_model) → keypoints_to_vmd → the joints
// again; the mean per-joint position error (MPJPE, MMD units) stays under the bound measured
// (docs/KEYPOINTS.md "Round trip" gives the figures).
#include <gtest/gtest.h>

#include <cmath>
#include <iostream>
#include <limits>
#include <memory>

#include "mmdkit/anim/character.hpp"
#include "mmdkit/anim/input_files.hpp"
#include "mmdkit/core/text.hpp"
#include "mmdkit/formats/pmx_generate.hpp"
#include "mmdkit/formats/vmd.hpp"
#include "mmdkit/model/model.hpp"
#include "mmdkit/motion/keypoints.hpp"
#include "support/corpus.hpp"

namespace mmdkit::motion {
namespace {

std::shared_ptr<const model::Model> humanoid() {
  pmx::GenerateOptions g;
  g.vertices = 0;
  g.morphs = 0;
  auto pmx = pmx::generate(g);
  auto m = model::from_pmx(*pmx, {.geometry = false});
  return std::make_shared<const model::Model>(std::move(*m));
}

std::shared_ptr<const anim::CharacterData> bind_motion(std::shared_ptr<const model::Model> m, const vmd::Motion* mo) {
  anim::MotionInputs in;
  if (mo) in.motions = {mo};
  auto d = anim::CharacterData::create(std::move(m), in);
  EXPECT_TRUE(d) << d.error().to_string();
  return *d;
}

// The layout's joints over frames first..last of a character.
Keypoints sample(std::shared_ptr<const anim::CharacterData> data, KeypointLayout layout, std::uint32_t first, std::uint32_t last) {
  anim::Character ch(data);
  Keypoints k;
  k.frames = last - first + 1;
  k.joints = static_cast<std::uint32_t>(keypoint_joint_names(layout).size());
  for (std::uint32_t f = first; f <= last; ++f) {
    EXPECT_TRUE(ch.evaluate(f));
    const auto p = keypoints_on_model(ch, layout);
    k.positions.insert(k.positions.end(), p.begin(), p.end());
  }
  return k;
}

// Mean over frames and joints (those the model has; joints first..last only when given) of the
// joint distance.
double mpjpe(const Keypoints& a, const Keypoints& b, std::uint32_t first = 0, std::uint32_t last = ~0u) {
  double sum = 0;
  std::size_t n = 0;
  for (std::size_t i = 0; i < std::size_t{a.frames} * a.joints; ++i) {
    if (i % a.joints < first || i % a.joints > last) continue;
    const float* p = &a.positions[i * 3];
    const float* q = &b.positions[i * 3];
    if (!std::isfinite(p[0]) || !std::isfinite(q[0])) continue;
    sum += double(std::hypot(p[0] - q[0], p[1] - q[1], p[2] - q[2]));
    ++n;
  }
  return n ? sum / double(n) : std::numeric_limits<double>::infinity();
}

// In MMD axes (the input axes default to right-handed: negate Z on the way in).
KeypointOptions options(KeypointLayout l) {
  KeypointOptions o;
  o.layout = l;
  o.axes = {"x", "y", "z"};
  o.scale = 1.0;
  return o;
}

TEST(KeypointsToVmd, WrongJointCountAndAxes) {
  auto m = humanoid();
  Keypoints k;
  k.frames = 2;
  k.joints = 33;
  k.positions.assign(2 * 33 * 3, 0.0f);
  auto r = keypoints_to_vmd(k, m, options(KeypointLayout::h36m17));
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, ErrorCode::invalid_argument);
  EXPECT_NE(r.error().message.find("layout h36m17 has 17 joints, the array 33"), std::string::npos);
  k = sample(bind_motion(m, nullptr), KeypointLayout::h36m17, 0, 1);
  KeypointOptions o = options(KeypointLayout::h36m17);
  o.axes = {"x", "x", "z"};
  EXPECT_FALSE(keypoints_to_vmd(k, m, o));
  o.axes = {"x", "w", "z"};
  EXPECT_FALSE(keypoints_to_vmd(k, m, o));
}

TEST(KeypointsToVmd, RestPoseGivesTheRestPose) {
  auto m = humanoid();
  const Keypoints k = sample(bind_motion(m, nullptr), KeypointLayout::smpl24, 0, 3);
  auto vmd = keypoints_to_vmd(k, m, options(KeypointLayout::smpl24));
  ASSERT_TRUE(vmd) << vmd.error().to_string();
  const Keypoints back = sample(bind_motion(m, &*vmd), KeypointLayout::smpl24, 0, 3);
  EXPECT_LT(mpjpe(k, back), 1e-3);
}

TEST(KeypointsToVmd, NeverValidJointIsNamedAndMissingJointsHold) {
  auto m = humanoid();
  Keypoints k = sample(bind_motion(m, nullptr), KeypointLayout::h36m17, 0, 4);
  // joint 13 (left wrist) missing in frames 2..4: held at frame 1's position
  for (std::uint32_t f = 2; f < 5; ++f) k.positions[(f * 17 + 13) * 3 + 1] = std::numeric_limits<float>::quiet_NaN();
  KeypointReport rep;
  auto vmd = keypoints_to_vmd(k, m, options(KeypointLayout::h36m17), &rep);
  ASSERT_TRUE(vmd) << vmd.error().to_string();
  EXPECT_EQ(rep.missing, 3u);
  for (std::uint32_t f = 0; f < 5; ++f) k.positions[(f * 17 + 13) * 3] = std::numeric_limits<float>::quiet_NaN();
  auto r = keypoints_to_vmd(k, m, options(KeypointLayout::h36m17));
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message.find("joint 13 'left_wrist' has no valid position in any frame"), std::string::npos)
      << r.error().message;
  // low confidence counts as missing
  Keypoints c = sample(bind_motion(m, nullptr), KeypointLayout::h36m17, 0, 2);
  c.confidence.assign(3 * 17, 1.0f);
  c.confidence[1 * 17 + 5] = 0.1f;
  ASSERT_TRUE(keypoints_to_vmd(c, m, options(KeypointLayout::h36m17), &rep));
  EXPECT_EQ(rep.missing, 1u);
}

struct Pair {
  const char* model;
  const char* motion;
  std::uint32_t last;  // 0 = the motion's last frame
  double raw, smoothed;  // MPJPE bounds (MMD units): measured + margin, docs/KEYPOINTS.md
  double mp_raw, mp_smoothed;  // the same for mediapipe33 (33 joints: hands and feet included)
};

TEST(KeypointsRoundTrip, CorpusMpjpe) {
  MMDKIT_REQUIRE_CORPUS();
  const Pair pairs[] = {
      {"jomin398__jomin398.github.io/docs/assets/models/mmd/miku_v2/miku_v2.pmd",
       "moeru-ai__three-mmd/examples/vanilla/src/assets/vmds/wavefile_v2.vmd", 0, 0.20, 0.36, 0.24, 0.45},
      {"mmdagent__mmdagent-mirror/MMDAgent_Example/Model/mei/mei.pmd",
       "mmdagent__mmdagent-mirror/MMDAgent_Example/Motion/mei_greeting/mei_greeting.vmd", 0, 0.09, 0.14, 0.18, 0.21},
      {"mmdagent__mmdagent-mirror/MMDAgent_Example/Model/mei/mei.pmd",
       "mmdagent__mmdagent-mirror/MMDAgent_Example/Motion/mei_guide/mei_guide_happy.vmd", 0, 0.05, 0.05, 0.06, 0.06},
  };
  for (const Pair& p : pairs) {
    auto mf = test::corpus_file(p.model);
    auto vf = test::corpus_file(p.motion);
    if (!mf || !vf) continue;
    std::vector<Warning> w;
    auto mm = anim::read_model_file(mf->path, {.encoding = {}, .geometry = false}, w);
    ASSERT_TRUE(mm);
    auto m = std::make_shared<const model::Model>(std::move(*mm));
    auto mo = anim::read_motion_file(vf->path, {}, w);
    ASSERT_TRUE(mo && mo->motion);
    auto data = bind_motion(m, &*mo->motion);
    const std::uint32_t last = p.last ? p.last : data->last_frame();
    for (KeypointLayout layout : {KeypointLayout::h36m17, KeypointLayout::smpl24, KeypointLayout::mediapipe33}) {
      const Keypoints k = sample(data, layout, 0, last);
      for (bool smooth : {false, true}) {
        KeypointOptions o = options(layout);
        o.scale = 0;  // automatic, from the leg lengths
        if (smooth) o.smoothing = OneEuro{};
        KeypointReport rep;
        auto vmd = keypoints_to_vmd(k, m, o, &rep);
        ASSERT_TRUE(vmd) << vmd.error().to_string();
        const Keypoints back = sample(bind_motion(m, &*vmd), layout, 0, last);
        const double e = mpjpe(k, back);
        std::cout << p.motion << " " << keypoint_layout_name(layout) << (smooth ? " smoothed" : " raw") << ": frames "
                  << rep.frames << ", MPJPE " << e << " units";
        if (layout == KeypointLayout::mediapipe33) std::cout << " (hands 15-22: " << mpjpe(k, back, 15, 22) << ")";
        std::cout << ", scale " << rep.scale << ", contact frames "
                  << rep.contact_frames << ", keys " << rep.keys << " (" << rep.keys_dropped << " reduced)\n";
        const bool mp = layout == KeypointLayout::mediapipe33;
        EXPECT_LT(e, smooth ? (mp ? p.mp_smoothed : p.smoothed) : (mp ? p.mp_raw : p.raw)) << p.motion << " " << keypoint_layout_name(layout);
      }
    }
  }
}

}  // namespace
}  // namespace mmdkit::motion
