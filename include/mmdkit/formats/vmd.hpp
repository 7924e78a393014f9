// mmdkit — VMD (Vocaloid Motion Data) motions: data model, reading and writing.
//
// Layout and semantics: docs/formats/vmd.md and docs/formats/NOTES.md. Units:
// frames (30 per second), MMD units (about 8 cm), radians for camera Euler angles, unit
// quaternions (x, y, z, w) for bone rotations, MMD's left-handed Y-up space (docs/CONVENTIONS.md).
//
// Reading keeps every byte: raw name fields (including bytes after the NUL), raw interpolation
// blocks, which optional sections were present, and any bytes after the last section that parses.
// Writing an unmodified Motion gives back the identical file.
#pragma once

#include <array>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "mmdkit/core/bytes.hpp"
#include "mmdkit/core/error.hpp"
#include "mmdkit/core/text.hpp"

namespace mmdkit::vmd {

// Field and record sizes in bytes (docs/formats/NOTES.md "VMD (motion)").
inline constexpr std::size_t kSignatureSize = 30;     ///< signature field, NUL-padded
inline constexpr std::size_t kModelNameSizeV2 = 20;  ///< "Vocaloid Motion Data 0002"
inline constexpr std::size_t kModelNameSizeV1 = 10;  ///< "Vocaloid Motion Data file"
inline constexpr std::size_t kTrackNameSize = 15;    ///< bone and morph key names
inline constexpr std::size_t kIkNameSize = 20;       ///< IK bone names in property keys
inline constexpr std::size_t kBoneKeySize = 111;
inline constexpr std::size_t kMorphKeySize = 23;
inline constexpr std::size_t kCameraKeySize = 61;
inline constexpr std::size_t kLightKeySize = 28;
inline constexpr std::size_t kSelfShadowKeySize = 9;
inline constexpr std::size_t kPropertyKeyMinSize = 9;  ///< frame + visible + IK count
inline constexpr std::size_t kIkStateSize = 21;

/// File version, from the signature.
enum class Version : std::uint8_t {
  v1,  ///< "Vocaloid Motion Data file", 10-byte model name (MMD before 5.x)
  v2,  ///< "Vocaloid Motion Data 0002", 20-byte model name
};

/// A name as stored in a fixed-size field: mmdkit::FixedText<N> (core/text.hpp), the one name
/// type. `raw`: what the file held (at most N bytes, garbage after the NUL kept; fewer or none for
/// names built in code: the writer pads with NUL); `text`: `raw` up to the first NUL, decoded in
/// the motion's encoding (a cut double-byte character at the end is dropped).
template <std::size_t N>
using FixedName = mmdkit::FixedText<N>;

/// One distinct bone or morph name of a motion (distinct by all 15 raw bytes).
using TrackName = FixedName<kTrackNameSize>;

/// One Bezier interpolation curve on MMD's 0..127 grid: from (0,0) through control points
/// (x1,y1), (x2,y2) to (127,127). Linear is (20,20),(107,107).
struct Curve {
  /// Control points, each 0..127 in files MMD writes (other byte values are kept as stored).
  std::uint8_t x1 = 20, y1 = 20, x2 = 107, y2 = 107;
  bool operator==(const Curve&) const = default;
};
inline constexpr Curve kLinearCurve{};

/// The four curves of a bone key, decoded from its 64-byte block, plus the per-key physics
/// toggle that newer MMD versions store in bytes 2 and 3 (docs/formats/NOTES.md "Bone interpolation block").
struct BoneInterpolation {
  Curve x, y, z, rotation;  ///< curve c is read from row c (bytes 16c, 16c+4, 16c+8, 16c+12)
  /// Bytes 2 and 3 of the block. Canonical blocks hold (Z.x1, R.x1) there; newer MMD stores
  /// 00 00 (physics on) or 0x63 0x0F (physics off for this key).
  std::array<std::uint8_t, 2> toggle_bytes{};
  /// True when toggle_bytes are 0x63 0x0F: MMD turns physics off for the model at this key.
  bool physics_off() const noexcept { return toggle_bytes[0] == 0x63 && toggle_bytes[1] == 0x0F; }
};

/// Decodes a 64-byte bone interpolation block (any variant; never fails). Curve c is read from
/// row c, bytes 16c, 16c+4, 16c+8, 16c+12 = (x1, y1, x2, y2), so the toggle bytes 2-3 never
/// leak into the Z and rotation curves (three.js and saba read them from row 0 and do).
BoneInterpolation decode_bone_interpolation(const std::array<std::uint8_t, 64>& raw) noexcept;

/// The block MMD writes for these curves: row 0 = X_x1 Y_x1 Z_x1 R_x1, X_y1 .. R_y1, X_x2 .. R_x2,
/// X_y2 .. R_y2; rows 1-3 = row 0 shifted left by 1, 2, 3 bytes, padded with 01 00 00.
/// When `physics_off` is set, bytes 2 and 3 become 0x63 0x0F.
std::array<std::uint8_t, 64> encode_bone_interpolation(const Curve& x, const Curve& y, const Curve& z,
                                                       const Curve& rotation, bool physics_off = false) noexcept;

/// Camera curves, in the file's order: target X, Y, Z, rotation, distance, view angle.
/// Stored as 4 consecutive bytes per curve ordered x1, x2, y1, y2.
struct CameraInterpolation {
  Curve x, y, z, rotation, distance, view_angle;
};
/// Decodes a 24-byte camera block: curve i = bytes 4i..4i+3 as (x1, x2, y1, y2). Never fails.
CameraInterpolation decode_camera_interpolation(const std::array<std::uint8_t, 24>& raw) noexcept;
/// The 24-byte camera block for these curves (inverse of decode_camera_interpolation).
std::array<std::uint8_t, 24> encode_camera_interpolation(const CameraInterpolation& c) noexcept;

/// A bone keyframe (111 bytes in the file).
struct BoneKey {
  std::uint32_t name = 0;                  ///< index into Motion::bone_names
  std::uint32_t frame = 0;                 ///< frame number (30 fps)
  std::array<float, 3> position{};         ///< translation from the bind pose, parent space, MMD units
  std::array<float, 4> rotation{0, 0, 0, 1};  ///< quaternion x, y, z, w as stored (may be unnormalized)
  std::array<std::uint8_t, 64> interpolation{};  ///< raw block; see decode_bone_interpolation
};

/// A morph keyframe (23 bytes).
struct MorphKey {
  std::uint32_t name = 0;   ///< index into Motion::morph_names
  std::uint32_t frame = 0;
  float weight = 0;         ///< usually 0..1; other values are kept
};

/// A camera keyframe (61 bytes).
struct CameraKey {
  std::uint32_t frame = 0;
  float distance = 0;                  ///< MMD units; negative = camera in front of the target (MMD shows -distance)
  std::array<float, 3> target{};       ///< look-at point, world space, MMD units
  std::array<float, 3> rotation{};     ///< Euler angles, radians, as stored (X sign flipped vs. the UI)
  std::array<std::uint8_t, 24> interpolation{};  ///< raw block; see decode_camera_interpolation
  std::uint32_t view_angle = 30;       ///< vertical field of view, degrees
  std::uint8_t perspective = 0;        ///< 0 = perspective on, 1 = off (orthographic), as stored
};

/// A light keyframe (28 bytes).
struct LightKey {
  std::uint32_t frame = 0;
  std::array<float, 3> color{};        ///< RGB, stored as UI value / 256 (default 154 → 0.6015625)
  std::array<float, 3> direction{};    ///< light travels along this vector, components in [-1, 1]
};

/// A self-shadow keyframe (9 bytes).
struct SelfShadowKey {
  std::uint32_t frame = 0;
  std::uint8_t mode = 0;               ///< 0 off, 1 mode 1, 2 mode 2
  float distance = 0;                  ///< stored = (10000 - UI) / 100000; UI default 8875 → 0.01125
};

/// IK on/off state of one IK bone within a property key.
struct IkState {
  FixedName<kIkNameSize> name;         ///< IK bone name (20-byte field)
  std::uint8_t enabled = 1;            ///< 0 off, 1 on (other values kept as stored)
};

/// A property ("model") keyframe: visibility and IK switches (variable size).
struct PropertyKey {
  std::uint32_t frame = 0;
  std::uint8_t visible = 1;            ///< 0 hidden, 1 shown
  std::vector<IkState> ik;
};

/// Sections in file order. A file may end after any section from `morph` on.
enum class Section : std::uint8_t { bone, morph, camera, light, self_shadow, property };
inline constexpr int kSectionCount = 6;

/// A whole motion file.
struct Motion {
  Version version = Version::v2;
  /// The 30 signature bytes as stored (MMD sometimes leaves bytes after the NUL, e.g. "0002\0JKLM").
  std::array<std::uint8_t, kSignatureSize> signature{};
  FixedName<kModelNameSizeV2> model_name;  ///< 10 or 20 raw bytes depending on version
  Encoding encoding = Encoding::cp932;     ///< encoding used to decode (and encode) names

  std::vector<TrackName> bone_names;   ///< distinct bone names, in first-appearance order
  std::vector<TrackName> morph_names;  ///< distinct morph names, in first-appearance order

  std::vector<BoneKey> bone_keys;          ///< file order (not sorted; duplicates kept)
  std::vector<MorphKey> morph_keys;
  std::vector<CameraKey> camera_keys;
  std::vector<LightKey> light_keys;
  std::vector<SelfShadowKey> self_shadow_keys;
  std::vector<PropertyKey> property_keys;

  /// How many section counts the file held (2 = ends after morph ... 6 = has property section).
  /// Written back as is; a motion built in code should set 6 (or the fewest that hold its data).
  int sections_present = kSectionCount;
  /// Bytes after the last section that parsed (see ReadOptions::strict). Written back unchanged.
  std::vector<std::uint8_t> trailing;
  /// Offset of `trailing` in the file it was read from (-1 when empty or built in code).
  std::int64_t trailing_offset = -1;
};

/// Options for reading.
struct ReadOptions {
  /// Force an encoding for names; nullopt = detect per file (CP932 unless GBK scores higher).
  std::optional<Encoding> encoding;
  /// Make unparseable bytes after the last good section an error (code trailing_data) instead of
  /// a warning with the data kept in Motion::trailing.
  bool strict = false;
};

/// Result of a read: the motion and any warnings (e.g. trailing bytes kept, with their offset).
struct ReadResult {
  Motion motion;
  std::vector<Warning> warnings;
};

/// Parses a VMD from memory. Errors: empty_input, bad_signature, truncated (header, bone or morph
/// section), count_too_large (a bone or morph count beyond the bytes left), trailing_data (strict
/// only). Each error names the section, record index and byte offset. Never allocates more than
/// the input size allows. Optional sections (camera onward) that do not parse end the parse with a
/// warning; their bytes are kept in Motion::trailing.
/// A bone or morph count whose records do not fit is `count_too_large` (record -1, offset of the
/// count) when not even one whole record is left, else `truncated` with the index and offset of
/// the record the file ends in. The signature is recognised by its text before the first NUL;
/// a file shorter than 30 bytes that is a prefix of a signature is `truncated`.
/// Encoding: ReadOptions::encoding, else detect_legacy_encoding over the model name and every
/// distinct bone, morph and IK name. Throughput: ~4 GB/s on bone keys (file in memory).
Result<ReadResult> read(ByteSpan bytes, const ReadOptions& options = {});

/// Reads a file (thin wrapper: read_file + read). Errors carry the path in Error::file.
Result<ReadResult> read_file(const std::filesystem::path& path, const ReadOptions& options = {});

/// Serializes a motion. Names with raw bytes are written as stored; names without are encoded
/// from text in `motion.encoding` and NUL-padded (an error if a name cannot be encoded).
/// Writes `sections_present` section counts (raised as needed to hold non-empty sections), then
/// `trailing`. Errors: encoding_error, invalid_argument (a key's name index out of range).
Result<std::vector<std::uint8_t>> write(const Motion& motion);

/// Frame range of all keys: {min, max} over every section; nullopt when there are no keys.
std::optional<std::array<std::uint32_t, 2>> frame_range(const Motion& motion) noexcept;

/// The signature text for a version ("Vocaloid Motion Data 0002" / "Vocaloid Motion Data file").
std::string_view signature_text(Version v) noexcept;

/// Human-readable name of a section: "bone keyframes", "morph keyframes", "camera keyframes",
/// "light keyframes", "self-shadow keyframes", "property keyframes" (the `section` of errors).
std::string_view section_name(Section s) noexcept;

/// Size in bytes of the header (signature + model name): 50 for v2, 40 for v1.
std::size_t header_size(Version v) noexcept;

/// What `summarize` finds without keeping the keys: everything `mmdkit info` prints.
struct Summary {
  Version version = Version::v2;
  std::array<std::uint8_t, kSignatureSize> signature{};  ///< as stored
  FixedName<kModelNameSizeV2> model_name;                ///< raw (10 or 20 bytes) and decoded text
  Encoding encoding = Encoding::cp932;                   ///< detected (or forced) name encoding
  /// Keys per section, indexed by Section (property: property keys, not IK states).
  std::array<std::uint64_t, kSectionCount> counts{};
  std::uint64_t ik_states = 0;       ///< IK on/off entries over all property keys
  int sections_present = 0;          ///< as Motion::sections_present
  std::size_t bone_tracks = 0;       ///< distinct bone names (by 15 raw bytes)
  std::size_t morph_tracks = 0;      ///< distinct morph names (by 15 raw bytes)
  std::optional<std::array<std::uint32_t, 2>> frame_range;  ///< as vmd::frame_range
  std::uint64_t file_bytes = 0;      ///< input size
  std::uint64_t trailing_bytes = 0;  ///< size of Motion::trailing
  std::int64_t trailing_offset = -1; ///< as Motion::trailing_offset
  std::vector<Warning> warnings;     ///< as ReadResult::warnings
};

/// The same parse as `read` (same errors and warnings, same ReadOptions), but only counts,
/// frame range and distinct names are kept: memory stays O(distinct names), so the summary of a
/// large file costs little beyond the input bytes.
Result<Summary> summarize(ByteSpan bytes, const ReadOptions& options = {});

/// A finding of `check`: an error (the data is unusable as stored, e.g. NaN) or a warning.
struct CheckFinding {
  bool error = false;  ///< true = error, false = warning
  Error where;         ///< code, message, section, record index (file order) and byte offset
  /// > 0: this entry is not a finding but the note "N more ... not listed" (record and offset
  /// -1): `omitted` findings of this severity and kind were left out. Counts of findings add it.
  std::size_t omitted = 0;
  /// Duplicate-key findings (one per track): the track's name (bone or morph; empty for camera,
  /// light, self-shadow and property keys), how many keys repeat the frame of an earlier key of
  /// the track, and the first kDuplicateFramesListed such frames, ascending. Empty / 0 otherwise.
  std::string track{};
  std::size_t keys = 0;
  std::vector<std::uint32_t> frames{};
};

/// How many frames a duplicate-key finding lists (CheckFinding::frames and its message).
inline constexpr std::size_t kDuplicateFramesListed = 5;

/// Semantic checks of a motion as read from a file (offsets assume the layout `write` produces,
/// which is the file's own layout for a motion read unchanged):
/// - error (invalid_value): a non-finite float (NaN, ±inf) in any key;
/// - warning (invalid_value): keys of one track (a bone or morph name; the whole section for
///   camera, light, self-shadow and property keys) at a frame an earlier key of the track already
///   has (MMD uses the last one read; a track is a name as evaluation binds it, core/text.hpp
///   binding_key: names that differ only after the NUL terminator are one track, and such a pair
///   of keys is named in the message with both records): ONE finding per track, e.g. "track 'センター': 3 keys repeat
///   the frame of an earlier key (2 frames: 0, 30); MMD uses the last one read", at the first such
///   key (record, offset), with CheckFinding::track / keys / frames; a bone rotation that is all
///   zero (MMD treats it as identity) or whose length differs from 1 by more than 1e-3
///   (normalized on evaluation).
/// At most `max_per_kind` findings of each kind are listed; one more entry then gives the number
/// left out (CheckFinding::omitted). Findings are sorted by section, then record.
std::vector<CheckFinding> check(const Motion& motion, std::size_t max_per_kind = 20);

}  // namespace mmdkit::vmd
