// mmdkit fuzzing — the physics property (physics_check.hpp).
#include "physics_check.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "mmdkit/anim/pose.hpp"
#include "mmdkit/anim/skeleton.hpp"
#include "mmdkit/model/model.hpp"
#include "mmdkit/physics/physics.hpp"

namespace mmdkit::fuzz {

namespace {

/// Inputs above these counts are skipped: each run must stay short (Bullet's broadphase is
/// quadratic in overlapping bodies); the readers' targets still cover such files.
constexpr std::size_t kMaxBodies = 128, kMaxJoints = 256, kMaxBones = 2048;

bool finite(const Mat4& m) {
  for (float x : m)
    if (!std::isfinite(x)) return false;
  return true;
}

}  // namespace

std::string check_physics(ByteSpan in) {
  auto m = model::load(in, model::LoadOptions{.encoding = {}, .strict = false, .geometry = false});
  if (!m) return {};
  if (m->rigid_bodies.size() > kMaxBodies || m->joints.size() > kMaxJoints || m->bones.size() > kMaxBones) return {};
  auto sk = anim::build_skeleton(*m);
  if (!sk) return {};
  physics::Settings settings;
  settings.warmup_steps = 8;
  settings.floor = in.size() % 2 == 1;
  settings.steps_per_second = in.size() % 3 == 0 ? 120 : 60;
  physics::World world(settings);
  physics::ModelPhysics& mp = world.add_model(*m, *sk);
  if (mp.body_count() != m->rigid_bodies.size()) return "body_count() differs from the model's rigid body count";
  const std::size_t n = sk->bone_count();
  anim::PoseWorkspace ws(*sk), plain(*sk);
  std::vector<anim::BonePose> local(n);
  std::vector<std::uint8_t> ik(sk->ik_count(), 1), off(n, 0);
  for (int f = 0; f < kPhysicsFuzzFrames; ++f) {
    // Root bones turn about Y and swing along X; one bone switches physics off on frames 3-4.
    const float a = 0.35f * static_cast<float>(f);
    for (std::size_t b = 0; b < n; ++b) {
      local[b] = {};
      if (sk->parents()[b] < 0) {
        local[b].rotation = {0, std::sin(a / 2), 0, std::cos(a / 2)};
        local[b].translation = {2 * std::sin(a), 0, 0};
      }
    }
    std::fill(off.begin(), off.end(), std::uint8_t{0});
    if (n && (f == 3 || f == 4)) off[in.size() % n] = 1;
    const anim::PoseInput input{local, {}, ik};
    if (!anim::evaluate_before_physics(*sk, input, ws)) return "evaluate_before_physics failed on a built skeleton";
    mp.set_targets(ws, off);
    if (f == 0)
      world.reset();
    else
      world.step_frame();
    mp.write_bones(ws);
    if (!anim::evaluate_after_physics(*sk, input, ws)) return "evaluate_after_physics failed on a built skeleton";
    if (!anim::evaluate(*sk, input, plain)) return "evaluate failed on a built skeleton";
    const auto got = ws.model_matrices();
    const auto ref = plain.model_matrices();
    for (std::size_t b = 0; b < n; ++b)
      if (finite(ref[b]) && !finite(got[b]))
        return "frame " + std::to_string(f) + ": bone " + std::to_string(b) +
               " is finite without physics and not finite with physics";
    for (std::size_t i = 0; i < mp.body_count(); ++i) {
      Quat q;
      Vec3 p;
      mp.body_transform(i, q, p);
      for (float x : q)
        if (!std::isfinite(x)) return "frame " + std::to_string(f) + ": rigid body " + std::to_string(i) + " rotation not finite";
      for (float x : p)
        if (!std::isfinite(x)) return "frame " + std::to_string(f) + ": rigid body " + std::to_string(i) + " position not finite";
    }
  }
  std::vector<std::uint8_t> reported(mp.body_count(), 0);
  for (const physics::Warning& w : world.warnings()) {
    if (w.section.empty() || w.message.empty()) return "a physics warning without section or message: " + w.to_string();
    if (w.section == "simulation") {
      if (w.record < 0 || static_cast<std::size_t>(w.record) >= reported.size()) return "simulation warning without a body: " + w.to_string();
      if (reported[static_cast<std::size_t>(w.record)]++) return "a body reported twice: " + w.to_string();
    }
  }
  return {};
}

}  // namespace mmdkit::fuzz
