// .vac accessories and .x stages in scenes (description.hpp resolve_accessory_files): a .vac gives
// exactly the placement of the accessory entry written by hand with the .vac's numbers (parsed
// here from the .vac's text, independently of the .vac reader), attached to its bone or placed in
// the world; a .x stage is an accessory in the world; a PMX stage stays a model.
#include <gtest/gtest.h>

#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

#include "mmdkit/core/text.hpp"
#include "mmdkit/model/model.hpp"
#include "mmdkit/scene/scene.hpp"
#include "scene/scene_fixture.hpp"
#include "support/corpus.hpp"

namespace mmdkit::scene {
namespace {

namespace fs = std::filesystem;

const char* const kTriangle =
    "xof 0302txt 0032\nMesh {\n 3;\n 0.0;0.0;0.0;,\n 1.0;0.0;0.0;,\n 0.0;1.0;0.0;;\n 1;\n 3;0,1,2;;\n}\n";

// A .vac written as MMD writes it: CP932 lines ending in CR LF.
fs::path write_vac(const fs::path& path, const std::string& utf8) {
  auto bytes = encode_text(utf8, Encoding::cp932);
  EXPECT_TRUE(bytes.has_value());
  test::write_bytes(path, bytes ? *bytes : std::vector<std::uint8_t>{});
  return path;
}

// The test's own reading of the .vac's text (UTF-8 here): lines 3, 4, 5 and 6.
struct VacNumbers {
  Placement placement;
  std::string bone;
};
VacNumbers parse_by_hand(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) {
    if (!l.empty() && l.back() == '\r') l.pop_back();
    lines.push_back(l);
  }
  auto three = [](const std::string& l) {
    Vec3 v{};
    std::size_t at = 0;
    for (int k = 0; k < 3; ++k) {
      const std::size_t comma = l.find(',', at);
      v[static_cast<std::size_t>(k)] = std::strtof(l.substr(at, comma - at).c_str(), nullptr);
      at = comma + 1;
    }
    return v;
  };
  VacNumbers n;
  n.placement.scale = std::strtof(lines.at(2).c_str(), nullptr);
  n.placement.position = three(lines.at(3));
  n.placement.rotation = three(lines.at(4));
  n.bone = lines.size() > 5 ? lines[5] : "";
  return n;
}

class VacScene : public ::testing::Test {
 protected:
  void SetUp() override {
    dir = mmdkit::test::temp_dir("vac_scene");
    dancer = test::write_model(dir, "dancer.pmx", 1, 300);
    dance = test::write_motion(dir, "dance.vmd", 4, 12, 300);
    fs::create_directories(dir / "acc");
    x = test::write_text(dir / "acc" / "tri.x", kTriangle);
  }
  // Loads both descriptions and requires the same accessory transform (exactly) at three frames.
  void expect_same(const SceneDescription& a, const SceneDescription& b) {
    std::vector<Warning> w;
    auto sa = Scene::load(a, {}, w);
    auto sb = Scene::load(b, {}, w);
    ASSERT_TRUE(sa.has_value()) << sa.error().to_string();
    ASSERT_TRUE(sb.has_value()) << sb.error().to_string();
    ASSERT_EQ(sa->accessory_count(), 1u);
    ASSERT_EQ(sb->accessory_count(), 1u);
    EXPECT_EQ(sa->accessory_bone(0), sb->accessory_bone(0));
    EXPECT_TRUE(sa->accessory(0).accessory_shading);
    for (double f : {0.0, 5.0, 11.5}) {
      ASSERT_TRUE(sa->evaluate(f).has_value());
      ASSERT_TRUE(sb->evaluate(f).has_value());
      EXPECT_EQ(sa->accessory_transform(0), sb->accessory_transform(0)) << "frame " << f;
    }
    const AccessoryEntry& e = sa->description().accessories[0];
    EXPECT_EQ(e.file, b.accessories[0].file);
    EXPECT_EQ(e.model, b.accessories[0].model);
    EXPECT_EQ(e.bone, b.accessories[0].bone);
  }
  fs::path dir, dancer, dance, x;
};

TEST_F(VacScene, AttachedVacGivesThePlacementOfTheEntryWrittenByHand) {
  const std::string text = "三角\r\ntri.x\r\n1.5\r\n0.5,1.25,-2\r\n10,20,-30\r\n頭\r\n";
  const fs::path vac = write_vac(dir / "acc" / "tri.vac", text);
  const VacNumbers n = parse_by_hand(text);
  ASSERT_EQ(n.bone, "頭");
  SceneDescription from_vac, by_hand;
  from_vac.models.push_back({dancer, {dance}, {}});
  by_hand.models.push_back({dancer, {dance}, {}});
  AccessoryEntry v;
  v.file = vac;  // no model, no bone: the .vac's bone on model 0
  from_vac.accessories.push_back(v);
  AccessoryEntry h;
  h.file = x;
  h.model = 0;
  h.bone = n.bone;
  h.placement = n.placement;
  by_hand.accessories.push_back(h);
  expect_same(from_vac, by_hand);
  // The transform is not trivial: the bone moves it and the placement turns and scales it.
  std::vector<Warning> w;
  auto s = Scene::load(from_vac, {}, w);
  ASSERT_TRUE(s.has_value());
  EXPECT_EQ(s->description().accessories[0].vac, vac);
  EXPECT_EQ(s->description().accessories[0].placement.scale, 1.5f);
  EXPECT_EQ(s->description().accessories[0].placement.rotation, (Vec3{10, 20, -30}));

  // `bone` in the entry replaces the .vac's; the scene file's form of the same.
  from_vac.accessories[0].model = 0;
  from_vac.accessories[0].bone = "右手首";
  by_hand.accessories[0].bone = "右手首";
  expect_same(from_vac, by_hand);
  const fs::path json = test::write_text(dir / "s.json", R"({"models": [{"file": "dancer.pmx", "motions": ["dance.vmd"]}],
    "accessories": [{"file": "acc/tri.vac", "bone": "右手首"}]})");
  auto parsed = read_scene_file(json);
  ASSERT_TRUE(parsed.has_value()) << parsed.error().to_string();
  expect_same(*parsed, by_hand);
}

TEST_F(VacScene, VacWithoutBoneIsPlacedInTheWorld) {
  const std::string text = "tri\ntri.x\n2\n-3,4.5,6\n0,90,0\n\n";  // LF, blank line 6: the world
  const fs::path vac = write_vac(dir / "acc" / "world.vac", text);
  const VacNumbers n = parse_by_hand(text);
  SceneDescription from_vac, by_hand;
  from_vac.models.push_back({dancer, {}, {}});
  by_hand.models.push_back({dancer, {}, {}});
  AccessoryEntry v;
  v.file = vac;
  from_vac.accessories.push_back(v);
  AccessoryEntry h;
  h.file = x;
  h.placement = n.placement;
  by_hand.accessories.push_back(h);
  expect_same(from_vac, by_hand);
  // Independently: the triangle's corner (1, 0, 0) in the file is (10, 0, 0) in the view (×10);
  // scaled by 2, turned 90° about Y (MMD's left-handed Y turn sends +X to −Z), moved.
  std::vector<Warning> w;
  auto s = Scene::load(from_vac, {}, w);
  ASSERT_TRUE(s.has_value());
  ASSERT_TRUE(s->evaluate(0).has_value());
  EXPECT_EQ(s->accessory_bone(0), -1);
  const Vec3 p = transform_point(s->accessory_transform(0), s->accessory(0).model->vertices[1].position);
  EXPECT_NEAR(p[0], -3.0f, 1e-4f);
  EXPECT_NEAR(p[1], 4.5f, 1e-4f);
  EXPECT_NEAR(p[2], 6.0f - 20.0f, 1e-4f);
}

TEST_F(VacScene, VacErrorsNameTheField) {
  // A placement next to a .vac is refused when the scene file is parsed.
  auto bad = parse_scene(R"({"models": [{"file": "m.pmx"}], "accessories": [{"file": "a.vac", "position": [0, 1, 0]}]})", dir);
  ASSERT_FALSE(bad.has_value());
  EXPECT_EQ(bad.error().message.rfind("accessories[0].position: a .vac gives the placement", 0), 0u) << bad.error().message;
  auto stage = parse_scene(R"({"models": [{"file": "m.pmx"}], "stage": "a.vac"})", dir);
  ASSERT_FALSE(stage.has_value());
  // A model without a bone when the .vac names none; a .vac whose .x is missing; a scale of 0.
  const fs::path none = write_vac(dir / "acc" / "none.vac", "n\r\ntri.x\r\n1\r\n0,0,0\r\n0,0,0\r\n");
  const fs::path missing = write_vac(dir / "acc" / "missing.vac", "n\r\nnope.x\r\n1\r\n0,0,0\r\n0,0,0\r\n");
  const fs::path zero = write_vac(dir / "acc" / "zero.vac", "n\r\ntri.x\r\n0\r\n0,0,0\r\n0,0,0\r\n");
  std::vector<Warning> w;
  SceneDescription d;
  d.models.push_back({dancer, {}, {}});
  AccessoryEntry a;
  a.file = none;
  a.model = 0;
  d.accessories = {a};
  auto s = Scene::load(d, {}, w);
  ASSERT_FALSE(s.has_value());
  EXPECT_EQ(s.error().message, "accessories[0].bone: required with 'model' (the .vac names no bone)");
  d.accessories[0].model.reset();
  d.accessories[0].file = missing;
  s = Scene::load(d, {}, w);
  ASSERT_FALSE(s.has_value());
  EXPECT_EQ(s.error().message.rfind("accessories[0].file: ", 0), 0u) << s.error().message;
  EXPECT_NE(s.error().message.find("nope.x"), std::string::npos) << s.error().message;
  d.accessories[0].file = zero;
  s = Scene::load(d, {}, w);
  ASSERT_FALSE(s.has_value());
  EXPECT_NE(s.error().message.find("scale (line 3) must be > 0"), std::string::npos) << s.error().message;
}

TEST_F(VacScene, XStageIsAnAccessoryInTheWorldAndPmxStageAModel) {
  SceneDescription d;
  d.models.push_back({dancer, {}, {}});
  d.stage = StageEntry{x, Placement{{1, 2, 3}, {0, 0, 0}, 3.0f}};
  std::vector<Warning> w;
  auto s = Scene::load(d, {}, w);
  ASSERT_TRUE(s.has_value()) << s.error().to_string();
  EXPECT_FALSE(s->has_stage());
  EXPECT_EQ(s->character_count(), 1u);
  ASSERT_EQ(s->accessory_count(), 1u);
  EXPECT_TRUE(s->description().accessories[0].stage);
  EXPECT_EQ(s->accessory_bone(0), -1);
  EXPECT_TRUE(s->accessory(0).accessory_shading);
  ASSERT_TRUE(s->evaluate(0).has_value());
  // Corner (0, 1, 0) of the file: (0, 10, 0) in the view, ×3, moved by (1, 2, 3).
  const Vec3 p = transform_point(s->accessory_transform(0), s->accessory(0).model->vertices[2].position);
  EXPECT_NEAR(p[0], 1.0f, 1e-4f);
  EXPECT_NEAR(p[1], 32.0f, 1e-4f);
  EXPECT_NEAR(p[2], 3.0f, 1e-4f);
  // By signature too (no .x extension); an unreadable stage .x names the stage.
  const fs::path renamed = test::write_text(dir / "stage.mesh", kTriangle);
  d.stage = StageEntry{renamed, {}};
  s = Scene::load(d, {}, w);
  ASSERT_TRUE(s.has_value()) << s.error().to_string();
  EXPECT_EQ(s->accessory_count(), 1u);
  const fs::path broken = test::write_text(dir / "broken.x", "xof 0302txt 0032\nMesh {\n 3;\n");
  d.stage = StageEntry{broken, {}};
  s = Scene::load(d, {}, w);
  ASSERT_FALSE(s.has_value());
  EXPECT_EQ(s.error().message.rfind("stage.file: ", 0), 0u) << s.error().message;
  // A PMX stage is a character (a model without motion).
  d.stage = StageEntry{dancer, {}};
  s = Scene::load(d, {}, w);
  ASSERT_TRUE(s.has_value());
  EXPECT_TRUE(s->has_stage());
  EXPECT_EQ(s->character_count(), 2u);
  EXPECT_EQ(s->accessory_count(), 0u);
}

}  // namespace
}  // namespace mmdkit::scene
