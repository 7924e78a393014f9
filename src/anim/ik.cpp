// CCD IK with MMD's rules (pose.hpp; docs/EVALUATION-BONES.md "IK"). Follows babylon-mmd 1.3.0
// IkSolver (itself from saba MMDIkSolver), the closest open implementation of MMD:
//   - links' IK rotations are reset; nothing is done when the effector already is within 1e-4 of
//     the goal (squared distance < 1e-8), before or after refreshing the chain;
//   - per iteration, per link from the effector upward (link c = 0, 1, ...): links whose limits are
//     all zero are skipped; the rotation turning (link → effector) onto (link → goal), axis expressed
//     in the link's parent space, angle capped at unit_angle × (c + 1);
//   - first half of the iterations (i < iterations / 2): single-axis links (e.g. knees) rotate
//     about ±that axis only, and limits reflect an overshoot back into range; second half: free
//     axis and plain clamping;
//   - limits: (IK · local) decomposed to Euler angles in the link's order (middle angle clamped at
//     ±88°), each clamped to [lower, upper], rebuilt, local removed again;
//   - after each iteration, stop when the effector is within 1e-4 of the goal.
#include <algorithm>
#include <cmath>
#include <numbers>

#include "anim/pose_internal.hpp"

namespace mmdkit::anim {

namespace {

float limit_angle(float angle, float lo, float hi, bool use_axis) noexcept {
  if (angle < lo) {
    const float diff = 2.0f * lo - angle;
    return (diff <= hi && use_axis) ? diff : lo;
  }
  if (angle > hi) {
    const float diff = 2.0f * hi - angle;
    return (diff >= lo && use_axis) ? diff : hi;
  }
  return angle;
}

constexpr Vec3 kX{1, 0, 0}, kY{0, 1, 0}, kZ{0, 0, 1};


// (IK · local) limited per Euler axis; returns the new rotation (IK · local, limited).
Quat limit_rotation(const IkLink& link, const Quat& q, bool use_axis) noexcept {
  const Mat4 m = rigid_matrix(q, Vec3{});  // column-major: m[4c + r]
  const float threshold = 88.0f * std::numbers::pi_v<float> / 180.0f;
  auto clampt = [&](float a) { return std::clamp(a, -threshold, threshold); };
  float rx = 0, ry = 0, rz = 0;
  switch (link.order) {
    case IkEulerOrder::yxz: {  // R = Ry · Rx · Rz
      rx = clampt(std::asin(std::clamp(-m[9], -1.0f, 1.0f)));
      float c = std::cos(rx);
      if (c != 0.0f) c = 1.0f / c;
      ry = std::atan2(m[8] * c, m[10] * c);
      rz = std::atan2(m[1] * c, m[5] * c);
      break;
    }
    case IkEulerOrder::zyx: {  // R = Rz · Ry · Rx
      ry = clampt(std::asin(std::clamp(-m[2], -1.0f, 1.0f)));
      float c = std::cos(ry);
      if (c != 0.0f) c = 1.0f / c;
      rx = std::atan2(m[6] * c, m[10] * c);
      rz = std::atan2(m[1] * c, m[0] * c);
      break;
    }
    case IkEulerOrder::xzy: {  // R = Rx · Rz · Ry
      rz = clampt(std::asin(std::clamp(-m[4], -1.0f, 1.0f)));
      float c = std::cos(rz);
      if (c != 0.0f) c = 1.0f / c;
      rx = std::atan2(m[6] * c, m[5] * c);
      ry = std::atan2(m[8] * c, m[0] * c);
      break;
    }
  }
  rx = limit_angle(rx, link.lower[0], link.upper[0], use_axis);
  ry = limit_angle(ry, link.lower[1], link.upper[1], use_axis);
  rz = limit_angle(rz, link.lower[2], link.upper[2], use_axis);
  const Quat qx = pm::axis_angle(kX, rx), qy = pm::axis_angle(kY, ry), qz = pm::axis_angle(kZ, rz);
  switch (link.order) {
    case IkEulerOrder::yxz: return pm::mul(pm::mul(qy, qx), qz);
    case IkEulerOrder::zyx: return pm::mul(pm::mul(qz, qy), qx);
    case IkEulerOrder::xzy: break;
  }
  return pm::mul(pm::mul(qx, qz), qy);
}

}  // namespace

void PoseEvaluator::solve_ik(const Skeleton& s, PoseWorkspace& ws, std::uint32_t k) noexcept {
  const IkSolver& sv = s.solvers()[k];
  const auto links = s.ik_links().subspan(sv.link_begin, sv.link_end - sv.link_begin);
  const auto lists = s.ik_bone_lists();
  const auto path = lists.subspan(sv.path_begin, sv.path_end - sv.path_begin);
  const auto refresh = lists.subspan(sv.refresh_begin, sv.refresh_end - sv.refresh_begin);
  if (links.empty()) return;
  for (const IkLink& l : links) ws.ik_rot_[l.bone] = kIdentityQuat;

  const Vec3 goal = ws.model_pos_[sv.bone];
  update_bone(s, ws, sv.effector);
  if (pm::dist2(goal, ws.model_pos_[sv.effector]) < 1.0e-8f) return;
  for (std::uint32_t b : path) update_bone(s, ws, b);  // chain without IK rotations, top-down
  if (pm::dist2(goal, ws.model_pos_[sv.effector]) < 1.0e-8f) return;

  const std::uint32_t iterations = sv.iterations;
  const std::uint32_t half = iterations >> 1;
  for (std::uint32_t it = 0; it < iterations; ++it) {
    const bool use_axis = it < half;
    for (std::size_t c = 0; c < links.size(); ++c) {
      const IkLink& link = links[c];
      if (link.axis == IkSolveAxis::fixed) continue;
      const std::uint32_t lb = link.bone;
      // Angle by atan2(|e × g|, e · g) on the unnormalized directions: exact for small angles in
      // float (acos of a float dot cannot resolve angles below ~3e-4 rad and CCD would stall
      // millimetres short of the goal; babylon-mmd uses acos in double). The skip test is B's
      // |normalize(e) × normalize(g)|² < 1e-8.
      const Vec3 e = pm::sub(ws.model_pos_[lb], ws.model_pos_[sv.effector]);
      const Vec3 g = pm::sub(ws.model_pos_[lb], goal);
      const Vec3 cr = pm::cross(e, g);
      const float cr2 = pm::dot(cr, cr);
      const float n2 = pm::dot(e, e) * pm::dot(g, g);
      if (!(cr2 >= 1.0e-8f * n2) || n2 == 0.0f) continue;
      const float full_angle = std::atan2(std::sqrt(cr2), pm::dot(e, g));
      Vec3 axis = pm::scale(cr, 1.0f / std::sqrt(cr2));
      const std::int32_t parent = s.parents()[lb];
      const Quat parent_rot = parent < 0 ? kIdentityQuat : ws.model_rot_[static_cast<std::size_t>(parent)];
      if (link.has_limits && use_axis && link.axis != IkSolveAxis::none) {
        const Vec3& unit = link.axis == IkSolveAxis::x ? kX : link.axis == IkSolveAxis::y ? kY : kZ;
        const float d = pm::dot(axis, pm::rotate(parent_rot, unit));
        axis = pm::scale(unit, d >= 0.0f ? 1.0f : -1.0f);
      } else {
        axis = pm::normalized(pm::rotate(pm::conj(parent_rot), axis));
      }
      const float angle = std::min(sv.unit_angle * static_cast<float>(c + 1), full_angle);
      Quat ik = pm::mul(pm::axis_angle(axis, angle), ws.ik_rot_[lb]);
      if (link.has_limits) {
        const Quat local = ws.append_rot_[lb];
        ik = pm::mul(limit_rotation(link, pm::mul(ik, local), use_axis), pm::conj(local));
      }
      ws.ik_rot_[lb] = ik;
      // Update the chain below (and including) this link; the effector last.
      for (std::size_t j = link.path_index; j < path.size(); ++j) {
        const std::uint32_t b = path[j];
        if (b == lb) {
          recompose(s, ws, b);
        } else {
          const BoneDesc& bd = s.desc(b);
          if (bd.append_rotation || bd.append_translation)
            update_bone(s, ws, b);  // its append source may have moved (B re-evaluates children fully)
          else
            model_from_local(s, ws, b);  // local unchanged: only the parent moved
        }
      }
    }
    if (pm::dist2(goal, ws.model_pos_[sv.effector]) < 1.0e-8f) break;
  }
  for (std::uint32_t b : refresh) update_bone(s, ws, b);
}

}  // namespace mmdkit::anim
