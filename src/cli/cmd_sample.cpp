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
#include <filesystem>
#include <optional>
#include <sstream>

#include "cli/animation_input.hpp"
#include "cli/app.hpp"
#include "cli/scene_commands.hpp"
#include "cli/command.hpp"
#include "cli/io.hpp"
#include "cli/messages.hpp"
#include "cli/progress.hpp"
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

void put_float(std::string& s, float v) { s += format_float_json(v); }

void put_floats(std::string& s, const float* v, std::size_t n) {
  s += '[';
  for (std::size_t i = 0; i < n; ++i) {
    if (i) s += ',';
    put_float(s, v[i]);
  }
  s += ']';
}

template <class T>
void put_le(std::string& s, T v) {
  char b[sizeof(T)];
  std::memcpy(b, &v, sizeof(T));  // x86/ARM little-endian hosts; mmdkit targets little-endian
  s.append(b, sizeof(T));
}

int fail(std::ostream& err, const Error& e, const std::string& file) {
  Error x = e;
  if (x.file.empty()) x.file = file;
  err << "mmdkit: error: " << x.to_string() << "\n";
  return kExitBadInput;
}

}  // namespace

std::string sample_options_json(const SampleArgs& a) {
  const auto flag = [](bool v) { return v ? "true" : "false"; };
  return fmt::format("{{\"ik\":{},\"physics\":{},\"morphs\":{},\"camera\":{}}}", flag(!a.no_ik), flag(a.physics.on),
                     flag(a.morphs), flag(a.camera));
}

int run_sample(const SampleArgs& a, std::ostream& out, std::ostream& err) {
  if (a.each) return run_sample_each(a, out, err);
  if (a.scene.requested()) return run_scene_sample(a, out, err);
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
  if (!a.output.empty() && !is_std_stream(a.output)) {  // before the (possibly long) load
    std::vector<fs::path> inputs{fs::path(a.model)};
    for (const auto& m : a.motions) inputs.emplace_back(m);
    if (auto r = check_output(a.output, inputs, a.force); !r) return fail(err, r.error(), a.output);
  }
  AnimationRequest req{a.model, a.motions, false, a.quiet, "sample"};
  auto loaded = load_animation(req, err, a.model_view);
  if (!loaded) return loaded.error();
  anim::Character ch(*loaded);
  // Every character of the run alike: bone transforms only (nothing is skinned); morph weights
  // and the camera when asked for.
  const auto configure = [&a](anim::Character& c) {
    c.set_ik(!a.no_ik);
    c.set_skinning_matrices(false);
    c.set_morphs(a.morphs);
    c.set_camera_and_light(a.camera);
  };
  configure(ch);
  FrameEvaluator frames_eval(ch, a.physics, err, a.quiet, a.model);
  const anim::CharacterData& data = ch.data();
  const anim::Skeleton& sk = data.skeleton();
  // Motions keying nothing of the model: refused, or a warning when --camera samples their camera
  // (animation_input.hpp, the rule `pose` shares).
  if (int rc = refuse_motions_keying_nothing(
          req, data, a.camera, "a camera motion: add --camera to sample its camera",
          a.bones.empty() ? "its bones are written at the rest pose (--bones NAME,... writes fewer)"
                          : "its bones are written at the rest pose",
          err);
      rc != kExitOk)
    return rc;
  // --camera with no camera key in any input: every frame holds MMD's default camera (what MMD
  // shows then), which is easy to take for a sampled one: say so once.
  if (a.camera && data.camera_track().empty() && !a.quiet)
    err << diagnostic_line(Diagnostic::warning,
                           "--camera: no input has camera keys; every frame holds MMD's default camera "
                           "(docs/SCENE.md)");

  // Frames: --frames, else 0 to the last key of the inputs (0 for a pose alone).
  std::vector<double> frames;
  if (a.frames.empty()) {
    for (std::uint32_t f = 0; f <= data.last_frame(); ++f) frames.push_back(f);
  } else if (std::string why; !parse_frame_list(a.frames, frames, &why)) {
    err << "mmdkit: error: bad --frames '" << a.frames << "': " << why << " (use e.g. 0,15,30 or 0-300:10)\n";
    return kExitUsage;
  }
  // Frames after the motions' last key hold its pose (as MMD plays a finished motion): say so once,
  // a range past the end is usually a typo or the wrong motion.
  if (!a.quiet && !a.frames.empty() && !frames.empty())
    err << past_last_key_note("--frames", *std::max_element(frames.begin(), frames.end()), data.last_frame());
  if (a.physics.on && !frames.empty())
    frames_eval.set_run_length(static_cast<std::uint32_t>(std::clamp(*std::max_element(frames.begin(), frames.end()), 0.0, 4294967295.0)));
  if (a.physics.on)
    for (double f : frames)
      if (f != std::floor(f)) {
        err << "mmdkit: error: bad --frames '" << a.frames << "': frame " << f
            << " is not whole; with --physics the simulation steps whole 30 fps frames\n";
        return kExitUsage;
      }

  // Bone selection.
  std::vector<std::uint32_t> bones;
  if (a.bones.empty()) {
    for (std::size_t i = 0; i < sk.bone_count(); ++i) bones.push_back(static_cast<std::uint32_t>(i));
  } else {
    std::string_view rest = a.bones;
    while (!rest.empty()) {
      const std::size_t c = rest.find(',');
      const std::string_view name = rest.substr(0, c);
      rest = c == std::string_view::npos ? std::string_view{} : rest.substr(c + 1);
      const std::int32_t i = sk.find(name);
      if (i < 0) {
        err << "mmdkit: error: --bones: the model has no bone named '" << name << "'\n";
        return kExitUsage;
      }
      bones.push_back(static_cast<std::uint32_t>(i));
    }
  }
  const std::size_t nm = a.morphs ? data.morph_names().size() : 0;

  // The output is written as it is made: the header, then the frames in pieces of about
  // kFlushBytes (one frame's text or binary record at least), never held whole.
  std::vector<fs::path> inputs{fs::path(a.model)};
  for (const auto& m : a.motions) inputs.emplace_back(m);
  auto sink = OutputSink::open(a.output.empty() ? std::string("-") : a.output, inputs, a.force, out);
  if (!sink) return fail(err, sink.error(), a.output);
  constexpr std::size_t kFlushBytes = std::size_t{1} << 18;
  std::string s;
  s.reserve(kFlushBytes * 2);
  std::uint64_t written = 0;
  auto flush = [&]() -> bool {
    written += s.size();
    auto r = sink->write(s);
    s.clear();
    if (!r) fail(err, r.error(), a.output);
    return r.has_value();
  };

  const bool binary = a.format == "binary";
  if (binary) {
    s.append("MMDKSMP1", 8);
    put_le<std::uint32_t>(s, 1);
    put_le<std::uint32_t>(s, static_cast<std::uint32_t>(frames.size()));
    put_le<std::uint32_t>(s, static_cast<std::uint32_t>(bones.size()));
    put_le<std::uint32_t>(s, static_cast<std::uint32_t>(nm));
    put_le<std::uint32_t>(s, a.camera ? 1u : 0u);
    put_le<std::uint32_t>(s, 0);
    for (std::uint32_t b : bones) {
      put_le<std::uint32_t>(s, b);
      put_le<std::uint32_t>(s, static_cast<std::uint32_t>(sk.names()[b].size()));
      s += sk.names()[b];
    }
    for (std::size_t m = 0; m < nm; ++m) {
      put_le<std::uint32_t>(s, static_cast<std::uint32_t>(m));
      put_le<std::uint32_t>(s, static_cast<std::uint32_t>(data.morph_names()[m].size()));
      s += data.morph_names()[m];
    }
  } else {
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

  // Every bone in model order (no --bones): a frame's matrices are one block of the workspace.
  bool all_bones = bones.size() == sk.bone_count();
  for (std::size_t k = 0; all_bones && k < bones.size(); ++k) all_bones = bones[k] == k;
  const std::size_t frame_bytes = sizeof(double) + bones.size() * sizeof(Mat4) + nm * sizeof(float) +
                                  (a.camera ? 3 * sizeof(Vec3) + 2 * sizeof(float) : 0);
  // Without physics, kMaxFrameBatch frames at a time, each by its own character of the same data
  // (Character::evaluate_frames: the same bytes as one by one, less time: their IK chains are
  // solved together); with physics one by one, in order (FrameEvaluator).
  const std::size_t batch = a.physics.on ? 1 : anim::kMaxFrameBatch;
  std::vector<std::unique_ptr<anim::Character>> more;
  std::vector<anim::Character*> chars{&ch};
  for (std::size_t k = 1; k < std::min(batch, frames.size()); ++k) {
    more.push_back(std::make_unique<anim::Character>(ch.data_ptr()));
    configure(*more.back());
    chars.push_back(more.back().get());
  }
  Progress progress(err, frames.size(), progress_mode(err, a.quiet), "mmdkit sample", "frames");
  for (std::size_t fi = 0; fi < frames.size(); ++fi) {
    progress.update(fi);
    if (s.size() >= kFlushBytes && !flush()) return kExitBadInput;
    const double f = frames[fi];
    if (batch == 1) {
      if (auto r = frames_eval.evaluate(f); !r) return fail(err, r.error(), a.model);
    } else if (fi % batch == 0) {
      const std::size_t n = std::min(batch, frames.size() - fi);
      if (auto r = anim::Character::evaluate_frames(std::span(chars.data(), n), std::span(frames.data() + fi, n)); !r)
        return fail(err, r.error(), a.model);
    }
    const anim::Character& c = *chars[fi % batch];
    const std::span<const float> weights = c.morph_weights();
    const anim::CameraState& cam = c.camera();
    const auto mats = c.pose().model_matrices();
    const auto rots = c.pose().model_rotations();
    if (binary) {
      // One frame record, little-endian (x86/ARM hosts; mmdkit targets little-endian): the frame
      // (f64), each written bone's 16 floats, the morph weights, the camera. Copied in whole
      // arrays: appending float by float was a quarter of a binary run's instructions; the
      // record is written straight into the grown string (resize_and_overwrite: no zero fill
      // first, which was a third of the remaining work outside the evaluation).
      const std::size_t at = s.size();
      s.resize_and_overwrite(at + frame_bytes, [&](char* buf, std::size_t size) {
        char* p = buf + at;
        const auto put = [&p](const void* src, std::size_t n) {
          std::memcpy(p, src, n);
          p += n;
        };
        put(&f, sizeof f);
        if (all_bones)
          put(mats.data(), bones.size() * sizeof(Mat4));
        else
          for (std::uint32_t b : bones) put(mats[b].data(), sizeof(Mat4));
        put(weights.data(), nm * sizeof(float));
        if (a.camera) {
          put(cam.target.data(), sizeof(Vec3));
          put(cam.rotation.data(), sizeof(Vec3));
          put(&cam.distance, sizeof(float));
          put(&cam.fov_degrees, sizeof(float));
          put(cam.position.data(), sizeof(Vec3));
        }
        return size;
      });
      continue;
    }
    if (fi) s += ',';
    s += "\n{\"frame\":";
    s += format_float_json(static_cast<float>(f));
    s += ",\"bones\":[";
    for (std::size_t k = 0; k < bones.size(); ++k) {
      const std::uint32_t b = bones[k];
      if (k) s += ',';
      s += "\n {\"name\":";
      json::append_string(s, sk.names()[b]);
      s += fmt::format(",\"index\":{},\"position\":", b);
      put_floats(s, &mats[b][12], 3);
      s += ",\"quaternion\":";
      const Quat q = quat_normalize(rots[b]);
      put_floats(s, q.data(), 4);
      s += ",\"matrix\":";
      put_floats(s, mats[b].data(), 16);
      s += '}';
    }
    s += ']';
    if (nm) {
      s += ",\"morphs\":[";
      for (std::size_t m = 0; m < nm; ++m) {
        if (m) s += ',';
        s += "{\"name\":";
        json::append_string(s, data.morph_names()[m]);
        s += fmt::format(",\"index\":{},\"weight\":", m);
        put_float(s, weights[m]);
        s += '}';
      }
      s += ']';
    }
    if (a.camera) {
      s += ",\"camera\":{\"target\":";
      put_floats(s, cam.target.data(), 3);
      s += ",\"rotation\":";
      put_floats(s, cam.rotation.data(), 3);
      s += ",\"distance\":";
      put_float(s, cam.distance);
      s += ",\"fov\":";
      put_float(s, cam.fov_degrees);
      s += fmt::format(",\"perspective\":{},\"position\":", cam.perspective ? "true" : "false");
      put_floats(s, cam.position.data(), 3);
      s += '}';
    }
    s += '}';
  }
  if (!binary) s += "]}\n";
  progress.update(frames.size());
  progress.clear();
  if (!flush()) return kExitBadInput;
  if (auto r = sink->commit(); !r) return fail(err, r.error(), a.output);
  const bool to_stdout = a.output.empty() || is_std_stream(a.output);
  summary(err, a.quiet, "sample",
          "wrote " + (to_stdout ? std::string("the standard output") : a.output) + " (" +
              std::to_string(frames.size()) + (frames.size() == 1 ? " frame" : " frames") + " x " +
              std::to_string(bones.size()) + (bones.size() == 1 ? " bone" : " bones") +
              (nm ? ", " + std::to_string(nm) + (nm == 1 ? " morph" : " morphs") : std::string()) +
              (a.camera ? ", camera" : "") + ", " + a.format + ", " + std::to_string(written) + " bytes)");
  return kExitOk;
}

int cmd_sample(int argc, const char* const* argv, std::ostream& out, std::ostream& err) {
  return run_command("sample", argc, argv, out, err);
}

}  // namespace mmdkit::cli
