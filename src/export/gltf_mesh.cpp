// mmdkit — glTF export: bone nodes, the mesh (one primitive per material), morph targets, skin.
#include <algorithm>
#include <cmath>
#include <map>

#include "core/try.hpp"
#include "export/gltf_internal.hpp"

namespace mmdkit::exporter::gltf {

namespace {

bool finite(std::span<const float> v) {
  return std::all_of(v.begin(), v.end(), [](float x) { return std::isfinite(x); });
}

Error bad_value(std::string section, std::size_t record, std::string field, std::string why) {
  Error e;
  e.code = ErrorCode::invalid_value;
  e.section = std::move(section);
  e.record = static_cast<std::int64_t>(record);
  e.message = field + ": " + why + " (glTF allows finite numbers only)";
  return e;
}

// Offsets of one morph target, vertex → offset, per attribute: [0] POSITION, [1 + k] TEXCOORD_k.
struct TargetData {
  std::array<std::map<std::uint32_t, std::array<float, 3>>, 5> attr;
  bool empty() const {
    return std::all_of(attr.begin(), attr.end(), [](const auto& m) { return m.empty(); });
  }
};

// Adds the vertex / UV offsets of `m` (× factor) to `t`; group children are not followed.
void add_offsets(const model::Model& model, const model::Morph& m, float factor, float scale, TargetData& t) {
  using model::MorphType;
  if (m.type == MorphType::vertex) {
    for (const auto& o : m.vertex_offsets) {
      auto& d = t.attr[0][o.vertex];
      const Vec3 g = to_gltf_point(o.offset, scale);
      for (int c = 0; c < 3; ++c) d[static_cast<std::size_t>(c)] += g[static_cast<std::size_t>(c)] * factor;
    }
    return;
  }
  std::size_t slot = 0;
  if (m.type == MorphType::uv) slot = 1;
  else if (m.type >= MorphType::additional_uv1 && m.type <= MorphType::additional_uv4) {
    const std::size_t k = static_cast<std::size_t>(m.type) - static_cast<std::size_t>(MorphType::additional_uv1) + 1;
    if (k > model.additional_uv_count) return;  // no such UV set on the vertices
    slot = 1 + k;
  } else {
    return;
  }
  for (const auto& o : m.uv_offsets) {
    auto& d = t.attr[slot][o.vertex];
    d[0] += o.offset[0] * factor;
    d[1] += o.offset[1] * factor;
  }
}

// The armature: one node without transform holding the root bones, so that the joints have a
// common root (glTF requires it; MMD models often have several root bones).
void add_armature(Document& doc, const model::Model& model, MeshParts& parts) {
  auto& a = doc.alloc();
  const std::size_t nb = model.bones.size();
  Value arm(rapidjson::kObjectType);
  arm.AddMember("name", "armature", a);
  Value ch(rapidjson::kArrayType);
  for (std::size_t b = 0; b < nb; ++b)
    if (model.bones[b].parent < 0) ch.PushBack(static_cast<int>(doc.nodes().Size()) + 1 + static_cast<int>(b), a);
  if (!ch.Empty()) arm.AddMember("children", ch, a);
  doc.nodes().PushBack(arm, a);
  parts.armature_node = static_cast<int>(doc.nodes().Size()) - 1;
  doc.scene_nodes().PushBack(parts.armature_node, a);
}

// Bone nodes: rest translation relative to the parent, no rotation; refuses a position not finite.
Result<void> add_bone_nodes(Document& doc, const model::Model& model, float s, MeshParts& parts) {
  auto& a = doc.alloc();
  const std::size_t nb = model.bones.size();
  parts.first_bone_node = static_cast<int>(doc.nodes().Size());
  std::vector<std::vector<int>> children(nb);
  for (std::size_t b = 0; b < nb; ++b) {
    const model::Bone& bone = model.bones[b];
    if (!finite(bone.position)) return std::unexpected(bad_value("bones", b, "position", "not finite"));
    if (bone.parent >= 0) children[static_cast<std::size_t>(bone.parent)].push_back(static_cast<int>(b));
  }
  for (std::size_t b = 0; b < nb; ++b) {
    const model::Bone& bone = model.bones[b];
    Vec3 rel = bone.position;
    if (bone.parent >= 0) {
      const auto& pp = model.bones[static_cast<std::size_t>(bone.parent)].position;
      rel = {rel[0] - pp[0], rel[1] - pp[1], rel[2] - pp[2]};
    }
    const Vec3 t = to_gltf_point(rel, s);
    Value n(rapidjson::kObjectType);
    n.AddMember("name", doc.str(bone.name), a);
    Value tr(rapidjson::kArrayType);
    for (float x : t) tr.PushBack(x, a);
    n.AddMember("translation", tr, a);
    if (!children[b].empty()) {
      Value ch(rapidjson::kArrayType);
      for (int c : children[b]) ch.PushBack(parts.first_bone_node + c, a);
      n.AddMember("children", ch, a);
    }
    if (!bone.name_en.empty()) {
      Value ex(rapidjson::kObjectType);
      ex.AddMember("nameEn", doc.str(bone.name_en), a);
      n.AddMember("extras", ex, a);
    }
    doc.nodes().PushBack(n, a);
  }
  return {};
}

// The joints and weights of one vertex (4 each): repeated bones merged, -1 and non-positive weights
// dropped, normalised so that the largest weight makes the sum exactly 1.
void skin_weights(const model::Vertex& x, std::uint16_t* joints, float* weights) {
  int n = 1;
  if (x.deform == model::DeformType::bdef2 || x.deform == model::DeformType::sdef) n = 2;
  if (x.deform == model::DeformType::bdef4 || x.deform == model::DeformType::qdef) n = 4;
  std::array<std::int32_t, 4> jb{-1, -1, -1, -1};
  std::array<double, 4> jw{};
  int used = 0;
  double sum = 0;
  for (int i = 0; i < n; ++i) {
    const std::int32_t b = x.bones[static_cast<std::size_t>(i)];
    const double w = n == 1 ? 1.0 : static_cast<double>(x.weights[static_cast<std::size_t>(i)]);
    if (b < 0 || !(w > 0) || !std::isfinite(w)) continue;
    int k = 0;
    while (k < used && jb[static_cast<std::size_t>(k)] != b) ++k;
    if (k == used) jb[static_cast<std::size_t>(used++)] = b;
    jw[static_cast<std::size_t>(k)] += w;
    sum += w;
  }
  if (used == 0) {  // no usable weight: the first bone named, else bone 0, fully
    jb[0] = std::max(x.bones[0], 0);
    jw[0] = sum = 1;
    used = 1;
  }
  float acc = 0;
  int largest = 0;
  for (int k = 0; k < used; ++k) {
    const auto uk = static_cast<std::size_t>(k);
    joints[uk] = static_cast<std::uint16_t>(jb[uk]);
    weights[uk] = static_cast<float>(jw[uk] / sum);
    if (jw[uk] > jw[static_cast<std::size_t>(largest)]) largest = k;
  }
  for (int k = 0; k < used; ++k)
    if (k != largest) acc += weights[static_cast<std::size_t>(k)];
  weights[static_cast<std::size_t>(largest)] = 1.0f - acc;
}

// The vertex attributes in glTF space, flat; refuses values that are not finite.
struct VertexArrays {
  std::vector<float> pos, nrm, uv, edge;
  std::vector<std::vector<float>> extra_uv;  // one per additional UV set
  std::vector<std::uint16_t> joints;
  std::vector<float> weights;
  std::size_t sdef = 0, qdef = 0, zero_normals = 0;
  bool any_edge = false;
};
Result<VertexArrays> vertex_arrays(const model::Model& model, float s) {
  const std::size_t nb = model.bones.size();
  const std::size_t nv = model.vertices.size();
  const std::size_t nuv = model.additional_uv_count;
  VertexArrays r{std::vector<float>(nv * 3), std::vector<float>(nv * 3), std::vector<float>(nv * 2),
                 std::vector<float>(nv), std::vector<std::vector<float>>(nuv, std::vector<float>(nv * 2)),
                 std::vector<std::uint16_t>(nv * 4, 0), std::vector<float>(nv * 4, 0.0f)};
  auto& [pos, nrm, uv, edge, extra_uv, joints, weights, sdef, qdef, zero_normals, any_edge] = r;
  for (std::size_t v = 0; v < nv; ++v) {
    const model::Vertex& x = model.vertices[v];
    if (!finite(x.position)) return std::unexpected(bad_value("vertices", v, "position", "not finite"));
    if (!finite(x.normal)) return std::unexpected(bad_value("vertices", v, "normal", "not finite"));
    if (!finite(x.uv)) return std::unexpected(bad_value("vertices", v, "uv", "not finite"));
    const Vec3 p = to_gltf_point(x.position, s);
    std::copy(p.begin(), p.end(), pos.begin() + static_cast<std::ptrdiff_t>(v * 3));
    const double n0 = static_cast<double>(x.normal[0]), n1 = static_cast<double>(x.normal[1]);
    const double n2 = static_cast<double>(x.normal[2]);
    const double len = std::sqrt(n0 * n0 + n1 * n1 + n2 * n2);
    if (len < 1e-12) {
      ++zero_normals;
      nrm[v * 3 + 1] = 1.0f;
    } else {
      nrm[v * 3] = static_cast<float>(n0 / len);
      nrm[v * 3 + 1] = static_cast<float>(n1 / len);
      nrm[v * 3 + 2] = static_cast<float>(-n2 / len);
    }
    uv[v * 2] = x.uv[0];
    uv[v * 2 + 1] = x.uv[1];
    for (std::size_t k = 0; k < nuv; ++k) {
      const model::Vec4& e = model.additional_uvs[v * nuv + k];
      if (!std::isfinite(e[0]) || !std::isfinite(e[1]))
        return std::unexpected(bad_value("vertices", v, "additional_uv[" + std::to_string(k) + "]", "not finite"));
      extra_uv[k][v * 2] = e[0];
      extra_uv[k][v * 2 + 1] = e[1];
    }
    edge[v] = std::isfinite(x.edge_scale) ? x.edge_scale : 1.0f;
    any_edge = any_edge || edge[v] != 1.0f;
    if (nb == 0) continue;
    sdef += x.deform == model::DeformType::sdef;
    qdef += x.deform == model::DeformType::qdef;
    skin_weights(x, &joints[v * 4], &weights[v * 4]);
  }
  return r;
}

// The primitives' attributes object (its accessors added to doc): POSITION, NORMAL, the UV sets,
// the skin when there are bones and the edge scale when any is not 1.
Value add_attributes(Document& doc, const model::Model& model, const VertexArrays& r) {
  auto& a = doc.alloc();
  const std::size_t nb = model.bones.size();
  const std::size_t nv = model.vertices.size();
  const std::size_t nuv = model.additional_uv_count;
  const auto& [pos, nrm, uv, edge, extra_uv, joints, weights, sdef, qdef, zero_normals, any_edge] = r;
  Value attrs(rapidjson::kObjectType);
  attrs.AddMember("POSITION", doc.add_accessor(pos.data(), nv, kFloat, "VEC3", 3, kArrayBuffer, true), a);
  attrs.AddMember("NORMAL", doc.add_accessor(nrm.data(), nv, kFloat, "VEC3", 3, kArrayBuffer, false), a);
  attrs.AddMember("TEXCOORD_0", doc.add_accessor(uv.data(), nv, kFloat, "VEC2", 2, kArrayBuffer, false), a);
  for (std::size_t k = 0; k < nuv; ++k) {
    Value name = doc.str("TEXCOORD_" + std::to_string(k + 1));
    attrs.AddMember(name, Value(doc.add_accessor(extra_uv[k].data(), nv, kFloat, "VEC2", 2, kArrayBuffer, false)), a);
  }
  if (nb > 0) {
    attrs.AddMember("JOINTS_0", doc.add_accessor(joints.data(), nv, kUnsignedShort, "VEC4", 4, kArrayBuffer, false), a);
    attrs.AddMember("WEIGHTS_0", doc.add_accessor(weights.data(), nv, kFloat, "VEC4", 4, kArrayBuffer, false), a);
  }
  if (any_edge) attrs.AddMember("_EDGE_SCALE", doc.add_accessor(edge.data(), nv, kFloat, "SCALAR", 1, kArrayBuffer, false), a);
  return attrs;
}

// Morph targets (vertex, UV, groups flattened) as sparse accessors: the targets list; the morph
// of each target in parts.target_morphs. Refuses weights and offsets that are not finite.
Result<Value> add_morph_targets(Document& doc, const model::Model& model, float s, MeshParts& parts) {
  auto& a = doc.alloc();
  const std::size_t nv = model.vertices.size();
  std::vector<TargetData> targets;
  std::array<bool, 5> attr_used{};
  for (std::size_t m = 0; m < model.morphs.size(); ++m) {
    const model::Morph& mo = model.morphs[m];
    TargetData t;
    if (mo.type == model::MorphType::group) {
      for (const auto& g : mo.group_offsets) {
        if (!std::isfinite(g.weight)) return std::unexpected(bad_value("morphs", m, "group weight", "not finite"));
        add_offsets(model, model.morphs[static_cast<std::size_t>(g.morph)], g.weight, s, t);
      }
    } else {
      add_offsets(model, mo, 1.0f, s, t);
    }
    if (t.empty()) continue;
    for (std::size_t k = 0; k < t.attr.size(); ++k) {
      attr_used[k] = attr_used[k] || !t.attr[k].empty();
      for (const auto& [vi, d] : t.attr[k])
        if (!finite(d)) return std::unexpected(bad_value("morphs", m, "offsets", "not finite"));
    }
    targets.push_back(std::move(t));
    parts.target_morphs.push_back(static_cast<std::uint32_t>(m));
  }
  attr_used[0] = true;  // every target has POSITION
  Value target_list(rapidjson::kArrayType);
  for (const TargetData& t : targets) {
    Value tv(rapidjson::kObjectType);
    for (std::size_t k = 0; k < t.attr.size(); ++k) {
      if (!attr_used[k]) continue;
      const int comps = k == 0 ? 3 : 2;
      std::vector<std::uint32_t> idx;
      std::vector<float> val;
      for (const auto& [vi, d] : t.attr[k]) {
        idx.push_back(vi);
        val.insert(val.end(), d.begin(), d.begin() + comps);
      }
      const int acc = doc.add_float_sparse(nv, k == 0 ? "VEC3" : "VEC2", comps, idx, val);
      Value name = doc.str(k == 0 ? std::string("POSITION") : "TEXCOORD_" + std::to_string(k - 1));
      tv.AddMember(name, Value(acc), a);
    }
    target_list.PushBack(tv, a);
  }
  return target_list;
}

// One primitive per material with faces; winding reversed for the Z mirror.
Value add_primitives(Document& doc, const model::Model& model, const Value& attrs, const Value& target_list) {
  auto& a = doc.alloc();
  const std::size_t nv = model.vertices.size();
  const bool wide = nv > 65535;
  Value prims(rapidjson::kArrayType);
  for (std::size_t mi = 0; mi < model.materials.size(); ++mi) {
    const model::Material& mat = model.materials[mi];
    const std::size_t first = mat.first_index, count = mat.index_count / 3 * 3;
    if (count == 0 || first + count > model.faces.size()) continue;
    std::vector<std::uint32_t> idx(count);
    for (std::size_t i = 0; i < count; i += 3) {
      idx[i] = model.faces[first + i];
      idx[i + 1] = model.faces[first + i + 2];
      idx[i + 2] = model.faces[first + i + 1];
    }
    int acc;
    if (wide) {
      acc = doc.add_accessor(idx.data(), count, kUnsignedInt, "SCALAR", 1, kElementArrayBuffer, false);
    } else {
      std::vector<std::uint16_t> i16(idx.begin(), idx.end());
      acc = doc.add_accessor(i16.data(), count, kUnsignedShort, "SCALAR", 1, kElementArrayBuffer, false);
    }
    Value p(rapidjson::kObjectType);
    p.AddMember("attributes", Value(attrs, a), a);
    p.AddMember("indices", acc, a);
    p.AddMember("material", static_cast<int>(mi), a);
    if (!target_list.Empty()) p.AddMember("targets", Value(target_list, a), a);
    prims.PushBack(p, a);
  }
  return prims;
}

// The mesh of the primitives, its morph weights and names and the edge scale note in extras.
void add_mesh(Document& doc, const model::Model& model, Value& prims, const MeshParts& parts, bool any_edge) {
  auto& a = doc.alloc();
  const bool targets = !parts.target_morphs.empty();
  Value mesh(rapidjson::kObjectType);
  mesh.AddMember("name", doc.str(model.name), a);
  mesh.AddMember("primitives", prims, a);
  Value mex(rapidjson::kObjectType);
  if (targets) {
    Value w(rapidjson::kArrayType), names(rapidjson::kArrayType), idx(rapidjson::kArrayType);
    for (std::uint32_t m : parts.target_morphs) {
      w.PushBack(0.0f, a);
      names.PushBack(doc.str(model.morphs[m].name), a);
      idx.PushBack(m, a);
    }
    mesh.AddMember("weights", w, a);
    mex.AddMember("targetNames", names, a);
    Value mmd(rapidjson::kObjectType);
    mmd.AddMember("targetMorphs", idx, a);
    if (any_edge) mmd.AddMember("edgeScaleAttribute", "_EDGE_SCALE", a);
    mex.AddMember("mmd", mmd, a);
  } else if (any_edge) {
    Value mmd(rapidjson::kObjectType);
    mmd.AddMember("edgeScaleAttribute", "_EDGE_SCALE", a);
    mex.AddMember("mmd", mmd, a);
  }
  if (mex.MemberCount() > 0) mesh.AddMember("extras", mex, a);
  doc.meshes().PushBack(mesh, a);
}

// The mesh node and its skin: every bone a joint; inverse bind = translation by −(rest position).
void add_mesh_node(Document& doc, const model::Model& model, float s, MeshParts& parts) {
  auto& a = doc.alloc();
  const std::size_t nb = model.bones.size();
  Value node(rapidjson::kObjectType);
  node.AddMember("name", doc.str(model.name.empty() ? std::string("mesh") : model.name), a);
  node.AddMember("mesh", static_cast<int>(doc.meshes().Size()) - 1, a);
  if (nb > 0) {
    std::vector<float> ibm(nb * 16, 0.0f);
    for (std::size_t b = 0; b < nb; ++b) {
      const Vec3 p = to_gltf_point(model.bones[b].position, s);
      float* m = &ibm[b * 16];
      m[0] = m[5] = m[10] = m[15] = 1.0f;
      m[12] = -p[0];
      m[13] = -p[1];
      m[14] = -p[2];
    }
    Value skin(rapidjson::kObjectType);
    skin.AddMember("inverseBindMatrices", doc.add_accessor(ibm.data(), nb, kFloat, "MAT4", 16, 0, false), a);
    Value jl(rapidjson::kArrayType);
    for (std::size_t b = 0; b < nb; ++b) jl.PushBack(parts.first_bone_node + static_cast<int>(b), a);
    skin.AddMember("joints", jl, a);
    doc.skins().PushBack(skin, a);
    node.AddMember("skin", static_cast<int>(doc.skins().Size()) - 1, a);
  }
  doc.nodes().PushBack(node, a);
  parts.mesh_node = static_cast<int>(doc.nodes().Size()) - 1;
  doc.scene_nodes().PushBack(parts.mesh_node, a);
}

}  // namespace

Result<MeshParts> write_mesh(Document& doc, const model::Model& model, const GltfOptions& options, GltfOutput& out) {
  const float s = options.scale;
  MeshParts parts;
  add_armature(doc, model, parts);
  MMDKIT_TRY(add_bone_nodes(doc, model, s, parts));
  if (model.vertices.empty() || model.faces.empty()) {
    return parts;
  }
  MMDKIT_TRY_ASSIGN(const VertexArrays vertices, vertex_arrays(model, s));
  if (vertices.sdef + vertices.qdef > 0)
    out.warnings.push_back(std::to_string(vertices.sdef) + " SDEF and " + std::to_string(vertices.qdef) +
                           " QDEF vertices written as linear blend skinning (glTF has no spherical or dual-quaternion skinning)");
  if (vertices.zero_normals > 0)
    out.warnings.push_back(std::to_string(vertices.zero_normals) + " vertices with a zero normal written with normal (0, 1, 0)");
  const Value attrs = add_attributes(doc, model, vertices);
  MMDKIT_TRY_ASSIGN(const Value target_list, add_morph_targets(doc, model, s, parts));
  out.morph_targets = parts.target_morphs.size();
  Value prims = add_primitives(doc, model, attrs, target_list);
  if (prims.Empty()) {
    return parts;
  }
  add_mesh(doc, model, prims, parts, vertices.any_edge);
  add_mesh_node(doc, model, s, parts);
  return parts;
}

}  // namespace mmdkit::exporter::gltf
