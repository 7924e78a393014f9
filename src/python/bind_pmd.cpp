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
  static const formats::FormatOps& ops() { return formats::pmd_ops(); }
};

namespace {
using Pmd = Document<pmd::Model>;

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

py::object ik_chains(py::object self) {
  auto& v = self.cast<Pmd&>().data.ik_chains;
  py::dict c;
  c["targets"] = column(self, v, &pmd::IkChain::target);
  c["effectors"] = column(self, v, &pmd::IkChain::effector);
  c["iterations"] = column(self, v, &pmd::IkChain::iterations);
  c["unit_angles"] = column(self, v, &pmd::IkChain::unit_angle);
  return make_table("ik_chains", v.size(), c);
}

py::object bone_display(py::object self) {
  auto& v = self.cast<Pmd&>().data.bone_display;
  py::dict c;
  c["bones"] = column(self, v, &pmd::BoneDisplay::bone);
  c["frames"] = column(self, v, &pmd::BoneDisplay::frame);
  return make_table("bone_display", v.size(), c);
}

py::object english(const Pmd& d) {
  if (!d.data.english) return py::none();
  const pmd::English& e = *d.data.english;
  py::dict out;
  out["name"] = to_py_text(e.name);
  out["comment"] = to_py_text(e.comment);
  out["bone_names"] = texts(e.bone_names);
  out["morph_names"] = texts(e.morph_names);
  out["frame_names"] = texts(e.frame_names);
  return out;
}

}  // namespace

void bind_pmd(py::module_& m) {
  py::class_<Pmd> cls(m, "PmdModel",
                      "A PMD model as stored. Columns are NumPy views of the records: positions in MMD units, "
                      "model space (left-handed, Y up, facing -Z), UVs with v = 0 at the top, angles in "
                      "radians. Names are mmdkit.Text (the decoded str; .raw = the field as stored).");
  def_document(cls);
  def_text_property(cls, "name", [](Pmd& d) -> EncodedText& { return d.data.name; },
                    "Model name (mmdkit.Text; .raw = the 20-byte field as stored).");
  def_text_property(cls, "comment", [](Pmd& d) -> EncodedText& { return d.data.comment; },
                    "Model comment (mmdkit.Text; .raw = the 256-byte field as stored; may hold CR LF).");
  cls.def(py::init([] { return Pmd{}; }), "An empty model.")
      .def_property_readonly("version", [](const Pmd& d) { return d.data.version; }, "The version float as stored.")
      .def_property_readonly("encoding", [](const Pmd& d) { return std::string(encoding_name(d.data.encoding)); })
      .def_property_readonly("name_raw", [](const Pmd& d) { return to_py_bytes(d.data.name.raw); },
                             "Old form of name.raw.")
      .def_property_readonly("comment_raw", [](const Pmd& d) { return to_py_bytes(d.data.comment.raw); },
                             "Old form of comment.raw.")
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
                               for (const auto& mat : d.data.materials) out.append(to_py_text(mat.texture));
                               return out;
                             },
                             "Texture fields of the materials (mmdkit.Text, 'tex.bmp*sphere.sph' form).")
      .def_property_readonly("bones", &bones,
                             "Table: parents uint16 (65535 root), tails, types (pmd BoneType), ik_parents, "
                             "positions (n,3) model space.")
      .def_property("bone_names", [](const Pmd& d) { return names_of(d.data.bones); },
                    [](Pmd& d, const std::vector<std::string>& v) { set_names_of(d.data.bones, v); },
                    "Bone names (mmdkit.Text; .raw = the 20-byte field as stored). Assigning a list of the same "
                    "length renames (changed names lose their raw bytes).")
      .def_property_readonly("bone_names_raw", [](const Pmd& d) { return names_of(d.data.bones, true); },
                             "Old form of [n.raw for n in bone_names].")
      .def_property("morph_names", [](const Pmd& d) { return names_of(d.data.morphs); },
                    [](Pmd& d, const std::vector<std::string>& v) { set_names_of(d.data.morphs, v); },
                    "Morph names in file order (mmdkit.Text; the first is normally the base morph).")
      .def_property_readonly("morph_names_raw", [](const Pmd& d) { return names_of(d.data.morphs, true); },
                             "Old form of [n.raw for n in morph_names].")
      .def_property_readonly("ik_chains", &ik_chains,
                             "Table of IK chains: targets (n,) uint16 (the IK bone), effectors uint16, iterations "
                             "uint16, unit_angles float32 (PMD units: radians / 4). Links: ik_links(i).")
      .def(
          "ik_links",
          [](py::object self, std::size_t i) {
            auto& v = self.cast<Pmd&>().data.ik_chains;
            if (i >= v.size()) throw py::index_error("IK chain index out of range");
            return flat(self, v[i].links);
          },
          py::arg("index"), "Link bones (k,) uint16 of IK chain `index`, from the effector's parent up (a view).")
      .def_property_readonly("bone_frame_names", [](const Pmd& d) { return texts(d.data.bone_frames); },
                             "Bone display frame names (mmdkit.Text, 50-byte fields; often ending in '\\n').")
      .def_property_readonly("bone_display", &bone_display,
                             "Table of the bone display list: bones (n,) uint16, frames (n,) uint8 (1-based index "
                             "into bone_frame_names).")
      .def_property_readonly("morph_display",
                             [](py::object self) { return flat(self, self.cast<Pmd&>().data.morph_display); },
                             "Morph indices (n,) uint16 shown in the morph panel (a view).")
      .def_property_readonly("toon_textures",
                             [](const Pmd& d) {
                               py::list out;
                               for (const auto& t : d.data.toon_textures) out.append(to_py_text(t));
                               return out;
                             },
                             "The 10 toon texture names (mmdkit.Text, 100-byte fields).")
      .def_property_readonly("english", &english,
                             "English names (a dict of copies: name, comment, bone_names, morph_names (no base "
                             "morph), frame_names; mmdkit.Text each), or None when the file has none.")
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
      .def_property_readonly("rigid_body_names", [](const Pmd& d) { return names_of(d.data.rigid_bodies); },
                             "Rigid body names (mmdkit.Text).")
      .def_property_readonly("joints", &joints, "Table of joints.")
      .def_property_readonly("joint_names", [](const Pmd& d) { return names_of(d.data.joints); },
                             "Joint names (mmdkit.Text).")
      .def_property_readonly("tail", [](const Pmd& d) { return std::string(pmd::tail_name(d.data.tail)); },
                             "The last optional part present: none, english, toon_textures, rigid_bodies, joints.")
      .def_property_readonly("trailing", [](const Pmd& d) { return to_py_bytes(d.data.trailing); });
}

}  // namespace mmdkit::python
