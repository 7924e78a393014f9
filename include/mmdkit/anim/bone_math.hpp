// mmdkit — per-bone transform helpers of the evaluation (implemented with it, src/anim/pose.cpp):
// MMD's fixed-axis projection of a key rotation and the matrix of a rigid transform. Space and
// matrix layout as anim/pose.hpp (docs/CONVENTIONS.md).
#pragma once

#include "mmdkit/core/math.hpp"

namespace mmdkit::anim {

/// Key rotation projected onto a fixed axis (PMX 0x400 / PMD twist): the rotation's angle about
/// its own axis, signed by the axis' direction relative to `axis`, applied about `axis`
/// (babylon-mmd MmdRuntimeBone; MMD does this when loading the motion). A zero axis gives identity.
Quat project_to_axis(const Quat& rotation, const Vec3& axis) noexcept;

/// Builds the 4×4 column-major matrix of a rigid transform (rotation then translation).
Mat4 rigid_matrix(const Quat& rotation, const Vec3& translation) noexcept;

}  // namespace mmdkit::anim
