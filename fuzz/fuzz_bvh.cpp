// libFuzzer target: the BVH reader (motion/bvh.hpp). Any input parses or fails with an error,
// never crashes, hangs or allocates beyond the limits; a BVH that parses is written (17 digits)
// and read back to the same joints and values. Run with scripts/fuzz.sh fuzz_bvh; crashing inputs
// go to tests/regress/inputs/fuzz_bvh/.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "mmdkit/motion/bvh.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  auto bvh = mmdkit::motion::read_bvh(text);
  if (!bvh) return 0;
  auto out = mmdkit::motion::write_bvh(*bvh, {.digits = 17});
  if (!out) std::abort();  // the reader gives depth-first joints with a consistent channel layout
  auto back = mmdkit::motion::read_bvh(*out);
  if (!back) std::abort();
  if (back->joints.size() != bvh->joints.size() || back->values != bvh->values || back->frame_count != bvh->frame_count)
    std::abort();
  return 0;
}
