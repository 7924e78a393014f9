// mmdkit — model view → PMX; PMD → PMX.
#include "mmdkit/model/convert.hpp"

#include <limits>
#include <map>

#include "build_internal.hpp"
#include "stored_fields.hpp"
#include "core/try.hpp"

namespace mmdkit::model {
namespace {

pmx::Text txt(const std::string& s) {
  pmx::Text t;
  t.text = s;
  return t;
}

}  // namespace

Result<pmx::Model> to_pmx(const Model& v, std::vector<Warning>* warnings) {
  constexpr std::size_t kMax = static_cast<std::size_t>(std::numeric_limits<std::int32_t>::max());
  if (v.vertices.size() > kMax || v.bones.size() > kMax || v.morphs.size() > kMax || v.materials.size() > kMax)
    return make_error(ErrorCode::limit_exceeded, "model has more than 2^31 - 1 records in a section");
  pmx::Model p;
  p.header.version = pmx::Version::v2_0;
  p.header.version_value = 2.0f;
  p.header.encoding = Encoding::utf16le;
  p.header.additional_uv_count = v.additional_uv_count;
  p.name = txt(v.name);
  p.name_en = txt(v.name_en);
  p.comment = txt(v.comment);
  p.comment_en = txt(v.comment_en);

  p.vertices.resize(v.vertices.size());
  for (std::size_t i = 0; i < v.vertices.size(); ++i) {
    const Vertex& s = v.vertices[i];
    pmx::Vertex& d = p.vertices[i];
    d.position = s.position;
    d.normal = s.normal;
    d.uv = s.uv;
    d.edge_scale = s.edge_scale;
    d.deform = static_cast<pmx::DeformType>(s.deform);
    d.bones = {0, 0, 0, 0};
    d.weights = {0, 0, 0, 0};
    switch (s.deform) {
      case DeformType::bdef1: d.bones[0] = s.bones[0]; break;
      case DeformType::bdef2:
      case DeformType::sdef:
        d.bones[0] = s.bones[0];
        d.bones[1] = s.bones[1];
        d.weights[0] = s.weights[0];
        break;
      case DeformType::bdef4:
      case DeformType::qdef:
        d.bones = s.bones;
        d.weights = s.weights;
        break;
    }
    if (s.deform == DeformType::sdef) {
      d.sdef = static_cast<std::uint32_t>(p.sdef_params.size());
      p.sdef_params.push_back({s.sdef_c, s.sdef_r0, s.sdef_r1});
    }
  }
  p.additional_uvs = v.additional_uvs;
  p.faces = v.faces;

  std::map<std::string, std::int32_t> tex_index;
  auto tex = [&](const std::string& ref) -> std::int32_t {
    if (ref.empty()) return pmx::kNone;
    auto [it, fresh] = tex_index.emplace(ref, static_cast<std::int32_t>(p.textures.size()));
    if (fresh) p.textures.push_back(txt(ref));
    return it->second;
  };
  p.materials.resize(v.materials.size());
  for (std::size_t i = 0; i < v.materials.size(); ++i) {
    const Material& s = v.materials[i];
    pmx::Material& d = p.materials[i];
    d.name = txt(s.name);
    d.name_en = txt(s.name_en);
    detail::copy_material_values(d, s);
    d.texture = tex(s.texture);
    d.sphere_texture = tex(s.sphere);
    d.sphere_mode = d.sphere_texture == pmx::kNone ? 0 : static_cast<std::uint8_t>(s.sphere_mode);
    if (s.shared_toon >= 0) {
      d.shared_toon = 1;
      d.toon = s.shared_toon;
    } else {
      d.shared_toon = 0;
      d.toon = tex(s.toon);
    }
    d.memo = txt(s.memo);
    d.face_index_count = s.index_count;
  }
  // Faces the view keeps after the last material range are not drawn by any material: PMX
  // requires the counts to cover all faces, so they go to the last material only if contiguous.
  if (!p.materials.empty()) {
    std::uint64_t covered = 0;
    for (const auto& m : p.materials) covered += m.face_index_count;
    if (covered < p.faces.size()) p.faces.resize(static_cast<std::size_t>(covered));
  } else {
    p.faces.clear();
  }

  const std::vector<std::int32_t> layers =
      v.transform_order == TransformOrder::pmd ? detail::pmd_layers(v) : std::vector<std::int32_t>{};
  p.bones.resize(v.bones.size());
  for (std::size_t i = 0; i < v.bones.size(); ++i) {
    const Bone& s = v.bones[i];
    pmx::Bone& d = p.bones[i];
    d.name = txt(s.name);
    d.name_en = txt(s.name_en);
    d.position = s.position;
    d.parent = s.parent;
    d.deform_layer = layers.empty() ? s.deform_layer : layers[i];
    std::uint16_t f = 0;
    if (s.tail_bone >= 0) {
      f |= pmx::kTailIsBone;
      d.tail_bone = s.tail_bone;
    } else {
      d.tail_offset = s.tail_offset;
    }
    if (s.rotatable) f |= pmx::kRotatable;
    if (s.movable) f |= pmx::kMovable;
    if (s.visible) f |= pmx::kVisible;
    if (s.operable) f |= pmx::kOperable;
    if (s.append_rotation) f |= pmx::kAppendRotation;
    if (s.append_translation) f |= pmx::kAppendTranslation;
    if ((s.append_rotation || s.append_translation)) {
      if (s.append_local) f |= pmx::kLocalAppend;
      d.append_parent = s.append_parent;
      d.append_ratio = s.append_ratio;
    }
    if (s.has_fixed_axis) {
      f |= pmx::kFixedAxis;
      d.fixed_axis = s.fixed_axis;
    }
    if (s.has_local_axes) {
      f |= pmx::kLocalAxes;
      d.local_x = s.local_x;
      d.local_z = s.local_z;
    }
    if (s.after_physics) f |= pmx::kAfterPhysics;
    if (s.has_external_parent) {
      f |= pmx::kExternalParent;
      d.external_parent_key = s.external_parent_key;
    }
    d.flags = f;
  }
  for (std::size_t c = 0; c < v.ik_chains.size(); ++c) {
    const IkChain& s = v.ik_chains[c];
    pmx::Bone& d = p.bones[static_cast<std::size_t>(s.ik_bone)];
    if (d.has(pmx::kIk)) {
      if (warnings)
        warnings->push_back(Error{ErrorCode::unsupported,
                                  "a second IK chain on the same IK bone cannot be written to PMX; dropped",
                                  v.source == SourceFormat::pmd ? "ik chains" : "bones", s.source_index, -1, {}});
      continue;
    }
    d.flags |= pmx::kIk;
    d.ik_target = s.effector;
    d.ik_iterations = s.iterations;
    d.ik_limit_angle = s.unit_angle;
    for (const IkLink& l : s.links)
      d.ik_links.push_back(pmx::IkLink{l.bone, static_cast<std::uint8_t>(l.has_limits ? 1 : 0), l.lower, l.upper});
  }

  p.morphs.resize(v.morphs.size());
  for (std::size_t i = 0; i < v.morphs.size(); ++i) {
    const Morph& s = v.morphs[i];
    pmx::Morph& d = p.morphs[i];
    d.name = txt(s.name);
    d.name_en = txt(s.name_en);
    d.panel = s.panel;
    d.type = static_cast<pmx::MorphType>(s.type);
    for (const auto& o : s.group_offsets) d.group_offsets.push_back({o.morph, o.weight});
    for (const auto& o : s.flip_offsets) d.flip_offsets.push_back({o.morph, o.weight});
    for (const auto& o : s.vertex_offsets) d.vertex_offsets.push_back({o.vertex, o.offset});
    for (const auto& o : s.bone_offsets) d.bone_offsets.push_back({o.bone, o.translation, o.rotation});
    for (const auto& o : s.uv_offsets) d.uv_offsets.push_back({o.vertex, o.offset});
    for (const auto& o : s.material_offsets)
      d.material_offsets.push_back({o.material, o.operation, o.diffuse, o.specular, o.specular_power, o.ambient,
                                    o.edge_color, o.edge_size, o.texture_tint, o.sphere_tint, o.toon_tint});
    for (const auto& o : s.impulse_offsets)
      d.impulse_offsets.push_back({o.rigid_body, static_cast<std::uint8_t>(o.local ? 1 : 0), o.velocity, o.torque});
  }
  p.display_frames.resize(v.display_frames.size());
  for (std::size_t i = 0; i < v.display_frames.size(); ++i) {
    const DisplayFrame& s = v.display_frames[i];
    pmx::DisplayFrame& d = p.display_frames[i];
    d.name = txt(s.name);
    d.name_en = txt(s.name_en);
    d.special = s.special ? 1 : 0;
    for (const auto& e : s.elements) d.elements.push_back({static_cast<std::uint8_t>(e.morph ? 1 : 0), e.index});
  }
  p.rigid_bodies.resize(v.rigid_bodies.size());
  for (std::size_t i = 0; i < v.rigid_bodies.size(); ++i) {
    const RigidBody& s = v.rigid_bodies[i];
    pmx::RigidBody& d = p.rigid_bodies[i];
    d.name = txt(s.name);
    d.name_en = txt(s.name_en);
    d.bone = s.bone;
    detail::copy_rigid_body_values(d, s);
  }
  p.joints.resize(v.joints.size());
  for (std::size_t i = 0; i < v.joints.size(); ++i) {
    const Joint& s = v.joints[i];
    pmx::Joint& d = p.joints[i];
    d.name = txt(s.name);
    d.name_en = txt(s.name_en);
    d.type = static_cast<std::uint8_t>(s.type);
    d.rigid_body_a = s.rigid_body_a;
    d.rigid_body_b = s.rigid_body_b;
    detail::copy_joint_values(d, s);
  }
  pmx::fit_index_sizes(p);
  return p;
}

Result<pmx::Model> pmd_to_pmx(const pmd::Model& pmd, std::vector<Warning>* warnings) {
  MMDKIT_TRY_ASSIGN(auto view, from_pmd(pmd));
  if (warnings)
    for (const Finding& f : view.findings)
      warnings->push_back(Error{ErrorCode::invalid_value, std::string(finding_kind_name(f.kind)) + ": " +
                                                              (f.field.empty() ? "" : f.field + ": ") + f.message,
                                f.section, f.record, -1, {}});
  return to_pmx(view, warnings);
}

}  // namespace mmdkit::model
