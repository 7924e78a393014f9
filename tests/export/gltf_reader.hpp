// Test helper: a minimal GLB / .gltf reader (container, JSON, accessors dense or sparse) written
// from the glTF 2.0 specification, independent of the exporter's code.
#pragma once

#include <rapidjson/document.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace mmdkit::test {

struct Gltf {
  rapidjson::Document json;
  std::vector<std::uint8_t> bin;
  std::string error;  ///< empty when the container parsed

  /// Accessor `index` as doubles (components per element × count), sparse substitution applied.
  std::vector<double> accessor(int index) const {
    const auto& acc = json["accessors"][static_cast<rapidjson::SizeType>(index)];
    const int comp = acc["componentType"].GetInt();
    const std::string type = acc["type"].GetString();
    const std::size_t n = type == "SCALAR" ? 1 : type == "VEC2" ? 2 : type == "VEC3" ? 3 : type == "VEC4" ? 4 : 16;
    const std::size_t count = acc["count"].GetUint64();
    std::vector<double> out(count * n, 0.0);
    if (acc.HasMember("bufferView")) read(acc["bufferView"].GetInt(), comp, count * n, 0, out.data());
    if (acc.HasMember("sparse")) {
      const auto& sp = acc["sparse"];
      const std::size_t sc = sp["count"].GetUint64();
      std::vector<double> idx(sc), val(sc * n);
      read(sp["indices"]["bufferView"].GetInt(), sp["indices"]["componentType"].GetInt(), sc, 0, idx.data());
      read(sp["values"]["bufferView"].GetInt(), comp, sc * n, 0, val.data());
      for (std::size_t i = 0; i < sc; ++i)
        for (std::size_t c = 0; c < n; ++c) out[static_cast<std::size_t>(idx[i]) * n + c] = val[i * n + c];
    }
    return out;
  }

 private:
  void read(int view, int comp, std::size_t values, std::size_t offset, double* out) const {
    const auto& v = json["bufferViews"][static_cast<rapidjson::SizeType>(view)];
    const std::size_t base = v["byteOffset"].GetUint64() + offset;
    for (std::size_t i = 0; i < values; ++i) {
      if (comp == 5126) {
        float f;
        std::memcpy(&f, &bin[base + i * 4], 4);
        out[i] = static_cast<double>(f);
      } else if (comp == 5125) {
        std::uint32_t u;
        std::memcpy(&u, &bin[base + i * 4], 4);
        out[i] = u;
      } else if (comp == 5123) {
        std::uint16_t u;
        std::memcpy(&u, &bin[base + i * 2], 2);
        out[i] = u;
      } else {
        out[i] = bin[base + i];
      }
    }
  }
};

inline std::uint32_t le32(const std::uint8_t* p) {
  return std::uint32_t{p[0]} | (std::uint32_t{p[1]} << 8) | (std::uint32_t{p[2]} << 16) | (std::uint32_t{p[3]} << 24);
}

/// Parses a GLB (magic "glTF", version 2, JSON chunk, optional BIN chunk).
inline Gltf parse_glb(const std::vector<std::uint8_t>& b) {
  Gltf g;
  if (b.size() < 20 || le32(b.data()) != 0x46546C67u || le32(b.data() + 4) != 2 || le32(b.data() + 8) != b.size()) {
    g.error = "bad GLB header";
    return g;
  }
  const std::uint32_t jlen = le32(b.data() + 12);
  if (le32(b.data() + 16) != 0x4E4F534Au || 20 + jlen > b.size() || jlen % 4 != 0) {
    g.error = "bad JSON chunk";
    return g;
  }
  g.json.Parse(reinterpret_cast<const char*>(b.data() + 20), jlen);
  if (g.json.HasParseError()) g.error = "JSON does not parse";
  std::size_t at = 20 + jlen;
  if (at + 8 <= b.size()) {
    const std::uint32_t blen = le32(b.data() + at);
    if (le32(b.data() + at + 4) != 0x004E4942u || at + 8 + blen != b.size()) {
      g.error = "bad BIN chunk";
      return g;
    }
    g.bin.assign(b.begin() + static_cast<std::ptrdiff_t>(at + 8), b.end());
  }
  return g;
}

}  // namespace mmdkit::test
