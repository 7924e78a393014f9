// The PMX vertex decoder on hand-assembled bytes: every deform type, bone index size and
// additional-UV count, enough vertices that both the unchecked bulk loop and the checked loop for
// the last records near the end of the input are used; errors keep their record and offset.
#include <gtest/gtest.h>

#include <bit>
#include <cstring>

#include "mmdkit/formats/pmx.hpp"

namespace mmdkit::pmx {
namespace {

struct Bytes {
  std::vector<std::uint8_t> b;
  Bytes& u8(std::uint8_t v) { return b.push_back(v), *this; }
  Bytes& i32(std::int32_t v) { return raw(&v, 4); }
  Bytes& u32(std::uint32_t v) { return raw(&v, 4); }
  Bytes& f32(float v) { return raw(&v, 4); }
  Bytes& raw(const void* p, std::size_t n) {
    auto* c = static_cast<const std::uint8_t*>(p);
    b.insert(b.end(), c, c + n);
    return *this;
  }
  Bytes& str8(std::string_view s) { return i32(static_cast<std::int32_t>(s.size())).raw(s.data(), s.size()); }
  Bytes& index(std::int32_t v, std::size_t size) {
    if (size == 1) return u8(static_cast<std::uint8_t>(static_cast<std::int8_t>(v)));
    if (size == 2) {
      auto s = static_cast<std::int16_t>(v);
      return raw(&s, 2);
    }
    return i32(v);
  }
};

// The values vertex k is written with (all exact in binary floating point).
constexpr std::uint32_t kBones[5] = {1, 2, 4, 2, 4};    // indices stored per type
constexpr std::uint32_t kWeights[5] = {0, 1, 4, 1, 4};  // weights stored per type
std::int32_t bone_of(std::size_t k, std::size_t j) { return static_cast<std::int32_t>((k * 4 + j) % 100) - 50; }
float weight_of(std::size_t k, std::size_t j) { return 0.125f * static_cast<float>(j + 1) + static_cast<float>(k); }
std::uint8_t type_of(std::size_t k) { return static_cast<std::uint8_t>((k * 3 + k / 5) % 5); }

struct Built {
  std::vector<std::uint8_t> bytes;
  std::vector<std::size_t> type_offsets;  // byte offset of each vertex's deform type
};

Built build(std::size_t n, std::size_t bi, std::size_t auv) {
  Bytes x;
  x.raw("PMX ", 4).f32(2.1f).u8(8).u8(1).u8(static_cast<std::uint8_t>(auv));
  for (std::uint8_t s : {std::uint8_t{4}, std::uint8_t{1}, std::uint8_t{1}, static_cast<std::uint8_t>(bi),
                         std::uint8_t{1}, std::uint8_t{1}})
    x.u8(s);
  x.str8("v").str8("").str8("").str8("");
  Built out;
  x.i32(static_cast<std::int32_t>(n));
  for (std::size_t k = 0; k < n; ++k) {
    const float f = static_cast<float>(k);
    x.f32(f).f32(f + 0.5f).f32(-f).f32(0).f32(1).f32(0).f32(f / 64).f32(1 - f / 64);
    for (std::size_t a = 0; a < auv; ++a) x.f32(f).f32(static_cast<float>(a)).f32(-1).f32(f + 0.25f);
    const std::uint8_t t = type_of(k);
    out.type_offsets.push_back(x.b.size());
    x.u8(t);
    for (std::size_t j = 0; j < kBones[t]; ++j) x.index(bone_of(k, j), bi);
    for (std::size_t j = 0; j < kWeights[t]; ++j) x.f32(weight_of(k, j));
    if (t == 3)
      for (int c = 0; c < 9; ++c) x.f32(1000 + f + static_cast<float>(c));
    x.f32(0.5f + f);
  }
  for (int s = 0; s < 9; ++s) x.i32(0);  // faces .. joints, soft bodies (2.1)
  out.bytes = std::move(x.b);
  return out;
}

TEST(PmxVertices, EveryDeformTypeIndexSizeAndUvCountDecodesExactly) {
  for (std::size_t bi : {1u, 2u, 4u}) {
    for (std::size_t auv : {0u, 1u, 2u, 3u, 4u}) {
      // The last records (within one SDEF record of the end of the input) take the checked path:
      // vary the count so that every deform type ends up last, and tiny files are all checked.
      for (std::size_t n : {1u, 2u, 3u, 5u, 56u, 57u, 58u, 59u, 60u, 61u, 62u, 63u, 64u, 65u}) {
        SCOPED_TRACE("bone index size " + std::to_string(bi) + ", additional UVs " + std::to_string(auv) +
                     ", vertices " + std::to_string(n));
        Built b = build(n, bi, auv);
        auto r = read(b.bytes);
        ASSERT_TRUE(r.has_value()) << r.error().to_string();
        const Model& m = r->model;
        ASSERT_EQ(m.vertices.size(), n);
        ASSERT_EQ(m.additional_uvs.size(), n * auv);
        std::uint32_t sdef = 0;
        for (std::size_t k = 0; k < n; ++k) {
          const Vertex& v = m.vertices[k];
          const float f = static_cast<float>(k);
          const std::uint8_t t = type_of(k);
          ASSERT_EQ(v.position, (Vec3{f, f + 0.5f, -f})) << k;
          ASSERT_EQ(v.normal, (Vec3{0, 1, 0})) << k;
          ASSERT_EQ(v.uv, (Vec2{f / 64, 1 - f / 64})) << k;
          ASSERT_EQ(static_cast<int>(v.deform), t) << k;
          for (std::size_t j = 0; j < 4; ++j) {
            ASSERT_EQ(v.bones[j], j < kBones[t] ? bone_of(k, j) : 0) << k << " bone " << j;
            ASSERT_EQ(v.weights[j], j < kWeights[t] ? weight_of(k, j) : 0.0f) << k << " weight " << j;
          }
          ASSERT_EQ(v.edge_scale, 0.5f + f) << k;
          for (std::size_t a = 0; a < auv; ++a)
            ASSERT_EQ(m.additional_uvs[k * auv + a], (Vec4{f, static_cast<float>(a), -1, f + 0.25f})) << k;
          if (t == 3) {
            ASSERT_EQ(v.sdef, sdef) << k;
            const SdefParams& sp = m.sdef_params[sdef++];
            EXPECT_EQ(sp.c, (Vec3{1000 + f, 1001 + f, 1002 + f}));
            EXPECT_EQ(sp.r0, (Vec3{1003 + f, 1004 + f, 1005 + f}));
            EXPECT_EQ(sp.r1, (Vec3{1006 + f, 1007 + f, 1008 + f}));
          } else {
            ASSERT_EQ(v.sdef, kNoSdef) << k;
          }
        }
        EXPECT_EQ(m.sdef_params.size(), sdef);
        EXPECT_EQ(r->counts.sdef_vertices, sdef);
        auto w = write(m);
        ASSERT_TRUE(w.has_value()) << w.error().to_string();
        EXPECT_EQ(*w, b.bytes);
        auto s = read(b.bytes, ReadOptions{.skip_geometry = true});
        ASSERT_TRUE(s.has_value());
        EXPECT_EQ(s->counts.vertices, n);
        EXPECT_EQ(s->counts.sdef_vertices, sdef);
        EXPECT_TRUE(s->model.vertices.empty());
      }
    }
  }
}

TEST(PmxVertices, FloatBitsAreKeptExactly) {
  Built b = build(20, 2, 1);
  // Vertex 0 position x: a NaN with a payload; vertex 19 (near the end) edge scale: -0.0.
  const std::uint32_t nan = 0x7FC12345u;
  const std::size_t v0 = b.type_offsets[0] - 32 - 16;
  std::memcpy(b.bytes.data() + v0, &nan, 4);
  const std::size_t edge19 = b.bytes.size() - 36 - 4;
  const float minus_zero = -0.0f;
  std::memcpy(b.bytes.data() + edge19, &minus_zero, 4);
  auto r = read(b.bytes);
  ASSERT_TRUE(r.has_value()) << r.error().to_string();
  EXPECT_EQ(std::bit_cast<std::uint32_t>(r->model.vertices[0].position[0]), nan);
  EXPECT_EQ(std::bit_cast<std::uint32_t>(r->model.vertices[19].edge_scale), 0x80000000u);
  EXPECT_EQ(*write(r->model), b.bytes);
}

TEST(PmxVertices, BadDeformTypeNamesRecordAndOffsetInBulkAndNearTheEnd) {
  const std::size_t n = 40;
  for (std::size_t k : {std::size_t{0}, std::size_t{17}, n - 2, n - 1}) {
    Built b = build(n, 2, 0);
    b.bytes[b.type_offsets[k]] = 7;
    for (bool skip : {false, true}) {
      auto r = read(b.bytes, ReadOptions{.skip_geometry = skip});
      ASSERT_FALSE(r.has_value());
      EXPECT_EQ(r.error().code, ErrorCode::invalid_value);
      EXPECT_EQ(r.error().section, "vertices");
      EXPECT_EQ(r.error().record, static_cast<std::int64_t>(k));
      EXPECT_EQ(r.error().offset, static_cast<std::int64_t>(b.type_offsets[k]));
      EXPECT_NE(r.error().message.find("deform type 7 is not 0..4"), std::string::npos) << r.error().message;
    }
  }
}

TEST(PmxVertices, TruncatedVertexSectionNamesTheCutRecord) {
  const std::size_t n = 30;
  Built b = build(n, 4, 2);
  const std::size_t fixed = 32 + 32 + 1;
  const std::size_t vertices_end = b.bytes.size() - 36;
  // (From record 6 on, the records before the cut are long enough that the count check passes.)
  for (std::size_t k : {std::size_t{6}, std::size_t{12}, n - 1}) {
    const std::size_t start = b.type_offsets[k] + 1 - fixed;
    // Cut inside the fixed part: "vertex needs 65 bytes" at the record's start.
    {
      std::vector<std::uint8_t> cut(b.bytes.begin(), b.bytes.begin() + static_cast<std::ptrdiff_t>(start + 10));
      // Keep the count valid for the bytes left: the count check would fail first otherwise.
      const std::int32_t count = static_cast<std::int32_t>(k + 1);
      std::memcpy(cut.data() + (b.type_offsets[0] + 1 - fixed - 4), &count, 4);
      auto r = read(cut);
      ASSERT_FALSE(r.has_value());
      EXPECT_EQ(r.error().code, ErrorCode::truncated) << r.error().to_string();
      EXPECT_EQ(r.error().record, static_cast<std::int64_t>(k));
      EXPECT_EQ(r.error().offset, static_cast<std::int64_t>(start));
      EXPECT_NE(r.error().message.find("vertex needs 65 bytes, 10 left"), std::string::npos) << r.error().message;
    }
    // Cut inside the deform data: named at the byte after the type.
    {
      const std::size_t end = k + 1 < n ? b.type_offsets[k + 1] + 1 - fixed : vertices_end;
      std::vector<std::uint8_t> cut(b.bytes.begin(), b.bytes.begin() + static_cast<std::ptrdiff_t>(end - 1));
      const std::int32_t count = static_cast<std::int32_t>(k + 1);
      std::memcpy(cut.data() + (b.type_offsets[0] + 1 - fixed - 4), &count, 4);
      auto r = read(cut);
      ASSERT_FALSE(r.has_value());
      EXPECT_EQ(r.error().code, ErrorCode::truncated) << r.error().to_string();
      EXPECT_EQ(r.error().record, static_cast<std::int64_t>(k));
      EXPECT_EQ(r.error().offset, static_cast<std::int64_t>(b.type_offsets[k] + 1));
    }
  }
}

}  // namespace
}  // namespace mmdkit::pmx
