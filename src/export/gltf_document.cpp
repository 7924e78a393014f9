// mmdkit — glTF export: the document under construction (gltf_internal.hpp).
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <algorithm>
#include <limits>

#include "export/gltf_internal.hpp"

namespace mmdkit::exporter::gltf {

Document::Document()
    : accessors_(rapidjson::kArrayType), views_(rapidjson::kArrayType), nodes_(rapidjson::kArrayType),
      meshes_(rapidjson::kArrayType), skins_(rapidjson::kArrayType), materials_(rapidjson::kArrayType),
      textures_(rapidjson::kArrayType), images_(rapidjson::kArrayType), samplers_(rapidjson::kArrayType),
      animations_(rapidjson::kArrayType), cameras_(rapidjson::kArrayType), scene_nodes_(rapidjson::kArrayType) {
  doc_.SetObject();
}

Value Document::str(std::string_view s) {
  return Value(s.data(), static_cast<rapidjson::SizeType>(s.size()), alloc());
}

int Document::add_view(std::span<const std::uint8_t> bytes, int target) {
  while (bin_.size() % 4 != 0) bin_.push_back(0);
  Value v(rapidjson::kObjectType);
  v.AddMember("buffer", 0, alloc());
  v.AddMember("byteOffset", static_cast<std::uint64_t>(bin_.size()), alloc());
  v.AddMember("byteLength", static_cast<std::uint64_t>(bytes.size()), alloc());
  if (target != 0) v.AddMember("target", target, alloc());
  bin_.insert(bin_.end(), bytes.begin(), bytes.end());
  views_.PushBack(v, alloc());
  return static_cast<int>(views_.Size()) - 1;
}

namespace {

std::size_t component_size(int component) { return component == kUnsignedShort ? 2 : 4; }

void bounds(Value& acc, const float* data, std::size_t count, int components, rapidjson::Document::AllocatorType& a) {
  Value mn(rapidjson::kArrayType), mx(rapidjson::kArrayType);
  for (int c = 0; c < components; ++c) {
    float lo = std::numeric_limits<float>::infinity(), hi = -lo;
    for (std::size_t i = 0; i < count; ++i) {
      const float x = data[i * static_cast<std::size_t>(components) + static_cast<std::size_t>(c)];
      lo = std::min(lo, x);
      hi = std::max(hi, x);
    }
    if (count == 0) lo = hi = 0;
    mn.PushBack(lo, a);
    mx.PushBack(hi, a);
  }
  acc.AddMember("min", mn, a);
  acc.AddMember("max", mx, a);
}

}  // namespace

int Document::add_accessor(const void* data, std::size_t count, int component, const char* type, int components,
                           int target, bool with_bounds) {
  const std::size_t bytes = count * static_cast<std::size_t>(components) * component_size(component);
  const int view = add_view({static_cast<const std::uint8_t*>(data), bytes}, target);
  Value acc(rapidjson::kObjectType);
  acc.AddMember("bufferView", view, alloc());
  acc.AddMember("componentType", component, alloc());
  acc.AddMember("count", static_cast<std::uint64_t>(count), alloc());
  acc.AddMember("type", Value(rapidjson::StringRef(type)), alloc());
  if (with_bounds && component == kFloat) bounds(acc, static_cast<const float*>(data), count, components, alloc());
  accessors_.PushBack(acc, alloc());
  return static_cast<int>(accessors_.Size()) - 1;
}

int Document::add_float_sparse(std::size_t count, const char* type, int components,
                               std::span<const std::uint32_t> indices, std::span<const float> values) {
  const auto nc = static_cast<std::size_t>(components);
  const std::size_t sparse_bytes = indices.size() * (4 + nc * 4);
  const std::size_t dense_bytes = count * nc * 4;
  if (!indices.empty() && sparse_bytes >= dense_bytes) {
    std::vector<float> dense(count * nc, 0.0f);
    for (std::size_t i = 0; i < indices.size(); ++i)
      std::copy_n(values.begin() + static_cast<std::ptrdiff_t>(i * nc), nc, dense.begin() + static_cast<std::ptrdiff_t>(indices[i] * nc));
    return add_accessor(dense.data(), count, kFloat, type, components, kArrayBuffer, true);
  }
  Value acc(rapidjson::kObjectType);
  acc.AddMember("componentType", kFloat, alloc());
  acc.AddMember("count", static_cast<std::uint64_t>(count), alloc());
  acc.AddMember("type", Value(rapidjson::StringRef(type)), alloc());
  // Bounds over the whole accessor: the zeros count when some element is not listed.
  std::vector<float> ext(values.begin(), values.end());
  if (indices.size() < count) ext.resize(ext.size() + nc, 0.0f);
  bounds(acc, ext.data(), ext.size() / nc, components, alloc());
  if (!indices.empty()) {
    Value sp(rapidjson::kObjectType);
    sp.AddMember("count", static_cast<std::uint64_t>(indices.size()), alloc());
    Value ix(rapidjson::kObjectType);
    ix.AddMember("bufferView", add_view({reinterpret_cast<const std::uint8_t*>(indices.data()), indices.size() * 4}), alloc());
    ix.AddMember("componentType", kUnsignedInt, alloc());
    Value vals(rapidjson::kObjectType);
    vals.AddMember("bufferView", add_view({reinterpret_cast<const std::uint8_t*>(values.data()), values.size() * 4}), alloc());
    sp.AddMember("indices", ix, alloc());
    sp.AddMember("values", vals, alloc());
    acc.AddMember("sparse", sp, alloc());
  }
  accessors_.PushBack(acc, alloc());
  return static_cast<int>(accessors_.Size()) - 1;
}

namespace {

std::string base64(const std::vector<std::uint8_t>& b) {
  static constexpr char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string s;
  s.reserve((b.size() + 2) / 3 * 4);
  std::size_t i = 0;
  for (; i + 3 <= b.size(); i += 3) {
    const std::uint32_t n = (std::uint32_t{b[i]} << 16) | (std::uint32_t{b[i + 1]} << 8) | b[i + 2];
    for (int k = 18; k >= 0; k -= 6) s += kAlphabet[(n >> k) & 63];
  }
  if (i < b.size()) {
    std::uint32_t n = std::uint32_t{b[i]} << 16;
    if (i + 1 < b.size()) n |= std::uint32_t{b[i + 1]} << 8;
    s += kAlphabet[(n >> 18) & 63];
    s += kAlphabet[(n >> 12) & 63];
    s += i + 1 < b.size() ? kAlphabet[(n >> 6) & 63] : '=';
    s += '=';
  }
  return s;
}

}  // namespace

std::string Document::json(const GltfOptions& options, bool embed_uri) {
  auto& a = alloc();
  while (bin_.size() % 4 != 0) bin_.push_back(0);
  Value asset(rapidjson::kObjectType);
  asset.AddMember("version", "2.0", a);
  asset.AddMember("generator", str(options.generator), a);
  doc_.AddMember("asset", asset, a);
  if (!extensions_used_.empty()) {
    Value ext(rapidjson::kArrayType);
    for (const auto& e : extensions_used_) ext.PushBack(str(e), a);
    doc_.AddMember("extensionsUsed", ext, a);
  }
  doc_.AddMember("scene", 0, a);
  Value scene(rapidjson::kObjectType);
  scene.AddMember("nodes", scene_nodes_, a);
  Value scenes(rapidjson::kArrayType);
  scenes.PushBack(scene, a);
  doc_.AddMember("scenes", scenes, a);
  auto put = [&](const char* name, Value& arr) {
    if (!arr.Empty()) doc_.AddMember(rapidjson::StringRef(name), arr, a);
  };
  put("nodes", nodes_);
  put("meshes", meshes_);
  put("skins", skins_);
  put("materials", materials_);
  put("textures", textures_);
  put("images", images_);
  put("samplers", samplers_);
  put("cameras", cameras_);
  put("animations", animations_);
  put("accessors", accessors_);
  put("bufferViews", views_);
  if (!bin_.empty()) {
    Value buf(rapidjson::kObjectType);
    buf.AddMember("byteLength", static_cast<std::uint64_t>(bin_.size()), a);
    if (embed_uri) buf.AddMember("uri", str("data:application/octet-stream;base64," + base64(bin_)), a);
    Value bufs(rapidjson::kArrayType);
    bufs.PushBack(buf, a);
    doc_.AddMember("buffers", bufs, a);
  }
  rapidjson::StringBuffer sb;
  rapidjson::Writer<rapidjson::StringBuffer> w(sb);
  doc_.Accept(w);
  return std::string(sb.GetString(), sb.GetSize());
}

}  // namespace mmdkit::exporter::gltf
