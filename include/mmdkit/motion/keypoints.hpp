// mmdkit — 3D keypoints (pose-estimation output) → VMD motion on a model (docs/KEYPOINTS.md).
//
// Input: per-frame 3D joint positions in one of four published layouts (h36m17, coco17,
// mediapipe33, smpl24; docs/KEYPOINTS.md "Layouts" gives each joint order with its source), as an
// (F, J, 3) or (F, J, 4) array (the 4th value a confidence) in NPY / NPZ, JSON or CSV. The
// positions are turned into MMD space by `axes` and `scale`, missing joints (NaN, or confidence
// below the threshold) hold their last valid position, optional One-Euro smoothing, then per frame
// every solved bone gets a model-space rotation from limb directions (the twist defined by the
// limb's bend plane, the shortest arc from the parent's frame on a straight limb), the upper arm's
// twist about 腕捩's axis moved onto 腕捩, the forearm twist from the hand's knuckle line
// (mediapipe33 only) onto 手捩 (else kept on 手首; docs/KEYPOINTS.md "Method" 6), センター (XZ) and グルーブ (Y) translation from the pelvis, the floor found from
// the ankles, and the keys are fitted through anim::Character (motion/bvh.hpp's fitting) with leg
// IK bones keyed at the feet (ground contact: a foot resting on the floor holds its place).
#pragma once

#include <array>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "mmdkit/core/bytes.hpp"
#include "mmdkit/core/error.hpp"

namespace mmdkit::model {
struct Model;
}
namespace mmdkit::vmd {
struct Motion;
}
namespace mmdkit::anim {
class Character;
}

namespace mmdkit::motion {

/// The joint layouts read (docs/KEYPOINTS.md "Layouts").
enum class KeypointLayout : std::uint8_t {
  h36m17,       ///< Human3.6M 17 joints in VideoPose3D's order (0 pelvis ... 16 right wrist)
  coco17,       ///< COCO keypoints (0 nose ... 16 right ankle)
  mediapipe33,  ///< MediaPipe Pose landmarks (0 nose ... 32 right foot index)
  smpl24,       ///< SMPL's 24 joints (0 pelvis ... 23 right hand)
};

/// "h36m17" → h36m17, ...; nullopt for anything else.
std::optional<KeypointLayout> parse_keypoint_layout(std::string_view name) noexcept;
std::string_view keypoint_layout_name(KeypointLayout layout) noexcept;
/// The joint names of a layout, in array order (the sources' names).
std::span<const std::string_view> keypoint_joint_names(KeypointLayout layout) noexcept;

/// Per-frame joint positions as read (input units and axes).
struct Keypoints {
  std::uint32_t frames = 0;
  std::uint32_t joints = 0;
  std::vector<float> positions;   ///< frames × joints × 3, frame-major; NaN = missing
  std::vector<float> confidence;  ///< frames × joints, or empty when the input has none
};

/// Limit of the readers: at most this many values (frames × joints × channels).
inline constexpr std::size_t kKeypointsMaxValues = std::size_t{1} << 28;

/// NPY (format 1.0 / 2.0 / 3.0; dtype '<f4', '<f8', '>f4', '>f8'; C or Fortran order) holding an
/// (F, J, 3) or (F, J, 4) array. Errors (section "npy", Error::offset set): bad_signature (no
/// "\x93NUMPY"), truncated, invalid_value for a header that does not parse, another dtype or a
/// shape that is not (F, J, 3|4) (the message gives the shape found), count_too_large when the
/// shape needs more bytes than the file has.
Result<Keypoints> read_keypoints_npy(ByteSpan bytes);
/// NPZ (a zip of NPY files, stored or deflated): the member `name` (with or without ".npy"), or,
/// when `name` is empty, "keypoints", "joints", "positions", "joints3d", "poses_3d", else the one
/// member of such a name in a folder of the zip ("MOTION/positions", as `mmdkit dataset` writes;
/// not when several folders have it), else the only member. Errors: as NPY, plus invalid_value
/// (section "npz") for a zip that does not parse, an unknown compression method, a missing member
/// (the message lists the members).
Result<Keypoints> read_keypoints_npz(ByteSpan bytes, std::string_view name = {});
/// JSON: an array of frames, each an array of joints, each [x, y, z] or [x, y, z, confidence]
/// (null for a missing joint), or an object with that array in "frames" / "keypoints". Errors:
/// json_syntax (line and column), json_schema naming the frame and joint ("frame 3, joint 5: 2
/// numbers, expected 3 or 4"; every frame the same joint count).
Result<Keypoints> read_keypoints_json(std::string_view text);
/// CSV: one line per frame of J×3 (or J×4 with --confidence input) numbers separated by commas;
/// a first line that is not numbers is a header and skipped; empty fields and "nan" are missing.
/// `channels` 3 or 4 values per joint. Errors: invalid_value naming the line and column.
Result<Keypoints> read_keypoints_csv(std::string_view text, int channels = 3);
/// By extension: .npy, .npz, .json, .csv (case-insensitive). Errors carry the path.
Result<Keypoints> read_keypoints_file(const std::filesystem::path& path, int csv_channels = 3);

/// The layout's joints on an evaluated model (model space, MMD units): (joints × 3), each joint a
/// bone head, a midpoint of bone heads, or a point along a bone (docs/KEYPOINTS.md "Joints on an
/// MMD model"), from `character`'s last evaluated frame. The round trip (test and docs) samples a
/// real motion this way. Joints the model cannot give (no such bone) are NaN.
std::vector<float> keypoints_on_model(const anim::Character& character, KeypointLayout layout);

/// One-Euro filter settings (Casiez, Roussel, Vogel, CHI 2012): cut-off min_cutoff + beta·|speed|
/// in Hz on the positions, derivative cut-off d_cutoff; the sample rate is `fps`.
struct OneEuro {
  double min_cutoff = 1.5;
  double beta = 0.3;
  double d_cutoff = 1.0;
};

/// Options of keypoints_to_vmd.
struct KeypointOptions {
  KeypointLayout layout = KeypointLayout::h36m17;
  /// MMD axis i = sign · input axis: e.g. {"x","y","-z"} (default: the input is right-handed,
  /// Y up, the person facing +Z). Each entry is "x", "y", "z" with an optional "-".
  std::array<std::string, 3> axes{"x", "y", "-z"};
  /// Input units per MMD unit (0.08 = metres, 8 = centimetres); 0 = automatic: the ratio of the
  /// median leg length (hip → knee → ankle) to the model's.
  double scale = 0.0;
  double fps = 30.0;                ///< input frame rate: frame i → VMD frame round(i · 30 / fps)
  float min_confidence = 0.3f;      ///< with a confidence channel: below = missing
  std::optional<OneEuro> smoothing; ///< none = raw positions
  bool leg_ik = true;               ///< key the leg IK bones at the feet (ground contact)
  /// Key reduction (per track, linear curves): keys that interpolation reproduces within these.
  double reduce_deg = 0.5;
  double reduce_units = 0.02;
  bool reduce = true;
};

/// What keypoints_to_vmd did.
struct KeypointReport {
  std::size_t frames = 0;
  std::size_t bones = 0;            ///< bones keyed from limb directions
  std::size_t missing = 0;          ///< joint positions missing (held)
  double scale = 1.0;               ///< input units per MMD unit used
  double floor = 0.0;               ///< floor height found (MMD units, before the ground shift)
  std::size_t contact_frames = 0;   ///< frame × foot pairs held on the floor
  std::size_t keys = 0, keys_dropped = 0;
};

/// Keypoints → VMD on `model` (docs/KEYPOINTS.md "Method"). Errors: invalid_argument for a joint
/// count that is not the layout's ("layout h36m17 has 17 joints, the array 33"), a bad axes entry,
/// fps ≤ 0; invalid_value naming the joint for a joint without any valid position in any frame
/// (nothing to hold); invalid_value when the model lacks the bones the method needs (センター,
/// 上半身, 下半身, 左右 足 / ひざ / 足首 / 腕 / ひじ); the fitting's errors.
Result<vmd::Motion> keypoints_to_vmd(const Keypoints& keypoints, std::shared_ptr<const model::Model> model,
                                     const KeypointOptions& options, KeypointReport* report = nullptr);

}  // namespace mmdkit::motion
