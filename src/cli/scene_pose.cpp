// mmdkit CLI — `pose --scene` (scene_commands.hpp): every model, the stage and the accessories in

// GCC 12 false positive inside CLI11 / libstdc++ strings (see cmd_sample.cpp).
#pragma GCC diagnostic ignored "-Wnull-dereference"

// one OBJ.
#include <cmath>
#include <filesystem>
#include <system_error>

#include "cli/app.hpp"
#include "cli/command.hpp"
#include "cli/io.hpp"
#include "cli/obj_materials.hpp"
#include "cli/progress.hpp"
#include "cli/scene_commands.hpp"
#include "mmdkit/core/file.hpp"
#include "mmdkit/export/obj.hpp"
#include "mmdkit/model/model.hpp"
#include "mmdkit/model/textures.hpp"
#include "mmdkit/scene/placement.hpp"

namespace mmdkit::cli {

namespace fs = std::filesystem;

namespace {

fs::path folder_of(const fs::path& p) { return p.has_parent_path() ? p.parent_path() : fs::path("."); }

// The meshes of the whole scene, appended one after the other.
struct Mesh {
  std::vector<Vec3> positions, normals;
  std::vector<std::array<float, 2>> uvs;
  std::vector<std::uint32_t> faces;
  std::vector<exporter::ObjMaterial> materials;
  std::vector<std::array<std::uint32_t, 2>> ranges;
};

Vec3 unit(Vec3 v) {
  const float l = std::sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
  return l > 0 ? Vec3{v[0] / l, v[1] / l, v[2] / l} : v;
}

// Appends one model view's mesh with `world` applied to its vertices.
void append(Mesh& mesh, const model::Model& m, std::span<const Vec3> pos, std::span<const Vec3> nrm,
            std::span<const Vec4> uv_offsets, std::span<const anim::MaterialValues> values, const Mat4& world,
            bool identity, const std::string& prefix, const fs::path& model_dir, const fs::path& out_dir,
            const std::string& label, bool quiet, std::ostream& err) {
  const auto base = static_cast<std::uint32_t>(mesh.positions.size());
  const std::uint32_t first_index = static_cast<std::uint32_t>(mesh.faces.size());
  for (std::size_t v = 0; v < m.vertices.size(); ++v) {
    mesh.positions.push_back(identity ? pos[v] : scene::transform_point(world, pos[v]));
    mesh.normals.push_back(identity ? nrm[v] : unit(scene::transform_direction(world, nrm[v])));
    const float du = uv_offsets.empty() ? 0.0f : uv_offsets[v][0], dv = uv_offsets.empty() ? 0.0f : uv_offsets[v][1];
    mesh.uvs.push_back({m.vertices[v].uv[0] + du, m.vertices[v].uv[1] + dv});
  }
  for (std::uint32_t f : m.faces) mesh.faces.push_back(base + f);
  // Materials, textures and sphere maps as `pose` writes them (obj_materials.hpp: one warning per
  // texture file naming the folder searched), prefixed by the model's place in the scene.
  ObjMaterialPlan plan = plan_obj_materials(m, values, model_dir, out_dir, std::string());
  if (!quiet)
    for (const std::string& w : plan.warnings) err << "mmdkit: warning: " << label << ": " << w << "\n";
  for (std::size_t i = 0; i < plan.materials.size(); ++i) {
    exporter::ObjMaterial o = std::move(plan.materials[i]);
    o.name = prefix + o.name;
    mesh.materials.push_back(std::move(o));
    mesh.ranges.push_back({first_index + m.materials[i].first_index, m.materials[i].index_count});
  }
}

}  // namespace

int run_scene_pose(const PoseArgs& a, std::ostream& out, std::ostream& err) {
  (void)out;
  auto usage = [&](const std::string& m) { return usage_error(err, "pose", m); };
  if (!std::isfinite(a.frame) || a.frame < 0) return usage("--frame must be a finite number >= 0");
  if (!(a.scale > 0) || !std::isfinite(a.scale) || a.scale > 1e6) return usage("--scale must be a number > 0 and <= 1e6 (0.08 = metres)");
  if (const std::string p = physics_usage_problem(a.physics); !p.empty()) return usage(p);
  if (a.physics.on && a.frame != std::floor(a.frame))
    return usage("--frame must be a whole frame with --physics (the simulation steps whole 30 fps frames)");
  if (is_std_stream(a.output)) return usage("pose writes an OBJ and its MTL as files; give an .obj path");
  {
    std::string e = fs::path(a.output).extension().string();
    for (char& c : e) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (e != ".obj") return usage("the output must end in .obj");
  }
  if (a.copy_textures) return usage("--copy-textures is for one model; a scene's OBJ references the textures in place");
  auto desc = scene_description(a.scene, SceneCommandInputs{a.model, a.motions, "", "", "pose", a.quiet, ""}, err);
  if (!desc) return desc.error();
  const std::vector<fs::path> inputs = scene_inputs(*desc, a.scene);
  const fs::path out_path(a.output);
  // The MTL beside the OBJ, named after it with blanks as '_' (mtllib names have no spaces).
  const fs::path mtl_path = folder_of(out_path) / (obj_safe_file_name(out_path.stem().string()) + ".mtl");
  for (const fs::path& o : {out_path, mtl_path})
    if (auto r = check_output(o, inputs, a.force); !r) return report_error(err, r.error(), o.string());
  auto sc = load_scene(*desc, true, a.quiet, err, a.scene.scene.empty());
  if (!sc) return sc.error();
  scene::Scene& s = *sc;
  for (std::size_t i = 0; i < s.character_count(); ++i) s.character(i).set_ik(!a.no_ik);
  SceneEvaluator evaluator(s, err, a.quiet);
  if (auto r = evaluator.set_physics(a.physics); !r) return usage(r.error().message);
  if (auto r = evaluator.evaluate(a.frame); !r) return report_error(err, r.error(), a.scene.scene);

  const scene::SceneDescription& d = s.description();
  const fs::path out_dir = folder_of(out_path);
  Mesh mesh;
  for (std::size_t i = 0; i < s.character_count(); ++i) {
    anim::Character& ch = s.character(i);
    if (auto r = ch.skin(); !r) return report_error(err, r.error(), "");
    const bool stage = s.has_stage() && i == s.stage_index();
    const fs::path file = stage ? d.stage->file : d.models[i].file;
    append(mesh, ch.data().model(), ch.positions(), ch.normals(), ch.morphs().uv_offsets(), ch.morphs().materials(),
           s.character_placement(i), s.character_placement_values(i).is_identity(),
           stage ? std::string("stage_") : "m" + std::to_string(i) + "_", folder_of(file), out_dir, file.string(), a.quiet,
           err);
  }
  for (std::size_t k = 0; k < s.accessory_count(); ++k) {
    if (!s.accessory_visible(k)) continue;  // at this frame (an accessory's keys may hide it)
    const model::Model& m = *s.accessory(k).model;
    std::vector<Vec3> p(m.vertices.size()), n(m.vertices.size());
    for (std::size_t v = 0; v < m.vertices.size(); ++v) {
      p[v] = m.vertices[v].position;
      n[v] = m.vertices[v].normal;
    }
    std::vector<anim::MaterialValues> values;
    if (auto md = anim::MorphData::create(m)) values.assign(md->base_materials().begin(), md->base_materials().end());
    append(mesh, m, p, n, {}, values, s.accessory_transform(k), false, "a" + std::to_string(k) + "_",
           folder_of(d.accessories[k].file), out_dir, d.accessories[k].file.string(), a.quiet, err);
  }

  exporter::ObjOptions oo;
  oo.right_handed = a.right_handed;
  oo.scale = static_cast<float>(a.scale);
  oo.mtl_file = mtl_path.filename().string();
  oo.comment = "scene: " + (a.scene.scene.empty() ? std::string("(command line)") : a.scene.scene) +
               "\nframe: " + std::to_string(a.frame);
  for (const scene::SceneFile& f : scene::scene_files(d)) oo.comment += "\n" + f.field + ": " + f.path.string();
  const std::string obj = exporter::write_obj(mesh.positions, mesh.normals, mesh.uvs, mesh.faces, mesh.ranges, mesh.materials, oo);
  const std::string mtl = exporter::write_mtl(mesh.materials);
  WriteOptions wo{inputs, true};
  if (auto r = write_file_atomic(out_path, std::string_view(obj), wo); !r) return report_error(err, r.error(), a.output);
  if (auto r = write_file_atomic(mtl_path, std::string_view(mtl), wo); !r) return report_error(err, r.error(), mtl_path.string());
  summary(err, a.quiet, "pose",
          "wrote " + a.output + " (" + std::to_string(mesh.positions.size()) + " vertices, " +
              std::to_string(mesh.faces.size() / 3) + " triangles, " + std::to_string(mesh.materials.size()) +
              " materials) and " + mtl_path.string());
  return kExitOk;
}

}  // namespace mmdkit::cli
