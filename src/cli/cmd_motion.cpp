// mmdkit CLI — `motion OP ...` (cmd_motion.hpp): option parsing, reading, writing and reports;
// the operations are the library's (include/mmdkit/motion/).
#include "cli/cmd_motion.hpp"

// GCC 12 false positive inside CLI11 (see cmd_sample.cpp).
#pragma GCC diagnostic ignored "-Wnull-dereference"

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "cli/app.hpp"
#include "cli/cmd_motion_lipsync.hpp"
#include "cli/io.hpp"
#include "cli/messages.hpp"
#include "cli/progress.hpp"
#include "mmdkit/anim/input_files.hpp"
#include "mmdkit/formats/vmd.hpp"
#include "mmdkit/formats/vmd_json.hpp"
#include "mmdkit/formats/vpd.hpp"
#include "mmdkit/formats/vpd_json.hpp"
#include "mmdkit/model/model.hpp"
#include "mmdkit/motion/filter.hpp"
#include "mmdkit/motion/fit.hpp"
#include "mmdkit/motion/merge.hpp"
#include "mmdkit/motion/mirror.hpp"
#include "mmdkit/motion/vpd_pose.hpp"
#include "mmdkit/motion/reduce.hpp"
#include "mmdkit/motion/rename.hpp"
#include "mmdkit/motion/resample.hpp"
#include "mmdkit/motion/shift.hpp"
#include "mmdkit/motion/trim.hpp"
#include "core/try.hpp"

namespace mmdkit::cli {

namespace fs = std::filesystem;

namespace {

// The operations, in the order `motion --help` lists them; kOpNames holds their subcommand names.
enum class Op { trim, shift, merge, mirror, resample, reduce, rename, filter, vpd, fit, lipsync };
constexpr std::size_t kOpCount = 11;
constexpr const char* kOpNames[kOpCount] = {"trim",   "shift", "merge", "mirror", "resample", "reduce",
                                            "rename", "filter", "vpd",  "fit",    "lipsync"};
constexpr std::size_t index(Op op) { return static_cast<std::size_t>(op); }

struct MotionArgs {
  std::vector<std::string> inputs;  // the operation's inputs (merge: two)
  std::string output;
  bool force = false, quiet = false;
  bool morph_names = false;  // mirror
  // trim
  std::string frames;
  bool exact = false;
  // shift
  std::int64_t by = 0;
  bool clamp = false;
  // resample
  double fps = 30;
  std::uint32_t every = 1;
  // reduce
  motion::ReduceOptions tol;
  // rename
  std::string map;
  bool merge = false;
  // filter
  std::vector<std::string> bones, morphs, drop_bones, drop_morphs;
  bool no_camera = false, no_light = false, no_self_shadow = false, no_property = false;
  // vpd
  std::string model;
  double frame = 0;
  // fit
  std::string from, to;
  bool no_legs = false, no_arms = false;
  // lipsync (also model, map, fps)
  LipsyncArgs lips;
  CLI::App* ops[kOpCount] = {};
};

CLI::App* add_op(CLI::App& sub, MotionArgs& a, Op op, const char* summary, const char* input_help) {
  CLI::App* s = sub.add_subcommand(kOpNames[index(op)], summary);
  a.ops[index(op)] = s;
  s->add_option("INPUT", a.inputs, input_help)->required()->expected(op == Op::merge ? 2 : 1);
  s->add_option("-o,--output", a.output, "output file: .vmd (vpd of a motion: .vpd), or .json for its mmdkit JSON ('-' = stdout)")->required();
  add_force_flag(*s, a.force);
  s->add_flag("-q,--quiet", a.quiet, "do not print warnings or the summary line (errors only)");
  return s;
}

void declare(CLI::App& sub, MotionArgs& a) {
  sub.require_subcommand(1);
  const char* vmd_in = "input motion (VMD or its mmdkit JSON)";
  CLI::App* s = add_op(sub, a, Op::trim, "keep frames A..B: keys outside dropped, the values at A and B keyed", vmd_in);
  s->add_option("--frames", a.frames, "range A-B of frames to keep (30 fps, whole frames, A <= B)")->required();
  s->add_flag("--exact", a.exact, "also key every whole frame of the segments a cut falls in (exact on whole frames)");
  s = add_op(sub, a, Op::shift, "move every key by N frames", vmd_in);
  s->add_option("--by", a.by, "frames to add (negative: earlier)")->required();
  s->add_flag("--clamp", a.clamp, "a negative shift drops what falls before frame 0 and keys frame 0 (default: refuse)");
  add_op(sub, a, Op::merge, "merge two motions per track (B's keys win at equal frames)", "motions A and B");
  s = add_op(sub, a, Op::mirror, "mirror left <-> right (names, translations, rotations, camera, light; a VPD pose as a pose)",
             "input motion or pose (VMD, VPD or their mmdkit JSON); a pose gives a .vpd (or .json)");
  s->add_flag("--morph-names", a.morph_names, "swap morph names too (winks as pairs; default: morph names kept)");
  s = add_op(sub, a, Op::resample, "bake keys every N frames, re-timing from another frame rate", vmd_in);
  s->add_option("--fps", a.fps, "rate the input's frame numbers count at (default 30, MMD's)");
  s->add_option("--every", a.every, "key spacing in output frames (default 1: every frame)");
  s = add_op(sub, a, Op::reduce, "fewer keys with fitted curves, within tolerances on every whole frame", vmd_in);
  s->add_option("--tol-units", a.tol.tol_units, "bone translation tolerance, MMD units (default 0.01)");
  s->add_option("--tol-deg", a.tol.tol_deg, "bone rotation tolerance, degrees (default 0.1)");
  s->add_option("--tol-weight", a.tol.tol_weight, "morph weight tolerance (default 0.005)");
  s = add_op(sub, a, Op::rename, "rename bones, morphs and IK switches through a map (OLD<TAB>NEW lines)", vmd_in);
  s->add_option("--map", a.map, "map file: UTF-8, one OLD<TAB>NEW per line, '#' comments")->required();
  s->add_flag("--merge", a.merge,
              "a NEW that is another track's name merges the two tracks: at a frame both key, the key later in the file wins, as in MMD (default: refused; a swap A<->B is fine)");
  s = add_op(sub, a, Op::filter, "keep or drop bone / morph tracks and sections", vmd_in);
  s->add_option("--bones", a.bones, "keep only these bone tracks (comma-separated)")->delimiter(',');
  s->add_option("--morphs", a.morphs, "keep only these morph tracks (comma-separated)")->delimiter(',');
  s->add_option("--drop-bones", a.drop_bones, "drop these bone tracks")->delimiter(',');
  s->add_option("--drop-morphs", a.drop_morphs, "drop these morph tracks")->delimiter(',');
  s->add_flag("--no-camera", a.no_camera, "drop the camera keys");
  s->add_flag("--no-light", a.no_light, "drop the light keys");
  s->add_flag("--no-self-shadow", a.no_self_shadow, "drop the self-shadow keys");
  s->add_flag("--no-property", a.no_property, "drop the property (visibility / IK) keys");
  s = add_op(sub, a, Op::vpd, "a frame of a motion -> VPD pose (needs --model); a VPD pose -> one-key VMD",
             "input motion (VMD) or pose (VPD), or its JSON");
  s->add_option("--model", a.model, "model (PMX/PMD) to evaluate a motion on (VMD input)");
  s->add_option("--frame", a.frame, "VMD input: frame to take (30 fps, fractional allowed); VPD input: frame of the keys (whole)");
  s = add_op(sub, a, Op::fit, "fit a motion to another model's proportions (vmd_sizing's leg ratio and arm stance)", vmd_in);
  s->add_option("--from", a.from, "model the motion was made for (PMX/PMD)")->required();
  s->add_option("--to", a.to, "model to fit it to (PMX/PMD)")->required();
  s->add_flag("--no-legs", a.no_legs, "do not scale the centre / leg IK translations");
  s->add_flag("--no-arms", a.no_arms, "do not correct the arm rest angles");
  s = add_op(sub, a, Op::lipsync, "key a model's mouth morphs (あ い う え お) from a voice recording or a score (.ust, .vsqx, .lab)",
             "voice recording (any audio FFmpeg reads; the separated vocals) or score (.ust, .vsqx, .vsq3, .lab)");
  s->add_option("--model", a.model, "model (PMX/PMD) whose vowel morphs are keyed")->required();
  s->add_option("--map", a.map, "shape map: UTF-8 lines SHAPE<TAB>MORPH (SHAPE: a i u e o closed); default: the standard names");
  s->add_option("--fps", a.fps, "frames per second of the keys (default 30, MMD's)");
  declare_lipsync(*s, a.lips);
}

Result<anim::MotionFile> read_motion_input(const std::string& path, const Streams& s, bool quiet) {
  MMDKIT_TRY_ASSIGN(auto bytes, read_input(path, s.in));
  std::vector<Warning> warnings;
  MMDKIT_TRY_ASSIGN(auto m, anim::read_motion(ByteSpan(bytes.data(), bytes.size()), {}, warnings));
  if (!quiet)
    for (const Warning& w : warnings) s.err << "mmdkit: warning: " << input_label(path) << ": " << w.to_string() << "\n";
  return m;
}

int fail(const Streams& s, const Error& e, const std::string& file) { return report_error(s.err, e, file); }

std::vector<fs::path> input_paths(const MotionArgs& a) {
  std::vector<fs::path> p;
  for (const auto& i : a.inputs) p.emplace_back(i);
  for (const std::string* x : {&a.map, &a.model, &a.from, &a.to})
    if (!x->empty()) p.emplace_back(*x);
  return p;
}

// Writes `m` to the output (its mmdkit JSON for a .json output, else VMD); `written` = its byte count.
int write_vmd(const MotionArgs& a, const Streams& s, const vmd::Motion& m, std::size_t& written) {
  Result<std::vector<std::uint8_t>> bytes = std::vector<std::uint8_t>{};
  if (lower_extension(a.output) == ".json") {
    const std::string text = vmd::to_json(m);
    bytes->assign(text.begin(), text.end());
  } else {
    bytes = vmd::write(m);
  }
  if (!bytes) return fail(s, bytes.error(), a.output);
  if (auto r = write_output(a.output, ByteSpan(bytes->data(), bytes->size()), input_paths(a), a.force, s.out); !r)
    return fail(s, r.error(), a.output);
  written = bytes->size();
  return kExitOk;
}

// The pose as a VPD, or its mmdkit JSON for a .json output (as write_vmd).
int write_vpd(const MotionArgs& a, const Streams& s, const vpd::Pose& pose, std::size_t& written) {
  Result<std::vector<std::uint8_t>> bytes = std::vector<std::uint8_t>{};
  if (lower_extension(a.output) == ".json") {
    const std::string text = vpd::to_json(pose);
    bytes->assign(text.begin(), text.end());
  } else {
    bytes = vpd::write(pose);
  }
  if (!bytes) return fail(s, bytes.error(), a.output);
  if (auto r = write_output(a.output, ByteSpan(bytes->data(), bytes->size()), input_paths(a), a.force, s.out); !r)
    return fail(s, r.error(), a.output);
  written = bytes->size();
  return kExitOk;
}

std::size_t keys(const vmd::Motion& m) {
  return m.bone_keys.size() + m.morph_keys.size() + m.camera_keys.size() + m.light_keys.size() +
         m.self_shadow_keys.size() + m.property_keys.size();
}

// The last frame any key of m is on (none for an empty motion).
std::optional<std::int64_t> last_key_frame(const vmd::Motion& m) {
  std::optional<std::int64_t> last;
  auto see = [&](const auto& keys) {
    for (const auto& k : keys) last = std::max<std::int64_t>(last.value_or(0), k.frame);
  };
  see(m.bone_keys);
  see(m.morph_keys);
  see(m.camera_keys);
  see(m.light_keys);
  see(m.self_shadow_keys);
  see(m.property_keys);
  return last;
}

std::optional<std::array<std::uint32_t, 2>> parse_range(const std::string& t) {
  const std::size_t dash = t.find('-');
  if (dash == std::string::npos) return std::nullopt;
  std::uint32_t a = 0, b = 0;
  const char* p = t.data();
  auto r1 = std::from_chars(p, p + dash, a);
  auto r2 = std::from_chars(p + dash + 1, p + t.size(), b);
  if (r1.ec != std::errc{} || r1.ptr != p + dash || r2.ec != std::errc{} || r2.ptr != p + t.size() || dash == 0)
    return std::nullopt;
  return std::array<std::uint32_t, 2>{a, b};
}

Result<model::Model> load_model(const std::string& path, const Streams& s) {
  MMDKIT_TRY_ASSIGN(auto bytes, read_input(path, s.in));
  std::vector<Warning> warnings;
  anim::InputOptions io;
  io.geometry = false;
  return anim::read_model(ByteSpan(bytes.data(), bytes.size()), io, warnings);
}

// What an operation writes and says: its summary line ("mmdkit motion OP: wrote OUT (what, B
// bytes)" on stderr, cli/progress.hpp, silenced by --quiet) once the output is written.
struct OpContext {
  const MotionArgs& a;
  const Streams& s;
  std::string name;  // "motion OP"
  std::size_t written = 0;
  void say(const std::string& what) const {
    summary(s.err, a.quiet, name,
            "wrote " + (is_std_stream(a.output) ? std::string("the standard output") : a.output) + " (" + what + ", " +
                std::to_string(written) + " bytes)");
  }
};

// An edit's result: the motion, what it did (reported once the output is written, not when the
// write is refused) and a note printed after the write.
struct Edit {
  Result<vmd::Motion> out = make_error(ErrorCode::invalid_argument, "no operation");
  std::vector<std::string> report;
  std::string note;
};

// vpd, either direction: a VPD pose -> a one-key VMD, a frame of a motion on a model -> a VPD pose.
int run_vpd(OpContext& c) {
  const MotionArgs& a = c.a;
  const Streams& s = c.s;
  auto in = read_motion_input(a.inputs[0], s, a.quiet);
  if (!in) return fail(s, in.error(), input_label(a.inputs[0]));
  if (std::string p = output_extension_problem(a.output, in->pose ? kVmdOutput : kVpdOutput); !p.empty())
    return usage_error(s.err, c.name, p);
  if (in->pose) {
    if (!a.model.empty()) return usage_error(s.err, c.name, "--model is for a VMD input (a frame of a motion); the input is a VPD pose");
    if (!(a.frame >= 0 && a.frame <= 4294967295.0 && std::floor(a.frame) == a.frame))
      return usage_error(s.err, c.name, "--frame must be a whole frame number for a VPD input");
    auto m = motion::motion_from_pose(*in->pose, static_cast<std::uint32_t>(a.frame));
    if (!m) return fail(s, m.error(), input_label(a.inputs[0]));
    if (int code = write_vmd(a, s, *m, c.written); code) return code;
    c.say(fmt::format("VPD -> VMD: {} bone keys, {} morph keys on frame {}", m->bone_keys.size(), m->morph_keys.size(), a.frame));
    return kExitOk;
  }
  if (a.model.empty()) return usage_error(s.err, c.name, "--model is required to take a pose from a motion (VMD input)");
  if (!(std::isfinite(a.frame) && a.frame >= 0)) return usage_error(s.err, c.name, "--frame must be a finite number >= 0");
  auto mdl = load_model(a.model, s);
  if (!mdl) return fail(s, mdl.error(), a.model);
  motion::PoseFromMotionOptions po;
  po.frame = a.frame;
  po.model_file = fs::path(a.model).filename().string();
  auto pose = motion::pose_from_motion(std::make_shared<const model::Model>(std::move(*mdl)), *in->motion, po);
  if (!pose) return fail(s, pose.error(), a.inputs[0]);
  if (int code = write_vpd(a, s, *pose, c.written); code) return code;
  c.say(fmt::format("VMD -> VPD: {} bones, {} morphs at frame {}", pose->bones.size(), pose->morphs.size(), a.frame));
  return kExitOk;
}

// mirror of a VPD pose, as a pose (VPD in, VPD or its JSON out). `done` = false for a VMD input,
// which is mirrored as every other edit.
int run_mirror_pose(OpContext& c, bool& done) {
  const MotionArgs& a = c.a;
  const Streams& s = c.s;
  done = true;
  auto in = read_motion_input(a.inputs[0], s, a.quiet);
  if (!in) return fail(s, in.error(), input_label(a.inputs[0]));
  if (std::string p = output_extension_problem(a.output, in->pose ? kVpdOutput : kVmdOutput); !p.empty())
    return usage_error(s.err, c.name, p);
  if (!in->pose) {
    done = false;
    return kExitOk;
  }
  auto pose = motion::mirror(*in->pose, {a.morph_names});
  if (!pose) return fail(s, pose.error(), input_label(a.inputs[0]));
  if (int code = write_vpd(a, s, *pose, c.written); code) return code;
  c.say(fmt::format("pose: {} bones, {} morphs", pose->bones.size(), pose->morphs.size()));
  return kExitOk;
}

// The edits of VMD motions (`in`: the inputs, read). Each fills `e`, or returns a non-zero exit
// code (a usage problem, a map that does not read) before anything is written.
int edit_trim(const OpContext& c, const std::vector<vmd::Motion>& in, Edit& e) {
  const MotionArgs& a = c.a;
  const auto range = parse_range(a.frames);
  if (!range) return usage_error(c.s.err, c.name, "--frames must be A-B with whole frames A <= B (e.g. 100-250), not '" + a.frames + "'");
  if ((*range)[0] > (*range)[1]) return usage_error(c.s.err, c.name, "--frames " + a.frames + ": the first frame is after the last");
  // A range after the last key holds its pose (nothing moves): usually a typo or the wrong
  // motion, so say so once (as `sample --frames` does).
  if (const auto last = last_key_frame(in[0]); !a.quiet && last && static_cast<std::int64_t>((*range)[0]) > *last)
    e.note = fmt::format("--frames {} starts after the motion's last key (frame {}): the result holds the pose "
                         "of frame {}",
                         a.frames, *last, *last);
  motion::TrimReport r;
  e.out = motion::trim(in[0], {(*range)[0], (*range)[1], a.exact}, &r);
  if (e.out)
    // The split curves' quantisation error is a weight between whole frames (with --exact more
    // curves are split, so it may grow while every whole frame is exact: the "whole frames" figures).
    e.report.push_back(fmt::format("frames {}: keys {} -> {}; {} curves split, quantised within {:.3g} (weight, between whole frames); max change inside: "
                                   "{:.3g} units, {:.3g} deg (whole frames: {:.3g} units, {:.3g} deg); view angle rounding {:.3g} deg",
                                   a.frames, r.keys_in, r.keys_out, r.split_curves, r.max_curve_error, r.max_translation_error,
                                   r.max_rotation_error_deg, r.max_translation_error_whole, r.max_rotation_error_deg_whole,
                                   r.max_view_angle_error_deg));
  return kExitOk;
}

int edit_shift(const OpContext& c, const std::vector<vmd::Motion>& in, Edit& e) {
  e.out = motion::shift(in[0], {c.a.by, c.a.clamp});
  if (e.out) e.report.push_back(fmt::format("by {}: {} keys", c.a.by, keys(*e.out)));
  return kExitOk;
}

int edit_merge(const OpContext&, const std::vector<vmd::Motion>& in, Edit& e) {
  motion::MergeReport r;
  e.out = motion::merge(in[0], in[1], &r);
  if (e.out)
    e.report.push_back(fmt::format("{} keys; {} of A replaced by B at equal frames; {} bone and {} morph tracks only in B",
                                   keys(*e.out), r.replaced, r.new_bone_tracks, r.new_morph_tracks));
  return kExitOk;
}

int edit_mirror(const OpContext& c, const std::vector<vmd::Motion>& in, Edit& e) {
  e.out = motion::mirror(in[0], {c.a.morph_names});
  if (e.out) e.report.push_back(fmt::format("{} keys", keys(*e.out)));
  return kExitOk;
}

int edit_resample(const OpContext& c, const std::vector<vmd::Motion>& in, Edit& e) {
  const MotionArgs& a = c.a;
  if (!(std::isfinite(a.fps) && a.fps > 0)) return usage_error(c.s.err, c.name, "--fps must be a number > 0");
  if (a.every == 0) return usage_error(c.s.err, c.name, "--every must be at least 1");
  e.out = motion::resample(in[0], {a.fps, a.every});
  if (e.out)
    e.report.push_back(fmt::format("input at {} fps, a key every {} frames at 30 fps: keys {} -> {}", a.fps, a.every,
                                   keys(in[0]), keys(*e.out)));
  return kExitOk;
}

int edit_reduce(const OpContext& c, const std::vector<vmd::Motion>& in, Edit& e) {
  const MotionArgs& a = c.a;
  for (double t : {a.tol.tol_units, a.tol.tol_deg, a.tol.tol_weight})
    if (!(std::isfinite(t) && t >= 0)) return usage_error(c.s.err, c.name, "tolerances must be numbers >= 0");
  motion::ReduceReport r;
  e.out = motion::reduce(in[0], a.tol, &r);
  if (e.out)
    e.report.push_back(fmt::format("bone keys {} -> {}, morph keys {} -> {}; max error on every whole frame: {:.4g} units "
                                   "(tol {}), {:.4g} deg (tol {}), {:.4g} weight (tol {})",
                                   r.bone_keys_in, r.bone_keys_out, r.morph_keys_in, r.morph_keys_out, r.max_translation_error,
                                   a.tol.tol_units, r.max_rotation_error_deg, a.tol.tol_deg, r.max_weight_error, a.tol.tol_weight));
  return kExitOk;
}

int edit_rename(const OpContext& c, const std::vector<vmd::Motion>& in, Edit& e) {
  const MotionArgs& a = c.a;
  const Streams& s = c.s;
  auto text = read_input(a.map, s.in);
  if (!text) return fail(s, text.error(), a.map);
  auto map = motion::parse_name_map(std::string_view(reinterpret_cast<const char*>(text->data()), text->size()));
  if (!map) return fail(s, map.error(), a.map);
  motion::RenameReport r;
  e.out = motion::rename(in[0], *map, &r, {a.merge});
  if (!e.out) return fail(s, e.out.error(), a.map);
  e.report.push_back(fmt::format("{} bone, {} morph and {} IK names renamed", r.bone_names, r.morph_names, r.ik_names));
  if (!r.merged.empty()) e.report.push_back(fmt::format("{} merged (--merge)", r.merged.size()));
  if (!a.quiet)
    for (const auto& m : r.merged) s.err << "mmdkit: note: " << a.map << ": " << m << "\n";
  if (!a.quiet)
    for (const auto& u : r.unused) s.err << "mmdkit: warning: " << a.map << ": '" << u << "' matches no name of the motion\n";
  return kExitOk;
}

int edit_filter(const OpContext& c, const std::vector<vmd::Motion>& in, Edit& e) {
  const MotionArgs& a = c.a;
  CLI::App* const sub = a.ops[index(Op::filter)];
  motion::FilterOptions fo;
  if (sub->get_option("--bones")->count() > 0) fo.bones = a.bones;
  if (sub->get_option("--morphs")->count() > 0) fo.morphs = a.morphs;
  fo.drop_bones = a.drop_bones;
  fo.drop_morphs = a.drop_morphs;
  fo.camera = !a.no_camera;
  fo.light = !a.no_light;
  fo.self_shadow = !a.no_self_shadow;
  fo.property = !a.no_property;
  motion::FilterReport r;
  e.out = motion::filter(in[0], fo, &r);
  if (e.out) {
    e.report.push_back(fmt::format("{} bone and {} morph tracks kept, {} keys dropped", r.bone_tracks, r.morph_tracks, r.keys_dropped));
    if (!a.quiet)
      for (const auto& u : r.unmatched) c.s.err << "mmdkit: warning: '" << u << "' is not a track of the motion\n";
  }
  return kExitOk;
}

int edit_fit(const OpContext& c, const std::vector<vmd::Motion>& in, Edit& e) {
  const MotionArgs& a = c.a;
  auto from = load_model(a.from, c.s);
  if (!from) return fail(c.s, from.error(), a.from);
  auto to = load_model(a.to, c.s);
  if (!to) return fail(c.s, to.error(), a.to);
  motion::FitReport r;
  e.out = motion::fit(in[0], *from, *to, {!a.no_legs, !a.no_arms}, &r);
  if (e.out) {
    e.report.push_back(fmt::format("leg ratio xz {:.6g}, y {:.6g}; {} tracks scaled, {} arm tracks corrected", r.xz_ratio,
                                   r.y_ratio, r.scaled.size(), r.arm_corrected.size()));
    if (!a.quiet)
      for (const auto& n : r.notes) c.s.err << "mmdkit: warning: " << n << "\n";
  }
  return kExitOk;
}

using EditFn = int (*)(const OpContext&, const std::vector<vmd::Motion>&, Edit&);

// The edit of each operation that reads VMD motions and writes one (vpd and lipsync: none).
EditFn edit_of(Op op) {
  switch (op) {
    case Op::trim: return edit_trim;
    case Op::shift: return edit_shift;
    case Op::merge: return edit_merge;
    case Op::mirror: return edit_mirror;
    case Op::resample: return edit_resample;
    case Op::reduce: return edit_reduce;
    case Op::rename: return edit_rename;
    case Op::filter: return edit_filter;
    case Op::fit: return edit_fit;
    case Op::vpd:
    case Op::lipsync: break;
  }
  return nullptr;
}

// Reads the VMD inputs, runs the edit, writes the result and says what it did.
int run_edit(OpContext& c, EditFn edit) {
  const MotionArgs& a = c.a;
  const Streams& s = c.s;
  std::vector<vmd::Motion> in;
  for (const std::string& p : a.inputs) {
    auto m = read_motion_input(p, s, a.quiet);
    if (!m) return fail(s, m.error(), input_label(p));
    if (!m->motion) {
      auto e = make_error(ErrorCode::bad_signature, "a VPD pose, not a VMD motion (use 'mmdkit motion vpd' to convert)",
                          "header");
      return fail(s, e.error(), input_label(p));
    }
    in.push_back(std::move(*m->motion));
  }
  Edit e;
  if (int code = edit(c, in, e); code) return code;
  if (!e.out) return fail(s, e.out.error(), input_label(a.inputs[0]));
  if (int code = write_vmd(a, s, *e.out, c.written); code) return code;
  if (!e.note.empty()) s.err << diagnostic_line(Diagnostic::note, e.note);
  std::string what;
  for (const std::string& line : e.report) what += (what.empty() ? "" : "; ") + line;
  c.say(what);
  return kExitOk;
}

int run(const MotionArgs& a, const Streams& s) {
  std::optional<Op> chosen;
  for (std::size_t i = 0; i < kOpCount; ++i)
    if (a.ops[i] && a.ops[i]->parsed()) chosen = static_cast<Op>(i);
  if (!chosen)
    return usage_error(s.err, "motion", "an operation is required (trim, shift, merge, mirror, resample, reduce, rename, filter, vpd, fit, lipsync)");
  const Op op = *chosen;
  OpContext c{a, s, std::string("motion ") + kOpNames[index(op)]};
  if (is_terminal_stdout(a.output, s.out))
    return usage_error(s.err, c.name, "refusing to write a binary file to a terminal; give -o FILE");
  // The output's extension: one this operation writes (vpd and mirror: by the input's kind).
  if (op != Op::vpd && op != Op::mirror)
    if (std::string p = output_extension_problem(a.output, kVmdOutput); !p.empty()) return usage_error(s.err, c.name, p);
  if (op == Op::lipsync) return run_lipsync(a.lips, a.inputs[0], a.model, a.map, a.fps, a.output, a.force, a.quiet, s);
  if (op == Op::vpd) return run_vpd(c);
  if (op == Op::mirror) {
    bool done = false;
    if (int code = run_mirror_pose(c, done); code || done) return code;
  }
  return run_edit(c, edit_of(op));
}

}  // namespace

const Command kMotionCommand{
    "motion",
    "edit motions: trim, shift, merge, mirror, resample, reduce, rename, filter, vpd, fit, lipsync (each writes a new file)",
    [](CLI::App& sub) -> Runner {
      auto a = std::make_shared<MotionArgs>();
      declare(sub, *a);
      return [a](const Streams& s) { return run(*a, s); };
    }};

int cmd_motion(int argc, const char* const* argv, std::ostream& out, std::ostream& err) {
  return run_command("motion", argc, argv, out, err);
}

}  // namespace mmdkit::cli
