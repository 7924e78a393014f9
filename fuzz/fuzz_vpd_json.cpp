// libFuzzer target: the vpd_json properties of fuzz/roundtrip.hpp (parse; on success write, read back
// and compare). Run with scripts/fuzz.sh fuzz_vpd_json; crashing inputs go to tests/regress/inputs/fuzz_vpd_json/.
#include <cstddef>
#include <cstdint>

#include "roundtrip.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return mmdkit::fuzz::run_one("vpd_json", data, size);
}
