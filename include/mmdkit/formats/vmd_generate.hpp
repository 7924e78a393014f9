// mmdkit — synthetic VMD motions for tests, benchmarks and examples.
//
// Deterministic by seed on every platform: the generator uses its own splitmix64 PRNG and its own
// integer-to-float mapping (no std:: distributions, whose output differs between libraries).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "mmdkit/formats/vmd.hpp"

namespace mmdkit::vmd {

/// How bone keys turn and move.
enum class BoneStyle {
  /// Any rotation (unit quaternions uniform on the sphere), positions in [-10, 10] for the movable
  /// bones: every value a reader and evaluator must take, for tests and benchmarks.
  uniform,
  /// A random dance that stays in view and above the floor on a standard (MMD-named) model: each
  /// track turns about one random axis of its own (+Y for 全ての親, センター, グルーブ and the leg
  /// IK bones, whose tilt would swing the toe under the floor), each key
  /// by an angle uniform in [-A, A] degrees, A by bone — 全ての親 30, センター 20, グルーブ 10,
  /// 頭 30, 腕 and ひじ 60, 捩 / 手首 / 指 30, 肩 15, 目 and 腰 10, 足ＩＫ 15, つま先ＩＫ 0,
  /// everything else (上半身, 下半身, 首, the legs, hair, skirt, ...) 20; positions (MMD units,
  /// uniform per axis) only on the movable bones: 全ての親 none; センター x, z in [-2, 2] and
  /// y in [-1, 0.5] (the knees bend; the leg IK keeps the feet on their keys) or, when the names
  /// have no 左足ＩＫ / 右足ＩＫ to hold the feet, y in [0, 1]; グルーブ y in [-0.5, 0.5] (no leg
  /// IK: [0, 0.5]); 足ＩＫ x in [-0.5, 0.5], y in [0, 1.5], z in [-1, 1] (a foot never below
  /// its rest height); つま先ＩＫ x, z in [-0.3, 0.3], y in [0, 0.3]; other ＩＫ bones [-1, 1].
  /// So on the generated figure the centre stays within x, z in [-2.9, 2.9] (|(x, z)| <= 2√2
  /// after the root's turn), y in [7, 8.5] (its rest height 8 + [-1, 0.5]) and the head above
  /// y = 13. `generate vmd --model` uses it.
  dance,
};

/// What to generate. Key counts are per section; `frames` is the frame span (30 fps).
struct GenerateOptions {
  std::uint64_t seed = 1;
  std::uint64_t bone_keys = 1000;
  std::uint64_t morph_keys = 100;
  std::uint64_t camera_keys = 0;
  std::uint64_t light_keys = 0;
  std::uint64_t self_shadow_keys = 0;
  std::uint64_t property_keys = 0;
  /// Keys lie on frames 0..frames. When a track gets more keys than frames + 1, the span is
  /// widened to keys - 1 for that track so that no track has two keys on one frame.
  std::uint32_t frames = 300;
  Version version = Version::v2;
  /// Section counts to write (2..6); raised to hold every non-empty section.
  int sections_present = kSectionCount;
  /// Names (UTF-8) of the bone / morph tracks, in order; empty = the standard lists below. A name
  /// CP932 cannot hold is skipped (no VMD track could name it); a longer one is cut to the
  /// 15-byte field as MMD cuts it (it still binds: tracks match by those bytes). No names left
  /// (a model without morphs): no keys of that kind. `mmdkit
  /// generate vmd --model MODEL` passes a model's bones and morphs, so every track binds.
  std::vector<std::string> bone_names{}, morph_names{};
  /// Bone keys' values: BoneStyle::uniform (the ranges below) or a random dance.
  BoneStyle bone_style = BoneStyle::uniform;
};

/// A synthetic motion:
/// - bone keys spread round-robin over standard MMD bone names (センター, 全ての親, グルーブ, 下半身,
///   上半身, 上半身2, ..., 左親指１, 右親指１: 32 names, five of them — グルーブ, 上半身2, 腰, 左親指１,
///   右親指１ — not in the generated models' humanoid set) or over `bone_names`; each track's keys have strictly increasing frames from 0 to the span;
///   unit quaternions (uniform on the sphere), positions in [-10, 10] MMD units for the movable
///   bones (センター, 全ての親, グルーブ, IK bones) and 0 for the others (BoneStyle::dance: the
///   angles and positions it lists, unit quaternions, 0 for the others); canonical interpolation blocks
///   (encode_bone_interpolation) from random control points in 0..127;
/// - morph keys over standard morph names (あ, い, う, え, お, まばたき, 笑い, ウィンク — the first 8,
///   also the generated models' default morphs — then 8 more) or over `morph_names`; weights in
///   [0, 1]; one track per name at most, so min(keys, names) tracks;
/// - camera keys: distance in [-100, -10], target in [-10, 10], angles in [-π, π], random
///   canonical camera interpolation, view angle 10..60 degrees, perspective 0;
///   light keys: color UI 0..255 / 256, unit direction; self-shadow keys: mode 0..2,
///   distance (10000 − UI) / 100000 for UI in 0..10000; property keys: visible 0/1 and the four
///   leg IK bones (左足ＩＫ, 右足ＩＫ, 左つま先ＩＫ, 右つま先ＩＫ) on or off;
/// - names carry raw CP932 bytes padded with NUL to the field size (read(write(m)) gives m back);
///   model name "mmdkit generated", or "カメラ・照明" when there are no bone or morph keys (MMD
///   only loads such camera motions under that name).
/// Keys of each section are in file order grouped by track, frames increasing. Never fails;
/// memory is about 100 bytes per bone key (1,000,000 keys take well under a second).
Motion generate(const GenerateOptions& options);

}  // namespace mmdkit::vmd
