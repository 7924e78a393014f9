// mmdkit Python bindings — MMD projects (mmdkit.Project, .pmm): read / write / lossless JSON like
// the other formats, a summary of the models, accessories and keys, the project as a scene
// (scene::convert_project: one Motion per model, the camera Motion, the files found) and
// Project.create (scene::create_project).
#include "document.hpp"
#include "mmdkit/core/file.hpp"
#include "mmdkit/formats/pmm.hpp"
#include "mmdkit/formats/vmd.hpp"
#include "mmdkit/scene/project.hpp"
#include "mmdkit/scene/project_create.hpp"

namespace mmdkit::python {

namespace fs = std::filesystem;

template <>
struct FormatFns<pmm::Document> {
  static constexpr const char* name = "pmm";
  static Result<Document<pmm::Document>> parse(ByteSpan bytes, std::optional<Encoding> enc, bool strict) {
    pmm::ReadOptions o;
    o.encoding = enc;
    o.strict = strict;
    auto r = pmm::read(bytes, o);
    if (!r) return std::unexpected(r.error());
    return Document<pmm::Document>{std::move(r->document), std::move(r->warnings)};
  }
  static Result<std::vector<std::uint8_t>> write(const pmm::Document& d) { return pmm::write(d); }
  static std::string to_json(const pmm::Document& d, bool /*pretty: the PMM JSON has one form*/) {
    return pmm::to_json(d);
  }
  static Result<pmm::Document> from_json(std::string_view text) { return pmm::from_json(text); }
  static const formats::FormatOps& ops() { return formats::pmm_ops(); }
};

namespace {
using Project = Document<pmm::Document>;
using Motion = Document<vmd::Motion>;

py::tuple vec3(const std::array<float, 3>& v) { return py::make_tuple(v[0], v[1], v[2]); }

py::dict model_summary(const pmm::Model& m) {
  py::dict d;
  d["name"] = to_py_text(m.name);
  d["name_en"] = to_py_text(m.name_en);
  d["path"] = to_py_text(m.path);
  d["bone_names"] = texts(m.bone_names);
  d["morph_names"] = texts(m.morph_names);
  d["ik_bones"] = m.ik_bones;
  d["bone_keys"] = m.initial_bone_keys.size() + m.bone_keys.size();
  d["morph_keys"] = m.initial_morph_keys.size() + m.morph_keys.size();
  d["model_keys"] = 1 + m.model_keys.size();
  d["last_frame"] = m.last_frame;
  return d;
}

py::dict accessory_summary(const pmm::Accessory& a) {
  py::dict d;
  d["name"] = to_py_text(a.name);
  d["path"] = to_py_text(a.path);
  const pmm::AccessoryKey& k = a.initial_key;
  d["position"] = vec3(k.translation);
  d["rotation"] = vec3(k.rotation);
  d["scale"] = k.scale;
  d["parent"] = py::make_tuple(k.parent.model, k.parent.bone);
  d["visible"] = pmm::accessory_visible(k.opacity_visible);
  d["opacity"] = pmm::accessory_opacity(k.opacity_visible);
  d["keys"] = 1 + a.keys.size();
  return d;
}

py::dict project_path(const scene::ProjectPath& p) {
  py::dict d;
  d["stored"] = p.stored;
  d["found"] = p.found ? py::object(py::str(p.found->string())) : py::object(py::none());
  py::list tried;
  for (const auto& t : p.tried) tried.append(t.string());
  d["tried"] = tried;
  return d;
}

// scene::convert_project with the project's folder (nullopt: the folder of the file it was read
// from, as `mmdkit render project.pmm`; made by from_bytes / from_json / create: the current one)
// and search folders.
scene::Project converted(const Project& self, const std::optional<std::string>& folder,
                         const std::vector<std::string>& search_dirs, bool strict, std::vector<Warning>& warnings) {
  scene::ProjectOptions o;
  if (auto f = folder ? folder : self.folder()) o.project_folder = *f;
  for (const auto& s : search_dirs) o.search_folders.emplace_back(s);
  o.strict = strict;
  return unwrap(without_gil([&] { return scene::convert_project(self.data, o, warnings); }));
}

py::dict as_scene(const Project& self, const std::optional<std::string>& folder,
                  const std::vector<std::string>& search_dirs, bool strict) {
  std::vector<Warning> warnings;
  scene::Project p = converted(self, folder, search_dirs, strict, warnings);
  py::dict out;
  py::list models;
  for (scene::ProjectModel& m : p.models) {
    py::dict d;
    d["name"] = m.name;
    d["file"] = project_path(m.file);
    d["motion"] = py::cast(Motion{std::move(m.motion), {}});
    models.append(d);
  }
  out["models"] = models;
  py::list accessories;
  for (const scene::ProjectAccessory& a : p.accessories) {
    py::dict d;
    d["name"] = a.name;
    d["file"] = project_path(a.file);
    d["x_file"] = a.x_file.empty() ? py::object(py::none()) : py::object(py::str(a.x_file.string()));
    d["position"] = vec3(a.placement.position);
    d["rotation_degrees"] = vec3(a.placement.rotation);
    d["scale"] = a.placement.scale;
    d["model"] = a.model ? py::object(py::int_(*a.model)) : py::object(py::none());
    d["bone"] = a.bone;
    d["visible"] = a.visible;
    accessories.append(d);
  }
  out["accessories"] = accessories;
  out["camera"] = py::cast(Motion{std::move(p.camera), {}});
  out["audio"] = p.audio ? py::object(project_path(*p.audio)) : py::object(py::none());
  out["size"] = py::make_tuple(p.width, p.height);
  out["first_frame"] = p.first_frame;
  out["last_frame"] = p.last_frame ? py::object(py::int_(*p.last_frame)) : py::object(py::none());
  out["warnings"] = error_dicts(warnings);
  return out;
}

Project create(const std::vector<std::string>& models, const std::vector<std::vector<std::string>>& motions,
               const std::optional<std::string>& camera, const std::vector<std::string>& accessories,
               const std::optional<std::string>& audio, std::pair<int, int> size,
               const std::optional<std::string>& folder) {
  if (motions.size() > models.size()) raise_argument("motions: more lists than models");
  std::vector<Warning> warnings;
  auto doc = without_gil([&]() -> Result<pmm::Document> {
    scene::CreateInput in;
    for (std::size_t i = 0; i < models.size(); ++i) {
      scene::CreateModel cm;
      cm.file = models[i];
      if (i < motions.size())
        for (const std::string& f : motions[i]) {
          auto m = scene::read_project_motion(f, warnings);
          if (!m) return std::unexpected(m.error());
          cm.motions.push_back(std::move(*m));
        }
      in.models.push_back(std::move(cm));
    }
    if (camera) {
      auto m = scene::read_project_motion(*camera, warnings);
      if (!m) return std::unexpected(m.error());
      in.camera = std::move(*m);
    }
    for (const std::string& a : accessories) {
      scene::CreateAccessory ca;
      ca.file = a;
      in.accessories.push_back(std::move(ca));
    }
    if (audio) in.audio = *audio;
    in.width = size.first;
    in.height = size.second;
    if (folder) in.project_folder = *folder;
    return scene::create_project(in, warnings);
  });
  return Project{unwrap(std::move(doc)), std::move(warnings)};
}

// The project as a scene folder `out` (an existing folder, normally a new temporary one): one VMD per
// model (<model name>.vmd: scene::project_file_names, the names `pmm extract` gives), camera.vmd
// and scene.json (scene::project_scene_json, the scene `mmdkit pmm extract` writes, with these
// motion names), for mmdkit.Renderer and mmdkit.Scene. Returns
// (scene.json's path, the conversion's warnings). Raises when no model of the project was found.
py::tuple write_scene(const Project& self, const std::optional<std::string>& folder,
                      const std::vector<std::string>& search_dirs, bool strict, const std::string& out) {
  std::vector<Warning> warnings;
  const scene::Project p = converted(self, folder, search_dirs, strict, warnings);
  if (p.scene.models.empty())
    raise_argument(p.models.empty() ? "the project has no model: a scene needs one"
                                    : "no model of the project was found (see the warnings; search_dirs= names "
                                      "where to look): a scene needs one");
  const fs::path dir(out);
  const std::vector<std::string> names = scene::project_file_names(p).motions;
  auto write_vmd = [&](const std::string& name, const vmd::Motion& m) {
    std::vector<std::uint8_t> bytes = unwrap(vmd::write(m));
    unwrap(write_file_atomic(dir / name, ByteSpan(bytes.data(), bytes.size()), WriteOptions{{}, true}));
  };
  for (std::size_t i = 0; i < p.models.size(); ++i) write_vmd(names[i], p.models[i].motion);
  write_vmd("camera.vmd", p.camera);
  const std::string json = scene::project_scene_json(p, names, "camera.vmd");
  const fs::path scene_file = dir / "scene.json";
  unwrap(write_file_atomic(scene_file, ByteSpan(reinterpret_cast<const std::uint8_t*>(json.data()), json.size()),
                           WriteOptions{{}, true}));
  return py::make_tuple(scene_file.string(), error_dicts(warnings));
}

}  // namespace

void bind_pmm(py::module_& m) {
  py::class_<Project> cls(m, "Project",
                          "An MMD project (.pmm, 'Polygon Movie maker' 0001 / 0002): read and written byte for "
                          "byte, lossless JSON (docs/formats/pmm.md). Frames at 30 fps, MMD units, radians for "
                          "accessory and camera angles. scene() turns it into motions and files (docs/PMM.md).");
  def_document(cls);
  cls.def_property_readonly("version", [](const Project& p) { return static_cast<int>(p.data.version); },
                            "1 (MMD 7.x) or 2 (MMD 9.x).")
      .def_property_readonly("encoding", [](const Project& p) { return std::string(encoding_name(p.data.encoding)); })
      .def_property_readonly("output_size", [](const Project& p) {
        return py::make_tuple(p.data.output_width, p.data.output_height);
      }, "(width, height) in pixels.")
      .def_property_readonly("play_range", [](const Project& p) {
        const auto& d = p.data;
        return py::make_tuple(d.begin_enabled ? py::object(py::int_(d.begin_frame)) : py::object(py::none()),
                              d.end_enabled ? py::object(py::int_(d.end_frame)) : py::object(py::none()));
      }, "(first, last) frames of the play range; None where that end is off.")
      .def_property_readonly("audio_path", [](const Project& p) {
        return p.data.audio_enabled ? to_py_text(p.data.audio_path) : py::object(py::none());
      }, "The audio file as stored (mmdkit.Text), None when audio is off.")
      .def_property_readonly("models", [](const Project& p) {
        py::list l;
        for (const pmm::Model& mo : p.data.models) l.append(model_summary(mo));
        return l;
      }, "Per model a dict: name, name_en, path (mmdkit.Text as stored), bone_names, morph_names, ik_bones, "
         "bone_keys / morph_keys / model_keys (counts, initial keys included), last_frame.")
      .def_property_readonly("accessories", [](const Project& p) {
        py::list l;
        for (const pmm::Accessory& a : p.data.accessories) l.append(accessory_summary(a));
        return l;
      }, "Per accessory a dict: name, path, its frame-0 position, rotation (radians), scale, parent (model, bone; "
         "-1 = none), visible, opacity, keys (count, initial included).")
      .def_property_readonly("counts", [](const Project& p) {
        const auto& d = p.data;
        py::dict c;
        c["models"] = d.models.size();
        c["accessories"] = d.accessories.size();
        c["camera_keys"] = d.camera.keys.size();
        c["light_keys"] = d.light.keys.size();
        c["gravity_keys"] = d.gravity.keys.size();
        c["self_shadow_keys"] = d.self_shadow.keys.size();
        return c;
      }, "Counts: models, accessories, and the regular (non-initial) camera, light, gravity and self-shadow keys "
         "(tools/pmm_counts.py's columns).")
      .def("scene", &as_scene, py::arg("folder") = py::none(), py::arg("search_dirs") = std::vector<std::string>{},
           py::arg("strict") = false,
           "The project as a scene (scene::convert_project, docs/PMM.md): a dict with models (name, file: {stored, "
           "found, tried}, motion: a Motion of every key), accessories (file, x_file, position, rotation_degrees, "
           "scale, model, bone, visible), camera (a Motion: camera, light, self-shadow keys), audio, size, "
           "first_frame, last_frame, warnings. folder: the project's folder (paths are resolved below it, then "
           "below each search dir; default: the folder of the file it was read from, else the current one). "
           "strict: a file not found raises.")
      .def("_write_scene", &write_scene, py::arg("folder"), py::arg("search_dirs"), py::arg("strict"), py::arg("out"),
           "The project as a scene folder (<model name>.vmd per model, camera.vmd, scene.json as `pmm extract` writes it) in the "
           "existing folder out: (scene.json's path, warnings). Used by mmdkit.Renderer and mmdkit.Scene.")
      .def_static("create", &create, py::arg("models"), py::arg("motions") = std::vector<std::vector<std::string>>{},
                  py::arg("camera") = py::none(), py::arg("accessories") = std::vector<std::string>{},
                  py::arg("audio") = py::none(), py::arg("size") = std::pair<int, int>{1280, 720},
                  py::arg("folder") = py::none(),
                  "A version-2 project MMD opens (scene::create_project, docs/PMM.md 'Creating a project'): models "
                  "(PMX / PMD paths), motions (one list of VMD paths per model), camera (VMD), accessories (.x / "
                  ".vac), audio (.wav), size (width, height), folder (where it will be saved: files below it are "
                  "stored relative). Warnings of the binding are in .warnings.");
}

}  // namespace mmdkit::python
