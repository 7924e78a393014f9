// mmdkit CLI — `bake` (cmd_bake.hpp).
#include "cli/physics/cmd_bake.hpp"

#include <CLI/CLI.hpp>

#include <charconv>
#include <cstdint>
#include <filesystem>
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "cli/animation_input.hpp"
#include "cli/app.hpp"
#include "cli/io.hpp"
#include "cli/messages.hpp"
#include "cli/physics_option.hpp"
#include "cli/progress.hpp"
#include "mmdkit/anim/character.hpp"
#include "mmdkit/core/printable.hpp"
#include "mmdkit/anim/input_files.hpp"
#include "mmdkit/formats/vmd.hpp"
#include "mmdkit/formats/vmd_json.hpp"
#include "mmdkit/model/model.hpp"
#include "mmdkit/physics/bake.hpp"

namespace mmdkit::cli {

namespace {

namespace fs = std::filesystem;

struct BakeValues {
  std::string model;
  std::vector<std::string> motions;
  std::string output;
  std::string frames;  ///< "A-B"; empty = the whole motion
  std::uint32_t fps = 60;
  bool floor = false;
  bool force = false;
  bool quiet = false;  ///< no warnings, progress or summary line
  bool verbose = false;  ///< every physics warning on its own line
};

bool parse_range(const std::string& text, std::uint32_t& a, std::uint32_t& b) {
  const std::size_t dash = text.find('-');
  if (dash == std::string::npos) return false;
  auto num = [](std::string_view s, std::uint32_t& v) {
    auto r = std::from_chars(s.data(), s.data() + s.size(), v);
    return !s.empty() && r.ec == std::errc{} && r.ptr == s.data() + s.size();
  };
  return num(std::string_view(text).substr(0, dash), a) && num(std::string_view(text).substr(dash + 1), b) && a <= b;
}

int run_bake(const BakeValues& a, const Streams& s) {
  std::ostream& err = s.err;
  if (a.fps != 60 && a.fps != 120 && a.fps != 240)
    return usage_error(err, "bake", "--physics-fps must be 60, 120 or 240, not " + std::to_string(a.fps));
  physics::BakeOptions options;
  options.settings.steps_per_second = a.fps;
  options.settings.floor = a.floor;
  if (!a.frames.empty()) {
    std::uint32_t first = 0, last = 0;
    if (!parse_range(a.frames, first, last))
      return usage_error(err, "bake", "bad --frames '" + a.frames + "' (use A-B with A <= B, whole frames)");
    options.first = first;
    options.last = last;
  }
  if (std::string p = output_extension_problem(a.output, kVmdOutput); !p.empty()) return usage_error(err, "bake", p);
  // Inputs are told apart by content, as by sample / pose / export (anim/input_files.hpp: binary
  // or mmdkit's JSON, whatever the file is called); files only.
  std::vector<fs::path> inputs{fs::path(a.model)};
  if (is_std_stream(a.model)) return usage_error(err, "bake", "reads files only, not the standard input ('-'): give the model and motions as files");
  for (const auto& m : a.motions) {
    if (is_std_stream(m)) return usage_error(err, "bake", "reads files only, not the standard input ('-'): give the model and motions as files");
    inputs.emplace_back(m);
  }
  if (auto r = check_output(a.output, inputs, a.force); !r) return report_error(err, r.error(), a.output);
  const anim::InputOptions read_options{.encoding = {}, .geometry = false};
  std::vector<Warning> read_warnings;
  auto loaded_model = anim::read_model_file(a.model, read_options, read_warnings);
  if (!loaded_model) return report_error(err, loaded_model.error(), a.model);
  const auto mdl = std::make_shared<const model::Model>(std::move(*loaded_model));
  if (!a.quiet) {
    print_warnings(err, read_warnings);
    err << model_check_warning(*mdl, a.model);
  }
  std::vector<vmd::Motion> motions;
  for (const auto& path : a.motions) {
    read_warnings.clear();
    auto r = anim::read_motion_file(path, read_options, read_warnings);
    if (!r) return report_error(err, r.error(), path);
    if (!r->motion) {
      err << diagnostic_line(Diagnostic::error, path + ": a VPD pose, not a VMD motion: bake simulates a motion (a pose "
                                                       "can be made a one-key motion with 'mmdkit motion vpd')");
      return kExitBadInput;
    }
    if (!a.quiet) print_warnings(err, read_warnings);
    motions.push_back(std::move(*r->motion));
  }
  std::vector<const vmd::Motion*> list;
  for (const auto& m : motions) list.push_back(&m);
  // Tracks naming no bone / morph of the model: the warning of sample / pose / export, from the
  // one binding report (anim::CharacterData; the PMD base morph rule included).
  // Motions keying nothing of the model (a camera motion): refused as by `sample` (every frame
  // would be the rest pose; animation_input.hpp). The bake runs on this character.
  auto bound = anim::CharacterData::create(mdl, anim::MotionInputs{list});
  if (!bound) return report_error(err, bound.error(), a.model);
  if (!a.quiet) err << binding_warning((*bound)->report(), a.motions);
  if (!a.quiet && options.last) err << past_last_key_note("--frames", *options.last, (*bound)->last_frame());
  const AnimationRequest judged{a.model, a.motions, false, a.quiet, "bake"};
  if (int rc = refuse_motions_keying_nothing(judged, **bound, false,
                                             "a camera motion: bake simulates the model under its bone motion", "",
                                             err);
      rc != kExitOk)
    return rc;
  // Progress by cli/progress.hpp's rule (a bar on a terminal after 2 s, else a line every 5 s).
  std::optional<Progress> bar;
  options.progress_every = 10;
  const physics::BakeProgress progress = [&](std::uint32_t done, std::uint32_t total) {
    if (!bar) bar.emplace(err, total, progress_mode(err, a.quiet), "mmdkit bake", "frames");
    bar->update(done);
  };
  auto baked = physics::bake(*bound, list, options, progress);
  if (bar) bar->clear();
  if (!baked) return report_error(err, baked.error(), a.model);
  if (!a.quiet) {
    std::vector<PhysicsNote> notes;
    for (const auto& w : baked->warnings) notes.push_back({a.model, w.section, w.record, w.name, w.message});
    err << physics_warning_lines(notes, a.verbose);
  }
  if (!baked->unkeyable.empty() && !a.quiet) {
    err << "mmdkit: warning: " << baked->unkeyable.size()
        << " physics bone(s) cannot be keyed in VMD (names longer than 15 bytes in CP932), not baked:";
    for (const auto& n : baked->unkeyable) err << " '" << printable(n) << "'";
    err << "\n";
  }
  Result<std::vector<std::uint8_t>> bytes = std::vector<std::uint8_t>{};
  if (lower_extension(a.output) == ".json") {  // the motion's mmdkit JSON
    const std::string text = vmd::to_json(baked->motion);
    bytes->assign(text.begin(), text.end());
  } else {
    bytes = vmd::write(baked->motion);
  }
  if (!bytes) return report_error(err, bytes.error(), a.output);
  if (auto r = write_output(a.output, *bytes, inputs, a.force, s.out); !r) return report_error(err, r.error(), a.output);
  summary(err, a.quiet, "bake",
          "wrote " + a.output + " (" + std::to_string(baked->baked_bones) + " bone(s) baked, " +
              std::to_string(baked->motion.bone_keys.size()) + " bone keys" +
              (baked->switched_ik ? ", " + std::to_string(baked->switched_ik) + " IK solver(s) switched off over the range"
                                  : std::string()) +
              ", " + std::to_string(bytes->size()) + " bytes)");
  return kExitOk;
}

}  // namespace

const Command kBakeCommand{
    "bake", "simulate physics and write it into a VMD: a physics-off key on every frame for every physics bone",
    [](CLI::App& sub) -> Runner {
      auto v = std::make_shared<BakeValues>();
      sub.add_option("MODEL", v->model, "model file (PMX or PMD, binary or mmdkit JSON)")->required();
      sub.add_option("MOTION", v->motions, "motion files (VMD, binary or mmdkit JSON), merged")->required();
      sub.add_option("-o,--output", v->output, "output .vmd file (.json: its mmdkit JSON; '-' = stdout)")->required();
      sub.add_option("--frames", v->frames, "frames to key, A-B (default: the whole motion); earlier frames are simulated too");
      sub.add_option("--physics-fps", v->fps, "physics steps per second: 60 (default), 120 or 240");
      sub.add_flag("--floor", v->floor, "a floor plane at y = 0");
      add_force_flag(sub, v->force);
      sub.add_flag("-q,--quiet", v->quiet,
                   "do not print warnings (reader warnings, motion tracks that match nothing), progress or the summary line");
      declare_verbose_flag(sub, v->verbose);
      return [v](const Streams& s) { return run_bake(*v, s); };
    }};

}  // namespace mmdkit::cli
