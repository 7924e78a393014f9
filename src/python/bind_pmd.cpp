// mmdkit Python bindings — PMD models (mmdkit.PmdModel).
#include "document.hpp"
#include "mmdkit/formats/pmd.hpp"
#include "mmdkit/formats/pmd_json.hpp"

namespace mmdkit::python {

template <>
struct FormatFns<pmd::Model> {
  static constexpr const char* name = "pmd";
  static Result<Document<pmd::Model>> parse(ByteSpan bytes, std::optional<Encoding> enc, bool strict) {
    auto r = pmd::read(bytes, pmd::ReadOptions{.encoding = enc, .strict = strict});
    if (!r) return std::unexpected(r.error());
    return Document<pmd::Model>{std::move(r->model), std::move(r->warnings)};
  }
  static Result<std::vector<std::uint8_t>> write(const pmd::Model& m) { return pmd::write(m); }
  static std::string to_json(const pmd::Model& m, bool /*pretty*/) { return pmd::to_json(m); }
  static Result<pmd::Model> from_json(std::string_view text) { return pmd::from_json(text); }
  static const cli::FormatOps& ops() { return cli::pmd_ops(); }
};

namespace {
using Pmd = Document<pmd::Model>;

template <std::size_t N>
void set_fixed(pmd::FixedText<N>& f, const std::string& t) {
  if (t == f.text) return;
  f.text = t;
  f.raw.clear();
}

py::object vertices(py::object self) {
  auto& v = self.cast<Pmd&>().data.vertices;
  py::dict c;
  c["positions"] = column(self, v, &pmd::Vertex::position);
  c["normals"] = column(self, v, &pmd::Vertex::normal);
  c["uvs"] = column(self, v, &pmd::Vertex::uv);
  c["bones"] = column(self, v, &pmd::Vertex::bones);
  c["weights"] = column(self, v, &pmd::Vertex::weight);
  c["edge_off"] = column(self, v, &pmd::Vertex::edge_off);
  return make_table("vertices", v.size(), c);
}

py::object materials(py::object self) {
  auto& v = self.cast<Pmd&>().data.materials;
  py::dict c;
  c["diffuse"] = column(self, v, &pmd::Material::diffuse);
  c["specular_power"] = column(self, v, &pmd::Material::specular_power);
  c["specular"] = column(self, v, &pmd::Material::specular);
  c["ambient"] = column(self, v, &pmd::Material::ambient);
  c["toon_index"] = column(self, v, &pmd::Material::toon_index);
  c["edge_flag"] = column(self, v, &pmd::Material::edge_flag);
  c["index_count"] = column(self, v, &pmd::Material::index_count);
  return make_table("materials", v.size(), c);
}

py::object bones(py::object self) {
  auto& v = self.cast<Pmd&>().data.bones;
  py::dict c;
  c["parents"] = column(self, v, &pmd::Bone::parent);
  c["tails"] = column(self, v, &pmd::Bone::tail);
  c["types"] = column(self, v, &pmd::Bone::type);
  c["ik_parents"] = column(self, v, &pmd::Bone::ik_parent);
  c["positions"] = column(self, v, &pmd::Bone::position);
  return make_table("bones", v.size(), c);
}

py::object rigid_bodies(py::object self) {
  auto& v = self.cast<Pmd&>().data.rigid_bodies;
  py::dict c;
  c["bones"] = column(self, v, &pmd::RigidBody::bone);
  c["groups"] = column(self, v, &pmd::RigidBody::group);
  c["collision_masks"] = column(self, v, &pmd::RigidBody::collision_mask);
  c["shapes"] = column(self, v, &pmd::RigidBody::shape);
  c["sizes"] = column(self, v, &pmd::RigidBody::size);
  c["positions"] = column(self, v, &pmd::RigidBody::position);
  c["rotations"] = column(self, v, &pmd::RigidBody::rotation);
  c["masses"] = column(self, v, &pmd::RigidBody::mass);
  c["linear_damping"] = column(self, v, &pmd::RigidBody::linear_damping);
  c["angular_damping"] = column(self, v, &pmd::RigidBody::angular_damping);
  c["restitution"] = column(self, v, &pmd::RigidBody::restitution);
  c["friction"] = column(self, v, &pmd::RigidBody::friction);
  c["modes"] = column(self, v, &pmd::RigidBody::mode);
  return make_table("rigid_bodies", v.size(), c);
}

py::object joints(py::object self) {
  auto& v = self.cast<Pmd&>().data.joints;
  py::dict c;
  c["rigid_a"] = column(self, v, &pmd::Joint::rigid_a);
  c["rigid_b"] = column(self, v, &pmd::Joint::rigid_b);
  c["positions"] = column(self, v, &pmd::Joint::position);
  c["rotations"] = column(self, v, &pmd::Joint::rotation);
  c["position_min"] = column(self, v, &pmd::Joint::position_min);
  c["position_max"] = column(self, v, &pmd::Joint::position_max);
  c["rotation_min"] = column(self, v, &pmd::Joint::rotation_min);
  c["rotation_max"] = column(self, v, &pmd::Joint::rotation_max);
  c["spring_position"] = column(self, v, &pmd::Joint::spring_position);
  c["spring_rotation"] = column(self, v, &pmd::Joint::spring_rotation);
  return make_table("joints", v.size(), c);
}

}  // namespace

void bind_pmd(py::module_& m) {
  py::class_<Pmd> cls(m, "PmdModel",
                      "A PMD model as stored. Columns are NumPy views of the records: positions in MMD units, "
                      "model space (left-handed, Y up, facing -Z), UVs with v = 0 at the top, angles in "
                      "radians. Details of every record (IK chains, English names, toon names, ...) are in "
                      "to_json().");
  def_document(cls);
  cls.def(py::init([] { return Pmd{}; }), "An empty model.")
      .def_property_readonly("version", [](const Pmd& d) { return d.data.version; }, "The version float as stored.")
      .def_property_readonly("encoding", [](const Pmd& d) { return std::string(encoding_name(d.data.encoding)); })
      .def_property("name", [](const Pmd& d) { return d.data.name.text; },
                    [](Pmd& d, const std::string& t) { set_fixed(d.data.name, t); })
      .def_property_readonly("name_raw", [](const Pmd& d) { return to_py_bytes(d.data.name.raw); })
      .def_property("comment", [](const Pmd& d) { return d.data.comment.text; },
                    [](Pmd& d, const std::string& t) { set_fixed(d.data.comment, t); })
      .def_property_readonly("comment_raw", [](const Pmd& d) { return to_py_bytes(d.data.comment.raw); })
      .def_property_readonly("vertices", &vertices,
                             "Table: positions (n,3) float32, normals (n,3), uvs (n,2), bones (n,2) uint16, "
                             "weights (n,) uint8 = percent of bones[:,0], edge_off (n,) uint8.")
      .def_property_readonly(
          "indices", [](py::object self) { return flat(self, self.cast<Pmd&>().data.indices); },
          "Face vertex indices (n,) uint16, 3 per triangle (clockwise front faces).")
      .def_property_readonly("materials", &materials,
                             "Table: diffuse (n,4) RGBA, specular_power, specular (n,3), ambient (n,3), toon_index "
                             "uint8 (255 none), edge_flag, index_count uint32.")
      .def_property_readonly("material_textures",
                             [](const Pmd& d) {
                               py::list out;
                               for (const auto& mat : d.data.materials) out.append(py::str(mat.texture.text));
                               return out;
                             },
                             "Texture fields of the materials ('tex.bmp*sphere.sph' form).")
      .def_property_readonly("bones", &bones,
                             "Table: parents uint16 (65535 root), tails, types (pmd BoneType), ik_parents, "
                             "positions (n,3) model space.")
      .def_property_readonly("bone_names", [](const Pmd& d) { return names_of(d.data.bones, false); })
      .def_property_readonly("bone_names_raw", [](const Pmd& d) { return names_of(d.data.bones, true); })
      .def_property_readonly("morph_names", [](const Pmd& d) { return names_of(d.data.morphs, false); },
                             "Morph names in file order (the first is normally the base morph).")
      .def_property_readonly("morph_names_raw", [](const Pmd& d) { return names_of(d.data.morphs, true); })
      .def_property_readonly("morph_types",
                             [](const Pmd& d) {
                               std::vector<std::uint8_t> t;
                               for (const auto& mo : d.data.morphs) t.push_back(mo.type);
                               return py::array_t<std::uint8_t>(static_cast<py::ssize_t>(t.size()), t.data());
                             },
                             "Morph panel types (n,) uint8 (0 = base), a copy.")
      .def(
          "morph_offsets",
          [](py::object self, std::size_t i) {
            auto& ms = self.cast<Pmd&>().data.morphs;
            if (i >= ms.size()) throw py::index_error("morph index out of range");
            auto& o = ms[i].offsets;
            return py::make_tuple(column(self, o, &pmd::MorphOffset::vertex), column(self, o, &pmd::MorphOffset::offset));
          },
          py::arg("index"),
          "(vertices (k,) uint32, offsets (k,3) float32) of morph `index`: for the base morph absolute "
          "vertex indices and positions, for others indices into the base morph and offsets (MMD units).")
      .def_property_readonly("rigid_bodies", &rigid_bodies, "Table of rigid bodies (positions relative to the bone).")
      .def_property_readonly("rigid_body_names", [](const Pmd& d) { return names_of(d.data.rigid_bodies, false); })
      .def_property_readonly("joints", &joints, "Table of joints.")
      .def_property_readonly("joint_names", [](const Pmd& d) { return names_of(d.data.joints, false); })
      .def_property_readonly("tail", [](const Pmd& d) { return std::string(pmd::tail_name(d.data.tail)); },
                             "The last optional part present: none, english, toon_textures, rigid_bodies, joints.")
      .def_property_readonly("trailing", [](const Pmd& d) { return to_py_bytes(d.data.trailing); });
}

}  // namespace mmdkit::python
