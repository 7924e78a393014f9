// mmdkit CLI — `export` (cmd_export.hpp): glTF 2.0 of a model and its animation.
#include "cli/cmd_export.hpp"

// GCC 12 false positive inside CLI11 (see cmd_sample.cpp).
#pragma GCC diagnostic ignored "-Wnull-dereference"

#include <CLI/CLI.hpp>

#include <cmath>
#include <filesystem>
#include <optional>

#include "cli/app.hpp"
#include "cli/io.hpp"
#include "mmdkit/anim/character.hpp"
#include "mmdkit/anim/input_files.hpp"
#include "mmdkit/export/gltf.hpp"
#include "mmdkit/export/gltf_sampling.hpp"
#include "mmdkit/model/model.hpp"

namespace mmdkit::cli {

namespace fs = std::filesystem;

CLI::App* add_export_command(CLI::App& app, ExportArgs& a) {
  CLI::App* s = app.add_subcommand("export", "write a model (and its motions) as glTF 2.0: .glb or .gltf (docs/GLTF.md)");
  s->add_option("MODEL", a.model, "model file (.pmx or .pmd)")->required();
  s->add_option("MOTION", a.motions, "motion files (.vmd, merged); none = the model alone");
  s->add_option("--camera", a.camera, "VMD whose camera keys become an animated glTF camera");
  s->add_option("-o,--output", a.output, "output .glb (binary) or .gltf (text, buffer embedded)")->required();
  s->add_option("--frames", a.frames, "frame range A-B (30 fps frames, inclusive; default 0 to the last key)");
  s->add_option("--fps", a.fps, "samples per second of the animation: 30 or 60 (default 30)");
  s->add_flag("--physics", a.physics, "bake rigid-body physics into the bones");
  s->add_option("--scale", a.scale, "metres per MMD unit (default 0.08)");
  s->add_option("--reduce", a.reduce, "drop animation samples while the error stays within TOL MMD units / degrees");
  s->add_flag("--unlit", a.unlit, "materials use KHR_materials_unlit");
  s->add_flag("--no-ik", a.no_ik, "switch every IK solver off");
  s->add_flag("--force", a.force, "allow the output to replace an existing file, an input included");
  return s;
}

namespace {

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
    err << "mmdkit: the output must be a file ending in .glb or .gltf\n";
    return kExitUsage;
  }
  if (!(a.scale > 0) || !std::isfinite(a.scale)) {
    err << "mmdkit: --scale must be a finite number > 0\n";
    return kExitUsage;
  }
  if (a.fps != 30 && a.fps != 60) {
    err << "mmdkit: --fps must be 30 or 60\n";
    return kExitUsage;
  }
  if (!(a.reduce >= 0) || !std::isfinite(a.reduce)) {
    err << "mmdkit: --reduce must be a finite number >= 0\n";
    return kExitUsage;
  }
  double first = 0, last = -1;
  if (!a.frames.empty() && !parse_range(a.frames, first, last)) {
    err << "mmdkit: --frames must be A-B with 0 <= A <= B (30-fps frames)\n";
    return kExitUsage;
  }
  if (a.physics) {
    err << "mmdkit: --physics is not available yet: it needs the physics layer's stage for the evaluation "
           "pipeline (docs/GLTF.md)\n";
    return kExitUsage;
  }
  const bool animated = !a.motions.empty() || !a.camera.empty();
  if (!animated && (!a.frames.empty() || a.reduce != 0)) {
    err << "mmdkit: --frames and --reduce need a MOTION or --camera\n";
    return kExitUsage;
  }
  // The camera VMD goes first: the pipeline takes the camera of the first motion with camera keys,
  // and a later motion wins where bone keys coincide (camera VMDs have none).
  std::vector<fs::path> motions;
  if (!a.camera.empty()) motions.emplace_back(a.camera);
  for (const std::string& m : a.motions) motions.emplace_back(m);
  auto loaded = anim::load_character(fs::path(a.model), motions, anim::InputOptions{});
  if (!loaded) return report_error(err, loaded.error(), a.model);
  for (const Warning& w : loaded->warnings) err << "mmdkit: warning: " << w.to_string() << "\n";
  const anim::CharacterData& data = *loaded->data;

  std::optional<exporter::GltfAnimation> animation;
  if (animated) {
    anim::Character character(loaded->data);
    if (a.no_ik) character.set_ik(false);
    exporter::GltfSampling smp;
    smp.first_frame = first;
    smp.last_frame = last;
    smp.fps = a.fps;
    smp.camera = !a.camera.empty();
    auto an = exporter::sample_animation(character, smp);
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
  return kExitOk;
}

}  // namespace mmdkit::cli
