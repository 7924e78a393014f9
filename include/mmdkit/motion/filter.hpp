// mmdkit — `filter`: keep or drop tracks and sections of a motion (docs/MOTION.md "filter").
//
// Names are matched by their text (UTF-8 as decoded), exactly. Name tables are rebuilt with the
// names that still have keys, in their first order; keys keep their file order and values.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "mmdkit/core/error.hpp"
#include "mmdkit/formats/vmd.hpp"

namespace mmdkit::motion {

/// What to keep. A track is kept when it passes both its keep list (absent = every name) and its
/// drop list.
struct FilterOptions {
  std::optional<std::vector<std::string>> bones;   ///< keep only these bone tracks
  std::optional<std::vector<std::string>> morphs;  ///< keep only these morph tracks
  std::vector<std::string> drop_bones, drop_morphs;
  bool camera = true, light = true, self_shadow = true, property = true;  ///< keep these sections
};

/// What filter kept.
struct FilterReport {
  std::size_t bone_tracks = 0, morph_tracks = 0;  ///< tracks kept
  std::size_t keys_dropped = 0;
  std::vector<std::string> unmatched;  ///< names in the keep lists that the motion does not have
};

/// The motion with only the chosen tracks and sections. Errors: invalid_argument (a key's name
/// index out of range).
Result<vmd::Motion> filter(const vmd::Motion& motion, const FilterOptions& options, FilterReport* report = nullptr);

}  // namespace mmdkit::motion
