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
#include "cli/scene_commands.hpp"
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

namespace {

std::string lower_ext(const std::string& p) {
  std::string e = fs::path(p).extension().string();
  for (char& c : e) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return e;
}

}  // namespace

int run_pose(const PoseArgs& a, std::ostream& out, std::ostream& err) {
  if (a.scene.requested()) return run_scene_pose(a, out, err);
  if (a.model.empty()) return usage_error(err, "pose", "MODEL is required (or --scene FILE)");
  (void)out;
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
  AnimationRequest req{a.model, a.motions, true, a.quiet, "pose"};
  auto loaded = load_animation(req, err);
  if (!loaded) return loaded.error();
  // Motions keying nothing of the model (a camera motion): refused, as by `sample`
  // (animation_input.hpp); pose writes no camera.
  if (int rc = refuse_motions_keying_nothing(req, **loaded, false,
                                             "a camera motion: pose writes no camera; give the model's motion, or "
                                             "no motion for the rest pose",
                                             "", err);
      rc != kExitOk)
    return rc;
  anim::Character ch(*loaded);
  const model::Model& mdl = ch.data().model();
  if (!a.quiet) err << past_last_key_note("--frame", a.frame, ch.data().last_frame());
  ch.set_ik(!a.no_ik);
  FrameEvaluator frame_eval(ch, a.physics, err, a.quiet, a.model);
  if (auto r = frame_eval.evaluate(a.frame); !r) return report_error(err, r.error(), a.model);
  if (auto r = ch.skin(); !r) return report_error(err, r.error(), a.model);
  const anim::MorphWorkspace& mws = ch.morphs();
  std::span<const Vec3> positions = ch.positions(), normals = ch.normals();
  std::vector<std::array<float, 2>> uvs(mdl.vertices.size());
  for (std::size_t v = 0; v < uvs.size(); ++v)
    uvs[v] = {mdl.vertices[v].uv[0] + mws.uv_offsets()[v][0], mdl.vertices[v].uv[1] + mws.uv_offsets()[v][1]};

  // Materials and textures (obj_materials.hpp: one warning per texture file, names without spaces).
  const fs::path out_path(a.output);
  const fs::path out_dir = out_path.has_parent_path() ? out_path.parent_path() : fs::path(".");
  const fs::path model_dir = fs::path(a.model).has_parent_path() ? fs::path(a.model).parent_path() : fs::path(".");
  const std::string stem = obj_safe_file_name(out_path.stem().string());
  std::vector<fs::path> inputs{fs::path(a.model)};
  for (const auto& m : a.motions) inputs.emplace_back(m);
  ObjMaterialPlan plan =
      plan_obj_materials(mdl, mws.materials(), model_dir, out_dir, a.copy_textures ? stem + "_textures" : std::string());
  if (!a.quiet)
    for (const std::string& w : plan.warnings) err << diagnostic_line(Diagnostic::warning, a.model + ": " + w);
  const std::vector<exporter::ObjMaterial>& mats = plan.materials;
  const auto& copies = plan.copies;
  std::vector<std::array<std::uint32_t, 2>> ranges;
  for (const model::Material& m : mdl.materials) ranges.push_back({m.first_index, m.index_count});

  // The MTL beside the OBJ, named after it with blanks as '_' (mtllib names have no spaces).
  const fs::path mtl_path = out_dir / (stem + ".mtl");
  exporter::ObjOptions oo;
  oo.right_handed = a.right_handed;
  oo.scale = static_cast<float>(a.scale);
  oo.mtl_file = mtl_path.filename().string();
  oo.comment = "model: " + a.model + "\nframe: " + std::to_string(a.frame);
  for (const auto& m : a.motions) oo.comment += "\nmotion: " + m;
  const std::string obj = exporter::write_obj(positions, normals, uvs, mdl.faces, ranges, mats, oo);
  const std::string mtl = exporter::write_mtl(mats);

  // The --force rule (io.hpp) for every output before any is written.
  std::vector<fs::path> outputs{out_path, mtl_path};
  for (const auto& c : copies) outputs.push_back(c.second);
  for (const fs::path& o : outputs)  // copied textures go into folders made when they are written
    if (auto r = check_output(o, inputs, a.force, o != out_path && o != mtl_path); !r) return report_error(err, r.error(), o.string());
  WriteOptions wo{inputs, true};
  if (auto r = write_file_atomic(out_path, std::string_view(obj), wo); !r) return report_error(err, r.error(), a.output);
  if (auto r = write_file_atomic(mtl_path, std::string_view(mtl), wo); !r)
    return report_error(err, r.error(), mtl_path.string());
  for (const auto& [from, to] : copies) {
    auto bytes = read_file(from);
    if (!bytes) return report_error(err, bytes.error(), from.string());
    std::error_code ec;
    fs::create_directories(to.parent_path(), ec);
    if (auto r = write_file_atomic(to, ByteSpan(bytes->data(), bytes->size()), wo); !r)
      return report_error(err, r.error(), to.string());
  }
  std::string text = "wrote " + a.output + " (" + std::to_string(positions.size()) + " vertices, " +
                     std::to_string(mdl.faces.size() / 3) + " triangles, " + std::to_string(mats.size()) +
                     " materials) and " + mtl_path.string();
  if (a.copy_textures)
    text += ", " + std::to_string(copies.size()) + (copies.size() == 1 ? " texture" : " textures") + " copied into " +
            (out_dir / (stem + "_textures")).string();
  summary(err, a.quiet, "pose", text);
  return kExitOk;
}

int cmd_pose(int argc, const char* const* argv, std::ostream& out, std::ostream& err) {
  return run_command("pose", argc, argv, out, err);
}

}  // namespace mmdkit::cli
