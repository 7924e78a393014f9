// mmdkit — OBJ + MTL export (obj.hpp).
#include "mmdkit/export/obj.hpp"

#include <algorithm>
#include <limits>

#include "mmdkit/core/number.hpp"

namespace mmdkit::exporter {

namespace {
void put(std::string& s, float v) { s += format_float_json(v); }

// MTL colours and dissolve are fractions: an additive material morph can push them outside 0..1
// (or, in a broken model, to NaN), which MTL readers reject or misread. NaN becomes 0.
float unit(float v) { return v >= 0.0f ? std::min(v, 1.0f) : 0.0f; }
// Ns (specular exponent) is not negative in MTL; NaN / infinity become 0 / the largest float.
float exponent(float v) { return v >= 0.0f ? std::min(v, std::numeric_limits<float>::max()) : 0.0f; }
}  // namespace

std::string obj_material_name(std::size_t index, std::string_view name) {
  std::string r = "m" + std::to_string(index) + "_";
  for (char c : name) {
    const auto u = static_cast<unsigned char>(c);
    r += (u <= 0x20 || c == '#' || u == 0x7F) ? '_' : c;
  }
  return r;
}

std::string write_obj(std::span<const Vec3> positions, std::span<const Vec3> normals,
                      std::span<const std::array<float, 2>> uvs, std::span<const std::uint32_t> faces,
                      std::span<const std::array<std::uint32_t, 2>> material_ranges,
                      std::span<const ObjMaterial> materials, const ObjOptions& options) {
  const std::size_t n = positions.size();
  const bool has_uv = uvs.size() == n && n > 0;
  const bool has_n = normals.size() == n && n > 0;
  const float zs = options.right_handed ? -1.0f : 1.0f;
  const float ks = options.scale;
  std::string s;
  s.reserve(n * 96 + faces.size() * 12 + 256);
  s += "# mmdkit OBJ export\n";
  const std::string units = ks == 1.0f ? std::string("MMD units (1 unit ~ 8 cm)")
                                      : "MMD units x " + format_float_json(ks) + (ks == 0.08f ? " (metres)" : "");
  if (options.right_handed)
    s += "# coordinates: right-handed (MMD model space with Z negated and winding reversed), Y up, " + units + "\n";
  else
    s += "# coordinates: MMD model space: left-handed, Y up, model faces -Z, " + units +
         "; MMD triangle winding (clockwise front faces)\n";
  s += "# texture coordinates: V up (MMD's V flipped: vt = u, 1 - v)\n";
  if (!options.comment.empty()) {
    std::size_t b = 0;
    while (b <= options.comment.size()) {
      const std::size_t e = std::min(options.comment.find('\n', b), options.comment.size());
      s += "# ";
      s.append(options.comment, b, e - b);
      s += '\n';
      b = e + 1;
    }
  }
  if (!options.mtl_file.empty()) s += "mtllib " + options.mtl_file + "\n";
  for (const auto& p : positions) {
    s += "v ";
    put(s, p[0] * ks);
    s += ' ';
    put(s, p[1] * ks);
    s += ' ';
    put(s, p[2] * ks * zs);
    s += '\n';
  }
  if (has_uv)
    for (const auto& t : uvs) {
      s += "vt ";
      put(s, t[0]);
      s += ' ';
      put(s, 1.0f - t[1]);
      s += '\n';
    }
  if (has_n)
    for (const auto& v : normals) {
      s += "vn ";
      put(s, v[0]);
      s += ' ';
      put(s, v[1]);
      s += ' ';
      put(s, v[2] * zs);
      s += '\n';
    }
  auto corner = [&](std::uint32_t i) {
    const std::uint32_t k = i + 1;
    s += ' ';
    s += std::to_string(k);
    if (has_uv || has_n) {
      s += '/';
      if (has_uv) s += std::to_string(k);
      if (has_n) {
        s += '/';
        s += std::to_string(k);
      }
    }
  };
  auto triangles = [&](std::size_t begin, std::size_t end) {
    for (std::size_t f = begin; f + 3 <= end; f += 3) {
      const std::uint32_t a = faces[f], b = faces[f + 1], c = faces[f + 2];
      if (a >= n || b >= n || c >= n) continue;
      s += 'f';
      corner(a);
      if (options.right_handed) {
        corner(c);
        corner(b);
      } else {
        corner(b);
        corner(c);
      }
      s += '\n';
    }
  };
  std::vector<std::uint8_t> covered(faces.size() / 3, 0);
  for (std::size_t m = 0; m < material_ranges.size() && m < materials.size(); ++m) {
    const std::size_t b = std::min<std::size_t>(material_ranges[m][0], faces.size());
    const std::size_t e = std::min<std::size_t>(b + material_ranges[m][1], faces.size());
    s += "usemtl " + materials[m].name + "\n";
    triangles(b, e);
    for (std::size_t t = b / 3; t < e / 3; ++t) covered[t] = 1;
  }
  bool header = false;
  for (std::size_t t = 0; t < covered.size(); ++t)
    if (!covered[t]) {
      if (!header) {
        s += "# faces outside every material\n";
        header = true;
      }
      triangles(t * 3, t * 3 + 3);
    }
  return s;
}

std::string write_mtl(std::span<const ObjMaterial> materials) {
  std::string s = "# mmdkit MTL export (colours after morphs)\n";
  for (const ObjMaterial& m : materials) {
    s += "\n";
    if (!m.comment.empty()) {
      s += "# ";
      for (char c : m.comment) s += (c == '\n' || c == '\r') ? ' ' : c;
      s += '\n';
    }
    const auto& v = m.values;
    s += "newmtl " + m.name + "\n";
    auto line = [&](const char* key, const float* x, int k, float (*clamp)(float)) {
      s += key;
      for (int i = 0; i < k; ++i) {
        s += ' ';
        put(s, clamp(x[i]));
      }
      s += '\n';
    };
    line("Kd", v.diffuse.data(), 3, unit);
    line("d", &v.diffuse[3], 1, unit);
    line("Ks", v.specular.data(), 3, unit);
    line("Ns", &v.specular_power, 1, exponent);
    line("Ka", v.ambient.data(), 3, unit);
    if (!m.texture.empty()) s += "map_Kd " + m.texture + "\n";
    if (!m.sphere.empty()) {
      s += m.sphere_add ? "# sphere map: MMD adds it (.spa); MTL's refl has no blend mode\n"
                        : "# sphere map: MMD multiplies by it (.sph); MTL's refl has no blend mode\n";
      s += "refl -type sphere " + m.sphere + "\n";
    }
  }
  return s;
}

}  // namespace mmdkit::exporter
