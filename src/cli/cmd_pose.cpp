// mmdkit CLI — `pose` (cmd_pose.hpp): pose a model at one frame and write OBJ + MTL.
#include "cli/cmd_pose.hpp"

// GCC 12 false positive inside CLI11 (see cmd_sample.cpp).
#pragma GCC diagnostic ignored "-Wnull-dereference"

#include <CLI/CLI.hpp>

#include <memory>

#include <cmath>
#include <filesystem>
#include <optional>
#include <system_error>

#include "cli/animation_input.hpp"
#include "cli/app.hpp"
#include "cli/pose_job.hpp"
#include "cli/command.hpp"
#include "cli/io.hpp"
#include "cli/messages.hpp"
#include "cli/obj_materials.hpp"
#include "cli/progress.hpp"
#include "mmdkit/anim/character.hpp"
#include "mmdkit/core/file.hpp"
#include "mmdkit/export/obj.hpp"
#include "mmdkit/model/model.hpp"
#include "mmdkit/model/textures.hpp"
#include "mmdkit/scene/placement.hpp"
#include "core/try.hpp"

namespace mmdkit::cli {

namespace fs = std::filesystem;

namespace {

// The options of `pose` (its Command below).
void declare_pose_options(CLI::App& sub, PoseArgs& a) {
  CLI::App* s = &sub;
  s->add_option("MODEL", a.model, "model file (PMX or PMD, or its mmdkit JSON; by content); not with --scene");
  s->add_option("MOTION", a.motions,
                "VMD motions (merged) and at most one VPD pose (over them), or their JSON; none = bind pose. "
                "Motions that key no bone or morph of the model (a camera motion) are refused (exit 1), as by sample");
  s->add_option("--frame", a.frame, "frame to evaluate (30 fps, fractional allowed; default 0)");
  s->add_option("-o,--output", a.output, "output .obj (the .mtl is written next to it; not stdout)")->required();
  s->add_flag("--right-handed", a.right_handed, "negate Z and reverse the winding (default: MMD coordinates)");
  s->add_flag("--copy-textures", a.copy_textures,
              "copy the textures into <stem>_textures/ next to the OBJ (blanks in names become '_')");
  s->add_option("--scale", a.scale, "multiply positions by this (default 1 = MMD units; 0.08 = metres, e.g. for Blender)");
  s->add_flag("--no-ik", a.no_ik, "switch every IK solver off");
  s->add_flag("--force", a.force, "allow the outputs (OBJ, MTL, copied textures) to replace existing files, inputs included");
  s->add_flag("-q,--quiet", a.quiet,
              "do not print warnings (reader warnings, motion tracks that match nothing), progress or the summary line");
  declare_physics_options(sub, a.physics);
  declare_scene_options(sub, a.scene);
}

}  // namespace

const Command kPoseCommand{"pose", "pose a model at one frame (VMD motions and/or a VPD pose; morphs, bones, skinning) and write OBJ + MTL", [](CLI::App& sub) -> Runner {
  auto a = std::make_shared<PoseArgs>();
  declare_pose_options(sub, *a);
  return [a](const Streams& s) { return run_pose(*a, s.out, s.err); };
}};

fs::path folder_of(const fs::path& p) { return p.has_parent_path() ? p.parent_path() : fs::path("."); }

namespace {

Vec3 unit(Vec3 v) {
  const float l = std::sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
  return l > 0 ? Vec3{v[0] / l, v[1] / l, v[2] / l} : v;
}

std::string lower_ext(const std::string& p) {
  std::string e = fs::path(p).extension().string();
  for (char& c : e) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return e;
}

// Usage problems of MODEL [MOTION...] (exit 2, printed); kExitOk when none.
int check_pose_usage(const PoseArgs& a, std::ostream& err) {
  if (a.model.empty()) return usage_error(err, "pose", "MODEL is required (or --scene FILE)");
  if (!std::isfinite(a.frame) || a.frame < 0) {
    err << "mmdkit: error: --frame must be a finite number >= 0\n";
    return kExitUsage;
  }
  if (const std::string p = physics_usage_problem(a.physics); !p.empty()) {
    err << "mmdkit: error: " << p << "\nrun 'mmdkit pose --help' for usage\n";
    return kExitUsage;
  }
  if (a.physics.on && a.frame != std::floor(a.frame)) {
    err << "mmdkit: error: --frame must be a whole frame with --physics (the simulation steps whole 30 fps frames)\n";
    return kExitUsage;
  }
  if (is_std_stream(a.output)) {
    err << "mmdkit: error: pose cannot write to stdout ('-o -'): it writes an OBJ, its MTL and the textures as "
           "files; give an .obj path\n";
    return kExitUsage;
  }
  if (!(a.scale > 0) || !std::isfinite(a.scale) || a.scale > 1e6) {
    err << "mmdkit: error: --scale must be a number > 0 and <= 1e6 (0.08 = metres)\nrun 'mmdkit pose --help' for usage\n";
    return kExitUsage;
  }
  if (lower_ext(a.output) != ".obj") {
    err << "mmdkit: error: the output must end in .obj\n";
    return kExitUsage;
  }
  return kExitOk;
}

// MODEL [MOTION...]: the model posed at the frame in model space, its textures copied with
// --copy-textures; the outputs checked (the --force rule) once the copies are known.
std::expected<PoseJob, int> pose_model_job(const PoseArgs& a, std::ostream& err) {
  if (int rc = check_pose_usage(a, err); rc != kExitOk) return std::unexpected(rc);
  AnimationRequest req{a.model, a.motions, true, a.quiet, "pose"};
  MMDKIT_TRY_ASSIGN(auto loaded, load_animation(req, err));
  // Motions keying nothing of the model (a camera motion): refused, as by `sample`
  // (animation_input.hpp); pose writes no camera.
  if (int rc = refuse_motions_keying_nothing(req, *loaded, false,
                                             "a camera motion: pose writes no camera; give the model's motion, or "
                                             "no motion for the rest pose",
                                             "", err);
      rc != kExitOk)
    return std::unexpected(rc);
  anim::Character ch(loaded);
  if (!a.quiet) err << past_last_key_note("--frame", a.frame, ch.data().last_frame());
  ch.set_ik(!a.no_ik);
  FrameEvaluator frame_eval(ch, a.physics, err, a.quiet, a.model);
  if (auto r = frame_eval.evaluate(a.frame); !r) return std::unexpected(report_error(err, r.error(), a.model));
  if (auto r = ch.skin(); !r) return std::unexpected(report_error(err, r.error(), a.model));

  PoseJob job;
  const fs::path out_path(a.output);
  const fs::path out_dir = folder_of(out_path);
  const std::string stem = obj_safe_file_name(out_path.stem().string());
  job.inputs.emplace_back(a.model);
  for (const auto& m : a.motions) job.inputs.emplace_back(m);
  append_pose_mesh(job, ch.data().model(), ch.positions(), ch.normals(), ch.morphs().uv_offsets(),
                   ch.morphs().materials(), Mat4{}, true, "", folder_of(a.model), out_dir,
                   a.copy_textures ? stem + "_textures" : std::string(), a.model, a.quiet, err);
  job.mtl_path = out_dir / (stem + ".mtl");
  job.comment = "model: " + a.model + "\nframe: " + std::to_string(a.frame);
  for (const auto& m : a.motions) job.comment += "\nmotion: " + m;
  // The --force rule (io.hpp) for every output before any is written.
  std::vector<fs::path> outputs{out_path, job.mtl_path};
  for (const auto& c : job.copies) outputs.push_back(c.second);
  for (const fs::path& o : outputs)  // copied textures go into folders made when they are written
    if (auto r = check_output(o, job.inputs, a.force, o != out_path && o != job.mtl_path); !r)
      return std::unexpected(report_error(err, r.error(), o.string()));
  return job;
}

// The OBJ, its MTL and the copied textures of `job`, and the summary.
int write_pose(const PoseArgs& a, const PoseJob& job, std::ostream& err) {
  exporter::ObjOptions oo;
  oo.right_handed = a.right_handed;
  oo.scale = static_cast<float>(a.scale);
  oo.mtl_file = job.mtl_path.filename().string();
  oo.comment = job.comment;
  const std::string obj =
      exporter::write_obj(job.positions, job.normals, job.uvs, job.faces, job.ranges, job.materials, oo);
  const std::string mtl = exporter::write_mtl(job.materials);
  WriteOptions wo{job.inputs, true};
  if (auto r = write_file_atomic(fs::path(a.output), std::string_view(obj), wo); !r)
    return report_error(err, r.error(), a.output);
  if (auto r = write_file_atomic(job.mtl_path, std::string_view(mtl), wo); !r)
    return report_error(err, r.error(), job.mtl_path.string());
  for (const auto& [from, to] : job.copies) {
    auto bytes = read_file(from);
    if (!bytes) return report_error(err, bytes.error(), from.string());
    std::error_code ec;
    fs::create_directories(to.parent_path(), ec);
    if (auto r = write_file_atomic(to, ByteSpan(bytes->data(), bytes->size()), wo); !r)
      return report_error(err, r.error(), to.string());
  }
  std::string text = "wrote " + a.output + " (" + std::to_string(job.positions.size()) + " vertices, " +
                     std::to_string(job.faces.size() / 3) + " triangles, " + std::to_string(job.materials.size()) +
                     " materials) and " + job.mtl_path.string();
  if (a.copy_textures) {
    const fs::path out_path(a.output);
    text += ", " + std::to_string(job.copies.size()) + (job.copies.size() == 1 ? " texture" : " textures") +
            " copied into " + (folder_of(out_path) / (obj_safe_file_name(out_path.stem().string()) + "_textures")).string();
  }
  summary(err, a.quiet, "pose", text);
  return kExitOk;
}

}  // namespace

void append_pose_mesh(PoseJob& job, const model::Model& m, std::span<const Vec3> pos, std::span<const Vec3> nrm,
                      std::span<const Vec4> uv_offsets, std::span<const anim::MaterialValues> values,
                      const Mat4& world, bool identity, const std::string& prefix, const fs::path& model_dir,
                      const fs::path& out_dir, const std::string& copy_folder, const std::string& label, bool quiet,
                      std::ostream& err) {
  const auto base = static_cast<std::uint32_t>(job.positions.size());
  const std::uint32_t first_index = static_cast<std::uint32_t>(job.faces.size());
  for (std::size_t v = 0; v < m.vertices.size(); ++v) {
    job.positions.push_back(identity ? pos[v] : scene::transform_point(world, pos[v]));
    job.normals.push_back(identity ? nrm[v] : unit(scene::transform_direction(world, nrm[v])));
    const float du = uv_offsets.empty() ? 0.0f : uv_offsets[v][0], dv = uv_offsets.empty() ? 0.0f : uv_offsets[v][1];
    job.uvs.push_back({m.vertices[v].uv[0] + du, m.vertices[v].uv[1] + dv});
  }
  for (std::uint32_t f : m.faces) job.faces.push_back(base + f);
  // Materials, textures and sphere maps (obj_materials.hpp: one warning per texture file naming
  // the folder searched), prefixed by the model's place in a scene.
  ObjMaterialPlan plan = plan_obj_materials(m, values, model_dir, out_dir, copy_folder);
  if (!quiet)
    for (const std::string& w : plan.warnings) err << diagnostic_line(Diagnostic::warning, label + ": " + w);
  for (std::size_t i = 0; i < plan.materials.size(); ++i) {
    exporter::ObjMaterial o = std::move(plan.materials[i]);
    o.name = prefix + o.name;
    job.materials.push_back(std::move(o));
    job.ranges.push_back({first_index + m.materials[i].first_index, m.materials[i].index_count});
  }
  for (auto& c : plan.copies) job.copies.push_back(std::move(c));
}

int run_pose(const PoseArgs& a, std::ostream& out, std::ostream& err) {
  (void)out;
  auto job = a.scene.requested() ? pose_scene_job(a, err) : pose_model_job(a, err);
  if (!job) return job.error();
  return write_pose(a, *job, err);
}

int cmd_pose(int argc, const char* const* argv, std::ostream& out, std::ostream& err) {
  return run_command("pose", argc, argv, out, err);
}

}  // namespace mmdkit::cli
