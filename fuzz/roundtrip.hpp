// mmdkit fuzzing — the properties every reader must keep on any input, shared by the libFuzzer
// targets (fuzz/fuzz_<target>.cpp) and the crash-regression tests (tests/regress/), which replay
// every saved input in tests/regress/inputs/<target>/ through the same check.
//
// For a binary reader (vmd, pmd, pmx, vpd, pmm), `check` on input bytes B:
//  - read(B) fails: the Error must be well formed (non-empty message, offset in [-1, |B|]);
//  - read(B) succeeds: write(parsed) must succeed and give B back byte for byte (the readers keep
//    every byte, warnings or not); the JSON form must be lossless: write(from_json(to_json(parsed)))
//    == B; side parses (vmd::summarize, pmx skip_geometry) agree with the full parse on counts;
//    vmd::check must not crash.
// For a JSON importer (vmd_json, pmd_json, pmx_json, vpd_json), `check` on JSON text T:
//  - from_json(T) fails: well-formed Error (offset in [-1, |T|]);
//  - from_json(T) = M succeeds and write(M) = W1 succeeds: read(W1) must succeed and write again to
//    W1 exactly (write∘read is the identity on what write produces), and
//    write(from_json(to_json(M))) == W1 (JSON round trip of an imported document is lossless).
//    write(M) may legitimately fail (e.g. a name index out of range in hand-written JSON).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "mmdkit/core/bytes.hpp"

namespace mmdkit::fuzz {

/// One fuzz target: its name ("vmd", "pmx_json", ...) and the property check. `check` returns
/// an empty string when every property holds, else a one-paragraph description of the finding.
struct Target {
  std::string_view name;
  std::string (*check)(ByteSpan input);
};

/// Every target, in a fixed order: vmd, pmd, pmx, vpd, vmd_json, pmd_json, pmx_json, x, vac, pmm,
/// vpd_json (vpd_json only when mmdkit/formats/vpd_json.hpp exists), physics (physics_check.hpp;
/// only in builds with the physics layer, MMDKIT_FUZZ_HAVE_PHYSICS). x and vac have no writer:
/// their properties are in roundtrip.cpp (check_x, check_vac).
std::span<const Target> targets();

/// A target by name (with or without the "fuzz_" prefix); nullptr if unknown.
const Target* find_target(std::string_view name);

/// libFuzzer entry helper: runs the check, prints a finding to stderr and aborts (so that
/// libFuzzer keeps the input as a crash artifact). Always returns 0 otherwise.
int run_one(std::string_view target, const std::uint8_t* data, std::size_t size);

}  // namespace mmdkit::fuzz
