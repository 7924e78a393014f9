// mmdkit format registry — DirectX .x meshes: thin wiring of the library (formats/x.hpp, model/accessory.hpp)
// into the generic commands (info, dump, check). The dump schema is docs/formats/x.md "JSON".
#include <cmath>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "mmdkit/formats/registry.hpp"
#include "core/json.hpp"
#include "mmdkit/core/number.hpp"
#include "mmdkit/formats/x.hpp"
#include "mmdkit/model/accessory.hpp"
#include "mmdkit/model/textures.hpp"
#include "core/try.hpp"

namespace mmdkit::formats {
namespace {

std::string version_text(const x::Header& h) { return "0" + std::to_string(h.major) + "0" + std::to_string(h.minor); }

// The last member of both JSON forms (info --json, the dump), and the object's end:
// `,\n  "skipped": {"Type": n, ...}\n}\n`.
std::string skipped_json(const std::vector<std::pair<std::string, std::uint32_t>>& skipped) {
  std::string o = ",\n  \"skipped\": {";
  bool first = true;
  for (const auto& [type, n] : skipped) {
    o += (first ? "" : ", ") + json::string(type) + ": " + std::to_string(n);
    first = false;
  }
  return o + "}\n}\n";
}

std::uint64_t triangles(const x::Mesh& m) {
  std::uint64_t n = 0;
  for (std::uint32_t k : m.face_sizes)
    if (k >= 3) n += k - 2;
  return n;
}

Result<std::string> info(ByteSpan bytes, const ReadFlags& flags, std::vector<Warning>& warnings) {
  MMDKIT_TRY_ASSIGN(auto d, x::read(bytes));
  warnings.insert(warnings.end(), d.warnings.begin(), d.warnings.end());
  std::uint64_t vertices = 0, faces = 0, tris = 0, normals = 0, uvs = 0, colors = 0;
  for (const x::Mesh& m : d.meshes) {
    vertices += m.positions.size();
    faces += m.face_sizes.size();
    tris += triangles(m);
    normals += m.normals.size();
    uvs += m.uvs.size();
    colors += m.vertex_colors.size();
  }
  std::vector<std::string> textures;
  for (const x::Material& m : d.materials)
    if (!m.texture_filename.empty()) textures.push_back(m.texture_filename);
  std::string skipped;
  for (const auto& [type, n] : d.skipped) skipped += (skipped.empty() ? "" : ", ") + type + " ×" + std::to_string(n);
  if (flags.json) {
    std::string o = "{\n  \"format\": \"x\",\n  \"version\": \"" + version_text(d.header) + "\",\n  \"body\": \"" +
                    std::string(x::body_format_name(d.header.format)) + "\",\n  \"float_bits\": " +
                    std::to_string(d.header.float_bits) + ",\n  \"file_bytes\": " + std::to_string(bytes.size()) +
                    ",\n  \"templates\": " + std::to_string(d.templates.size()) + ",\n  \"frames\": " +
                    std::to_string(d.frames.size()) + ",\n  \"meshes\": " + std::to_string(d.meshes.size()) +
                    ",\n  \"vertices\": " + std::to_string(vertices) + ",\n  \"faces\": " + std::to_string(faces) +
                    ",\n  \"triangles\": " + std::to_string(tris) + ",\n  \"normals\": " + std::to_string(normals) +
                    ",\n  \"texture_coordinates\": " + std::to_string(uvs) + ",\n  \"vertex_colors\": " +
                    std::to_string(colors) + ",\n  \"materials\": " + std::to_string(d.materials.size()) +
                    ",\n  \"textures\": [";
    for (std::size_t i = 0; i < textures.size(); ++i) o += (i ? ", " : "") + json::string(textures[i]);
    o += "]";
    return o + skipped_json(d.skipped);
  }
  std::string out;
  out += "format: x (DirectX mesh, " + std::string(x::body_format_name(d.header.format)) + ", version " +
         version_text(d.header) + ", " + std::to_string(d.header.float_bits) + "-bit floats)\n";
  out += "file bytes: " + std::to_string(bytes.size()) + "\n";
  out += "templates: " + std::to_string(d.templates.size()) + "\n";
  out += "frames: " + std::to_string(d.frames.size()) + "\n";
  out += "meshes: " + std::to_string(d.meshes.size()) + "\n";
  out += "vertices: " + std::to_string(vertices) + "\n";
  out += "faces: " + std::to_string(faces) + " (" + std::to_string(tris) + " triangles)\n";
  out += "normals: " + std::to_string(normals) + "\n";
  out += "texture coordinates: " + std::to_string(uvs) + "\n";
  out += "vertex colours: " + std::to_string(colors) + "\n";
  out += "materials: " + std::to_string(d.materials.size()) + "\n";
  for (const std::string& t : textures) out += "  texture: " + t + "\n";
  if (!skipped.empty()) out += "skipped objects: " + skipped + "\n";
  return out;
}

// ---------------------------------------------------------------------------------------------
// dump: docs/formats/x.md "JSON"

void num(std::string& o, float v) { o += format_float_json(v); }
template <std::size_t N>
void arr(std::string& o, const std::array<float, N>& a) {
  o += '[';
  for (std::size_t i = 0; i < N; ++i) {
    if (i) o += ", ";
    num(o, a[i]);
  }
  o += ']';
}
void uints(std::string& o, const std::vector<std::uint32_t>& v) {
  o += '[';
  for (std::size_t i = 0; i < v.size(); ++i) {
    if (i) o += ',';
    o += std::to_string(v[i]);
  }
  o += ']';
}
// Face lists as arrays of index arrays.
void faces(std::string& o, const std::vector<std::uint32_t>& sizes, const std::vector<std::uint32_t>& idx) {
  o += '[';
  std::size_t p = 0;
  for (std::size_t f = 0; f < sizes.size(); ++f) {
    o += f ? ", [" : "[";
    for (std::uint32_t j = 0; j < sizes[f] && p < idx.size(); ++j, ++p) {
      if (j) o += ',';
      o += std::to_string(idx[p]);
    }
    o += ']';
  }
  o += ']';
}
template <class T, class F>
void list(std::string& o, const std::vector<T>& v, F each) {
  o += '[';
  for (std::size_t i = 0; i < v.size(); ++i) {
    o += i ? ", " : "";
    each(v[i]);
  }
  o += ']';
}

Result<std::string> to_json(ByteSpan bytes, const ReadFlags&, std::vector<Warning>& warnings) {
  MMDKIT_TRY_ASSIGN(auto d, x::read(bytes));
  warnings.insert(warnings.end(), d.warnings.begin(), d.warnings.end());
  std::string o;
  o.reserve(bytes.size() * 2);
  o += "{\n  \"format\": \"x\",\n  \"header\": {\"version\": \"" + version_text(d.header) + "\", \"body\": \"" +
       std::string(x::body_format_name(d.header.format)) + "\", \"float_bits\": " + std::to_string(d.header.float_bits) + "},\n";
  o += "  \"templates\": ";
  list(o, d.templates, [&](const x::Template& t) {
    o += "{\"name\": " + json::string(t.name) + ", \"uuid\": " + json::string(t.uuid) +
         ", \"members\": " + std::to_string(t.members) + ", \"restriction\": " + json::string(t.restriction) + "}";
  });
  o += ",\n  \"frames\": ";
  list(o, d.frames, [&](const x::Frame& f) {
    o += "{\"name\": " + json::string(f.name) + ", \"parent\": " + std::to_string(f.parent) + ", \"transform\": ";
    if (f.has_transform) arr(o, f.transform);
    else o += "null";
    o += "}";
  });
  o += ",\n  \"materials\": ";
  list(o, d.materials, [&](const x::Material& m) {
    o += "\n    {\"name\": " + json::string(m.name) + ", \"face_color\": ";
    arr(o, m.face_color);
    o += ", \"power\": ";
    num(o, m.power);
    o += ", \"specular\": ";
    arr(o, m.specular);
    o += ", \"emissive\": ";
    arr(o, m.emissive);
    o += ", \"texture_filename\": " + json::string(m.texture_filename);
    const model::TextureField t = model::split_texture_field(m.texture_filename);
    o += ", \"texture\": " + json::string(t.texture) + ", \"sphere\": " + json::string(t.sphere) +
         ", \"sphere_mode\": " + std::to_string(t.sphere_mode) + "}";
  });
  o += ",\n  \"meshes\": ";
  list(o, d.meshes, [&](const x::Mesh& m) {
    o += "\n    {\"name\": " + json::string(m.name) + ", \"frame\": " + std::to_string(m.frame) + ", \"world\": ";
    arr(o, m.world);
    o += ",\n     \"positions\": ";
    list(o, m.positions, [&](const x::Vec3& p) { arr(o, p); });
    o += ",\n     \"faces\": ";
    faces(o, m.face_sizes, m.face_indices);
    o += ",\n     \"normals\": ";
    if (m.has_normals) {
      list(o, m.normals, [&](const x::Vec3& p) { arr(o, p); });
      o += ",\n     \"normal_faces\": ";
      faces(o, m.normal_face_sizes, m.normal_face_indices);
    } else {
      o += "null, \"normal_faces\": null";
    }
    o += ",\n     \"uvs\": ";
    list(o, m.uvs, [&](const x::Vec2& p) { arr(o, p); });
    o += ",\n     \"vertex_colors\": ";
    list(o, m.vertex_colors, [&](const x::Mesh::VertexColor& c) {
      o += "{\"vertex\": " + std::to_string(c.vertex) + ", \"color\": ";
      arr(o, c.color);
      o += "}";
    });
    o += ",\n     \"material_list\": ";
    if (m.has_material_list) {
      o += "{\"count\": " + std::to_string(m.material_count) + ", \"face_materials\": ";
      uints(o, m.face_materials);
      o += ", \"materials\": [";
      for (std::size_t i = 0; i < m.materials.size(); ++i) o += (i ? ", " : "") + std::to_string(m.materials[i]);
      o += "], \"unresolved\": [";
      for (std::size_t i = 0; i < m.unresolved.size(); ++i) o += (i ? ", " : "") + json::string(m.unresolved[i]);
      o += "]}";
    } else {
      o += "null";
    }
    o += "}";
  });
  return o + skipped_json(d.skipped);
}

// ---------------------------------------------------------------------------------------------
// check

Result<std::vector<Finding>> check(ByteSpan bytes, const ReadFlags& flags) {
  MMDKIT_TRY_ASSIGN(auto d, x::read(bytes));
  std::vector<Finding> out;
  auto add = [&](bool error, ErrorCode code, std::string section, std::int64_t record, std::string message,
                 std::int64_t offset = -1) {
    out.push_back(Finding{error, Error{code, std::move(message), std::move(section), record, offset, {}}});
  };
  // One finding per (mesh, problem) with the first record and how many, so a broken stage does not
  // print a million lines.
  for (std::size_t mi = 0; mi < d.meshes.size(); ++mi) {
    const x::Mesh& m = d.meshes[mi];
    const std::string sec = m.name.empty() ? "Mesh " + std::to_string(mi) : "Mesh '" + m.name + "'";
    const std::size_t nv = m.positions.size(), nf = m.face_sizes.size();
    struct Tally {
      std::int64_t first = -1;
      std::size_t count = 0;
      std::string what;
      void hit(std::int64_t r, std::string w) {
        if (count++ == 0) first = r, what = std::move(w);
      }
    };
    auto report = [&](const Tally& t, bool error, ErrorCode code, const std::string& section, const std::string& text) {
      if (t.count)
        add(error, code, section, t.first, t.what + (t.count > 1 ? " (" + std::to_string(t.count) + " " + text + ")" : ""));
    };
    Tally bad_index, small_face, bad_finite;
    std::size_t p = 0;
    for (std::size_t f = 0; f < nf; ++f) {
      const std::uint32_t k = m.face_sizes[f];
      if (k < 3) small_face.hit(static_cast<std::int64_t>(f), "face " + std::to_string(f) + " has " + std::to_string(k) + " indices (not a polygon)");
      for (std::uint32_t j = 0; j < k; ++j, ++p)
        if (m.face_indices[p] >= nv)
          bad_index.hit(static_cast<std::int64_t>(f), "face " + std::to_string(f) + " uses vertex " + std::to_string(m.face_indices[p]) +
                                                        " of " + std::to_string(nv));
    }
    report(bad_index, true, ErrorCode::invalid_value, sec, "face indices beyond the vertex count");
    report(small_face, true, ErrorCode::invalid_value, sec, "faces with fewer than 3 indices");
    for (std::size_t v = 0; v < nv; ++v)
      for (float c : m.positions[v])
        if (!std::isfinite(c)) bad_finite.hit(static_cast<std::int64_t>(v), "vertex " + std::to_string(v) + " has a non-finite coordinate");
    report(bad_finite, true, ErrorCode::invalid_value, sec, "vertex coordinates not finite");
    if (m.has_normals) {
      const std::string ns = "MeshNormals of " + sec;
      if (m.normal_face_sizes.size() != nf)
        add(true, ErrorCode::invalid_value, ns, -1,
            std::to_string(m.normal_face_sizes.size()) + " normal faces for " + std::to_string(nf) + " faces");
      Tally size_mismatch, bad_normal;
      std::size_t q = 0;
      for (std::size_t f = 0; f < m.normal_face_sizes.size(); ++f) {
        const std::uint32_t k = m.normal_face_sizes[f];
        if (f < nf && k != m.face_sizes[f])
          size_mismatch.hit(static_cast<std::int64_t>(f), "normal face " + std::to_string(f) + " has " + std::to_string(k) +
                                                              " indices, the face " + std::to_string(m.face_sizes[f]));
        for (std::uint32_t j = 0; j < k; ++j, ++q)
          if (m.normal_face_indices[q] >= m.normals.size())
            bad_normal.hit(static_cast<std::int64_t>(f), "normal face " + std::to_string(f) + " uses normal " +
                                                             std::to_string(m.normal_face_indices[q]) + " of " +
                                                             std::to_string(m.normals.size()));
      }
      report(size_mismatch, true, ErrorCode::invalid_value, ns, "normal faces whose size differs from the face's");
      report(bad_normal, true, ErrorCode::invalid_value, ns, "normal indices beyond the normal count");
    }
    if (!m.uvs.empty() && m.uvs.size() != nv)
      add(false, ErrorCode::invalid_value, "MeshTextureCoords of " + sec, -1,
          std::to_string(m.uvs.size()) + " texture coordinates for " + std::to_string(nv) + " vertices");
    {
      Tally bad_color;
      for (std::size_t c = 0; c < m.vertex_colors.size(); ++c)
        if (m.vertex_colors[c].vertex >= nv)
          bad_color.hit(static_cast<std::int64_t>(c), "colour " + std::to_string(c) + " is for vertex " +
                                                          std::to_string(m.vertex_colors[c].vertex) + " of " + std::to_string(nv));
      report(bad_color, true, ErrorCode::invalid_value, "MeshVertexColors of " + sec, "colours for vertices beyond the count");
    }
    if (m.has_material_list) {
      const std::string ms = "MeshMaterialList of " + sec;
      if (m.material_count != m.materials.size())
        add(true, ErrorCode::invalid_value, ms, -1,
            "nMaterials is " + std::to_string(m.material_count) + " but " + std::to_string(m.materials.size()) +
                " materials follow");
      if (m.face_materials.size() != nf)
        add(false, ErrorCode::invalid_value, ms, -1,
            std::to_string(m.face_materials.size()) + " face material indices for " + std::to_string(nf) +
                " faces (the last one is repeated)");
      Tally bad_mat;
      for (std::size_t f = 0; f < m.face_materials.size(); ++f)
        if (m.face_materials[f] >= m.materials.size())
          bad_mat.hit(static_cast<std::int64_t>(f), "face " + std::to_string(f) + " uses material " +
                                                        std::to_string(m.face_materials[f]) + " of " +
                                                        std::to_string(m.materials.size()));
      report(bad_mat, true, ErrorCode::invalid_value, ms, "face material indices beyond the list");
      for (const std::string& name : m.unresolved)
        add(true, ErrorCode::invalid_value, ms, -1, "reference '{" + name + "}' names no Material");
    }
  }
  // Textures: inside the file's folder only (absolute / ".." are refused), missing ones warned.
  for (std::size_t i = 0; i < d.materials.size(); ++i) {
    const x::Material& m = d.materials[i];
    const std::string sec = m.name.empty() ? "materials" : "Material '" + m.name + "'";
    for (float c : m.face_color)
      if (!std::isfinite(c)) {
        add(true, ErrorCode::invalid_value, sec, static_cast<std::int64_t>(i), "faceColor is not finite", m.offset);
        break;
      }
    if (m.texture_filename.empty()) continue;
    const model::TextureField t = model::split_texture_field(m.texture_filename);
    for (const std::string& ref : {t.texture, t.sphere}) {
      if (ref.empty()) continue;
      // MMD draws its screen (or a video) on a texture named screen.bmp: no file needed.
      std::string lower;
      for (char c : model::normalize_texture_path(ref)) lower.push_back(static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c));
      if (lower == "screen.bmp") continue;
      if (!flags.input_folder) {
        // Still refuse paths that leave any folder.
        const model::TextureLookup l = model::resolve_texture(std::filesystem::path("/nonexistent-mmdkit-folder"), ref);
        if (l.status == model::TextureStatus::escapes)
          add(false, ErrorCode::texture_escapes, sec, static_cast<std::int64_t>(i), "texture '" + ref + "' " + l.message, m.offset);
        continue;
      }
      const model::TextureLookup l = model::resolve_texture(*flags.input_folder, ref);
      if (l.status == model::TextureStatus::escapes)
        add(false, ErrorCode::texture_escapes, sec, static_cast<std::int64_t>(i), "texture '" + ref + "' refused: " + l.message, m.offset);
      else if (l.status == model::TextureStatus::missing)
        add(false, ErrorCode::texture_missing, sec, static_cast<std::int64_t>(i),
            "texture '" + ref + "' not found in '" + flags.input_folder->string() + "'", m.offset);
    }
  }
  for (const Warning& w : d.warnings) add(false, w.code, w.section, w.record, w.message, w.offset);
  return out;
}

}  // namespace

const FormatOps& x_ops() {
  static const FormatOps ops{.name = "x", .extension = ".x", .info = info, .to_json = to_json, .check = check};
  return ops;
}

}  // namespace mmdkit::formats
