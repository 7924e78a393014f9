// mmdkit — the model view of a DirectX .x file (model/accessory.hpp). Rules: docs/formats/x.md.
#include <cmath>
#include <limits>
#include <unordered_map>

#include "mmdkit/core/file.hpp"
#include "mmdkit/formats/x.hpp"
#include "mmdkit/model/accessory.hpp"
#include "mmdkit/model/textures.hpp"
#include "model/build_internal.hpp"
#include "core/try.hpp"

namespace mmdkit::model {

namespace {

using detail::add;

Vec3 transform_point(const Mat4& m, const Vec3& p) {
  return {m[0] * p[0] + m[4] * p[1] + m[8] * p[2] + m[12], m[1] * p[0] + m[5] * p[1] + m[9] * p[2] + m[13],
          m[2] * p[0] + m[6] * p[1] + m[10] * p[2] + m[14]};
}

// Inverse transpose of the upper 3×3 (column-major 3×3 result, n' = N · n).
std::array<float, 9> normal_matrix(const Mat4& m) {
  const float a = m[0], b = m[4], c = m[8], d = m[1], e = m[5], f = m[9], g = m[2], h = m[6], i = m[10];
  const float A = e * i - f * h, B = -(d * i - f * g), C = d * h - e * g;
  const float D = -(b * i - c * h), E = a * i - c * g, F = -(a * h - b * g);
  const float G = b * f - c * e, H = -(a * f - c * d), I = a * e - b * d;
  const float det = a * A + b * B + c * C;
  if (std::abs(det) < 1e-30f) return {1, 0, 0, 0, 1, 0, 0, 0, 1};
  // inverse = adj / det with adj = cofactor^T; inverse transpose = cofactor / det.
  // Cofactor matrix rows: (A B C), (D E F), (G H I); as column-major 3×3:
  return {A / det, D / det, G / det, B / det, E / det, H / det, C / det, F / det, I / det};
}

Vec3 normalized(Vec3 v) {
  const float l = std::sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
  if (l > 0 && std::isfinite(l)) return {v[0] / l, v[1] / l, v[2] / l};
  return {0, 0, 0};
}

Vec3 apply3(const std::array<float, 9>& n, const Vec3& v) {
  return normalized({n[0] * v[0] + n[3] * v[1] + n[6] * v[2], n[1] * v[0] + n[4] * v[1] + n[7] * v[2],
                     n[2] * v[0] + n[5] * v[1] + n[8] * v[2]});
}

Material default_material(std::size_t index) {
  Material m;
  m.name = "material" + std::to_string(index);
  m.name_en = m.name;
  m.diffuse = {1, 1, 1, 1};
  m.flags = kGroundShadow | kDrawShadowMap | kReceiveShadow;
  m.edge_size = 0;
  return m;
}

constexpr std::uint64_t kLimit = static_cast<std::uint64_t>(std::numeric_limits<std::int32_t>::max());

// How a mesh's normals apply: per face corner (the normal faces match the faces), per vertex, or
// neither (computed); a warning when it has normals that are not per corner.
struct NormalMode {
  bool corner = false, vertex = false;
};
NormalMode normal_mode(std::vector<Finding>& F, const x::Mesh& mesh, const std::string& section) {
  const std::size_t nv = mesh.positions.size();
  const std::size_t nf = mesh.face_sizes.size();
  bool corner_normals = mesh.has_normals && mesh.normal_face_sizes.size() == nf;
  if (corner_normals)
    for (std::size_t f = 0; f < nf && corner_normals; ++f) corner_normals = mesh.normal_face_sizes[f] == mesh.face_sizes[f];
  const bool vertex_normals = !corner_normals && mesh.has_normals && mesh.normals.size() == nv;
  if (mesh.has_normals && !corner_normals)
    add(F, FindingKind::index_out_of_range, section, -1, "MeshNormals",
        "the normal face list (" + std::to_string(mesh.normal_face_sizes.size()) + " faces) does not match the " +
            std::to_string(nf) + " faces; " + (vertex_normals ? "normals used per vertex" : "normals computed"),
        Severity::warning);
  return {corner_normals, vertex_normals};
}

// The faces a mesh's triangles come from: each face's first index and whether it is valid (3 or
// more indices, all in range); a finding for each dropped face.
struct ValidFaces {
  std::vector<std::uint64_t> first;
  std::vector<bool> valid;
};
ValidFaces valid_faces(std::vector<Finding>& F, const x::Mesh& mesh, const std::string& section) {
  const std::size_t nv = mesh.positions.size();
  const std::size_t nf = mesh.face_sizes.size();
  std::vector<std::uint64_t> first(nf);
  std::vector<bool> valid(nf, false);
  std::uint64_t o = 0;
  for (std::size_t f = 0; f < nf; ++f) {
    first[f] = o;
    const std::uint32_t k = mesh.face_sizes[f];
    bool ok = k >= 3;
    if (k < 3)
      add(F, FindingKind::face_count_not_triangles, section, static_cast<std::int64_t>(f), "faces",
          "face with " + std::to_string(k) + " indices is not a polygon (dropped)");
    for (std::uint32_t j = 0; j < k && ok; ++j) {
      const std::uint32_t vi = mesh.face_indices[o + j];
      if (vi >= nv) {
        ok = false;
        add(F, FindingKind::index_out_of_range, section, static_cast<std::int64_t>(f), "faces",
            detail::out_of_range(vi, nv, "vertices") + " (face dropped)");
      }
    }
    valid[f] = ok;
    o += k;
  }
  return {std::move(first), std::move(valid)};
}

// Vertex normals from the valid faces' (unnormalised) cross products, summed and normalised.
std::vector<Vec3> computed_normals(const x::Mesh& mesh, const std::vector<Vec3>& pos, const ValidFaces& faces) {
  const std::size_t nv = mesh.positions.size();
  const std::size_t nf = mesh.face_sizes.size();
  const auto& first = faces.first;
  const auto& valid = faces.valid;
  std::vector<Vec3> computed(nv, Vec3{0, 0, 0});
  for (std::size_t f = 0; f < nf; ++f) {
    if (!valid[f]) continue;
    const std::uint32_t* idx = mesh.face_indices.data() + first[f];
    for (std::uint32_t j = 1; j + 1 < mesh.face_sizes[f]; ++j) {
      const Vec3 &a = pos[idx[0]], &b = pos[idx[j]], &c = pos[idx[j + 1]];
      const Vec3 e1{b[0] - a[0], b[1] - a[1], b[2] - a[2]}, e2{c[0] - a[0], c[1] - a[1], c[2] - a[2]};
      const Vec3 n{e1[1] * e2[2] - e1[2] * e2[1], e1[2] * e2[0] - e1[0] * e2[2], e1[0] * e2[1] - e1[1] * e2[0]};
      for (const std::uint32_t v : {idx[0], idx[j], idx[j + 1]})
        for (int k = 0; k < 3; ++k) computed[v][static_cast<std::size_t>(k)] += n[static_cast<std::size_t>(k)];
    }
  }
  for (Vec3& n : computed) n = normalized(n);
  return computed;
}

// The colour of each vertex by index (white when unset; empty when no mesh has colours), and a
// warning when the texture coordinates do not match the vertices.
std::vector<Vec4> vertex_colors(std::vector<Finding>& F, const x::Mesh& mesh, const std::string& section,
                                bool any_colors) {
  const std::size_t nv = mesh.positions.size();
  std::vector<Vec4> colors;
  if (any_colors) {
    colors.assign(nv, Vec4{1, 1, 1, 1});
    for (std::size_t c = 0; c < mesh.vertex_colors.size(); ++c) {
      const auto& vc = mesh.vertex_colors[c];
      if (vc.vertex < nv) colors[vc.vertex] = vc.color;
      else
        add(F, FindingKind::index_out_of_range, section, static_cast<std::int64_t>(c), "MeshVertexColors",
            detail::out_of_range(vc.vertex, nv, "vertices") + " (colour ignored)");
    }
  }
  if (!mesh.uvs.empty() && mesh.uvs.size() != nv)
    add(F, FindingKind::index_out_of_range, section, -1, "MeshTextureCoords",
        std::to_string(mesh.uvs.size()) + " texture coordinates for " + std::to_string(nv) +
            " vertices (missing ones are 0, 0)",
        Severity::warning);
  return colors;
}

// The mesh's materials: one view material per list entry (or one default), appended to m; their count.
std::size_t add_mesh_materials(Model& m, const x::Document& doc, const x::Mesh& mesh, const std::string& section) {
  auto& F = m.findings;
  const std::size_t nf = mesh.face_sizes.size();
  std::size_t mat_count = 0;
  if (mesh.has_material_list && !mesh.materials.empty()) {
    mat_count = mesh.materials.size();
    for (std::size_t k = 0; k < mat_count; ++k) {
      Material vm = default_material(m.materials.size());
      const std::int32_t di = mesh.materials[k];
      if (di >= 0 && static_cast<std::size_t>(di) < doc.materials.size()) {
        const x::Material& xm = doc.materials[static_cast<std::size_t>(di)];
        if (!xm.name.empty()) vm.name = vm.name_en = xm.name;
        vm.diffuse = xm.face_color;
        vm.specular = xm.specular;
        vm.specular_power = xm.power;
        vm.ambient = xm.emissive;
        if (!xm.texture_filename.empty()) {
          const TextureField t = split_texture_field(xm.texture_filename);
          vm.texture = t.texture;
          vm.sphere = t.sphere;
          vm.sphere_mode = static_cast<SphereMode>(t.sphere_mode);
        }
      } else {
        add(F, FindingKind::index_out_of_range, section, static_cast<std::int64_t>(k), "MeshMaterialList",
            "material entry names no Material (drawn white)");
      }
      m.materials.push_back(std::move(vm));
    }
    if (mesh.material_count != mat_count)
      add(F, FindingKind::material_face_sum, section, -1, "MeshMaterialList",
          "nMaterials is " + std::to_string(mesh.material_count) + " but the list holds " + std::to_string(mat_count) +
              " materials",
          Severity::warning);
    if (mesh.face_materials.size() != nf)
      add(F, FindingKind::material_face_sum, section, -1, "MeshMaterialList",
          std::to_string(mesh.face_materials.size()) + " face material indices for " + std::to_string(nf) +
              " faces" + (mesh.face_materials.empty() ? " (all use material 0)" : " (the last one repeats)"),
          Severity::warning);
  } else {
    mat_count = 1;
    m.materials.push_back(default_material(m.materials.size()));
  }
  return mat_count;
}

// Adds mesh `mi` of doc to m: its vertices (one per vertex and normal), materials and triangles.
Result<void> add_mesh(Model& m, const x::Document& doc, std::size_t mi, float scale, bool any_colors) {
  auto& F = m.findings;
  const x::Mesh& mesh = doc.meshes[mi];
  const std::string section = mesh.name.empty() ? "Mesh " + std::to_string(mi) : "Mesh '" + mesh.name + "'";
  const std::size_t nv = mesh.positions.size();
  const std::size_t nf = mesh.face_sizes.size();
  const NormalMode mode = normal_mode(F, mesh, section);
  const bool corner_normals = mode.corner, vertex_normals = mode.vertex;

  // World-space positions (frame transforms, then the scale) and computed normals.
  const std::array<float, 9> nmat = normal_matrix(mesh.world);
  std::vector<Vec3> pos(nv);
  for (std::size_t v = 0; v < nv; ++v) {
    const Vec3 p = transform_point(mesh.world, mesh.positions[v]);
    pos[v] = {p[0] * scale, p[1] * scale, p[2] * scale};
  }
  const ValidFaces faces = valid_faces(F, mesh, section);
  const auto& first = faces.first;
  const auto& valid = faces.valid;
  const std::vector<Vec3> computed =
      !corner_normals && !vertex_normals ? computed_normals(mesh, pos, faces) : std::vector<Vec3>{};
  const std::vector<Vec4> colors = vertex_colors(F, mesh, section, any_colors);
  const std::size_t mat_base = m.materials.size();
  const std::size_t mat_count = add_mesh_materials(m, doc, mesh, section);

  // Vertices per (vertex, normal) pair, triangles per material.
  std::unordered_map<std::uint64_t, std::uint32_t> ids;
  std::vector<std::vector<std::uint32_t>> tris(mat_count);
  auto vertex_of = [&](std::uint32_t v, std::uint64_t nkey, const Vec3& normal) -> Result<std::uint32_t> {
    const std::uint64_t key = (static_cast<std::uint64_t>(v) << 32) | nkey;
    auto [it, inserted] = ids.emplace(key, 0);
    if (!inserted) return it->second;
    if (m.vertices.size() >= kLimit) return make_error(ErrorCode::limit_exceeded, "more than 2^31 - 1 vertices", section);
    Vertex vx;
    vx.position = pos[v];
    vx.normal = normal;
    if (v < mesh.uvs.size()) vx.uv = mesh.uvs[v];
    vx.bones = {0, -1, -1, -1};
    vx.weights = {1, 0, 0, 0};
    vx.edge_scale = 0;
    it->second = static_cast<std::uint32_t>(m.vertices.size());
    m.vertices.push_back(vx);
    if (any_colors) m.vertex_colors.push_back(colors[v]);
    return it->second;
  };
  for (std::size_t f = 0; f < nf; ++f) {
    if (!valid[f]) continue;
    std::size_t mat = 0;
    if (mesh.has_material_list && !mesh.face_materials.empty()) {
      const std::uint32_t fm = mesh.face_materials[std::min(f, mesh.face_materials.size() - 1)];
      if (fm >= mat_count) {
        add(F, FindingKind::index_out_of_range, section, static_cast<std::int64_t>(f), "MeshMaterialList",
            detail::out_of_range(fm, mat_count, "materials") + " (face dropped)");
        continue;
      }
      mat = fm;
    }
    const std::uint32_t k = mesh.face_sizes[f];
    std::vector<std::uint32_t> corner(k);
    for (std::uint32_t j = 0; j < k; ++j) {
      const std::uint32_t v = mesh.face_indices[first[f] + j];
      Vec3 n{};
      std::uint64_t nkey = 0xFFFFFFFFu;
      if (corner_normals) {
        const std::uint32_t ni = mesh.normal_face_indices[first[f] + j];
        if (ni < mesh.normals.size()) {
          n = apply3(nmat, mesh.normals[ni]);
          nkey = ni;
        } else {
          add(F, FindingKind::index_out_of_range, section, static_cast<std::int64_t>(f), "MeshNormals",
              detail::out_of_range(ni, mesh.normals.size(), "normals") + " (normal (0, 0, 0))");
        }
      } else if (vertex_normals) {
        n = apply3(nmat, mesh.normals[v]);
      } else {
        n = computed[v];
      }
      MMDKIT_TRY_ASSIGN(auto id, vertex_of(v, nkey, n));
      corner[j] = id;
    }
    for (std::uint32_t j = 1; j + 1 < k; ++j) {
      tris[mat].push_back(corner[0]);
      tris[mat].push_back(corner[j]);
      tris[mat].push_back(corner[j + 1]);
    }
  }
  for (std::size_t k = 0; k < mat_count; ++k) {
    Material& vm = m.materials[mat_base + k];
    if (m.faces.size() + tris[k].size() > kLimit) return make_error(ErrorCode::limit_exceeded, "more than 2^31 - 1 face indices", section);
    vm.first_index = static_cast<std::uint32_t>(m.faces.size());
    vm.index_count = static_cast<std::uint32_t>(tris[k].size());
    m.faces.insert(m.faces.end(), tris[k].begin(), tris[k].end());
  }
  return {};
}

}  // namespace

Result<Model> from_x(const x::Document& doc, const XBuildOptions& options) {
  Model m;
  m.source = SourceFormat::x;
  m.shading = Shading::accessory;
  m.transform_order = TransformOrder::pmx;
  m.name = options.name;
  m.name_en = options.name;

  Bone root;
  root.name = std::string(kAccessoryBoneName);
  root.name_en = root.name;
  m.bones.push_back(std::move(root));

  bool any_colors = false;
  for (const x::Mesh& mesh : doc.meshes) any_colors = any_colors || !mesh.vertex_colors.empty();
  for (std::size_t mi = 0; mi < doc.meshes.size(); ++mi) MMDKIT_TRY(add_mesh(m, doc, mi, options.scale, any_colors));
  detail::utf8_binding_keys(m);
  detail::compute_bone_order(m);
  return m;
}

Result<Model> load_x(ByteSpan bytes, const XBuildOptions& options) {
  MMDKIT_TRY_ASSIGN(auto doc, x::read(bytes));
  auto m = from_x(doc, options);
  if (!m) return m;
  for (const Warning& w : doc.warnings)
    add(m->findings, FindingKind::reader_warning, w.section, -1, "", w.message, Severity::warning);
  return m;
}

Result<Model> load_x_file(const std::filesystem::path& path, const XBuildOptions& options) {
  MMDKIT_TRY_ASSIGN(auto bytes, read_file(path));
  XBuildOptions o = options;
  if (o.name.empty()) o.name = path.filename().string();
  auto m = load_x(bytes, o);
  if (!m) {
    Error e = m.error();
    e.file = path.string();
    return std::unexpected(std::move(e));
  }
  return m;
}

}  // namespace mmdkit::model
