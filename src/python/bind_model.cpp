// mmdkit Python bindings — the format-neutral model view (mmdkit.ModelView).
#include "document.hpp"
#include "mmdkit/formats/pmd.hpp"
#include "mmdkit/formats/pmx.hpp"
#include "mmdkit/model/model.hpp"

namespace mmdkit::python {

namespace {
using View = model::Model;

py::dict model_finding_dict(const model::Finding& f) {
  py::dict d;
  d["severity"] = f.severity == model::Severity::error ? "error" : "warning";
  d["code"] = std::string(model::finding_kind_name(f.kind));
  d["message"] = f.message;
  d["section"] = f.section.empty() ? py::object(py::none()) : py::object(py::str(f.section));
  d["record"] = f.record < 0 ? py::object(py::none()) : py::object(py::int_(f.record));
  d["field"] = f.field.empty() ? py::object(py::none()) : py::object(py::str(f.field));
  return d;
}

template <class R>
py::list plain_names(const std::vector<R>& records) {
  py::list out;
  for (const R& r : records) out.append(py::str(r.name));
  return out;
}

py::object vertices(py::object self) {
  auto& v = self.cast<View&>().vertices;
  py::dict c;
  c["positions"] = column(self, v, &model::Vertex::position, false);
  c["normals"] = column(self, v, &model::Vertex::normal, false);
  c["uvs"] = column(self, v, &model::Vertex::uv, false);
  c["deform"] = column(self, v, &model::Vertex::deform, false);
  c["bones"] = column(self, v, &model::Vertex::bones, false);
  c["weights"] = column(self, v, &model::Vertex::weights, false);
  c["sdef_c"] = column(self, v, &model::Vertex::sdef_c, false);
  c["sdef_r0"] = column(self, v, &model::Vertex::sdef_r0, false);
  c["sdef_r1"] = column(self, v, &model::Vertex::sdef_r1, false);
  c["edge_scale"] = column(self, v, &model::Vertex::edge_scale, false);
  return make_table("vertices", v.size(), c);
}

py::object bones(py::object self) {
  auto& v = self.cast<View&>().bones;
  py::dict c;
  c["parents"] = column(self, v, &model::Bone::parent, false);
  c["positions"] = column(self, v, &model::Bone::position, false);
  c["tail_bones"] = column(self, v, &model::Bone::tail_bone, false);
  c["tail_offsets"] = column(self, v, &model::Bone::tail_offset, false);
  c["append_parents"] = column(self, v, &model::Bone::append_parent, false);
  c["append_ratios"] = column(self, v, &model::Bone::append_ratio, false);
  c["ik_chains"] = column(self, v, &model::Bone::ik_chain, false);
  c["deform_layers"] = column(self, v, &model::Bone::deform_layer, false);
  return make_table("bones", v.size(), c);
}

py::object materials(py::object self) {
  auto& v = self.cast<View&>().materials;
  py::dict c;
  c["diffuse"] = column(self, v, &model::Material::diffuse, false);
  c["specular"] = column(self, v, &model::Material::specular, false);
  c["specular_power"] = column(self, v, &model::Material::specular_power, false);
  c["ambient"] = column(self, v, &model::Material::ambient, false);
  c["flags"] = column(self, v, &model::Material::flags, false);
  c["edge_color"] = column(self, v, &model::Material::edge_color, false);
  c["edge_size"] = column(self, v, &model::Material::edge_size, false);
  c["first_index"] = column(self, v, &model::Material::first_index, false);
  c["index_count"] = column(self, v, &model::Material::index_count, false);
  return make_table("materials", v.size(), c);
}
}  // namespace

void bind_model(py::module_& m) {
  py::class_<View> cls(m, "ModelView",
                       "The format-neutral view of a PMD or PMX model (docs/MODEL.md): every index in range "
                       "or -1, PMD semantics converted. Arrays are read-only views of the view's records. "
                       "MMD units, model space (left-handed, Y up, facing -Z), V down.");
  cls.def_static(
         "load",
         [](const std::string& path) {
           return unwrap(without_gil([&] { return model::load_file(path); }));
         },
         py::arg("path"), "Builds the view of a PMD or PMX file (reader warnings become findings).")
      .def_static("of", [](const Document<pmd::Model>& d) { return unwrap(model::from_pmd(d.data)); },
                  py::arg("model"), "The view of a PmdModel.")
      .def_static("of", [](const Document<pmx::Model>& d) { return unwrap(model::from_pmx(d.data)); },
                  py::arg("model"), "The view of a PmxModel.")
      .def_property_readonly("source", [](const View& v) { return v.source == model::SourceFormat::pmd ? "pmd" : "pmx"; })
      .def_property_readonly("name", [](const View& v) { return v.name; })
      .def_property_readonly("name_en", [](const View& v) { return v.name_en; })
      .def_property_readonly("comment", [](const View& v) { return v.comment; })
      .def_property_readonly("vertices", &vertices,
                             "Table: positions (n,3), normals (n,3), uvs (n,2), deform (n,) uint8, bones (n,4) "
                             "int32 (-1 unused), weights (n,4), sdef_c / sdef_r0 / sdef_r1 (n,3), edge_scale (n,).")
      .def_property_readonly(
          "additional_uvs",
          [](py::object self) {
            auto& v = self.cast<View&>();
            return flat(self, v.additional_uvs,
                        {static_cast<py::ssize_t>(v.vertices.size()), static_cast<py::ssize_t>(v.additional_uv_count),
                         py::ssize_t{4}},
                        false);
          },
          "(n, k, 4) float32.")
      .def_property_readonly(
          "faces",
          [](py::object self) {
            auto& v = self.cast<View&>();
            return flat(self, v.faces, {static_cast<py::ssize_t>(v.faces.size() / 3), py::ssize_t{3}}, false);
          },
          "Triangles (t, 3) uint32 vertex indices (clockwise front faces).")
      .def_property_readonly("bone_names", [](const View& v) { return plain_names(v.bones); })
      .def_property_readonly("bone_names_en",
                             [](const View& v) {
                               py::list out;
                               for (const auto& b : v.bones) out.append(py::str(b.name_en));
                               return out;
                             })
      .def_property_readonly("bones", &bones, "Table of bones (parents -1 = root; positions bind-pose heads).")
      .def_property_readonly(
          "bone_order", [](py::object self) { return flat(self, self.cast<View&>().bone_order, {}, false); },
          "The order bones are transformed in (int32 permutation).")
      .def_property_readonly("morph_names", [](const View& v) { return plain_names(v.morphs); })
      .def_property_readonly("morph_types",
                             [](const View& v) {
                               std::vector<std::uint8_t> t;
                               for (const auto& mo : v.morphs) t.push_back(static_cast<std::uint8_t>(mo.type));
                               return py::array_t<std::uint8_t>(static_cast<py::ssize_t>(t.size()), t.data());
                             },
                             "Morph types (PMX numbering), a copy.")
      .def_property_readonly("material_names", [](const View& v) { return plain_names(v.materials); })
      .def_property_readonly("material_textures",
                             [](const View& v) {
                               py::list out;
                               for (const auto& mat : v.materials) out.append(py::str(mat.texture));
                               return out;
                             })
      .def_property_readonly("materials", &materials, "Table of materials (first_index / index_count into faces).")
      .def_property_readonly("rigid_body_names", [](const View& v) { return plain_names(v.rigid_bodies); })
      .def_property_readonly("joint_names", [](const View& v) { return plain_names(v.joints); })
      .def_property_readonly("findings",
                             [](const View& v) {
                               py::list out;
                               for (const auto& f : v.findings) out.append(model_finding_dict(f));
                               return out;
                             },
                             "What the builder repaired or dropped (dicts: severity, code, message, section, "
                             "record, field).");
}

}  // namespace mmdkit::python
