// mmdkit Python bindings — DirectX .x (XFile) and .vac (VacFile): read-only views of what `mmdkit
// dump` prints for them (docs/formats/x.md, docs/formats/vac.md "JSON"); arrays are read-only views
// of the parsed C++ document (formats/x.hpp, formats/vac.hpp).
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "mmdkit/formats/registry.hpp"
#include "document.hpp"
#include "mmdkit/formats/vac.hpp"
#include "mmdkit/formats/x.hpp"

namespace mmdkit::python {

namespace {

namespace fs = std::filesystem;

/// A parsed .x file, its bytes (for to_json / check) and the path it was read from.
struct XFile {
  x::Document doc;
  std::vector<std::uint8_t> bytes;
  std::string path;
};

/// A parsed .vac, its bytes and path.
struct VacFile {
  vac::Accessory acc;
  std::vector<std::uint8_t> bytes;
  std::string path;
};

std::string folder_of(const std::string& path) {
  const fs::path f = fs::path(path).parent_path();
  return f.empty() ? std::string(".") : f.string();
}

// Reads `path`, naming it in any error.
template <class Parse>
auto read_named(const std::string& path, Parse parse) {
  auto bytes = read_path(path);
  auto r = without_gil([&] { return parse(ByteSpan(bytes.data(), bytes.size())); });
  if (!r) {
    Error e = r.error();
    if (e.file.empty()) e.file = path;
    raise(e);
  }
  return std::make_pair(std::move(*r), std::move(bytes));
}

std::string dump_json(const formats::FormatOps& ops, const std::vector<std::uint8_t>& bytes) {
  std::vector<Warning> w;
  return unwrap(without_gil([&] { return ops.to_json(ByteSpan(bytes.data(), bytes.size()), formats::ReadFlags{}, w); }));
}

py::array vec_array(const std::array<float, 3>& v) {
  py::array_t<float> a(3);
  for (py::ssize_t i = 0; i < 3; ++i) a.mutable_at(i) = v[static_cast<std::size_t>(i)];
  a.attr("flags").attr("writeable") = false;
  return a;
}

// A column-major 4 × 4 matrix (column vectors) as a (4, 4) array indexed [row, column].
py::array matrix_array(const Mat4& m) {
  py::array_t<float> a({4, 4});
  for (py::ssize_t r = 0; r < 4; ++r)
    for (py::ssize_t c = 0; c < 4; ++c) a.mutable_at(r, c) = m[static_cast<std::size_t>(c * 4 + r)];
  a.attr("flags").attr("writeable") = false;
  return a;
}

EncodedText text_of(const std::string& utf8, const std::vector<std::uint8_t>& raw) { return EncodedText{raw, utf8}; }

void bind_xfile(py::module_& m) {
  py::class_<XFile> cls(m, "XFile",
                        "A DirectX .x file (MMD accessories and stages), read-only: the frames, meshes and materials "
                        "`mmdkit dump` prints (docs/formats/x.md). Arrays are read-only views of the parsed file.");
  cls.def_property_readonly_static("format", [](const py::object&) { return "x"; }, "The format name (\"x\").")
      .def_static(
          "read",
          [](const std::string& path) {
            auto [doc, bytes] = read_named(path, [](ByteSpan b) { return x::read(b); });
            return XFile{std::move(doc), std::move(bytes), path};
          },
          py::arg("path"), "Reads a .x file (text, binary, tzip or bzip). Raises mmdkit.Error subclasses with the location.")
      .def_static(
          "from_bytes",
          [](const py::buffer& data) {
            auto bytes = from_py_bytes(data);
            auto doc = unwrap(without_gil([&] { return x::read(ByteSpan(bytes.data(), bytes.size())); }));
            return XFile{std::move(doc), std::move(bytes), {}};
          },
          py::arg("data"), "Parses .x bytes.")
      .def_property_readonly(
          "header",
          [](const XFile& f) {
            py::dict d;
            char version[8];
            std::snprintf(version, sizeof version, "%02d%02d", f.doc.header.major % 100, f.doc.header.minor % 100);
            d["version"] = std::string(version);
            d["body"] = std::string(x::body_format_name(f.doc.header.format));
            d["float_bits"] = f.doc.header.float_bits;
            return d;
          },
          "The 16-byte header, as `mmdkit dump`: version ('0302' or '0303'), body ('txt', 'bin', 'tzip', 'bzip'), "
          "float_bits (32 or 64).")
      .def_property_readonly(
          "frames",
          [](const XFile& f) {
            py::list out;
            for (const x::Frame& fr : f.doc.frames) {
              py::dict d;
              d["name"] = fr.name;
              d["parent"] = fr.parent;
              d["transform"] = matrix_array(fr.transform);
              d["has_transform"] = fr.has_transform;
              out.append(d);
            }
            return out;
          },
          "Frame objects in file order (a parent before its children): dicts name, parent (index, -1 = top "
          "level), transform ((4, 4) float32 [row, column] for column vectors; identity when absent), has_transform.")
      .def_property_readonly(
          "meshes",
          [](py::object self) {
            XFile& f = self.cast<XFile&>();
            py::list out;
            for (x::Mesh& me : f.doc.meshes) {
              py::dict d;
              d["name"] = me.name;
              d["frame"] = me.frame;
              d["world"] = matrix_array(me.world);
              d["positions"] = flat(self, me.positions, {}, false);
              d["face_sizes"] = flat(self, me.face_sizes, {}, false);
              d["face_indices"] = flat(self, me.face_indices, {}, false);
              d["has_normals"] = me.has_normals;
              d["normals"] = flat(self, me.normals, {}, false);
              d["uvs"] = flat(self, me.uvs, {}, false);
              d["vertex_color_vertices"] = column(self, me.vertex_colors, &x::Mesh::VertexColor::vertex, false);
              d["vertex_colors"] = column(self, me.vertex_colors, &x::Mesh::VertexColor::color, false);
              d["has_material_list"] = me.has_material_list;
              d["face_materials"] = flat(self, me.face_materials, {}, false);
              d["materials"] = flat(self, me.materials, {}, false);
              out.append(d);
            }
            return out;
          },
          "Mesh objects in file order: dicts name, frame (index of the enclosing frame, -1 = top level), world "
          "((4, 4) product of the enclosing frames' transforms), positions (n, 3) float32 as stored (file units: MMD "
          "draws them ×10), face_sizes (f,) uint32, face_indices uint32 (face after face), has_normals, normals "
          "(k, 3), uvs (n, 2) (V down), vertex_color_vertices (c,) uint32 and vertex_colors (c, 4) RGBA (MeshVertexColors as stored), has_material_list, face_materials (f,) uint32, "
          "materials (indices into `materials`, -1 = an unresolved reference). Arrays are read-only views.")
      .def_property_readonly(
          "materials",
          [](const XFile& f) {
            py::list out;
            for (const x::Material& mt : f.doc.materials) {
              py::dict d;
              d["name"] = mt.name;
              d["face_color"] = std::vector<float>(mt.face_color.begin(), mt.face_color.end());
              d["power"] = mt.power;
              d["specular"] = std::vector<float>(mt.specular.begin(), mt.specular.end());
              d["emissive"] = std::vector<float>(mt.emissive.begin(), mt.emissive.end());
              d["texture_filename"] = to_py_text(text_of(mt.texture_filename, mt.texture_filename_raw));
              out.append(d);
            }
            return out;
          },
          "Every Material object (top-level and inline) in file order: dicts name, face_color [r, g, b, a], power, "
          "specular [r, g, b], emissive [r, g, b] (linear 0..1), texture_filename (mmdkit.Text; e.g. "
          "'tex.png*sphere.sph').")
      .def_property_readonly(
          "templates",
          [](const XFile& f) {
            py::list out;
            for (const x::Template& t : f.doc.templates) {
              py::dict d;
              d["name"] = t.name;
              d["uuid"] = t.uuid;
              d["members"] = t.members;
              d["restriction"] = t.restriction;
              out.append(d);
            }
            return out;
          },
          "template declarations: dicts name, uuid, members, restriction.")
      .def_property_readonly(
          "skipped",
          [](const XFile& f) {
            py::dict d;
            for (const auto& [type, n] : f.doc.skipped) d[py::str(type)] = n;
            return d;
          },
          "Data objects parsed over, by type name, with their count.")
      .def_property_readonly("warnings", [](const XFile& f) { return error_dicts(f.doc.warnings); },
                             "Warnings of the read (dicts: code, message, file, section, record, offset).")
      .def(
          "to_json", [](const XFile& f) { return dump_json(formats::x_ops(), f.bytes); },
          "The JSON `mmdkit dump FILE.x` prints (docs/formats/x.md \"JSON\"; output only: a .x is not written back).")
      .def(
          "_check",
          [](const XFile& f) {
            return check_findings(formats::x_ops(), ByteSpan(f.bytes.data(), f.bytes.size()),
                                  f.path.empty() ? std::nullopt : std::optional<std::string>(folder_of(f.path)), f.path);
          },
          "The findings of `mmdkit check` (textures resolved in the file's folder when read from a file).")
      .def("__repr__", [](const XFile& f) {
        return "<XFile " + std::to_string(f.doc.frames.size()) + " frames, " + std::to_string(f.doc.meshes.size()) +
               " meshes, " + std::to_string(f.doc.materials.size()) + " materials>";
      });
}

void bind_vacfile(py::module_& m) {
  py::class_<VacFile> cls(m, "VacFile",
                          "A .vac (MMD accessory settings), read-only: the .x file, scale, position, rotation and bone "
                          "(docs/formats/vac.md), as `mmdkit dump` prints them.");
  cls.def_property_readonly_static("format", [](const py::object&) { return "vac"; }, "The format name (\"vac\").")
      .def_static(
          "read",
          [](const std::string& path) {
            auto [acc, bytes] = read_named(path, [](ByteSpan b) { return vac::read(b); });
            return VacFile{std::move(acc), std::move(bytes), path};
          },
          py::arg("path"), "Reads a .vac (it has no signature: mmdkit.read takes it by the .vac extension).")
      .def_static(
          "from_bytes",
          [](const py::buffer& data) {
            auto bytes = from_py_bytes(data);
            auto acc = unwrap(without_gil([&] { return vac::read(ByteSpan(bytes.data(), bytes.size())); }));
            return VacFile{std::move(acc), std::move(bytes), {}};
          },
          py::arg("data"), "Parses .vac bytes.")
      .def_property_readonly("name", [](const VacFile& v) { return to_py_text(text_of(v.acc.name, v.acc.name_raw)); },
                             "Line 1: the name shown in MMD's accessory list (mmdkit.Text; .raw = the CP932 bytes).")
      .def_property_readonly("x_file", [](const VacFile& v) { return to_py_text(text_of(v.acc.x_file, v.acc.x_file_raw)); },
                             "Line 2: the .x file, relative to the .vac's folder, as stored ('\\' separators).")
      .def_property_readonly("scale", [](const VacFile& v) { return v.acc.scale; },
                             "Line 3: scale (MMD's Si; 1 = the .x file's size × 10).")
      .def_property_readonly("position", [](const VacFile& v) { return vec_array(v.acc.position); },
                             "Line 4: position (3,) float32, MMD units, in the bone's space (the world without a bone).")
      .def_property_readonly("rotation_degrees", [](const VacFile& v) { return vec_array(v.acc.rotation_degrees); },
                             "Line 5: rotation (3,) float32 in degrees about X, Y, Z (applied X, then Y, then Z).")
      .def_property_readonly("bone", [](const VacFile& v) { return to_py_text(text_of(v.acc.bone, v.acc.bone_raw)); },
                             "Line 6: the bone the accessory follows ('' = placed in the world).")
      .def_property_readonly("has_bone_line", [](const VacFile& v) { return v.acc.has_bone_line; },
                             "Whether line 6 was present (possibly empty).")
      .def_property_readonly("line_ending", [](const VacFile& v) { return v.acc.crlf ? "crlf" : "lf"; },
                             "'crlf' or 'lf' (the first line's ending).")
      .def_property_readonly("extra_lines", [](const VacFile& v) { return v.acc.extra_lines; },
                             "Non-blank lines after line 6 (kept, with a warning).")
      .def_property_readonly("placement_matrix", [](const VacFile& v) { return matrix_array(vac::placement_matrix(v.acc)); },
                             "T(position) · Rz · Ry · Rx · S(scale), (4, 4) float32 [row, column] for column vectors, "
                             "in MMD's space; without MMD's ×10 (vac.hpp).")
      .def(
          "x_path",
          [](const VacFile& v) {
            if (v.path.empty()) raise_argument("x_path needs a VacFile read from a file (the .x is found in its folder)");
            return unwrap(vac::resolve_x_file(folder_of(v.path), v.acc)).string();
          },
          "The .x file's path, found in the .vac's folder as textures are (case-insensitive, never outside it). "
          "Raises FileError when there is no such file.")
      .def_property_readonly("warnings", [](const VacFile& v) { return error_dicts(v.acc.warnings); },
                             "Warnings of the read (missing line 6, extra lines).")
      .def(
          "to_json", [](const VacFile& v) { return dump_json(formats::vac_ops(), v.bytes); },
          "The JSON `mmdkit dump FILE.vac` prints (docs/formats/vac.md \"JSON\").")
      .def(
          "_check",
          [](const VacFile& v) {
            return check_findings(formats::vac_ops(), ByteSpan(v.bytes.data(), v.bytes.size()),
                                  v.path.empty() ? std::nullopt : std::optional<std::string>(folder_of(v.path)), v.path);
          },
          "The findings of `mmdkit check` (the .x looked up in the .vac's folder when read from a file).")
      .def("__repr__", [](const VacFile& v) {
        return "<VacFile '" + v.acc.name + "' -> '" + v.acc.x_file + "'" +
               (v.acc.bone.empty() ? std::string(" (world)") : " on '" + v.acc.bone + "'") + ">";
      });
}

}  // namespace

void bind_x(py::module_& m) {
  bind_xfile(m);
  bind_vacfile(m);
}

}  // namespace mmdkit::python
