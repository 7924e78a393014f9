// Uses an installed mmdkit: a generated motion written and read back, a generated model loaded
// into the model view and posed by it. Prints one line; exit 0 only when every value is right.
#include <mmdkit/formats/pmx_generate.hpp>
#include <mmdkit/formats/vmd.hpp>
#include <mmdkit/formats/vmd_generate.hpp>
#include <mmdkit/model/model.hpp>
#include <mmdkit/version.hpp>

#include <cstdio>
#include <string_view>

int main() {
  if (mmdkit::kVersion != std::string_view(CONSUMER_EXPECTED_VERSION)) {
    std::printf("version %s != CMake package version %s\n", MMDKIT_VERSION_STRING, CONSUMER_EXPECTED_VERSION);
    return 1;
  }
  mmdkit::vmd::GenerateOptions g;
  g.bone_keys = 12;
  g.morph_keys = 3;
  const auto bytes = mmdkit::vmd::write(mmdkit::vmd::generate(g));
  if (!bytes) return std::printf("write: %s\n", bytes.error().to_string().c_str()), 1;
  const auto back = mmdkit::vmd::read(*bytes);
  if (!back) return std::printf("read: %s\n", back.error().to_string().c_str()), 1;
  if (back->motion.bone_keys.size() != 12 || back->motion.morph_keys.size() != 3) return 1;
  const auto pmx = mmdkit::pmx::generate({});
  if (!pmx) return std::printf("generate: %s\n", pmx.error().to_string().c_str()), 1;
  const auto model = mmdkit::model::from_pmx(*pmx);
  if (!model || model->bones.empty()) return 1;
  std::printf("mmdkit %s: %zu bone keys, %zu morph keys, %zu bones\n", MMDKIT_VERSION_STRING,
              back->motion.bone_keys.size(), back->motion.morph_keys.size(), model->bones.size());
  return 0;
}
