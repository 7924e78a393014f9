// mmdkit — synthetic humanoid PMD (pmd_generate.hpp).
#include <algorithm>
#include <array>
#include <cmath>
#include <string>

#include "core/try.hpp"
#include "formats/generate/generated_images.hpp"
#include "mmdkit/formats/humanoid.hpp"
#include "mmdkit/formats/pmd_generate.hpp"
#include "formats/generate/rng.hpp"

namespace mmdkit::pmd {
namespace {

using mmdkit::generate::Rng;

template <std::size_t N>
Result<void> put(FixedText<N>& field, std::string_view utf8) {
  return set_text(field, utf8, Encoding::cp932);
}

// The humanoid bones (humanoid::bones) in PMD types, and their IK chains.
Result<void> add_bones(Model& m, std::span<const humanoid::BoneSpec> specs) {
  const auto iks = humanoid::ik_chains();
  m.bones.resize(specs.size());
  for (std::size_t i = 0; i < specs.size(); ++i) {
    const auto& s = specs[i];
    Bone& b = m.bones[i];
    MMDKIT_TRY(put(b.name, s.name));
    b.parent = s.parent < 0 ? kNoBone : static_cast<std::uint16_t>(s.parent);
    b.tail = s.tail < 0 ? 0 : static_cast<std::uint16_t>(s.tail);
    b.position = s.position;
    b.type = static_cast<std::uint8_t>(s.movable ? BoneType::rotate_move : BoneType::rotate);
    b.ik_parent = 0;
    if (s.append_parent >= 0) {
      b.type = static_cast<std::uint8_t>(BoneType::rotation_affected);
      b.ik_parent = static_cast<std::uint16_t>(s.append_parent);
    }
  }
  for (const auto& k : iks) {
    m.bones[static_cast<std::size_t>(k.ik_bone)].type = static_cast<std::uint8_t>(BoneType::ik);
    Bone& eff = m.bones[static_cast<std::size_t>(k.target)];
    if (!specs[static_cast<std::size_t>(k.target)].visible) {
      eff.type = static_cast<std::uint8_t>(BoneType::ik_effector);
      eff.ik_parent = static_cast<std::uint16_t>(k.ik_bone);
    } else if (eff.type == static_cast<std::uint8_t>(BoneType::rotate)) {
      eff.type = static_cast<std::uint8_t>(BoneType::ik_affected);
      eff.ik_parent = static_cast<std::uint16_t>(k.ik_bone);
    }
    for (std::int32_t l = 0; l < k.link_count; ++l) {
      Bone& lb = m.bones[static_cast<std::size_t>(k.links[static_cast<std::size_t>(l)])];
      lb.type = static_cast<std::uint8_t>(BoneType::ik_affected);
      lb.ik_parent = static_cast<std::uint16_t>(k.ik_bone);
    }
    IkChain c;
    c.target = static_cast<std::uint16_t>(k.ik_bone);
    c.effector = static_cast<std::uint16_t>(k.target);
    c.iterations = static_cast<std::uint16_t>(k.iterations);
    c.unit_angle = k.limit_angle / 4.0f;
    for (std::int32_t l = 0; l < k.link_count; ++l) c.links.push_back(static_cast<std::uint16_t>(k.links[static_cast<std::size_t>(l)]));
    m.ik_chains.push_back(std::move(c));
  }
  return {};
}

// `count` vertices near the deforming bones, each on one bone or shared with its parent.
void add_vertices(Model& m, std::span<const humanoid::BoneSpec> specs, Rng& rng, std::uint64_t count) {
  std::vector<std::uint16_t> deforming;
  for (std::size_t i = 0; i < specs.size(); ++i)
    if (specs[i].deforms) deforming.push_back(static_cast<std::uint16_t>(i));
  m.vertices.resize(static_cast<std::size_t>(count));
  for (Vertex& v : m.vertices) {
    std::uint16_t b = deforming[rng.below(static_cast<std::uint32_t>(deforming.size()))];
    const auto& s = specs[b];
    std::array<float, 3> d{rng.range(-1.5f, 1.5f), rng.range(-1.5f, 1.5f), rng.range(-1.5f, 1.5f)};
    float len = std::sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
    for (std::size_t k = 0; k < 3; ++k) v.position[k] = s.position[k] + d[k];
    if (len > 1e-3f)
      v.normal = {d[0] / len, d[1] / len, d[2] / len};
    else
      v.normal = {0, 1, 0};
    v.uv = {rng.unit(), rng.unit()};
    std::int32_t parent = s.parent;
    bool shared = rng.below(2) == 1 && parent >= 0 && specs[static_cast<std::size_t>(parent)].deforms;
    v.bones = {b, shared ? static_cast<std::uint16_t>(parent) : b};
    v.weight = shared ? static_cast<std::uint8_t>(1 + rng.below(99)) : 100;
    v.edge_off = 0;
  }
}

// The faces (a strip over the vertices) and two materials (body, face) sharing them.
Result<void> add_faces_and_materials(Model& m) {
  const std::size_t n = m.vertices.size();
  if (n >= 3) {
    m.indices.reserve(3 * (n - 2));
    for (std::size_t k = 0; k + 2 < n; ++k) {
      bool flip = k % 2 == 1;
      m.indices.push_back(static_cast<std::uint16_t>(k));
      m.indices.push_back(static_cast<std::uint16_t>(flip ? k + 2 : k + 1));
      m.indices.push_back(static_cast<std::uint16_t>(flip ? k + 1 : k + 2));
    }
  }
  const std::uint32_t triangles = static_cast<std::uint32_t>(m.indices.size() / 3);
  Material body;
  body.diffuse = {0.8f, 0.8f, 0.8f, 1.0f};
  body.specular_power = 5;
  body.specular = {0.1f, 0.1f, 0.1f};
  body.ambient = {0.5f, 0.5f, 0.5f};
  body.toon_index = 0;
  body.edge_flag = 1;
  body.index_count = 3 * (triangles / 2);
  MMDKIT_TRY(put(body.texture, "body.bmp"));
  Material face = body;
  face.toon_index = 1;
  face.index_count = 3 * (triangles - triangles / 2);
  MMDKIT_TRY(put(face.texture, "face.bmp*face.sph"));
  m.materials = {body, face};
  return {};
}

// The base morph (up to 64 vertices) and o.morphs vertex morphs over it, with their English names in
// `en` and display entries (at most 255).
Result<void> add_morphs(Model& m, English& en, const GenerateOptions& o, Rng& rng) {
  const std::size_t n = m.vertices.size();
  static const char* kMorphNames[] = {"あ", "い", "う", "え", "お", "まばたき", "笑い", "ウィンク"};
  static const char* kMorphNamesEn[] = {"a", "i", "u", "e", "o", "blink", "smile", "wink"};
  static const std::uint8_t kMorphTypes[] = {3, 3, 3, 3, 3, 2, 2, 2};
  Morph base;
  MMDKIT_TRY(put(base.name, "base"));
  base.type = 0;
  const std::size_t nbase = std::min<std::size_t>(n, 64);
  for (std::size_t k = 0; k < nbase; ++k) base.offsets.push_back({static_cast<std::uint32_t>(k), m.vertices[k].position});
  m.morphs.push_back(std::move(base));
  MMDKIT_TRY(put(en.name, "Synthetic humanoid"));
  MMDKIT_TRY(put(en.comment, "mmdkit generate pmd, seed " + std::to_string(o.seed)));
  for (std::uint64_t k = 0; k < o.morphs; ++k) {
    Morph x;
    Name xe;
    if (k < 8) {
      MMDKIT_TRY(put(x.name, kMorphNames[k]));
      MMDKIT_TRY(put(xe, kMorphNamesEn[k]));
      x.type = kMorphTypes[k];
    } else {
      MMDKIT_TRY(put(x.name, "モーフ" + std::to_string(k + 1)));
      MMDKIT_TRY(put(xe, "morph" + std::to_string(k + 1)));
      x.type = 4;
    }
    if (nbase > 0) {
      std::size_t count = std::min<std::size_t>(nbase, 16);
      std::size_t start = rng.below(static_cast<std::uint32_t>(nbase));
      for (std::size_t j = 0; j < count; ++j)
        x.offsets.push_back({static_cast<std::uint32_t>((start + j) % nbase),
                             {rng.range(-0.1f, 0.1f), rng.range(-0.1f, 0.1f), rng.range(-0.1f, 0.1f)}});
    }
    m.morphs.push_back(std::move(x));
    en.morph_names.push_back(std::move(xe));
    m.morph_display.push_back(static_cast<std::uint16_t>(k + 1));
    if (m.morph_display.size() == 255) break;  // the display list holds at most 255 entries
  }
  if (en.morph_names.size() != o.morphs) {
    // More than 255 morphs: English names and morphs continue without display entries.
    for (std::uint64_t k = en.morph_names.size(); k < o.morphs; ++k) {
      Morph x;
      Name xe;
      MMDKIT_TRY(put(x.name, "モーフ" + std::to_string(k + 1)));
      MMDKIT_TRY(put(xe, "morph" + std::to_string(k + 1)));
      x.type = 4;
      if (nbase > 0) x.offsets.push_back({static_cast<std::uint32_t>(k % nbase), {0, rng.range(-0.1f, 0.1f), 0}});
      m.morphs.push_back(std::move(x));
      en.morph_names.push_back(std::move(xe));
    }
  }
  return {};
}

// Two bone frames (センター, 体) with the visible bones, the English names and the toon textures.
Result<void> add_display(Model& m, English en, std::span<const humanoid::BoneSpec> specs) {
  m.bone_frames.resize(2);
  MMDKIT_TRY(put(m.bone_frames[0], "センター\n"));
  MMDKIT_TRY(put(m.bone_frames[1], "体\n"));
  en.frame_names.resize(2);
  MMDKIT_TRY(put(en.frame_names[0], "Center"));
  MMDKIT_TRY(put(en.frame_names[1], "Body"));
  for (std::size_t i = 1; i < specs.size(); ++i) {
    if (!specs[i].visible) continue;
    m.bone_display.push_back({static_cast<std::uint16_t>(i), static_cast<std::uint8_t>(i == 1 ? 1 : 2)});
  }
  en.bone_names.resize(specs.size());
  for (std::size_t i = 0; i < specs.size(); ++i) MMDKIT_TRY(put(en.bone_names[i], specs[i].name_en));
  m.english = std::move(en);
  for (std::size_t i = 0; i < kToonCount; ++i) {
    std::string t = std::to_string(i + 1);
    MMDKIT_TRY(put(m.toon_textures[i], "toon" + std::string(t.size() < 2 ? "0" : "") + t + ".bmp"));
  }
  return {};
}

// Two rigid bodies (head, upper body; relative to their bones) and the neck joint.
Result<void> add_physics(Model& m, std::span<const humanoid::BoneSpec> specs) {
  const std::int32_t head = humanoid::find_bone("頭"), upper = humanoid::find_bone("上半身");
  RigidBody rb;
  MMDKIT_TRY(put(rb.name, "頭"));
  rb.bone = static_cast<std::uint16_t>(head);
  rb.group = 0;
  rb.collision_mask = 0xFFFF;
  rb.shape = 0;
  rb.size = {1.2f, 0, 0};
  rb.position = {0, 1.2f, 0};
  rb.mass = 1;
  rb.linear_damping = 0.5f;
  rb.angular_damping = 0.5f;
  rb.friction = 0.5f;
  rb.mode = 0;
  RigidBody ub = rb;
  MMDKIT_TRY(put(ub.name, "上半身"));
  ub.bone = static_cast<std::uint16_t>(upper);
  ub.shape = 2;
  ub.size = {1.0f, 3.0f, 0};
  ub.position = {0, 2.0f, 0};
  m.rigid_bodies = {rb, ub};
  Joint j;
  MMDKIT_TRY(put(j.name, "首"));
  j.rigid_a = 1;
  j.rigid_b = 0;
  j.position = specs[static_cast<std::size_t>(humanoid::find_bone("首"))].position;
  j.rotation_min = {-0.5f, -0.5f, -0.5f};
  j.rotation_max = {0.5f, 0.5f, 0.5f};
  m.joints.push_back(j);
  return {};
}

}  // namespace

Result<Model> generate(const GenerateOptions& o) {
  if (o.vertices > 65535 || o.morphs > 65534)
    return make_error(ErrorCode::limit_exceeded, "generate pmd is limited to 65535 vertices and 65534 morphs");
  Rng rng(o.seed);
  Model m;
  m.encoding = Encoding::cp932;
  m.tail = Tail::joints;
  MMDKIT_TRY(put(m.name, "合成ヒューマノイド"));
  MMDKIT_TRY(put(m.comment, "mmdkit generate pmd, seed " + std::to_string(o.seed)));
  const auto specs = humanoid::bones();
  MMDKIT_TRY(add_bones(m, specs));
  add_vertices(m, specs, rng, o.vertices);
  MMDKIT_TRY(add_faces_and_materials(m));
  English en;
  MMDKIT_TRY(add_morphs(m, en, o, rng));
  MMDKIT_TRY(add_display(m, std::move(en), specs));
  MMDKIT_TRY(add_physics(m, specs));
  return m;
}

// --- textures -------------------------------------------------------------------------------

Result<std::vector<GeneratedFile>> generate_textures() {
  namespace gi = generated_images;
  static constexpr gi::Texture kTextures[] = {{"body.bmp", gi::body_pixel, gi::ImageFormat::bmp},
                                              {"face.bmp", gi::face_pixel, gi::ImageFormat::bmp},
                                              {"face.sph", gi::sph_pixel, gi::ImageFormat::bmp}};
  return gi::encode_files<GeneratedFile>(kTextures);
}

}  // namespace mmdkit::pmd
