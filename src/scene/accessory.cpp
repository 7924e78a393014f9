// Reading accessories (accessory.hpp): the seam where DirectX .x plugs in.
#include "mmdkit/scene/accessory.hpp"

#include <algorithm>
#include <cctype>
#include <string>

#include "mmdkit/anim/input_files.hpp"
#include "mmdkit/core/file.hpp"
#include "mmdkit/model/accessory.hpp"
#include "mmdkit/model/model.hpp"

namespace mmdkit::scene {

namespace {
// A DirectX .x file starts with "xof " (text, binary or compressed); a .vac is text lines whose
// second names a .x file: both are told apart from PMX / PMD (which have their own signatures)
// by the signature or the extension.
bool looks_like_x_or_vac(const std::filesystem::path& path, ByteSpan bytes) {
  if (bytes.size() >= 4 && bytes[0] == 'x' && bytes[1] == 'o' && bytes[2] == 'f' && bytes[3] == ' ') return true;
  std::string ext = path.extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return ext == ".x" || ext == ".vac";
}
}  // namespace

Result<AccessoryModel> load_accessory(const std::filesystem::path& path, std::vector<Warning>& warnings) {
  auto bytes = read_file(path);
  if (!bytes) {
    Error e = bytes.error();
    if (e.file.empty()) e.file = path.string();
    return std::unexpected(e);
  }
  const ByteSpan span(bytes->data(), bytes->size());
  if (looks_like_x_or_vac(path, span)) {  // before detect_format, which knows .x too
    std::string ext = path.extension().string();
    std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    if (ext == ".vac") {
      Error e = make_error(ErrorCode::unsupported,
                           "a .vac is a placement, not a mesh: a scene reads it into its .x file, placement and bone "
                           "(scene::resolve_accessory_files, done by Scene::load)",
                           "header")
                    .error();
      e.file = path.string();
      return std::unexpected(e);
    }
    // DirectX .x: the accessory model view of model/accessory.hpp (MMD's ×10 baked into the
    // vertices, accessory shading).
    auto m = model::load_x(span);
    if (!m) {
      Error e = m.error();
      if (e.file.empty()) e.file = path.string();
      return std::unexpected(e);
    }
    if (m->name.empty()) m->name = path.filename().string();
    AccessoryModel a;
    a.accessory_shading = m->shading == model::Shading::accessory;
    a.unit_scale = 1.0f;  // from_x already applied model::kAccessoryScale
    a.model = std::make_shared<const model::Model>(std::move(*m));
    return a;
  }
  std::vector<Warning> w;
  auto m = anim::read_model(span, anim::InputOptions{}, w);
  for (Warning& x : w) {
    if (x.file.empty()) x.file = path.string();
    warnings.push_back(std::move(x));
  }
  if (!m) {
    Error e = m.error();
    if (e.file.empty()) e.file = path.string();
    return std::unexpected(e);
  }
  AccessoryModel a;
  a.model = std::make_shared<const model::Model>(std::move(*m));
  return a;
}

}  // namespace mmdkit::scene
