// Synthetic PMX models (see pmx_generate.hpp).
#include "mmdkit/formats/pmx_generate.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include "formats/generate/generated_images.hpp"
#include "formats/pmx/common.hpp"
#include "mmdkit/formats/humanoid.hpp"
#include "formats/generate/rng.hpp"

namespace mmdkit::pmx {
namespace {

using mmdkit::generate::Rng;

struct Ctx {
  Encoding enc;
  Text text(std::string_view s) const {
    Text t;
    t.text = std::string(s);
    auto b = detail::encode(s, enc);
    if (b) t.raw = std::move(*b);
    return t;
  }
};

constexpr const char* kMorphNames[] = {"あ", "い", "う", "え", "お", "まばたき", "笑い", "ウィンク", "にこり",
                                       "怒り", "困る", "真面目", "びっくり", "照れ", "ｷﾘｯ", "はぅ"};

// GenerateShape::figure: replaces the scattered vertices (their count kept) by one ellipsoid per
// deforming bone, from the bone's position to its tail, and sets the faces.
// The smallest grid: 2 rings, (2 + 1) x (2 * 2 + 1) vertices per part.
constexpr std::size_t kFigureMinPerPart = 3 * 5;

// Returns the triangles of each of the three materials (body, face, hair): the faces are ordered
// so that the head's ellipsoid is the face material (its texture's eyes and mouth on the head)
// and the eyes' are the hair material (shiny: its sphere map); every other part is the body.
std::array<std::size_t, 3> layout_figure(Model& m, const std::vector<std::int32_t>& deforming) {
  const std::size_t nv = m.vertices.size(), parts = deforming.size();
  const std::size_t budget = nv / parts;  // >= kFigureMinPerPart (the caller's test)
  std::size_t rings = 2;  // grid (rings + 1) x (2 rings + 1) vertices per part
  while ((rings + 2) * (2 * rings + 3) <= budget) ++rings;
  const std::size_t segs = 2 * rings, per = (rings + 1) * (segs + 1);
  constexpr float kPi = 3.14159265358979f;
  auto sub = [](const Vec3& a, const Vec3& b) { return Vec3{a[0] - b[0], a[1] - b[1], a[2] - b[2]}; };
  auto len = [](const Vec3& v) { return std::sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]); };
  m.faces.clear();
  std::vector<std::uint32_t> group_faces[3];
  Vec3 last_centre{};
  for (std::size_t k = 0; k < parts; ++k) {
    const auto b = static_cast<std::size_t>(deforming[k]);
    const Bone& bone = m.bones[b];
    const Vec3 p = bone.position;
    Vec3 tail = p;
    if (bone.flags & kTailIsBone) {
      if (bone.tail_bone >= 0) tail = m.bones[static_cast<std::size_t>(bone.tail_bone)].position;
    } else {
      for (std::size_t a = 0; a < 3; ++a) tail[a] = p[a] + bone.tail_offset[a];
    }
    const Vec3 seg = sub(tail, p);
    const float l = len(seg);
    const std::string& n = bone.name.text;
    // Radii by body part (MMD units; the standard model is about 20 units tall).
    float r = std::clamp(0.25f * l, 0.2f, 1.2f);
    if (n == "頭") r = 1.6f;
    else if (n == "上半身") r = 1.5f;
    else if (n == "下半身") r = 1.4f;
    else if (n.find("目") != std::string::npos) r = 0.22f;
    else if (n.find("足") != std::string::npos && n.find("首") == std::string::npos) r = 0.8f;
    else if (n.find("ひざ") != std::string::npos) r = 0.6f;
    Vec3 axis = l > 1e-6f ? Vec3{seg[0] / l, seg[1] / l, seg[2] / l} : Vec3{0, 1, 0};
    const Vec3 centre{(p[0] + tail[0]) * 0.5f, (p[1] + tail[1]) * 0.5f, (p[2] + tail[2]) * 0.5f};
    last_centre = centre;
    const float half = 0.5f * l + 0.35f * r;  // the ends overlap the neighbours a little
    // u, w: unit vectors across the axis.
    Vec3 ref = std::abs(axis[1]) < 0.9f ? Vec3{0, 1, 0} : Vec3{1, 0, 0};
    Vec3 u{axis[1] * ref[2] - axis[2] * ref[1], axis[2] * ref[0] - axis[0] * ref[2], axis[0] * ref[1] - axis[1] * ref[0]};
    const float ul = len(u);
    u = {u[0] / ul, u[1] / ul, u[2] / ul};
    const Vec3 w{axis[1] * u[2] - axis[2] * u[1], axis[2] * u[0] - axis[0] * u[2], axis[0] * u[1] - axis[1] * u[0]};
    const std::int32_t parent = bone.parent >= 0 ? bone.parent : deforming[k];
    const std::size_t base = k * per;
    for (std::size_t i = 0; i <= rings; ++i) {
      const float theta = kPi * static_cast<float>(i) / static_cast<float>(rings);  // 0 at the bone, π at the tail
      const float along = -std::cos(theta), across = std::sin(theta);
      for (std::size_t j = 0; j <= segs; ++j) {
        const float phi = 2.0f * kPi * static_cast<float>(j) / static_cast<float>(segs);
        const float cp = std::cos(phi), sp = std::sin(phi);
        Vertex& v = m.vertices[base + i * (segs + 1) + j];
        Vec3 nrm{};
        for (std::size_t a = 0; a < 3; ++a) {
          const float radial = u[a] * cp + w[a] * sp;
          v.position[a] = centre[a] + axis[a] * (half * along) + radial * (r * across);
          nrm[a] = axis[a] * (along / half) + radial * (across / r);
        }
        const float nl = len(nrm);
        for (std::size_t a = 0; a < 3; ++a) v.normal[a] = nrm[a] / nl;
        v.uv = {static_cast<float>(j) / static_cast<float>(segs), static_cast<float>(i) / static_cast<float>(rings)};
        if (n == "頭") {  // the face texture seen from the front (−Z, MMD's default camera): projected
          const float fx = (v.position[0] - centre[0]) / (2.4f * r), fy = (v.position[1] - centre[1]) / (2.4f * r);
          v.uv = v.position[2] <= centre[2] ? Vec2{0.5f + fx, 0.5f - fy}
                                            : Vec2{0.02f, 0.02f};  // the back: plain skin
        }
        v.edge_scale = 1.0f;
        // The half near the bone's head bends with the parent, the rest follows the bone.
        const float t = 0.5f * (along + 1.0f);  // 0 at the bone's position, 1 at the tail
        v.deform = DeformType::bdef2;
        v.bones = {static_cast<std::int32_t>(b), parent, 0, 0};
        v.weights = {std::clamp(0.5f + t, 0.5f, 1.0f), 0, 0, 0};
        v.sdef = kNoSdef;
      }
    }
    std::vector<std::uint32_t>& group = group_faces[n == "頭" ? 1 : n.find("目") != std::string::npos ? 2 : 0];
    // Quads of the grid, two triangles each, front faces clockwise seen from outside (as MMD's).
    for (std::size_t i = 0; i < rings; ++i)
      for (std::size_t j = 0; j < segs; ++j) {
        const auto a = static_cast<std::uint32_t>(base + i * (segs + 1) + j), bb = a + 1;
        const auto c = static_cast<std::uint32_t>(a + segs + 1), d = c + 1;
        group.insert(group.end(), {a, bb, c, bb, d, c});
      }
  }
  std::array<std::size_t, 3> triangles{};
  for (std::size_t g = 0; g < 3; ++g) {
    triangles[g] = group_faces[g].size() / 3;
    m.faces.insert(m.faces.end(), group_faces[g].begin(), group_faces[g].end());
  }
  for (std::size_t i = parts * per; i < nv; ++i) {  // the rest: no face
    Vertex& v = m.vertices[i];
    v.position = last_centre;
    v.normal = {0, 1, 0};
    v.deform = DeformType::bdef1;
    v.bones = {deforming.back(), 0, 0, 0};
    v.weights = {1, 0, 0, 0};
    v.sdef = kNoSdef;
  }
  m.sdef_params.clear();
  return triangles;
}

}  // namespace

Result<GenerateVariant> parse_generate_variant(std::string_view name) {
  if (name.empty() || name == "pmx2.0-utf16" || name == "pmx2.0") return GenerateVariant::pmx20_utf16;
  if (name == "pmx2.1-utf8" || name == "pmx2.1") return GenerateVariant::pmx21_utf8;
  return make_error(ErrorCode::invalid_argument,
                    "unknown PMX variant '" + std::string(name) + "' (pmx2.0-utf16 or pmx2.1-utf8)");
}

namespace {

// The header: version, encoding and additional UVs of the variant; names and comments.
void generate_header(Model& m, const Ctx& c, const GenerateOptions& o, bool v21) {
  m.header.version = v21 ? Version::v2_1 : Version::v2_0;
  m.header.version_value = v21 ? 2.1f : 2.0f;
  m.header.encoding = c.enc;
  m.header.additional_uv_count = v21 ? 1 : 0;
  m.name = c.text("mmdkit 生成モデル");
  m.name_en = c.text("mmdkit generated model");
  m.comment = c.text("mmdkit generate pmx: seed " + std::to_string(o.seed));
  m.comment_en = c.text("synthetic model for tests and benchmarks");
}

// The humanoid bones (humanoid::bones) with their IK chains; the 2.1 variant puts the eyes on deform layer 1.
void add_humanoid_bones(Model& m, const Ctx& c, std::span<const humanoid::BoneSpec> hb, bool v21) {
  for (const auto& s : hb) {
    Bone b;
    b.name = c.text(s.name);
    b.name_en = c.text(s.name_en);
    b.position = s.position;
    b.parent = s.parent;
    b.flags = kRotatable | kOperable | (s.visible ? kVisible : 0) | (s.movable ? kMovable : 0);
    if (s.tail >= 0) {
      b.flags |= kTailIsBone;
      b.tail_bone = s.tail;
    } else {
      b.tail_offset = s.tail_offset;
    }
    if (s.append_parent >= 0) {
      b.flags |= kAppendRotation;
      b.append_parent = s.append_parent;
      b.append_ratio = s.append_ratio;
    }
    m.bones.push_back(std::move(b));
  }
  for (const auto& ik : humanoid::ik_chains()) {
    Bone& b = m.bones[static_cast<std::size_t>(ik.ik_bone)];
    b.flags |= kIk;
    b.ik_target = ik.target;
    b.ik_iterations = ik.iterations;
    b.ik_limit_angle = ik.limit_angle;
    for (int k = 0; k < ik.link_count; ++k) {
      IkLink l;
      l.bone = ik.links[static_cast<std::size_t>(k)];
      if (k == 0 && ik.knee) {
        l.has_limits = 1;
        l.lower = humanoid::kKneeLower;
        l.upper = humanoid::kKneeUpper;
      }
      b.ik_links.push_back(l);
    }
  }
  // The lower-body legs deform after the IK handles in MMD's order: layer 0 for all here; the
  // 2.1 variant puts the eyes on layer 1 to exercise deform layers.
  if (v21) {
    m.bones[27].deform_layer = 1;
    m.bones[28].deform_layer = 1;
  }
}

// Hair (from the head) and skirt (from the lower body) chains of 8 bones until there are o.bones;
// each added bone is appended to `deforming`.
void add_chain_bones(Model& m, const Ctx& c, const GenerateOptions& o, std::int32_t head, std::int32_t lower,
                     std::vector<std::int32_t>& deforming) {
  for (std::uint64_t chain = 0; m.bones.size() < o.bones; ++chain) {
    std::int32_t root = chain % 2 == 0 ? head : lower;
    Vec3 p = m.bones[static_cast<std::size_t>(root)].position;
    float angle = static_cast<float>(chain) * 0.7f;
    Vec3 dir{std::sin(angle) * 0.3f, -1.0f, std::cos(angle) * 0.3f};
    std::int32_t parent = root;
    for (int k = 0; k < 8 && m.bones.size() < o.bones; ++k) {
      Bone b;
      std::string n = (chain % 2 == 0 ? "髪" : "スカート") + std::to_string(chain / 2 + 1) + "_" + std::to_string(k + 1);
      std::string ne = (chain % 2 == 0 ? "hair" : "skirt") + std::to_string(chain / 2 + 1) + "_" + std::to_string(k + 1);
      b.name = c.text(n);
      b.name_en = c.text(ne);
      for (int a = 0; a < 3; ++a) p[static_cast<std::size_t>(a)] += dir[static_cast<std::size_t>(a)] * 0.8f;
      b.position = p;
      b.parent = parent;
      b.flags = kRotatable | kOperable | kVisible;
      b.tail_offset = {dir[0] * 0.8f, dir[1] * 0.8f, dir[2] * 0.8f};
      parent = static_cast<std::int32_t>(m.bones.size());
      deforming.push_back(parent);
      m.bones.push_back(std::move(b));
    }
  }
}

// o.vertices vertices scattered around the deforming bones, of every deform type of the variant.
void scatter_vertices(Model& m, const GenerateOptions& o, Rng& rng, const std::vector<std::int32_t>& deforming,
                      bool v21) {
  // First child of each bone (for BDEF4).
  std::vector<std::int32_t> child(m.bones.size(), -1);
  for (std::size_t i = m.bones.size(); i-- > 0;)
    if (m.bones[i].parent >= 0) child[static_cast<std::size_t>(m.bones[i].parent)] = static_cast<std::int32_t>(i);
  auto parent_or_self = [&](std::int32_t b) { return m.bones[static_cast<std::size_t>(b)].parent >= 0 ? m.bones[static_cast<std::size_t>(b)].parent : b; };

  const std::size_t nv = o.vertices;
  m.vertices.resize(nv);
  if (v21) m.additional_uvs.resize(nv);
  for (std::size_t i = 0; i < nv; ++i) {
    Vertex& v = m.vertices[i];
    std::int32_t b = deforming[rng.below(deforming.size())];
    const Vec3& bp = m.bones[static_cast<std::size_t>(b)].position;
    Vec3 d{rng.range(-1, 1), rng.range(-1, 1), rng.range(-1, 1)};
    float len = std::sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
    if (len < 1e-3f) d = {0, 1, 0}, len = 1;
    float radius = rng.range(0.2f, 1.5f);
    for (std::size_t a = 0; a < 3; ++a) {
      v.normal[a] = d[a] / len;
      v.position[a] = bp[a] + v.normal[a] * radius;
    }
    v.uv = {rng.unit(), rng.unit()};
    v.edge_scale = 1.0f;
    std::uint64_t pick = rng.below(100);
    std::int32_t p = parent_or_self(b);
    if (pick < 30) {
      v.deform = DeformType::bdef1;
      v.bones[0] = b;
    } else if (pick < 75) {
      v.deform = DeformType::bdef2;
      v.bones = {b, p, 0, 0};
      v.weights[0] = rng.range(0.3f, 1.0f);
    } else if (pick < 95) {
      v.deform = DeformType::bdef4;
      std::int32_t ch = child[static_cast<std::size_t>(b)] >= 0 ? child[static_cast<std::size_t>(b)] : b;
      v.bones = {b, p, parent_or_self(p), ch};
      float w0 = rng.range(0.4f, 0.7f), w1 = rng.range(0.1f, 0.2f), w2 = rng.range(0.05f, 0.1f);
      v.weights = {w0, w1, w2, 1.0f - w0 - w1 - w2};
    } else if (v21 && pick < 97) {
      v.deform = DeformType::qdef;
      v.bones = {b, p, parent_or_self(p), b};
      float w0 = rng.range(0.5f, 0.8f);
      v.weights = {w0, 1.0f - w0, 0.0f, 0.0f};
    } else {
      v.deform = DeformType::sdef;
      v.bones = {b, p, 0, 0};
      v.weights[0] = rng.range(0.3f, 0.7f);
      v.sdef = static_cast<std::uint32_t>(m.sdef_params.size());
      const Vec3& pp = m.bones[static_cast<std::size_t>(p)].position;
      SdefParams s;
      for (std::size_t a = 0; a < 3; ++a) {
        s.c[a] = (bp[a] + pp[a]) * 0.5f;
        s.r0[a] = bp[a];
        s.r1[a] = pp[a];
      }
      m.sdef_params.push_back(s);
    }
    if (v21) m.additional_uvs[i] = {rng.unit(), rng.unit(), rng.unit(), 1.0f};
  }
}

// The faces (a strip, or the figure's ellipsoids) and the three materials (body, face, hair).
void add_faces_and_materials(Model& m, const Ctx& c, const GenerateOptions& o,
                             const std::vector<std::int32_t>& deforming) {
  const std::size_t nv = o.vertices;
  std::size_t tris = nv >= 3 ? nv - 2 : 0;
  std::optional<std::array<std::size_t, 3>> figure_triangles;  // per material, for the figure
  // Fewer vertices per part than the smallest grid: the scattered strip (the grids would index
  // past the vertices; 9..14 per part wrote past the array before this test said 15).
  if (o.shape == GenerateShape::figure && nv / deforming.size() >= kFigureMinPerPart) {
    figure_triangles = layout_figure(m, deforming);
    tris = m.faces.size() / 3;
  } else {
    m.faces.resize(tris * 3);
    for (std::size_t k = 0; k < tris; ++k) {
      auto a = static_cast<std::uint32_t>(k);
      if (k % 2 == 0) {
        m.faces[3 * k] = a, m.faces[3 * k + 1] = a + 1, m.faces[3 * k + 2] = a + 2;
      } else {
        m.faces[3 * k] = a + 1, m.faces[3 * k + 1] = a, m.faces[3 * k + 2] = a + 2;
      }
    }
  }
  m.textures = {c.text("tex/body.png"), c.text("tex/face.png"), c.text("tex/hair_s.spa")};
  const char* mat_names[3][2] = {{"体", "body"}, {"顔", "face"}, {"髪", "hair"}};
  std::size_t first = 0;
  for (int k = 0; k < 3; ++k) {
    Material mt;
    mt.name = c.text(mat_names[k][0]);
    mt.name_en = c.text(mat_names[k][1]);
    mt.diffuse = {1.0f, 0.9f - 0.1f * static_cast<float>(k), 0.9f, 1.0f};
    mt.specular = {0.2f, 0.2f, 0.2f};
    mt.specular_power = 10.0f;
    mt.ambient = {0.5f, 0.45f, 0.45f};
    mt.flags = kGroundShadow | kDrawShadowMap | kReceiveShadow | kDrawEdge | (k == 2 ? kDoubleSided : 0);
    mt.edge_color = {0, 0, 0, 1};
    mt.edge_size = 1.0f;
    mt.texture = k < 2 ? k : 0;
    mt.sphere_texture = k == 2 ? 2 : kNone;
    mt.sphere_mode = k == 2 ? 2 : 0;
    mt.shared_toon = 1;
    mt.toon = k;
    mt.memo = c.text(k == 0 ? "generated" : "");
    std::size_t last = k == 2 ? tris : tris * static_cast<std::size_t>(k + 1) / 3;
    if (figure_triangles) last = first + (*figure_triangles)[static_cast<std::size_t>(k)];
    mt.face_index_count = static_cast<std::uint32_t>((last - first) * 3);
    first = last;
    m.materials.push_back(std::move(mt));
  }
}

// Two rigid bodies (head, upper body) and the neck joint between them.
void add_physics(Model& m, const Ctx& c, std::int32_t head, bool v21) {
  RigidBody h;
  h.name = c.text("頭");
  h.name_en = c.text("head");
  h.bone = head;
  h.group = 0;
  h.collision_mask = 0xFFFE;
  h.shape = 0;
  h.size = {1.8f, 0, 0};
  h.position = {0, 18.0f, 0};
  h.mass = 1;
  h.linear_damping = 0.5f, h.angular_damping = 0.5f, h.friction = 0.5f;
  RigidBody u = h;
  u.name = c.text("上半身");
  u.name_en = c.text("upper body");
  u.bone = humanoid::find_bone("上半身");
  u.shape = 2;
  u.size = {1.2f, 3.0f, 0};
  u.position = {0, 13.5f, 0.3f};
  m.rigid_bodies = {std::move(h), std::move(u)};
  Joint j;
  j.name = c.text("首");
  j.name_en = c.text("neck");
  j.type = v21 ? 1 : 0;
  j.rigid_body_a = 1;
  j.rigid_body_b = 0;
  j.position = {0, 16.0f, 0.3f};
  j.angular_lower = {-0.5f, -0.5f, -0.5f};
  j.angular_upper = {0.5f, 0.5f, 0.5f};
  j.linear_spring = {0, 0, 0};
  j.angular_spring = {10, 10, 10};
  m.joints.push_back(std::move(j));
}

// o.morphs morphs cycling through the morph types of the variant.
void add_morphs(Model& m, const Ctx& c, const GenerateOptions& o, Rng& rng, std::int32_t head, bool v21) {
  const std::size_t nv = o.vertices;
  const std::size_t types21[] = {1, 2, 8, 0, 3, 9, 10};
  const std::size_t types20[] = {1, 2, 8, 0, 3};
  for (std::size_t k = 0; k < o.morphs; ++k) {
    Morph mo;
    std::string n = k < std::size(kMorphNames) ? kMorphNames[k] : "モーフ" + std::to_string(k + 1);
    mo.name = c.text(n);
    mo.name_en = c.text("morph" + std::to_string(k + 1));
    mo.panel = static_cast<std::uint8_t>(1 + k % 4);
    std::size_t t = v21 ? types21[k % 7] : types20[k % 5];
    mo.type = static_cast<MorphType>(t);
    switch (mo.type) {
      case MorphType::vertex:
        for (std::size_t i = 0; i < std::min<std::size_t>(64, nv); ++i)
          mo.vertex_offsets.push_back({static_cast<std::uint32_t>(rng.below(nv)),
                                       {rng.range(-0.1f, 0.1f), rng.range(-0.1f, 0.1f), rng.range(-0.1f, 0.1f)}});
        break;
      case MorphType::bone:
        mo.bone_offsets.push_back({head, {0, 0.1f, 0}, {0, 0.0998334f, 0, 0.9950042f}});
        mo.bone_offsets.push_back({humanoid::find_bone("首"), {0, 0, 0}, {0.0499792f, 0, 0, 0.9987503f}});
        break;
      case MorphType::material: {
        MaterialOffset mof;
        mof.material = k % 2 ? kNone : 1;
        mof.operation = static_cast<std::uint8_t>(k % 2);
        mof.diffuse = {1, 0.8f, 0.8f, 1};
        mof.texture_tint = {1, 1, 1, 1};
        mof.sphere_tint = {1, 1, 1, 1};
        mof.toon_tint = {1, 1, 1, 1};
        mo.material_offsets.push_back(mof);
        break;
      }
      case MorphType::group:
        for (std::size_t i = 0; i < std::min<std::size_t>(k, 3); ++i)
          mo.group_offsets.push_back({static_cast<std::int32_t>(k - 1 - i), 0.5f});
        break;
      case MorphType::flip:
        for (std::size_t i = 0; i < std::min<std::size_t>(k, 2); ++i)
          mo.flip_offsets.push_back({static_cast<std::int32_t>(i), 1.0f});
        break;
      case MorphType::impulse:
        mo.impulse_offsets.push_back({0, 1, {0, 5.0f, 0}, {0, 0, 0}});
        break;
      default:
        for (std::size_t i = 0; i < std::min<std::size_t>(16, nv); ++i)
          mo.uv_offsets.push_back({static_cast<std::uint32_t>(i), {0.01f, 0.02f, 0, 0}});
        break;
    }
    m.morphs.push_back(std::move(mo));
  }
}

// The display frames: Root, 表情 (every morph), センター and 体 (every other visible bone).
void add_display_frames(Model& m, const Ctx& c) {
  DisplayFrame root{c.text("Root"), c.text("Root"), 1, {{0, 0}}};
  DisplayFrame face{c.text("表情"), c.text("Exp"), 1, {}};
  for (std::size_t k = 0; k < m.morphs.size(); ++k) face.elements.push_back({1, static_cast<std::int32_t>(k)});
  DisplayFrame center{c.text("センター"), c.text("center"), 0, {{0, 1}}};
  DisplayFrame body{c.text("体"), c.text("body"), 0, {}};
  for (std::size_t b = 2; b < m.bones.size(); ++b)
    if (m.bones[b].has(kVisible)) body.elements.push_back({0, static_cast<std::int32_t>(b)});
  m.display_frames = {std::move(root), std::move(face), std::move(center), std::move(body)};
}

// The 2.1 variant's soft body (the skirt cloth), anchored to vertex 0 when there is one.
void add_soft_body(Model& m, const Ctx& c, std::size_t nv) {
  SoftBody s;
  s.name = c.text("スカート布");
  s.name_en = c.text("skirt cloth");
  s.shape = 0;
  s.material = 2;
  s.group = 1;
  s.collision_mask = 0xFFFF;
  s.flags = 0x1;
  s.b_link_distance = 2;
  s.cluster_count = 0;
  s.total_mass = 1.0f;
  s.collision_margin = 0.05f;
  s.aero_model = 1;
  s.config = {0, 0, 0, 0, 1, 0, 0.2f, 0, 1, 0.1f, 1, 0.7f};
  s.cluster = {0.1f, 1, 0.5f, 0.5f, 0.5f, 0.5f};
  s.iterations = {0, 1, 0, 4};
  s.material_params = {1, 1, 1};
  if (nv > 0) {
    s.anchors.push_back({1, 0, 0});
    s.pinned_vertices = {0};
  }
  m.soft_bodies.push_back(std::move(s));
}

}  // namespace

Result<Model> generate(const GenerateOptions& o) {
  constexpr std::uint64_t kMax = 0x7FFFFFFF;
  if (o.vertices > kMax || o.bones > kMax || o.morphs > kMax)
    return make_error(ErrorCode::limit_exceeded, "vertex, bone and morph counts are limited to 2^31 - 1");
  const bool v21 = o.variant == GenerateVariant::pmx21_utf8;
  Rng rng(o.seed);
  Model m;
  Ctx c{v21 ? Encoding::utf8 : Encoding::utf16le};
  generate_header(m, c, o, v21);
  const auto hb = humanoid::bones();
  add_humanoid_bones(m, c, hb, v21);
  std::vector<std::int32_t> deforming;
  for (std::size_t i = 0; i < hb.size(); ++i)
    if (hb[i].deforms) deforming.push_back(static_cast<std::int32_t>(i));
  const std::int32_t head = humanoid::find_bone("頭"), lower = humanoid::find_bone("下半身");
  add_chain_bones(m, c, o, head, lower, deforming);
  scatter_vertices(m, o, rng, deforming, v21);
  add_faces_and_materials(m, c, o, deforming);
  add_physics(m, c, head, v21);
  add_morphs(m, c, o, rng, head, v21);
  add_display_frames(m, c);
  if (v21) add_soft_body(m, c, o.vertices);
  fit_index_sizes(m);
  return m;
}

// --- textures -------------------------------------------------------------------------------

Result<std::vector<GeneratedFile>> generate_textures() {
  namespace gi = generated_images;
  static constexpr gi::Texture kTextures[] = {{"tex/body.png", gi::body_pixel, gi::ImageFormat::png},
                                              {"tex/face.png", gi::face_pixel, gi::ImageFormat::png},
                                              {"tex/hair_s.spa", gi::spa_pixel, gi::ImageFormat::bmp}};
  return gi::encode_files<GeneratedFile>(kTextures);
}

}  // namespace mmdkit::pmx
