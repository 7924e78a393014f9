// glTF export (export/gltf.hpp): values checked against hand-computed numbers from the glTF 2.0
// specification (container, accessors, skin, morph targets, materials, animation).
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <fstream>

#include "formats/generate/generated_images.hpp"
#include "export/gltf_reader.hpp"
#include "mmdkit/core/image.hpp"
#include "mmdkit/export/gltf.hpp"
#include "mmdkit/model/model.hpp"
#include "support/corpus.hpp"

namespace mmdkit::exporter {
namespace {

using test::Gltf;

model::Model small_model() {
  model::Model m;
  m.name = "small";
  auto bone = [&](const char* name, model::Vec3 p, int parent) {
    model::Bone b;
    b.name = name;
    b.position = p;
    b.parent = parent;
    m.bones.push_back(b);
  };
  bone("root", {0, 0, 0}, -1);
  bone("arm", {1, 2, 3}, 0);
  bone("other", {0, 5, 0}, -1);
  auto vert = [&](model::Vec3 p, model::Vec3 n, model::DeformType d, std::array<std::int32_t, 4> bones,
                  model::Vec4 w) {
    model::Vertex v;
    v.position = p;
    v.normal = n;
    v.uv = {0.25f, 0.75f};
    v.deform = d;
    v.bones = bones;
    v.weights = w;
    m.vertices.push_back(v);
  };
  vert({0, 0, 0}, {0, 2, 0}, model::DeformType::bdef1, {0, -1, -1, -1}, {1, 0, 0, 0});
  vert({1, 0, 2}, {0, 0, 1}, model::DeformType::bdef2, {0, 1, -1, -1}, {0.25f, 0.75f, 0, 0});
  vert({0, 1, -1}, {0, 0, 1}, model::DeformType::bdef4, {1, 1, 2, -1}, {0.2f, 0.2f, 0.4f, 0.2f});
  vert({2, 2, 2}, {0, 0, 1}, model::DeformType::sdef, {2, 0, -1, -1}, {1, 0, 0, 0});
  m.faces = {0, 1, 2, 1, 2, 3};
  model::Material a;
  a.name = "half";
  a.diffuse = {1, 0.5f, 0.25f, 0.5f};
  a.flags = model::kDoubleSided;
  a.first_index = 0;
  a.index_count = 3;
  a.shared_toon = 2;
  model::Material b;
  b.name = "solid";
  b.diffuse = {0.5f, 0.5f, 0.5f, 1};
  b.first_index = 3;
  b.index_count = 3;
  m.materials = {a, b};
  model::Morph v;
  v.name = "a";
  v.type = model::MorphType::vertex;
  v.vertex_offsets = {{1, {1, 0, 2}}, {1, {0, 1, 0}}};
  model::Morph bm;
  bm.name = "b";
  bm.type = model::MorphType::bone;
  bm.bone_offsets = {{1, {0, 1, 0}, {0, 0, 0, 1}}};
  model::Morph uv;
  uv.name = "u";
  uv.type = model::MorphType::uv;
  uv.uv_offsets = {{2, {0.125f, 0.25f, 0, 0}}};
  model::Morph g;
  g.name = "g";
  g.type = model::MorphType::group;
  g.group_offsets = {{0, 0.5f}, {2, 2.0f}, {1, 1.0f}};
  m.morphs = {v, bm, uv, g};
  return m;
}

Gltf export_glb(const model::Model& m, const GltfAnimation* an = nullptr, GltfOptions o = {}) {
  auto r = write_gltf(m, an, o);
  EXPECT_TRUE(r) << (r ? "" : r.error().to_string());
  if (!r) return {};
  Gltf g = test::parse_glb(r->bytes);
  EXPECT_EQ(g.error, "");
  return g;
}

int attr(const Gltf& g, const char* name, int prim = 0) {
  return g.json["meshes"][0]["primitives"][static_cast<rapidjson::SizeType>(prim)]["attributes"][name].GetInt();
}

TEST(Gltf, PositionsNormalsAndWindingAreMirroredAndScaled) {
  const Gltf g = export_glb(small_model());
  ASSERT_TRUE(g.json.IsObject());
  EXPECT_STREQ(g.json["asset"]["version"].GetString(), "2.0");
  const auto pos = g.accessor(attr(g, "POSITION"));
  ASSERT_EQ(pos.size(), 12u);
  // v1 = (1, 0, 2) MMD units → (0.08, 0, −0.16) m.
  EXPECT_NEAR(pos[3], 0.08, 1e-7);
  EXPECT_NEAR(pos[4], 0.0, 1e-7);
  EXPECT_NEAR(pos[5], -0.16, 1e-7);
  const auto& pacc = g.json["accessors"][static_cast<rapidjson::SizeType>(attr(g, "POSITION"))];
  EXPECT_NEAR(pacc["max"][2].GetDouble(), 0.08, 1e-7);  // v2: z = −1 → +0.08
  EXPECT_NEAR(pacc["min"][2].GetDouble(), -0.16, 1e-7);
  const auto nrm = g.accessor(attr(g, "NORMAL"));
  EXPECT_EQ((std::vector<double>{nrm[0], nrm[1], nrm[2]}), (std::vector<double>{0, 1, 0}));  // (0, 2, 0) normalized
  EXPECT_EQ(nrm[5], -1.0);  // (0, 0, 1) → (0, 0, −1)
  const auto& prims = g.json["meshes"][0]["primitives"];
  ASSERT_EQ(prims.Size(), 2u);
  EXPECT_EQ(g.accessor(prims[0]["indices"].GetInt()), (std::vector<double>{0, 2, 1}));
  EXPECT_EQ(g.accessor(prims[1]["indices"].GetInt()), (std::vector<double>{1, 3, 2}));
  EXPECT_EQ(prims[0]["material"].GetInt(), 0);
  EXPECT_EQ(prims[1]["material"].GetInt(), 1);
  EXPECT_EQ(attr(g, "POSITION", 0), attr(g, "POSITION", 1));  // shared vertex data
  const auto uv = g.accessor(attr(g, "TEXCOORD_0"));
  EXPECT_EQ(uv[0], 0.25);  // V kept: both put (0, 0) at the top left
  EXPECT_EQ(uv[1], 0.75);
}

TEST(Gltf, SkinJointsWeightsAndInverseBindMatrices) {
  const Gltf g = export_glb(small_model());
  const auto j = g.accessor(attr(g, "JOINTS_0"));
  const auto w = g.accessor(attr(g, "WEIGHTS_0"));
  // BDEF1 → (0) 1; BDEF2 (0, 1) 0.25 / 0.75; BDEF4 (1, 1, 2, −1) 0.2 0.2 0.4 0.2 → bone 1 0.4,
  // bone 2 0.4 (the −1 slot dropped), normalized to 0.5 / 0.5; SDEF (2, 0) w0 = 1 → bone 2 alone.
  EXPECT_EQ((std::vector<double>(j.begin(), j.begin() + 4)), (std::vector<double>{0, 0, 0, 0}));
  EXPECT_EQ((std::vector<double>(w.begin(), w.begin() + 4)), (std::vector<double>{1, 0, 0, 0}));
  EXPECT_EQ((std::vector<double>(j.begin() + 4, j.begin() + 6)), (std::vector<double>{0, 1}));
  EXPECT_EQ((std::vector<double>(w.begin() + 4, w.begin() + 6)), (std::vector<double>{0.25, 0.75}));
  EXPECT_EQ((std::vector<double>(j.begin() + 8, j.begin() + 10)), (std::vector<double>{1, 2}));
  EXPECT_EQ((std::vector<double>(w.begin() + 8, w.begin() + 12)), (std::vector<double>{0.5, 0.5, 0, 0}));
  EXPECT_EQ(j[12], 2);
  EXPECT_EQ(w[12], 1);
  const auto& skin = g.json["skins"][0];
  ASSERT_EQ(skin["joints"].Size(), 3u);
  const int arm = skin["joints"][1].GetInt();
  const auto& arm_node = g.json["nodes"][static_cast<rapidjson::SizeType>(arm)];
  EXPECT_STREQ(arm_node["name"].GetString(), "arm");
  EXPECT_NEAR(arm_node["translation"][0].GetDouble(), 0.08, 1e-7);
  EXPECT_NEAR(arm_node["translation"][1].GetDouble(), 0.16, 1e-7);
  EXPECT_NEAR(arm_node["translation"][2].GetDouble(), -0.24, 1e-7);
  const auto ibm = g.accessor(skin["inverseBindMatrices"].GetInt());
  ASSERT_EQ(ibm.size(), 48u);
  EXPECT_NEAR(ibm[16 + 12], -0.08, 1e-7);
  EXPECT_NEAR(ibm[16 + 13], -0.16, 1e-7);
  EXPECT_NEAR(ibm[16 + 14], 0.24, 1e-7);
  EXPECT_EQ(ibm[16 + 0], 1);
  // Both root bones hang under one armature node (a common root for the joints), a scene root.
  const auto& scene = g.json["scenes"][0]["nodes"];
  bool found = false;
  for (const auto& n : scene.GetArray()) {
    const auto& node = g.json["nodes"][static_cast<rapidjson::SizeType>(n.GetInt())];
    if (node.HasMember("children") && node["children"].Size() == 2) found = true;
  }
  EXPECT_TRUE(found);
}

TEST(Gltf, MorphTargetsVertexUvAndFlattenedGroups) {
  const Gltf g = export_glb(small_model());
  const auto& mesh = g.json["meshes"][0];
  ASSERT_TRUE(mesh.HasMember("extras"));
  const auto& names = mesh["extras"]["targetNames"];
  ASSERT_EQ(names.Size(), 3u);  // the bone morph is not a target
  EXPECT_STREQ(names[0].GetString(), "a");
  EXPECT_STREQ(names[1].GetString(), "u");
  EXPECT_STREQ(names[2].GetString(), "g");
  const auto& t = mesh["primitives"][0]["targets"];
  ASSERT_EQ(t.Size(), 3u);
  // a: vertex 1 offsets (1, 0, 2) + (0, 1, 0) = (1, 1, 2) → (0.08, 0.08, −0.16).
  const auto a = g.accessor(t[0]["POSITION"].GetInt());
  ASSERT_EQ(a.size(), 12u);
  EXPECT_NEAR(a[3], 0.08, 1e-7);
  EXPECT_NEAR(a[4], 0.08, 1e-7);
  EXPECT_NEAR(a[5], -0.16, 1e-7);
  EXPECT_EQ(a[0], 0);
  EXPECT_EQ(a[6], 0);
  EXPECT_TRUE(g.json["accessors"][static_cast<rapidjson::SizeType>(t[0]["POSITION"].GetInt())].HasMember("sparse"));
  const auto au = g.accessor(t[0]["TEXCOORD_0"].GetInt());
  EXPECT_EQ(au, std::vector<double>(8, 0.0));
  // u: TEXCOORD_0 of vertex 2 += (0.125, 0.25).
  const auto u = g.accessor(t[1]["TEXCOORD_0"].GetInt());
  EXPECT_EQ(u[4], 0.125);
  EXPECT_EQ(u[5], 0.25);
  EXPECT_EQ(g.accessor(t[1]["POSITION"].GetInt()), std::vector<double>(12, 0.0));
  // g = 0.5 × a + 2 × u (+ the bone morph, which moves no vertex).
  const auto gp = g.accessor(t[2]["POSITION"].GetInt());
  EXPECT_NEAR(gp[3], 0.04, 1e-7);
  EXPECT_NEAR(gp[5], -0.08, 1e-7);
  const auto gu = g.accessor(t[2]["TEXCOORD_0"].GetInt());
  EXPECT_EQ(gu[4], 0.25);
  EXPECT_EQ(gu[5], 0.5);
  EXPECT_EQ(mesh["weights"].Size(), 3u);
}

TEST(Gltf, MaterialsAlphaDoubleSidedUnlitAndExtras) {
  GltfOptions o;
  o.unlit = true;
  const Gltf g = export_glb(small_model(), nullptr, o);
  const auto& m = g.json["materials"];
  ASSERT_EQ(m.Size(), 2u);
  EXPECT_STREQ(m[0]["alphaMode"].GetString(), "BLEND");  // diffuse alpha 0.5
  EXPECT_TRUE(m[0]["doubleSided"].GetBool());
  EXPECT_FALSE(m[1].HasMember("alphaMode"));  // OPAQUE is the default
  EXPECT_FALSE(m[1].HasMember("doubleSided"));
  EXPECT_EQ(m[0]["pbrMetallicRoughness"]["baseColorFactor"][3].GetDouble(), 0.5);
  EXPECT_TRUE(m[0]["extensions"].HasMember("KHR_materials_unlit"));
  EXPECT_STREQ(g.json["extensionsUsed"][0].GetString(), "KHR_materials_unlit");
  EXPECT_EQ(m[0]["extras"]["mmd"]["sharedToon"].GetInt(), 2);
  EXPECT_STREQ(m[0]["extras"]["mmd"]["toon"].GetString(), "toon03.bmp");
}

TEST(Gltf, TexturesEmbeddedBmpConvertedToPngMissingWarnedOnce) {
  const auto dir = test::temp_dir("gltf_tex");
  auto bmp = generated_images::encode(generated_images::body_pixel, generated_images::ImageFormat::bmp, "b.bmp");
  ASSERT_TRUE(bmp);
  std::ofstream(dir / "body.bmp", std::ios::binary).write(reinterpret_cast<const char*>(bmp->data()),
                                                            static_cast<std::streamsize>(bmp->size()));
  // A 4 × 4 DXT1 DDS, one block: all pixels colour 0 = pure green (0x07E0).
  std::vector<std::uint8_t> dds(128, 0);
  std::memcpy(dds.data(), "DDS ", 4);
  dds[4] = 124;
  dds[12] = dds[16] = 4;
  dds[76] = 32;
  dds[80] = 0x4;
  std::memcpy(&dds[84], "DXT1", 4);
  for (std::uint8_t b : {0xE0, 0x07, 0x00, 0x00, 0, 0, 0, 0}) dds.push_back(b);
  std::ofstream(dir / "sph.dds", std::ios::binary).write(reinterpret_cast<const char*>(dds.data()),
                                                           static_cast<std::streamsize>(dds.size()));
  model::Model m = small_model();
  m.materials[0].texture = "body.bmp";
  m.materials[0].sphere = "SPH.dds";  // case differs: resolved case-insensitively
  m.materials[1].texture = "gone.png";
  m.materials.push_back(m.materials[1]);  // the same missing texture again, no faces
  m.materials[2].index_count = 0;
  GltfOptions o;
  o.texture_folder = dir;
  auto r = write_gltf(m, nullptr, o);
  ASSERT_TRUE(r);
  EXPECT_EQ(r->textures_embedded, 2u);
  int missing = 0;
  for (const auto& w : r->warnings) missing += w.find("gone.png") != std::string::npos;
  EXPECT_EQ(missing, 1);
  const Gltf g = test::parse_glb(r->bytes);
  ASSERT_EQ(g.json["images"].Size(), 2u);
  EXPECT_STREQ(g.json["images"][0]["mimeType"].GetString(), "image/png");
  EXPECT_STREQ(g.json["images"][1]["mimeType"].GetString(), "image/png");  // the DDS, converted
  EXPECT_EQ(g.json["materials"][0]["extras"]["mmd"]["sphereTexture"].GetInt(), 1);
  {
    const auto& v1 = g.json["bufferViews"][static_cast<rapidjson::SizeType>(g.json["images"][1]["bufferView"].GetInt())];
    auto sph = decode_image(std::span<const std::uint8_t>(g.bin.data() + v1["byteOffset"].GetUint64(), v1["byteLength"].GetUint64()), "sph");
    ASSERT_TRUE(sph);
    EXPECT_EQ((std::vector<int>{sph->at(3, 3)[0], sph->at(3, 3)[1], sph->at(3, 3)[2]}), (std::vector<int>{0, 255, 0}));
  }
  EXPECT_EQ(g.json["materials"][0]["pbrMetallicRoughness"]["baseColorTexture"]["index"].GetInt(), 0);
  const auto& view = g.json["bufferViews"][static_cast<rapidjson::SizeType>(g.json["images"][0]["bufferView"].GetInt())];
  const std::span<const std::uint8_t> png(g.bin.data() + view["byteOffset"].GetUint64(), view["byteLength"].GetUint64());
  auto img = decode_image(png, "embedded");
  ASSERT_TRUE(img);
  const auto want = generated_images::body_pixel(10, 20);
  EXPECT_EQ(img->at(10, 20)[0], want[0]);
  EXPECT_EQ(img->at(10, 20)[2], want[2]);
  EXPECT_EQ(g.json["meshes"][0]["primitives"].Size(), 2u);  // the empty material has no primitive
}

// A toon named toon01..10.bmp: the model folder's file when it has one (embedded), else MMD's
// shared toon (sharedToon, no warning: `check` does not report it either); another missing toon
// is warned about.
TEST(Gltf, ToonNamedLikeASharedToonFallsBackToIt) {
  const auto dir = test::temp_dir("gltf_toon");
  auto bmp = generated_images::encode(generated_images::body_pixel, generated_images::ImageFormat::bmp, "t.bmp");
  ASSERT_TRUE(bmp);
  std::ofstream(dir / "toon05.bmp", std::ios::binary).write(reinterpret_cast<const char*>(bmp->data()),
                                                              static_cast<std::streamsize>(bmp->size()));
  model::Model m = small_model();
  for (auto& x : m.materials) x.shared_toon = -1;
  m.materials[0].toon = "toon02.bmp";  // not in the folder: MMD's toon02
  m.materials[1].toon = "toon05.bmp";  // in the folder: that file
  m.materials.push_back(m.materials[1]);
  m.materials[2].toon = "mytoon.bmp";  // missing, not a shared name
  m.materials[2].index_count = 0;
  GltfOptions o;
  o.texture_folder = dir;
  auto r = write_gltf(m, nullptr, o);
  ASSERT_TRUE(r);
  std::string all;
  for (const auto& w : r->warnings) all += w + "\n";
  EXPECT_EQ(all.find("toon02"), std::string::npos) << all;
  EXPECT_EQ(all.find("toon05"), std::string::npos) << all;
  EXPECT_NE(all.find("texture 'mytoon.bmp' not embedded"), std::string::npos) << all;
  const Gltf g = test::parse_glb(r->bytes);
  const auto& mat = g.json["materials"];
  EXPECT_EQ(mat[0]["extras"]["mmd"]["sharedToon"].GetInt(), 1);
  EXPECT_STREQ(mat[0]["extras"]["mmd"]["toon"].GetString(), "toon02.bmp");
  EXPECT_FALSE(mat[0]["extras"]["mmd"].HasMember("toonTexture"));
  EXPECT_FALSE(mat[1]["extras"]["mmd"].HasMember("sharedToon"));
  EXPECT_TRUE(mat[1]["extras"]["mmd"].HasMember("toonTexture"));
  EXPECT_FALSE(mat[2]["extras"]["mmd"].HasMember("sharedToon"));
}

TEST(Gltf, AnimationChannelsConvertedPerSample) {
  const model::Model m = small_model();
  GltfAnimation an;
  an.sample_count = 2;
  an.fps = 30;
  an.translations.assign(6, {0, 0, 0});
  an.rotations.assign(6, {0, 0, 0, 1});
  an.translations[3 + 1] = {1, 2, 3};                     // sample 1, bone "arm"
  an.rotations[3 + 1] = {0.6f, 0.0f, 0.0f, 0.8f};         // about X
  an.rotations[3 + 2] = {0.0f, 0.0f, -0.6f, -0.8f};       // −q: the same rotation as (0, 0, 0.6, 0.8)
  an.morph_weights = {0, 0, 0, 0, 1, 0.5f, 0.25f, 0.75f};
  const Gltf g = export_glb(m, &an);
  const auto& anim = g.json["animations"][0];
  const int arm_node = g.json["skins"][0]["joints"][1].GetInt();
  int found = 0;
  for (const auto& ch : anim["channels"].GetArray()) {
    const auto& smp = anim["samplers"][static_cast<rapidjson::SizeType>(ch["sampler"].GetInt())];
    const auto times = g.accessor(smp["input"].GetInt());
    EXPECT_NEAR(times[1], 1.0 / 30, 1e-7);
    const auto out = g.accessor(smp["output"].GetInt());
    const std::string path = ch["target"]["path"].GetString();
    const int node = ch["target"]["node"].GetInt();
    if (node == arm_node && path == "translation") {
      EXPECT_NEAR(out[3], 0.08, 1e-7);
      EXPECT_NEAR(out[5], -0.24, 1e-7);
      ++found;
    } else if (node == arm_node && path == "rotation") {
      EXPECT_NEAR(out[4], -0.6, 1e-7);  // (x, y, z, w) → (−x, −y, z, w)
      EXPECT_NEAR(out[7], 0.8, 1e-7);
      ++found;
    } else if (node == arm_node + 1 && path == "rotation") {
      // Sample 0 is the identity (w = 1): sample 1 flipped to the same hemisphere, (0, 0, 0.6, 0.8).
      EXPECT_NEAR(out[6], 0.6, 1e-7);
      EXPECT_NEAR(out[7], 0.8, 1e-7);
      ++found;
    } else if (path == "weights") {
      // Targets are morphs 0, 2, 3: sample 1 weights (1, 0.25, 0.75).
      EXPECT_EQ(out, (std::vector<double>{0, 0, 0, 1, 0.25, 0.75}));
      ++found;
    }
  }
  EXPECT_EQ(found, 4);
}

TEST(Gltf, BadInputsAreClearErrors) {
  model::Model m = small_model();
  GltfOptions o;
  o.scale = 0;
  EXPECT_EQ(write_gltf(m, nullptr, o).error().code, ErrorCode::invalid_argument);
  m.vertices[2].position[1] = std::nanf("");
  auto r = write_gltf(m, nullptr, {});
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().section, "vertices");
  EXPECT_EQ(r.error().record, 2);
  GltfAnimation an;
  an.sample_count = 3;
  EXPECT_EQ(write_gltf(small_model(), &an, {}).error().code, ErrorCode::invalid_argument);
}

TEST(Gltf, TextGltfEmbedsTheBufferAsDataUri) {
  GltfOptions o;
  o.binary = false;
  auto r = write_gltf(small_model(), nullptr, o);
  ASSERT_TRUE(r);
  rapidjson::Document d;
  d.Parse(reinterpret_cast<const char*>(r->bytes.data()), r->bytes.size());
  ASSERT_FALSE(d.HasParseError());
  const std::string uri = d["buffers"][0]["uri"].GetString();
  EXPECT_EQ(uri.rfind("data:application/octet-stream;base64,", 0), 0u);
  EXPECT_EQ((uri.size() - 37) / 4 * 3 - (uri.back() == '=') - (uri[uri.size() - 2] == '='),
            d["buffers"][0]["byteLength"].GetUint64());
}

TEST(Gltf, CorpusModelsExportWithTheirTextures) {
  MMDKIT_REQUIRE_CORPUS();
  for (const char* p : {"jomin398__jomin398.github.io/docs/assets/models/mmd/miku_v2/miku_v2.pmd",
                        "mmdagent__mmdagent-mirror/MMDAgent_Example/Model/mei/mei.pmd"}) {
    auto f = test::corpus_file(p);
    ASSERT_TRUE(f) << p;
    auto m = model::load_file(f->path);
    ASSERT_TRUE(m);
    GltfOptions o;
    o.texture_folder = f->path.parent_path();
    auto r = write_gltf(*m, nullptr, o);
    ASSERT_TRUE(r) << r.error().to_string();
    const Gltf g = test::parse_glb(r->bytes);
    ASSERT_EQ(g.error, "") << p;
    EXPECT_EQ(g.json["skins"][0]["joints"].Size(), m->bones.size()) << p;
    EXPECT_EQ(g.json["materials"].Size(), m->materials.size()) << p;
    EXPECT_GT(r->textures_embedded, 0u) << p;
    std::size_t indices = 0;
    for (const auto& pr : g.json["meshes"][0]["primitives"].GetArray())
      indices += g.json["accessors"][static_cast<rapidjson::SizeType>(pr["indices"].GetInt())]["count"].GetUint64();
    EXPECT_EQ(indices, m->faces.size()) << p;
    std::size_t vertex_morphs = 0;
    for (const auto& mo : m->morphs) vertex_morphs += mo.type == model::MorphType::vertex;
    EXPECT_GE(r->morph_targets, vertex_morphs) << p;
  }
}

}  // namespace
}  // namespace mmdkit::exporter
