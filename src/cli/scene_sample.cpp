// mmdkit CLI — the scene form of `sample` (sample_job.hpp): every character's bones in world space.

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
#include "cli/sample_job.hpp"
#include "cli/scene_input.hpp"
#include "core/json.hpp"
#include "mmdkit/core/number.hpp"
#include "mmdkit/scene/placement.hpp"
#include "mmdkit/version.hpp"
#include "core/try.hpp"

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

namespace {

// A scene: every character's bones in world space (each model's placement applied; with an
// identity placement the numbers of the model alone), the accessories' world matrices, morph
// weights with --morphs, the scene camera with --camera; JSON only. Frames one by one, in order
// (SceneEvaluator: physics, when asked, with all models in one world).
class SceneSampleJob final : public SampleJob {
 public:
  SceneSampleJob(const SampleArgs& a, scene::Scene scene, std::ostream& err)
      : a_(a), s_(std::move(scene)), evaluator_(s_, err, a.quiet) {}
  scene::Scene& scene() noexcept { return s_; }
  SceneEvaluator& evaluator() noexcept { return evaluator_; }

  int prepare(std::span<const double>, std::ostream&) override { return kExitOk; }

  Result<void> evaluate(std::span<const double> frames, std::size_t fi) override {
    return evaluator_.evaluate(frames[fi]);
  }

  // The characters and accessories with their files and placements, the options.
  void append_header(std::string& o, std::size_t) const override {
    const scene::SceneDescription& d = s_.description();
    o += "{\"lib\":\"mmdkit " MMDKIT_VERSION_STRING "\",\"models\":[";
    for (std::size_t i = 0; i < s_.character_count(); ++i) {
      const bool stage = s_.has_stage() && i == s_.stage_index();
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
      put_placement(o, s_.character_placement_values(i));
      o += '}';
    }
    o += "],\"accessories\":[";
    for (std::size_t k = 0; k < s_.accessory_count(); ++k) {
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
    o += "],\"options\":" + sample_options_json(a_) + ",";
    o += "\"coordinates\":\"MMD left-handed, Y up, MMD units; world space (each model's placement applied)\","
         "\"matrixLayout\":\"column-major, translation at [12..14]\",\"frames\":[";
  }

  void append_frame(std::string& o, std::size_t fi, double f) const override {
    if (fi) o += ',';
    o += "\n{\"frame\":" + format_float_json(static_cast<float>(f)) + ",\"models\":[";
    for (std::size_t i = 0; i < s_.character_count(); ++i) {
      const anim::Character& ch = s_.character(i);
      const scene::Placement& pl = s_.character_placement_values(i);
      const bool identity = pl.is_identity();
      const Mat4& P = s_.character_placement(i);
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
      if (a_.morphs) append_morphs(o, ch.data().morph_names(), ch.morph_weights());
      o += '}';
    }
    o += "],\"accessories\":[";
    for (std::size_t k = 0; k < s_.accessory_count(); ++k) {
      if (k) o += ',';
      o += fmt::format("{{\"index\":{},\"matrix\":", k);
      append_floats(o, s_.accessory_transform(k).data(), 16);
      o += '}';
    }
    o += ']';
    if (a_.camera) append_camera(o, s_.camera());
    o += '}';
  }

  std::string written_per_frame() const override {
    return counted(s_.character_count(), "model", "models") +
           (s_.accessory_count() ? ", " + counted(s_.accessory_count(), "accessory", "accessories") : std::string()) +
           (a_.morphs ? ", morphs" : "") + (a_.camera ? ", camera" : "") + ", json";
  }

 private:
  const SampleArgs& a_;
  scene::Scene s_;
  SceneEvaluator evaluator_;
};

}  // namespace

std::expected<std::unique_ptr<SampleJob>, int> sample_scene_job(const SampleArgs& a, std::ostream& err) {
  auto usage = [&](const std::string& m) { return std::unexpected(usage_error(err, "sample", m)); };
  if (const std::string p = physics_usage_problem(a.physics); !p.empty()) return usage(p);
  if (a.format != "json") return usage("a scene is sampled as JSON only (--format binary is for one model)");
  if (!a.bones.empty()) return usage("--bones is for one model; a scene writes every bone of every model");
  MMDKIT_TRY_ASSIGN(auto desc, scene_description(a.scene, SceneCommandInputs{a.model, a.motions, "", "", "sample", a.quiet, ""}, err));
  std::vector<fs::path> inputs = scene_inputs(desc, a.scene);
  if (int rc = check_sample_output(a, inputs, err); rc != kExitOk) return std::unexpected(rc);
  MMDKIT_TRY_ASSIGN(auto sc, load_scene(desc, false, a.quiet, err, a.scene.scene.empty()));
  for (std::size_t i = 0; i < sc.character_count(); ++i) sc.character(i).set_ik(!a.no_ik);
  auto job = std::make_unique<SceneSampleJob>(a, std::move(sc), err);
  if (auto r = job->evaluator().set_physics(a.physics); !r) return usage(r.error().message);
  job->inputs = std::move(inputs);
  job->source = a.scene.scene;
  job->last_frame = job->scene().last_frame();
  job->scene_form = true;
  return job;
}

}  // namespace mmdkit::cli
