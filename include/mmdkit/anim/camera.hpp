// mmdkit — the MMD camera at a fractional frame.
//
// Semantics (docs/formats/NOTES.md "Camera semantics", babylon-mmd MmdCamera, nanoem PR 17):
// - A camera is a look-at point (target), Euler angles (radians, as stored in the VMD), a distance
//   (stored negative for a camera in front of the target; MMD's UI shows −distance), a vertical
//   field of view in degrees and a perspective switch.
// - Rotation matrix R = Ry(−ry) · Rx(−rx) · Rz(−rz) (column vectors; Rx(a) maps y → cos a·y − sin a·z,
//   z → sin a·y + cos a·z, and likewise for Ry (z → x) and Rz (x → y)), i.e. Z applied first, then
//   X, then Y — babylon-mmd's RotationYawPitchRoll(−ry, −rx, −rz).
//   The eye is at target + R·(0, 0, distance), looks along R·(0, 0, 1), up = R·(0, 1, 0).
//   With all angles 0 and distance −45 the eye is at target + (0, 0, −45) looking toward +Z,
//   at the front of a model (models face −Z).
// - Between keys a and b, each quantity is lerped by the weight of b's curve (the LATER key):
//   target X/Y/Z by the X/Y/Z curves, all three Euler angles by the rotation curve, distance by
//   the distance curve, field of view by the view-angle curve. Euler angles are lerped, not
//   slerped: a camera can turn more than 180° between keys.
// - Keys one frame apart (fb − fa ≤ 1) are a cut: a's values hold until frame fb, no blending.
// - Perspective steps (a's value until b).
// Keys: stable sort by frame, last duplicate wins (as for bones).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "mmdkit/core/math.hpp"
#include "mmdkit/formats/vmd.hpp"

namespace mmdkit::anim {

/// One camera key prepared for sampling.
struct CameraTrackKey {
  std::uint32_t frame = 0;
  Vec3 target{};              ///< look-at point, world space, MMD units
  Vec3 rotation{};            ///< Euler angles x, y, z in radians, as stored in the VMD
  float distance = -45.0f;    ///< MMD units, as stored (negative = in front of the target)
  float fov_degrees = 30.0f;  ///< vertical field of view, degrees
  bool perspective = true;    ///< stored byte 0 = perspective (true), anything else = orthographic
  vmd::CameraInterpolation curves;  ///< curves shaping the segment ENDING at this key
};

/// The camera at one time. The default value is MMD's initial camera (target (0, 10, 0),
/// distance −45, no rotation, 30°, perspective); sample_camera fills position and view too.
struct CameraState {
  Vec3 target{0.0f, 10.0f, 0.0f};  ///< world space, MMD units
  Vec3 rotation{};                 ///< Euler radians, as stored (see the convention above)
  float distance = -45.0f;         ///< MMD units, as stored
  float fov_degrees = 30.0f;       ///< vertical field of view, degrees
  bool perspective = true;
  Vec3 position{};                 ///< eye = target + R·(0, 0, distance), world space
  /// World → view matrix (column-major): left-handed view space, +X right, +Y up, +Z forward
  /// (glm::lookAtLH of eye, eye + R·(0,0,1), R·(0,1,0)), the convention of MMD and DirectX.
  Mat4 view{};
};

/// Stable sort by frame, last duplicate kept, curves decoded (vmd::decode_camera_interpolation),
/// view angle converted to float, perspective byte to bool.
std::vector<CameraTrackKey> build_camera_track(std::span<const vmd::CameraKey> keys);

/// Fills position and view of `state` from its target, rotation and distance.
void update_camera_view(CameraState& state) noexcept;

/// The camera at `frame` (30 fps, fractional allowed); `cursor` as in find_segment. An empty
/// track gives MMD's initial camera. position and view are filled.
CameraState sample_camera(std::span<const CameraTrackKey> keys, double frame, std::uint32_t& cursor) noexcept;

}  // namespace mmdkit::anim
