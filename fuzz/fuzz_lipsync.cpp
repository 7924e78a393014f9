// libFuzzer target: the lip-sync score readers (motion/lipsync.hpp: UST, VSQX, lab) and the keys
// of what they read. Any input parses or fails with an error, never crashes, hangs or allocates
// beyond the limits (the XML depth bound, kMaxLipFrames). Run with scripts/fuzz.sh fuzz_lipsync.
#include <cstddef>
#include <cstdint>
#include <cstdlib>

#include "mmdkit/motion/lipsync.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const mmdkit::ByteSpan bytes(data, size);
  for (auto parse : {&mmdkit::motion::parse_ust, &mmdkit::motion::parse_vsqx, &mmdkit::motion::parse_lab}) {
    auto score = parse(bytes);
    if (!score) continue;
    for (const auto& n : score->notes)
      if (!(n.end >= n.start)) std::abort();  // the readers give ordered, non-negative lengths
    mmdkit::motion::ScoreLipOptions o;
    o.fps = 1;  // keeps the per-frame track small for long scores
    auto keys = mmdkit::motion::score_keys(*score, o);
    if (!keys) continue;
    const auto track = mmdkit::motion::score_track(*keys);
    if (track.frames.size() != std::size_t{keys->last_frame} + 1) std::abort();
  }
  return 0;
}
