// .vac accessories and .x stages into the accessory entries they mean (description.hpp,
// resolve_accessory_files; docs/SCENE.md "Accessory files").
#include <array>
#include <cctype>
#include <fstream>
#include <string>

#include "mmdkit/formats/vac.hpp"
#include "mmdkit/scene/description.hpp"

namespace mmdkit::scene {

namespace fs = std::filesystem;

namespace {

std::string lower_extension(const fs::path& p) {
  std::string e = p.extension().string();
  for (char& c : e) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return e;
}

// A DirectX .x file: the .x extension or the signature "xof " (text, binary or compressed).
bool is_x_file(const fs::path& p) {
  if (lower_extension(p) == ".x") return true;
  std::ifstream in(p, std::ios::binary);
  std::array<char, 4> head{};
  return in.read(head.data(), head.size()) && std::string_view(head.data(), head.size()) == "xof ";
}

Error in_field(Error e, const std::string& field, const fs::path& file) {
  e.message = field + ": " + e.message;
  if (e.file.empty()) e.file = file.string();
  return e;
}

}  // namespace

Result<void> resolve_accessory_files(SceneDescription& d) {
  for (std::size_t i = 0; i < d.accessories.size(); ++i) {
    AccessoryEntry& a = d.accessories[i];
    if (!a.vac.empty() || lower_extension(a.file) != ".vac") continue;  // resolved already, or not a .vac
    const std::string field = "accessories[" + std::to_string(i) + "]";
    auto v = vac::read_file(a.file);
    if (!v) return std::unexpected(in_field(v.error(), field + ".file", a.file));
    const fs::path folder = a.file.has_parent_path() ? a.file.parent_path() : fs::path(".");
    auto x = vac::resolve_x_file(folder, *v);
    if (!x) return std::unexpected(in_field(x.error(), field + ".file", a.file));
    if (!(v->scale > 0.0f)) {
      Error e = make_error(ErrorCode::invalid_value,
                           field + ".file: the .vac's scale (line 3) must be > 0 in a scene, not " + std::to_string(v->scale),
                           "scene")
                    .error();
      e.file = a.file.string();
      e.line = 3;
      return std::unexpected(e);
    }
    const std::string bone = a.bone.empty() ? v->bone : a.bone;
    if (bone.empty() && a.model) {
      Error e = make_error(ErrorCode::json_schema, field + ".bone: required with 'model' (the .vac names no bone)", "scene").error();
      e.file = a.file.string();
      return std::unexpected(e);
    }
    a.vac = a.file;
    a.file = *x;
    a.placement = Placement{v->position, v->rotation_degrees, v->scale};
    a.bone = bone;
    if (!bone.empty() && !a.model) a.model = 0;
  }
  if (d.stage && is_x_file(d.stage->file)) {
    AccessoryEntry a;
    a.file = d.stage->file;
    a.placement = d.stage->placement;
    a.stage = true;
    d.accessories.push_back(std::move(a));
    d.stage.reset();
  }
  return {};
}

}  // namespace mmdkit::scene
