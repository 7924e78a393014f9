// mmdkit — binding VMD motions to a model's bones and morphs by name, the way MMD does.
//
// MMD matches a VMD track to a model bone by BYTES: the model's name encoded in CP932 (PMD names
// already are; PMX names are UTF-16/UTF-8 and are encoded first), cut to 15 bytes — the VMD name
// field size — compared with the VMD name bytes up to their first NUL (docs/formats/NOTES.md "Text").
// Matching decoded strings fails for names longer than 15 bytes and for names cut in the middle of
// a double-byte character (mmd_tools #299, saba). Several motions can be bound together (a body
// motion and a facial motion): their keys are merged per model bone / morph.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "mmdkit/anim/sampler.hpp"
#include "mmdkit/core/bytes.hpp"
#include "mmdkit/core/error.hpp"
#include "mmdkit/core/text.hpp"
#include "mmdkit/formats/vmd.hpp"

namespace mmdkit::anim {

/// The bytes a VPD name is matched by: its whole raw bytes (a VPD line holds the complete name,
/// no 15-byte field), or when there are none (a name built in code) its text encoded in `enc`
/// (empty when it cannot be: matches nothing). Used for VPD bones and morphs (pose.hpp, morph.hpp).
std::vector<std::uint8_t> vpd_match_key(std::span<const std::uint8_t> raw, std::string_view text, Encoding enc);

/// [begin, end) of one track's keys in a BoundMotion's key array.
struct KeyRange {
  std::uint32_t begin = 0;
  std::uint32_t end = 0;
  bool empty() const noexcept { return begin == end; }
};

/// A VMD track name that matched no model bone / morph.
struct UnmatchedTrack {
  std::size_t motion = 0;  ///< index of the motion in the list given to bind_motions
  std::size_t name = 0;    ///< index into that motion's bone_names / morph_names
  bool morph = false;      ///< true for a morph track
};

/// A change of a bone's physics toggle (VMD interpolation bytes 2-3: 63 0F = physics off, anything
/// else on): from `frame` on the bone follows its keys (`off`) or its rigid body again.
struct PhysicsToggle {
  std::uint32_t frame = 0;
  bool off = false;
};

/// Tracks of one or more motions, bound to a model's bones and morphs (indices of the name lists
/// given to bind_motions). All keys live in two flat arrays; each model bone / morph has a range.
struct BoundMotion {
  std::vector<BoneTrackKey> bone_keys;    ///< all bone tracks, one after another
  std::vector<KeyRange> bone_tracks;      ///< per model bone; empty range = no keys (rest pose)
  std::vector<MorphTrackKey> morph_keys;  ///< all morph tracks
  std::vector<KeyRange> morph_tracks;     ///< per model morph; empty range = no keys (weight 0)
  std::vector<UnmatchedTrack> unmatched;  ///< VMD names without a model bone / morph
  /// Physics toggles of all bones, one after another; only the changes are kept (the first key's
  /// state counts from frame 0), so both are empty when no key switches physics off.
  std::vector<PhysicsToggle> physics_toggles;
  std::vector<KeyRange> physics_tracks;   ///< per model bone, or empty when no toggle at all

  /// Keys of model bone `bone` (empty span if out of range or no keys).
  std::span<const BoneTrackKey> bone_track(std::size_t bone) const noexcept;
  /// Keys of model morph `morph`.
  std::span<const MorphTrackKey> morph_track(std::size_t morph) const noexcept;
};

/// Binds `motions` (null pointers are skipped) to model bones and morphs given by their match keys
/// (mmdkit::binding_key / binding_key_of_text in core/text.hpp, one per model bone / morph, in model order; an empty
/// key matches nothing).
/// - A VMD name is taken from its raw bytes; a name built in code without raw bytes is encoded
///   from its text in the motion's encoding.
/// - Every model bone whose key equals the VMD name gets the track (two model names sharing their
///   first 15 bytes both move: the byte comparison cannot tell them apart).
/// - Keys of the same model bone from several motions, or from several VMD names with the same
///   match key, are merged; at equal frames the later motion in `motions` wins, then the later key
///   in file order (stable sort, last duplicate wins).
/// Errors: invalid_argument when a key's name index is out of range (section "bone keys" / "morph
/// keys", record = key index) or more than 2^32 − 1 keys would be bound; encoding_error when a
/// text-only VMD name cannot be encoded.
Result<BoundMotion> bind_motions(std::span<const vmd::Motion* const> motions,
                                 std::span<const std::vector<std::uint8_t>> bone_keys,
                                 std::span<const std::vector<std::uint8_t>> morph_keys);

/// Samples every bone track at `frame` into `out` (one pose per model bone; bones without keys
/// get the identity pose). `cursors` holds one cursor per model bone (zero-initialize once,
/// keep between calls). Only min(out.size(), cursors.size(), bone count) bones are written.
void sample_bones(const BoundMotion& motion, double frame, std::span<BonePose> out,
                  std::span<std::uint32_t> cursors) noexcept;
/// The same with one segment cache per track (sampler.hpp BoneSegmentCache; bit for bit the same
/// poses): bones beyond `caches` are sampled without one.
void sample_bones(const BoundMotion& motion, double frame, std::span<BonePose> out, std::span<std::uint32_t> cursors,
                  std::span<BoneSegmentCache> caches) noexcept;

/// The physics toggle of every bone at `frame` (1 = physics off: the bone follows its keys), as
/// MMD steps it: the last key at or before the frame decides, before the first key the first key;
/// bones without keys 0. Writes min(out.size(), bone count) entries. Binary search per bone, never
/// allocates.
void sample_physics_off(const BoundMotion& motion, double frame, std::span<std::uint8_t> out) noexcept;

/// Samples every morph track at `frame` into `out` (weight per model morph, 0 without keys).
void sample_morphs(const BoundMotion& motion, double frame, std::span<float> out,
                   std::span<std::uint32_t> cursors) noexcept;

}  // namespace mmdkit::anim
