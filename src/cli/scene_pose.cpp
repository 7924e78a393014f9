// mmdkit CLI — the scene form of `pose` (pose_job.hpp): every model, the stage and the visible
// accessories in one OBJ.

// GCC 12 false positive inside CLI11 / libstdc++ strings (see cmd_sample.cpp).
#pragma GCC diagnostic ignored "-Wnull-dereference"

#include <cmath>
#include <filesystem>
#include <system_error>

#include "cli/app.hpp"
#include "cli/command.hpp"
#include "cli/io.hpp"
#include "cli/obj_materials.hpp"
#include "cli/progress.hpp"
#include "cli/pose_job.hpp"
#include "cli/scene_input.hpp"
#include "mmdkit/core/file.hpp"
#include "mmdkit/export/obj.hpp"
#include "mmdkit/model/model.hpp"
#include "mmdkit/model/textures.hpp"
#include "mmdkit/scene/placement.hpp"
#include "core/try.hpp"

namespace mmdkit::cli {

namespace fs = std::filesystem;

std::expected<PoseJob, int> pose_scene_job(const PoseArgs& a, std::ostream& err) {
  auto usage = [&](const std::string& m) { return std::unexpected(usage_error(err, "pose", m)); };
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
  MMDKIT_TRY_ASSIGN(auto desc, scene_description(a.scene, SceneCommandInputs{a.model, a.motions, "", "", "pose", a.quiet, ""}, err));
  PoseJob job;
  job.inputs = scene_inputs(desc, a.scene);
  const fs::path out_path(a.output);
  const fs::path out_dir = folder_of(out_path);
  job.mtl_path = out_dir / (obj_safe_file_name(out_path.stem().string()) + ".mtl");
  for (const fs::path& o : {out_path, job.mtl_path})
    if (auto r = check_output(o, job.inputs, a.force); !r) return std::unexpected(report_error(err, r.error(), o.string()));
  MMDKIT_TRY_ASSIGN(auto sc, load_scene(desc, true, a.quiet, err, a.scene.scene.empty()));
  scene::Scene& s = sc;
  for (std::size_t i = 0; i < s.character_count(); ++i) s.character(i).set_ik(!a.no_ik);
  SceneEvaluator evaluator(s, err, a.quiet);
  if (auto r = evaluator.set_physics(a.physics); !r) return usage(r.error().message);
  if (auto r = evaluator.evaluate(a.frame); !r) return std::unexpected(report_error(err, r.error(), a.scene.scene));

  const scene::SceneDescription& d = s.description();
  for (std::size_t i = 0; i < s.character_count(); ++i) {
    anim::Character& ch = s.character(i);
    if (auto r = ch.skin(); !r) return std::unexpected(report_error(err, r.error(), ""));
    const bool stage = s.has_stage() && i == s.stage_index();
    const fs::path file = stage ? d.stage->file : d.models[i].file;
    append_pose_mesh(job, ch.data().model(), ch.positions(), ch.normals(), ch.morphs().uv_offsets(),
                     ch.morphs().materials(), s.character_placement(i), s.character_placement_values(i).is_identity(),
                     stage ? std::string("stage_") : "m" + std::to_string(i) + "_", folder_of(file), out_dir,
                     std::string(), file.string(), a.quiet, err);
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
    append_pose_mesh(job, m, p, n, {}, values, s.accessory_transform(k), false, "a" + std::to_string(k) + "_",
                     folder_of(d.accessories[k].file), out_dir, std::string(), d.accessories[k].file.string(), a.quiet,
                     err);
  }
  job.comment = "scene: " + (a.scene.scene.empty() ? std::string("(command line)") : a.scene.scene) +
                "\nframe: " + std::to_string(a.frame);
  for (const scene::SceneFile& f : scene::scene_files(d)) job.comment += "\n" + f.field + ": " + f.path.string();
  return job;
}

}  // namespace mmdkit::cli
