// mmdkit CLI — `export` (cmd_export.hpp): glTF 2.0 of a model and its animation.
#include "cli/cmd_export.hpp"

#include <algorithm>
#include <cmath>

#include "cli/physics_option.hpp"

// GCC 12 false positive inside CLI11 (see cmd_sample.cpp).
#pragma GCC diagnostic ignored "-Wnull-dereference"

#include <CLI/CLI.hpp>

#include <cmath>
#include <filesystem>
#include <memory>
#include <optional>

#include "cli/app.hpp"
#include "cli/animation_input.hpp"
#include "cli/io.hpp"
#include "cli/messages.hpp"
#include "cli/progress.hpp"
#include "mmdkit/anim/character.hpp"
#include "mmdkit/anim/input_files.hpp"
#include "mmdkit/export/gltf.hpp"
#include "mmdkit/export/gltf_sampling.hpp"
#include "mmdkit/model/model.hpp"

namespace mmdkit::cli {

namespace fs = std::filesystem;

namespace {

std::string format_number(double v) {
  std::string t = std::to_string(v);
  t.erase(t.find_last_not_of('0') + 1);
  if (!t.empty() && t.back() == '.') t.pop_back();
  return t;
}

// "A-B" (30-fps frames, inclusive; fractions allowed) → [A, B].
bool parse_range(const std::string& text, double& first, double& last) {
  const std::size_t dash = text.find('-', 1);
  if (dash == std::string::npos) return false;
  try {
    std::size_t used = 0;
    first = std::stod(text.substr(0, dash), &used);
    if (used != dash) return false;
    const std::string rest = text.substr(dash + 1);
    last = std::stod(rest, &used);
    if (used != rest.size()) return false;
  } catch (const std::exception&) {
    return false;
  }
  return std::isfinite(first) && std::isfinite(last) && first >= 0 && last >= first;
}

}  // namespace

int run_export(const ExportArgs& a, std::ostream& out, std::ostream& err) {
  const std::string ext = lower_extension(a.output);
  if (is_std_stream(a.output) || (ext != ".glb" && ext != ".gltf")) {
    return usage_error(err, "export", "the output must be a file ending in .glb or .gltf");
  }
  if (!(a.scale > 0) || !std::isfinite(a.scale)) {
    return usage_error(err, "export", "--scale must be a finite number > 0");
  }
  if (a.fps != 30 && a.fps != 60) {
    return usage_error(err, "export", "--fps must be 30 or 60");
  }
  if (!(a.reduce >= 0) || !std::isfinite(a.reduce)) {
    return usage_error(err, "export", "--reduce must be a finite number >= 0");
  }
  double first = 0, last = -1;
  if (!a.frames.empty() && !parse_range(a.frames, first, last)) {
    return usage_error(err, "export", "--frames must be A-B with 0 <= A <= B (30-fps frames)");
  }
  PhysicsArgs physics_args;
  physics_args.on = a.physics;
  physics_args.verbose = a.verbose;
  if (const std::string p = physics_usage_problem(physics_args); !p.empty()) return usage_error(err, "export", p);
  if (a.physics && (a.fps != 30 || first != std::floor(first)))
    return usage_error(err, "export", "--physics exports whole frames at --fps 30 (the simulation steps whole 30 fps frames)");
  const bool animated = !a.motions.empty() || !a.camera.empty();
  if (!animated && (!a.frames.empty() || a.reduce != 0)) {
    return usage_error(err, "export", "--frames and --reduce need a MOTION or --camera");
  }
  // The camera VMD goes first: the pipeline takes the camera of the first motion with camera keys,
  // and a later motion wins where bone keys coincide (camera VMDs have none).
  std::vector<fs::path> motions;
  if (!a.camera.empty()) {
    // A camera file without camera keys would animate nothing (and its bone keys would silently
    // drive the model): refused.
    std::vector<Warning> cw;
    auto cam = anim::read_motion_file(a.camera, {}, cw);
    if (!cam) return report_error(err, cam.error(), a.camera);
    if (!cam->motion)
      return usage_error(err, "export", "--camera needs a VMD motion with camera keys, not a VPD pose: " + a.camera);
    if (cam->motion->camera_keys.empty()) {
      err << "mmdkit: error: " << a.camera << ": --camera: the motion has no camera keys"
          << (cam->motion->bone_keys.empty() && cam->motion->morph_keys.empty()
                  ? ""
                  : " (it has bone or morph keys: give it as a MOTION)")
          << "\n";
      return kExitBadInput;
    }
    motions.emplace_back(a.camera);
  }
  for (const std::string& m : a.motions) motions.emplace_back(m);
  auto loaded = anim::load_character(fs::path(a.model), motions, anim::InputOptions{});
  if (!loaded) return report_error(err, loaded.error(), a.model);
  if (!a.quiet) {
    for (const Warning& w : loaded->warnings) err << "mmdkit: warning: " << w.to_string() << "\n";
    err << model_check_warning(loaded->data->model(), a.model);
    err << binding_warning(loaded->data->report(), std::vector<std::string>(motions.begin(), motions.end()));
  }
  const anim::CharacterData& data = *loaded->data;
  if (!a.quiet && animated && !a.frames.empty()) err << past_last_key_note("--frames", last, data.last_frame());
  // MOTIONs keying nothing of the model (a camera motion): refused as by `sample`, or a warning
  // when --camera exports a camera (animation_input.hpp). Only the MOTIONs are judged: the
  // --camera file is expected to key no bone.
  const AnimationRequest judged{a.model, a.motions, false, a.quiet, "export"};
  if (int rc = refuse_motions_keying_nothing(judged, data, !a.camera.empty(),
                                             "a camera motion: give it as --camera to export its camera",
                                             "its bones are exported at the rest pose", err);
      rc != kExitOk)
    return rc;

  std::optional<exporter::GltfAnimation> animation;
  if (animated) {
    anim::Character character(loaded->data);
    if (a.no_ik) character.set_ik(false);
    // With --physics the simulation starts at the first exported frame and steps once per frame
    // (docs/GLTF.md).
    FrameEvaluator physics(character, physics_args, err, a.quiet, a.model);
    physics.set_first_frame(static_cast<std::uint32_t>(std::min(first, 4294967295.0)));
    exporter::GltfSampling smp;
    smp.first_frame = first;
    smp.last_frame = last;
    smp.fps = a.fps;
    smp.camera = !a.camera.empty();
    smp.evaluate = [&physics](double frame) { return physics.evaluate(frame); };
    std::optional<Progress> progress;
    smp.progress = [&](std::size_t done, std::size_t total) {
      if (!progress) progress.emplace(err, total, progress_mode(err, a.quiet), "mmdkit export", "frames");
      progress->update(done);
    };
    auto an = exporter::sample_animation(character, smp);
    if (progress) progress->clear();
    if (!an) return report_error(err, an.error(), a.model);
    animation = std::move(*an);
    animation->name = fs::path(a.motions.empty() ? a.camera : a.motions.front()).stem().string();
    animation->reduce_tolerance = static_cast<float>(a.reduce);
    animation->reduce_tolerance_degrees = static_cast<float>(a.reduce);
    animation->reduce_tolerance_weight = static_cast<float>(a.reduce / 100);
  }

  exporter::GltfOptions o;
  o.scale = a.scale;
  o.binary = ext == ".glb";
  o.unlit = a.unlit;
  o.texture_folder = fs::path(a.model).has_parent_path() ? fs::path(a.model).parent_path() : fs::path(".");
  auto r = exporter::write_gltf(data.model(), animation ? &*animation : nullptr, o);
  if (!r) return report_error(err, r.error(), a.model);
  if (!a.quiet)
    for (const std::string& w : r->warnings) err << "mmdkit: warning: " << a.model << ": " << w << "\n";
  if (animation && a.reduce > 0) {
    const exporter::GltfReduction& red = r->reduction;
    out << "reduced: " << red.keys_after << " of " << red.keys_before << " keys kept; largest error "
        << red.max_translation << " MMD units, " << red.max_degrees << " degrees, " << red.max_weight
        << " morph weight (each channel in its parent's space)\n";
  }
  std::vector<fs::path> inputs{fs::path(a.model)};
  inputs.insert(inputs.end(), motions.begin(), motions.end());
  if (auto w = write_output(a.output, ByteSpan(r->bytes.data(), r->bytes.size()), inputs, a.force, out); !w)
    return report_error(err, w.error(), a.output);
  const model::Model& mdl = data.model();
  std::string text = "wrote " + a.output + " (" + counted(mdl.vertices.size(), "vertex", "vertices") + ", " +
                     counted(mdl.faces.size() / 3, "triangle", "triangles") + ", " +
                     counted(mdl.materials.size(), "material", "materials") + ", " +
                     counted(mdl.bones.size(), "bone", "bones");
  if (animation)
    text += ", " + std::to_string(animation->sample_count) + (animation->sample_count == 1 ? " sample" : " samples") +
            " at " + format_number(a.fps) + " fps" + (a.camera.empty() ? "" : " with the camera");
  text += ", " + std::to_string(r->bytes.size()) + " bytes)";
  summary(err, a.quiet, "export", text);
  return kExitOk;
}

const Command kExportCommand{
    "export", "write a model (and its motions) as glTF 2.0: .glb or .gltf (docs/GLTF.md)", [](CLI::App& s) -> Runner {
      auto a = std::make_shared<ExportArgs>();
      s.add_option("MODEL", a->model, "model file (.pmx or .pmd)")->required();
      s.add_option("MOTION", a->motions, "motion files (.vmd, merged; or one .vpd pose); none = the model alone");
      s.add_option("--camera", a->camera, "VMD whose camera keys become an animated glTF camera");
      s.add_option("-o,--output", a->output, "output .glb (binary) or .gltf (text, buffer embedded)")->required();
      s.add_option("--frames", a->frames, "frame range A-B (30 fps frames, inclusive; default 0 to the last key)");
      s.add_option("--fps", a->fps, "samples per second of the animation: 30 or 60 (default 30)");
      s.add_flag("--physics", a->physics, "bake rigid-body physics into the bones (simulated from the first exported frame; --fps 30)");
      s.add_flag("-q,--quiet", a->quiet, "do not print warnings, progress or the summary line");
      declare_verbose_flag(s, a->verbose);
      s.add_option("--scale", a->scale, "metres per MMD unit (default 0.08)");
      s.add_option("--reduce", a->reduce,
                   "keep only the keys needed to stay within TOL MMD units, TOL degrees and TOL/100 morph weight");
      s.add_flag("--unlit", a->unlit, "materials use KHR_materials_unlit");
      s.add_flag("--no-ik", a->no_ik, "switch every IK solver off");
      add_force_flag(s, a->force);
      return [a](const Streams& st) { return run_export(*a, st.out, st.err); };
    }};

}  // namespace mmdkit::cli
