// libFuzzer target: the pmx properties of fuzz/roundtrip.hpp (parse; on success write, read back
// and compare). Run with scripts/fuzz.sh fuzz_pmx; crashing inputs go to tests/regress/inputs/fuzz_pmx/.
#include <cstddef>
#include <cstdint>

#include "roundtrip.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return mmdkit::fuzz::run_one("pmx", data, size);
}
