// mmdkit CLI — physics options (physics_option.hpp).
#include "cli/physics_option.hpp"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <cmath>
#include <iostream>
#include <optional>
#include <sstream>
#include <string>

#include "cli/messages.hpp"
#include "cli/progress.hpp"

#include "mmdkit/version.hpp"
#if MMDKIT_HAS_PHYSICS
#include "mmdkit/physics/character_physics.hpp"
#endif

namespace mmdkit::cli {

namespace {
// Used only with the physics layer; [[maybe_unused]] keeps a MMDKIT_WITH_PHYSICS=OFF build
// (warnings as errors) building.
[[maybe_unused]] std::string format_double(double v) {
  std::ostringstream o;
  o << v;
  return o.str();
}
}  // namespace

void declare_physics_options(CLI::App& sub, PhysicsArgs& a) {
  sub.add_flag("--physics", a.on,
               "simulate the model's rigid bodies and joints (frames from a run from frame 0; whole frames; docs/PHYSICS.md)");
  sub.add_option("--physics-fps", a.fps, "physics steps per second with --physics: 60 (default), 120 or 240");
  declare_verbose_flag(sub, a.verbose);
}

void declare_verbose_flag(CLI::App& sub, bool& verbose) {
  sub.add_flag("--verbose", verbose,
               "print every physics warning on a line of its own (default: one line per kind, naming the first records)");
}

std::string physics_usage_problem(const PhysicsArgs& a) {
  if (a.fps != 60 && a.fps != 120 && a.fps != 240)
    return "--physics-fps must be 60, 120 or 240, not " + std::to_string(a.fps);
#if !MMDKIT_HAS_PHYSICS
  if (a.on) return "--physics: this mmdkit was built without the physics layer (MMDKIT_WITH_PHYSICS=OFF)";
#endif
  return {};
}

CatchUpProgress::CatchUpProgress(std::ostream& err, bool quiet) : err_(&err), mode_(progress_mode(err, quiet)) {}

std::uint32_t CatchUpProgress::begin(std::int64_t before, std::uint64_t total) {
  before_ = before;
  // Progress (progress.hpp's rule) for a run with more than a second of frames left to simulate.
  if (mode_ != ProgressMode::off && !bar_ && total > static_cast<std::uint64_t>(before) + 30)
    bar_.emplace(*err_, total, mode_, "mmdkit physics", "frames");
  return 10;
}

void CatchUpProgress::report(std::uint32_t done, std::uint32_t todo) {
  (void)todo;
  if (bar_) bar_->update(static_cast<std::uint64_t>(before_) + done);
}

void CatchUpProgress::end(std::uint32_t frame, std::uint64_t total, std::size_t warnings) {
  if (!bar_) return;
  bar_->update(std::min<std::uint64_t>(std::uint64_t{frame} + 1, total));
  if (std::uint64_t{frame} + 1 >= total) {
    bar_->clear();
    bar_.reset();
  } else if (warnings > 0) {
    bar_->clear();
  }
}

#if MMDKIT_HAS_PHYSICS
struct FrameEvaluator::Impl {
  physics::CharacterPhysics physics;
  Impl(anim::Character& c, const physics::Settings& s) : physics(c, s) {}
};
#else
struct FrameEvaluator::Impl {};
#endif

std::string physics_warning_line(const std::string& model_file, const std::string& warning) {
  return diagnostic_line(Diagnostic::warning, model_file + ": physics: " + warning);
}

namespace {
std::string record_label(const PhysicsNote& n) {
  std::string s;
  if (n.record >= 0) s += std::to_string(n.record);
  if (!n.name.empty()) s += (s.empty() ? "'" : " '") + n.name + "'";
  return s;
}
// A message's kind: its words with every run of digits as '#' ("joins rigid body 35 to itself"
// and "... 36 ..." are one kind).
std::string kind_of(const std::string& message) {
  std::string k;
  for (std::size_t i = 0; i < message.size(); ++i) {
    if (message[i] >= '0' && message[i] <= '9') {
      if (k.empty() || k.back() != '#') k += '#';
    } else {
      k += message[i];
    }
  }
  return k;
}

}  // namespace

std::string physics_warning_lines(std::span<const PhysicsNote> notes, bool verbose) {
  std::string out;
  std::vector<bool> done(notes.size(), false);
  for (std::size_t i = 0; i < notes.size(); ++i) {
    if (done[i]) continue;
    const PhysicsNote& n = notes[i];
    const std::string kind = kind_of(n.message);
    std::vector<std::size_t> same{i};
    bool alike = true;  // every message of the group word for word
    if (!verbose)
      for (std::size_t j = i + 1; j < notes.size(); ++j)
        if (!done[j] && notes[j].file == n.file && notes[j].section == n.section && kind_of(notes[j].message) == kind) {
          same.push_back(j);
          alike = alike && notes[j].message == n.message;
        }
    for (std::size_t j : same) done[j] = true;
    std::string what = n.section;
    for (std::size_t k = 0; k < same.size() && k < kShownRecords; ++k) {
      const std::string label = record_label(notes[same[k]]);
      if (!label.empty()) what += (k == 0 ? " " : ", ") + label;
    }
    if (same.size() > kShownRecords)
      what += " and " + std::to_string(same.size() - kShownRecords) + " more (--verbose lists them)";
    // Messages that differ in their numbers: the kind, numbers as N ("joins rigid body N to itself").
    std::string message = n.message;
    if (!alike) {
      message.clear();
      for (char c : kind) message += c == '#' ? std::string("N") : std::string(1, c);
    }
    out += physics_warning_line(n.file, what + ": " + message);
  }
  return out;
}

FrameEvaluator::FrameEvaluator(anim::Character& character, const PhysicsArgs& a, std::ostream& err, bool quiet,
                               std::string model_file)
    : character_(&character),
      err_(&err),
      quiet_(quiet),
      model_file_(std::move(model_file)),
      verbose_(a.verbose),
      progress_(err, quiet),
      samples_per_frame_(std::max<std::uint32_t>(1, a.samples_per_frame)) {
#if MMDKIT_HAS_PHYSICS
  if (a.on) {
    physics::Settings settings;
    settings.steps_per_second = a.fps;
    impl_ = std::make_unique<Impl>(character, settings);
  }
#else
  (void)a;
#endif
}

FrameEvaluator::~FrameEvaluator() = default;

void FrameEvaluator::set_first_frame(std::uint32_t frame) noexcept {
  first_frame_ = frame;
#if MMDKIT_HAS_PHYSICS
  if (impl_) impl_->physics.set_first_frame(frame);
#endif
}

void FrameEvaluator::print_new_warnings() {
#if MMDKIT_HAS_PHYSICS
  if (!impl_) return;
  const auto warnings = impl_->physics.warnings();
  std::vector<PhysicsNote> notes;
  for (; warnings_shown_ < warnings.size(); ++warnings_shown_) {
    const physics::Warning& w = warnings[warnings_shown_];
    notes.push_back({model_file_, w.section, w.record, w.name, w.message});
  }
  if (!quiet_) *err_ << physics_warning_lines(notes, verbose_);
#endif
}

Result<void> FrameEvaluator::evaluate(double frame) {
#if MMDKIT_HAS_PHYSICS
  if (impl_) {
    const double n = static_cast<double>(samples_per_frame_);
    const double sample = frame * n;
    if (!std::isfinite(frame) || frame < 0 || sample != std::floor(sample) || frame > 4294967295.0)
      return make_error(ErrorCode::invalid_argument,
                        "frame " + format_double(frame) + ": with --physics frames must be " +
                            (samples_per_frame_ == 1 ? std::string("whole frames (30 fps)")
                                                     : "multiples of 1/" + std::to_string(samples_per_frame_) + " frame"));
    Impl& im = *impl_;
    const auto f = static_cast<std::uint32_t>(frame);
    // Frames simulated so far of the run (frame F is frame F + 1 of a run from 0).
    const std::uint64_t total = std::max<std::int64_t>(run_last_, f) + 1;
    const std::int64_t before = im.physics.last_frame() < f ? im.physics.last_frame() + 1 : first_frame_;
    const std::uint32_t every = progress_.begin(before, total);
    const auto report = [this](std::uint32_t done, std::uint32_t todo) { progress_.report(done, todo); };
    auto r = samples_per_frame_ == 1
                 ? im.physics.evaluate(f, report, every)
                 : im.physics.evaluate_sample(static_cast<std::uint64_t>(sample), samples_per_frame_, report, every);
    progress_.end(f, total, impl_->physics.warnings().size() - warnings_shown_);
    print_new_warnings();
    return r;
  }
#endif
  return character_->evaluate(frame);
}

}  // namespace mmdkit::cli
