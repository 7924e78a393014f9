// The model view of .x files (model/accessory.hpp): fan triangulation, frame transforms and ×10,
// (vertex, normal) splitting, material grouping, texture split, repairs with findings; every
// corpus .x builds a view that satisfies the safety contract.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "mmdkit/formats/x.hpp"
#include "mmdkit/model/accessory.hpp"
#include "support/corpus.hpp"

namespace mmdkit::model {
namespace {

ByteSpan as_bytes(std::string_view s) { return {reinterpret_cast<const std::uint8_t*>(s.data()), s.size()}; }

Model build(std::string_view text, XBuildOptions o = {}) {
  auto m = load_x(as_bytes(text), o);
  EXPECT_TRUE(m) << m.error().to_string();
  return m ? *m : Model{};
}

bool has_kind(const Model& m, FindingKind k) {
  for (const Finding& f : m.findings)
    if (f.kind == k) return true;
  return false;
}

// A triangle, a quad and a pentagon: 1 + 2 + 3 = 6 triangles; two materials (faces 0, 2 → 1;
// face 1 → 0); the quad's corners use a normal list of their own.
constexpr std::string_view kPolygons = R"(xof 0303txt 0032
Mesh P {
  7;
  0;0;0;, 1;0;0;, 0;1;0;, 2;0;0;, 3;0;0;, 3;1;0;, 2;1;0;;
  3;
  3;0,2,1;,
  4;3,6,5,4;,
  5;0,2,6,5,4;;
  MeshNormals {
    2; 0;0;-1;, 0;1;0;;
    3; 3;0,0,0;, 4;1,1,1,1;, 5;0,0,0,0,0;;
  }
  MeshMaterialList {
    2; 3; 1,0,1;;
    Material { 1;0;0;1;; 5; 0.5;0.5;0.5;; 0.1;0.1;0.1;; TextureFilename { "tex\a.png*b.sph"; } }
    Material Blue { 0;0;1;0.5;; 0; 0;0;0;; 0;0;0;; }
  }
}
)";

TEST(XView, PolygonsAreFanTriangulatedAndGroupedByMaterial) {
  const Model m = build(kPolygons, XBuildOptions{1.0f, "p"});
  EXPECT_EQ(m.source, SourceFormat::x);
  EXPECT_EQ(m.shading, Shading::accessory);
  ASSERT_EQ(m.bones.size(), 1u);
  EXPECT_EQ(m.bones[0].name, kAccessoryBoneName);
  ASSERT_EQ(m.faces.size(), 18u);  // (1 + 2 + 3) triangles × 3
  ASSERT_EQ(m.materials.size(), 2u);
  // Material 0 holds the quad (2 triangles), material 1 the triangle and the pentagon (4).
  EXPECT_EQ(m.materials[0].first_index, 0u);
  EXPECT_EQ(m.materials[0].index_count, 6u);
  EXPECT_EQ(m.materials[1].first_index, 6u);
  EXPECT_EQ(m.materials[1].index_count, 12u);
  EXPECT_EQ(m.materials[0].texture, "tex\\a.png");
  EXPECT_EQ(m.materials[0].sphere, "b.sph");
  EXPECT_EQ(m.materials[0].sphere_mode, SphereMode::multiply);
  EXPECT_EQ(m.materials[0].ambient, (Vec3{0.1f, 0.1f, 0.1f}));  // emissive
  EXPECT_EQ(m.materials[0].specular_power, 5.0f);
  EXPECT_EQ(m.materials[1].name, "Blue");
  EXPECT_EQ(m.materials[1].diffuse[3], 0.5f);
  // The quad's fan: corners 3, 6, 5, 4 → (3, 6, 5), (3, 5, 4), each with normal (0, 1, 0).
  auto pos = [&](std::size_t i) { return m.vertices[m.faces[i]].position; };
  EXPECT_EQ(pos(0), (Vec3{2, 0, 0}));
  EXPECT_EQ(pos(1), (Vec3{2, 1, 0}));
  EXPECT_EQ(pos(2), (Vec3{3, 1, 0}));
  EXPECT_EQ(pos(3), (Vec3{2, 0, 0}));
  EXPECT_EQ(pos(4), (Vec3{3, 1, 0}));
  EXPECT_EQ(pos(5), (Vec3{3, 0, 0}));
  for (int i = 0; i < 6; ++i) EXPECT_EQ(m.vertices[m.faces[std::size_t(i)]].normal, (Vec3{0, 1, 0}));
  // .x vertices 3..6 are used with normal 1 (quad) and normal 0 (pentagon, vertices 4..6) and
  // vertex 0 and 2 with normal 0: 7 positions + 3 extra pairs = 10 view vertices.
  EXPECT_EQ(m.vertices.size(), 10u);
  EXPECT_TRUE(m.findings.empty()) << m.findings.front().to_string();
}

TEST(XView, FrameTransformsThenTimesTen) {
  // Outer frame: translate (1, 2, 3); inner: rotate 90° about Z (row-vector matrix: x → y).
  constexpr std::string_view text = R"(xof 0302txt 0032
Frame Outer {
  FrameTransformMatrix { 1,0,0,0, 0,1,0,0, 0,0,1,0, 1,2,3,1;; }
  Frame Inner {
    FrameTransformMatrix { 0,1,0,0, -1,0,0,0, 0,0,1,0, 0,0,0,1;; }
    Mesh { 3; 1;0;0;, 0;1;0;, 0;0;1;; 1; 3;0,1,2;; MeshNormals { 1; 1;0;0;; 1; 3;0,0,0;; } }
  }
}
)";
  const Model m = build(text);
  ASSERT_EQ(m.vertices.size(), 3u);
  // (1,0,0) rotated → (0,1,0), translated → (1,3,3), ×10 → (10,30,30).
  auto near = [](Vec3 a, Vec3 b) {
    for (int i = 0; i < 3; ++i)
      if (std::abs(a[std::size_t(i)] - b[std::size_t(i)]) > 1e-5f) return false;
    return true;
  };
  EXPECT_TRUE(near(m.vertices[0].position, {10, 30, 30}));
  EXPECT_TRUE(near(m.vertices[1].position, {0, 20, 30}));   // (0,1,0) → (−1,0,0) → (0,2,3)
  EXPECT_TRUE(near(m.vertices[2].position, {10, 20, 40}));  // (0,0,1) → (0,0,1) → (1,2,4)
  EXPECT_TRUE(near(m.vertices[0].normal, {0, 1, 0}));      // rotated, not translated or scaled
}

TEST(XView, MissingNormalsAreComputedFromTheClockwiseFaces) {
  // One triangle clockwise seen from −Z (x right, y up): normal (0, 0, −1) towards the viewer.
  const Model m = build("xof 0303txt 0032 Mesh { 3; 0;0;0;, 0;1;0;, 1;0;0;; 1; 3;0,1,2;; }");
  ASSERT_EQ(m.vertices.size(), 3u);
  for (const Vertex& v : m.vertices) EXPECT_EQ(v.normal, (Vec3{0, 0, -1}));
  ASSERT_EQ(m.materials.size(), 1u);  // no material list: one white material
  EXPECT_EQ(m.materials[0].diffuse, (Vec4{1, 1, 1, 1}));
}

TEST(XView, BadIndicesAreDroppedWithFindings) {
  constexpr std::string_view text = R"(xof 0303txt 0032
Mesh {
  3; 0;0;0;, 0;1;0;, 1;0;0;;
  3; 3;0,1,2;, 3;0,1,9;, 2;0,1;;
  MeshMaterialList { 1; 3; 0,5,0;; { Nowhere } }
}
)";
  const Model m = build(text);
  EXPECT_EQ(m.faces.size(), 3u);  // only the first face survives
  EXPECT_TRUE(has_kind(m, FindingKind::index_out_of_range));
  EXPECT_TRUE(has_kind(m, FindingKind::face_count_not_triangles));
  EXPECT_TRUE(has_kind(m, FindingKind::reader_warning));  // the reference to nothing
  for (std::uint32_t i : m.faces) EXPECT_LT(i, m.vertices.size());
}

TEST(XView, EveryCorpusFileBuildsASafeView) {
  MMDKIT_REQUIRE_CORPUS();
  int built = 0;
  for (const auto& f : mmdkit::test::corpus_files("x")) {
    auto m = load_x_file(f.path);
    ASSERT_TRUE(m) << f.local_path << ": " << m.error().to_string();
    std::uint64_t sum = 0;
    for (const Material& mat : m->materials) {
      EXPECT_EQ(mat.first_index, sum) << f.local_path;
      sum += mat.index_count;
    }
    EXPECT_EQ(sum, m->faces.size()) << f.local_path;
    for (std::uint32_t i : m->faces) ASSERT_LT(i, m->vertices.size()) << f.local_path;
    if (!m->vertex_colors.empty()) {
      EXPECT_EQ(m->vertex_colors.size(), m->vertices.size());
    }
    ++built;
  }
  EXPECT_GE(built, 9);
}

}  // namespace
}  // namespace mmdkit::model
