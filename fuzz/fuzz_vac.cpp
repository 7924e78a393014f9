// libFuzzer target: the vac properties of fuzz/roundtrip.cpp (check_vac: parse; on success the
// parsed data is consistent). Run with scripts/fuzz.sh
// fuzz_vac; crashing inputs go to tests/regress/inputs/fuzz_vac/.
#include <cstddef>
#include <cstdint>

#include "roundtrip.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return mmdkit::fuzz::run_one("vac", data, size);
}
