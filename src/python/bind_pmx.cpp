// mmdkit Python bindings — PMX models (mmdkit.PmxModel).
#include "document.hpp"
#include "mmdkit/formats/pmx.hpp"
#include "mmdkit/formats/pmx_json.hpp"

namespace mmdkit::python {

template <>
struct FormatFns<pmx::Model> {
  static constexpr const char* name = "pmx";
  static Result<Document<pmx::Model>> parse(ByteSpan bytes, std::optional<Encoding>, bool strict) {
    auto r = pmx::read(bytes, pmx::ReadOptions{.strict = strict});
    if (!r) return std::unexpected(r.error());
    return Document<pmx::Model>{std::move(r->model), std::move(r->warnings)};
  }
  static Result<std::vector<std::uint8_t>> write(const pmx::Model& m) { return pmx::write(m); }
  static std::string to_json(const pmx::Model& m, bool /*pretty*/) { return pmx::to_json(m); }
  static Result<pmx::Model> from_json(std::string_view text) { return pmx::from_json(text); }
  static const formats::FormatOps& ops() { return formats::pmx_ops(); }
};

namespace {
using Pmx = Document<pmx::Model>;

py::object vertices(py::object self) {
  auto& v = self.cast<Pmx&>().data.vertices;
  py::dict c;
  c["positions"] = column(self, v, &pmx::Vertex::position);
  c["normals"] = column(self, v, &pmx::Vertex::normal);
  c["uvs"] = column(self, v, &pmx::Vertex::uv);
  c["bones"] = column(self, v, &pmx::Vertex::bones);
  c["weights"] = column(self, v, &pmx::Vertex::weights);
  c["edge_scale"] = column(self, v, &pmx::Vertex::edge_scale);
  c["deform"] = column(self, v, &pmx::Vertex::deform);
  c["sdef"] = column(self, v, &pmx::Vertex::sdef);
  return make_table("vertices", v.size(), c);
}

py::object materials(py::object self) {
  auto& v = self.cast<Pmx&>().data.materials;
  py::dict c;
  c["diffuse"] = column(self, v, &pmx::Material::diffuse);
  c["specular"] = column(self, v, &pmx::Material::specular);
  c["specular_power"] = column(self, v, &pmx::Material::specular_power);
  c["ambient"] = column(self, v, &pmx::Material::ambient);
  c["flags"] = column(self, v, &pmx::Material::flags);
  c["edge_color"] = column(self, v, &pmx::Material::edge_color);
  c["edge_size"] = column(self, v, &pmx::Material::edge_size);
  c["texture"] = column(self, v, &pmx::Material::texture);
  c["sphere_texture"] = column(self, v, &pmx::Material::sphere_texture);
  c["sphere_mode"] = column(self, v, &pmx::Material::sphere_mode);
  c["shared_toon"] = column(self, v, &pmx::Material::shared_toon);
  c["toon"] = column(self, v, &pmx::Material::toon);
  c["face_index_count"] = column(self, v, &pmx::Material::face_index_count);
  return make_table("materials", v.size(), c);
}

py::object bones(py::object self) {
  auto& v = self.cast<Pmx&>().data.bones;
  py::dict c;
  c["positions"] = column(self, v, &pmx::Bone::position);
  c["parents"] = column(self, v, &pmx::Bone::parent);
  c["deform_layers"] = column(self, v, &pmx::Bone::deform_layer);
  c["flags"] = column(self, v, &pmx::Bone::flags);
  c["tail_bones"] = column(self, v, &pmx::Bone::tail_bone);
  c["tail_offsets"] = column(self, v, &pmx::Bone::tail_offset);
  c["append_parents"] = column(self, v, &pmx::Bone::append_parent);
  c["append_ratios"] = column(self, v, &pmx::Bone::append_ratio);
  c["fixed_axes"] = column(self, v, &pmx::Bone::fixed_axis);
  c["local_x"] = column(self, v, &pmx::Bone::local_x);
  c["local_z"] = column(self, v, &pmx::Bone::local_z);
  c["ik_targets"] = column(self, v, &pmx::Bone::ik_target);
  c["ik_iterations"] = column(self, v, &pmx::Bone::ik_iterations);
  c["ik_limit_angles"] = column(self, v, &pmx::Bone::ik_limit_angle);
  return make_table("bones", v.size(), c);
}

py::object rigid_bodies(py::object self) {
  auto& v = self.cast<Pmx&>().data.rigid_bodies;
  py::dict c;
  c["bones"] = column(self, v, &pmx::RigidBody::bone);
  c["groups"] = column(self, v, &pmx::RigidBody::group);
  c["non_collision_masks"] = column(self, v, &pmx::RigidBody::collision_mask);
  c["shapes"] = column(self, v, &pmx::RigidBody::shape);
  c["sizes"] = column(self, v, &pmx::RigidBody::size);
  c["positions"] = column(self, v, &pmx::RigidBody::position);
  c["rotations"] = column(self, v, &pmx::RigidBody::rotation);
  c["masses"] = column(self, v, &pmx::RigidBody::mass);
  c["linear_damping"] = column(self, v, &pmx::RigidBody::linear_damping);
  c["angular_damping"] = column(self, v, &pmx::RigidBody::angular_damping);
  c["restitution"] = column(self, v, &pmx::RigidBody::restitution);
  c["friction"] = column(self, v, &pmx::RigidBody::friction);
  c["modes"] = column(self, v, &pmx::RigidBody::mode);
  return make_table("rigid_bodies", v.size(), c);
}

py::object joints(py::object self) {
  auto& v = self.cast<Pmx&>().data.joints;
  py::dict c;
  c["types"] = column(self, v, &pmx::Joint::type);
  c["rigid_body_a"] = column(self, v, &pmx::Joint::rigid_body_a);
  c["rigid_body_b"] = column(self, v, &pmx::Joint::rigid_body_b);
  c["positions"] = column(self, v, &pmx::Joint::position);
  c["rotations"] = column(self, v, &pmx::Joint::rotation);
  c["linear_lower"] = column(self, v, &pmx::Joint::linear_lower);
  c["linear_upper"] = column(self, v, &pmx::Joint::linear_upper);
  c["angular_lower"] = column(self, v, &pmx::Joint::angular_lower);
  c["angular_upper"] = column(self, v, &pmx::Joint::angular_upper);
  c["linear_spring"] = column(self, v, &pmx::Joint::linear_spring);
  c["angular_spring"] = column(self, v, &pmx::Joint::angular_spring);
  return make_table("joints", v.size(), c);
}
pmx::Morph& morph_at(py::object self, std::size_t i) {
  auto& ms = self.cast<Pmx&>().data.morphs;
  if (i >= ms.size()) throw py::index_error("morph index out of range");
  return ms[i];
}

/// The offsets of morph `i` as a table of views, by its type.
py::object morph_offsets(py::object self, std::size_t i) {
  pmx::Morph& m = morph_at(self, i);
  py::dict c;
  using T = pmx::MorphType;
  switch (m.type) {
    case T::group:
    case T::flip: {
      auto& o = m.type == T::group ? m.group_offsets : m.flip_offsets;
      c["morphs"] = column(self, o, &pmx::GroupOffset::morph);
      c["weights"] = column(self, o, &pmx::GroupOffset::weight);
      return make_table(m.type == T::group ? "group_offsets" : "flip_offsets", o.size(), c);
    }
    case T::vertex: {
      auto& o = m.vertex_offsets;
      c["vertices"] = column(self, o, &pmx::VertexOffset::vertex);
      c["offsets"] = column(self, o, &pmx::VertexOffset::offset);
      return make_table("vertex_offsets", o.size(), c);
    }
    case T::bone: {
      auto& o = m.bone_offsets;
      c["bones"] = column(self, o, &pmx::BoneOffset::bone);
      c["translations"] = column(self, o, &pmx::BoneOffset::translation);
      c["rotations"] = column(self, o, &pmx::BoneOffset::rotation);
      return make_table("bone_offsets", o.size(), c);
    }
    case T::uv:
    case T::additional_uv1:
    case T::additional_uv2:
    case T::additional_uv3:
    case T::additional_uv4: {
      auto& o = m.uv_offsets;
      c["vertices"] = column(self, o, &pmx::UvOffset::vertex);
      c["offsets"] = column(self, o, &pmx::UvOffset::offset);
      return make_table("uv_offsets", o.size(), c);
    }
    case T::material: {
      auto& o = m.material_offsets;
      c["materials"] = column(self, o, &pmx::MaterialOffset::material);
      c["operations"] = column(self, o, &pmx::MaterialOffset::operation);
      c["diffuse"] = column(self, o, &pmx::MaterialOffset::diffuse);
      c["specular"] = column(self, o, &pmx::MaterialOffset::specular);
      c["specular_power"] = column(self, o, &pmx::MaterialOffset::specular_power);
      c["ambient"] = column(self, o, &pmx::MaterialOffset::ambient);
      c["edge_color"] = column(self, o, &pmx::MaterialOffset::edge_color);
      c["edge_size"] = column(self, o, &pmx::MaterialOffset::edge_size);
      c["texture_tint"] = column(self, o, &pmx::MaterialOffset::texture_tint);
      c["sphere_tint"] = column(self, o, &pmx::MaterialOffset::sphere_tint);
      c["toon_tint"] = column(self, o, &pmx::MaterialOffset::toon_tint);
      return make_table("material_offsets", o.size(), c);
    }
    case T::impulse: {
      auto& o = m.impulse_offsets;
      c["rigid_bodies"] = column(self, o, &pmx::ImpulseOffset::rigid_body);
      c["local"] = column(self, o, &pmx::ImpulseOffset::local);
      c["velocities"] = column(self, o, &pmx::ImpulseOffset::velocity);
      c["torques"] = column(self, o, &pmx::ImpulseOffset::torque);
      return make_table("impulse_offsets", o.size(), c);
    }
  }
  raise_argument("morph " + std::to_string(i) + " has an unknown type");
}

py::object ik_links(py::object self, std::size_t i) {
  auto& bs = self.cast<Pmx&>().data.bones;
  if (i >= bs.size()) throw py::index_error("bone index out of range");
  auto& l = bs[i].ik_links;
  py::dict c;
  c["bones"] = column(self, l, &pmx::IkLink::bone);
  c["has_limits"] = column(self, l, &pmx::IkLink::has_limits);
  c["lower"] = column(self, l, &pmx::IkLink::lower);
  c["upper"] = column(self, l, &pmx::IkLink::upper);
  return make_table("ik_links", l.size(), c);
}

py::list display_frames(py::object self) {
  auto& frames = self.cast<Pmx&>().data.display_frames;
  py::list out;
  for (pmx::DisplayFrame& f : frames) {
    py::dict d;
    d["name"] = to_py_text(f.name);
    d["name_en"] = to_py_text(f.name_en);
    d["special"] = f.special;
    d["kinds"] = column(self, f.elements, &pmx::DisplayFrameElement::kind);
    d["indices"] = column(self, f.elements, &pmx::DisplayFrameElement::index);
    out.append(d);
  }
  return out;
}

py::object soft_bodies(py::object self) {
  auto& v = self.cast<Pmx&>().data.soft_bodies;
  py::dict c;
  c["shapes"] = column(self, v, &pmx::SoftBody::shape);
  c["materials"] = column(self, v, &pmx::SoftBody::material);
  c["groups"] = column(self, v, &pmx::SoftBody::group);
  c["non_collision_masks"] = column(self, v, &pmx::SoftBody::collision_mask);
  c["flags"] = column(self, v, &pmx::SoftBody::flags);
  c["b_link_distances"] = column(self, v, &pmx::SoftBody::b_link_distance);
  c["cluster_counts"] = column(self, v, &pmx::SoftBody::cluster_count);
  c["total_masses"] = column(self, v, &pmx::SoftBody::total_mass);
  c["collision_margins"] = column(self, v, &pmx::SoftBody::collision_margin);
  c["aero_models"] = column(self, v, &pmx::SoftBody::aero_model);
  c["config"] = column(self, v, &pmx::SoftBody::config);
  c["cluster"] = column(self, v, &pmx::SoftBody::cluster);
  c["iterations"] = column(self, v, &pmx::SoftBody::iterations);
  c["material_params"] = column(self, v, &pmx::SoftBody::material_params);
  return make_table("soft_bodies", v.size(), c);
}

pmx::SoftBody& soft_body_at(py::object self, std::size_t i) {
  auto& v = self.cast<Pmx&>().data.soft_bodies;
  if (i >= v.size()) throw py::index_error("soft body index out of range");
  return v[i];
}

}  // namespace

void bind_pmx(py::module_& m) {
  py::class_<Pmx> cls(m, "PmxModel",
                      "A PMX 2.0 / 2.1 model as stored. Columns are NumPy views of the records: positions in "
                      "MMD units, model space (left-handed, Y up, facing -Z), UVs with V down, angles in "
                      "radians, indices signed (-1 = none). Names are mmdkit.Text (the decoded str; .raw = the "
                      "bytes as stored).");
  def_document(cls);
  def_text_property(cls, "name", [](Pmx& d) -> EncodedText& { return d.data.name; }, "Model name (mmdkit.Text).");
  def_text_property(cls, "name_en", [](Pmx& d) -> EncodedText& { return d.data.name_en; },
                    "English model name (mmdkit.Text).");
  def_text_property(cls, "comment", [](Pmx& d) -> EncodedText& { return d.data.comment; },
                    "Model comment (mmdkit.Text).");
  def_text_property(cls, "comment_en", [](Pmx& d) -> EncodedText& { return d.data.comment_en; },
                    "English model comment (mmdkit.Text).");
  cls.def(py::init([] { return Pmx{}; }), "An empty PMX 2.0 model (UTF-16LE).")
      .def_property_readonly("version", [](const Pmx& d) { return std::string(pmx::version_name(d.data.header.version)); })
      .def_property_readonly("encoding", [](const Pmx& d) { return std::string(encoding_name(d.data.header.encoding)); })
      .def_property_readonly("additional_uv_count", [](const Pmx& d) { return d.data.header.additional_uv_count; })
      .def_property_readonly("name_raw", [](const Pmx& d) { return to_py_bytes(d.data.name.raw); },
                             "Old form of name.raw.")
      .def_property_readonly("comment_raw", [](const Pmx& d) { return to_py_bytes(d.data.comment.raw); },
                             "Old form of comment.raw.")
      .def_property_readonly("vertices", &vertices,
                             "Table: positions (n,3) float32, normals (n,3), uvs (n,2), bones (n,4) int32, weights "
                             "(n,4) float32 (by deform type), edge_scale (n,), deform (n,) uint8 (0 BDEF1 .. 4 "
                             "QDEF), sdef (n,) uint32 index into sdef data (0xFFFFFFFF none).")
      .def_property_readonly(
          "additional_uvs",
          [](py::object self) {
            auto& d = self.cast<Pmx&>().data;
            const auto k = static_cast<py::ssize_t>(d.header.additional_uv_count);
            return flat(self, d.additional_uvs,
                        {static_cast<py::ssize_t>(d.vertices.size()), k, py::ssize_t{4}});
          },
          "Additional UVs (n, k, 4) float32, k = additional_uv_count.")
      .def_property_readonly(
          "faces", [](py::object self) { return flat(self, self.cast<Pmx&>().data.faces); },
          "Face vertex indices (n,) uint32 (raw bits), 3 per triangle.")
      .def_property_readonly(
          "textures",
          [](const Pmx& d) {
            py::list out;
            for (const auto& t : d.data.textures) out.append(to_py_text(t));
            return out;
          },
          "Texture paths (mmdkit.Text, relative to the model file).")
      .def_property_readonly("materials", &materials, "Table of materials (colours 0..1, indices into textures).")
      .def_property_readonly("material_names", [](const Pmx& d) { return names_of(d.data.materials); },
                             "Material names (mmdkit.Text).")
      .def_property_readonly("bones", &bones,
                             "Table of bones: positions (n,3) bind-pose heads, parents int32 (-1 root), flags "
                             "uint16 (PMX bone flags), ...")
      .def_property("bone_names", [](const Pmx& d) { return names_of(d.data.bones); },
                    [](Pmx& d, const std::vector<std::string>& v) { set_names_of(d.data.bones, v); },
                    "Bone names (mmdkit.Text; .raw = the bytes as stored, in the model's encoding). Assigning "
                    "a list of the same length renames.")
      .def_property_readonly("bone_names_raw", [](const Pmx& d) { return names_of(d.data.bones, true); },
                             "Old form of [n.raw for n in bone_names].")
      .def_property_readonly("bone_names_en", [](const Pmx& d) { return names_en_of(d.data.bones); },
                             "English bone names (mmdkit.Text).")
      .def("ik_links", &ik_links, py::arg("bone"),
           "Table of the IK links of bone `bone` (empty unless it is an IK bone): bones (k,) int32 from the "
           "effector's parent up, has_limits (k,) uint8, lower / upper (k,3) float32 radians (views).")
      .def_property("morph_names", [](const Pmx& d) { return names_of(d.data.morphs); },
                    [](Pmx& d, const std::vector<std::string>& v) { set_names_of(d.data.morphs, v); },
                    "Morph names (mmdkit.Text).")
      .def_property_readonly("morph_names_raw", [](const Pmx& d) { return names_of(d.data.morphs, true); },
                             "Old form of [n.raw for n in morph_names].")
      .def_property_readonly("morph_names_en", [](const Pmx& d) { return names_en_of(d.data.morphs); },
                             "English morph names (mmdkit.Text).")
      .def_property_readonly("morph_panels",
                             [](const Pmx& d) {
                               std::vector<std::uint8_t> t;
                               for (const auto& mo : d.data.morphs) t.push_back(mo.panel);
                               return py::array_t<std::uint8_t>(static_cast<py::ssize_t>(t.size()), t.data());
                             },
                             "Morph control panels (n,) uint8: 0 system, 1 eyebrow, 2 eye, 3 mouth, 4 other (a copy).")
      .def("morph_offsets", &morph_offsets, py::arg("index"),
           "The offsets of morph `index` as a Table of views, by its type: group / flip: morphs, weights; vertex: "
           "vertices, offsets (k,3); bone: bones, translations (k,3), rotations (k,4) [x,y,z,w]; uv and additional "
           "uv: vertices, offsets (k,4); material: materials (-1 = all), operations (0 multiply, 1 add), diffuse, "
           "specular, specular_power, ambient, edge_color, edge_size, texture_tint, sphere_tint, toon_tint; "
           "impulse: rigid_bodies, local, velocities (k,3), torques (k,3).")
      .def_property_readonly("display_frames", &display_frames,
                             "Display frames as a list of dicts: name, name_en (mmdkit.Text), special (1 = MMD's "
                             "fixed frames), kinds (k,) uint8 (0 bone, 1 morph) and indices (k,) int32 (views).")
      .def_property_readonly("soft_bodies", &soft_bodies,
                             "Table of soft bodies (PMX 2.1): shapes, materials, groups, non_collision_masks (bit "
                             "set = collides), flags, b_link_distances, cluster_counts, total_masses, "
                             "collision_margins, aero_models, config (n,12), cluster (n,6), iterations (n,4) int32, "
                             "material_params (n,3).")
      .def_property_readonly("soft_body_names", [](const Pmx& d) { return names_of(d.data.soft_bodies); },
                             "Soft body names (mmdkit.Text).")
      .def(
          "soft_body_anchors",
          [](py::object self, std::size_t i) {
            auto& a = soft_body_at(self, i).anchors;
            py::dict c;
            c["rigid_bodies"] = column(self, a, &pmx::SoftBodyAnchor::rigid_body);
            c["vertices"] = column(self, a, &pmx::SoftBodyAnchor::vertex);
            c["near_mode"] = column(self, a, &pmx::SoftBodyAnchor::near_mode);
            return make_table("soft_body_anchors", a.size(), c);
          },
          py::arg("index"), "Table of the anchors of soft body `index`: rigid_bodies, vertices, near_mode (views).")
      .def(
          "soft_body_pinned",
          [](py::object self, std::size_t i) { return flat(self, soft_body_at(self, i).pinned_vertices); },
          py::arg("index"), "Pinned vertex indices (k,) uint32 of soft body `index` (a view).")
      .def_property_readonly("morph_types",
                             [](const Pmx& d) {
                               std::vector<std::uint8_t> t;
                               for (const auto& mo : d.data.morphs) t.push_back(static_cast<std::uint8_t>(mo.type));
                               return py::array_t<std::uint8_t>(static_cast<py::ssize_t>(t.size()), t.data());
                             },
                             "Morph types (n,) uint8: 0 group, 1 vertex, 2 bone, 3 uv, 4-7 additional uv, 8 "
                             "material, 9 flip, 10 impulse (a copy).")
      .def(
          "vertex_morph_offsets",
          [](py::object self, std::size_t i) {
            auto& ms = self.cast<Pmx&>().data.morphs;
            if (i >= ms.size()) throw py::index_error("morph index out of range");
            auto& o = ms[i].vertex_offsets;
            return py::make_tuple(column(self, o, &pmx::VertexOffset::vertex), column(self, o, &pmx::VertexOffset::offset));
          },
          py::arg("index"), "(vertices (k,) uint32, offsets (k,3) float32 MMD units) of vertex morph `index`.")
      .def_property_readonly("rigid_bodies", &rigid_bodies, "Table of rigid bodies (model space).")
      .def_property_readonly("rigid_body_names", [](const Pmx& d) { return names_of(d.data.rigid_bodies); },
                             "Rigid body names (mmdkit.Text).")
      .def_property_readonly("joints", &joints, "Table of joints.")
      .def_property_readonly("joint_names", [](const Pmx& d) { return names_of(d.data.joints); },
                             "Joint names (mmdkit.Text).")
      .def_property_readonly("trailing", [](const Pmx& d) { return to_py_bytes(d.data.trailing); });
}

}  // namespace mmdkit::python
