// mmdkit — BVH (Biovision Hierarchy) motion: reading, writing, forward kinematics, a BVH of a
// model's evaluated motion, and a BVH retargeted onto an MMD model as a VMD (docs/BVH.md).
//
// The format (no formal specification; the de-facto one of Biovision / the CMU mocap database,
// docs/BVH.md "Format" cites its sources): HIERARCHY (ROOT / JOINT blocks with OFFSET and
// CHANNELS, "End Site" leaves) then MOTION ("Frames: N", "Frame Time: T", N lines of numbers,
// one per channel in hierarchy order). A joint's local transform is translate(OFFSET + position
// channels) · R, R = the product of its rotation channels in the order listed (degrees), so
// "Zrotation Xrotation Yrotation" is Rz · Rx · Ry applied to column vectors. The rest pose has no
// rotation: every joint's rest frame is aligned with its parent's.
//
// Spaces: a Bvh holds the file's numbers as read (its own units and axes). The conversions to and
// from MMD (bvh_from_character, bvh_to_vmd) use the rule of docs/BVH.md "Space": BVH space is
// right-handed, Y up, the character facing +Z; from MMD's left-handed space the Z coordinate is
// negated (positions (x, y, −z), quaternions (−x, −y, z, w)), lengths are multiplied by `scale`.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "mmdkit/core/error.hpp"

namespace mmdkit::model {
struct Model;
}
namespace mmdkit::vmd {
struct Motion;
}
namespace mmdkit::anim {
class CharacterData;
}

namespace mmdkit::motion {

/// One BVH channel.
enum class BvhChannel : std::uint8_t { x_position, y_position, z_position, x_rotation, y_rotation, z_rotation };

/// "Xposition", ..., "Zrotation" (the spelling the file uses).
std::string_view bvh_channel_name(BvhChannel c) noexcept;

/// One ROOT or JOINT of the hierarchy ("End Site" blocks are not joints: see end_site).
struct BvhJoint {
  std::string name;                    ///< as in the file (UTF-8 bytes as read)
  std::int32_t parent = -1;            ///< index in Bvh::joints (always before this one), -1 = a ROOT
  std::array<double, 3> offset{};      ///< from the parent's origin, in the parent's frame, file units
  std::vector<BvhChannel> channels;    ///< in file order (0..6, each at most once)
  std::uint32_t first_channel = 0;     ///< index of channels[0] in a frame's values
  /// The End Site offset when the joint has one (a leaf's tip, file units).
  std::optional<std::array<double, 3>> end_site;
  std::int64_t line = -1;              ///< 1-based line of the ROOT / JOINT keyword (-1: built in code)
};

/// A whole BVH file.
struct Bvh {
  std::vector<BvhJoint> joints;  ///< in file order: parents before children
  std::uint32_t channel_count = 0;  ///< sum of the joints' channel counts (values per frame)
  std::uint32_t frame_count = 0;
  double frame_time = 1.0 / 30.0;   ///< seconds per frame
  /// frame_count × channel_count numbers, frame-major (frame f, channel c at f·channel_count + c):
  /// positions in file units, rotations in degrees.
  std::vector<double> values;
};

/// Limits of the reader (docs/LIMITS.md): a file may not declare more than this many joints or
/// values (frames × channels); beyond, limit_exceeded.
inline constexpr std::size_t kBvhMaxJoints = 10000;
inline constexpr std::size_t kBvhMaxValues = std::size_t{1} << 28;

/// Parses BVH text. Accepts LF and CR LF line ends, tabs and any run of spaces between tokens,
/// keywords in any letter case, numbers in decimal or exponent form ("1.5e-3", "-2E+01"), joint
/// names with spaces after JOINT (the rest of the line), several ROOTs, a file ending without a
/// last line end, blank lines between frames; each frame is one line. Errors (Error::line set;
/// the message names the joint or frame):
/// - empty_input; invalid_value for a missing HIERARCHY / MOTION keyword, an unknown keyword,
///   an unknown or repeated channel, a CHANNELS count that disagrees with the names listed,
///   OFFSET with fewer than 3 numbers, unbalanced braces, a non-number ("Frames: ten", "1.2.3",
///   "nan", "inf") where a number belongs, a negative or non-integer frame count, a frame time
///   ≤ 0 or non-finite;
/// - truncated when the file ends inside the hierarchy or the frames ("frame 12 (line 140) has
///   57 of 69 values: joint 'LeftHand' misses channels Xrotation Yrotation"), invalid_value when a
///   frame line holds more values than the channels or more frame lines follow than "Frames:"
///   declares (inconsistent frame count);
/// - limit_exceeded beyond kBvhMaxJoints joints or kBvhMaxValues values (checked against the
///   text left before anything is reserved).
Result<Bvh> read_bvh(std::string_view text);

/// Options of write_bvh.
struct BvhWriteOptions {
  /// Significant digits of every number (9 keeps a float's rotation exactly enough for 1e-6°).
  int digits = 9;
};

/// BVH text of `bvh` (tabs for indentation, LF line ends, "Frame Time:" with `digits` digits).
/// Joint names are written as stored (callers keep them free of spaces and braces).
/// Errors: invalid_argument when values.size() != frame_count × channel_count, a parent index is
/// not before its joint, or first_channel disagrees with the channel layout.
Result<std::string> write_bvh(const Bvh& bvh, const BvhWriteOptions& options = {});

/// A rigid transform in double precision: rotation quaternion (x, y, z, w) and translation.
struct BvhTransform {
  std::array<double, 4> rotation{0, 0, 0, 1};
  std::array<double, 3> translation{};
};

/// Local transform of every joint at `frame` (0-based, < frame_count): translation = offset +
/// position channels, rotation = the rotation channels in their order. `out` is resized.
void bvh_local_pose(const Bvh& bvh, std::uint32_t frame, std::vector<BvhTransform>& out);
/// World (file space) transform of every joint at `frame` by forward kinematics of bvh_local_pose.
void bvh_world_pose(const Bvh& bvh, std::uint32_t frame, std::vector<BvhTransform>& out);
/// World transforms of the rest pose (offsets only, no channels).
void bvh_rest_pose(const Bvh& bvh, std::vector<BvhTransform>& out);

// ------------------------------------------------------------------------------------------------
// MMD → BVH

/// How a written BVH names its joints.
enum class BvhNames {
  japanese,  ///< the bone's name as the model has it (UTF-8; white space and braces as '_')
  /// ASCII for tools that choke on Japanese names: the model's English bone name when it has a
  /// printable ASCII one; else MMD's standard bone in English (左腕 → arm_L, センター → center: the
  /// names of PMX Editor's standard-bone set, in snake case, 左/右 as a _L/_R suffix); else the
  /// name transliterated (kana in Hepburn romaji, full-width ASCII folded, 左/右 as L_/R_); a name
  /// with characters that have no transliteration (kanji) is "bone<index>" followed by what could
  /// be transliterated ("前髪1" → "bone12_1").
  english,
};

/// The joint name of every bone (index = bone index) as bvh_from_character writes it: the names
/// of `names`, a repeated name suffixed "_2", "_3", ... in bone order, an empty one "bone_<index>".
/// Always printable, without white space or braces; with BvhNames::english, ASCII.
std::vector<std::string> bvh_joint_names(const model::Model& model, BvhNames names);

/// What bvh_from_character writes.
struct BvhExportOptions {
  std::uint32_t first_frame = 0;  ///< first frame (30 fps) written as BVH frame 0
  std::uint32_t last_frame = 0;   ///< last frame written (inclusive, ≥ first_frame)
  /// BVH units per MMD unit (1 = MMD units; 0.08 = metres, 8 = centimetres).
  double scale = 1.0;
  bool ik = true;  ///< false: every IK solver off (as `sample --no-ik`)
  BvhNames names = BvhNames::japanese;  ///< joint names (bvh_joint_names)
};

/// The model's skeleton with the motion bound in `data`, evaluated through anim::Character at
/// every frame first..last (IK, append, bone morphs baked), as a BVH (docs/BVH.md "Writing"):
/// - one joint per bone, named by bvh_joint_names(model, options.names); parentless bones become ROOTs (several ROOTs when the model has
///   several parentless bones); OFFSET = bind head − parent bind head (MMD units × scale, BVH
///   space); End Site on leaves at the bone's tail (or 1 unit along +Y when it has none);
/// - channels "Zrotation Xrotation Yrotation" on every joint, preceded by "Xposition Yposition
///   Zposition" on ROOTs and on every joint whose evaluated local translation leaves its bind
///   offset (by more than 1e-6 MMD units at some frame);
/// - each joint's local rotation and translation are computed from the evaluated model-space
///   transforms (parent⁻¹ · bone), so FK of the BVH gives back the evaluated bone heads;
/// - Frame Time 1/30 s.
/// Errors: invalid_argument when last_frame < first_frame or scale is not finite and > 0,
/// limit_exceeded beyond kBvhMaxValues values; the evaluation's errors.
Result<Bvh> bvh_from_character(std::shared_ptr<const anim::CharacterData> data, const BvhExportOptions& options);

// ------------------------------------------------------------------------------------------------
// BVH → MMD

/// BVH joint name → MMD bone name pairs (several joints may not share a bone).
struct BvhBoneMap {
  std::vector<std::pair<std::string, std::string>> pairs;
  /// 1-based line of each pair in its map file (read_bvh_bone_map); empty for the built-in maps.
  std::vector<std::int64_t> lines;
  std::string source = "map file";  ///< "identity", "mixamo", "cmu", "smpl", or "map file"
};

/// Reads a map file: one "BVH_JOINT<TAB>MMD_BONE" pair per line; '#' starts a comment line; blank
/// lines skipped; CR LF accepted. Errors (Error::line set): invalid_value for a line without a
/// tab or with an empty side, a BVH joint or MMD bone named twice.
Result<BvhBoneMap> read_bvh_bone_map(std::string_view text);

/// The automatic map (docs/BVH.md "Automatic map"): "identity" when every BVH joint name is a
/// name bvh_joint_names gives a bone of this model, Japanese or English (a BVH mmdkit wrote of
/// this model, either way), else the first of the built-in tables
/// (Mixamo "mixamorig:" names with or without the prefix, CMU, SMPL 24) that names the most BVH
/// joints, restricted to pairs whose joint is in the BVH and whose bone is in the model. Errors:
/// invalid_value when no table matches at least the hips and both thighs (give --map).
Result<BvhBoneMap> automatic_bvh_bone_map(const Bvh& bvh, const model::Model& model);

/// Options of bvh_to_vmd.
struct BvhImportOptions {
  /// BVH units per MMD unit (the inverse of BvhExportOptions::scale); 0 = automatic: 1 for an
  /// identity map, else the ratio of the mapped leg lengths (thigh → ankle) of BVH and model.
  double scale = 0.0;
  /// Key the leg IK bones (足ＩＫ, つま先ＩＫ, ...: every IK bone of the model) at the positions
  /// their effectors reach by the keyed rotations, IK on. false: IK bones unkeyed, a property
  /// key at frame 0 switches every IK solver off.
  bool leg_ik = true;
  std::uint32_t first_frame = 0;  ///< VMD frame of BVH frame 0
  /// Drop keys that linear interpolation between the kept ones reproduces within reduce_deg
  /// degrees and reduce_units MMD units (per bone track; key_fit::reduce_linear_keys).
  bool reduce = true;
  double reduce_deg = 0.0002;
  double reduce_units = 1e-5;
};

/// Statistics bvh_to_vmd reports.
struct BvhImportReport {
  std::size_t mapped_bones = 0;     ///< bones keyed from a BVH joint
  std::size_t ik_bones = 0;         ///< IK bones keyed (leg_ik)
  std::size_t frames = 0;
  double scale = 1.0;               ///< BVH units per MMD unit used
  std::vector<std::string> unmatched_joints;  ///< BVH joints of the map missing from the BVH
  double fit_deg = 0;               ///< largest model-space rotation error left by the fit (IK off)
  double fit_units = 0;             ///< largest position error left by the fit (positions, IK goals)
  std::size_t keys_dropped = 0;     ///< keys removed by the reduction
};

/// Retargets `bvh` onto `model` (docs/BVH.md "Reading onto a model"): each mapped bone's
/// model-space rotation = the joint's world rotation · C, C = the shortest arc taking the bone's
/// rest direction (head → the mapped bone its tail or first mapped descendant is) onto the joint's
/// rest direction (this turns a T-pose source onto the model's A-pose arms); keys are the
/// parent-relative rotations, corrected through anim::Character until the evaluated local
/// rotations equal them (append bones, fixed axes); translations: a mapped joint with position
/// channels moves its bone (identity map), else the hips' displacement × (1 / scale) keys センター
/// (XZ) and グルーブ (Y; センター Y when the model has no グルーブ); leg IK per leg_ik. One key per
/// bone per frame, linear curves, then the reduction (BvhImportOptions::reduce); BVH frame i →
/// VMD frame first_frame + i (the BVH's frame time
/// is not resampled; a warning says when it is not 1/30 s).
/// Errors: invalid_value when the map names a bone the model lacks (Error::line: the pair's line in the
/// map file) or no pair remains; the evaluation's errors.
Result<vmd::Motion> bvh_to_vmd(const Bvh& bvh, std::shared_ptr<const model::Model> model, const BvhBoneMap& map,
                               const BvhImportOptions& options, BvhImportReport* report = nullptr);

}  // namespace mmdkit::motion
