// The physics of a whole scene in one world (scene_physics.hpp, simulation.hpp).
#include "mmdkit/physics/scene_physics.hpp"

#include <string>

#include "mmdkit/model/model.hpp"
#include "simulation.hpp"

namespace mmdkit::physics {

Result<std::unique_ptr<ScenePhysics>> ScenePhysics::create(scene::Scene& scene, const Settings& settings) {
  std::unique_ptr<ScenePhysics> p(new ScenePhysics());
  // The scene's physics ground and gravity (SceneDescription::physics_ground, gravity).
  Settings s = settings;
  if (scene.description().physics_ground) s.floor = true;
  if (!scene.description().gravity.empty()) s.gravity = scene.gravity(0.0);
  p->run_ = std::make_unique<detail::Simulation>(s, &scene);
  for (std::size_t i = 0; i < scene.character_count(); ++i) {
    anim::Character& c = scene.character(i);
    const bool bodies = !c.data().model().rigid_bodies.empty();
    if (bodies && scene.character_placement_values(i).scale != 1.0f)
      return make_error(ErrorCode::invalid_argument,
                        scene.character_field(i) + ".scale: a model with rigid bodies must have scale 1 with physics "
                                                   "(rigid bodies do not scale)",
                        "scene");
    p->run_->add(c, bodies);
  }
  return p;
}

ScenePhysics::~ScenePhysics() = default;

std::size_t ScenePhysics::body_count() const noexcept { return run_->body_count(); }

const ModelPhysics* ScenePhysics::character_physics(std::size_t i) const noexcept { return run_->model(i); }

std::span<const Warning> ScenePhysics::warnings() const noexcept { return run_->warnings(); }

std::int64_t ScenePhysics::last_frame() const noexcept { return run_->last_sample(); }

Result<void> ScenePhysics::evaluate(std::uint32_t frame, const Progress& progress, std::uint32_t progress_every) {
  return run_->evaluate_sample(frame, 1, progress, progress_every);
}

Result<void> ScenePhysics::evaluate_sample(std::uint64_t index, std::uint32_t per_frame, const Progress& progress,
                                           std::uint32_t progress_every) {
  return run_->evaluate_sample(index, per_frame, progress, progress_every);
}

}  // namespace mmdkit::physics
