// The one physics run of characters in one world (simulation.hpp).
#include "simulation.hpp"

#include <algorithm>
#include <string>

#include "mmdkit/model/model.hpp"
#include "mmdkit/scene/scene.hpp"

namespace mmdkit::physics::detail {

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

Simulation::Simulation(const Settings& settings, scene::Scene* scene)
    : scene_(scene), world_(std::make_unique<World>(settings)) {}

ModelPhysics* Simulation::add(anim::Character& character, bool bodies) {
  const anim::CharacterData& d = character.data();
  ModelPhysics* m = bodies ? &world_->add_model(d.model(), d.skeleton()) : nullptr;
  members_.push_back({&character, m, std::vector<std::uint8_t>(d.skeleton().bone_count(), 0)});
  return m;
}

void Simulation::set_first_frame(std::uint32_t frame) noexcept {
  if (frame != first_frame_) last_ = -1;
  first_frame_ = frame;
}

std::size_t Simulation::body_count() const noexcept {
  std::size_t n = 0;
  for (const Member& m : members_)
    if (m.model) n += m.model->body_count();
  return n;
}

Result<void> Simulation::failed(std::size_t i, Error e) const {
  if (scene_) e.message = scene_->character_field(i) + ": " + e.message;
  return std::unexpected(std::move(e));
}

Result<void> Simulation::step(double f, bool reset, std::uint32_t substeps) {
  if (scene_ && scene_->has_outside_parents()) {
    // Outside parents: parents first, each model's applied in model space before any is placed.
    for (const std::size_t i : scene_->evaluation_order()) {
      if (auto r = members_[i].character->evaluate_before_physics(f); !r) return failed(i, r.error());
      scene_->apply_outside_parents(i, f);
    }
  } else {
    for (std::size_t i = 0; i < members_.size(); ++i)
      if (auto r = members_[i].character->evaluate_before_physics(f); !r) return failed(i, r.error());
  }
  for (std::size_t i = 0; i < members_.size(); ++i) {
    Member& m = members_[i];
    if (!m.model) continue;
    anim::PoseWorkspace& ws = m.character->physics_pose();
    if (scene_) {
      const scene::Placement& pl = scene_->character_placement_values(i);
      if (!pl.is_identity()) transform_bones(ws, scene::placement_rotation(pl), pl.position);
    }
    std::fill(m.off.begin(), m.off.end(), std::uint8_t{0});
    anim::sample_physics_off(m.character->data().bone_motion().bound(), f, m.off);
    m.model->set_targets(ws, m.off);
  }
  if (scene_ && !scene_->description().gravity.empty()) world_->set_gravity(scene_->gravity(f));
  if (reset)
    world_->reset();
  else if (substeps == 0)
    world_->step_frame();
  else
    world_->step_substeps(substeps);
  for (std::size_t i = 0; i < members_.size(); ++i) {
    Member& m = members_[i];
    if (m.model) {
      anim::PoseWorkspace& ws = m.character->physics_pose();
      m.model->write_bones(ws);
      if (scene_) {
        const scene::Placement& pl = scene_->character_placement_values(i);
        if (!pl.is_identity()) {
          const Quat inv = quat_conjugate(scene::placement_rotation(pl));
          const Vec3 t = quat_rotate(inv, pl.position);
          transform_bones(ws, inv, {-t[0], -t[1], -t[2]});
        }
      }
    }
    if (auto r = m.character->evaluate_after_physics(); !r) return failed(i, r.error());
  }
  if (scene_) scene_->update_attachments(f);
  return {};
}

Result<void> Simulation::evaluate_sample(std::uint64_t index, std::uint32_t per_frame, const Progress& progress,
                                         std::uint32_t progress_every) {
  const std::uint32_t substeps = world_->substeps_per_frame();
  if (per_frame == 0 || substeps % per_frame != 0)
    return make_error(ErrorCode::invalid_argument, std::to_string(per_frame) + " samples per frame: the world steps " +
                                                       std::to_string(substeps) +
                                                       " fixed steps per frame, which must be a multiple of it");
  const std::uint64_t start = static_cast<std::uint64_t>(first_frame_) * per_frame;
  if (index < start)
    return make_error(ErrorCode::invalid_argument, "sample " + std::to_string(index) +
                                                       " is before the first frame of the run (" +
                                                       std::to_string(first_frame_) + ")");
  // First call, a backward seek, the same sample again (evaluating it would step the world once
  // more) or another rate: start again from the first frame, so the result stays the sample of one run.
  if (last_ < 0 || per_frame != per_frame_ || static_cast<std::int64_t>(index) <= last_) last_ = -1;
  per_frame_ = per_frame;
  const std::uint32_t sub = per_frame == 1 ? 0 : substeps / per_frame;  // 0: World::step_frame, as always
  const std::uint64_t first = last_ < 0 ? start : static_cast<std::uint64_t>(last_ + 1);
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

}  // namespace mmdkit::physics::detail
