// mmdkit — `merge`: two motions into one, track by track (docs/MOTION.md "merge").
//
// Tracks are matched the way MMD binds them: bone and morph tracks by their name bytes up to the
// first NUL, cut to 15 bytes (mmdkit::binding_key; names of `b` in another encoding than `a`'s are
// re-encoded from their text first); camera, light, self-shadow and property keys each form one
// track. Conflict rule: where both motions key the same track on the same frame, B's key wins
// and A's keys there are dropped (the rule the evaluator uses for several motions, later wins,
// anim/binding.hpp). A property key is one key (visibility and all its IK switches): B's replaces
// A's whole. Everything else is the union.
#pragma once

#include <cstddef>

#include "mmdkit/core/error.hpp"
#include "mmdkit/formats/vmd.hpp"

namespace mmdkit::motion {

/// What merge did.
struct MergeReport {
  std::size_t replaced = 0;  ///< keys of A dropped because B keys the same track on the same frame
  std::size_t new_bone_tracks = 0;   ///< bone names only B has
  std::size_t new_morph_tracks = 0;  ///< morph names only B has
};

/// A's header (version, signature, model name, encoding) and trailing bytes, A's names then the
/// names only B has; A's surviving keys in A's file order, then B's keys in B's order.
/// sections_present = the larger of the two. Errors: invalid_argument (a key's name index out of
/// range in either motion, naming the section and record); encoding_error (a name of B that A's
/// encoding cannot hold).
Result<vmd::Motion> merge(const vmd::Motion& a, const vmd::Motion& b, MergeReport* report = nullptr);

}  // namespace mmdkit::motion
