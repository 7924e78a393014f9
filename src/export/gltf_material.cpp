// mmdkit — glTF export: materials and embedded textures.
#include <algorithm>
#include <cmath>
#include <map>

#include "export/gltf_internal.hpp"
#include "mmdkit/core/file.hpp"
#include "mmdkit/core/image.hpp"
#include "mmdkit/model/textures.hpp"

namespace mmdkit::exporter::gltf {

namespace {

float unit(float v) { return v >= 0.0f ? std::min(v, 1.0f) : 0.0f; }
float nonneg(float v) { return std::isfinite(v) && v > 0.0f ? v : 0.0f; }

// A PNG the validator takes as it is: no colour-space chunks (cHRM, gAMA, iCCP, sRGB, ...), no
// animation, square pixels. Anything else is re-encoded from its pixels (the profile is dropped).
bool plain_png(std::span<const std::uint8_t> b) {
  auto be32 = [&](std::size_t i) {
    return (std::uint32_t{b[i]} << 24) | (std::uint32_t{b[i + 1]} << 16) | (std::uint32_t{b[i + 2]} << 8) | b[i + 3];
  };
  std::size_t i = 8;
  while (i + 12 <= b.size()) {
    const std::uint32_t n = be32(i);
    const std::string type(reinterpret_cast<const char*>(&b[i + 4]), 4);
    if (n > b.size() - i - 12) return false;
    if (type == "pHYs") {
      if (n < 9 || be32(i + 8) != be32(i + 12)) return false;
    } else if (type != "IHDR" && type != "PLTE" && type != "IDAT" && type != "IEND" && type != "tRNS" &&
               type != "tEXt" && type != "zTXt" && type != "iTXt" && type != "bKGD" && type != "tIME") {
      return false;
    }
    if (type == "IEND") return true;
    i += 12 + n;
  }
  return false;
}

struct Embedded {
  int texture = -1;
  bool transparent = false;
};

// Embeds each referenced file once (by resolved path); warns once per failing reference.
class TextureTable {
 public:
  TextureTable(Document& doc, const GltfOptions& options, GltfOutput& out) : doc_(doc), options_(options), out_(out) {}

  Embedded get(const std::string& reference) {
    if (reference.empty()) return {};
    if (auto it = by_reference_.find(reference); it != by_reference_.end()) return it->second;
    Embedded e = load(reference);
    by_reference_[reference] = e;
    return e;
  }

 private:
  Embedded load(const std::string& reference) {
    if (options_.texture_folder.empty()) {
      if (!warned_no_folder_) out_.warnings.push_back("no model folder given: textures are not embedded");
      warned_no_folder_ = true;
      return {};
    }
    const model::TextureLookup t = model::resolve_texture(options_.texture_folder, reference);
    if (t.status != model::TextureStatus::found) {
      out_.warnings.push_back("texture '" + reference + "' not embedded: " + t.message);
      return {};
    }
    const std::string key = t.path.string();
    if (auto it = by_path_.find(key); it != by_path_.end()) return it->second;
    Embedded e;
    auto bytes = read_file(t.path);
    if (!bytes) {
      out_.warnings.push_back("texture '" + reference + "' not embedded: " + bytes.error().to_string());
      return by_path_[key] = e;
    }
    const ImageContainer kind = detect_image(*bytes);
    auto image = decode_image(*bytes, reference);
    if (!image) {
      out_.warnings.push_back("texture '" + reference + "' not embedded: " + image.error().message);
      return by_path_[key] = e;
    }
    e.transparent = has_transparency(*image);
    const char* mime = "image/png";
    std::vector<std::uint8_t> data;
    if (kind == ImageContainer::png && plain_png(*bytes)) {
      data = std::move(*bytes);
    } else if (kind == ImageContainer::jpeg) {
      data = std::move(*bytes);
      mime = "image/jpeg";
    } else {
      auto png = encode_png(*image, e.transparent);
      if (!png) {
        out_.warnings.push_back("texture '" + reference + "' not embedded: " + png.error().message);
        return by_path_[key] = e;
      }
      data = std::move(*png);
    }
    auto& a = doc_.alloc();
    if (doc_.samplers().Empty()) {
      Value smp(rapidjson::kObjectType);
      smp.AddMember("magFilter", 9729, a);  // LINEAR
      smp.AddMember("minFilter", 9987, a);  // LINEAR_MIPMAP_LINEAR
      smp.AddMember("wrapS", 10497, a);     // REPEAT
      smp.AddMember("wrapT", 10497, a);
      doc_.samplers().PushBack(smp, a);
    }
    Value img(rapidjson::kObjectType);
    img.AddMember("name", doc_.str(model::normalize_texture_path(reference)), a);
    img.AddMember("bufferView", doc_.add_view(data), a);
    img.AddMember("mimeType", Value(rapidjson::StringRef(mime)), a);
    doc_.images().PushBack(img, a);
    Value tex(rapidjson::kObjectType);
    tex.AddMember("sampler", 0, a);
    tex.AddMember("source", static_cast<int>(doc_.images().Size()) - 1, a);
    doc_.textures().PushBack(tex, a);
    e.texture = static_cast<int>(doc_.textures().Size()) - 1;
    ++out_.textures_embedded;
    return by_path_[key] = e;
  }

  Document& doc_;
  const GltfOptions& options_;
  GltfOutput& out_;
  std::map<std::string, Embedded> by_reference_, by_path_;
  bool warned_no_folder_ = false;
};

Value array(std::span<const float> v, rapidjson::Document::AllocatorType& a, bool clamp = false) {
  Value r(rapidjson::kArrayType);
  for (float x : v) r.PushBack(clamp ? unit(x) : (std::isfinite(x) ? x : 0.0f), a);
  return r;
}

const char* sphere_mode_name(model::SphereMode m) {
  switch (m) {
    case model::SphereMode::multiply: return "multiply";
    case model::SphereMode::add: return "add";
    case model::SphereMode::subtexture: return "subtexture";
    default: return "off";
  }
}

}  // namespace

void write_materials(Document& doc, const model::Model& model, const GltfOptions& options, GltfOutput& out) {
  auto& a = doc.alloc();
  TextureTable textures(doc, options, out);
  if (options.unlit) doc.extensions_used().push_back("KHR_materials_unlit");
  for (const model::Material& m : model.materials) {
    const Embedded base = textures.get(m.texture);
    const Embedded sphere = textures.get(m.sphere);
    // A toon named toon01..10.bmp that the model's folder lacks is MMD's shared toon from its Data
    // folder (the rule `check` and `render` follow): written as that shared toon, not warned about.
    int shared_toon = m.shared_toon;
    if (shared_toon < 0 && model::shared_toon_index(m.toon) >= 0 &&
        (options.texture_folder.empty() ||
         model::resolve_texture(options.texture_folder, m.toon).status != model::TextureStatus::found))
      shared_toon = model::shared_toon_index(m.toon);
    const Embedded toon = shared_toon < 0 ? textures.get(m.toon) : Embedded{};
    Value mat(rapidjson::kObjectType);
    mat.AddMember("name", doc.str(m.name), a);
    Value pbr(rapidjson::kObjectType);
    pbr.AddMember("baseColorFactor", array(m.diffuse, a, true), a);
    if (base.texture >= 0) {
      Value ti(rapidjson::kObjectType);
      ti.AddMember("index", base.texture, a);
      pbr.AddMember("baseColorTexture", ti, a);
    }
    pbr.AddMember("metallicFactor", 0.0f, a);
    pbr.AddMember("roughnessFactor", 1.0f, a);
    mat.AddMember("pbrMetallicRoughness", pbr, a);
    const bool blend = unit(m.diffuse[3]) < 1.0f || base.transparent;
    if (blend) mat.AddMember("alphaMode", "BLEND", a);
    if (m.flags & model::kDoubleSided) mat.AddMember("doubleSided", true, a);
    if (options.unlit) {
      Value ext(rapidjson::kObjectType);
      ext.AddMember("KHR_materials_unlit", Value(rapidjson::kObjectType), a);
      mat.AddMember("extensions", ext, a);
    }
    // MMD values glTF has no place for.
    Value mmd(rapidjson::kObjectType);
    if (!m.name_en.empty()) mmd.AddMember("nameEn", doc.str(m.name_en), a);
    mmd.AddMember("diffuse", array(m.diffuse, a), a);
    mmd.AddMember("specular", array(m.specular, a), a);
    mmd.AddMember("specularPower", nonneg(m.specular_power), a);
    mmd.AddMember("ambient", array(m.ambient, a), a);
    mmd.AddMember("flags", m.flags, a);
    mmd.AddMember("drawEdge", (m.flags & model::kDrawEdge) != 0, a);
    mmd.AddMember("edgeColor", array(m.edge_color, a), a);
    mmd.AddMember("edgeSize", nonneg(m.edge_size), a);
    if (!m.texture.empty()) mmd.AddMember("texture", doc.str(m.texture), a);
    if (!m.sphere.empty()) {
      mmd.AddMember("sphere", doc.str(m.sphere), a);
      if (sphere.texture >= 0) mmd.AddMember("sphereTexture", sphere.texture, a);
    }
    mmd.AddMember("sphereMode", Value(rapidjson::StringRef(sphere_mode_name(m.sphere_mode))), a);
    if (shared_toon >= 0) {
      mmd.AddMember("sharedToon", shared_toon, a);
      mmd.AddMember("toon", doc.str(m.shared_toon >= 0 ? model::shared_toon_name(shared_toon) : m.toon), a);
    } else if (!m.toon.empty()) {
      mmd.AddMember("toon", doc.str(m.toon), a);
      if (toon.texture >= 0) mmd.AddMember("toonTexture", toon.texture, a);
    }
    if (!m.memo.empty()) mmd.AddMember("memo", doc.str(m.memo), a);
    Value ex(rapidjson::kObjectType);
    ex.AddMember("mmd", mmd, a);
    mat.AddMember("extras", ex, a);
    doc.materials().PushBack(mat, a);
  }
}

}  // namespace mmdkit::exporter::gltf
