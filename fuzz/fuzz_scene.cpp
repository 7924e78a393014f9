// libFuzzer target: the scene file parser (scene/description.hpp parse_scene): any bytes either
// parse into a description whose every path stays inside the scene's folder (or is absolute), or
// give an error naming where; never a crash, hang or huge allocation. Run with scripts/fuzz.sh
// fuzz_scene; crashing inputs go to tests/regress/inputs/fuzz_scene/.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "mmdkit/scene/description.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const std::filesystem::path folder("/scene");
  auto s = mmdkit::scene::parse_scene(text, folder);
  if (!s) {
    if (s.error().message.empty()) std::abort();  // every error says why
    return 0;
  }
  if (s->models.empty()) std::abort();
  for (const auto& f : mmdkit::scene::scene_files(*s)) {
    // A relative path was resolved into the folder and never leaves it.
    if (!f.path.is_absolute()) std::abort();
    const auto norm = f.path.lexically_normal();
    const bool inside = norm.string().rfind("/scene/", 0) == 0;
    if (!inside && f.path.string().rfind("/scene/", 0) == 0) std::abort();
  }
  for (const auto& a : s->accessories)
    if (a.model && *a.model >= s->models.size()) std::abort();
  return 0;
}
