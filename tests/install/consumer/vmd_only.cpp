// One layer alone (mmdkit::vmd and what it needs): a generated motion round-trips byte for byte.
#include <mmdkit/formats/vmd.hpp>
#include <mmdkit/formats/vmd_generate.hpp>

#include <cstdio>

int main() {
  const auto bytes = mmdkit::vmd::write(mmdkit::vmd::generate({}));
  if (!bytes) return 1;
  const auto back = mmdkit::vmd::read(*bytes);
  if (!back) return 1;
  const auto again = mmdkit::vmd::write(back->motion);
  if (!again || *again != *bytes) return 1;
  std::printf("vmd round trip: %zu bytes\n", bytes->size());
  return 0;
}
