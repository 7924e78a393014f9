// libFuzzer target: the pmm properties of fuzz/roundtrip.hpp (parse; on success write and compare,
// and the JSON round trip; version-1 inputs are read with fixed model counts). Run with
// scripts/fuzz.sh fuzz_pmm; crashing inputs go to tests/regress/inputs/fuzz_pmm/.
#include <cstddef>
#include <cstdint>

#include "roundtrip.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return mmdkit::fuzz::run_one("pmm", data, size);
}
