// mmdkit — baking physics into a motion (`mmdkit bake`, docs/PHYSICS.md "Bake").
//
// The result is the input motion plus, on every frame of [first, last], a key for every bone that
// physics moves (local rotation and translation, linear curves), marked physics-off (interpolation
// bytes 2-3 = 63 0F) so that MMD plays them back instead of simulating. Sampling the baked motion
// WITHOUT physics gives the physics run of the input (tests/physics/bake_test.cpp). The run is the
// one of every command: an anim::Character of the model and motions evaluated through
// CharacterPhysics (character_physics.hpp) from frame 0, so the baked bones are those of
// `mmdkit sample --physics` (bone morphs keyed by the motion included: a baked bone that a bone
// morph moves is keyed without the morph's offset, which the playback adds back). Unlike
// nanoem's bake (hkrn/nanoem#663) bones are not transformed twice:
//  - a bone that appends (付与) from a baked bone is keyed too, its key compensating for the
//    source's new key, so its result is the one of the physics run;
//  - a "local" appender (PMX 0x80) of a bone physics moves is keyed the same way (its source's
//    model-space transform differs before and after physics);
//  - an IK solver whose IK bone (goal), effector or a link is moved by physics (written, or a
//    descendant of a written bone) or keyed is switched off over the range by property keys (and
//    switched back to the input's state after it); its links are keyed with IK's rotation.
// A fixed-axis bone whose baked rotation leaves its axis cannot be keyed exactly (a VMD key is
// projected onto the axis): it is keyed and listed in BakeResult::fixed_axis_loss, with a warning.
// Bones whose name is longer than 15 bytes in CP932 cannot be keyed in VMD: they are listed in
// BakeResult::unkeyable and left out.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "mmdkit/core/error.hpp"
#include "mmdkit/formats/vmd.hpp"
#include "mmdkit/physics/physics.hpp"

namespace mmdkit::anim {
class CharacterData;
}

namespace mmdkit::physics {

struct BakeOptions {
  Settings settings;                      ///< world settings (steps per second, floor, ...)
  std::uint32_t first = 0;                ///< first frame keyed (frames before it are still simulated)
  std::optional<std::uint32_t> last;      ///< last frame keyed; default the motions' last key frame
  /// bake's `progress` is called every this many frames simulated (frames done, frames to
  /// simulate) when the run is longer than that; 0 = never.
  std::uint32_t progress_every = 1000;
};

struct BakeResult {
  /// The first motion with the other motions' keys appended (later motions win at equal frames,
  /// as when they are bound together), the baked keys and the IK property keys.
  vmd::Motion motion;
  std::vector<std::string> unkeyable;     ///< UTF-8 names of physics bones that cannot be keyed
  /// UTF-8 names of keyed bones with a fixed axis whose baked rotation leaves the axis by more
  /// than 0.01° on some frame: a VMD key of such a bone is projected onto the axis when played
  /// back (anim::project_to_axis, anim/bone_math.hpp), so the playback differs from the physics run there. One
  /// warning each (section "bake", record = bone index) tells the frames and the worst angle.
  std::vector<std::string> fixed_axis_loss;
  std::vector<Warning> warnings;          ///< the physics warnings (model records, simulation) and the bake's
  std::size_t baked_bones = 0;            ///< bones keyed on every frame
  std::size_t switched_ik = 0;            ///< IK solvers switched off over the range
};

/// Called every BakeOptions::progress_every frames simulated: (frames done, frames to simulate).
using BakeProgress = std::function<void(std::uint32_t done, std::uint32_t total)>;

/// Bakes `motions` (at least one, VMD) on the model of `character`, which must have been created
/// from the model and exactly these motions (anim::CharacterData::create, no VPD pose): the
/// simulation evaluates a Character of it, the result starts from the motions themselves.
/// Errors: invalid_argument (no motion, a null character, first > last), Character::evaluate's.
Result<BakeResult> bake(const std::shared_ptr<const anim::CharacterData>& character,
                        std::span<const vmd::Motion* const> motions, const BakeOptions& options,
                        const BakeProgress& progress = {});

}  // namespace mmdkit::physics
