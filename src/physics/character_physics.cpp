// Physics for one anim::Character: a one-character run (character_physics.hpp, simulation.hpp).
#include "mmdkit/physics/character_physics.hpp"

#include "simulation.hpp"

namespace mmdkit::physics {

CharacterPhysics::CharacterPhysics(anim::Character& character, const Settings& settings)
    : run_(std::make_unique<detail::Simulation>(settings, nullptr)) {
  run_->add(character, true);
}

CharacterPhysics::~CharacterPhysics() = default;

void CharacterPhysics::set_first_frame(std::uint32_t frame) noexcept { run_->set_first_frame(frame); }

Result<void> CharacterPhysics::evaluate(std::uint32_t frame, const Progress& progress, std::uint32_t progress_every) {
  return run_->evaluate_sample(frame, 1, progress, progress_every);
}

Result<void> CharacterPhysics::evaluate_sample(std::uint64_t index, std::uint32_t per_frame, const Progress& progress,
                                               std::uint32_t progress_every) {
  return run_->evaluate_sample(index, per_frame, progress, progress_every);
}

std::int64_t CharacterPhysics::last_frame() const noexcept { return run_->last_sample(); }

const ModelPhysics& CharacterPhysics::model_physics() const noexcept { return *run_->model(0); }

std::size_t CharacterPhysics::body_count() const noexcept { return run_->body_count(); }

std::span<const Warning> CharacterPhysics::warnings() const noexcept { return run_->warnings(); }

}  // namespace mmdkit::physics
