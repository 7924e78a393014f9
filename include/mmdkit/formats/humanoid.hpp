// mmdkit — a format-neutral standard MMD humanoid skeleton, shared by the PMD and PMX generators.
//
// The bone names are the ones MMD motions address (VMD tracks match them by CP932 bytes):
// 全ての親, センター, 上半身, 下半身, 首, 頭, 両目/左目/右目, 左右 肩/腕/ひじ/手首, 左右 足/ひざ/足首/
// つま先, 左右 足ＩＫ/つま先ＩＫ. Positions are those of a model about 20 MMD units tall (≈ 1.6 m),
// standing at the origin, facing -Z, in MMD's left-handed Y-up model space; the character's left
// is +X. Parents always come before their children.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string_view>

namespace mmdkit::humanoid {

/// One bone of the standard skeleton.
struct BoneSpec {
  std::string_view name;     ///< Japanese name, UTF-8 (all encodable in CP932)
  std::string_view name_en;  ///< English name as PmxEditor's translation table gives it
  std::int32_t parent;       ///< index in bones(), -1 = root
  std::array<float, 3> position;  ///< head position, model space, MMD units
  std::int32_t tail;         ///< bone the tail points at (index), -1 = use tail_offset
  std::array<float, 3> tail_offset;  ///< tail minus head when tail == -1, MMD units
  bool movable;              ///< translatable in MMD (全ての親, センター, IK bones)
  bool visible;              ///< shown in MMD (false for the IK chain tips such as つま先)
  std::int32_t append_parent;  ///< append (付与) rotation source, -1 = none
  float append_ratio;        ///< append weight (1 = copy the source rotation)
  bool deforms;              ///< skins vertices (false for root, IK handles and tips)
};

/// One IK chain: an IK handle bone that pulls `target` (the effector) along the links.
struct IkSpec {
  std::int32_t ik_bone;            ///< index of the IK handle (e.g. 左足ＩＫ)
  std::int32_t target;             ///< effector (e.g. 左足首)
  std::array<std::int32_t, 2> links;  ///< from the effector's parent upward (e.g. 左ひざ, 左足)
  std::int32_t link_count;         ///< 1 or 2 entries of `links` used
  std::int32_t iterations;         ///< CCD loop count (40 for legs, 3 for toes, as common models)
  /// Maximum rotation per link per iteration, radians, PMX convention (PMD stores this value / 4).
  float limit_angle;
  /// First link is a knee: limited to the X axis, [-180°, -0.5°] in PMX (radians below), the
  /// range MMD forces on bones named 左ひざ / 右ひざ.
  bool knee;
};

/// Knee limits for PMX IK links (radians, Euler X Y Z): lower and upper.
inline constexpr std::array<float, 3> kKneeLower{-3.14159274f, 0.0f, 0.0f};
inline constexpr std::array<float, 3> kKneeUpper{-0.00872664626f, 0.0f, 0.0f};

/// The bones, parents first (29 bones).
std::span<const BoneSpec> bones() noexcept;
/// The four leg IK chains (左足ＩＫ, 右足ＩＫ, 左つま先ＩＫ, 右つま先ＩＫ).
std::span<const IkSpec> ik_chains() noexcept;
/// Index of a bone by its Japanese name; -1 if not in the set.
std::int32_t find_bone(std::string_view name) noexcept;

}  // namespace mmdkit::humanoid
