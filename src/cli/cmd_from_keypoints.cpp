// mmdkit CLI — `from-keypoints` (cmd_from_keypoints.hpp).
#include "cli/cmd_from_keypoints.hpp"

#include <CLI/CLI.hpp>

#include <memory>
#include <sstream>

#include "cli/app.hpp"
#include "cli/io.hpp"
#include "cli/model_view_input.hpp"
#include "cli/progress.hpp"
#include "mmdkit/anim/input_files.hpp"
#include "mmdkit/formats/vmd.hpp"
#include "mmdkit/motion/keypoints.hpp"

namespace mmdkit::cli {
namespace {

struct Args {
  std::string input, layout, model, output, axes = "x,y,-z", npz_member;
  double scale = 0, fps = 30, min_cutoff = 1.5, beta = 0.3;
  float min_confidence = 0.3f;
  int csv_channels = 3;
  bool smooth = false, no_leg_ik = false, no_reduce = false, force = false, quiet = false;
  double reduce_deg = 0.5, reduce_units = 0.02;
};

int run(const Args& a, const Streams& s) {
  auto layout = motion::parse_keypoint_layout(a.layout);
  if (!layout)
    return usage_error(s.err, "from-keypoints", "--layout '" + a.layout + "' is not h36m17, coco17, mediapipe33 or smpl24");
  motion::KeypointOptions o;
  o.layout = *layout;
  {
    std::stringstream ss(a.axes);
    std::string part;
    std::size_t i = 0;
    while (std::getline(ss, part, ',')) {
      if (i >= 3) break;
      o.axes[i++] = part;
    }
    if (i != 3 || std::count(a.axes.begin(), a.axes.end(), ',') != 2)
      return usage_error(s.err, "from-keypoints", "--axes '" + a.axes + "' is not three entries such as x,y,-z");
    for (const std::string& e : o.axes) {
      std::string_view v = e;
      if (!v.empty() && (v[0] == '-' || v[0] == '+')) v.remove_prefix(1);
      if (v != "x" && v != "y" && v != "z")
        return usage_error(s.err, "from-keypoints", "--axes entry '" + e + "' is not x, y or z with an optional sign");
    }
  }
  if (a.csv_channels != 3 && a.csv_channels != 4)
    return usage_error(s.err, "from-keypoints", "--csv-channels must be 3 or 4");
  o.scale = a.scale;
  o.fps = a.fps;
  o.min_confidence = a.min_confidence;
  if (a.smooth) o.smoothing = motion::OneEuro{a.min_cutoff, a.beta, 1.0};
  o.leg_ik = !a.no_leg_ik;
  o.reduce = !a.no_reduce;
  o.reduce_deg = a.reduce_deg;
  o.reduce_units = a.reduce_units;
  std::vector<std::filesystem::path> inputs{a.input, a.model};
  if (!is_std_stream(a.output))
    if (auto r = check_output(a.output, inputs, a.force); !r) return report_error(s.err, r.error(), a.output);
  if (is_std_stream(a.input) || is_std_stream(a.model))
    return usage_error(s.err, "from-keypoints", "the keypoints and the model are read from files, not the standard input");
  Result<motion::Keypoints> kp = make_error(ErrorCode::invalid_argument, "");
  if (lower_extension(a.input) == ".npz" && !a.npz_member.empty()) {
    auto bytes = read_input(a.input, s.in);
    if (!bytes) return report_error(s.err, bytes.error(), a.input);
    kp = motion::read_keypoints_npz(*bytes, a.npz_member);
  } else {
    kp = motion::read_keypoints_file(a.input, a.csv_channels);
  }
  if (!kp) {
    Error e = kp.error();
    if (lower_extension(a.input) == ".npz" && a.npz_member.empty() && e.message.starts_with("no member named"))
      e.message += "; name the array with --npz-member NAME";
    return report_error(s.err, e, a.input);
  }
  auto read = read_model_view(a.model, a.quiet, s.err);
  if (!read) return read.error();
  const std::shared_ptr<const model::Model>& shared = *read;
  motion::KeypointReport rep;
  auto vmd = motion::keypoints_to_vmd(*kp, shared, o, &rep);
  if (!vmd) {
    const bool usage = vmd.error().code == ErrorCode::invalid_argument &&
                       vmd.error().message.find("axes") != std::string::npos;
    if (usage) return usage_error(s.err, "from-keypoints", vmd.error().message);
    return report_error(s.err, vmd.error(), a.input);
  }
  auto bytes = vmd::write(*vmd);
  if (!bytes) return report_error(s.err, bytes.error(), a.output);
  if (is_terminal_stdout(a.output, s.out))
    return usage_error(s.err, "from-keypoints", "refusing to write binary vmd data to a terminal; redirect it or give a file");
  if (auto r = write_output(a.output, *bytes, inputs, a.force, s.out); !r) return report_error(s.err, r.error(), a.output);
  std::ostringstream what;  // the summary line of every writing command (cli/progress.hpp)
  what << "wrote " << (is_std_stream(a.output) ? std::string("the standard output") : a.output) << " (" << rep.frames
       << " frames, " << rep.bones << " bones solved, scale " << rep.scale << ", " << rep.missing
       << " missing joint positions held, " << rep.contact_frames << " foot contact frames, " << rep.keys << " keys ("
       << rep.keys_dropped << " reduced away), " << bytes->size() << " bytes)";
  summary(s.err, a.quiet, "from-keypoints", what.str());
  return kExitOk;
}

}  // namespace

const Command kFromKeypointsCommand{
    "from-keypoints", "3D pose keypoints (h36m17, coco17, mediapipe33, smpl24; .npy/.npz/.json/.csv) -> VMD on a model",
    [](CLI::App& sub) -> Runner {
      auto a = std::make_shared<Args>();
      sub.add_option("KEYPOINTS", a->input, "(F, J, 3|4) joint positions: .npy, .npz (np.savez), .json or .csv")->required();
      sub.add_option("--layout", a->layout, "joint layout: h36m17, coco17, mediapipe33 or smpl24")->required();
      sub.add_option("--model", a->model, "the model (PMX or PMD) the motion is for")->required();
      sub.add_option("-o,--output", a->output, "output VMD (- = stdout)")->required();
      sub.add_option("--axes", a->axes, "MMD X,Y,Z from input axes with signs (default x,y,-z: input right-handed Y-up)");
      sub.add_option("--scale", a->scale, "input units per MMD unit (0.08 = metres; default: from the leg length)")
          ->check(CLI::PositiveNumber);
      sub.add_option("--fps", a->fps, "input frame rate (resampled to 30)")->check(CLI::PositiveNumber);
      sub.add_option("--min-confidence", a->min_confidence, "with a 4th (confidence) value: below = missing (held)");
      sub.add_option("--csv-channels", a->csv_channels, "CSV: values per joint, 3 (x,y,z) or 4 (x,y,z,confidence)");
      sub.add_option("--npz-member", a->npz_member, "NPZ: the array to read (default keypoints/joints/positions/...)");
      sub.add_flag("--smooth", a->smooth, "One-Euro smoothing of the positions");
      sub.add_option("--min-cutoff", a->min_cutoff, "One-Euro minimum cut-off in Hz (default 1.5)")->check(CLI::PositiveNumber);
      sub.add_option("--beta", a->beta, "One-Euro speed coefficient (default 0.3)")->check(CLI::NonNegativeNumber);
      sub.add_flag("--no-leg-ik", a->no_leg_ik, "no leg IK keys (IK switched off by a property key)");
      sub.add_flag("--no-reduce", a->no_reduce, "keep a key on every frame");
      sub.add_option("--reduce-deg", a->reduce_deg, "key reduction tolerance in degrees (default 0.5)")->check(CLI::NonNegativeNumber);
      sub.add_option("--reduce-units", a->reduce_units, "key reduction tolerance in MMD units (default 0.02)")
          ->check(CLI::NonNegativeNumber);
      add_force_flag(sub, a->force);
      sub.add_flag("-q,--quiet", a->quiet, "do not print warnings or the summary line");
      return [a](const Streams& s) { return run(*a, s); };
    }};

}  // namespace mmdkit::cli
