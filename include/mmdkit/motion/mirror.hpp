// mmdkit — `mirror`: a motion mirrored left ↔ right (docs/MOTION.md "mirror").
//
// The mirror plane is the model's YZ plane (x → −x in MMD's left-handed Y-up space; a model faces
// −Z, its left is +X). The rules of mmd_tools' mirror (use_mirror) and MMD's own 左右反転 paste:
//   - names: 左 ↔ 右 everywhere in the name; full-width Ｌ ↔ Ｒ everywhere; ASCII L ↔ R where the
//     letter stands alone between separators (start or end of the name, '_', '.', '-', ' '), as in
//     "Hair_L" or "L.Hand". Bone and IK (property key) names are swapped; in CP932 the bytes up
//     to the first NUL are rewritten in place (the swapped characters are two bytes each, so
//     sizes and bytes after the NUL do not change); other encodings are swapped in the text and
//     re-encoded. Morph names are kept by default: MMD's standard wink morphs do not follow the
//     左/右 pattern (ウィンク is the left eye, ウィンク右 the right; ウィンク２ / ｳｨﾝｸ２右), so
//     swapping 右 would name morphs no model has. With MirrorOptions::morph_names they are
//     swapped too, the winks as whole-name pairs (a name the swap would turn into one of those
//     four is kept, so the mapping is still its own inverse); the pairs differ in length, so bytes
//     stored after a wink name's NUL are not kept.
//   - bone keys: translation (x, y, z) → (−x, y, z); rotation (x, y, z, w) → (x, −y, −z, w);
//   - camera: target (−x, y, z); Euler angles (rx, ry, rz) → (rx, −ry, −rz) (the camera rotation
//     R = Ry(−ry)·Rx(−rx)·Rz(−rz) of anim/camera.hpp conjugated by the mirror: rotations about Y
//     and Z change sign, about X not); distance and view angle unchanged;
//   - light direction (−x, y, z);
//   - curves, frames, self-shadow and visibility unchanged.
// Every change is a sign flip or a byte swap, so mirroring twice gives the input back bit for bit
// (with morph_names: except bytes after the NUL of a wink morph name).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "mmdkit/core/bytes.hpp"
#include "mmdkit/core/error.hpp"
#include "mmdkit/formats/vmd.hpp"
#include "mmdkit/formats/vpd.hpp"

namespace mmdkit::motion {

/// The mirrored name of a UTF-8 name (rules above; `morph` adds the wink pairs).
std::string mirror_name(std::string_view utf8, bool morph);

/// The same on CP932 bytes: bytes up to the first NUL swapped character by character (double-
/// byte characters are stepped over whole, so a trail byte is never taken for ASCII); bytes from
/// the NUL on copied.
std::vector<std::uint8_t> mirror_name_cp932(ByteSpan raw, bool morph);

/// Options of mirror.
struct MirrorOptions {
  bool morph_names = false;  ///< swap morph names too (see above)
};

/// The motion mirrored (rules above). Errors: encoding_error (a swapped name that the motion's
/// encoding cannot hold: only for non-CP932 motions).
Result<vmd::Motion> mirror(const vmd::Motion& motion, const MirrorOptions& options = {});

/// A VPD pose mirrored by the same rules: bone names swapped (CP932 bytes in place, as for a
/// motion), translation (x, y, z) → (−x, y, z), rotation (x, y, z, w) → (x, −y, −z, w), morph
/// names with `morph_names`. A zero is left as it is (no −0 written into the text), so the stored
/// number tokens of unchanged values stay and mirroring twice gives the file back byte for byte.
/// Errors: encoding_error (a swapped name the pose's encoding cannot hold).
Result<vpd::Pose> mirror(const vpd::Pose& pose, const MirrorOptions& options = {});

}  // namespace mmdkit::motion
