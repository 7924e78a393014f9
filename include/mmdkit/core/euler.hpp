// mmdkit — bone rotations as the Euler angles MMD's UI shows (degrees), and back.
//
// Convention (docs/formats/vmd-json.md, "Euler angles"):
//   * Order YXZ: a quaternion q is the Hamilton product q = qY · qX · qZ of rotations about the
//     bone's parent-space axes, i.e. the matrix (column vectors) R = Ry · Rx · Rz: Z is applied
//     first, then X, then Y. Source: olyutorskii/Vmd2XML (MkQuat.setEulerYXZ / toEulerYXZ, whose
//     test fixture vmd110820/euler/euler.vmd stores YXZ (20°, 20°, 20°)) and miu200521358/mlib_go
//     (MQuaternion.ToRadians), which agree on the decomposition.
//   * Signs: the angles MMD's bone panel shows are (X, −Y, −Z) of that decomposition: X keeps the
//     sign of the quaternion's rotation about +X, Y and Z are negated. Source: mlib_go
//     MQuaternion.ToMMDDegrees and its Python predecessor (vmd_sizing, toEulerAngles4MMD,
//     "MMDの表記に合わせたオイラー角" = Euler angles matching MMD's display). Vmd2XML's XML uses
//     the raw decomposition without the negation: its (20, 20, 20) is (20, −20, −20) here.
//     Corroboration: mlib_go's reader test quotes 左足ＩＫ as (−1.4, 6.7, −5.2) in MMD's one-decimal
//     display; the corpus pose miu200521358__mlib_go/test_resources/サンプルモーション_0046.vmd with
//     the same 左足ＩＫ position gives (−1.36, 6.74, −5.24) here (tests/formats/vmd/json_test.cpp).
//   * Ranges: X in [−90, 90], Y and Z in [−180, 180].
//   * Gimbal lock: when |sin X| > 1 − 1e-6 (X within about 0.08° of ±90°), X is ±90 exactly, Z is 0
//     and the whole remaining turn about the vertical is given to Y (as mlib_go does).
// Everything is computed in double and rounded to float at the end.
#pragma once

#include <array>

namespace mmdkit {

/// Euler angles in degrees {X, Y, Z} as MMD's UI shows them, for a bone rotation quaternion
/// {x, y, z, w} as VMD stores it (MMD's left-handed space, parent frame). The quaternion is
/// normalized first (q and −q give the same angles); an all-zero quaternion is the identity
/// (MMD's evaluation treats it so) and gives {0, 0, 0}; a NaN or infinite component gives NaNs.
std::array<float, 3> quaternion_to_euler_degrees(const std::array<float, 4>& q) noexcept;

/// The unit quaternion {x, y, z, w} for Euler angles in degrees {X, Y, Z} as MMD's UI shows them
/// (inverse of quaternion_to_euler_degrees up to the sign of the quaternion and the gimbal-lock
/// choice). Any finite angles are accepted (outside the ranges above they wrap). The result is the
/// product qY(−Y) · qX(X) · qZ(−Z) as computed, with no sign forced on w. NaN in, NaN out.
std::array<float, 4> euler_degrees_to_quaternion(const std::array<float, 3>& degrees) noexcept;

/// True when Euler angles read next to a quaternion (JSON with "rotation" and "euler") were edited:
/// they are not, bit for bit, quaternion_to_euler_degrees(q) (what the dumper wrote, which
/// therefore always reads back as unedited, gimbal lock included), and the rotation they give is
/// more than `tolerance_degrees` away from q's. The JSON importers then let the Euler angles win,
/// as an edited name wins over its stale raw bytes (docs/formats/vmd-json.md "Euler angles").
/// False when q or the angles are not finite (the quaternion, as stored, stays).
bool euler_edited(const std::array<float, 3>& degrees, const std::array<float, 4>& q,
                  double tolerance_degrees = 1e-3) noexcept;

}  // namespace mmdkit
