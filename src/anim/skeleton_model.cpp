// SkeletonDesc from the format-neutral model view (model/model.hpp).
#include "mmdkit/anim/skeleton.hpp"
#include "mmdkit/core/text.hpp"
#include "mmdkit/model/model.hpp"
#include "core/try.hpp"

namespace mmdkit::anim {

Result<SkeletonDesc> skeleton_desc_from_model(const model::Model& m) {
  SkeletonDesc d;
  d.rule = m.transform_order == model::TransformOrder::pmd ? OrderRule::pmd : OrderRule::pmx;
  const std::size_t n = m.bones.size();
  d.bones.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    const model::Bone& b = m.bones[i];
    BoneDesc& o = d.bones[i];
    o.name = b.name;
    if (auto bytes = encode_text(b.name, Encoding::cp932))
      o.name_bytes = std::move(*bytes);
    else
      o.name_bytes = b.binding_key;  // e.g. a GBK PMD name: its stored bytes (cut to 15)
    o.position = b.position;
    o.parent = b.parent;
    // PMD: the view's deform layers describe its stages; the PMD order rule replaces them.
    o.deform_layer = d.rule == OrderRule::pmd ? 0 : b.deform_layer;
    o.after_physics = b.after_physics;
    if ((b.append_rotation || b.append_translation) && b.append_parent >= 0) {
      o.append_source = b.append_parent;
      o.append_ratio = b.append_ratio;
      o.append_rotation = b.append_rotation;
      o.append_translation = b.append_translation;
      o.append_local = b.append_local;
    }
    o.has_fixed_axis = b.has_fixed_axis;
    o.fixed_axis = b.fixed_axis;
  }
  for (const model::IkChain& c : m.ik_chains) {
    if (c.ik_bone < 0 || static_cast<std::size_t>(c.ik_bone) >= n) continue;
    BoneDesc& o = d.bones[static_cast<std::size_t>(c.ik_bone)];
    if (o.ik_effector != kNoBone) continue;  // one chain per IK bone
    o.ik_effector = c.effector;
    o.ik_iterations = c.iterations < 0 ? 0u : static_cast<std::uint32_t>(c.iterations);
    o.ik_unit_angle = c.unit_angle;
    o.ik_file_order = c.source_index;
    for (const model::IkLink& l : c.links) o.ik_links.push_back(IkLinkDesc{l.bone, l.has_limits, l.lower, l.upper});
  }
  return d;
}

Result<Skeleton> build_skeleton(const model::Model& model) {
  MMDKIT_TRY_ASSIGN(auto d, skeleton_desc_from_model(model));
  return build_skeleton(std::move(d));
}

}  // namespace mmdkit::anim
