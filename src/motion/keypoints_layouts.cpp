// mmdkit motion — the keypoint layouts and their joints on an MMD model (motion/keypoints.hpp;
// docs/KEYPOINTS.md "Layouts" cites the source of each order).
#include <array>
#include <cmath>
#include <limits>

#include "mmdkit/anim/character.hpp"
#include "mmdkit/model/model.hpp"
#include "mmdkit/motion/keypoints.hpp"
#include "motion/dmath.hpp"
#include "motion/keypoints_internal.hpp"

namespace mmdkit::motion {
namespace {

// Human3.6M 17 joints as VideoPose3D (Pavllo et al. 2019, common/h36m_dataset.py) orders them.
constexpr std::string_view kH36m[] = {"pelvis",     "right_hip",  "right_knee", "right_ankle", "left_hip",     "left_knee",
                                      "left_ankle", "spine",      "thorax",     "neck_nose",   "head",         "left_shoulder",
                                      "left_elbow", "left_wrist", "right_shoulder", "right_elbow", "right_wrist"};
// COCO person keypoints (Lin et al. 2014; cocodataset.org keypoint order).
constexpr std::string_view kCoco[] = {"nose",          "left_eye",      "right_eye",   "left_ear",     "right_ear",
                                      "left_shoulder", "right_shoulder", "left_elbow", "right_elbow",  "left_wrist",
                                      "right_wrist",   "left_hip",      "right_hip",   "left_knee",    "right_knee",
                                      "left_ankle",    "right_ankle"};
// MediaPipe Pose landmarks (Bazarevsky et al. 2020; BlazePose, mediapipe pose_landmark order).
constexpr std::string_view kMediapipe[] = {
    "nose",          "left_eye_inner", "left_eye",       "left_eye_outer", "right_eye_inner", "right_eye",
    "right_eye_outer", "left_ear",     "right_ear",      "mouth_left",     "mouth_right",     "left_shoulder",
    "right_shoulder", "left_elbow",    "right_elbow",    "left_wrist",     "right_wrist",     "left_pinky",
    "right_pinky",   "left_index",     "right_index",    "left_thumb",     "right_thumb",     "left_hip",
    "right_hip",     "left_knee",      "right_knee",     "left_ankle",     "right_ankle",     "left_heel",
    "right_heel",    "left_foot_index", "right_foot_index"};
// SMPL 24 joints (Loper et al. 2015; the SMPL model's kinematic tree order).
constexpr std::string_view kSmpl[] = {"pelvis",      "left_hip",       "right_hip",      "spine1",     "left_knee",
                                      "right_knee",  "spine2",         "left_ankle",     "right_ankle", "spine3",
                                      "left_foot",   "right_foot",     "neck",           "left_collar", "right_collar",
                                      "head",        "left_shoulder",  "right_shoulder", "left_elbow", "right_elbow",
                                      "left_wrist",  "right_wrist",    "left_hand",      "right_hand"};


// Where each layout joint is on an MMD model: a bone head, the midpoint of two, or a bone's head
// moved along its tail by `along` (0..1) — for the points no bone has a head at (head top).
struct ModelPoint {
  const char* a;
  const char* b = nullptr;  // midpoint with b
  float along = 0;          // a's head + along · (a's tail)
  const char* alt_a = nullptr;  // when the model lacks a (or b): alt_a's head, or the midpoint with alt_b
  const char* alt_b = nullptr;
};

constexpr ModelPoint kH36mOnModel[] = {
    {"左足", "右足"}, {"右足"}, {"右ひざ"}, {"右足首"}, {"左足"}, {"左ひざ"}, {"左足首"},
    {"上半身"},       {"首"},   {"頭"},     {"頭", nullptr, 1.0f}, {"左腕"}, {"左ひじ"}, {"左手首"},
    {"右腕"},         {"右ひじ"}, {"右手首"}};
// SMPL 24 as the Python module's joint set (python/mmdkit/joints.py, docs/PYTHON.md "smpl24"), so
// that `mmdkit dataset --joints smpl24` output reads back here.
constexpr ModelPoint kSmplOnModel[] = {
    {"左足", "右足"}, {"左足"}, {"右足"}, {"上半身"}, {"左ひざ"}, {"右ひざ"}, {"上半身2", nullptr, 0, "上半身", "首"}, {"左足首"},
    {"右足首"}, {"左肩", "右肩"}, {"左つま先"}, {"右つま先"}, {"首"}, {"左肩"}, {"右肩"}, {"頭"},
    {"左腕"}, {"右腕"}, {"左ひじ"}, {"右ひじ"}, {"左手首"}, {"右手首"}, {"左中指１", nullptr, 0, "左手首"},
    {"右中指１", nullptr, 0, "右手首"}};
constexpr ModelPoint kCocoOnModel[] = {
    {"頭", nullptr, 0.5f}, {"左目"}, {"右目"}, {nullptr}, {nullptr}, {"左腕"}, {"右腕"}, {"左ひじ"}, {"右ひじ"},
    {"左手首"},           {"右手首"}, {"左足"}, {"右足"}, {"左ひざ"}, {"右ひざ"}, {"左足首"}, {"右足首"}};
constexpr ModelPoint kMediapipeOnModel[] = {
    {"頭", nullptr, 0.5f}, {nullptr}, {"左目"}, {nullptr}, {nullptr}, {"右目"}, {nullptr}, {nullptr}, {nullptr},
    {nullptr},            {nullptr}, {"左腕"}, {"右腕"}, {"左ひじ"}, {"右ひじ"}, {"左手首"}, {"右手首"}, {"左小指１"},
    {"右小指１"},         {"左人指１"}, {"右人指１"}, {"左親指１"}, {"右親指１"}, {"左足"}, {"右足"}, {"左ひざ"},
    {"右ひざ"},           {"左足首"}, {"右足首"}, {nullptr}, {nullptr}, {"左つま先"}, {"右つま先"}};

std::span<const ModelPoint> model_points(KeypointLayout l) {
  switch (l) {
    case KeypointLayout::h36m17: return kH36mOnModel;
    case KeypointLayout::coco17: return kCocoOnModel;
    case KeypointLayout::mediapipe33: return kMediapipeOnModel;
    case KeypointLayout::smpl24: return kSmplOnModel;
  }
  return {};
}

std::int32_t bone_named(const model::Model& m, std::string_view name) {
  for (std::size_t i = 0; i < m.bones.size(); ++i)
    if (m.bones[i].name == name) return static_cast<std::int32_t>(i);
  return -1;
}

}  // namespace

std::optional<KeypointLayout> parse_keypoint_layout(std::string_view name) noexcept {
  for (KeypointLayout l : {KeypointLayout::h36m17, KeypointLayout::coco17, KeypointLayout::mediapipe33, KeypointLayout::smpl24})
    if (keypoint_layout_name(l) == name) return l;
  return std::nullopt;
}

std::string_view keypoint_layout_name(KeypointLayout l) noexcept {
  switch (l) {
    case KeypointLayout::h36m17: return "h36m17";
    case KeypointLayout::coco17: return "coco17";
    case KeypointLayout::mediapipe33: return "mediapipe33";
    case KeypointLayout::smpl24: return "smpl24";
  }
  return "?";
}

std::span<const std::string_view> keypoint_joint_names(KeypointLayout l) noexcept {
  switch (l) {
    case KeypointLayout::h36m17: return kH36m;
    case KeypointLayout::coco17: return kCoco;
    case KeypointLayout::mediapipe33: return kMediapipe;
    case KeypointLayout::smpl24: return kSmpl;
  }
  return {};
}

namespace kp {

std::vector<std::array<double, 3>> layout_on_model(const model::Model& m, KeypointLayout layout,
                                                    std::span<const Quat> rotations, std::span<const Vec3> positions) {
  const auto pts = model_points(layout);
  const double nan = std::numeric_limits<double>::quiet_NaN();
  std::vector<std::array<double, 3>> out(pts.size(), {nan, nan, nan});
  auto head = [&](std::int32_t b) {
    return positions.empty() ? dm::from_float(m.bones[static_cast<std::size_t>(b)].position)
                             : dm::from_float(positions[static_cast<std::size_t>(b)]);
  };
  for (std::size_t j = 0; j < pts.size(); ++j) {
    ModelPoint p = pts[j];
    if (!p.a) continue;
    if (bone_named(m, p.a) < 0 || (p.b && bone_named(m, p.b) < 0)) {
      if (!p.alt_a) continue;
      p = ModelPoint{p.alt_a, p.alt_b};
    }
    const std::int32_t a = bone_named(m, p.a);
    if (a < 0) continue;
    dm::V v = head(a);
    if (p.b) {
      const std::int32_t b = bone_named(m, p.b);
      if (b < 0) continue;
      v = dm::scale(dm::add(v, head(b)), 0.5);
    } else if (p.along != 0) {
      const model::Bone& bone = m.bones[static_cast<std::size_t>(a)];
      dm::V tail = bone.tail_bone >= 0 ? dm::sub(dm::from_float(m.bones[static_cast<std::size_t>(bone.tail_bone)].position),
                                                 dm::from_float(bone.position))
                                       : dm::from_float(bone.tail_offset);
      if (!(dm::norm(tail) > 1e-6)) tail = {0, 1, 0};
      const dm::Q r = rotations.empty() ? dm::kIdentity : dm::from_float(rotations[static_cast<std::size_t>(a)]);
      v = dm::add(v, dm::scale(dm::rotate(r, tail), static_cast<double>(p.along)));
    }
    out[j] = v;
  }
  return out;
}

}  // namespace kp

std::vector<float> keypoints_on_model(const anim::Character& ch, KeypointLayout layout) {
  const auto pts = kp::layout_on_model(ch.data().model(), layout, ch.pose().model_rotations(), ch.pose().model_positions());
  std::vector<float> out;
  out.reserve(pts.size() * 3);
  for (const auto& p : pts)
    for (double v : p) out.push_back(static_cast<float>(v));
  return out;
}

}  // namespace mmdkit::motion
