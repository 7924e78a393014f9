// mmdkit CLI — `from-keypoints`: 3D pose keypoints → VMD motion on a model (docs/KEYPOINTS.md).
//
//   mmdkit from-keypoints KEYPOINTS.npy|.npz|.json|.csv --layout h36m17|coco17|mediapipe33|smpl24
//                         --model MODEL -o OUT.vmd [--axes x,y,-z] [--scale S] [--fps 30]
//                         [--min-confidence 0.3] [--smooth [--min-cutoff HZ] [--beta B]]
//                         [--no-leg-ik] [--no-reduce | --reduce-deg D --reduce-units U] [--force]
//
// Exit codes: 0 ok, 1 bad input (array shape, joint count, a joint never valid, a model without
// the bones the method needs) or failed output, 2 usage (unknown layout, bad --axes).
#pragma once

#include "cli/command.hpp"

namespace mmdkit::cli {

/// The `from-keypoints` command of the command table.
extern const Command kFromKeypointsCommand;

}  // namespace mmdkit::cli
