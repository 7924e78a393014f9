// mmdkit — model view from a PMX model.
#include <limits>

#include "build_internal.hpp"
#include "stored_fields.hpp"
#include "mmdkit/formats/pmx.hpp"

namespace mmdkit::model {
namespace {

using detail::add;
using detail::out_of_range;

// Valid index (0 <= i < n) or -1 with a finding when i is not -1 ("none").
std::int32_t checked(std::int32_t i, std::size_t n, std::vector<Finding>& f, const char* section, std::size_t record,
                     const std::string& field, const char* what) {
  if (i == -1) return -1;
  if (i >= 0 && static_cast<std::size_t>(i) < n) return i;
  add(f, FindingKind::index_out_of_range, section, static_cast<std::int64_t>(record), field,
      out_of_range(i, n, what) + "; treated as none");
  return -1;
}

std::string idx_field(const char* list, std::size_t k, const char* member) {
  return std::string(list) + "[" + std::to_string(k) + "]" + (member[0] ? std::string(".") + member : "");
}

}  // namespace

namespace {

// Vertices.
void vertices(const pmx::Model& p, Model& m, std::size_t nv, std::size_t nb) {
  auto& F = m.findings;
  m.vertices.resize(nv);
  for (std::size_t i = 0; i < nv; ++i) {
    const pmx::Vertex& s = p.vertices[i];
    Vertex& v = m.vertices[i];
    v.position = s.position;
    v.normal = s.normal;
    v.uv = s.uv;
    v.edge_scale = s.edge_scale;
    v.deform = static_cast<DeformType>(s.deform);
    int used = 1;
    switch (s.deform) {
      case pmx::DeformType::bdef1: used = 1; v.weights = {1, 0, 0, 0}; break;
      case pmx::DeformType::bdef2:
      case pmx::DeformType::sdef:
        used = 2;
        v.weights = {s.weights[0], 1.0f - s.weights[0], 0, 0};
        break;
      case pmx::DeformType::bdef4:
      case pmx::DeformType::qdef: used = 4; v.weights = s.weights; break;
    }
    for (int k = 0; k < used; ++k)
      v.bones[static_cast<std::size_t>(k)] =
          checked(s.bones[static_cast<std::size_t>(k)], nb, F, "vertices", i, idx_field("bones", static_cast<std::size_t>(k), ""), "bones");
    if (s.deform == pmx::DeformType::sdef) {
      if (s.sdef < p.sdef_params.size()) {
        v.sdef_c = p.sdef_params[s.sdef].c;
        v.sdef_r0 = p.sdef_params[s.sdef].r0;
        v.sdef_r1 = p.sdef_params[s.sdef].r1;
      } else {
        add(F, FindingKind::index_out_of_range, "vertices", static_cast<std::int64_t>(i), "sdef",
            "SDEF vertex without SDEF parameters; deformed as BDEF2");
        v.deform = DeformType::bdef2;
      }
    }
  }
  m.additional_uv_count = p.header.additional_uv_count;
  if (p.additional_uvs.size() == nv * p.header.additional_uv_count)
    m.additional_uvs = p.additional_uvs;
  else
    m.additional_uvs.assign(nv * p.header.additional_uv_count, Vec4{});
}

// Materials.
void materials(const pmx::Model& p, Model& m, bool geometry, std::size_t nm, std::size_t nt) {
  auto& F = m.findings;
  m.materials.resize(nm);
  std::vector<std::uint32_t> counts(nm);
  auto tex = [&](std::int32_t t, std::size_t rec, const char* field) -> std::string {
    std::int32_t c = checked(t, nt, F, "materials", rec, field, "textures");
    return c < 0 ? std::string() : p.textures[static_cast<std::size_t>(c)].text;
  };
  for (std::size_t i = 0; i < nm; ++i) {
    const pmx::Material& s = p.materials[i];
    Material& d = m.materials[i];
    d.name = s.name.text;
    d.name_en = s.name_en.text;
    detail::copy_material_values(d, s);
    d.texture = tex(s.texture, i, "texture");
    d.sphere = tex(s.sphere_texture, i, "sphere_texture");
    d.sphere_mode = s.sphere_mode <= 3 ? static_cast<SphereMode>(s.sphere_mode) : SphereMode::off;
    if (d.sphere.empty()) {
      d.sphere_mode = SphereMode::off;  // the mode byte means nothing without a sphere texture
    } else if (s.sphere_mode > 3) {
      add(F, FindingKind::index_out_of_range, "materials", static_cast<std::int64_t>(i), "sphere_mode",
          "sphere mode " + std::to_string(s.sphere_mode) + " is not 0..3; treated as off", Severity::warning);
    }
    if (s.shared_toon == 1) {
      if (s.toon >= 0 && s.toon <= 9) {
        d.shared_toon = s.toon;
      } else {
        add(F, FindingKind::index_out_of_range, "materials", static_cast<std::int64_t>(i), "toon",
            "shared toon " + std::to_string(s.toon) + " is not 0..9; treated as none");
      }
    } else {
      d.toon = tex(s.toon, i, "toon");
    }
    d.memo = s.memo.text;
    counts[i] = s.face_index_count;
  }
  if (geometry) detail::build_faces(m, p.faces, counts, "faces", "materials");
}

// Bones.
void bones(const pmx::Model& p, Model& m, std::size_t nb) {
  auto& F = m.findings;
  m.bones.resize(nb);
  for (std::size_t i = 0; i < nb; ++i) {
    const pmx::Bone& s = p.bones[i];
    Bone& b = m.bones[i];
    b.name = s.name.text;
    b.name_en = s.name_en.text;
    b.position = s.position;
    b.parent = checked(s.parent, nb, F, "bones", i, "parent", "bones");
    b.deform_layer = s.deform_layer;
    if (s.has(pmx::kTailIsBone))
      b.tail_bone = checked(s.tail_bone, nb, F, "bones", i, "tail_bone", "bones");
    else
      b.tail_offset = s.tail_offset;
    b.rotatable = s.has(pmx::kRotatable);
    b.movable = s.has(pmx::kMovable);
    b.visible = s.has(pmx::kVisible);
    b.operable = s.has(pmx::kOperable);
    if (s.has(pmx::kAppendRotation) || s.has(pmx::kAppendTranslation)) {
      b.append_parent = checked(s.append_parent, nb, F, "bones", i, "append_parent", "bones");
      if (b.append_parent >= 0) {
        b.append_rotation = s.has(pmx::kAppendRotation);
        b.append_translation = s.has(pmx::kAppendTranslation);
        b.append_local = s.has(pmx::kLocalAppend);
        b.append_ratio = s.append_ratio;
      }
    }
    b.has_fixed_axis = s.has(pmx::kFixedAxis);
    if (b.has_fixed_axis) b.fixed_axis = s.fixed_axis;
    b.has_local_axes = s.has(pmx::kLocalAxes);
    if (b.has_local_axes) {
      b.local_x = s.local_x;
      b.local_z = s.local_z;
    }
    b.after_physics = s.has(pmx::kAfterPhysics);
    b.has_external_parent = s.has(pmx::kExternalParent);
    if (b.has_external_parent) b.external_parent_key = s.external_parent_key;
  }
  detail::break_parent_loops(m, "bones");
}

// IK chains, in bone order.
void ik_chains(const pmx::Model& p, Model& m, std::size_t nb) {
  auto& F = m.findings;
  for (std::size_t i = 0; i < nb; ++i) {
    const pmx::Bone& s = p.bones[i];
    if (!s.has(pmx::kIk)) continue;
    IkChain c;
    c.ik_bone = static_cast<std::int32_t>(i);
    c.source_index = static_cast<std::int32_t>(i);
    c.effector = checked(s.ik_target, nb, F, "bones", i, "ik_target", "bones");
    if (c.effector < 0 || c.effector == c.ik_bone) {
      if (c.effector == c.ik_bone)
        add(F, FindingKind::ik_invalid, "bones", static_cast<std::int64_t>(i), "ik_target",
            "IK effector is the IK bone itself; the chain is ignored");
      else if (s.ik_target == -1)
        add(F, FindingKind::ik_invalid, "bones", static_cast<std::int64_t>(i), "ik_target",
            "IK bone without an effector; the chain is ignored");
      continue;
    }
    c.iterations = s.ik_iterations;
    c.unit_angle = s.ik_limit_angle;
    for (std::size_t k = 0; k < s.ik_links.size(); ++k) {
      const pmx::IkLink& l = s.ik_links[k];
      std::int32_t lb = checked(l.bone, nb, F, "bones", i, idx_field("ik_links", k, "bone"), "bones");
      if (lb < 0) {
        if (l.bone == -1)
          add(F, FindingKind::index_out_of_range, "bones", static_cast<std::int64_t>(i),
              idx_field("ik_links", k, "bone"), "IK link without a bone; dropped");
        continue;
      }
      IkLink d;
      d.bone = lb;
      d.has_limits = l.has_limits != 0;
      d.lower = l.lower;
      d.upper = l.upper;
      c.links.push_back(d);
    }
    m.bones[i].is_ik = true;
    m.bones[i].ik_chain = static_cast<std::int32_t>(m.ik_chains.size());
    m.ik_chains.push_back(std::move(c));
  }
}

// Morphs.
void morphs(const pmx::Model& p, Model& m, bool geometry, std::size_t nv, std::size_t nb, std::size_t nm, std::size_t nmo, std::size_t nr) {
  auto& F = m.findings;
  m.morphs.resize(nmo);
  for (std::size_t i = 0; i < nmo; ++i) {
    const pmx::Morph& s = p.morphs[i];
    Morph& d = m.morphs[i];
    d.name = s.name.text;
    d.name_en = s.name_en.text;
    d.panel = s.panel;
    d.type = static_cast<MorphType>(s.type);
    auto drop = [&](const char* list, std::size_t k, const char* member, std::int64_t index, std::size_t n,
                    const char* what) {
      add(F, FindingKind::index_out_of_range, "morphs", static_cast<std::int64_t>(i), idx_field(list, k, member),
          out_of_range(index, n, what) + "; the offset is dropped");
    };
    for (std::size_t k = 0; k < s.group_offsets.size(); ++k) {
      const auto& o = s.group_offsets[k];
      if (o.morph < 0 || static_cast<std::size_t>(o.morph) >= nmo) { drop("offsets", k, "morph", o.morph, nmo, "morphs"); continue; }
      d.group_offsets.push_back({o.morph, o.weight});
    }
    for (std::size_t k = 0; k < s.flip_offsets.size(); ++k) {
      const auto& o = s.flip_offsets[k];
      if (o.morph < 0 || static_cast<std::size_t>(o.morph) >= nmo) { drop("flip_offsets", k, "morph", o.morph, nmo, "morphs"); continue; }
      d.flip_offsets.push_back({o.morph, o.weight});
    }
    for (std::size_t k = 0; geometry && k < s.vertex_offsets.size(); ++k) {
      const auto& o = s.vertex_offsets[k];
      if (o.vertex >= nv) { drop("offsets", k, "vertex", o.vertex, nv, "vertices"); continue; }
      d.vertex_offsets.push_back({o.vertex, o.offset});
    }
    for (std::size_t k = 0; k < s.bone_offsets.size(); ++k) {
      const auto& o = s.bone_offsets[k];
      if (o.bone < 0 || static_cast<std::size_t>(o.bone) >= nb) { drop("offsets", k, "bone", o.bone, nb, "bones"); continue; }
      d.bone_offsets.push_back({o.bone, o.translation, o.rotation});
    }
    const auto ti = static_cast<std::uint8_t>(s.type);
    if (ti >= 4 && ti <= 7 && ti - 3 > p.header.additional_uv_count && !s.uv_offsets.empty()) {
      add(F, FindingKind::index_out_of_range, "morphs", static_cast<std::int64_t>(i), "type",
          "additional UV " + std::to_string(ti - 3) + " morph, the model has " +
              std::to_string(p.header.additional_uv_count) + " additional UVs; its offsets are dropped");
    } else {
      for (std::size_t k = 0; geometry && k < s.uv_offsets.size(); ++k) {
        const auto& o = s.uv_offsets[k];
        if (o.vertex >= nv) { drop("offsets", k, "vertex", o.vertex, nv, "vertices"); continue; }
        d.uv_offsets.push_back({o.vertex, o.offset});
      }
    }
    for (std::size_t k = 0; k < s.material_offsets.size(); ++k) {
      const auto& o = s.material_offsets[k];
      if (o.material < -1 || (o.material >= 0 && static_cast<std::size_t>(o.material) >= nm)) {
        drop("offsets", k, "material", o.material, nm, "materials");
        continue;
      }
      d.material_offsets.push_back({o.material, o.operation, o.diffuse, o.specular, o.specular_power, o.ambient,
                                    o.edge_color, o.edge_size, o.texture_tint, o.sphere_tint, o.toon_tint});
    }
    for (std::size_t k = 0; k < s.impulse_offsets.size(); ++k) {
      const auto& o = s.impulse_offsets[k];
      if (o.rigid_body < 0 || static_cast<std::size_t>(o.rigid_body) >= nr) {
        drop("offsets", k, "rigid_body", o.rigid_body, nr, "rigid bodies");
        continue;
      }
      d.impulse_offsets.push_back({o.rigid_body, o.local != 0, o.velocity, o.torque});
    }
  }
  detail::drop_nested_groups(m, "morphs", [](std::size_t i) { return static_cast<std::int64_t>(i); });
}

// Display frames.
void display_frames(const pmx::Model& p, Model& m, std::size_t nb, std::size_t nmo) {
  auto& F = m.findings;
  m.display_frames.resize(p.display_frames.size());
  for (std::size_t i = 0; i < p.display_frames.size(); ++i) {
    const pmx::DisplayFrame& s = p.display_frames[i];
    DisplayFrame& d = m.display_frames[i];
    d.name = s.name.text;
    d.name_en = s.name_en.text;
    d.special = s.special != 0;
    for (std::size_t k = 0; k < s.elements.size(); ++k) {
      const auto& e = s.elements[k];
      std::size_t n = e.kind == 1 ? nmo : nb;
      if (e.index < 0 || static_cast<std::size_t>(e.index) >= n) {
        add(F, FindingKind::index_out_of_range, "display frames", static_cast<std::int64_t>(i),
            idx_field("elements", k, "index"), out_of_range(e.index, n, e.kind == 1 ? "morphs" : "bones") + "; dropped");
        continue;
      }
      d.elements.push_back({e.kind == 1, e.index});
    }
  }
}

// Rigid bodies and joints.
void rigid_bodies_and_joints(const pmx::Model& p, Model& m, std::size_t nb, std::size_t nr) {
  auto& F = m.findings;
  m.rigid_bodies.resize(nr);
  for (std::size_t i = 0; i < nr; ++i) {
    const pmx::RigidBody& s = p.rigid_bodies[i];
    RigidBody& d = m.rigid_bodies[i];
    d.name = s.name.text;
    d.name_en = s.name_en.text;
    d.bone = checked(s.bone, nb, F, "rigid bodies", i, "bone", "bones");
    detail::copy_rigid_body_values(d, s);
  }
  m.joints.resize(p.joints.size());
  for (std::size_t i = 0; i < p.joints.size(); ++i) {
    const pmx::Joint& s = p.joints[i];
    Joint& d = m.joints[i];
    d.name = s.name.text;
    d.name_en = s.name_en.text;
    d.type = static_cast<JointType>(s.type);
    d.rigid_body_a = checked(s.rigid_body_a, nr, F, "joints", i, "rigid_body_a", "rigid bodies");
    d.rigid_body_b = checked(s.rigid_body_b, nr, F, "joints", i, "rigid_body_b", "rigid bodies");
    detail::copy_joint_values(d, s);
  }
}

// Soft bodies are not part of the view (only their number); their indices are still checked.
void soft_body_indices(const pmx::Model& p, Model& m, bool geometry, std::size_t nv, std::size_t nm, std::size_t nr) {
  auto& F = m.findings;
  m.soft_body_count = p.soft_bodies.size();
  for (std::size_t i = 0; i < p.soft_bodies.size(); ++i) {
    const pmx::SoftBody& s = p.soft_bodies[i];
    checked(s.material, nm, F, "soft bodies", i, "material", "materials");
    for (std::size_t k = 0; k < s.anchors.size(); ++k) {
      checked(s.anchors[k].rigid_body, nr, F, "soft bodies", i, idx_field("anchors", k, "rigid_body"), "rigid bodies");
      if (geometry && s.anchors[k].vertex >= nv)
        add(F, FindingKind::index_out_of_range, "soft bodies", static_cast<std::int64_t>(i),
            idx_field("anchors", k, "vertex"), out_of_range(s.anchors[k].vertex, nv, "vertices"));
    }
    for (std::size_t k = 0; k < s.pinned_vertices.size(); ++k)
      if (geometry && s.pinned_vertices[k] >= nv)
        add(F, FindingKind::index_out_of_range, "soft bodies", static_cast<std::int64_t>(i),
            idx_field("pinned_vertices", k, ""), out_of_range(s.pinned_vertices[k], nv, "vertices"));
  }
}

}  // namespace

Result<Model> from_pmx(const pmx::Model& p, const BuildOptions& options) {
  constexpr std::size_t kMax = static_cast<std::size_t>(std::numeric_limits<std::int32_t>::max());
  if (p.vertices.size() > kMax || p.bones.size() > kMax || p.morphs.size() > kMax || p.materials.size() > kMax ||
      p.faces.size() > 0xFFFFFFFFu || p.rigid_bodies.size() > kMax)
    return make_error(ErrorCode::limit_exceeded, "model has more than 2^31 - 1 records in a section");
  Model m;
  m.source = SourceFormat::pmx;
  m.transform_order = TransformOrder::pmx;
  m.name = p.name.text;
  m.name_en = p.name_en.text;
  m.comment = p.comment.text;
  m.comment_en = p.comment_en.text;
  const bool geometry = options.geometry;
  m.has_geometry = geometry;
  const std::size_t nv = geometry ? p.vertices.size() : 0, nb = p.bones.size(), nm = p.materials.size(),
                    nmo = p.morphs.size(), nr = p.rigid_bodies.size(), nt = p.textures.size();

  vertices(p, m, nv, nb);
  materials(p, m, geometry, nm, nt);
  bones(p, m, nb);
  ik_chains(p, m, nb);
  morphs(p, m, geometry, nv, nb, nm, nmo, nr);
  display_frames(p, m, nb, nmo);
  rigid_bodies_and_joints(p, m, nb, nr);
  soft_body_indices(p, m, geometry, nv, nm, nr);

  detail::utf8_binding_keys(m);
  detail::compute_bone_order(m);
  return m;
}

}  // namespace mmdkit::model
