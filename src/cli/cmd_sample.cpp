// mmdkit CLI — `sample` (cmd_sample.hpp): bones / morphs / camera at a list of frames.
#include "cli/cmd_sample.hpp"

// GCC 12 reports a "potential null pointer dereference" inside CLI11's detail::split (a vector of
// strings growing) once inlined into this file; a false positive in a library header.
#pragma GCC diagnostic ignored "-Wnull-dereference"

#include <CLI/CLI.hpp>

#include <memory>
#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstring>
#include <expected>
#include <filesystem>
#include <optional>
#include <sstream>

#include "cli/animation_input.hpp"
#include "cli/app.hpp"
#include "cli/sample_job.hpp"
#include "cli/command.hpp"
#include "cli/io.hpp"
#include "cli/messages.hpp"
#include "cli/progress.hpp"
#include "cli/sample_json.hpp"
#include "core/json.hpp"
#include "mmdkit/anim/binding.hpp"
#include "mmdkit/anim/camera.hpp"
#include "mmdkit/anim/character.hpp"
#include "mmdkit/anim/pose.hpp"
#include "mmdkit/anim/skeleton.hpp"
#include "mmdkit/core/file.hpp"
#include "mmdkit/version.hpp"
#include "mmdkit/core/number.hpp"
#include "mmdkit/core/text.hpp"
#include "mmdkit/formats/pmd.hpp"
#include "mmdkit/formats/pmx.hpp"
#include "mmdkit/formats/vmd.hpp"
#include "mmdkit/formats/vpd.hpp"
#include "core/try.hpp"

namespace mmdkit::cli {

namespace fs = std::filesystem;

namespace {

// The options of `sample` (its Command below).
void declare_sample_options(CLI::App& sub, SampleArgs& a) {
  CLI::App* s = &sub;
  s->add_option("MODEL", a.model, "model file (PMX or PMD, or its mmdkit JSON; by content); not with --scene");
  s->add_option("MOTION", a.motions, "VMD motions (merged per bone) and at most one VPD pose (over them), or their JSON; none = rest pose. "
                "Motions that key no bone or morph of the model (a camera motion) are refused (exit 1), "
                "unless --camera samples their camera (then a warning)");
  s->add_option("--frames", a.frames, "frames: list and ranges, e.g. 0,15,30 or 0-300:10 (default 0..last key, step 1)");
  s->add_option("-o,--output", a.output, "output file (default or - : stdout); written frame by frame");
  s->add_option("--bones", a.bones, "comma-separated bone names to write (default all)");
  s->add_flag("--morphs", a.morphs, "also write morph weights");
  s->add_flag("--camera", a.camera, "also write the camera (from the motions' camera keys)");
  s->add_flag("--no-ik", a.no_ik, "switch every IK solver off");
  s->add_option("--format", a.format, "json (default) or binary (float32 layout, see docs/EVALUATION-BONES.md)");
  s->add_flag("--force", a.force, "allow the output to replace an existing file, an input included");
  s->add_flag("-q,--quiet", a.quiet,
              "do not print warnings (reader warnings, motion tracks that match nothing), progress or the summary line");
  declare_physics_options(sub, a.physics);
  declare_scene_options(sub, a.scene);
  s->add_flag("--each", a.each, "sample every MOTION on its own (the model read once): one output per motion, -o DIR/STEM.json (.bin with --format binary)");
}

}  // namespace

const Command kSampleCommand{"sample", "evaluate bones (morphs, append, IK, physics with --physics) at frames and write model-space transforms as JSON or binary", [](CLI::App& sub) -> Runner {
  auto a = std::make_shared<SampleArgs>();
  declare_sample_options(sub, *a);
  return [a](const Streams& s) { return run_sample(*a, s.out, s.err); };
}};

bool parse_frame_list(const std::string& text, std::vector<double>& frames, std::string* why) {
  frames.clear();
  constexpr std::size_t kMax = kMaxFrameCount;
  auto fail = [&](std::string reason) {
    if (why) *why = std::move(reason);
    frames.clear();
    return false;
  };
  // A number: finite, >= 0, and at most the last frame a VMD can hold (u32).
  auto num = [&](std::string_view s, double& v, const char* what) -> bool {
    auto r = std::from_chars(s.data(), s.data() + s.size(), v);
    if (s.empty() || r.ec != std::errc{} || r.ptr != s.data() + s.size() || !std::isfinite(v))
      return fail(std::string(what) + " '" + std::string(s) + "' is not a number");
    if (v < 0) return fail(std::string(what) + " '" + std::string(s) + "' is negative");
    if (v > kMaxFrame)
      return fail(std::string(what) + " '" + std::string(s) + "' is beyond the last frame a VMD can hold (" +
                  std::to_string(static_cast<std::uint64_t>(kMaxFrame)) + ")");
    return true;
  };
  if (text.empty()) return fail("the list is empty");
  std::string_view rest = text;
  while (!rest.empty()) {
    const std::size_t comma = rest.find(',');
    std::string_view part = rest.substr(0, comma);
    rest = comma == std::string_view::npos ? std::string_view{} : rest.substr(comma + 1);
    if (part.empty()) return fail("an empty item between commas");
    const std::size_t dash = part.find('-');
    if (dash == std::string_view::npos) {
      double v = 0;
      if (!num(part, v, "frame")) return false;
      frames.push_back(v);
    } else {
      std::string_view b = part.substr(dash + 1);
      double step = 1;
      if (const std::size_t colon = b.find(':'); colon != std::string_view::npos) {
        if (!num(b.substr(colon + 1), step, "step")) return false;
        if (!(step > 0)) return fail("the step of '" + std::string(part) + "' is not > 0");
        b = b.substr(0, colon);
      }
      double lo = 0, hi = 0;
      if (dash == 0) return fail("'" + std::string(part) + "': a frame is never negative");
      if (!num(part.substr(0, dash), lo, "range start") || !num(b, hi, "range end")) return false;
      if (hi < lo) return fail("range '" + std::string(part) + "' ends before it starts");
      if ((hi - lo) / step > static_cast<double>(kMax))
        return fail("range '" + std::string(part) + "' has more than " + std::to_string(kMax) +
                    " frames (the limit of one run; split the list or use a larger step)");
      for (std::size_t k = 0;; ++k) {
        const double f = lo + static_cast<double>(k) * step;
        if (f > hi + 1e-9) break;
        frames.push_back(std::round(f * 1e6) / 1e6);
      }
    }
    if (frames.size() > kMax)
      return fail("more than " + std::to_string(kMax) + " frames in all (the limit of one run)");
  }
  return true;
}

namespace {

template <class T>
void put_le(std::string& s, T v) {
  char b[sizeof(T)];
  std::memcpy(b, &v, sizeof(T));  // x86/ARM little-endian hosts; mmdkit targets little-endian
  s.append(b, sizeof(T));
}

// Usage problems of MODEL [MOTION...] found before anything is read (exit 2, printed); kExitOk
// when none.
int check_sample_usage(const SampleArgs& a, std::ostream& out, std::ostream& err) {
  if (a.model.empty()) return usage_error(err, "sample", "MODEL is required (or --scene FILE)");
  if (const std::string p = physics_usage_problem(a.physics); !p.empty()) {
    err << "mmdkit: error: " << p << "\nrun 'mmdkit sample --help' for usage\n";
    return kExitUsage;
  }
  if (a.format != "json" && a.format != "binary") {
    err << "mmdkit: error: --format must be json or binary, not '" << a.format << "'\n";
    return kExitUsage;
  }
  if (a.format == "binary" && is_terminal_stdout(a.output.empty() ? std::string("-") : a.output, out)) {
    err << "mmdkit: error: refusing to write binary data to a terminal; redirect it or give -o FILE\n"
        << "run 'mmdkit sample --help' for usage\n";
    return kExitUsage;
  }
  return kExitOk;
}

// Frames: --frames, else 0 to the last key of the inputs (0 for a pose alone); whole frames with
// --physics. The error is printed and its exit code returned.
std::expected<std::vector<double>, int> sample_frames(const SampleArgs& a, const SampleJob& job, std::ostream& err) {
  const auto bad = [&](const std::string& m) -> int {
    if (job.scene_form) return usage_error(err, "sample", m);
    err << "mmdkit: error: " << m << "\n";
    return kExitUsage;
  };
  std::vector<double> frames;
  if (a.frames.empty()) {
    for (std::uint32_t f = 0; f <= job.last_frame; ++f) frames.push_back(f);
  } else if (std::string why; !parse_frame_list(a.frames, frames, &why)) {
    return std::unexpected(bad("bad --frames '" + a.frames + "': " + why + " (use e.g. 0,15,30 or 0-300:10)"));
  }
  // Frames after the motions' last key hold its pose (as MMD plays a finished motion): say so once,
  // a range past the end is usually a typo or the wrong motion.
  if (!job.scene_form && !a.quiet && !a.frames.empty() && !frames.empty())
    err << past_last_key_note("--frames", *std::max_element(frames.begin(), frames.end()), job.last_frame);
  if (a.physics.on)
    for (double f : frames)
      if (f != std::floor(f)) {
        std::ostringstream text;
        if (job.scene_form)
          text << format_float_json(static_cast<float>(f));
        else
          text << f;
        return std::unexpected(bad("bad --frames '" + a.frames + "': frame " + text.str() +
                                   " is not whole; with --physics the simulation steps whole 30 fps frames"));
      }
  return frames;
}

// The bones written: --bones in its order, else every bone in model order.
std::expected<std::vector<std::uint32_t>, int> selected_bones(const SampleArgs& a, const anim::Skeleton& sk,
                                                              std::ostream& err) {
  std::vector<std::uint32_t> bones;
  if (a.bones.empty()) {
    for (std::size_t i = 0; i < sk.bone_count(); ++i) bones.push_back(static_cast<std::uint32_t>(i));
    return bones;
  }
  std::string_view rest = a.bones;
  while (!rest.empty()) {
    const std::size_t c = rest.find(',');
    const std::string_view name = rest.substr(0, c);
    rest = c == std::string_view::npos ? std::string_view{} : rest.substr(c + 1);
    const std::int32_t i = sk.find(name);
    if (i < 0) {
      err << "mmdkit: error: --bones: the model has no bone named '" << name << "'\n";
      return std::unexpected(kExitUsage);
    }
    bones.push_back(static_cast<std::uint32_t>(i));
  }
  return bones;
}

// What one model's run writes: the bones, the morph count (0 without --morphs), the camera flag.
struct SampleLayout {
  std::vector<std::uint32_t> bones;
  std::size_t morphs = 0;
  bool camera = false;
  bool binary = false;
  bool all_bones = false;  ///< every bone in model order: a frame's matrices are one block
  std::size_t frame_bytes = 0;  ///< one binary frame record
};

// The header (binary: magic, counts and names; JSON: the inputs, options and the frames' opening).
void append_header(std::string& s, const SampleArgs& a, const anim::CharacterData& data, const SampleLayout& l,
                   std::size_t frame_count) {
  const anim::Skeleton& sk = data.skeleton();
  if (l.binary) {
    s.append("MMDKSMP1", 8);
    put_le<std::uint32_t>(s, 1);
    put_le<std::uint32_t>(s, static_cast<std::uint32_t>(frame_count));
    put_le<std::uint32_t>(s, static_cast<std::uint32_t>(l.bones.size()));
    put_le<std::uint32_t>(s, static_cast<std::uint32_t>(l.morphs));
    put_le<std::uint32_t>(s, l.camera ? 1u : 0u);
    put_le<std::uint32_t>(s, 0);
    for (std::uint32_t b : l.bones) {
      put_le<std::uint32_t>(s, b);
      put_le<std::uint32_t>(s, static_cast<std::uint32_t>(sk.names()[b].size()));
      s += sk.names()[b];
    }
    for (std::size_t m = 0; m < l.morphs; ++m) {
      put_le<std::uint32_t>(s, static_cast<std::uint32_t>(m));
      put_le<std::uint32_t>(s, static_cast<std::uint32_t>(data.morph_names()[m].size()));
      s += data.morph_names()[m];
    }
    return;
  }
  s += "{\"lib\":\"mmdkit " MMDKIT_VERSION_STRING "\",\"model\":";
  json::append_string(s, a.model);
  s += ",\"motion\":";
  if (a.motions.empty())
    s += "null";
  else
    json::append_string(s, a.motions.front());
  s += ",\"motions\":[";
  for (std::size_t i = 0; i < a.motions.size(); ++i) {
    if (i) s += ',';
    json::append_string(s, a.motions[i]);
  }
  s += "],\"options\":" + sample_options_json(a) + ",";
  s += "\"coordinates\":\"MMD left-handed, Y up, MMD units\",\"matrixLayout\":\"column-major, translation at [12..14]\",";
  s += "\"frames\":[";
}

// One frame record, little-endian (x86/ARM hosts; mmdkit targets little-endian): the frame
// (f64), each written bone's 16 floats, the morph weights, the camera. Copied in whole arrays:
// appending float by float was a quarter of a binary run's instructions; the record is written
// straight into the grown string (resize_and_overwrite: no zero fill first, which was a third of
// the remaining work outside the evaluation).
void append_frame_binary(std::string& s, const SampleLayout& l, double f, const anim::Character& c) {
  const auto mats = c.pose().model_matrices();
  const std::span<const float> weights = c.morph_weights();
  const anim::CameraState& cam = c.camera();
  const std::size_t at = s.size();
  s.resize_and_overwrite(at + l.frame_bytes, [&](char* buf, std::size_t size) {
    char* p = buf + at;
    const auto put = [&p](const void* src, std::size_t n) {
      std::memcpy(p, src, n);
      p += n;
    };
    put(&f, sizeof f);
    if (l.all_bones)
      put(mats.data(), l.bones.size() * sizeof(Mat4));
    else
      for (std::uint32_t b : l.bones) put(mats[b].data(), sizeof(Mat4));
    put(weights.data(), l.morphs * sizeof(float));
    if (l.camera) {
      put(cam.target.data(), sizeof(Vec3));
      put(cam.rotation.data(), sizeof(Vec3));
      put(&cam.distance, sizeof(float));
      put(&cam.fov_degrees, sizeof(float));
      put(cam.position.data(), sizeof(Vec3));
    }
    return size;
  });
}

// One frame of the JSON output (after a comma when not the first).
void append_frame_json(std::string& s, const SampleLayout& l, std::size_t fi, double f, const anim::Character& c) {
  const anim::Skeleton& sk = c.data().skeleton();
  const auto mats = c.pose().model_matrices();
  const auto rots = c.pose().model_rotations();
  if (fi) s += ',';
  s += "\n{\"frame\":";
  s += format_float_json(static_cast<float>(f));
  s += ",\"bones\":[";
  for (std::size_t k = 0; k < l.bones.size(); ++k) {
    const std::uint32_t b = l.bones[k];
    if (k) s += ',';
    append_bone(s, sk.names()[b], b, mats[b], quat_normalize(rots[b]));
  }
  s += ']';
  if (l.morphs) append_morphs(s, c.data().morph_names(), c.morph_weights());
  if (l.camera) append_camera(s, c.camera());
  s += '}';
}

// One model (MODEL [MOTION...]): its bones in model space. Without physics, kMaxFrameBatch
// frames at a time, each by its own character of the same data (Character::evaluate_frames: the
// same bytes as one by one, less time: their IK chains are solved together); with physics one
// by one, in order (FrameEvaluator).
class ModelSampleJob final : public SampleJob {
 public:
  ModelSampleJob(const SampleArgs& a, std::shared_ptr<const anim::CharacterData> data, std::ostream& err)
      : a_(a), ch_(std::move(data)) {
    configure(ch_);
    frames_eval_.emplace(ch_, a.physics, err, a.quiet, a.model);
  }
  const anim::CharacterData& data() const noexcept { return ch_.data(); }

  int prepare(std::span<const double> frames, std::ostream& err) override {
    const anim::CharacterData& d = ch_.data();
    if (a_.physics.on && !frames.empty())
      frames_eval_->set_run_length(static_cast<std::uint32_t>(
          std::clamp(*std::max_element(frames.begin(), frames.end()), 0.0, 4294967295.0)));
    auto bones = selected_bones(a_, d.skeleton(), err);
    if (!bones) return bones.error();
    l_.bones = std::move(*bones);
    l_.morphs = a_.morphs ? d.morph_names().size() : 0;
    l_.camera = a_.camera;
    l_.binary = binary;
    l_.all_bones = l_.bones.size() == d.skeleton().bone_count();
    for (std::size_t k = 0; l_.all_bones && k < l_.bones.size(); ++k) l_.all_bones = l_.bones[k] == k;
    l_.frame_bytes = sizeof(double) + l_.bones.size() * sizeof(Mat4) + l_.morphs * sizeof(float) +
                     (a_.camera ? 3 * sizeof(Vec3) + 2 * sizeof(float) : 0);
    batch_ = a_.physics.on ? 1 : anim::kMaxFrameBatch;
    chars_ = {&ch_};
    for (std::size_t k = 1; k < std::min(batch_, frames.size()); ++k) {
      more_.push_back(std::make_unique<anim::Character>(ch_.data_ptr()));
      configure(*more_.back());
      chars_.push_back(more_.back().get());
    }
    return kExitOk;
  }

  Result<void> evaluate(std::span<const double> frames, std::size_t fi) override {
    if (batch_ == 1) return frames_eval_->evaluate(frames[fi]);
    if (fi % batch_ != 0) return {};
    const std::size_t n = std::min(batch_, frames.size() - fi);
    return anim::Character::evaluate_frames(std::span(chars_.data(), n), frames.subspan(fi, n));
  }

  void append_header(std::string& s, std::size_t frame_count) const override {
    cli::append_header(s, a_, ch_.data(), l_, frame_count);
  }

  void append_frame(std::string& s, std::size_t fi, double f) const override {
    const anim::Character& c = *chars_[fi % batch_];
    if (l_.binary)
      append_frame_binary(s, l_, f, c);
    else
      append_frame_json(s, l_, fi, f, c);
  }

  std::string written_per_frame() const override {
    const std::size_t nb = l_.bones.size(), nm = l_.morphs;
    return std::to_string(nb) + (nb == 1 ? " bone" : " bones") +
           (nm ? ", " + std::to_string(nm) + (nm == 1 ? " morph" : " morphs") : std::string()) +
           (a_.camera ? ", camera" : "") + ", " + a_.format;
  }

 private:
  // Every character of the run alike: bone transforms only (nothing is skinned); morph weights
  // and the camera when asked for.
  void configure(anim::Character& c) const {
    c.set_ik(!a_.no_ik);
    c.set_skinning_matrices(false);
    c.set_morphs(a_.morphs);
    c.set_camera_and_light(a_.camera);
  }

  const SampleArgs& a_;
  anim::Character ch_;
  std::optional<FrameEvaluator> frames_eval_;
  SampleLayout l_;
  std::size_t batch_ = 1;
  std::vector<std::unique_ptr<anim::Character>> more_;
  std::vector<anim::Character*> chars_;
};

// The output, written as it is made (kFlushBytes at a time).
class SampleWriter {
 public:
  SampleWriter(const SampleArgs& a, OutputSink& sink, std::ostream& err) : a_(a), sink_(sink), err_(err) {
    s_.reserve(kFlushBytes * 2);
  }
  std::string& text() noexcept { return s_; }
  std::uint64_t written() const noexcept { return written_; }
  bool flush() {
    written_ += s_.size();
    auto r = sink_.write(s_);
    s_.clear();
    if (!r) report_error(err_, r.error(), a_.output);
    return r.has_value();
  }
  bool flush_if_full() { return s_.size() < kFlushBytes || flush(); }

 private:
  static constexpr std::size_t kFlushBytes = std::size_t{1} << 18;
  const SampleArgs& a_;
  OutputSink& sink_;
  std::ostream& err_;
  std::string s_;
  std::uint64_t written_ = 0;
};

// The frames evaluated in order and written as they come.
int write_frames(const SampleArgs& a, SampleJob& job, std::span<const double> frames, SampleWriter& w,
                 std::ostream& err) {
  std::optional<Progress> progress;
  if (!job.scene_form) progress.emplace(err, frames.size(), progress_mode(err, a.quiet), "mmdkit sample", "frames");
  for (std::size_t fi = 0; fi < frames.size(); ++fi) {
    if (progress) progress->update(fi);
    if (!w.flush_if_full()) return kExitBadInput;
    if (auto r = job.evaluate(frames, fi); !r) return report_error(err, r.error(), job.source);
    job.append_frame(w.text(), fi, frames[fi]);
  }
  if (!job.binary) w.text() += "]}\n";
  if (progress) {
    progress->update(frames.size());
    progress->clear();
  }
  return kExitOk;
}

}  // namespace

int check_sample_output(const SampleArgs& a, const std::vector<fs::path>& inputs, std::ostream& err) {
  if (!a.output.empty() && !is_std_stream(a.output))  // before the (possibly long) load
    if (auto r = check_output(a.output, inputs, a.force); !r) return report_error(err, r.error(), a.output);
  return kExitOk;
}

std::expected<std::unique_ptr<SampleJob>, int> sample_model_job(const SampleArgs& a, std::ostream& out,
                                                                std::ostream& err) {
  if (int rc = check_sample_usage(a, out, err); rc != kExitOk) return std::unexpected(rc);
  std::vector<fs::path> inputs{fs::path(a.model)};
  for (const auto& m : a.motions) inputs.emplace_back(m);
  if (int rc = check_sample_output(a, inputs, err); rc != kExitOk) return std::unexpected(rc);
  AnimationRequest req{a.model, a.motions, false, a.quiet, "sample"};
  MMDKIT_TRY_ASSIGN(auto loaded, load_animation(req, err, a.model_view));
  auto job = std::make_unique<ModelSampleJob>(a, loaded, err);
  const anim::CharacterData& data = job->data();
  // Motions keying nothing of the model: refused, or a warning when --camera samples their camera
  // (animation_input.hpp, the rule `pose` shares).
  if (int rc = refuse_motions_keying_nothing(
          req, data, a.camera, "a camera motion: add --camera to sample its camera",
          a.bones.empty() ? "its bones are written at the rest pose (--bones NAME,... writes fewer)"
                          : "its bones are written at the rest pose",
          err);
      rc != kExitOk)
    return std::unexpected(rc);
  // --camera with no camera key in any input: every frame holds MMD's default camera (what MMD
  // shows then), which is easy to take for a sampled one: say so once.
  if (a.camera && data.camera_track().empty() && !a.quiet)
    err << diagnostic_line(Diagnostic::warning,
                           "--camera: no input has camera keys; every frame holds MMD's default camera "
                           "(docs/SCENE.md)");
  job->inputs = std::move(inputs);
  job->source = a.model;
  job->last_frame = data.last_frame();
  job->binary = a.format == "binary";
  return job;
}

std::string sample_options_json(const SampleArgs& a) {
  const auto flag = [](bool v) { return v ? "true" : "false"; };
  return fmt::format("{{\"ik\":{},\"physics\":{},\"morphs\":{},\"camera\":{}}}", flag(!a.no_ik), flag(a.physics.on),
                     flag(a.morphs), flag(a.camera));
}

int run_sample(const SampleArgs& a, std::ostream& out, std::ostream& err) {
  if (a.each) return run_sample_each(a, out, err);
  auto job = a.scene.requested() ? sample_scene_job(a, err) : sample_model_job(a, out, err);
  if (!job) return job.error();
  SampleJob& j = **job;
  auto frames = sample_frames(a, j, err);
  if (!frames) return frames.error();
  if (int rc = j.prepare(*frames, err); rc != kExitOk) return rc;

  // The output is written as it is made: the header, then the frames in pieces of about
  // 256 KiB (one frame's text or binary record at least), never held whole.
  auto sink = OutputSink::open(a.output.empty() ? std::string("-") : a.output, j.inputs, a.force, out);
  if (!sink) return report_error(err, sink.error(), a.output);
  SampleWriter w(a, *sink, err);
  j.append_header(w.text(), frames->size());
  if (int rc = write_frames(a, j, *frames, w, err); rc != kExitOk) return rc;
  if (!w.flush()) return kExitBadInput;
  if (auto r = sink->commit(); !r) return report_error(err, r.error(), a.output);
  const bool to_stdout = a.output.empty() || is_std_stream(a.output);
  summary(err, a.quiet, "sample",
          "wrote " + (to_stdout ? std::string("the standard output") : a.output) + " (" +
              counted(frames->size(), "frame", "frames") + " x " + j.written_per_frame() + ", " +
              std::to_string(w.written()) + " bytes)");
  return kExitOk;
}

int cmd_sample(int argc, const char* const* argv, std::ostream& out, std::ostream& err) {
  return run_command("sample", argc, argv, out, err);
}

}  // namespace mmdkit::cli
