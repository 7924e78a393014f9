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
  static const cli::FormatOps& ops() { return cli::pmx_ops(); }
};

namespace {
using Pmx = Document<pmx::Model>;


void set_text(pmx::Text& t, const std::string& s) {
  if (s != t.text) t.assign(s);
}

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
}  // namespace

void bind_pmx(py::module_& m) {
  py::class_<Pmx> cls(m, "PmxModel",
                      "A PMX 2.0 / 2.1 model as stored. Columns are NumPy views of the records: positions in "
                      "MMD units, model space (left-handed, Y up, facing -Z), UVs with V down, angles in "
                      "radians, indices signed (-1 = none). Records not given as columns (IK links, morph "
                      "offsets of other types, display frames, soft bodies) are in to_json().");
  def_document(cls);
  cls.def(py::init([] { return Pmx{}; }), "An empty PMX 2.0 model (UTF-16LE).")
      .def_property_readonly("version", [](const Pmx& d) { return std::string(pmx::version_name(d.data.header.version)); })
      .def_property_readonly("encoding", [](const Pmx& d) { return std::string(encoding_name(d.data.header.encoding)); })
      .def_property_readonly("additional_uv_count", [](const Pmx& d) { return d.data.header.additional_uv_count; })
      .def_property("name", [](const Pmx& d) { return d.data.name.text; },
                    [](Pmx& d, const std::string& t) { set_text(d.data.name, t); })
      .def_property_readonly("name_raw", [](const Pmx& d) { return to_py_bytes(d.data.name.raw); })
      .def_property("name_en", [](const Pmx& d) { return d.data.name_en.text; },
                    [](Pmx& d, const std::string& t) { set_text(d.data.name_en, t); })
      .def_property("comment", [](const Pmx& d) { return d.data.comment.text; },
                    [](Pmx& d, const std::string& t) { set_text(d.data.comment, t); })
      .def_property_readonly("comment_raw", [](const Pmx& d) { return to_py_bytes(d.data.comment.raw); })
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
            for (const auto& t : d.data.textures) out.append(py::str(t.text));
            return out;
          },
          "Texture paths (relative to the model file).")
      .def_property_readonly("materials", &materials, "Table of materials (colours 0..1, indices into textures).")
      .def_property_readonly("material_names", [](const Pmx& d) { return names_of(d.data.materials, false); })
      .def_property_readonly("bones", &bones,
                             "Table of bones: positions (n,3) bind-pose heads, parents int32 (-1 root), flags "
                             "uint16 (PMX bone flags), ...")
      .def_property_readonly("bone_names", [](const Pmx& d) { return names_of(d.data.bones, false); })
      .def_property_readonly("bone_names_raw", [](const Pmx& d) { return names_of(d.data.bones, true); })
      .def_property_readonly("morph_names", [](const Pmx& d) { return names_of(d.data.morphs, false); })
      .def_property_readonly("morph_names_raw", [](const Pmx& d) { return names_of(d.data.morphs, true); })
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
      .def_property_readonly("rigid_body_names", [](const Pmx& d) { return names_of(d.data.rigid_bodies, false); })
      .def_property_readonly("joints", &joints, "Table of joints.")
      .def_property_readonly("joint_names", [](const Pmx& d) { return names_of(d.data.joints, false); })
      .def_property_readonly("trailing", [](const Pmx& d) { return to_py_bytes(d.data.trailing); });
}

}  // namespace mmdkit::python
