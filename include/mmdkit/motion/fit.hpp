// mmdkit — `fit`: a motion made for one model adapted to another's proportions, after vmd_sizing
// (miu200521358/vmd_sizing; docs/MOTION.md "fit" gives the rule with its sources).
//
//  1. Leg-length ratios (vmd_sizing MServiceUtils.calc_leg_ik_ratio): with the bones 左足 (leg),
//     左ひざ (knee) and 左足首 (ankle) of both models,
//        xz = |ankle − leg|_to / |ankle − leg|_from,   y = (ankle − leg).y_to / (ankle − leg).y_from
//     (1 when a bone is missing or a length is 0). The translation keys of 全ての親, センター,
//     グルーブ, 左足ＩＫ, 右足ＩＫ, 左つま先ＩＫ, 右つま先ＩＫ, 左足IK親 and 右足IK親 become
//     (x·xz, y·y, z·xz) (vmd_sizing MoveService.adjust_move).
//  2. Arm rest-angle correction (vmd_sizing StanceService.calc_arm_stance / adjust_arm_stance):
//     for each side, the rest direction of the segments 腕→ひじ, ひじ→手首 and 手首→中指１ (or the
//     bone's tail when 中指１ is missing) is taken on both models; T_bone is the shortest-arc
//     rotation carrying the target's direction onto the source's. Then (Hamilton products,
//     rotations applied right to left, as VMD rotations compose: world = parent · local):
//        腕: r·T_腕     腕捩: T_腕⁻¹·r·T_腕     ひじ: T_腕⁻¹·r·T_ひじ
//        手捩: T_ひじ⁻¹·r·T_ひじ     手首: T_ひじ⁻¹·r·T_手首
//     so each posed segment points where it pointed on the source model (the twist bones turn
//     about the target's arm axis). Fingers follow the corrected wrist.
// Not done (vmd_sizing does, with options): centre Z / leg-IK X offsets from the toe vertices,
// stance corrections of shoulders, fingers and legs, arm-IK and collision avoidance.
#pragma once

#include <string>
#include <vector>

#include "mmdkit/core/error.hpp"
#include "mmdkit/formats/vmd.hpp"

namespace mmdkit::model {
struct Model;
}

namespace mmdkit::motion {

/// What to fit.
struct FitOptions {
  bool legs = true;  ///< step 1
  bool arms = true;  ///< step 2
};

/// What fit did.
struct FitReport {
  double xz_ratio = 1, y_ratio = 1;       ///< step 1's ratios
  std::vector<std::string> scaled;        ///< bone tracks whose translations were scaled
  std::vector<std::string> arm_corrected; ///< bone tracks whose rotations were corrected
  std::vector<std::string> notes;         ///< what could not be done and why (a missing bone)
};

/// The fitted motion (rules above); bones are found by name (UTF-8 text) in the models and the
/// motion. Errors: none beyond a name index out of range (invalid_argument).
Result<vmd::Motion> fit(const vmd::Motion& motion, const model::Model& from, const model::Model& to,
                        const FitOptions& options = {}, FitReport* report = nullptr);

}  // namespace mmdkit::motion
