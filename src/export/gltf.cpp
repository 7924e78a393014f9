// mmdkit — glTF 2.0 export (gltf.hpp): assembles the document and writes GLB or .gltf.
#include "mmdkit/export/gltf.hpp"

#include <cmath>
#include <cstring>
#include <limits>

#include "export/gltf_internal.hpp"
#include "core/try.hpp"

namespace mmdkit::exporter {

namespace {

void put32(std::vector<std::uint8_t>& out, std::uint32_t v) {
  for (int i = 0; i < 4; ++i) out.push_back(static_cast<std::uint8_t>(v >> (8 * i)));
}

}  // namespace

Result<GltfOutput> write_gltf(const model::Model& model, const GltfAnimation* animation, const GltfOptions& options) {
  if (!(options.scale > 0) || !std::isfinite(options.scale))
    return make_error(ErrorCode::invalid_argument, "glTF export: scale must be a finite number > 0");
  if (model.bones.size() > 65535)
    return make_error(ErrorCode::limit_exceeded, "glTF export: more than 65535 bones (JOINTS_0 is 16-bit)", "bones");
  GltfOutput out;
  gltf::Document doc;
  gltf::write_materials(doc, model, options, out);
  MMDKIT_TRY_ASSIGN(auto parts, gltf::write_mesh(doc, model, options, out));
  if (animation != nullptr && animation->sample_count > 0)
    MMDKIT_TRY(gltf::write_animation(doc, model, parts, *animation, options, out.reduction));
  if (doc.buffer_size() > std::numeric_limits<std::uint32_t>::max() - 64)
    return make_error(ErrorCode::limit_exceeded, "glTF export: binary data larger than 4 GiB");

  std::string json = doc.json(options, !options.binary);
  if (!options.binary) {
    out.bytes.assign(json.begin(), json.end());
    return out;
  }
  while (json.size() % 4 != 0) json += ' ';
  const auto& bin = doc.bin();
  const std::size_t total = 12 + 8 + json.size() + (bin.empty() ? 0 : 8 + bin.size());
  if (total > std::numeric_limits<std::uint32_t>::max())
    return make_error(ErrorCode::limit_exceeded, "glTF export: GLB larger than 4 GiB");
  out.bytes.reserve(total);
  put32(out.bytes, 0x46546C67);  // "glTF"
  put32(out.bytes, 2);
  put32(out.bytes, static_cast<std::uint32_t>(total));
  put32(out.bytes, static_cast<std::uint32_t>(json.size()));
  put32(out.bytes, 0x4E4F534A);  // "JSON"
  out.bytes.insert(out.bytes.end(), json.begin(), json.end());
  if (!bin.empty()) {
    put32(out.bytes, static_cast<std::uint32_t>(bin.size()));
    put32(out.bytes, 0x004E4942);  // "BIN\0"
    out.bytes.insert(out.bytes.end(), bin.begin(), bin.end());
  }
  return out;
}

}  // namespace mmdkit::exporter
