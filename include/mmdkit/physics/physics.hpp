// mmdkit — rigid-body physics of MMD models (hair, skirts, sleeves, accessories), Jolt style:
// Settings → World → per-model ModelPhysics. The engine is Bullet (Debian libbullet-dev 3.24,
// single precision, btDiscreteDynamicsWorld + sequential impulse solver); Bullet stays out of this
// header. Every rule, default and source is in docs/PHYSICS.md.
//
// Space and units (docs/CONVENTIONS.md): MMD's left-handed Y-up model space, MMD units, seconds,
// radians; gravity in MMD units / s²; mass as stored (unitless); quaternions (x, y, z, w).
//
// One frame (30 fps) of N models:
//   for each model: anim::evaluate_before_physics(...) then  model_physics.set_targets(ws, off);
//   world.step_frame()           (or world.reset() at the first frame / after a seek)
//   for each model: model_physics.write_bones(ws) then anim::evaluate_after_physics(...).
// set_targets reads the bones evaluated before physics: kinematic bodies (mode 0, and bodies of
// bones whose motion switches physics off at this frame) move from their previous target to the
// new one over the substeps (linear position, slerp rotation, so they carry a velocity).
// write_bones writes the bones of simulated bodies back (mode 1: bone = body × offset⁻¹; mode 2:
// rotation from the body, the animated translation kept) and recomputes their non-physics
// descendants of the stage before physics.
//
// Same inputs on the same build → bit-identical outputs (no threads, no random order; a reset
// rebuilds the Bullet world from scratch, so a reset at frame N equals a fresh start at N).
// After reset(), step_frame / set_targets / write_bones allocate nothing, Bullet included: reset()
// grows Bullet's arrays to the most this world can need (worlds of up to 1024 bodies;
// docs/PHYSICS.md "Allocation"; tests/physics/alloc_test.cpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "mmdkit/core/math.hpp"

namespace mmdkit::model {
struct Model;
}
namespace mmdkit::anim {
class Skeleton;
class PoseWorkspace;
}  // namespace mmdkit::anim

namespace mmdkit::physics {

/// MMD's gravity: 9.8 × 10 MMD units / s² downwards (saba, three.js, babylon-mmd; docs/PHYSICS.md).
inline constexpr Vec3 kMmdGravity{0.0f, -98.0f, 0.0f};

/// World settings (all defaults documented in docs/PHYSICS.md with their sources).
struct Settings {
  Vec3 gravity = kMmdGravity;              ///< MMD units / s²
  /// Fixed steps per second: 30, 60, 120 or 240 (a whole number of substeps per 30 fps frame);
  /// other values are rounded up to the next of these. Default 60 (babylon-mmd, nanoem).
  std::uint32_t steps_per_second = 60;
  std::uint32_t solver_iterations = 10;    ///< Bullet's default; MMDAI uses 10 at 60 Hz
  bool floor = false;                      ///< static plane y = 0 that every body collides with
  /// Steps run by reset() with the kinematic bodies held at their bones, so that hair and skirts
  /// settle under gravity before the first frame (default 1 s at 60 Hz; 0 = none).
  std::uint32_t warmup_steps = 60;
  /// A simulated body farther than this from its bone's target (MMD units), non-finite, or moving
  /// so fast that Bullet takes it out of the simulation (bounding box overflow), is put back on its
  /// bone with zero velocity and keeps simulating (reported once per body).
  float max_distance = 1000.0f;
  /// Spring 6DOF (and PMX 2.1 6DOF) joints without Bullet's frame offset
  /// (`setUseFrameOffset(false)`): the row layout of Bullet 2.75, the version MMD uses
  /// (babylon-mmd's `disableOffsetForConstraintFrame`), with each linear row pushing body A at A's
  /// own pivot (babylon-mmd's fix of that mode). Off by default: Bullet's frame offset, as
  /// babylon-mmd 1.3.0 (its default) and three.js run the joints; without it joints hold chains
  /// less tightly (docs/PHYSICS.md "Joints").
  bool bullet_275_joint_frames = false;
};

/// One problem found while building or running physics: the record and why (one sentence).
struct Warning {
  std::size_t model = 0;     ///< index of the model in the world
  std::string section;       ///< "rigid bodies", "joints", "soft bodies", "simulation"
  std::int64_t record = -1;  ///< index in the section, -1 = the section as a whole
  std::string name;          ///< the record's name (UTF-8), may be empty
  std::string message;
  /// "rigid bodies 3 '髪1': mass is NaN; 1 used".
  std::string to_string() const;
};

class World;

/// The physics of one model in a World (created by World::add_model; owned by the world).
class ModelPhysics {
 public:
  ModelPhysics(const ModelPhysics&) = delete;
  ModelPhysics& operator=(const ModelPhysics&) = delete;
  ~ModelPhysics();

  /// Reads the kinematic targets from the bones evaluated before physics (`ws` of the skeleton
  /// given to add_model). `physics_off` (per bone, may be shorter or empty = all on): bones whose
  /// motion key switches physics off at this frame; their bodies follow the bone like mode 0 and
  /// write_bones leaves the bone as animated. Never allocates.
  void set_targets(const anim::PoseWorkspace& ws, std::span<const std::uint8_t> physics_off = {}) noexcept;
  /// Writes the simulated bones into `ws` (PoseWorkspace::set_model_transform) and recomputes
  /// their descendants that are neither simulated nor after physics. Never allocates.
  void write_bones(anim::PoseWorkspace& ws) const noexcept;

  std::size_t body_count() const noexcept;
  std::size_t joint_count() const noexcept;
  /// The bones write_bones may write (bodies of mode 1 / 2 with a bone), ascending, no duplicates.
  std::span<const std::uint32_t> driven_bones() const noexcept;
  /// World transform of body `i` (model order) after the last step; identity before reset().
  void body_transform(std::size_t i, Quat& rotation, Vec3& position) const noexcept;
  /// Linear velocity of body `i`, MMD units / s.
  Vec3 body_linear_velocity(std::size_t i) const noexcept;

 private:
  friend class World;
  struct Impl;
  explicit ModelPhysics(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

/// A Bullet world holding any number of models.
class World {
 public:
  explicit World(const Settings& settings = {});
  ~World();
  World(World&&) noexcept;
  World& operator=(World&&) noexcept;

  const Settings& settings() const noexcept;
  /// Substeps per 30 fps frame (steps_per_second / 30).
  std::uint32_t substeps_per_frame() const noexcept;

  /// Adds a model (its rigid bodies and joints) built with `skeleton` (anim::build_skeleton of the
  /// same model). Bad records are repaired and reported in warnings() (never an error): NaN or
  /// negative mass / size / damping, zero-size shapes, joints naming missing bodies, bodies naming
  /// missing bones, inverted joint limits, unknown shape / mode / joint type; PMX 2.1 soft bodies are
  /// not simulated (one warning per model, section "soft bodies"). Takes effect at the next reset(). The reference stays valid as
  /// long as the world.
  ModelPhysics& add_model(const model::Model& model, const anim::Skeleton& skeleton);
  std::size_t model_count() const noexcept;
  ModelPhysics& model(std::size_t i) noexcept;

  /// Start or seek: (re)builds the Bullet world (growing its arrays once, see the file comment),
  /// places every body at its target (set_targets must have been called for every model) with zero
  /// velocity, then runs Settings::warmup_steps steps with kinematic bodies held still. Allocates.
  void reset();
  /// Simulates one 30 fps frame: substeps_per_frame() fixed steps, kinematic bodies interpolated
  /// from their previous to their new targets. Calls reset() when it never ran. Bodies that turn
  /// non-finite or fly beyond Settings::max_distance are put back (one warning per body). Never
  /// allocates after reset() (except that first warning of a body).
  void step_frame();
  /// Simulates `substeps` fixed steps (1 / steps_per_second s each) the way step_frame() does:
  /// kinematic bodies interpolated from their previous to their new targets over these steps,
  /// reset() first when it never ran, bodies put back as above. step_frame() is
  /// step_substeps(substeps_per_frame()); a half frame of 60 fps output at 60 steps / s is
  /// step_substeps(1). 0 does nothing.
  void step_substeps(std::uint32_t substeps);
  /// Changes the gravity (MMD units / s²) from the next step on (Settings::gravity; every body's
  /// too once the world is built), as MMD's gravity keys do. The same value changes nothing.
  void set_gravity(const Vec3& gravity) noexcept;
  /// Number of fixed steps run since the last reset (warm-up excluded).
  std::uint64_t steps() const noexcept;

  /// Everything reported so far (add_model and simulation), in order.
  std::span<const Warning> warnings() const noexcept;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace mmdkit::physics
