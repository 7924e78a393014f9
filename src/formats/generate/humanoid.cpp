#include "mmdkit/formats/humanoid.hpp"

namespace mmdkit::humanoid {
namespace {

using V = std::array<float, 3>;
constexpr V kZ{0, 0, 0};

// clang-format off
constexpr BoneSpec kBones[] = {
  // name          name_en              parent position              tail tail_offset      movable visible append ratio deforms
  {"全ての親",     "mother",            -1, {0.0f, 0.0f, 0.0f},     1,  kZ,               true,  true,  -1, 0, false},  // 0
  {"センター",     "center",             0, {0.0f, 8.0f, 0.0f},    -1,  {0, -2.0f, 0},    true,  true,  -1, 0, false},  // 1
  {"上半身",       "upper body",         1, {0.0f, 11.6f, 0.3f},    3,  kZ,               false, true,  -1, 0, true},   // 2
  {"首",           "neck",               2, {0.0f, 15.9f, 0.4f},    4,  kZ,               false, true,  -1, 0, true},   // 3
  {"頭",           "head",               3, {0.0f, 16.9f, 0.1f},   -1,  {0, 2.2f, 0},     false, true,  -1, 0, true},   // 4
  {"下半身",       "lower body",         1, {0.0f, 11.6f, 0.3f},   -1,  {0, -1.6f, 0},    false, true,  -1, 0, true},   // 5
  {"左肩",         "shoulder_L",         2, {0.5f, 15.4f, 0.5f},    7,  kZ,               false, true,  -1, 0, true},   // 6
  {"左腕",         "arm_L",              6, {1.6f, 15.0f, 0.6f},    8,  kZ,               false, true,  -1, 0, true},   // 7
  {"左ひじ",       "elbow_L",            7, {3.7f, 13.4f, 0.7f},    9,  kZ,               false, true,  -1, 0, true},   // 8
  {"左手首",       "wrist_L",            8, {5.6f, 11.9f, 0.4f},   -1,  {1.0f, -0.8f, 0}, false, true,  -1, 0, true},   // 9
  {"右肩",         "shoulder_R",         2, {-0.5f, 15.4f, 0.5f},  11,  kZ,               false, true,  -1, 0, true},   // 10
  {"右腕",         "arm_R",             10, {-1.6f, 15.0f, 0.6f},  12,  kZ,               false, true,  -1, 0, true},   // 11
  {"右ひじ",       "elbow_R",           11, {-3.7f, 13.4f, 0.7f},  13,  kZ,               false, true,  -1, 0, true},   // 12
  {"右手首",       "wrist_R",           12, {-5.6f, 11.9f, 0.4f},  -1,  {-1.0f, -0.8f, 0},false, true,  -1, 0, true},   // 13
  {"左足",         "leg_L",              5, {0.9f, 10.6f, 0.3f},   15,  kZ,               false, true,  -1, 0, true},   // 14
  {"左ひざ",       "knee_L",            14, {0.9f, 6.0f, 0.0f},    16,  kZ,               false, true,  -1, 0, true},   // 15
  {"左足首",       "ankle_L",           15, {0.9f, 1.2f, 0.6f},    17,  kZ,               false, true,  -1, 0, true},   // 16
  {"左つま先",     "toe_L",             16, {0.9f, 0.0f, -1.4f},   -1,  {0, 0, -0.5f},    false, false, -1, 0, false},  // 17
  {"右足",         "leg_R",              5, {-0.9f, 10.6f, 0.3f},  19,  kZ,               false, true,  -1, 0, true},   // 18
  {"右ひざ",       "knee_R",            18, {-0.9f, 6.0f, 0.0f},   20,  kZ,               false, true,  -1, 0, true},   // 19
  {"右足首",       "ankle_R",           19, {-0.9f, 1.2f, 0.6f},   21,  kZ,               false, true,  -1, 0, true},   // 20
  {"右つま先",     "toe_R",             20, {-0.9f, 0.0f, -1.4f},  -1,  {0, 0, -0.5f},    false, false, -1, 0, false},  // 21
  {"左足ＩＫ",     "leg IK_L",           0, {0.9f, 1.2f, 0.6f},    -1,  {0, 0, 1.5f},     true,  true,  -1, 0, false},  // 22
  {"左つま先ＩＫ", "toe IK_L",          22, {0.9f, 0.0f, -1.4f},   -1,  {0, -1.0f, 0},    true,  true,  -1, 0, false},  // 23
  {"右足ＩＫ",     "leg IK_R",           0, {-0.9f, 1.2f, 0.6f},   -1,  {0, 0, 1.5f},     true,  true,  -1, 0, false},  // 24
  {"右つま先ＩＫ", "toe IK_R",          24, {-0.9f, 0.0f, -1.4f},  -1,  {0, -1.0f, 0},    true,  true,  -1, 0, false},  // 25
  {"両目",         "eyes",               4, {0.0f, 18.0f, -1.0f},  -1,  {0, 0, -1.0f},    false, true,  -1, 0, false},  // 26
  {"左目",         "eye_L",              4, {0.35f, 17.8f, -0.6f}, -1,  {0, 0, -0.5f},    false, false, 26, 1.0f, true}, // 27
  {"右目",         "eye_R",              4, {-0.35f, 17.8f, -0.6f},-1,  {0, 0, -0.5f},    false, false, 26, 1.0f, true}, // 28
};

constexpr IkSpec kIk[] = {
  {22, 16, {15, 14}, 2, 40, 2.0f, true},   // 左足ＩＫ → 左足首 via 左ひざ, 左足
  {23, 17, {16, 0},  1, 3,  4.0f, false},  // 左つま先ＩＫ → 左つま先 via 左足首
  {24, 20, {19, 18}, 2, 40, 2.0f, true},   // 右足ＩＫ
  {25, 21, {20, 0},  1, 3,  4.0f, false},  // 右つま先ＩＫ
};
// clang-format on

}  // namespace

std::span<const BoneSpec> bones() noexcept { return kBones; }
std::span<const IkSpec> ik_chains() noexcept { return kIk; }

std::int32_t find_bone(std::string_view name) noexcept {
  for (std::size_t i = 0; i < std::size(kBones); ++i)
    if (kBones[i].name == name) return static_cast<std::int32_t>(i);
  return -1;
}

}  // namespace mmdkit::humanoid
