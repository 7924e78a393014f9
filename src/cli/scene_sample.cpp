// mmdkit CLI — `sample --scene` (scene_commands.hpp): every character's bones in world space.

// GCC 12 false positive inside CLI11 / libstdc++ strings (see cmd_sample.cpp).
#pragma GCC diagnostic ignored "-Wnull-dereference"

#include <fmt/format.h>

#include <cmath>
#include <filesystem>

#include "cli/app.hpp"
#include "cli/command.hpp"
#include "cli/io.hpp"
#include "cli/progress.hpp"
#include "cli/sample_json.hpp"
#include "cli/scene_commands.hpp"
#include "core/json.hpp"
#include "mmdkit/core/number.hpp"
#include "mmdkit/scene/placement.hpp"
#include "mmdkit/version.hpp"

namespace mmdkit::cli {

namespace fs = std::filesystem;

namespace {

void put_placement(std::string& s, const scene::Placement& p) {
  s += "{\"position\":";
  append_floats(s, p.position.data(), 3);
  s += ",\"rotation\":";
  append_floats(s, p.rotation.data(), 3);
  s += ",\"scale\":" + format_float_json(p.scale) + "}";
}

}  // namespace

int run_scene_sample(const SampleArgs& a, std::ostream& out, std::ostream& err) {
  auto usage = [&](const std::string& m) { return usage_error(err, "sample", m); };
  if (const std::string p = physics_usage_problem(a.physics); !p.empty()) return usage(p);
  if (a.format != "json") return usage("a scene is sampled as JSON only (--format binary is for one model)");
  if (!a.bones.empty()) return usage("--bones is for one model; a scene writes every bone of every model");
  auto desc = scene_description(a.scene, SceneCommandInputs{a.model, a.motions, "", "", "sample", a.quiet, ""}, err);
  if (!desc) return desc.error();
  const std::vector<fs::path> inputs = scene_inputs(*desc, a.scene);
  if (!a.output.empty() && !is_std_stream(a.output))
    if (auto r = check_output(a.output, inputs, a.force); !r) return report_error(err, r.error(), a.output);
  auto sc = load_scene(*desc, false, a.quiet, err, a.scene.scene.empty());
  if (!sc) return sc.error();
  scene::Scene& s = *sc;
  for (std::size_t i = 0; i < s.character_count(); ++i) s.character(i).set_ik(!a.no_ik);
  SceneEvaluator evaluator(s, err, a.quiet);
  if (auto r = evaluator.set_physics(a.physics); !r) return usage(r.error().message);

  std::vector<double> frames;
  if (a.frames.empty()) {
    for (std::uint32_t f = 0; f <= s.last_frame(); ++f) frames.push_back(f);
  } else if (std::string why; !parse_frame_list(a.frames, frames, &why)) {
    return usage("bad --frames '" + a.frames + "': " + why + " (use e.g. 0,15,30 or 0-300:10)");
  }
  if (a.physics.on)
    for (double f : frames)
      if (f != std::floor(f))
        return usage("bad --frames '" + a.frames + "': frame " + format_float_json(static_cast<float>(f)) +
                     " is not whole; with --physics the simulation steps whole 30 fps frames");

  auto sink = OutputSink::open(a.output.empty() ? std::string("-") : a.output, inputs, a.force, out);
  if (!sink) return report_error(err, sink.error(), a.output);
  constexpr std::size_t kFlushBytes = std::size_t{1} << 18;
  std::string o;
  std::uint64_t written = 0;
  auto flush = [&]() -> bool {
    written += o.size();
    auto r = sink->write(o);
    o.clear();
    if (!r) report_error(err, r.error(), a.output);
    return r.has_value();
  };

  // Header: the characters and accessories with their files and placements.
  const scene::SceneDescription& d = s.description();
  o += "{\"lib\":\"mmdkit " MMDKIT_VERSION_STRING "\",\"models\":[";
  for (std::size_t i = 0; i < s.character_count(); ++i) {
    const bool stage = s.has_stage() && i == s.stage_index();
    if (i) o += ',';
    o += fmt::format("\n{{\"index\":{},\"stage\":{},\"model\":", i, stage ? "true" : "false");
    json::append_string(o, (stage ? d.stage->file : d.models[i].file).string());
    o += ",\"motions\":[";
    if (!stage)
      for (std::size_t j = 0; j < d.models[i].motions.size(); ++j) {
        if (j) o += ',';
        json::append_string(o, d.models[i].motions[j].string());
      }
    o += "],\"placement\":";
    put_placement(o, s.character_placement_values(i));
    o += '}';
  }
  o += "],\"accessories\":[";
  for (std::size_t k = 0; k < s.accessory_count(); ++k) {
    const scene::AccessoryEntry& e = d.accessories[k];
    if (k) o += ',';
    o += fmt::format("\n{{\"index\":{},\"file\":", k);
    json::append_string(o, e.file.string());
    o += ",\"model\":" + (e.model ? std::to_string(*e.model) : std::string("null")) + ",\"bone\":";
    if (e.model)
      json::append_string(o, e.bone);
    else
      o += "null";
    o += ",\"placement\":";
    put_placement(o, e.placement);
    if (!e.vac.empty()) {  // read from a .vac: the file named its .x, placement and bone
      o += ",\"vac\":";
      json::append_string(o, e.vac.string());
    }
    if (e.stage) o += ",\"stage\":true";  // the scene's .x stage
    o += '}';
  }
  o += "],\"options\":" + sample_options_json(a) + ",";
  o += "\"coordinates\":\"MMD left-handed, Y up, MMD units; world space (each model's placement applied)\","
       "\"matrixLayout\":\"column-major, translation at [12..14]\",\"frames\":[";

  for (std::size_t fi = 0; fi < frames.size(); ++fi) {
    if (o.size() >= kFlushBytes && !flush()) return kExitBadInput;
    const double f = frames[fi];
    if (auto r = evaluator.evaluate(f); !r) return report_error(err, r.error(), a.scene.scene);
    if (fi) o += ',';
    o += "\n{\"frame\":" + format_float_json(static_cast<float>(f)) + ",\"models\":[";
    for (std::size_t i = 0; i < s.character_count(); ++i) {
      const anim::Character& ch = s.character(i);
      const scene::Placement& pl = s.character_placement_values(i);
      const bool identity = pl.is_identity();
      const Mat4& P = s.character_placement(i);
      const Quat qp = scene::placement_rotation(pl);
      const auto names = ch.data().bone_names();
      const auto mats = ch.pose().model_matrices();
      const auto rots = ch.pose().model_rotations();
      if (i) o += ',';
      o += fmt::format("\n{{\"index\":{},\"bones\":[", i);
      for (std::size_t b = 0; b < names.size(); ++b) {
        const Mat4 m = identity ? mats[b] : scene::multiply(P, mats[b]);
        const Quat q = quat_normalize(identity ? rots[b] : quat_multiply(qp, rots[b]));
        if (b) o += ',';
        append_bone(o, names[b], b, m, q);
      }
      o += ']';
      if (a.morphs) append_morphs(o, ch.data().morph_names(), ch.morph_weights());
      o += '}';
    }
    o += "],\"accessories\":[";
    for (std::size_t k = 0; k < s.accessory_count(); ++k) {
      if (k) o += ',';
      o += fmt::format("{{\"index\":{},\"matrix\":", k);
      append_floats(o, s.accessory_transform(k).data(), 16);
      o += '}';
    }
    o += ']';
    if (a.camera) append_camera(o, s.camera());
    o += '}';
  }
  o += "]}\n";
  if (!flush()) return kExitBadInput;
  if (auto r = sink->commit(); !r) return report_error(err, r.error(), a.output);
  // The summary line of `sample` (and of the scene forms of `pose` and `render`).
  const bool to_stdout = a.output.empty() || is_std_stream(a.output);
  summary(err, a.quiet, "sample",
          "wrote " + (to_stdout ? std::string("the standard output") : a.output) + " (" +
              counted(frames.size(), "frame", "frames") + " x " + counted(s.character_count(), "model", "models") +
              (s.accessory_count() ? ", " + counted(s.accessory_count(), "accessory", "accessories") : std::string()) +
              (a.morphs ? ", morphs" : "") + (a.camera ? ", camera" : "") + ", json, " + std::to_string(written) +
              " bytes)");
  return kExitOk;
}

}  // namespace mmdkit::cli
