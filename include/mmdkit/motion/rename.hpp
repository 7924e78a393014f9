// mmdkit — `rename`: bone, morph and IK names of a motion replaced through a map
// (docs/MOTION.md "rename").
//
// Map file (UTF-8 text, LF or CRLF): one mapping per line, `OLD<TAB>NEW`; empty lines and lines
// starting with '#' are skipped; a UTF-8 byte-order mark at the start is skipped. Names are
// matched by their text (UTF-8, as decoded from the motion), exactly. A line without exactly one
// TAB, an empty OLD or NEW, or an OLD given twice is an error naming the line.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "mmdkit/core/error.hpp"
#include "mmdkit/formats/vmd.hpp"

namespace mmdkit::motion {

/// One mapping and the line it came from (1-based; 0 for mappings built in code).
struct NameMapping {
  std::string from, to;  ///< UTF-8
  std::size_t line = 0;
};
using NameMap = std::vector<NameMapping>;

/// Parses a map file's text (rules above). Errors: invalid_value with Error::record = the line
/// number (1-based) and section "map".
Result<NameMap> parse_name_map(std::string_view text);

/// How rename treats a name that lands on another track's name.
struct RenameOptions {
  /// false (default): refused (see rename). true: the tracks become one name; their keys are
  /// merged as MMD and the evaluator merge them (the later key in file order wins at a shared
  /// frame), each such merge listed in RenameReport::merged.
  bool merge = false;
};

/// What rename did.
struct RenameReport {
  std::size_t bone_names = 0;   ///< bone track names renamed
  std::size_t morph_names = 0;  ///< morph track names renamed
  std::size_t ik_names = 0;     ///< IK switches (property keys) renamed
  std::vector<std::string> unused;  ///< map entries that matched no name
  /// With RenameOptions::merge: one line per track merged into another, e.g. "bone track
  /// 'センター' merged into '上半身' (line 1)".
  std::vector<std::string> merged;
};

/// Every bone, morph and IK name equal to a mapping's `from` becomes its `to`, encoded in the
/// motion's encoding (names that match nothing are kept, bytes included).
///
/// Two tracks may not become one name: a mapping whose `to` is the name of another track of the
/// same kind (bone, morph, IK switch) that the map does not rename away, or two mappings with the
/// same `to` that both match, would merge the tracks' keys (MMD and the evaluator bind names by
/// their bytes up to the NUL, core/text.hpp binding_key, so the two entries of the name table act
/// as one track). That is refused (invalid_value, section "map", record = the map line, the
/// message naming both names and the line) unless `options.merge`. A name renamed away in the
/// same map frees its name: a swap (A -> B and B -> A) or a chain (A -> B, B -> C) is fine.
/// Other errors: encoding_error (a new name the encoding cannot hold), invalid_value (a new name
/// longer than the field: 15 bytes for bones and morphs, 20 for IK names), each naming the map
/// line.
Result<vmd::Motion> rename(const vmd::Motion& motion, const NameMap& map, RenameReport* report = nullptr,
                           const RenameOptions& options = {});

}  // namespace mmdkit::motion
