// mmdkit — model view from a PMD model: every PMD-specific convention converted here
// (docs/MODEL.md "PMD conversions").
#include <algorithm>
#include <cmath>
#include <numbers>

#include "build_internal.hpp"
#include "stored_fields.hpp"
#include "mmdkit/formats/pmd.hpp"
#include "mmdkit/model/textures.hpp"

namespace mmdkit::model {
namespace {

using detail::add;
using detail::out_of_range;

// PMD u16 index: 0xFFFF = none; out of range = none with a finding.
std::int32_t checked16(std::uint32_t i, std::size_t n, std::vector<Finding>& f, const char* section,
                       std::size_t record, const std::string& field, const char* what, bool ffff_is_none = true,
                       Severity sev = Severity::error) {
  if (ffff_is_none && i == 0xFFFF) return -1;
  if (i < n) return static_cast<std::int32_t>(i);
  add(f, FindingKind::index_out_of_range, section, static_cast<std::int64_t>(record), field,
      out_of_range(i, n, what) + "; treated as none", sev);
  return -1;
}

template <std::size_t N>
ByteSpan raw_or_text(const pmd::FixedText<N>& t, std::vector<std::uint8_t>& scratch) {
  if (!t.raw.empty()) return until_nul(ByteSpan(t.raw));
  auto e = encode_text(t.text, Encoding::cp932);
  scratch = e ? std::move(*e) : std::vector<std::uint8_t>{};
  return ByteSpan(scratch);
}

// Name text without trailing CR / LF (PMD frame names often end in "\n").
std::string trim_newlines(std::string s) {
  while (!s.empty() && (s.back() == '\n' || s.back() == '\r')) s.pop_back();
  return s;
}

}  // namespace

/// Knee limits of PMD IK links named 左ひざ / 右ひざ (PmxEditor "IK制限角.txt": X in [-180°, -0.5°]).
static constexpr Vec3 kPmdKneeLower{-std::numbers::pi_v<float>, 0.0f, 0.0f};
static constexpr Vec3 kPmdKneeUpper{-0.5f * std::numbers::pi_v<float> / 180.0f, 0.0f, 0.0f};

namespace {

// Vertices: BDEF1 when one bone carries everything, else BDEF2 (PmxEditor's conversion).
void vertices(const pmd::Model& p, Model& m, std::size_t nv, std::size_t nb) {
  auto& F = m.findings;
  m.vertices.resize(nv);
  for (std::size_t i = 0; i < nv; ++i) {
    const pmd::Vertex& s = p.vertices[i];
    Vertex& v = m.vertices[i];
    v.position = s.position;
    v.normal = s.normal;
    v.uv = s.uv;
    v.edge_scale = s.edge_off ? 0.0f : 1.0f;
    std::int32_t b0 = checked16(s.bones[0], nb, F, "vertices", i, "bones[0]", "bones", false);
    std::int32_t b1 = checked16(s.bones[1], nb, F, "vertices", i, "bones[1]", "bones", false);
    float w = static_cast<float>(s.weight) / 100.0f;
    if (s.weight == 100 || s.bones[0] == s.bones[1]) {
      v.deform = DeformType::bdef1;
      v.bones = {b0, -1, -1, -1};
      v.weights = {1, 0, 0, 0};
    } else if (s.weight == 0) {
      v.deform = DeformType::bdef1;
      v.bones = {b1, -1, -1, -1};
      v.weights = {1, 0, 0, 0};
    } else {
      v.deform = DeformType::bdef2;
      v.bones = {b0, b1, -1, -1};
      v.weights = {w, 1.0f - w, 0, 0};
    }
  }
}

// Materials: flags from edge flag and alpha; texture field split into texture and sphere map;
// toon index through the model's toon names (shared toon when the name is toonNN.bmp).
void materials(const pmd::Model& p, Model& m, bool geometry, std::size_t nmat) {
  auto& F = m.findings;
  m.materials.resize(nmat);
  std::vector<std::uint32_t> counts(nmat);
  const bool has_toon_names = p.tail >= pmd::Tail::toon_textures;
  for (std::size_t i = 0; i < nmat; ++i) {
    const pmd::Material& s = p.materials[i];
    Material& d = m.materials[i];
    d.name = "材質" + std::to_string(i + 1);
    d.name_en = "Material" + std::to_string(i + 1);
    d.diffuse = s.diffuse;
    d.specular = s.specular;
    d.specular_power = s.specular_power;
    d.ambient = s.ambient;
    std::uint8_t flags = 0;
    if (s.edge_flag) flags |= kDrawEdge | kGroundShadow;
    if (s.diffuse[3] != 0.98f) flags |= kDrawShadowMap | kReceiveShadow;
    if (s.diffuse[3] < 1.0f) flags |= kDoubleSided;
    d.flags = flags;
    d.edge_color = {0, 0, 0, 1};
    d.edge_size = 1;
    TextureField parts = split_texture_field(s.texture.text);
    d.texture = parts.texture;
    d.sphere = parts.sphere;
    d.sphere_mode = static_cast<SphereMode>(parts.sphere_mode);
    if (s.toon_index == pmd::kNoToon) {
      // none
    } else if (s.toon_index < pmd::kToonCount) {
      std::string name = has_toon_names ? p.toon_textures[s.toon_index].text : std::string();
      int number = shared_toon_index(name);
      if (name.empty()) {
        d.shared_toon = s.toon_index;  // no toon list: MMD's toon01..toon10
      } else if (number >= 0) {
        d.shared_toon = number;
      } else {
        d.toon = name;
      }
    } else {
      add(F, FindingKind::index_out_of_range, "materials", static_cast<std::int64_t>(i), "toon_index",
          out_of_range(s.toon_index, pmd::kToonCount, "toon textures") + "; treated as none");
    }
    counts[i] = s.index_count;
  }
  {
    std::vector<std::uint32_t> raw(geometry ? p.indices.begin() : p.indices.end(), p.indices.end());
    if (geometry) detail::build_faces(m, raw, counts, "faces", "materials");
  }
}

// Bones: types → flags and append.
void bones(const pmd::Model& p, Model& m, std::size_t nb) {
  auto& F = m.findings;
  m.bones.resize(nb);
  for (std::size_t i = 0; i < nb; ++i) {
    const pmd::Bone& s = p.bones[i];
    Bone& b = m.bones[i];
    b.name = s.name.text;
    if (p.english && i < p.english->bone_names.size()) b.name_en = p.english->bone_names[i].text;
    {
      std::vector<std::uint8_t> scratch;
      b.binding_key = mmdkit::binding_key(raw_or_text(s.name, scratch));
    }
    b.position = s.position;
    b.parent = checked16(s.parent, nb, F, "bones", i, "parent", "bones");
    b.pmd_type = s.type;
    b.deform_layer = 0;
    b.rotatable = true;
    b.operable = true;
    b.visible = true;
    const auto type = static_cast<pmd::BoneType>(s.type);
    if (type != pmd::BoneType::rotation_follow && s.tail != 0 && s.tail != 0xFFFF)
      b.tail_bone = checked16(s.tail, nb, F, "bones", i, "tail", "bones", true, Severity::warning);
    switch (type) {
      case pmd::BoneType::rotate_move: b.movable = true; break;
      case pmd::BoneType::ik: b.movable = true; break;
      case pmd::BoneType::rotation_affected: {  // 回転影響下: copies the rotation of ik_parent
        std::int32_t src = checked16(s.ik_parent, nb, F, "bones", i, "ik_parent", "bones");
        if (src >= 0) {
          b.append_rotation = true;
          b.append_parent = src;
          b.append_ratio = 1.0f;
        }
        break;
      }
      case pmd::BoneType::ik_effector:  // IK接続先
      case pmd::BoneType::invisible:
        b.visible = false;
        b.operable = false;
        break;
      case pmd::BoneType::rotation_follow: {  // 回転連動: source = tail, ratio = ik_parent × 0.01
        std::int32_t src = checked16(s.tail, nb, F, "bones", i, "tail", "bones");
        if (src >= 0) {
          b.append_rotation = true;
          b.append_parent = src;
          b.append_ratio = static_cast<float>(s.ik_parent) * 0.01f;
        }
        b.visible = false;
        break;
      }
      default: break;
    }
  }
}

// Twist bones: fixed axis along head → tail bone.
void twist_axes(Model& m, std::size_t nb) {
  for (std::size_t i = 0; i < nb; ++i) {
    Bone& b = m.bones[i];
    if (b.pmd_type != static_cast<int>(pmd::BoneType::twist) || b.tail_bone < 0) continue;
    const Vec3& t = m.bones[static_cast<std::size_t>(b.tail_bone)].position;
    Vec3 a{t[0] - b.position[0], t[1] - b.position[1], t[2] - b.position[2]};
    float len = std::sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2]);
    if (len > 0 && std::isfinite(len)) {
      b.has_fixed_axis = true;
      b.fixed_axis = {a[0] / len, a[1] / len, a[2] / len};
    }
  }
  detail::break_parent_loops(m, "bones");
}

// IK chains in file order; unit angle × 4; knee limits.
void ik_chains(const pmd::Model& p, Model& m, std::size_t nb) {
  auto& F = m.findings;
  std::vector<std::uint8_t> knee_l, knee_r;
  {
    auto l = encode_text("左ひざ", Encoding::cp932);
    auto r = encode_text("右ひざ", Encoding::cp932);
    if (l) knee_l = *l;
    if (r) knee_r = *r;
  }
  for (std::size_t i = 0; i < p.ik_chains.size(); ++i) {
    const pmd::IkChain& s = p.ik_chains[i];
    IkChain c;
    c.source_index = static_cast<std::int32_t>(i);
    c.ik_bone = checked16(s.target, nb, F, "ik chains", i, "target", "bones", false);
    c.effector = checked16(s.effector, nb, F, "ik chains", i, "effector", "bones", false);
    if (c.ik_bone < 0 || c.effector < 0) continue;
    if (c.ik_bone == c.effector) {
      add(F, FindingKind::ik_invalid, "ik chains", static_cast<std::int64_t>(i), "effector",
          "IK effector is the IK bone itself; the chain is ignored");
      continue;
    }
    c.iterations = s.iterations;
    c.unit_angle = s.unit_angle * 4.0f;
    for (std::size_t k = 0; k < s.links.size(); ++k) {
      std::int32_t lb = checked16(s.links[k], nb, F, "ik chains", i, "links[" + std::to_string(k) + "]", "bones", false);
      if (lb < 0) continue;
      IkLink l;
      l.bone = lb;
      std::vector<std::uint8_t> scratch;
      ByteSpan name = raw_or_text(p.bones[static_cast<std::size_t>(lb)].name, scratch);
      if (std::ranges::equal(name, knee_l) || std::ranges::equal(name, knee_r)) {
        l.has_limits = true;
        l.lower = kPmdKneeLower;
        l.upper = kPmdKneeUpper;
      }
      c.links.push_back(l);
    }
    Bone& ib = m.bones[static_cast<std::size_t>(c.ik_bone)];
    ib.movable = true;
    if (!ib.is_ik) {
      ib.is_ik = true;
      ib.ik_chain = static_cast<std::int32_t>(m.ik_chains.size());
    }
    m.ik_chains.push_back(std::move(c));
  }
}

// Morphs: the base morph (first, type 0) is dropped; other morphs' indices into the base list
// become vertex indices.
void morphs(const pmd::Model& p, Model& m, bool geometry, std::size_t nv, std::size_t first) {
  auto& F = m.findings;
  const bool has_base = first == 1;
  m.pmd_base_morph = has_base;
  if (has_base) {
    std::vector<std::uint8_t> scratch;
    m.pmd_base_morph_key = mmdkit::binding_key(raw_or_text(p.morphs[0].name, scratch));
  }
  std::vector<std::uint32_t> base_vertex;  // base entry → vertex (0xFFFFFFFF = invalid)
  if (has_base && geometry) {
    const auto& bo = p.morphs[0].offsets;
    base_vertex.resize(bo.size());
    for (std::size_t k = 0; k < bo.size(); ++k) {
      base_vertex[k] = bo[k].vertex < nv ? bo[k].vertex : 0xFFFFFFFFu;
      if (bo[k].vertex >= nv)
        add(F, FindingKind::index_out_of_range, "morphs", 0, "offsets[" + std::to_string(k) + "].vertex",
            out_of_range(bo[k].vertex, nv, "vertices") + "; morph entries using it are dropped");
    }
  } else if (!has_base && p.morphs.size() > 0) {
    add(F, FindingKind::index_out_of_range, "morphs", 0, "type",
        "first morph is not the base morph (type 0); no morph offset can be resolved");
  }
  for (std::size_t i = first; i < p.morphs.size(); ++i) {
    const pmd::Morph& s = p.morphs[i];
    Morph d;
    d.name = s.name.text;
    if (p.english && has_base && i - 1 < p.english->morph_names.size()) d.name_en = p.english->morph_names[i - 1].text;
    {
      std::vector<std::uint8_t> scratch;
      d.binding_key = mmdkit::binding_key(raw_or_text(s.name, scratch));
    }
    d.type = MorphType::vertex;
    d.panel = s.type <= 4 ? s.type : 4;
    for (std::size_t k = 0; geometry && k < s.offsets.size(); ++k) {
      const pmd::MorphOffset& o = s.offsets[k];
      if (o.vertex >= base_vertex.size()) {
        add(F, FindingKind::index_out_of_range, "morphs", static_cast<std::int64_t>(i),
            "offsets[" + std::to_string(k) + "].vertex",
            out_of_range(o.vertex, base_vertex.size(), "base morph entries") + "; the offset is dropped");
        continue;
      }
      if (base_vertex[o.vertex] == 0xFFFFFFFFu) continue;  // reported on the base morph
      d.vertex_offsets.push_back({base_vertex[o.vertex], o.offset});
    }
    m.morphs.push_back(std::move(d));
  }
}

// Display frames: Root (bone 0), 表情 (morph display list), then one frame per bone frame name.
void display_frames(const pmd::Model& p, Model& m, std::size_t nb, std::size_t first) {
  auto& F = m.findings;
  {
    DisplayFrame root;
    root.name = "Root";
    root.name_en = "Root";
    root.special = true;
    if (nb > 0) root.elements.push_back({false, 0});
    m.display_frames.push_back(std::move(root));
    DisplayFrame exp;
    exp.name = "表情";
    exp.name_en = "Exp";
    exp.special = true;
    for (std::size_t k = 0; k < p.morph_display.size(); ++k) {
      std::uint32_t idx = p.morph_display[k];
      if (idx < first || idx >= p.morphs.size()) {
        add(F, FindingKind::index_out_of_range, "morph display", static_cast<std::int64_t>(k), "morph",
            idx < first && idx < p.morphs.size() ? std::string("the base morph cannot be displayed; dropped")
                                                 : out_of_range(idx, p.morphs.size(), "morphs") + "; dropped");
        continue;
      }
      exp.elements.push_back({true, static_cast<std::int32_t>(idx - first)});
    }
    m.display_frames.push_back(std::move(exp));
    for (std::size_t f = 0; f < p.bone_frames.size(); ++f) {
      DisplayFrame d;
      d.name = trim_newlines(p.bone_frames[f].text);
      if (p.english && f < p.english->frame_names.size()) d.name_en = trim_newlines(p.english->frame_names[f].text);
      m.display_frames.push_back(std::move(d));
    }
    for (std::size_t k = 0; k < p.bone_display.size(); ++k) {
      const pmd::BoneDisplay& e = p.bone_display[k];
      if (e.frame == 0 || e.frame > p.bone_frames.size()) {
        add(F, FindingKind::index_out_of_range, "bone display", static_cast<std::int64_t>(k), "frame",
            "frame " + std::to_string(e.frame) + " is not 1.." + std::to_string(p.bone_frames.size()) + "; dropped");
        continue;
      }
      if (e.bone >= nb) {
        add(F, FindingKind::index_out_of_range, "bone display", static_cast<std::int64_t>(k), "bone",
            out_of_range(e.bone, nb, "bones") + "; dropped");
        continue;
      }
      m.display_frames[1 + e.frame].elements.push_back({false, static_cast<std::int32_t>(e.bone)});
    }
  }
}

// Rigid bodies: positions relative to the related bone → absolute.
void rigid_bodies_and_joints(const pmd::Model& p, Model& m, std::size_t nb) {
  auto& F = m.findings;
  m.rigid_bodies.resize(p.rigid_bodies.size());
  for (std::size_t i = 0; i < p.rigid_bodies.size(); ++i) {
    const pmd::RigidBody& s = p.rigid_bodies[i];
    RigidBody& d = m.rigid_bodies[i];
    d.name = s.name.text;
    d.bone = checked16(s.bone, nb, F, "rigid bodies", i, "bone", "bones");
    detail::copy_rigid_body_values(d, s);
    if (d.bone >= 0) {
      const Vec3& bp = m.bones[static_cast<std::size_t>(d.bone)].position;
      for (int k = 0; k < 3; ++k) d.position[static_cast<std::size_t>(k)] += bp[static_cast<std::size_t>(k)];
    }
  }
  const std::size_t nr = p.rigid_bodies.size();
  m.joints.resize(p.joints.size());
  for (std::size_t i = 0; i < p.joints.size(); ++i) {
    const pmd::Joint& s = p.joints[i];
    Joint& d = m.joints[i];
    d.name = s.name.text;
    auto rb = [&](std::uint32_t r, const char* field) -> std::int32_t {
      if (r < nr) return static_cast<std::int32_t>(r);
      add(F, FindingKind::index_out_of_range, "joints", static_cast<std::int64_t>(i), field,
          out_of_range(r, nr, "rigid bodies") + "; treated as none");
      return -1;
    };
    d.rigid_body_a = rb(s.rigid_a, "rigid_a");
    d.rigid_body_b = rb(s.rigid_b, "rigid_b");
    detail::copy_joint_values(d, s);
  }
}

}  // namespace

Result<Model> from_pmd(const pmd::Model& p, const BuildOptions& options) {
  Model m;
  m.source = SourceFormat::pmd;
  m.transform_order = TransformOrder::pmd;
  m.name = p.name.text;
  m.comment = p.comment.text;
  if (p.english) {
    m.name_en = p.english->name.text;
    m.comment_en = p.english->comment.text;
  }
  const bool geometry = options.geometry;
  m.has_geometry = geometry;
  const std::size_t nv = geometry ? p.vertices.size() : 0, nb = p.bones.size(), nmat = p.materials.size();
  // The steps, in this order: twist axes and IK chains read the bones made before them.
  vertices(p, m, nv, nb);
  materials(p, m, geometry, nmat);
  bones(p, m, nb);
  twist_axes(m, nb);
  ik_chains(p, m, nb);
  // The base morph (PMD's first morph, type 0) is dropped: morph i of the file is i - first here.
  const std::size_t first = !p.morphs.empty() && p.morphs[0].type == 0 ? 1 : 0;
  morphs(p, m, geometry, nv, first);
  display_frames(p, m, nb, first);
  rigid_bodies_and_joints(p, m, nb);

  detail::compute_bone_order(m);
  return m;
}

}  // namespace mmdkit::model
