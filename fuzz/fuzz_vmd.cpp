// libFuzzer target: the vmd properties of fuzz/roundtrip.hpp (parse; on success write, read back
// and compare). Run with scripts/fuzz.sh fuzz_vmd; crashing inputs go to tests/regress/inputs/fuzz_vmd/.
#include <cstddef>
#include <cstdint>

#include "roundtrip.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return mmdkit::fuzz::run_one("vmd", data, size);
}
