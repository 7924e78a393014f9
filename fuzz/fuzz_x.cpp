// libFuzzer target: the x properties of fuzz/roundtrip.cpp (check_x: parse; on success the
// parsed data is consistent and the model view keeps its safety contract). Run with scripts/fuzz.sh
// fuzz_x; crashing inputs go to tests/regress/inputs/fuzz_x/.
#include <cstddef>
#include <cstdint>

#include "roundtrip.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return mmdkit::fuzz::run_one("x", data, size);
}
