// Append (付与) transforms (pose.hpp; rules in docs/EVALUATION-BONES.md "Append"). Reproduces
// babylon-mmd AppendTransformSolver.update, which is the closest open implementation of MMD:
//   rotation source  = local append: the source's model-space rotation;
//                      otherwise the source's append result if it has an append rotation (chained
//                      appends), else its animated rotation — times the source's IK rotation;
//   rotation         = animated · slerp(identity, source, ratio) (ratio 1: source as is);
//   translation      = animated offset + ratio · source, where source = local append: the source's
//                      model-space displacement (model position − bind position); otherwise its
//                      append result if it has an append translation, else its animated offset.
#include "anim/pose_internal.hpp"

namespace mmdkit::anim {

void PoseEvaluator::apply_append(const Skeleton& s, PoseWorkspace& ws, std::uint32_t i, Quat& rot, Vec3& pos) noexcept {
  const BoneDesc& d = s.desc(i);
  const auto src = static_cast<std::size_t>(d.append_source);
  const BoneDesc& sd = s.desc(src);
  if (d.append_rotation) {
    Quat a;
    if (d.append_local) {
      a = ws.model_rot_[src];
    } else {
      a = sd.append_rotation ? ws.append_rot_[src] : ws.anim_rot_[src];
      a = pm::mul(ws.ik_rot_[src], a);
    }
    if (d.append_ratio != 1.0f) a = quat_slerp(kIdentityQuat, a, d.append_ratio);
    rot = pm::mul(rot, a);
  }
  if (d.append_translation) {
    Vec3 p;
    if (d.append_local)
      p = pm::sub(ws.model_pos_[src], s.bind_positions()[src]);
    else
      p = sd.append_translation ? ws.append_pos_[src] : ws.anim_pos_[src];
    if (d.append_ratio != 1.0f) p = pm::scale(p, d.append_ratio);
    pos = pm::add(p, pos);
  }
}

}  // namespace mmdkit::anim
