// mmdkit CLI — `motion lipsync` (cmd_motion_lipsync.hpp).
#include "cli/cmd_motion_lipsync.hpp"

// GCC 12 false positive inside CLI11 (see cmd_sample.cpp).
#pragma GCC diagnostic ignored "-Wnull-dereference"

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <vector>

#include "cli/app.hpp"
#include "cli/io.hpp"
#include "cli/messages.hpp"
#include "cli/progress.hpp"
#include "mmdkit/anim/input_files.hpp"
#include "mmdkit/formats/vmd.hpp"
#include "mmdkit/formats/vmd_json.hpp"
#include "mmdkit/motion/lipsync.hpp"
#include "mmdkit/version.hpp"
#if MMDKIT_HAS_RENDER
#include "mmdkit/render/audio.hpp"
#endif

namespace mmdkit::cli {

namespace fs = std::filesystem;

namespace {
// The frame of the motion's last morph key (the summary's "to frame N": where the keys end, not
// where the score ends).
std::uint32_t last_key_frame(const vmd::Motion& m) {
  std::uint32_t last = 0;
  for (const vmd::MorphKey& k : m.morph_keys) last = std::max(last, k.frame);
  return last;
}
}  // namespace

void declare_lipsync(CLI::App& s, LipsyncArgs& a) {
  s.add_option("--gain", a.gain, "scale of the vowel weights (default 1; weights are clamped to 1)");
  s.add_option("--smooth", a.smooth,
                "audio: smoothing strength, scales the attack (2 frames), release (3) and minimum hold (2) (default 1; 0 = none)");
  s.add_option("--blend", a.blend, "audio: share of the in-between mixture of vowels, 0..1 (default 0.3)");
  s.add_option("--closed-morph", a.closed_morph, "morph to key where the mouth is closed (silence, rests, ん), e.g. ん");
  s.add_option("--lead-ms", a.lead_ms, "score: the mouth reaches a note's shape this many ms before the note (default 50)");
  s.add_option("--tol-weight", a.tol_weight, "audio: key reduction tolerance, morph weight (default 0.03)");
}

int run_lipsync(const LipsyncArgs& a, const std::string& input, const std::string& model_path, const std::string& map,
                double fps, const std::string& output, bool force, bool quiet, const Streams& s) {
  const std::string name = "motion lipsync";
  if (model_path.empty()) return usage_error(s.err, name, "--model is required (the model whose mouth morphs are keyed)");
  if (!(std::isfinite(fps) && fps > 0 && fps <= 1000)) return usage_error(s.err, name, "--fps must be in (0, 1000]");
  if (!(std::isfinite(a.gain) && a.gain > 0)) return usage_error(s.err, name, "--gain must be a number > 0");
  if (!(std::isfinite(a.smooth) && a.smooth >= 0 && a.smooth <= 100)) return usage_error(s.err, name, "--smooth must be 0..100");
  if (!(std::isfinite(a.blend) && a.blend >= 0 && a.blend <= 1)) return usage_error(s.err, name, "--blend must be 0..1");
  if (!(std::isfinite(a.lead_ms) && a.lead_ms >= 0 && a.lead_ms <= 10000)) return usage_error(s.err, name, "--lead-ms must be 0..10000");
  if (!(std::isfinite(a.tol_weight) && a.tol_weight >= 0)) return usage_error(s.err, name, "--tol-weight must be >= 0");
  if (input == "-") return usage_error(s.err, name, "INPUT must be a file (audio or score), not the standard input");
  auto warn = [&](const std::string& file, const std::string& text) {
    if (!quiet) s.err << diagnostic_line(Diagnostic::warning, file + ": " + text);
  };

  // The model and its mouth morphs.
  auto mbytes = read_input(model_path, s.in);
  if (!mbytes) return report_error(s.err, mbytes.error(), model_path);
  std::vector<Warning> mw;
  anim::InputOptions io;
  io.geometry = false;
  auto model = anim::read_model(ByteSpan(mbytes->data(), mbytes->size()), io, mw);
  if (!model) return report_error(s.err, model.error(), model_path);
  Result<motion::MouthMorphs> morphs = motion::MouthMorphs{};
  if (!map.empty()) {
    auto text = read_input(map, s.in);
    if (!text) return report_error(s.err, text.error(), map);
    morphs = motion::parse_mouth_map(std::string_view(reinterpret_cast<const char*>(text->data()), text->size()), *model);
    if (!morphs) return report_error(s.err, morphs.error(), map);
  } else {
    morphs = motion::find_mouth_morphs(*model);
    if (!morphs) return report_error(s.err, morphs.error(), model_path);
    std::string missing;
    for (std::size_t v = 0; v < 5; ++v)
      if (!morphs->morph[v]) missing += std::string(missing.empty() ? "" : ", ") + std::string(motion::shape_name(static_cast<motion::MouthShape>(v)));
    if (!missing.empty())
      warn(model_path, "no morph found for the vowel(s) " + missing + " (looked for あ い う え お and a i u e o names): not keyed");
  }
  if (!a.closed_morph.empty()) {
    std::optional<std::size_t> found;
    for (std::size_t k = 0; k < model->morphs.size() && !found; ++k)
      if (model->morphs[k].name == a.closed_morph || model->morphs[k].name_en == a.closed_morph) found = k;
    if (!found) {
      auto e = make_error(ErrorCode::invalid_value, "--closed-morph: the model has no morph named '" + a.closed_morph + "'", "morphs");
      return report_error(s.err, e.error(), model_path);
    }
    morphs->morph[5] = found;
  }

  const std::string ext = lower_extension(input);
  const bool score_input = ext == ".ust" || ext == ".vsqx" || ext == ".vsq3" || ext == ".vsq4" || ext == ".lab";
  Result<vmd::Motion> motion = make_error(ErrorCode::invalid_value, "no input");
  std::string what;
  if (score_input) {
    auto bytes = read_input(input, s.in);
    if (!bytes) return report_error(s.err, bytes.error(), input);
    auto score = motion::read_score(ByteSpan(bytes->data(), bytes->size()), ext);
    if (!score) return report_error(s.err, score.error(), input);
    for (const std::string& w : score->warnings) warn(input, w);
    motion::ScoreLipOptions so;
    so.fps = fps;
    so.gain = a.gain;
    so.lead_ms = a.lead_ms;
    auto keys = motion::score_keys(*score, so);
    if (!keys) return report_error(s.err, keys.error(), input);
    motion::LipMotionReport r;
    motion = motion::lipsync_motion(*keys, *model, *morphs, &r);
    if (!motion) return report_error(s.err, motion.error(), input);
    std::size_t counts[7] = {};
    for (const auto& n : score->notes) ++counts[static_cast<int>(n.shape)];
    what = fmt::format("score: {} notes (a {} i {} u {} e {} o {}, closed {}, rest {}), lead {} ms; {} morph keys to frame {}",
                       score->notes.size(), counts[0], counts[1], counts[2], counts[3], counts[4], counts[5], counts[6],
                       a.lead_ms, r.keys, last_key_frame(*motion));
  } else {
#if MMDKIT_HAS_RENDER
    auto samples = render::decode_audio_mono(fs::path(input), static_cast<int>(motion::kLipSampleRate));
    if (!samples) return report_error(s.err, samples.error(), input);
    motion::AudioLipOptions ao;
    ao.fps = fps;
    ao.gain = a.gain;
    ao.smooth = a.smooth;
    ao.blend = a.blend;
    motion::AudioLipReport ar;
    auto track = motion::analyze_audio(*samples, motion::kLipSampleRate, ao, &ar);
    if (!track) return report_error(s.err, track.error(), input);
    if (ar.silent) {
      if (!quiet)
        s.err << diagnostic_line(Diagnostic::note, input + ": the audio is silent (no frame reaches -60 dBFS): the mouth stays closed");
    } else if (ar.voice_energy_fraction < motion::kPoorVoiceFraction) {
      warn(input, fmt::format("only {:.0f}% of the audio's energy looks like a voice (voiced, with formants): a full mix or "
                              "noise gives a poor lip sync; use the separated vocals",
                              100 * ar.voice_energy_fraction));
    }
    motion::LipMotionOptions lo;
    lo.tol_weight = a.tol_weight;
    motion::LipMotionReport r;
    motion = motion::lipsync_motion(*track, *model, *morphs, lo, &r);
    if (!motion) return report_error(s.err, motion.error(), input);
    what = fmt::format("audio: {} frames, {} voiced, {} open (a {} i {} u {} e {} o {}), voice-like {:.0f}%, formant scale {:.2f}; "
                       "{} morph keys (from {}), max error {:.3g}",
                       ar.frames, ar.voiced_frames, ar.open_frames, ar.vowel_frames[0], ar.vowel_frames[1], ar.vowel_frames[2],
                       ar.vowel_frames[3], ar.vowel_frames[4], 100 * ar.voice_energy_fraction, ar.voice_scale, r.keys,
                       r.dense_keys, r.max_weight_error);
#else
    auto e = make_error(ErrorCode::unsupported,
                        "audio input needs FFmpeg, which this build does not have (MMDKIT_WITH_RENDER=OFF); give a score "
                        "(.ust, .vsqx, .lab)");
    return report_error(s.err, e.error(), input);
#endif
  }

  Result<std::vector<std::uint8_t>> bytes = std::vector<std::uint8_t>{};
  if (lower_extension(output) == ".json") {
    const std::string text = vmd::to_json(*motion);
    bytes->assign(text.begin(), text.end());
  } else {
    bytes = vmd::write(*motion);
  }
  if (!bytes) return report_error(s.err, bytes.error(), output);
  std::vector<fs::path> inputs{fs::path(input), fs::path(model_path)};
  if (!map.empty()) inputs.emplace_back(map);
  if (auto r = write_output(output, ByteSpan(bytes->data(), bytes->size()), inputs, force, s.out); !r)
    return report_error(s.err, r.error(), output);
  summary(s.err, quiet, name,
          "wrote " + (is_std_stream(output) ? std::string("the standard output") : output) + " (" + what + ", " +
              std::to_string(bytes->size()) + " bytes)");
  return kExitOk;
}

}  // namespace mmdkit::cli
