// PMX fixtures built in code: hand-assembled bytes (independent of the writer) for index
// semantics and header errors; full models covering every variant for write → read → write.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>

#include "mmdkit/formats/humanoid.hpp"
#include "mmdkit/formats/pmx.hpp"
#include "mmdkit/formats/pmx_generate.hpp"

namespace mmdkit::pmx {
namespace {

// ---- Hand-assembled bytes ---------------------------------------------------------------------

struct Bytes {
  std::vector<std::uint8_t> b;
  Bytes& u8(std::uint8_t v) { return b.push_back(v), *this; }
  Bytes& u16(std::uint16_t v) { return raw(&v, 2); }
  Bytes& i32(std::int32_t v) { return raw(&v, 4); }
  Bytes& f32(float v) { return raw(&v, 4); }
  Bytes& raw(const void* p, std::size_t n) {
    auto* c = static_cast<const std::uint8_t*>(p);
    b.insert(b.end(), c, c + n);
    return *this;
  }
  Bytes& zeros(std::size_t n) { return b.insert(b.end(), n, 0), *this; }
  Bytes& str8(std::string_view s) { return i32(static_cast<std::int32_t>(s.size())).raw(s.data(), s.size()); }
};

// Header with UTF-8 text, given index sizes {v, t, m, b, morph, r}, and model name "m".
Bytes header(std::array<std::uint8_t, 6> sizes, std::uint8_t auv = 0, float version = 2.0f, std::uint8_t enc = 1) {
  Bytes x;
  x.raw("PMX ", 4).f32(version).u8(8).u8(enc).u8(auv);
  for (auto s : sizes) x.u8(s);
  x.str8("m").str8("").str8("").str8("");
  return x;
}

// A model with one BDEF1 vertex (bone index given as raw bytes), faces as raw bytes, no other data.
Bytes one_vertex_model(std::array<std::uint8_t, 6> sizes, std::vector<std::uint8_t> bone_index_bytes,
                       std::int32_t face_count, std::vector<std::uint8_t> face_bytes, bool v21 = false) {
  Bytes x = header(sizes, 0, v21 ? 2.1f : 2.0f);
  x.i32(1).f32(1).f32(2).f32(3).f32(0).f32(1).f32(0).f32(0.25f).f32(0.75f).u8(0);
  x.raw(bone_index_bytes.data(), bone_index_bytes.size()).f32(1.0f);
  x.i32(face_count).raw(face_bytes.data(), face_bytes.size());
  for (int s = 0; s < 7; ++s) x.i32(0);  // textures, materials, bones, morphs, frames, bodies, joints
  if (v21) x.i32(0);                     // soft bodies
  return x;
}

TEST(PmxBytes, MinimalModelFieldsAndSize) {
  Bytes x = one_vertex_model({1, 1, 1, 1, 1, 1}, {0x00}, 3, {0, 0, 0});
  // 9 header + 8 globals + 4 texts of (4 + 1, 4, 4, 4) + vertex count 4 + vertex 32 + 1 + 1 + 4
  // + face count 4 + 3 indices + 7 section counts.
  EXPECT_EQ(x.b.size(), 9u + 8 + 17 + 4 + 38 + 4 + 3 + 28);
  auto r = read(x.b);
  ASSERT_TRUE(r.has_value()) << r.error().to_string();
  const Model& m = r->model;
  EXPECT_EQ(m.name.text, "m");
  ASSERT_EQ(m.vertices.size(), 1u);
  EXPECT_EQ(m.vertices[0].position, (Vec3{1, 2, 3}));
  EXPECT_EQ(m.vertices[0].normal, (Vec3{0, 1, 0}));
  EXPECT_EQ(m.vertices[0].uv, (Vec2{0.25f, 0.75f}));
  EXPECT_EQ(m.vertices[0].deform, DeformType::bdef1);
  EXPECT_EQ(m.vertices[0].edge_scale, 1.0f);
  EXPECT_EQ(m.faces, (std::vector<std::uint32_t>{0, 0, 0}));
  EXPECT_TRUE(r->warnings.empty());
  auto w = write(m);
  ASSERT_TRUE(w);
  EXPECT_EQ(*w, x.b);
}

TEST(PmxBytes, VertexIndicesOfSize1And2AreUnsignedOthersSigned) {
  // Vertex index size 1: 0xC8 = 200, 0xFF = 255 (unsigned). Bone index size 1: 0xFF = -1.
  {
    Bytes x = one_vertex_model({1, 1, 1, 1, 1, 1}, {0xFF}, 3, {0xC8, 0xFF, 0x00});
    auto r = read(x.b);
    ASSERT_TRUE(r.has_value()) << r.error().to_string();
    EXPECT_EQ(r->model.faces, (std::vector<std::uint32_t>{200, 255, 0}));
    EXPECT_EQ(r->model.vertices[0].bones[0], -1);
    EXPECT_EQ(*write(r->model), x.b);
  }
  // Bone index 0x80 with size 1 = -128; size 2 0xFFFF = -1; vertex size 2 0xFFFF = 65535.
  {
    Bytes x = one_vertex_model({2, 1, 1, 1, 1, 1}, {0x80}, 3, {0xFF, 0xFF, 0x34, 0x12, 0, 0});
    auto r = read(x.b);
    ASSERT_TRUE(r.has_value()) << r.error().to_string();
    EXPECT_EQ(r->model.faces, (std::vector<std::uint32_t>{65535, 0x1234, 0}));
    EXPECT_EQ(r->model.vertices[0].bones[0], -128);
    EXPECT_EQ(*write(r->model), x.b);
  }
  {
    Bytes x = one_vertex_model({4, 1, 1, 2, 1, 1}, {0xFF, 0xFF}, 3, {1, 0, 0, 0, 2, 0, 0, 0, 0xFF, 0xFF, 0xFF, 0x7F});
    auto r = read(x.b);
    ASSERT_TRUE(r.has_value()) << r.error().to_string();
    EXPECT_EQ(r->model.faces, (std::vector<std::uint32_t>{1, 2, 0x7FFFFFFF}));
    EXPECT_EQ(r->model.vertices[0].bones[0], -1);
    EXPECT_EQ(*write(r->model), x.b);
  }
  {
    Bytes x = one_vertex_model({1, 1, 1, 4, 1, 1}, {0xFE, 0xFF, 0xFF, 0xFF}, 0, {});
    auto r = read(x.b);
    ASSERT_TRUE(r.has_value());
    EXPECT_EQ(r->model.vertices[0].bones[0], -2);
  }
}

TEST(PmxBytes, HeaderErrorsAtTheRightOffset) {
  struct Case {
    std::size_t at;
    std::uint8_t value;
    ErrorCode code;
  };
  const Case cases[] = {
      {9, 2, ErrorCode::invalid_value},   // encoding 2
      {9, 0xFF, ErrorCode::invalid_value},
      {10, 5, ErrorCode::invalid_value},  // additional UVs 5
      {11, 3, ErrorCode::invalid_value},  // vertex index size 3
      {12, 0, ErrorCode::invalid_value},  // texture index size 0
      {13, 8, ErrorCode::invalid_value},
      {14, 3, ErrorCode::invalid_value},
      {15, 3, ErrorCode::invalid_value},
      {16, 3, ErrorCode::invalid_value},  // rigid body index size
      {8, 7, ErrorCode::invalid_value},   // globals count 7
      {0, 'p', ErrorCode::bad_signature},
  };
  const Bytes good = one_vertex_model({1, 1, 1, 1, 1, 1}, {0}, 0, {});
  ASSERT_TRUE(read(good.b).has_value());
  for (const Case& c : cases) {
    SCOPED_TRACE(c.at);
    auto b = good.b;
    b[c.at] = c.value;
    auto r = read(b);
    ASSERT_FALSE(r.has_value());
    EXPECT_EQ(r.error().code, c.code);
    EXPECT_EQ(r.error().offset, static_cast<std::int64_t>(c.at == 0 ? 0 : c.at));
    EXPECT_EQ(r.error().section, "header");
  }
  // Additional UV count 4 is valid: the one vertex then needs 64 more bytes than the file has,
  // which the count check sees before reading it.
  auto b = good.b;
  b[10] = 4;
  auto r = read(b);
  ASSERT_FALSE(r.has_value());
  EXPECT_EQ(r.error().code, ErrorCode::count_too_large);
  EXPECT_EQ(r.error().section, "vertices");
  // Version 2.2 is unsupported; a float close to 2.1 is 2.1 and kept as stored.
  Bytes v22 = header({1, 1, 1, 1, 1, 1}, 0, 2.2f);
  EXPECT_EQ(read(v22.b).error().code, ErrorCode::unsupported);
  Bytes v21 = one_vertex_model({1, 1, 1, 1, 1, 1}, {0}, 0, {}, true);
  float almost = 2.1000001f;
  std::memcpy(v21.b.data() + 4, &almost, 4);
  auto r21 = read(v21.b);
  ASSERT_TRUE(r21.has_value()) << r21.error().to_string();
  EXPECT_EQ(r21->model.header.version, Version::v2_1);
  EXPECT_EQ(r21->model.header.version_value, almost);
  EXPECT_EQ(*write(r21->model), v21.b);
}

TEST(PmxBytes, ExtraGlobalsAreKept) {
  Bytes x;
  x.raw("PMX ", 4).f32(2.0f).u8(10).u8(1).u8(0);
  for (int i = 0; i < 6; ++i) x.u8(1);
  x.u8(0xAB).u8(0xCD);
  x.str8("").str8("").str8("").str8("");
  for (int s = 0; s < 9; ++s) x.i32(0);
  auto r = read(x.b);
  ASSERT_TRUE(r.has_value()) << r.error().to_string();
  EXPECT_EQ(r->model.header.extra_globals, (std::vector<std::uint8_t>{0xAB, 0xCD}));
  EXPECT_EQ(*write(r->model), x.b);
}

TEST(PmxBytes, CountsBeyondTheInputAreErrorsBeforeAllocating) {
  Bytes x = header({1, 1, 1, 1, 1, 1});
  const std::size_t at = x.b.size();
  x.i32(0x7FFFFFFF);
  auto r = read(x.b);
  ASSERT_FALSE(r.has_value());
  EXPECT_EQ(r.error().code, ErrorCode::count_too_large);
  EXPECT_EQ(r.error().section, "vertices");
  EXPECT_EQ(r.error().offset, static_cast<std::int64_t>(at));
  Bytes y = header({1, 1, 1, 1, 1, 1});
  y.i32(-1);
  EXPECT_EQ(read(y.b).error().code, ErrorCode::invalid_value);
  // A text length beyond the input.
  Bytes z;
  z.raw("PMX ", 4).f32(2.0f).u8(8).u8(1).u8(0);
  for (int i = 0; i < 6; ++i) z.u8(1);
  z.i32(1000000);
  auto rz = read(z.b);
  ASSERT_FALSE(rz.has_value());
  EXPECT_EQ(rz.error().code, ErrorCode::truncated);
  EXPECT_EQ(rz.error().offset, 21);
}

// Regression: the material count check once assumed 20 more bytes per material than the spec's
// minimum, rejecting valid files with many small materials and little after them.
TEST(PmxBytes, ManyMinimalMaterialsAtTheEndOfTheFile) {
  Bytes x = header({1, 1, 1, 1, 1, 1});
  x.i32(0).i32(0).i32(0);  // vertices, faces, textures
  x.i32(50);
  for (int i = 0; i < 50; ++i) {
    x.str8("").str8("");
    x.zeros(4 * 11).u8(0).zeros(4 * 5);  // colours, flags, edge
    x.u8(0xFF).u8(0xFF).u8(0).u8(1).u8(static_cast<std::uint8_t>(i % 10));  // textures -1, sphere off, shared toon
    x.str8("").i32(0);                  // memo, face index count
  }
  for (int s = 0; s < 5; ++s) x.i32(0);
  // 50 materials of 4+4 + 44+1+20 + 1+1+1+1+1 + 4+4 = 86 bytes.
  auto r = read(x.b);
  ASSERT_TRUE(r.has_value()) << r.error().to_string();
  ASSERT_EQ(r->model.materials.size(), 50u);
  EXPECT_EQ(r->model.materials[49].toon, 9);
  EXPECT_EQ(r->model.materials[49].texture, -1);
  EXPECT_EQ(*write(r->model), x.b);
}

TEST(PmxBytes, UnknownDeformAndMorphTypesAreErrors) {
  Bytes x = one_vertex_model({1, 1, 1, 1, 1, 1}, {0}, 0, {});
  const std::size_t type_at = 17 + 17 + 4 + 32;
  ASSERT_EQ(x.b[type_at], 0);
  x.b[type_at] = 5;
  auto r = read(x.b);
  ASSERT_FALSE(r.has_value());
  EXPECT_EQ(r.error().code, ErrorCode::invalid_value);
  EXPECT_EQ(r.error().section, "vertices");
  EXPECT_EQ(r.error().record, 0);
  EXPECT_EQ(r.error().offset, static_cast<std::int64_t>(type_at));
  // Morph type 11.
  Bytes y = header({1, 1, 1, 1, 1, 1});
  y.i32(0).i32(0).i32(0).i32(0).i32(0).i32(1).str8("x").str8("").u8(1);
  const std::size_t morph_type_at = y.b.size();
  y.u8(11).i32(0);
  auto ry = read(y.b);
  ASSERT_FALSE(ry.has_value());
  EXPECT_EQ(ry.error().section, "morphs");
  EXPECT_EQ(ry.error().offset, static_cast<std::int64_t>(morph_type_at));
}

TEST(PmxBytes, TrailingBytesWarnOrFailInStrictMode) {
  Bytes x = one_vertex_model({1, 1, 1, 1, 1, 1}, {0}, 0, {});
  const std::size_t end = x.b.size();
  x.u8(0xDE).u8(0xAD);
  auto r = read(x.b);
  ASSERT_TRUE(r.has_value());
  EXPECT_EQ(r->model.trailing, (std::vector<std::uint8_t>{0xDE, 0xAD}));
  EXPECT_EQ(r->model.trailing_offset, static_cast<std::int64_t>(end));
  ASSERT_EQ(r->warnings.size(), 1u);
  EXPECT_EQ(r->warnings[0].offset, static_cast<std::int64_t>(end));
  EXPECT_EQ(*write(r->model), x.b);
  auto s = read(x.b, ReadOptions{.strict = true});
  ASSERT_FALSE(s.has_value());
  EXPECT_EQ(s.error().code, ErrorCode::trailing_data);
  EXPECT_EQ(s.error().offset, static_cast<std::int64_t>(end));
}

TEST(PmxText, Utf16DecodingAndEncoding) {
  // "ミク" + U+1F600 (surrogate pair) in UTF-16LE.
  std::vector<std::uint8_t> u16{0xDF, 0x30, 0xAF, 0x30, 0x3D, 0xD8, 0x00, 0xDE};
  EXPECT_EQ(decode(u16, Encoding::utf16le), "ミク\xF0\x9F\x98\x80");
  // A lone high surrogate and an odd byte become U+FFFD.
  std::vector<std::uint8_t> bad{0x3D, 0xD8, 0x41, 0x00, 0x42};
  EXPECT_EQ(decode(bad, Encoding::utf16le), "\xEF\xBF\xBD" "A" "\xEF\xBF\xBD");
  std::vector<std::uint8_t> bad8{'a', 0xFF, 'b'};
  EXPECT_EQ(decode(bad8, Encoding::utf8), "a\xEF\xBF\xBD" "b");
}

// ---- Full models --------------------------------------------------------------------------------

Text t(std::string s) {
  Text x;
  x.text = std::move(s);
  return x;
}

// A model using every record kind: every deform type, every morph type, every joint type, a soft
// body (2.1), all bone flags, both toon kinds. Indices are chosen to be valid at any size.
Model full_model(Version v, Encoding enc, std::uint8_t auv, std::uint8_t index_size) {
  Model m;
  m.header.version = v;
  m.header.version_value = v == Version::v2_1 ? 2.1f : 2.0f;
  m.header.encoding = enc;
  m.header.additional_uv_count = auv;
  m.header.vertex_index_size = m.header.texture_index_size = m.header.material_index_size = index_size;
  m.header.bone_index_size = m.header.morph_index_size = m.header.rigid_body_index_size = index_size;
  m.name = t("テストモデル");
  m.name_en = t("test model");
  m.comment = t("コメント\r\n2 lines");
  for (int i = 0; i < 5; ++i) {
    Vertex vx;
    vx.position = {float(i), 1, 2};
    vx.normal = {0, 1, 0};
    vx.uv = {0.5f, 0.25f * float(i)};
    vx.deform = static_cast<DeformType>(v == Version::v2_1 ? i : i % 4);
    vx.bones = {0, 1, -1, 2};
    if (vx.deform == DeformType::bdef1) vx.bones = {1, 0, 0, 0};
    if (vx.deform == DeformType::bdef2 || vx.deform == DeformType::sdef) vx.bones = {0, 1, 0, 0};
    vx.weights = vx.deform == DeformType::bdef4 || vx.deform == DeformType::qdef ? Vec4{0.5f, 0.25f, 0.125f, 0.125f}
                 : vx.deform == DeformType::bdef1                               ? Vec4{}
                                                                                : Vec4{0.75f, 0, 0, 0};
    if (vx.deform == DeformType::sdef) {
      vx.sdef = static_cast<std::uint32_t>(m.sdef_params.size());
      m.sdef_params.push_back({{1, 2, 3}, {4, 5, 6}, {7, 8, 9}});
    }
    vx.edge_scale = 0.5f;
    m.vertices.push_back(vx);
    for (int k = 0; k < auv; ++k) m.additional_uvs.push_back({float(k), float(i), 0.5f, 1});
  }
  m.faces = {0, 1, 2, 2, 3, 4};
  m.textures = {t("tex.png"), t("sub/スフィア.sph")};
  Material a;
  a.name = t("材質1");
  a.diffuse = {1, 0.5f, 0.25f, 1};
  a.flags = 0x1F | (v == Version::v2_1 ? 0xE0 : 0);
  a.texture = 0;
  a.sphere_texture = 1;
  a.sphere_mode = 1;
  a.shared_toon = 1;
  a.toon = 3;
  a.memo = t("memo");
  a.face_index_count = 3;
  Material b = a;
  b.name = t("材質2");
  b.shared_toon = 0;
  b.toon = -1;
  b.sphere_mode = 3;
  m.materials = {a, b};
  // Bones: 0 root, 1 child with every optional part, 2 IK bone.
  Bone r;
  r.name = t("全ての親");
  r.flags = kRotatable | kMovable | kVisible | kOperable | kTailIsBone;
  r.tail_bone = 1;
  Bone c;
  c.name = t("子");
  c.name_en = t("child");
  c.parent = 0;
  c.deform_layer = 2;
  c.flags = kRotatable | kVisible | kLocalAppend | kAppendRotation | kAppendTranslation | kFixedAxis | kLocalAxes |
            kAfterPhysics | kExternalParent;
  c.tail_offset = {0, 1, 0};
  c.append_parent = 0;
  c.append_ratio = -0.5f;
  c.fixed_axis = {1, 0, 0};
  c.local_x = {1, 0, 0};
  c.local_z = {0, 0, 1};
  c.external_parent_key = 7;
  Bone ik;
  ik.name = t("左足ＩＫ");
  ik.parent = 0;
  ik.flags = kRotatable | kMovable | kVisible | kOperable | kIk;
  ik.tail_offset = {0, 0, 1};
  ik.ik_target = 1;
  ik.ik_iterations = 40;
  ik.ik_limit_angle = 2.0f;
  ik.ik_links = {{1, 1, humanoid::kKneeLower, humanoid::kKneeUpper}, {0, 0, {}, {}}};
  m.bones = {r, c, ik};
  // Morphs: every type of the version.
  int types = v == Version::v2_1 ? 11 : 9;
  for (int k = 0; k < types; ++k) {
    Morph mo;
    mo.name = t("モーフ" + std::to_string(k));
    mo.panel = static_cast<std::uint8_t>(k % 5);
    mo.type = static_cast<MorphType>(k);
    switch (mo.type) {
      case MorphType::group: mo.group_offsets = {{1, 0.5f}, {2, 1.0f}}; break;
      case MorphType::vertex: mo.vertex_offsets = {{4, {0.1f, 0.2f, 0.3f}}}; break;
      case MorphType::bone: mo.bone_offsets = {{1, {1, 2, 3}, {0, 0, 0.7071068f, 0.7071068f}}}; break;
      case MorphType::material: {
        MaterialOffset o;
        o.material = -1;
        o.operation = 1;
        o.diffuse = {0.1f, 0.2f, 0.3f, 0.4f};
        o.toon_tint = {1, 1, 1, 1};
        mo.material_offsets = {o};
        break;
      }
      case MorphType::flip: mo.flip_offsets = {{0, 1.0f}}; break;
      case MorphType::impulse: mo.impulse_offsets = {{0, 1, {1, 2, 3}, {4, 5, 6}}}; break;
      default: mo.uv_offsets = {{3, {0.1f, 0.2f, 0.3f, 0.4f}}, {0, {1, 1, 1, 1}}}; break;
    }
    m.morphs.push_back(mo);
  }
  m.display_frames = {{t("Root"), t("Root"), 1, {{0, 0}}}, {t("表情"), t("Exp"), 1, {{1, 0}, {1, 2}}}};
  RigidBody rb;
  rb.name = t("剛体");
  rb.bone = 1;
  rb.group = 3;
  rb.collision_mask = 0xFFF7;
  rb.shape = 2;
  rb.size = {1, 2, 0};
  rb.mass = 1;
  rb.mode = 1;
  RigidBody rb2 = rb;
  rb2.name = t("剛体2");
  rb2.bone = -1;
  m.rigid_bodies = {rb, rb2};
  int jt = v == Version::v2_1 ? 6 : 1;
  for (int k = 0; k < jt; ++k) {
    Joint j;
    j.name = t("J" + std::to_string(k));
    j.type = static_cast<std::uint8_t>(k);
    j.rigid_body_a = 0;
    j.rigid_body_b = 1;
    j.angular_lower = {-1, -1, -1};
    j.angular_upper = {1, 1, 1};
    j.linear_spring = {float(k), 0, 0};
    m.joints.push_back(j);
  }
  if (v == Version::v2_1) {
    SoftBody s;
    s.name = t("ソフト");
    s.material = 1;
    s.flags = 7;
    s.config[0] = 1.5f;
    s.iterations = {1, 2, 3, 4};
    s.material_params = {0.5f, 0.25f, 1};
    s.anchors = {{0, 4, 1}, {1, 3, 0}};
    s.pinned_vertices = {0, 2};
    m.soft_bodies = {s};
  }
  return m;
}

struct Variant {
  Version v;
  Encoding enc;
  std::uint8_t auv;
  std::uint8_t index_size;
};

class PmxVariants : public ::testing::TestWithParam<Variant> {};

TEST_P(PmxVariants, WriteReadWriteIsIdenticalAndFieldsSurvive) {
  Variant p = GetParam();
  Model m = full_model(p.v, p.enc, p.auv, p.index_size);
  auto bytes = write(m);
  ASSERT_TRUE(bytes.has_value()) << bytes.error().to_string();
  // Header bytes as the spec lays them out.
  EXPECT_EQ((*bytes)[9], p.enc == Encoding::utf16le ? 0 : 1);
  EXPECT_EQ((*bytes)[10], p.auv);
  for (int i = 0; i < 6; ++i) EXPECT_EQ((*bytes)[11 + i], p.index_size);
  auto r = read(*bytes);
  ASSERT_TRUE(r.has_value()) << r.error().to_string();
  const Model& x = r->model;
  EXPECT_EQ(x.name.text, "テストモデル");
  EXPECT_EQ(x.comment.text, "コメント\r\n2 lines");
  ASSERT_EQ(x.vertices.size(), 5u);
  for (int i = 0; i < 5; ++i) {
    EXPECT_EQ(x.vertices[i].deform, m.vertices[i].deform);
    EXPECT_EQ(x.vertices[i].bones, m.vertices[i].bones);
    EXPECT_EQ(x.vertices[i].weights, m.vertices[i].weights);
    EXPECT_EQ(x.vertices[i].position, m.vertices[i].position);
  }
  EXPECT_EQ(x.additional_uvs.size(), 5u * p.auv);
  if (p.auv) {
    EXPECT_EQ(x.additional_uv(4, p.auv - 1), (Vec4{float(p.auv - 1), 4, 0.5f, 1}));
  }
  ASSERT_EQ(x.sdef_params.size(), 1u);
  EXPECT_EQ(x.sdef_params[0].r1, (Vec3{7, 8, 9}));
  EXPECT_EQ(x.faces, m.faces);
  EXPECT_EQ(x.textures[1].text, "sub/スフィア.sph");
  EXPECT_EQ(x.materials[0].toon, 3);
  EXPECT_EQ(x.materials[1].toon, -1);
  EXPECT_EQ(x.materials[1].sphere_mode, 3);
  ASSERT_EQ(x.bones.size(), 3u);
  EXPECT_EQ(x.bones[1].append_ratio, -0.5f);
  EXPECT_EQ(x.bones[1].external_parent_key, 7);
  EXPECT_EQ(x.bones[1].deform_layer, 2);
  EXPECT_EQ(x.bones[1].local_z, (Vec3{0, 0, 1}));
  ASSERT_EQ(x.bones[2].ik_links.size(), 2u);
  EXPECT_EQ(x.bones[2].ik_links[0].lower, humanoid::kKneeLower);
  EXPECT_EQ(x.bones[2].ik_links[1].has_limits, 0);
  ASSERT_EQ(x.morphs.size(), p.v == Version::v2_1 ? 11u : 9u);
  for (std::size_t k = 0; k < x.morphs.size(); ++k) {
    EXPECT_EQ(static_cast<std::size_t>(x.morphs[k].type), k);
    EXPECT_EQ(x.morphs[k].offset_count(), m.morphs[k].offset_count());
  }
  EXPECT_EQ(x.morphs[7].uv_offsets[0].offset, (Vec4{0.1f, 0.2f, 0.3f, 0.4f}));
  EXPECT_EQ(x.morphs[8].material_offsets[0].material, -1);
  EXPECT_EQ(x.display_frames[1].elements[1].index, 2);
  EXPECT_EQ(x.rigid_bodies[1].bone, -1);
  EXPECT_EQ(x.rigid_bodies[0].collision_mask, 0xFFF7);
  ASSERT_EQ(x.joints.size(), p.v == Version::v2_1 ? 6u : 1u);
  for (std::size_t k = 0; k < x.joints.size(); ++k) EXPECT_EQ(x.joints[k].type, k);
  if (p.v == Version::v2_1) {
    ASSERT_EQ(x.soft_bodies.size(), 1u);
    EXPECT_EQ(x.soft_bodies[0].anchors[0].vertex, 4u);
    EXPECT_EQ(x.soft_bodies[0].pinned_vertices, (std::vector<std::uint32_t>{0, 2}));
    EXPECT_EQ(x.soft_bodies[0].iterations, (std::array<std::int32_t, 4>{1, 2, 3, 4}));
  }
  auto again = write(x);
  ASSERT_TRUE(again.has_value());
  EXPECT_EQ(*again, *bytes);
  // Every prefix is a clean error.
  for (std::size_t n = 0; n < bytes->size(); ++n) {
    auto pr = read(ByteSpan(bytes->data(), n));
    ASSERT_FALSE(pr.has_value()) << n;
    EXPECT_LE(pr.error().offset, static_cast<std::int64_t>(n));
  }
}

INSTANTIATE_TEST_SUITE_P(
    All, PmxVariants,
    ::testing::Values(Variant{Version::v2_0, Encoding::utf16le, 0, 1}, Variant{Version::v2_0, Encoding::utf16le, 4, 2},
                      Variant{Version::v2_0, Encoding::utf8, 0, 4}, Variant{Version::v2_1, Encoding::utf8, 4, 1},
                      Variant{Version::v2_1, Encoding::utf16le, 1, 2}, Variant{Version::v2_1, Encoding::utf8, 0, 4}));

TEST(PmxWrite, IndexThatDoesNotFitIsAnError) {
  Model m = full_model(Version::v2_0, Encoding::utf8, 0, 1);
  m.bones[1].parent = 200;  // signed size 1 holds -128..127
  auto w = write(m);
  ASSERT_FALSE(w.has_value());
  EXPECT_EQ(w.error().code, ErrorCode::invalid_argument);
  EXPECT_EQ(w.error().section, "bones");
  EXPECT_EQ(w.error().record, 1);
  Model v = full_model(Version::v2_0, Encoding::utf8, 0, 1);
  v.faces[0] = 256;  // unsigned size 1 holds 0..255
  EXPECT_EQ(write(v).error().section, "faces");
  v.faces[0] = 255;
  EXPECT_TRUE(write(v).has_value());
}

TEST(PmxWrite, SetEncodingReencodesEveryText) {
  Model m = full_model(Version::v2_0, Encoding::utf16le, 0, 2);
  auto a = read(*write(m));
  ASSERT_TRUE(a);
  Model x = a->model;
  ASSERT_TRUE(set_encoding(x, Encoding::utf8));
  EXPECT_EQ(x.name.raw.size(), std::string("テストモデル").size());  // 18 UTF-8 bytes vs 12 UTF-16
  auto b = read(*write(x));
  ASSERT_TRUE(b);
  EXPECT_EQ(b->model.header.encoding, Encoding::utf8);
  EXPECT_EQ(b->model.bones[2].name.text, "左足ＩＫ");
  EXPECT_EQ(b->model.textures[1].text, "sub/スフィア.sph");
}

// ---- Generator ------------------------------------------------------------------------------------

TEST(PmxGenerate, StandardHumanoidDefaults) {
  auto g = generate(GenerateOptions{});
  ASSERT_TRUE(g.has_value());
  const Model& m = *g;
  EXPECT_EQ(m.vertices.size(), 1000u);
  EXPECT_EQ(m.faces.size(), 998u * 3);
  EXPECT_EQ(m.bones.size(), humanoid::bones().size());
  EXPECT_EQ(m.bones.size(), 29u);
  EXPECT_EQ(m.morphs.size(), 8u);
  EXPECT_EQ(m.header.encoding, Encoding::utf16le);
  EXPECT_EQ(m.header.version, Version::v2_0);
  // Knee limits on the leg IK.
  const Bone& ik = m.bones[static_cast<std::size_t>(humanoid::find_bone("左足ＩＫ"))];
  ASSERT_TRUE(ik.has(kIk));
  EXPECT_EQ(ik.ik_target, humanoid::find_bone("左足首"));
  ASSERT_EQ(ik.ik_links.size(), 2u);
  EXPECT_EQ(ik.ik_links[0].bone, humanoid::find_bone("左ひざ"));
  EXPECT_EQ(ik.ik_links[0].has_limits, 1);
  // Append: 左目 follows 両目.
  const Bone& eye = m.bones[static_cast<std::size_t>(humanoid::find_bone("左目"))];
  EXPECT_TRUE(eye.has(kAppendRotation));
  EXPECT_EQ(eye.append_parent, humanoid::find_bone("両目"));
  // Deform types present, and material face counts cover the faces.
  std::array<int, 5> kinds{};
  for (const auto& v : m.vertices) ++kinds[static_cast<std::size_t>(v.deform)];
  EXPECT_GT(kinds[0], 0);
  EXPECT_GT(kinds[1], 0);
  EXPECT_GT(kinds[2], 0);
  EXPECT_GT(kinds[3], 0);
  EXPECT_EQ(kinds[4], 0);
  std::uint64_t fc = 0;
  for (const auto& mt : m.materials) fc += mt.face_index_count;
  EXPECT_EQ(fc, m.faces.size());
  // Morph types: vertex, bone, material, group present.
  std::array<int, kMorphTypeCount> mt{};
  for (const auto& mo : m.morphs) ++mt[static_cast<std::size_t>(mo.type)];
  EXPECT_GT(mt[0], 0);
  EXPECT_GT(mt[1], 0);
  EXPECT_GT(mt[2], 0);
  EXPECT_GT(mt[8], 0);
  // Round trip through bytes.
  auto bytes = write(m);
  ASSERT_TRUE(bytes.has_value());
  auto r = read(*bytes);
  ASSERT_TRUE(r.has_value());
  EXPECT_EQ(*write(r->model), *bytes);
  EXPECT_EQ(r->model.name.text, "mmdkit 生成モデル");
}

TEST(PmxGenerate, DeterministicBySeedAndVariants) {
  GenerateOptions o;
  o.vertices = 300;
  o.bones = 100;
  o.morphs = 20;
  auto a = write(*generate(o)), b = write(*generate(o));
  EXPECT_EQ(*a, *b);
  o.seed = 2;
  EXPECT_NE(*write(*generate(o)), *a);
  o.variant = GenerateVariant::pmx21_utf8;
  auto g = generate(o);
  ASSERT_TRUE(g);
  EXPECT_EQ(g->bones.size(), 100u);
  EXPECT_EQ(g->morphs.size(), 20u);
  EXPECT_EQ(g->header.version, Version::v2_1);
  EXPECT_EQ(g->header.encoding, Encoding::utf8);
  EXPECT_EQ(g->soft_bodies.size(), 1u);
  bool qdef = false;
  for (const auto& v : g->vertices) qdef |= v.deform == DeformType::qdef;
  EXPECT_TRUE(qdef);
  auto bytes = write(*g);
  ASSERT_TRUE(bytes);
  EXPECT_EQ(bytes->at(9), 1);
  auto r = read(*bytes);
  ASSERT_TRUE(r.has_value()) << r.error().to_string();
  EXPECT_EQ(*write(r->model), *bytes);
  // Every prefix of a generated file is a clean error.
  o.vertices = 40;
  o.bones = 40;
  o.morphs = 7;
  auto small = write(*generate(o));
  ASSERT_TRUE(small);
  for (std::size_t n = 0; n < small->size(); ++n) ASSERT_FALSE(read(ByteSpan(small->data(), n)).has_value()) << n;
  EXPECT_EQ(parse_generate_variant("pmx2.1-utf8").value(), GenerateVariant::pmx21_utf8);
  EXPECT_FALSE(parse_generate_variant("pmx3").has_value());
}

TEST(PmxGenerate, ExtraBoneChainsAndIndexSizes) {
  GenerateOptions o;
  o.vertices = 70000;
  o.bones = 200;
  o.morphs = 200;
  auto g = generate(o);
  ASSERT_TRUE(g);
  EXPECT_EQ(g->header.vertex_index_size, 4);
  EXPECT_EQ(g->header.bone_index_size, 2);
  EXPECT_EQ(g->header.morph_index_size, 2);
  EXPECT_EQ(g->header.material_index_size, 1);
  // Extra bones hang in chains: parent index lower than the bone's own.
  for (std::size_t i = 29; i < g->bones.size(); ++i) EXPECT_LT(g->bones[i].parent, static_cast<std::int32_t>(i));
  auto bytes = write(*g);
  ASSERT_TRUE(bytes);
  auto r = read(*bytes);
  ASSERT_TRUE(r);
  EXPECT_EQ(r->counts.vertices, 70000u);
  EXPECT_EQ(*write(r->model), *bytes);
}

}  // namespace
}  // namespace mmdkit::pmx

// GenerateShape::figure: one closed ellipsoid per deforming bone (the README's example model).
// Checked without the generator's numbers: the vertex count is exact, every face lies within one
// part (its three vertices skin to the same bone), and faces are front faces as MMD draws them —
// clockwise seen from outside in MMD's left-handed space, i.e. (v1 − v0) × (v2 − v0) points out
// of the surface, the side the vertex normals give.
TEST(PmxGenerate, FigureShapeIsClosedPartsFacingOutwards) {
  mmdkit::pmx::GenerateOptions o;
  o.vertices = 20000;
  o.seed = 7;
  o.shape = mmdkit::pmx::GenerateShape::figure;
  auto r = mmdkit::pmx::generate(o);
  ASSERT_TRUE(r.has_value());
  const mmdkit::pmx::Model& m = *r;
  ASSERT_EQ(m.vertices.size(), 20000u);
  ASSERT_FALSE(m.faces.empty());
  ASSERT_EQ(m.faces.size() % 3, 0u);
  std::size_t out = 0, in = 0, degenerate = 0;
  for (std::size_t f = 0; f < m.faces.size(); f += 3) {
    const auto& a = m.vertices.at(m.faces[f]);
    const auto& b = m.vertices.at(m.faces[f + 1]);
    const auto& c = m.vertices.at(m.faces[f + 2]);
    EXPECT_EQ(a.bones[0], b.bones[0]);
    EXPECT_EQ(a.bones[0], c.bones[0]);
    const float e1[3] = {b.position[0] - a.position[0], b.position[1] - a.position[1], b.position[2] - a.position[2]};
    const float e2[3] = {c.position[0] - a.position[0], c.position[1] - a.position[1], c.position[2] - a.position[2]};
    const float n[3] = {e1[1] * e2[2] - e1[2] * e2[1], e1[2] * e2[0] - e1[0] * e2[2], e1[0] * e2[1] - e1[1] * e2[0]};
    const float len = std::sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
    if (len < 1e-6f) {  // the grid's rows at the two poles
      ++degenerate;
      continue;
    }
    float d = 0;
    for (const auto* v : {&a, &b, &c}) d += n[0] * v->normal[0] + n[1] * v->normal[1] + n[2] * v->normal[2];
    (d > 0 ? out : in) += 1;
  }
  EXPECT_EQ(in, 0u);
  EXPECT_GT(out, 10000u);
  EXPECT_LT(degenerate, out / 4);
  // Materials by part: the face material (1: the texture with eyes and mouth) is the head's
  // ellipsoid, the hair material (2) the eyes', the body (0) every other part (the README's
  // example image had the face on a thigh and a forearm).
  ASSERT_EQ(m.materials.size(), 3u);
  std::size_t first = 0, total = 0;
  for (std::size_t k = 0; k < 3; ++k) {
    const std::size_t count = m.materials[k].face_index_count;
    EXPECT_GT(count, 0u) << "material " << k;
    for (std::size_t f = first; f < first + count; ++f) {
      const std::string& bone = m.bones.at(static_cast<std::size_t>(m.vertices.at(m.faces[f]).bones[0])).name.text;
      const bool head = bone == "頭", eye = bone.find("目") != std::string::npos;
      ASSERT_EQ(k == 1, head) << "material " << k << ", face index " << f << ": bone " << bone;
      ASSERT_EQ(k == 2, eye) << "material " << k << ", face index " << f << ": bone " << bone;
    }
    first += count;
    total += count;
  }
  EXPECT_EQ(total, m.faces.size());
  // The head's texture is projected from the front (−Z, MMD's default camera): its front-most
  // vertex at the texture's centre, every UV inside the texture.
  const mmdkit::pmx::Vertex* front = nullptr;
  for (const auto& v : m.vertices) {
    if (m.bones.at(static_cast<std::size_t>(v.bones[0])).name.text != "頭") continue;
    EXPECT_GE(v.uv[0], 0.0f);
    EXPECT_LE(v.uv[0], 1.0f);
    EXPECT_GE(v.uv[1], 0.0f);
    EXPECT_LE(v.uv[1], 1.0f);
    if (!front || v.position[2] < front->position[2]) front = &v;
  }
  ASSERT_NE(front, nullptr);
  EXPECT_NEAR(front->uv[0], 0.5f, 0.05f);
  EXPECT_NEAR(front->uv[1], 0.5f, 0.05f);
  // The default shape is still the scattered strip (tests and benchmarks rely on its deform mix).
  o.shape = mmdkit::pmx::GenerateShape::scatter;
  auto s = mmdkit::pmx::generate(o);
  ASSERT_TRUE(s.has_value());
  EXPECT_EQ(s->faces.size(), 3 * (20000u - 2));
}

// A new figure of 200 or 300 vertices (9..14 per part, below the smallest 3 x 5 grid) wrote past
// the vertex array (glibc aborted) and had faces naming vertices that do not exist: every face
// index is below the vertex count, for every count from 0 to 40 per part.
TEST(PmxGenerate, FigureShapeOfFewVerticesNamesOnlyItsVertices) {
  mmdkit::pmx::GenerateOptions o;
  o.shape = mmdkit::pmx::GenerateShape::figure;
  for (std::uint64_t nv = 0; nv <= 40 * 29; nv += 7) {
    o.vertices = nv;
    auto r = mmdkit::pmx::generate(o);
    ASSERT_TRUE(r.has_value()) << nv;
    ASSERT_EQ(r->vertices.size(), nv);
    for (std::uint32_t f : r->faces) ASSERT_LT(f, nv) << nv << " vertices";
  }
}
