// The physics of a whole scene in one world (scene_physics.hpp).
#include "mmdkit/physics/scene_physics.hpp"

#include <algorithm>
#include <cstdint>
#include <string>

#include "mmdkit/model/model.hpp"

namespace mmdkit::physics {

namespace {

// Every bone's model transform through the rigid transform (q, t): world = q·x + t.
void transform_bones(anim::PoseWorkspace& ws, const Quat& q, const Vec3& t) noexcept {
  const auto rot = ws.model_rotations();
  const auto pos = ws.model_positions();
  for (std::size_t b = 0; b < ws.bone_count(); ++b) {
    const Vec3 p = quat_rotate(q, pos[b]);
    ws.set_model_transform(b, quat_multiply(q, rot[b]), {p[0] + t[0], p[1] + t[1], p[2] + t[2]});
  }
}

}  // namespace

Result<std::unique_ptr<ScenePhysics>> ScenePhysics::create(scene::Scene& scene, const Settings& settings) {
  std::unique_ptr<ScenePhysics> p(new ScenePhysics());
  p->scene_ = &scene;
  p->world_ = std::make_unique<World>(settings);
  for (std::size_t i = 0; i < scene.character_count(); ++i) {
    const anim::CharacterData& d = scene.character(i).data();
    p->off_.emplace_back(d.skeleton().bone_count(), 0);
    if (d.model().rigid_bodies.empty()) {
      p->models_.push_back(nullptr);
      continue;
    }
    if (scene.character_placement_values(i).scale != 1.0f)
      return make_error(ErrorCode::invalid_argument,
                        scene.character_field(i) + ".scale: a model with rigid bodies must have scale 1 with physics "
                                                   "(rigid bodies do not scale)",
                        "scene");
    p->models_.push_back(&p->world_->add_model(d.model(), d.skeleton()));
  }
  return p;
}

ScenePhysics::~ScenePhysics() = default;

std::size_t ScenePhysics::body_count() const noexcept {
  std::size_t n = 0;
  for (const ModelPhysics* m : models_)
    if (m) n += m->body_count();
  return n;
}

const ModelPhysics* ScenePhysics::character_physics(std::size_t i) const noexcept {
  return i < models_.size() ? models_[i] : nullptr;
}

std::span<const Warning> ScenePhysics::warnings() const noexcept { return world_->warnings(); }

Result<void> ScenePhysics::step(double f, bool reset, std::uint32_t substeps) {
  scene::Scene& s = *scene_;
  auto failed = [&](std::size_t i, Error e) {
    e.message = s.character_field(i) + ": " + e.message;
    return std::unexpected(e);
  };
  for (std::size_t i = 0; i < s.character_count(); ++i) {
    anim::Character& c = s.character(i);
    if (auto r = c.evaluate_before_physics(f); !r) return failed(i, r.error());
    if (!models_[i]) continue;
    const scene::Placement& pl = s.character_placement_values(i);
    anim::PoseWorkspace& ws = c.physics_pose();
    if (!pl.is_identity()) transform_bones(ws, scene::placement_rotation(pl), pl.position);
    std::vector<std::uint8_t>& off = off_[i];
    std::fill(off.begin(), off.end(), std::uint8_t{0});
    anim::sample_physics_off(c.data().bone_motion().bound(), f, off);
    models_[i]->set_targets(ws, off);
  }
  if (reset)
    world_->reset();
  else if (substeps == 0)
    world_->step_frame();
  else
    world_->step_substeps(substeps);
  for (std::size_t i = 0; i < s.character_count(); ++i) {
    anim::Character& c = s.character(i);
    if (models_[i]) {
      anim::PoseWorkspace& ws = c.physics_pose();
      models_[i]->write_bones(ws);
      const scene::Placement& pl = s.character_placement_values(i);
      if (!pl.is_identity()) {
        const Quat inv = quat_conjugate(scene::placement_rotation(pl));
        const Vec3 t = quat_rotate(inv, pl.position);
        transform_bones(ws, inv, {-t[0], -t[1], -t[2]});
      }
    }
    if (auto r = c.evaluate_after_physics(); !r) return failed(i, r.error());
  }
  s.update_attachments(f);
  return {};
}

Result<void> ScenePhysics::evaluate(std::uint32_t frame, const Progress& progress, std::uint32_t progress_every) {
  return evaluate_sample(frame, 1, progress, progress_every);
}

Result<void> ScenePhysics::evaluate_sample(std::uint64_t index, std::uint32_t per_frame, const Progress& progress,
                                           std::uint32_t progress_every) {
  const std::uint32_t substeps = world_->substeps_per_frame();
  if (per_frame == 0 || substeps % per_frame != 0)
    return make_error(ErrorCode::invalid_argument, std::to_string(per_frame) + " samples per frame: the world steps " +
                                                       std::to_string(substeps) +
                                                       " fixed steps per frame, which must be a multiple of it");
  if (last_ < 0 || per_frame != per_frame_ || static_cast<std::int64_t>(index) <= last_) last_ = -1;
  per_frame_ = per_frame;
  const std::uint32_t sub = per_frame == 1 ? 0 : substeps / per_frame;  // 0: World::step_frame, as always
  const std::uint64_t first = static_cast<std::uint64_t>(last_ + 1);
  const std::uint64_t total = index - first + 1;
  for (std::uint64_t i = first; i <= index; ++i) {
    const double frame = per_frame == 1 ? static_cast<double>(i) : static_cast<double>(i) / per_frame;
    if (auto r = step(frame, last_ < 0, sub); !r) {
      last_ = -1;
      return r;
    }
    last_ = static_cast<std::int64_t>(i);
    const std::uint64_t done = i - first + 1;
    if (progress && total > progress_every && done % progress_every == 0)
      progress(static_cast<std::uint32_t>(std::min<std::uint64_t>(done, UINT32_MAX)),
               static_cast<std::uint32_t>(std::min<std::uint64_t>(total, UINT32_MAX)));
  }
  return {};
}

}  // namespace mmdkit::physics
