// A .pmm project turned into VMD motions and a scene (scene/project.hpp): a project built in code
// with pmm's writer (known keys → the same keys in the VMD, curves in VMD's layout written out by
// hand here), path resolution and missing files, and the corpus's sample project against the
// independent counts of tools/pmm_counts.py (tests/data/pmm_counts.tsv).
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <sstream>

#include "mmdkit/core/file.hpp"
#include "mmdkit/formats/pmm.hpp"
#include "mmdkit/scene/project.hpp"
#include "support/corpus.hpp"

namespace mmdkit::scene {
namespace {

namespace fs = std::filesystem;

EncodedText text(const std::string& utf8) {
  EncodedText t;
  t.text = utf8;
  return t;
}

pmm::Path path_text(const std::string& s) {
  pmm::Path p;
  p.text = s;
  return p;
}

// One model, two bones (センター, 右足ＩＫ: the IK bone), one morph (あ); bone 0 has regular keys at
// frames 10 and 30 stored in reverse order in the list (linked 0 → id 7 → id 5), bone 1 one key.
pmm::Document built_project() {
  pmm::Document d;
  d.version = pmm::Version::v2;
  const std::string_view sig = pmm::signature_text(pmm::Version::v2);
  std::copy(sig.begin(), sig.end(), d.signature.begin());
  d.output_width = 640;
  d.output_height = 360;
  d.begin_enabled = 1;
  d.begin_frame = 5;
  d.end_enabled = 1;
  d.end_frame = 40;
  pmm::Model m;
  m.index = 0;
  m.name = text("テスト");
  m.name_en = text("test");
  m.path = path_text("G:\\MMD\\UserFile\\Model\\Test.PMX");
  m.bone_names = {text("センター"), text("右足ＩＫ")};
  m.morph_names = {text("あ")};
  m.ik_bones = {1};
  m.outside_parent_bones = {-1};
  m.initial_bone_keys.resize(2);
  m.initial_bone_keys[0].translation = {1, 2, 3};
  m.initial_bone_keys[0].next = 7;
  m.initial_bone_keys[1].orientation = {0, 0.6f, 0, 0.8f};
  m.initial_bone_keys[1].next = 9;
  pmm::BoneKey k30;  // listed first, reached second
  k30.index = 5;
  k30.frame = 30;
  k30.previous = 7;
  k30.translation = {4, 5, 6};
  k30.interpolation = {1, 2, 3, 4, 11, 12, 13, 14, 21, 22, 23, 24, 31, 32, 33, 34};
  k30.physics_disabled = 1;
  pmm::BoneKey k10;
  k10.index = 7;
  k10.frame = 10;
  k10.next = 5;
  k10.orientation = {0.6f, 0, 0, 0.8f};
  pmm::BoneKey k20;  // bone 1's
  k20.index = 9;
  k20.frame = 20;
  k20.translation = {0, -1, 0};
  m.bone_keys = {k30, k10, k20};
  m.initial_morph_keys.resize(1);
  m.initial_morph_keys[0].next = 3;
  pmm::MorphKey mk;
  mk.index = 3;
  mk.frame = 15;
  mk.weight = 0.75f;
  m.morph_keys = {mk};
  m.initial_model_key.ik_enabled = {1};
  m.initial_model_key.outside_parents = {pmm::OutsideParent{}};
  m.initial_model_key.next = 4;
  pmm::ModelKey hidden;
  hidden.index = 4;
  hidden.frame = 25;
  hidden.visible = 0;
  hidden.ik_enabled = {0};
  hidden.outside_parents = {pmm::OutsideParent{}};
  m.model_keys = {hidden};
  m.bone_states.resize(2);
  m.morph_states = {0};
  m.ik_states = {1};
  m.outside_parent_states.resize(1);
  d.models.push_back(m);
  d.selected_model = 0;
  // Camera: initial key + one key at frame 12 with distinct curves.
  d.camera.initial_key.next = 1;
  pmm::CameraKey ck;
  ck.index = 1;
  ck.frame = 12;
  ck.distance = -30;
  ck.look_at = {1, 11, 2};
  ck.angle = {0.1f, 0.2f, 0.3f};
  ck.view_angle = 40;
  ck.orthographic = 1;
  for (std::size_t i = 0; i < 24; ++i) ck.interpolation[i] = static_cast<std::uint8_t>(100 + i);
  d.camera.keys = {ck};
  d.light.initial_key.next = 2;
  pmm::LightKey lk;
  lk.index = 2;
  lk.frame = 8;
  lk.color = {0.25f, 0.5f, 0.75f};
  lk.direction = {0, -1, 0};
  d.light.keys = {lk};
  // An accessory on bone 0 of the model, and one in the world that is hidden.
  pmm::Accessory a;
  a.index = 0;
  a.name.text = "mic";
  a.path = path_text("C:\\x\\UserFile\\Accessory\\mic.x");
  a.initial_key.parent = {0, 0};
  a.initial_key.translation = {0, 1, 2};
  a.initial_key.rotation = {0, 3.14159265f / 2, 0};
  a.initial_key.scale = 2;
  pmm::Accessory b;
  b.index = 1;
  b.name.text = "lamp";
  b.path = path_text("C:\\x\\UserFile\\Accessory\\lamp.x");
  b.initial_key.opacity_visible = 0;
  d.accessories = {a, b};
  d.accessory_names = {a.name, b.name};
  return d;
}

// The project through pmm's writer and reader (the bytes a file would hold).
pmm::Document round_trip(const pmm::Document& d) {
  auto bytes = pmm::write(d);
  EXPECT_TRUE(bytes.has_value()) << (bytes ? "" : bytes.error().to_string());
  if (!bytes) return d;
  auto r = pmm::read(ByteSpan(bytes->data(), bytes->size()));
  EXPECT_TRUE(r.has_value()) << (r ? "" : r.error().to_string());
  return r ? std::move(r->document) : d;
}

void touch(const fs::path& p) {
  fs::create_directories(p.parent_path());
  std::ofstream(p) << "x";
}

struct ProjectBuilt : ::testing::Test {
  fs::path dir;
  void SetUp() override {
    dir = test::temp_dir("project_built");
    touch(dir / "UserFile" / "Model" / "Test.pmx");  // stored Test.PMX: found case-insensitively
    touch(dir / "acc" / "mic.x");
    touch(dir / "acc" / "lamp.x");
  }
  Result<Project> convert(std::vector<Warning>& w, bool strict = false, bool search = true) {
    return convert(built_project(), w, strict, search);
  }
  // `d` written and read back, converted with the project's folder (and dir/acc searched).
  Result<Project> convert(const pmm::Document& d, std::vector<Warning>& w, bool strict = false, bool search = true) {
    ProjectOptions o;
    o.project_folder = dir;
    if (search) o.search_folders = {dir / "acc"};
    o.strict = strict;
    return convert_project(round_trip(d), o, w);
  }
};

TEST_F(ProjectBuilt, BoneKeysEqualTheProjectsInFrameOrder) {
  std::vector<Warning> w;
  auto p = convert(w);
  ASSERT_TRUE(p.has_value()) << p.error().to_string();
  EXPECT_TRUE(w.empty()) << w.front().to_string();
  ASSERT_EQ(p->models.size(), 1u);
  const vmd::Motion& m = p->models[0].motion;
  ASSERT_EQ(m.bone_names.size(), 2u);
  EXPECT_EQ(m.bone_names[0].text, "センター");
  EXPECT_EQ(m.bone_names[1].text, "右足ＩＫ");
  ASSERT_EQ(m.bone_keys.size(), 5u);  // 2 initial + 3 regular
  // Bone 0: frame 0 (initial), 10, 30; bone 1: 0, 20.
  const std::uint32_t names[] = {0, 0, 0, 1, 1};
  const std::uint32_t frames[] = {0, 10, 30, 0, 20};
  for (std::size_t i = 0; i < 5; ++i) {
    EXPECT_EQ(m.bone_keys[i].name, names[i]) << i;
    EXPECT_EQ(m.bone_keys[i].frame, frames[i]) << i;
  }
  EXPECT_EQ(m.bone_keys[0].position, (std::array<float, 3>{1, 2, 3}));
  EXPECT_EQ(m.bone_keys[1].rotation, (std::array<float, 4>{0.6f, 0, 0, 0.8f}));
  EXPECT_EQ(m.bone_keys[2].position, (std::array<float, 3>{4, 5, 6}));
  EXPECT_EQ(m.bone_keys[3].rotation, (std::array<float, 4>{0, 0.6f, 0, 0.8f}));
  EXPECT_EQ(m.bone_keys[4].position, (std::array<float, 3>{0, -1, 0}));
  // The frame-30 key's curves X (1,2,3,4), Y (11,..), Z (21,..), R (31,..) as (x1,y1,x2,y2) in
  // VMD's block: row 0 = X.x1 Y.x1 Z.x1 R.x1 | X.y1 .. R.y1 | X.x2 .. R.x2 | X.y2 .. R.y2, rows
  // 1..3 = row 0 shifted left by 1, 2, 3 bytes, padded 01 00 00; physics off: bytes 2, 3 = 63 0F.
  const std::array<std::uint8_t, 16> row0{1, 11, 0x63, 0x0F, 2, 12, 22, 32, 3, 13, 23, 33, 4, 14, 24, 34};
  const std::array<std::uint8_t, 16> canonical{1, 11, 21, 31, 2, 12, 22, 32, 3, 13, 23, 33, 4, 14, 24, 34};
  const auto& block = m.bone_keys[2].interpolation;
  for (std::size_t i = 0; i < 16; ++i) EXPECT_EQ(block[i], row0[i]) << "byte " << i;
  for (std::size_t r = 1; r < 4; ++r)
    for (std::size_t i = 0; i < 16; ++i) {
      const std::uint8_t want = i + r < 16 ? canonical[i + r] : (i + r == 16 ? 1 : 0);
      EXPECT_EQ(block[16 * r + i], want) << "row " << r << " byte " << i;
    }
  // Decoded back: curve c from row c.
  const vmd::BoneInterpolation bi = vmd::decode_bone_interpolation(block);
  EXPECT_EQ(bi.z, (vmd::Curve{21, 22, 23, 24}));
  EXPECT_EQ(bi.rotation, (vmd::Curve{31, 32, 33, 34}));
  EXPECT_TRUE(bi.physics_off());
  // A default key (linear, physics on): 20 20 107 107 per curve, bytes 2, 3 = Z.x1, R.x1 = 20.
  EXPECT_EQ(m.bone_keys[0].interpolation[2], 20);
  EXPECT_EQ(m.bone_keys[0].interpolation[3], 20);
  EXPECT_EQ(m.bone_keys[0].interpolation[12], 107);
}

TEST_F(ProjectBuilt, MorphPropertyCameraLightKeys) {
  std::vector<Warning> w;
  auto p = convert(w);
  ASSERT_TRUE(p.has_value()) << p.error().to_string();
  const vmd::Motion& m = p->models[0].motion;
  ASSERT_EQ(m.morph_keys.size(), 2u);
  EXPECT_EQ(m.morph_names[0].text, "あ");
  EXPECT_EQ(m.morph_keys[1].frame, 15u);
  EXPECT_EQ(m.morph_keys[1].weight, 0.75f);
  ASSERT_EQ(m.property_keys.size(), 2u);
  EXPECT_EQ(m.property_keys[0].frame, 0u);
  EXPECT_EQ(m.property_keys[0].visible, 1);
  ASSERT_EQ(m.property_keys[0].ik.size(), 1u);
  EXPECT_EQ(m.property_keys[0].ik[0].name.text, "右足ＩＫ");
  EXPECT_EQ(m.property_keys[0].ik[0].enabled, 1);
  EXPECT_EQ(m.property_keys[1].frame, 25u);
  EXPECT_EQ(m.property_keys[1].visible, 0);
  EXPECT_EQ(m.property_keys[1].ik[0].enabled, 0);

  const vmd::Motion& c = p->camera;
  ASSERT_EQ(c.camera_keys.size(), 2u);
  EXPECT_EQ(c.camera_keys[0].frame, 0u);
  EXPECT_EQ(c.camera_keys[0].distance, -45.0f);
  EXPECT_EQ(c.camera_keys[0].view_angle, 30u);
  const vmd::CameraKey& k = c.camera_keys[1];
  EXPECT_EQ(k.frame, 12u);
  EXPECT_EQ(k.distance, -30.0f);
  EXPECT_EQ(k.target, (std::array<float, 3>{1, 11, 2}));
  EXPECT_EQ(k.rotation, (std::array<float, 3>{0.1f, 0.2f, 0.3f}));
  EXPECT_EQ(k.view_angle, 40u);
  EXPECT_EQ(k.perspective, 1);
  // PMM curve i = bytes 100+4i.. as (x1, y1, x2, y2) (nanoem); VMD's camera block per curve is
  // (x1, x2, y1, y2).
  for (std::size_t i = 0; i < 6; ++i) {
    const auto b = static_cast<std::uint8_t>(100 + 4 * i);
    EXPECT_EQ(k.interpolation[4 * i + 0], b) << i;      // x1
    EXPECT_EQ(k.interpolation[4 * i + 1], b + 2) << i;  // x2
    EXPECT_EQ(k.interpolation[4 * i + 2], b + 1) << i;  // y1
    EXPECT_EQ(k.interpolation[4 * i + 3], b + 3) << i;  // y2
  }
  ASSERT_EQ(c.light_keys.size(), 2u);
  EXPECT_EQ(c.light_keys[1].frame, 8u);
  EXPECT_EQ(c.light_keys[1].color, (std::array<float, 3>{0.25f, 0.5f, 0.75f}));
  EXPECT_EQ(c.self_shadow_keys.size(), 1u);
  // The VMD writes and reads back with the same keys.
  auto bytes = vmd::write(m);
  ASSERT_TRUE(bytes.has_value());
  auto back = vmd::read(ByteSpan(bytes->data(), bytes->size()));
  ASSERT_TRUE(back.has_value());
  EXPECT_EQ(back->motion.bone_keys.size(), 5u);
  EXPECT_EQ(back->motion.bone_names[0].text, "センター");
}

TEST_F(ProjectBuilt, SceneFilesPlacementsAndRange) {
  std::vector<Warning> w;
  auto p = convert(w);
  ASSERT_TRUE(p.has_value()) << p.error().to_string();
  ASSERT_EQ(p->scene.models.size(), 1u);
  EXPECT_EQ(p->scene.models[0].file, dir / "UserFile" / "Model" / "Test.pmx");
  ASSERT_EQ(p->scene.accessories.size(), 2u);
  const AccessoryEntry& a = p->scene.accessories[0];
  EXPECT_EQ(a.file, dir / "acc" / "mic.x");
  ASSERT_TRUE(a.model.has_value());
  EXPECT_EQ(*a.model, 0u);
  EXPECT_EQ(a.bone, "センター");
  EXPECT_EQ(a.placement.position, (Vec3{0, 1, 2}));
  EXPECT_NEAR(a.placement.rotation[1], 90.0f, 1e-4);
  EXPECT_EQ(a.placement.scale, 2.0f);
  EXPECT_TRUE(a.visible);
  EXPECT_FALSE(p->scene.accessories[1].model.has_value());
  EXPECT_FALSE(p->scene.accessories[1].visible);
  EXPECT_EQ(p->width, 640);
  EXPECT_EQ(p->height, 360);
  EXPECT_EQ(p->first_frame, 5);
  ASSERT_TRUE(p->last_frame.has_value());
  EXPECT_EQ(*p->last_frame, 40);
}

TEST_F(ProjectBuilt, MissingFilesNameEveryPlaceTried) {
  std::vector<Warning> w;
  auto p = convert(w, false, false);  // no search folder: the accessories are not found
  ASSERT_TRUE(p.has_value()) << p.error().to_string();
  EXPECT_EQ(p->scene.models.size(), 1u);
  EXPECT_EQ(p->scene.accessories.size(), 0u);
  ASSERT_EQ(w.size(), 2u);
  const std::string& msg = w[0].message;
  EXPECT_NE(msg.find("accessories[0] 'mic'"), std::string::npos) << msg;
  EXPECT_NE(msg.find("C:\\x\\UserFile\\Accessory\\mic.x"), std::string::npos) << msg;
  for (const char* tried : {"x/UserFile/Accessory/mic.x", "UserFile/Accessory/mic.x", "Accessory/mic.x"})
    EXPECT_NE(msg.find((dir / tried).string()), std::string::npos) << tried << " in " << msg;
  EXPECT_NE(msg.find("'" + (dir / "mic.x").string() + "'"), std::string::npos) << msg;

  EXPECT_EQ(w[0].code, ErrorCode::io_error);

  // Items naming the same missing file: one warning, naming each.
  pmm::Document d = built_project();
  d.accessories[1].path = d.accessories[0].path;
  ProjectOptions o;
  o.project_folder = dir;
  std::vector<Warning> w1;
  auto same = convert_project(round_trip(d), o, w1);
  ASSERT_TRUE(same.has_value());
  ASSERT_EQ(w1.size(), 1u);
  EXPECT_NE(w1[0].message.find("; also accessories[1] 'lamp'"), std::string::npos) << w1[0].message;

  std::vector<Warning> w2;
  auto strict = convert(w2, true, false);
  ASSERT_FALSE(strict.has_value());
  EXPECT_EQ(strict.error().code, ErrorCode::io_error);
  EXPECT_NE(strict.error().message.find("mic.x"), std::string::npos);
}

// MMD binds a VMD track by the first 15 bytes of the CP932 name: a longer bone name is cut there
// (here in the middle of a double-byte character, which the text then leaves out).
TEST_F(ProjectBuilt, LongBoneNamesAreCutToTheVmdField) {
  pmm::Document d = built_project();
  d.models[0].bone_names[0] = text("左腕捩れボーン先端");  // 9 characters, 18 bytes in CP932
  ProjectOptions o;
  o.project_folder = dir;
  o.search_folders = {dir / "acc"};
  std::vector<Warning> w;
  auto p = convert_project(round_trip(d), o, w);
  ASSERT_TRUE(p.has_value()) << p.error().to_string();
  const vmd::TrackName& n = p->models[0].motion.bone_names[0];
  auto full = encode_text("左腕捩れボーン先端", Encoding::cp932);
  ASSERT_TRUE(full.has_value());
  ASSERT_EQ(full->size(), 18u);
  EXPECT_EQ(n.raw, std::vector<std::uint8_t>(full->begin(), full->begin() + 15));
  EXPECT_EQ(n.text, "左腕捩れボーン");
}

// Version 1 stores no names: ProjectOptions::model_names gives them; without it the model's motion
// is empty with a warning (strict: an error); counts that differ from the keys are an error.
TEST_F(ProjectBuilt, VersionOneNamesComeFromTheModelFile) {
  pmm::Document d = built_project();
  d.version = pmm::Version::v1;
  pmm::Model& m = d.models[0];
  m.bone_names.clear();
  m.morph_names.clear();
  m.ik_bones.clear();
  ProjectOptions o;
  o.project_folder = dir;
  o.search_folders = {dir / "acc"};
  std::vector<Warning> w;
  auto none = convert_project(d, o, w);
  ASSERT_TRUE(none.has_value());
  EXPECT_TRUE(none->models[0].motion.bone_keys.empty());
  ASSERT_FALSE(w.empty());
  EXPECT_NE(w[0].message.find("version-1"), std::string::npos) << w[0].message;
  o.strict = true;
  EXPECT_FALSE(convert_project(d, o, w).has_value());
  o.strict = false;
  fs::path asked;
  o.model_names = [&](const fs::path& p) -> std::optional<ModelNames> {
    asked = p;
    return ModelNames{{"センター", "右足ＩＫ"}, {"あ"}, {1}};
  };
  auto named = convert_project(d, o, w);
  ASSERT_TRUE(named.has_value()) << named.error().to_string();
  EXPECT_EQ(asked, dir / "UserFile" / "Model" / "Test.pmx");
  const vmd::Motion& v = named->models[0].motion;
  ASSERT_EQ(v.bone_keys.size(), 5u);
  EXPECT_EQ(v.bone_names[v.bone_keys[2].name].text, "センター");
  EXPECT_EQ(v.bone_keys[2].frame, 30u);
  EXPECT_EQ(v.property_keys[0].ik[0].name.text, "右足ＩＫ");
  o.model_names = [](const fs::path&) -> std::optional<ModelNames> { return ModelNames{{"a"}, {"b"}, {}}; };
  auto wrong = convert_project(d, o, w);
  ASSERT_FALSE(wrong.has_value());
  EXPECT_NE(wrong.error().message.find("1 bones, 1 morphs and 0 IK bones"), std::string::npos) << wrong.error().message;
}

// Broken documents (as pmm::check reports them) convert without a crash: chains followed to the
// break with a warning, indices out of range skipped.
TEST_F(ProjectBuilt, BrokenChainsAndIndicesAreWarnedNotFollowed) {
  pmm::Document d = built_project();
  pmm::Model& m = d.models[0];
  m.bone_keys[0].next = 999;            // frame 30 → a key no one has
  m.initial_bone_keys[1].next = 7;      // bone 1 reaches bone 0's key (id 7, already used)
  m.morph_keys[0].frame = -5;           // not after frame 0
  m.model_keys[0].next = 4;             // a loop on itself
  m.ik_bones = {42};                    // out of range
  d.accessories[0].initial_key.parent = {0, 99};  // no such bone
  d.accessories[1].initial_key.parent = {7, 0};   // no such model
  ProjectOptions o;
  o.project_folder = dir;
  o.search_folders = {dir / "acc"};
  std::vector<Warning> w;
  auto p = convert_project(d, o, w);
  ASSERT_TRUE(p.has_value()) << p.error().to_string();
  const vmd::Motion& v = p->models[0].motion;
  EXPECT_EQ(v.bone_keys.size(), 4u);   // bone 0: 0, 10, 30; bone 1: 0
  EXPECT_EQ(v.morph_keys.size(), 1u);
  EXPECT_EQ(v.property_keys.size(), 2u);
  EXPECT_TRUE(v.property_keys[0].ik.empty());
  EXPECT_FALSE(p->scene.accessories[0].model.has_value());
  EXPECT_FALSE(p->scene.accessories[1].model.has_value());
  std::string all;
  for (const Warning& x : w) all += x.message + "\n";
  EXPECT_NE(all.find("key id 999, which does not exist"), std::string::npos) << all;
  EXPECT_NE(all.find("is reached twice"), std::string::npos) << all;
  EXPECT_NE(all.find("does not come after frame 0"), std::string::npos) << all;
  EXPECT_NE(all.find("placed in the world"), std::string::npos) << all;
}

// Accessory keys become the scene accessory's keys: every key in track order (initial key at
// frame 0), radians → degrees, opacity from the packed byte, parent per key, add_blend kept.
TEST_F(ProjectBuilt, AccessoryKeysBecomeTheScenesKeys) {
  pmm::Document d = built_project();
  pmm::Accessory& a = d.accessories[1];  // lamp: in the world, hidden at frame 0
  a.add_blend = 1;
  a.initial_key.next = 12;
  pmm::AccessoryKey k40, k20;  // listed in reverse: reached 20 then 40
  k40.index = 11;
  k40.frame = 40;
  k40.previous = 12;
  k40.opacity_visible = static_cast<std::uint8_t>((100 - 25) << 1 | 1);  // opacity 25 %, visible
  k40.parent = {0, 1};                                                 // 右足ＩＫ
  k40.translation = {0, 0, 1};
  k40.scale = -2;                                                      // read as 0
  k20.index = 12;
  k20.frame = 20;
  k20.next = 11;
  k20.opacity_visible = static_cast<std::uint8_t>((100 - 80) << 1 | 1);  // 80 %, visible
  k20.translation = {1, 2, 3};
  k20.rotation = {3.14159265f, 0, -3.14159265f / 2};
  k20.scale = 1.5f;
  a.keys = {k40, k20};
  d.models[0].edge_width = 0.5f;  // MMD's edge width of the model
  std::vector<Warning> w;
  auto p = convert(d, w);
  ASSERT_TRUE(p.has_value()) << p.error().to_string();
  for (const Warning& x : w) ADD_FAILURE() << x.to_string();
  const ProjectAccessory& pa = p->accessories[1];
  EXPECT_TRUE(pa.add_blend);
  ASSERT_EQ(pa.keys.size(), 3u);
  EXPECT_EQ(pa.keys[0].frame, 0u);
  EXPECT_FALSE(pa.keys[0].visible);
  EXPECT_FLOAT_EQ(pa.keys[0].opacity, 1.0f);
  EXPECT_EQ(pa.keys[1].frame, 20u);
  EXPECT_TRUE(pa.keys[1].visible);
  EXPECT_FLOAT_EQ(pa.keys[1].opacity, 0.8f);
  EXPECT_EQ(pa.keys[1].placement.position, (Vec3{1, 2, 3}));
  EXPECT_NEAR(pa.keys[1].placement.rotation[0], 180.0f, 1e-4f);
  EXPECT_NEAR(pa.keys[1].placement.rotation[2], -90.0f, 1e-4f);
  EXPECT_EQ(pa.keys[1].placement.scale, 1.5f);
  EXPECT_FALSE(pa.keys[1].model.has_value());
  EXPECT_EQ(pa.keys[2].frame, 40u);
  EXPECT_FLOAT_EQ(pa.keys[2].opacity, 0.25f);
  EXPECT_EQ(pa.keys[2].placement.scale, 0.0f);
  ASSERT_TRUE(pa.keys[2].model.has_value());
  EXPECT_EQ(*pa.keys[2].model, 0u);
  EXPECT_EQ(pa.keys[2].bone, "右足ＩＫ");
  // The scene entry: the keys, add_blend; the entry's own placement fields at their defaults.
  ASSERT_TRUE(pa.scene_accessory.has_value());
  const AccessoryEntry& e = p->scene.accessories[*pa.scene_accessory];
  EXPECT_TRUE(e.add_blend);
  ASSERT_EQ(e.keys.size(), 3u);
  EXPECT_EQ(e.keys[2].bone, "右足ＩＫ");
  EXPECT_FALSE(e.model.has_value());
  EXPECT_TRUE(e.placement.is_identity());
  EXPECT_TRUE(e.visible);
  EXPECT_EQ(p->scene.models[0].edge_width, 0.5f);
  // The accessory without regular keys keeps the one placement (no keys).
  EXPECT_TRUE(p->scene.accessories[*p->accessories[0].scene_accessory].keys.empty());
}

// The scene's models come in the project's draw order (nanoem sorts its drawables by it), and what
// names a model by index (an accessory's parent) follows it; the view settings become the scene's.
TEST_F(ProjectBuilt, DrawOrderAndViewSettingsBecomeTheScenes) {
  touch(dir / "UserFile" / "Model" / "Other.pmx");
  pmm::Document d = built_project();
  pmm::Model other = d.models[0];
  other.index = 1;
  other.path = path_text("G:\\MMD\\UserFile\\Model\\Other.pmx");
  other.edge_width = 0.25f;
  other.draw_order = 1;   // drawn first
  d.models[0].draw_order = 2;
  d.models.push_back(other);
  d.black_background = 1;
  d.ground_shadow = 0;
  d.translucent_ground_shadow = 1;
  d.preferred_fps = 60;
  d.background_image_enabled = 1;
  d.background_image_path = path_text("C:\\bg\\sky.png");
  std::vector<Warning> w;
  auto p = convert(d, w);
  ASSERT_TRUE(p.has_value()) << p.error().to_string();
  ASSERT_EQ(w.size(), 1u);  // the background image is not found: left out, the rest drawn
  EXPECT_EQ(w[0].message.rfind("background image: file not found: 'C:\\bg\\sky.png' (looked for ", 0), 0u) << w[0].message;
  EXPECT_FALSE(p->scene.view.background_image.has_value());
  w.clear();
  ASSERT_EQ(p->scene.models.size(), 2u);
  EXPECT_EQ(p->scene.models[0].file, dir / "UserFile" / "Model" / "Other.pmx");
  EXPECT_EQ(p->scene.models[0].edge_width, 0.25f);
  EXPECT_EQ(p->scene.models[1].file, dir / "UserFile" / "Model" / "Test.pmx");
  ASSERT_EQ(p->models.size(), 2u);
  EXPECT_EQ(p->models[0].scene_model, std::optional<std::size_t>(1));
  EXPECT_EQ(p->models[1].scene_model, std::optional<std::size_t>(0));
  const AccessoryEntry& mic = p->scene.accessories[*p->accessories[0].scene_accessory];
  ASSERT_TRUE(mic.model.has_value());
  EXPECT_EQ(*mic.model, 1u) << "the accessory stays on the project's model 0, now the scene's model 1";
  const ViewSettings& v = p->scene.view;
  ASSERT_TRUE(v.background.has_value());
  EXPECT_EQ(*v.background, (std::array<float, 3>{0, 0, 0}));
  EXPECT_FALSE(v.ground_shadow);
  EXPECT_TRUE(v.ground_shadow_translucent);
  EXPECT_EQ(v.fps, std::optional<std::int32_t>(60));
  EXPECT_EQ(v.size, (std::optional<std::array<std::int32_t, 2>>(std::array<std::int32_t, 2>{640, 360})));
  // The defaults: white (no background), ground shadow on and opaque, fps 30.
  auto q = convert(w);
  ASSERT_TRUE(q.has_value());
  EXPECT_FALSE(q->scene.view.background.has_value());
  EXPECT_TRUE(q->scene.view.ground_shadow);
  EXPECT_FALSE(q->scene.view.ground_shadow_translucent);
  EXPECT_EQ(q->scene.view.fps, std::optional<std::int32_t>(30));
}

// A model's self-shadow and additive blending, an accessory's ground shadow (its keys' `shadow`)
// and MMD's 描画順 (the accessories' draw_order and accessory_after_models, nanoem
// PMM::Context::loadAllAccessories) become the scene's; the scene file written by
// project_scene_json reads back to the same fields.
TEST_F(ProjectBuilt, ModelShadowBlendAccessoryShadowAndDrawOrderBecomeTheScenes) {
  pmm::Document d = built_project();
  d.models[0].self_shadow = 0;
  d.models[0].blend = 1;
  d.accessories[0].draw_order = 1;  // mic: listed first, drawn second, after the models
  d.accessories[0].initial_key.shadow = 0;
  d.accessories[1].draw_order = 0;  // lamp: drawn first, before the models
  d.accessory_after_models = 1;
  std::vector<Warning> w;
  auto p = convert(d, w);
  ASSERT_TRUE(p.has_value()) << p.error().to_string();
  const ModelEntry& m = p->scene.models.at(0);
  EXPECT_FALSE(m.self_shadow);
  EXPECT_TRUE(m.add_blend);
  ASSERT_EQ(p->scene.accessories.size(), 2u);
  EXPECT_EQ(p->accessories[0].scene_accessory, std::optional<std::size_t>(1));
  EXPECT_EQ(p->accessories[1].scene_accessory, std::optional<std::size_t>(0));
  EXPECT_EQ(p->scene.accessories[0].file, dir / "acc" / "lamp.x");
  EXPECT_EQ(p->scene.accessories[1].file, dir / "acc" / "mic.x");
  EXPECT_TRUE(p->scene.accessories[0].shadow);
  EXPECT_FALSE(p->scene.accessories[1].shadow);
  EXPECT_EQ(p->scene.accessories_after_models, 1u);
  // The scene file and back.
  const std::string json = project_scene_json(*p, {"m.vmd"}, "camera.vmd");
  auto back = parse_scene(json, dir);
  ASSERT_TRUE(back.has_value()) << back.error().to_string() << "\n" << json;
  EXPECT_FALSE(back->models[0].self_shadow);
  EXPECT_TRUE(back->models[0].add_blend);
  ASSERT_EQ(back->accessories.size(), 2u);
  EXPECT_EQ(back->accessories[0].file, dir / "acc" / "lamp.x");
  EXPECT_TRUE(back->accessories[0].shadow);
  EXPECT_FALSE(back->accessories[1].shadow);
  EXPECT_EQ(back->accessories_after_models, 1u);
  // The defaults (self-shadow on, no blending, shadow on, no accessory_after_models split: -1 and
  // 0 both draw every accessory after the models) write none of the fields.
  pmm::Document plain = built_project();
  plain.accessory_after_models = 0;
  auto q = convert(plain, w);
  ASSERT_TRUE(q.has_value());
  EXPECT_TRUE(q->scene.models[0].self_shadow);
  EXPECT_FALSE(q->scene.models[0].add_blend);
  EXPECT_EQ(q->scene.accessories_after_models, 0u);
  const std::string plain_json = project_scene_json(*q, {"m.vmd"}, "camera.vmd");
  for (const char* field : {"self_shadow", "add_blend", "\"shadow\"", "accessories_after_models"})
    EXPECT_EQ(plain_json.find(field), std::string::npos) << field << "\n" << plain_json;
  // Keys: each key's own shadow flag.
  pmm::Document keyed = built_project();
  pmm::AccessoryKey k12;
  k12.index = 1;
  k12.frame = 12;
  k12.previous = 0;
  k12.shadow = 0;
  keyed.accessories[0].initial_key.next = 1;
  keyed.accessories[0].keys = {k12};
  auto r = convert(keyed, w);
  ASSERT_TRUE(r.has_value()) << r.error().to_string();
  const AccessoryEntry& moving = r->scene.accessories[*r->accessories[0].scene_accessory];
  ASSERT_EQ(moving.keys.size(), 2u);
  EXPECT_TRUE(moving.keys[0].shadow);
  EXPECT_FALSE(moving.keys[1].shadow);
}

// Camera keys that follow a bone become the scene's camera_parents: one key where the parent
// changes, the bone by name; a parent not in the scene is warned about and not followed.
TEST_F(ProjectBuilt, CameraKeysFollowingABoneBecomeCameraParents) {
  pmm::Document d = built_project();
  d.camera.keys[0].follow = {0, 1};  // frame 12: 右足ＩＫ of the model
  pmm::CameraKey k30 = d.camera.keys[0];
  k30.index = 3;
  k30.frame = 30;
  k30.previous = 1;
  k30.follow = {0, 1};  // the same parent: no new scene key
  pmm::CameraKey k50 = k30;
  k50.index = 4;
  k50.frame = 50;
  k50.previous = 3;
  k50.follow = {-1, 0};  // ends it
  pmm::CameraKey k60 = k50;
  k60.index = 5;
  k60.frame = 60;
  k60.previous = 4;
  k60.follow = {3, 0};  // no model 3
  d.camera.keys[0].next = 3;
  k30.next = 4;
  k50.next = 5;
  d.camera.keys.push_back(k30);
  d.camera.keys.push_back(k50);
  d.camera.keys.push_back(k60);
  std::vector<Warning> w;
  auto p = convert(d, w);
  ASSERT_TRUE(p.has_value()) << p.error().to_string();
  const auto& c = p->scene.camera_parents;
  ASSERT_EQ(c.size(), 3u);
  EXPECT_EQ(c[0].frame, 12u);
  ASSERT_TRUE(c[0].model.has_value());
  EXPECT_EQ(*c[0].model, 0u);
  EXPECT_EQ(c[0].bone, "右足ＩＫ");
  EXPECT_EQ(c[1].frame, 50u);
  EXPECT_FALSE(c[1].model.has_value());
  EXPECT_EQ(c[2].frame, 60u);
  EXPECT_FALSE(c[2].model.has_value());
  ASSERT_EQ(w.size(), 1u);
  EXPECT_NE(w[0].message.find("camera: the bone it follows from frame 60 (model 3, bone 0) is not in the scene"),
            std::string::npos)
      << w[0].message;
  EXPECT_EQ(p->camera.camera_keys.size(), 5u);
}

// The background image and video (found: their offset and scale), the edge colour (0..255 as
// 0..1) and the camera's look-at bone (followed from frame 0) become the scene's view and
// camera_parents, and extract's scene.json holds them.
TEST_F(ProjectBuilt, BackgroundsEdgeColourAndLookAtBecomeTheScenes) {
  touch(dir / "bg" / "sky.png");
  touch(dir / "bg" / "clip.avi");
  pmm::Document d = built_project();
  d.background_image_enabled = 1;
  d.background_image_path = path_text("C:\\MMD\\bg\\sky.png");
  d.background_image_x = 10;
  d.background_image_y = -20;
  d.background_image_scale = 0.5f;
  d.background_video_enabled = 1;
  d.background_video_path = path_text("C:\\MMD\\bg\\clip.avi");
  d.background_video_scale = 0.0f;  // never adjusted (MMD's 0): scale 1
  d.edge_color = {255, 51, 0};
  d.camera_look_at = {0, 1};
  d.follow_look_at = 1;
  std::vector<Warning> w;
  auto p = convert(d, w);
  ASSERT_TRUE(p.has_value()) << p.error().to_string();
  EXPECT_TRUE(w.empty()) << w[0].message;
  const ViewSettings& v = p->scene.view;
  ASSERT_TRUE(v.background_image.has_value());
  EXPECT_EQ(v.background_image->file, dir / "bg" / "sky.png");
  EXPECT_EQ(v.background_image->offset, (std::array<std::int32_t, 2>{10, -20}));
  EXPECT_EQ(v.background_image->scale, 0.5f);
  ASSERT_TRUE(v.background_video.has_value());
  EXPECT_EQ(v.background_video->file, dir / "bg" / "clip.avi");
  EXPECT_EQ(v.background_video->offset, (std::array<std::int32_t, 2>{0, 0}));
  EXPECT_EQ(v.background_video->scale, 1.0f);
  ASSERT_TRUE(v.edge_color.has_value());
  EXPECT_EQ(*v.edge_color, (std::array<float, 3>{1.0f, 0.2f, 0.0f}));
  ASSERT_EQ(p->scene.camera_parents.size(), 1u);
  EXPECT_EQ(p->scene.camera_parents[0].frame, 0u);
  EXPECT_EQ(p->scene.camera_parents[0].model, std::optional<std::size_t>(0));
  EXPECT_EQ(p->scene.camera_parents[0].bone, "右足ＩＫ");
  const std::string j = project_scene_json(*p, {"Test.vmd"}, "camera.vmd");
  EXPECT_NE(j.find("\"edge_color\": [1, 0.2, 0]"), std::string::npos) << j;
  EXPECT_NE(j.find("\"background_image\": {\"file\": \"" + (dir / "bg" / "sky.png").string() + "\"" +
                   ", \"offset\": [10, -20], \"scale\": 0.5}"),
            std::string::npos)
      << j;
  EXPECT_NE(j.find("\"camera_parents\": [{\"frame\": 0, \"model\": 0, \"bone\": \"右足ＩＫ\"}]"), std::string::npos) << j;
  // The scene file reads back to the same view.
  auto back = parse_scene(j, dir);
  ASSERT_TRUE(back.has_value()) << back.error().to_string();
  EXPECT_EQ(back->view.background_image, v.background_image);
  EXPECT_EQ(back->view.background_video, v.background_video);
  EXPECT_EQ(back->view.edge_color, v.edge_color);

  // Look-at off: not followed; camera keys naming a bone win over the look-at (a warning).
  d.follow_look_at = 0;
  auto off = convert(d, w);
  ASSERT_TRUE(off.has_value());
  EXPECT_TRUE(off->scene.camera_parents.empty());
  d.follow_look_at = 1;
  d.camera.keys[0].follow = {0, 0};
  w.clear();
  auto keyed = convert(d, w);
  ASSERT_TRUE(keyed.has_value());
  ASSERT_EQ(keyed->scene.camera_parents.size(), 1u);
  EXPECT_EQ(keyed->scene.camera_parents[0].frame, 12u);
  ASSERT_EQ(w.size(), 1u);
  EXPECT_NE(w[0].message.find("its look-at bone (model 0, bone 1) is not followed"), std::string::npos) << w[0].message;
  // A missing background video: a warning, the image still drawn.
  fs::remove(dir / "bg" / "clip.avi");
  w.clear();
  auto missing = convert(d, w);
  ASSERT_TRUE(missing.has_value());
  EXPECT_TRUE(missing->scene.view.background_image.has_value());
  EXPECT_FALSE(missing->scene.view.background_video.has_value());
  ASSERT_EQ(w.size(), 2u);
  EXPECT_EQ(w[1].message.rfind("background video: file not found: 'C:\\MMD\\bg\\clip.avi'", 0), 0u) << w[1].message;
}

TEST(ProjectPath, StoredWindowsPathBelowEachFolderInOrder) {
  const fs::path a = test::temp_dir("project_path_a"), b = test::temp_dir("project_path_b");
  touch(b / "Model" / "M.pmd");
  const ProjectPath p = resolve_project_path("G:\\MMD\\UserFile\\model\\m.PMD", {a, b});
  ASSERT_TRUE(p.found.has_value());
  EXPECT_EQ(*p.found, b / "Model" / "M.pmd");
  // Folder a: MMD/UserFile/model/m.PMD, UserFile/model/m.PMD, model/m.PMD, m.PMD; then folder b.
  ASSERT_GE(p.tried.size(), 5u);
  EXPECT_EQ(p.tried[0], a / "MMD" / "UserFile" / "model" / "m.PMD");
  EXPECT_EQ(p.tried[3], a / "m.PMD");
  EXPECT_EQ(p.tried[4], b / "MMD" / "UserFile" / "model" / "m.PMD");
}

TEST(ProjectCorpus, SampleProjectKeyCountsEqualTheIndependentCounts) {
  MMDKIT_REQUIRE_CORPUS();
  const fs::path root = *test::corpus_dir();
  const fs::path project = root / "oigami__PMMEditor/UserFile/サンプル（きしめんAllStar).pmm";
  auto r = pmm::read_file(project);
  ASSERT_TRUE(r.has_value()) << r.error().to_string();
  ProjectOptions o;
  o.project_folder = project.parent_path();
  o.search_folders = {root / "magicien__MMDSceneKit/Sample_swift/Common/art.scnassets/Accessory"};
  o.strict = true;
  std::vector<Warning> w;
  auto p = convert_project(r->document, o, w);
  ASSERT_TRUE(p.has_value()) << p.error().to_string();
  // Nothing left unconverted to warn about (accessory keys are part of the scene now).
  EXPECT_TRUE(w.empty()) << w.front().to_string();
  // tools/pmm_counts.py's per-model "bones+bone keys/morphs+morph keys/model keys".
  std::ifstream in(fs::path(MMDKIT_TESTS_DIR) / "data/pmm_counts.tsv");
  std::string line, models;
  while (std::getline(in, line))
    if (line.find("AllStar") != std::string::npos) {
      std::stringstream ss(line);
      for (int c = 0; c < 5; ++c) std::getline(ss, models, '\t');
    }
  ASSERT_FALSE(models.empty());
  std::vector<std::array<std::size_t, 5>> counts;
  std::stringstream ms(models);
  for (std::string m; std::getline(ms, m, ';');) {
    std::array<std::size_t, 5> c{};
    ASSERT_EQ(std::sscanf(m.c_str(), "%zu+%zu/%zu+%zu/%zu", &c[0], &c[1], &c[2], &c[3], &c[4]), 5) << m;
    counts.push_back(c);
  }
  // tools/pmm_counts.py's regular keys per accessory: keys = initial + those (none: no keys).
  std::string acc_keys;
  {
    std::ifstream in2(fs::path(MMDKIT_TESTS_DIR) / "data/pmm_counts.tsv");
    while (std::getline(in2, line))
      if (line.find("AllStar") != std::string::npos) {
        std::stringstream ss(line);
        for (int c = 0; c < 7; ++c) std::getline(ss, acc_keys, '\t');
      }
  }
  std::vector<std::size_t> regular;
  std::stringstream as(acc_keys);
  for (std::string k; std::getline(as, k, ';');) regular.push_back(std::stoul(k));
  ASSERT_EQ(regular.size(), 29u);
  ASSERT_EQ(p->accessories.size(), 29u);
  std::size_t moving = 0;
  for (std::size_t i = 0; i < 29; ++i) {
    EXPECT_EQ(p->accessories[i].keys.size(), regular[i] == 0 ? 0 : regular[i] + 1) << "accessory " << i;
    ASSERT_TRUE(p->accessories[i].scene_accessory.has_value());
    EXPECT_EQ(p->scene.accessories[*p->accessories[i].scene_accessory].keys.size(), p->accessories[i].keys.size());
    moving += regular[i] == 0 ? 0 : 1;
  }
  EXPECT_EQ(moving, 19u);
  ASSERT_EQ(counts.size(), 11u);
  ASSERT_EQ(p->models.size(), 11u);
  EXPECT_EQ(p->scene.models.size(), 11u);
  for (std::size_t i = 0; i < 11; ++i) {
    const vmd::Motion& m = p->models[i].motion;
    EXPECT_EQ(m.bone_keys.size(), counts[i][0] + counts[i][1]) << "model " << i;
    EXPECT_EQ(m.morph_keys.size(), counts[i][2] + counts[i][3]) << "model " << i;
    EXPECT_EQ(m.property_keys.size(), 1 + counts[i][4]) << "model " << i;
  }
  EXPECT_EQ(p->camera.camera_keys.size(), 1u + 14u);
  EXPECT_EQ(p->camera.light_keys.size(), 1u + 18u);
  EXPECT_EQ(p->scene.accessories.size(), 29u);
  // ネギ(右手).vac: its .x, on 初音ミク's right wrist (model 2) as the project places it.
  const AccessoryEntry& negi = p->scene.accessories.back();
  EXPECT_EQ(negi.file.filename(), "negi.x");
  ASSERT_TRUE(negi.model.has_value());
  EXPECT_EQ(*negi.model, 2u);
  EXPECT_EQ(negi.bone, "右手首");
}

}  // namespace
}  // namespace mmdkit::scene

namespace mmdkit::scene {
namespace {

// The names of an extracted project's files (pmm extract, Python's Project.scene): the model's
// name with what Windows forbids made '_', unique with ASCII case ignored, fallbacks when empty.
TEST(ProjectFileNames, WindowsSafeUniqueAndInModelOrder) {
  Project p;
  for (const char* n : {"初音ミク", "Miku", "miku", "", "a/b:c*?", "dots. . ", ".hidden", "scene", "Camera"}) {
    ProjectModel m;
    m.index = p.models.size();
    m.name = n;
    p.models.push_back(m);
  }
  for (const char* n : {"ステージ", "", "Miku"}) {
    ProjectAccessory a;
    a.index = p.accessories.size();
    a.name = n;
    a.x_file = "stage.X";
    p.accessories.push_back(a);
  }
  ProjectAccessory vac;  // drawn from a file that is not a .x: nothing to write a .vac for
  vac.index = 3;
  vac.name = "negi";
  vac.x_file = "negi.pmx";
  p.accessories.push_back(vac);
  const ProjectFileNames names = project_file_names(p);
  EXPECT_EQ(names.motions, (std::vector<std::string>{"初音ミク.vmd", "Miku.vmd", "miku_2.vmd", "model3.vmd", "a_b_c__.vmd",
                                                     "dots.vmd", "_hidden.vmd", "scene.vmd", "Camera_2.vmd"}));
  EXPECT_EQ(names.accessories, (std::vector<std::string>{"ステージ.vac", "accessory1.vac", "Miku.vac", ""}));
}

}  // namespace
}  // namespace mmdkit::scene
