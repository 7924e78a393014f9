// mmdkit — a frame of a motion as a VPD pose, and a VPD pose as a one-key motion
// (docs/MOTION.md "vpd").
//
// A VPD bone holds what a VMD bone key holds: a translation offset from the bind pose and a
// rotation, in the bone's parent space (vpd.hpp); a VPD morph a weight. So:
//   - pose_from_motion evaluates the motion on the model through anim::Character at `frame`
//     (30 fps, fractional allowed) and writes, for every model bone and morph that a track of the
//     motion drives, the SAMPLED KEY POSE (Character::key_pose(): before append, IK and bone
//     morphs, which MMD applies again when it loads the pose) and the morph weight. Names are
//     the model's (whole names, not cut to 15 bytes), in model order.
//   - motion_from_pose makes one key per VPD bone and morph on `frame`, linear curves; names are
//     the VPD's bytes cut to the 15-byte VMD field (the bytes MMD binds by, mmdkit::binding_key).
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "mmdkit/core/error.hpp"
#include "mmdkit/formats/vmd.hpp"
#include "mmdkit/formats/vpd.hpp"

namespace mmdkit::model {
struct Model;
}

namespace mmdkit::motion {

/// Options of pose_from_motion.
struct PoseFromMotionOptions {
  double frame = 0;         ///< frame to evaluate (30 fps), finite, ≥ 0
  std::string model_file;   ///< the VPD's parent model file name (e.g. "model.pmx"; UTF-8)
  bool ik = true;           ///< false: IK off (no effect on the key pose; kept for symmetry with `pose`)
};

/// The pose at `frame` (rules above). Errors: invalid_argument (a non-finite or negative frame);
/// anim::CharacterData::create's errors.
Result<vpd::Pose> pose_from_motion(std::shared_ptr<const model::Model> model, const vmd::Motion& motion,
                                   const PoseFromMotionOptions& options);

/// A motion with one key per bone and morph of `pose` on `frame` (rules above). The model name is
/// the pose's parent file name without its extension, cut to 20 bytes. Errors: encoding_error (a
/// name built in code that CP932 cannot hold).
Result<vmd::Motion> motion_from_pose(const vpd::Pose& pose, std::uint32_t frame = 0);

}  // namespace mmdkit::motion
