// DirectX .x reader: generated text files (every object the reader knows, references, templates,
// comments, CP932), errors with line / column / offset, limits; corpus files with counts from an
// independent count (tools/x_count.py, a second parser in Python; the cube's numbers also read
// off the file by eye: "24;" vertex and normal lines, "12;" face lines); binary and compressed.
#include <gtest/gtest.h>

#include <string>

#include "mmdkit/formats/x.hpp"
#include "support/corpus.hpp"

namespace mmdkit::x {
namespace {

ByteSpan as_bytes(std::string_view s) { return {reinterpret_cast<const std::uint8_t*>(s.data()), s.size()}; }

Document parse(std::string_view text) {
  auto d = read(as_bytes(text));
  EXPECT_TRUE(d) << d.error().to_string();
  return d ? *d : Document{};
}

Error parse_error(std::string_view text) {
  auto d = read(as_bytes(text));
  EXPECT_FALSE(d);
  return d ? Error{} : d.error();
}

constexpr std::string_view kFull = R"(xof 0303txt 0032
// a comment
# another comment
template Mesh {
 <3d82ab44-62da-11cf-ab39-0020af71e433>
 DWORD nVertices;
 array Vector vertices[nVertices];
 DWORD nFaces;
 array MeshFace faces[nFaces];
 [...]
}
template MeshMaterialList {
 <f6f23f42-7686-11cf-8f52-0040333594a3>
 DWORD nMaterials;
 DWORD nFaceIndexes;
 array DWORD faceIndexes[nFaceIndexes];
 [Material <3d82ab4d-62da-11cf-ab39-0020af71e433>]
}
Header { 1; 0; 1; }
Material Red {
 1.0;0.0;0.0;1.0;;
 20.0;
 0.5;0.5;0.5;;
 0.1;0.0;0.0;;
 TextureFilename { "red.png*shine.spa"; }
}
Frame Root {
 FrameTransformMatrix { 1,0,0,0, 0,1,0,0, 0,0,1,0, 5,6,7,1;; }
 Frame Child {
  Mesh Quad {
   4;
   0;0;0;, 1;0;0;, 1;1;0;, 0;1;0;;
   2;
   4;0,3,2,1;,
   3;0,2,1;;
   MeshNormals { 1; 0.0;0.0;-1.0;; 2; 4;0,0,0,0;, 3;0,0,0;; }
   MeshTextureCoords { 4; 0;1;, 1;1;, 1;0;, 0;0;; }
   MeshVertexColors { 2; 0;1;0;0;1;, 3;0;0;1;0.5;; }
   MeshMaterialList {
    2; 2; 0, 1;;
    { Red }
    Material { 0;1;0;1;; 1; 0;0;0;; 0;0;0;; }
   }
   SkinWeights { "bone"; 0; ; ; 1,0,0,0,0,1,0,0,0,0,1,0,0,0,0,1;; }
  }
 }
}
AnimationSet { Animation { { Root } AnimationKey { 0; 1; 0; 4; 1,0,0,0;;; } } }
)";

TEST(XRead, ReadsEveryKnownObject) {
  const Document d = parse(kFull);
  EXPECT_EQ(d.header.major, 3);
  EXPECT_EQ(d.header.minor, 3);
  EXPECT_EQ(d.header.format, BodyFormat::text);
  EXPECT_EQ(d.header.float_bits, 32);
  ASSERT_EQ(d.templates.size(), 2u);
  EXPECT_EQ(d.templates[0].name, "Mesh");
  EXPECT_EQ(d.templates[0].uuid, "3d82ab44-62da-11cf-ab39-0020af71e433");
  EXPECT_EQ(d.templates[0].members, 4u);
  EXPECT_EQ(d.templates[0].restriction, "open");
  EXPECT_EQ(d.templates[1].restriction, "Material");
  ASSERT_EQ(d.frames.size(), 2u);
  EXPECT_EQ(d.frames[0].name, "Root");
  EXPECT_EQ(d.frames[1].parent, 0);
  EXPECT_TRUE(d.frames[0].has_transform);
  EXPECT_FALSE(d.frames[1].has_transform);
  EXPECT_EQ(d.frames[0].transform[12], 5.0f);
  ASSERT_EQ(d.meshes.size(), 1u);
  const Mesh& m = d.meshes[0];
  EXPECT_EQ(m.name, "Quad");
  EXPECT_EQ(m.frame, 1);
  EXPECT_EQ(m.world[12], 5.0f);  // the parent's translation reaches the mesh
  EXPECT_EQ(m.world[14], 7.0f);
  EXPECT_EQ(m.positions.size(), 4u);
  EXPECT_EQ(m.face_sizes, (std::vector<std::uint32_t>{4, 3}));
  EXPECT_EQ(m.face_indices, (std::vector<std::uint32_t>{0, 3, 2, 1, 0, 2, 1}));
  EXPECT_TRUE(m.has_normals);
  EXPECT_EQ(m.normals.size(), 1u);
  EXPECT_EQ(m.normal_face_sizes, (std::vector<std::uint32_t>{4, 3}));
  ASSERT_EQ(m.uvs.size(), 4u);
  EXPECT_EQ(m.uvs[0], (Vec2{0, 1}));
  ASSERT_EQ(m.vertex_colors.size(), 2u);
  EXPECT_EQ(m.vertex_colors[1].vertex, 3u);
  EXPECT_EQ(m.vertex_colors[1].color, (Vec4{0, 0, 1, 0.5f}));
  EXPECT_EQ(m.material_count, 2u);
  EXPECT_EQ(m.face_materials, (std::vector<std::uint32_t>{0, 1}));
  ASSERT_EQ(d.materials.size(), 2u);  // the top-level Red, then the inline one
  EXPECT_EQ(m.materials, (std::vector<std::int32_t>{0, 1}));
  EXPECT_EQ(d.materials[0].name, "Red");
  EXPECT_EQ(d.materials[0].face_color, (Vec4{1, 0, 0, 1}));
  EXPECT_EQ(d.materials[0].power, 20.0f);
  EXPECT_EQ(d.materials[0].specular, (Vec3{0.5f, 0.5f, 0.5f}));
  EXPECT_EQ(d.materials[0].emissive, (Vec3{0.1f, 0, 0}));
  EXPECT_EQ(d.materials[0].texture_filename, "red.png*shine.spa");
  EXPECT_EQ(d.materials[1].face_color, (Vec4{0, 1, 0, 1}));
  // Header, SkinWeights and AnimationSet are skipped, one warning per type.
  std::map<std::string, std::uint32_t> skipped(d.skipped.begin(), d.skipped.end());
  EXPECT_EQ(skipped["Header"], 1u);
  EXPECT_EQ(skipped["SkinWeights"], 1u);
  EXPECT_EQ(skipped["AnimationSet"], 1u);
  EXPECT_EQ(d.warnings.size(), 3u);
}

TEST(XRead, ReferencesResolveToMaterialsDefinedLater) {
  const Document d = parse(R"(xof 0302txt 0064
Mesh { 3; 0;0;0;, 1;0;0;, 0;1;0;; 1; 3;0,1,2;;
  MeshMaterialList { 2; 1; 1;; {Late} { Missing } } }
Material Late { 0.5;0.5;0.5;1;; 0; 0;0;0;; 0;0;0;; }
)");
  EXPECT_EQ(d.header.float_bits, 64);
  ASSERT_EQ(d.meshes.size(), 1u);
  EXPECT_EQ(d.meshes[0].materials, (std::vector<std::int32_t>{0, -1}));
  EXPECT_EQ(d.meshes[0].unresolved, (std::vector<std::string>{"Missing"}));
  ASSERT_EQ(d.warnings.size(), 1u);
  EXPECT_NE(d.warnings[0].message.find("Missing"), std::string::npos);
}

TEST(XRead, Cp932NamesAndTextureFilenames) {
  // "ネギ" in CP932 is 83 6C 83 4D; 0x7B '{' as a trail byte (e.g. 83 7B "ボ") stays in the name.
  std::string text = "xof 0303txt 0032\nMaterial \x83\x6C\x83\x4D\x83\x7B { 1;1;1;1;; 0; 0;0;0;; 0;0;0;; "
                     "TextureFilename { \"\x83\x6C\x83\x4D.png\"; } }\n";
  const Document d = parse(text);
  ASSERT_EQ(d.materials.size(), 1u);
  EXPECT_EQ(d.materials[0].name, "ネギボ");
  EXPECT_EQ(d.materials[0].texture_filename, "ネギ.png");
  EXPECT_EQ(d.materials[0].texture_filename_raw.size(), 8u);
}

TEST(XRead, ErrorsNameLineColumnAndOffset) {
  // A letter where the second vertex coordinate should be: line 3, column 4.
  const Error e = parse_error("xof 0303txt 0032\nMesh {\n 1;x;0;0;;\n 0;;\n}\n");
  EXPECT_EQ(e.code, ErrorCode::invalid_value);
  EXPECT_EQ(e.line, 3);
  EXPECT_EQ(e.column, 4);
  EXPECT_EQ(e.offset, 16 + 11);  // offsets count from the start of the file
  EXPECT_NE(e.section.find("Mesh"), std::string::npos);
}

TEST(XRead, CountsBeyondTheInputAreRefusedBeforeAllocating) {
  const Error e = parse_error("xof 0303txt 0032\nMesh { 4000000000; 0;0;0;; }\n");
  EXPECT_EQ(e.code, ErrorCode::count_too_large);
  const Error f = parse_error("xof 0303txt 0032\nMesh { 1; 0;0;0;; 1; 4000000000; 0; }\n");
  EXPECT_EQ(f.code, ErrorCode::count_too_large);
}

TEST(XRead, HeaderErrors) {
  EXPECT_EQ(parse_error("").code, ErrorCode::empty_input);
  EXPECT_EQ(parse_error("PMX ").code, ErrorCode::bad_signature);
  EXPECT_EQ(parse_error("xof 0303t").code, ErrorCode::truncated);
  EXPECT_EQ(parse_error("xof 0201txt 0032").code, ErrorCode::unsupported);
  EXPECT_EQ(parse_error("xof 0303abcd0032").code, ErrorCode::unsupported);
  EXPECT_EQ(parse_error("xof 0303txt 0016").code, ErrorCode::unsupported);
  // An empty body is an empty document.
  const Document d = parse("xof 0303txt 0032");
  EXPECT_TRUE(d.meshes.empty());
}

TEST(XRead, TruncatedAndMalformedBodies) {
  EXPECT_EQ(parse_error("xof 0303txt 0032\nMesh { 3; 0;0;0;, 1;0;0;").code, ErrorCode::truncated);
  EXPECT_EQ(parse_error("xof 0303txt 0032\nFrame A { ").code, ErrorCode::truncated);
  EXPECT_EQ(parse_error("xof 0303txt 0032\nUnknownThing { { { }").code, ErrorCode::truncated);
  EXPECT_EQ(parse_error("xof 0303txt 0032\nMaterial { 1;1;1;1;; 0; 0;0;0;; 0;0;0;; TextureFilename { \"abc").code,
            ErrorCode::truncated);
  EXPECT_EQ(parse_error("xof 0303txt 0032\nFrame A { 12 }").code, ErrorCode::invalid_value);
  // Nesting deeper than kMaxDepth.
  std::string deep = "xof 0303txt 0032\n";
  for (int i = 0; i < kMaxDepth + 2; ++i) deep += "Frame {";
  EXPECT_EQ(parse_error(deep).code, ErrorCode::invalid_value);
}

// Independent counts per corpus file (tools/x_count.py output; the assimp cubes also by eye). MMD's
// stock accessories (MMDSceneKit's copy of UserFile/Accessory) carry no MeshNormals.
struct Expected {
  const char* path;
  std::size_t frames, materials, vertices, faces, face_indices, normals, normal_faces, uvs, colors, list;
};
constexpr Expected kCorpus[] = {
    {"ray-cast__ray-mmd/ray.x", 0, 1, 3, 1, 3, 1, 1, 3, 0, 1},
    {"ray-cast__ray-mmd/Extension/DummyScreen/DummyScreen.x", 0, 1, 4, 2, 6, 4, 2, 4, 0, 1},
    {"hkrn__nanoem/emapp/test/fixtures/test.x", 0, 1, 4, 2, 6, 1, 2, 4, 0, 1},
    {"hkrn__nanoem/emapp/test/fixtures/effects/main.x", 0, 1, 4, 2, 6, 1, 2, 4, 0, 1},
    {"assimp__assimp/test/models/X/test_cube_text.x", 2, 1, 24, 12, 36, 24, 12, 24, 0, 1},
    {"assimp__assimp/test/models/X/test_cube_binary.x", 2, 1, 24, 12, 36, 24, 12, 24, 0, 1},
    {"assimp__assimp/test/models/X/test_cube_compressed.x", 2, 1, 24, 12, 36, 24, 12, 24, 0, 1},
    {"assimp__assimp/test/models/X/test.x", 1, 1, 24, 12, 36, 24, 12, 24, 0, 1},
    {"assimp__assimp/test/models/X/kwxport_test_cubewithvcolors.x", 1, 3, 24, 12, 36, 24, 12, 24, 24, 3},
    {"assimp__assimp/test/models/X/malformed_skinweights_oob.x", 2, 1, 24, 12, 36, 24, 12, 24, 0, 1},
    {"magicien__MMDSceneKit/Sample_swift/Common/art.scnassets/Accessory/floorlight01.x", 0, 1, 4, 1, 4, 0, 0, 4, 0, 1},
    {"magicien__MMDSceneKit/Sample_swift/Common/art.scnassets/Accessory/laser01.x", 0, 1, 30, 15, 60, 0, 0, 30, 0, 1},
    {"magicien__MMDSceneKit/Sample_swift/Common/art.scnassets/Accessory/light01_b.x", 0, 1, 16, 8, 32, 0, 0, 16, 0, 1},
    {"magicien__MMDSceneKit/Sample_swift/Common/art.scnassets/Accessory/light01_r.x", 0, 1, 16, 8, 32, 0, 0, 16, 0, 1},
    {"magicien__MMDSceneKit/Sample_swift/Common/art.scnassets/Accessory/light02_b.x", 0, 2, 56, 40, 160, 0, 0, 56, 0, 2},
    {"magicien__MMDSceneKit/Sample_swift/Common/art.scnassets/Accessory/light02_r.x", 0, 2, 56, 40, 160, 0, 0, 56, 0, 2},
    {"magicien__MMDSceneKit/Sample_swift/Common/art.scnassets/Accessory/light02_y.x", 0, 2, 56, 40, 160, 0, 0, 56, 0, 2},
    {"magicien__MMDSceneKit/Sample_swift/Common/art.scnassets/Accessory/light03_b.x", 0, 1, 16, 8, 32, 0, 0, 16, 0, 1},
    {"magicien__MMDSceneKit/Sample_swift/Common/art.scnassets/Accessory/light03_r.x", 0, 1, 16, 8, 32, 0, 0, 16, 0, 1},
    {"magicien__MMDSceneKit/Sample_swift/Common/art.scnassets/Accessory/negi.x", 0, 1, 67, 72, 264, 0, 0, 67, 0, 1},
    {"magicien__MMDSceneKit/Sample_swift/Common/art.scnassets/Accessory/stage01.x", 0, 21, 13894, 9060, 36132, 0, 0, 13894, 0, 21},
};

TEST(XCorpus, EveryFileReadsWithTheIndependentCounts) {
  MMDKIT_REQUIRE_CORPUS();
  std::size_t checked = 0;
  for (const Expected& e : kCorpus) {
    const auto f = mmdkit::test::corpus_file(e.path);
    ASSERT_TRUE(f) << e.path;
    auto d = read_file(f->path);
    ASSERT_TRUE(d) << d.error().to_string();
    EXPECT_EQ(d->frames.size(), e.frames) << e.path;
    EXPECT_EQ(d->materials.size(), e.materials) << e.path;
    ASSERT_EQ(d->meshes.size(), 1u) << e.path;
    const Mesh& m = d->meshes[0];
    EXPECT_EQ(m.positions.size(), e.vertices) << e.path;
    EXPECT_EQ(m.face_sizes.size(), e.faces) << e.path;
    EXPECT_EQ(index_total(m.face_sizes), e.face_indices) << e.path;
    EXPECT_EQ(m.face_indices.size(), e.face_indices) << e.path;
    EXPECT_EQ(m.normals.size(), e.normals) << e.path;
    EXPECT_EQ(m.normal_face_sizes.size(), e.normal_faces) << e.path;  // 0: the file has no MeshNormals
    EXPECT_EQ(m.uvs.size(), e.uvs) << e.path;
    EXPECT_EQ(m.vertex_colors.size(), e.colors) << e.path;
    EXPECT_EQ(m.materials.size(), e.list) << e.path;
    for (std::int32_t i : m.materials) EXPECT_GE(i, 0) << e.path << ": a reference was not resolved";
    ++checked;
  }
  // Every corpus .x is in the table.
  EXPECT_EQ(mmdkit::test::corpus_files("x").size(), checked);
}

TEST(XCorpus, BinaryAndCompressedCubesAreTheSameDocument) {
  MMDKIT_REQUIRE_CORPUS();
  const auto bin = mmdkit::test::corpus_file("assimp__assimp/test/models/X/test_cube_binary.x");
  const auto zip = mmdkit::test::corpus_file("assimp__assimp/test/models/X/test_cube_compressed.x");
  const auto txt = mmdkit::test::corpus_file("assimp__assimp/test/models/X/test_cube_text.x");
  ASSERT_TRUE(bin && zip && txt);
  auto b = read_file(bin->path);
  auto z = read_file(zip->path);
  auto t = read_file(txt->path);
  ASSERT_TRUE(b && z && t);
  EXPECT_EQ(b->header.format, BodyFormat::binary);
  EXPECT_EQ(z->header.format, BodyFormat::compressed_binary);
  EXPECT_EQ(b->meshes[0].positions, z->meshes[0].positions);
  EXPECT_EQ(b->meshes[0].face_indices, z->meshes[0].face_indices);
  EXPECT_EQ(b->meshes[0].normals, z->meshes[0].normals);
  EXPECT_EQ(b->templates.size(), z->templates.size());
  // The binary cube is the text cube written in binary: same numbers.
  EXPECT_EQ(b->meshes[0].positions, t->meshes[0].positions);
  EXPECT_EQ(b->meshes[0].face_indices, t->meshes[0].face_indices);
  for (int c = 0; c < 4; ++c)  // text has 6 decimals of the binary's floats
    EXPECT_NEAR(b->materials[0].face_color[std::size_t(c)], t->materials[0].face_color[std::size_t(c)], 1e-6f);
}

TEST(XCorpus, CompressedFileCutOrCorruptIsAClearError) {
  MMDKIT_REQUIRE_CORPUS();
  const auto zip = mmdkit::test::corpus_file("assimp__assimp/test/models/X/test_cube_compressed.x");
  ASSERT_TRUE(zip);
  std::vector<std::uint8_t> bytes = mmdkit::test::read_bytes(zip->path);
  std::vector<std::uint8_t> cut(bytes.begin(), bytes.begin() + 200);
  auto c = read(cut);
  ASSERT_FALSE(c);
  EXPECT_EQ(c.error().code, ErrorCode::truncated);
  std::vector<std::uint8_t> bad = bytes;
  bad[24] = 'X';  // the "CK" of the first block
  auto k = read(bad);
  ASSERT_FALSE(k);
  EXPECT_EQ(k.error().code, ErrorCode::invalid_value);
  // A claimed size beyond the limit.
  std::vector<std::uint8_t> huge = bytes;
  huge[16] = 0xFF, huge[17] = 0xFF, huge[18] = 0xFF, huge[19] = 0xFF;
  auto h = read(huge);
  ASSERT_FALSE(h);
  EXPECT_EQ(h.error().code, ErrorCode::limit_exceeded);
}

}  // namespace
}  // namespace mmdkit::x
