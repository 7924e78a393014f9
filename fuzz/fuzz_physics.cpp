// libFuzzer target: physics from arbitrary PMD / PMX bytes (fuzz/physics_check.hpp: build the world,
// step a few animated frames, no crash, no NaN physics puts into an output). Run with
// scripts/fuzz.sh fuzz_physics; crashing inputs go to tests/regress/inputs/fuzz_physics/.
#include <cstddef>
#include <cstdint>

#include "roundtrip.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return mmdkit::fuzz::run_one("physics", data, size);
}
