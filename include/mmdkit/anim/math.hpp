// mmdkit — vector and quaternion math for evaluation: lives in core (mmdkit/core/math.hpp); the
// names are also visible as mmdkit::anim::* for older callers.
#pragma once

#include "mmdkit/core/math.hpp"

namespace mmdkit::anim {

using mmdkit::kIdentityQuat;
using mmdkit::Mat4;
using mmdkit::Quat;
using mmdkit::quat_angle_between;
using mmdkit::quat_conjugate;
using mmdkit::quat_from_axis_angle;
using mmdkit::quat_multiply;
using mmdkit::quat_normalize;
using mmdkit::quat_rotate;
using mmdkit::quat_slerp;
using mmdkit::Vec2;
using mmdkit::Vec3;
using mmdkit::Vec4;

}  // namespace mmdkit::anim
