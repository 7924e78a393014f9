// A project made from a model, motions, a camera and accessories (scene/project_create.hpp):
// create → pmm's writer → pmm's reader → convert_project gives back the motion's keys, the camera's
// keys and the accessories' placements (values set here by hand); the bytes round-trip; check finds
// nothing; and, on the corpus, the lists MMD wrote for 初音ミク.pmd in t.pmm come out equal.
#include <gtest/gtest.h>

#include <fstream>

#include <cmath>
#include <map>

#include "mmdkit/core/file.hpp"
#include "mmdkit/formats/pmm.hpp"
#include "mmdkit/formats/pmx.hpp"
#include "mmdkit/formats/pmx_generate.hpp"
#include "mmdkit/scene/project.hpp"
#include "mmdkit/scene/project_create.hpp"
#include "anim/anim_test_util.hpp"
#include "support/corpus.hpp"

namespace mmdkit::scene {
namespace {

namespace fs = std::filesystem;
using anim::test::bone_key;

vmd::Motion motion_with_names(const std::vector<std::string>& bones, const std::vector<std::string>& morphs) {
  vmd::Motion m;
  for (const auto& b : bones) {
    vmd::TrackName t;
    t.text = b;
    m.bone_names.push_back(t);
  }
  for (const auto& s : morphs) {
    vmd::TrackName t;
    t.text = s;
    m.morph_names.push_back(t);
  }
  return m;
}

class ProjectCreate : public ::testing::Test {
 protected:
  void SetUp() override {
    dir = test::temp_dir("project_create");
    pmx::GenerateOptions g;
    g.vertices = 30;
    g.morphs = 4;
    auto model = pmx::generate(g);
    ASSERT_TRUE(model.has_value()) << model.error().to_string();
    auto bytes = pmx::write(*model);
    ASSERT_TRUE(bytes.has_value());
    model_file = dir / "Model" / "dancer.pmx";
    fs::create_directories(model_file.parent_path());
    ASSERT_TRUE(write_file_atomic(model_file, ByteSpan(bytes->data(), bytes->size())).has_value());
    bone_count = model->bones.size();
    morph_count = model->morphs.size();
  }
  // The project written, read again and converted (the path a saved project takes).
  Project read_back(const pmm::Document& doc, std::vector<Warning>& warnings) const {
    auto bytes = pmm::write(doc);
    EXPECT_TRUE(bytes.has_value()) << bytes.error().to_string();
    if (!bytes) return {};
    auto back = pmm::read(ByteSpan(bytes->data(), bytes->size()));
    EXPECT_TRUE(back.has_value()) << back.error().to_string();
    if (!back) return {};
    ProjectOptions o;
    o.project_folder = dir;
    auto p = convert_project(back->document, o, warnings);
    EXPECT_TRUE(p.has_value()) << p.error().to_string();
    return p ? std::move(*p) : Project{};
  }
  fs::path dir, model_file;
  std::size_t bone_count = 0, morph_count = 0;
};

TEST_F(ProjectCreate, ReadBackGivesTheSameKeysCameraAndAccessories) {
  // センター: keys at 0 and 10 (a curve on X, physics off at 10); 上半身: first key at 5 (so the
  // project's frame-0 key takes its value), then 20; a track no bone has; morph あ at 0 and 15.
  vmd::Motion m = motion_with_names({"センター", "上半身", "ないボーン"}, {"あ"});
  const vmd::Curve curve{10, 20, 90, 100};
  m.bone_keys = {bone_key(0, 10, {1, 2, 3}, {0, 0.6f, 0, 0.8f}, curve, vmd::kLinearCurve, vmd::kLinearCurve, vmd::kLinearCurve, true), bone_key(0, 0, {0, 1, 0}, {0, 0, 0, 1}),
                 bone_key(1, 5, {0, 0, 0}, {0.6f, 0, 0, 0.8f}), bone_key(1, 20, {0, 0, 0}, {0, 0, 0.6f, 0.8f}),
                 bone_key(2, 3, {9, 9, 9}, {0, 0, 0, 1})};
  m.morph_keys = {vmd::MorphKey{0, 0, 0.25f}, vmd::MorphKey{0, 15, 1.0f}};
  vmd::PropertyKey hide;
  hide.frame = 30;
  hide.visible = 0;
  vmd::IkState off;
  off.name.text = "左足ＩＫ";
  off.enabled = 0;
  hide.ik = {off};
  m.property_keys = {hide};
  vmd::Motion cam;
  vmd::CameraKey c0;
  c0.frame = 0;
  c0.distance = -30;
  c0.target = {0, 12, 0};
  c0.view_angle = 40;
  c0.interpolation = vmd::encode_camera_interpolation(
      vmd::CameraInterpolation{curve, vmd::kLinearCurve, vmd::kLinearCurve, vmd::kLinearCurve, vmd::kLinearCurve, curve});
  vmd::CameraKey c1 = c0;
  c1.frame = 60;
  c1.rotation = {0.1f, 0.2f, 0.3f};
  c1.distance = -50;
  cam.camera_keys = {c1, c0};
  cam.light_keys = {vmd::LightKey{0, {0.5f, 0.5f, 0.5f}, {0, -1, 0}}, vmd::LightKey{45, {1, 0, 0}, {1, -1, 0}}};

  CreateInput in;
  in.models.push_back(CreateModel{model_file, {m}});
  CreateAccessory mic;
  mic.file = dir / "Accessory" / "mic.x";
  mic.model = 0;
  mic.bone = "頭";
  mic.placement.position = {0, 1, 2};
  mic.placement.rotation = {0, 90, 0};
  mic.placement.scale = 2;
  mic.placement_given = true;
  in.accessories.push_back(mic);
  in.camera = cam;
  in.width = 640;
  in.height = 360;
  in.last_frame = 90;
  in.project_folder = dir;
  std::vector<Warning> w;
  auto doc = create_project(in, w);
  ASSERT_TRUE(doc.has_value()) << doc.error().to_string();
  ASSERT_EQ(w.size(), 1u);  // the unknown bone track
  EXPECT_NE(w[0].message.find("1 bone and 0 morph tracks"), std::string::npos) << w[0].message;

  // Paths below the project's folder are stored relative, with '\' as MMD's sample stores them.
  EXPECT_EQ(doc->models[0].path.text, "Model\\dancer.pmx");
  EXPECT_EQ(doc->accessories[0].path.text, "Accessory\\mic.x");
  EXPECT_TRUE(pmm::check(*doc).empty());

  // Bytes: written, read, written again: equal.
  auto bytes = pmm::write(*doc);
  ASSERT_TRUE(bytes.has_value()) << bytes.error().to_string();
  auto back = pmm::read(ByteSpan(bytes->data(), bytes->size()));
  ASSERT_TRUE(back.has_value()) << back.error().to_string();
  EXPECT_TRUE(back->warnings.empty());
  auto again = pmm::write(back->document);
  ASSERT_TRUE(again.has_value());
  EXPECT_EQ(*again, *bytes);
  const pmm::Document& d = back->document;
  ASSERT_EQ(d.models.size(), 1u);
  EXPECT_EQ(d.models[0].bone_names.size(), bone_count);
  EXPECT_EQ(d.models[0].morph_names.size(), morph_count);
  EXPECT_EQ(d.output_width, 640);
  EXPECT_EQ(d.end_enabled, 1);
  EXPECT_EQ(d.end_frame, 90);

  ProjectOptions o;
  o.project_folder = dir;
  std::vector<Warning> w2;
  auto p = convert_project(d, o, w2);
  ASSERT_TRUE(p.has_value()) << p.error().to_string();
  ASSERT_EQ(p->scene.models.size(), 1u);
  EXPECT_TRUE(fs::equivalent(p->scene.models[0].file, model_file));
  // Bone keys by (name, frame).
  const vmd::Motion& out = p->models[0].motion;
  std::map<std::pair<std::string, std::uint32_t>, vmd::BoneKey> keys;
  for (const vmd::BoneKey& k : out.bone_keys) keys[{out.bone_names[k.name].text, k.frame}] = k;
  EXPECT_EQ(out.bone_keys.size(), bone_count + 3);  // one frame-0 key per bone + 10, 5, 20
  auto expect_key = [&](const std::string& bone, std::uint32_t frame, const vmd::BoneKey& want) {
    auto it = keys.find({bone, frame});
    ASSERT_NE(it, keys.end()) << bone << " " << frame;
    EXPECT_EQ(it->second.position, want.position) << bone << " " << frame;
    EXPECT_EQ(it->second.rotation, want.rotation) << bone << " " << frame;
    EXPECT_EQ(it->second.interpolation, want.interpolation) << bone << " " << frame;
  };
  expect_key("センター", 0, m.bone_keys[1]);
  expect_key("センター", 10, m.bone_keys[0]);
  expect_key("上半身", 0, m.bone_keys[2]);  // the first key's value held from frame 0
  expect_key("上半身", 5, m.bone_keys[2]);
  expect_key("上半身", 20, m.bone_keys[3]);
  expect_key("頭", 0, bone_key(0, 0, {0, 0, 0}, {0, 0, 0, 1}));  // unkeyed: the rest pose
  // Morphs: あ at 0 and 15, every other morph one frame-0 key of weight 0.
  std::map<std::pair<std::string, std::uint32_t>, float> morphs;
  for (const vmd::MorphKey& k : out.morph_keys) morphs[{out.morph_names[k.name].text, k.frame}] = k.weight;
  EXPECT_EQ(out.morph_keys.size(), morph_count + 1);
  EXPECT_EQ((morphs[{"あ", 0}]), 0.25f);
  EXPECT_EQ((morphs[{"あ", 15}]), 1.0f);
  // Property keys: frame 0 (the hidden key's value held: visible 0, 左足ＩＫ off), then 30.
  ASSERT_EQ(out.property_keys.size(), 2u);
  EXPECT_EQ(out.property_keys[1].frame, 30u);
  EXPECT_EQ(out.property_keys[1].visible, 0);
  for (const vmd::IkState& s : out.property_keys[1].ik) EXPECT_EQ(s.enabled, s.name.text == "左足ＩＫ" ? 0 : 1) << s.name.text;
  // Camera and light keys, frame order.
  ASSERT_EQ(p->camera.camera_keys.size(), 2u);
  for (const vmd::CameraKey* want : {&c0, &c1}) {
    const vmd::CameraKey& got = p->camera.camera_keys[want == &c0 ? 0 : 1];
    EXPECT_EQ(got.frame, want->frame);
    EXPECT_EQ(got.distance, want->distance);
    EXPECT_EQ(got.target, want->target);
    EXPECT_EQ(got.rotation, want->rotation);
    EXPECT_EQ(got.interpolation, want->interpolation);
    EXPECT_EQ(got.view_angle, want->view_angle);
    EXPECT_EQ(got.perspective, want->perspective);
  }
  ASSERT_EQ(p->camera.light_keys.size(), 2u);
  EXPECT_EQ(p->camera.light_keys[1].frame, 45u);
  EXPECT_EQ(p->camera.light_keys[1].color, (std::array<float, 3>{1, 0, 0}));
  // The accessory: on 頭 of model 0, same placement (degrees back from radians).
  ASSERT_EQ(p->accessories.size(), 1u);
  const ProjectAccessory& a = p->accessories[0];
  EXPECT_EQ(a.bone, "頭");
  EXPECT_EQ(a.placement.position, mic.placement.position);
  EXPECT_NEAR(a.placement.rotation[1], 90.0f, 1e-4f);
  EXPECT_EQ(a.placement.scale, 2.0f);
  EXPECT_EQ(a.model, std::optional<std::size_t>(0));
}

// An accessory that moves: its keys (placement, opacity in whole percent, visibility, a parent
// that changes from the world to 頭) and additive blending come back from the written bytes.
TEST_F(ProjectCreate, AccessoryKeysOpacityAndAdditiveBlendingComeBack) {
  CreateInput in;
  in.models.push_back(CreateModel{model_file, {}});
  CreateAccessory a;
  a.file = dir / "Accessory" / "light.x";
  a.add_blend = true;
  AccessoryKey k0, k1, k2;
  k0.frame = 0;
  k0.placement.position = {1, 2, 3};
  k0.opacity = 0.25f;
  k1.frame = 10;
  k1.placement.position = {4, 5, 6};
  k1.placement.rotation = {0, 45, 0};
  k1.placement.scale = 3;
  k1.visible = false;
  k2.frame = 25;
  k2.model = 0;
  k2.bone = "頭";
  k2.opacity = 0.7f;
  a.keys = {k0, k1, k2};
  in.accessories.push_back(a);
  in.project_folder = dir;
  std::vector<Warning> w;
  auto doc = create_project(in, w);
  ASSERT_TRUE(doc.has_value()) << doc.error().to_string();
  EXPECT_TRUE(pmm::check(*doc).empty());
  ASSERT_EQ(doc->accessories[0].keys.size(), 2u);  // frames 10 and 25 after the initial key
  EXPECT_EQ(doc->accessories[0].initial_key.opacity_visible, (75 << 1) | 1);  // 100 − 25 percent, visible
  std::vector<Warning> w2;
  const Project back = read_back(*doc, w2);
  const Project* p = &back;
  ASSERT_EQ(p->accessories.size(), 1u);
  const ProjectAccessory& got = p->accessories[0];
  EXPECT_TRUE(got.add_blend);
  ASSERT_EQ(got.keys.size(), 3u);
  for (std::size_t i = 0; i < 3; ++i) {
    const AccessoryKey& want = a.keys[i];
    EXPECT_EQ(got.keys[i].frame, want.frame) << i;
    EXPECT_EQ(got.keys[i].placement.position, want.placement.position) << i;
    for (int c = 0; c < 3; ++c) EXPECT_NEAR(got.keys[i].placement.rotation[c], want.placement.rotation[c], 1e-4f) << i;
    EXPECT_EQ(got.keys[i].placement.scale, want.placement.scale) << i;
    EXPECT_FLOAT_EQ(got.keys[i].opacity, want.opacity) << i;
    EXPECT_EQ(got.keys[i].visible, want.visible) << i;
    EXPECT_EQ(got.keys[i].model, want.model) << i;
    EXPECT_EQ(got.keys[i].bone, want.bone) << i;
  }
}

// A scene's model self-shadow and additive blending, accessories' ground shadow (entry and keys)
// and accessories_after_models are written into the project (the model's self_shadow and blend
// bytes, the keys' shadow, accessory_after_models with draw_order = position) and read back equal.
TEST_F(ProjectCreate, ModelShadowBlendAccessoryShadowAndDrawOrderComeBack) {
  SceneDescription scene;
  ModelEntry m;
  m.file = model_file;
  m.self_shadow = false;
  m.add_blend = true;
  scene.models.push_back(m);
  for (const char* name : {"a.x", "b.x", "c.x"}) {
    fs::create_directories(dir / "Accessory");
    std::ofstream(dir / "Accessory" / name) << "xof 0302txt 0032\n";
    AccessoryEntry e;
    e.file = dir / "Accessory" / name;
    scene.accessories.push_back(e);
  }
  scene.accessories[0].shadow = false;
  AccessoryKey k0, k1;
  k1.frame = 10;
  k1.shadow = false;
  scene.accessories[2].keys = {k0, k1};
  scene.accessories_after_models = 2;
  std::vector<Warning> w;
  auto in = create_input_from_scene(scene, dir, w);
  ASSERT_TRUE(in.has_value()) << in.error().to_string();
  auto doc = create_project(*in, w);
  ASSERT_TRUE(doc.has_value()) << doc.error().to_string();
  EXPECT_EQ(doc->models[0].self_shadow, 0);
  EXPECT_EQ(doc->models[0].blend, 1);
  EXPECT_EQ(doc->accessory_after_models, 2);
  EXPECT_EQ(doc->accessories[0].initial_key.shadow, 0);
  EXPECT_EQ(doc->accessories[0].shadow, 0);  // the state: the frame-0 key's
  ASSERT_EQ(doc->accessories[2].keys.size(), 1u);
  EXPECT_EQ(doc->accessories[2].keys[0].shadow, 0);
  std::vector<Warning> w2;
  const Project back = read_back(*doc, w2);
  ASSERT_EQ(back.scene.models.size(), 1u);
  EXPECT_FALSE(back.scene.models[0].self_shadow);
  EXPECT_TRUE(back.scene.models[0].add_blend);
  ASSERT_EQ(back.scene.accessories.size(), 3u);
  EXPECT_FALSE(back.scene.accessories[0].shadow);
  EXPECT_TRUE(back.scene.accessories[1].shadow);
  ASSERT_EQ(back.scene.accessories[2].keys.size(), 2u);
  EXPECT_TRUE(back.scene.accessories[2].keys[0].shadow);
  EXPECT_FALSE(back.scene.accessories[2].keys[1].shadow);
  EXPECT_EQ(back.scene.accessories_after_models, 2u);
  // Every accessory after the models (0): stored as 0 with accessories (MMD would draw one whose
  // draw_order is below 1 before them), as a fresh project's 1 without.
  scene.accessories_after_models = 0;
  auto in0 = create_input_from_scene(scene, dir, w);
  ASSERT_TRUE(in0.has_value());
  auto doc0 = create_project(*in0, w);
  ASSERT_TRUE(doc0.has_value());
  EXPECT_EQ(doc0->accessory_after_models, 0);
  EXPECT_EQ(read_back(*doc0, w2).scene.accessories_after_models, 0u);
  scene.accessories.clear();
  auto in1 = create_input_from_scene(scene, dir, w);
  ASSERT_TRUE(in1.has_value());
  auto doc1 = create_project(*in1, w);
  ASSERT_TRUE(doc1.has_value());
  EXPECT_EQ(doc1->accessory_after_models, 1);
}

TEST_F(ProjectCreate, OutsideParentsGravityAndPhysicsModeComeBack) {
  CreateInput in;
  in.models.push_back(CreateModel{model_file, {}});
  in.models.push_back(CreateModel{model_file, {}});
  in.models[1].parents = {{5, "センター", 0, "頭"}, {10, "右足ＩＫ", 0, "右手首"}, {20, "センター", std::nullopt, ""}};
  in.gravity = {{0, {0, -49, 0}}, {30, {0, 0, 98}}};
  in.physics_mode = PhysicsMode::off;
  in.physics_ground = false;
  in.project_folder = dir;
  std::vector<Warning> w;
  auto doc = create_project(in, w);
  ASSERT_TRUE(doc.has_value()) << doc.error().to_string();
  EXPECT_TRUE(pmm::check(*doc).empty());
  // Model keys at 0 (initial), 5, 10, 20, each holding every outside-parent bone's state.
  const pmm::Model& m1 = doc->models[1];
  ASSERT_EQ(m1.model_keys.size(), 3u);
  EXPECT_EQ(m1.model_keys[0].frame, 5);
  EXPECT_EQ(m1.model_keys[2].frame, 20);
  EXPECT_EQ(m1.initial_model_key.outside_parents.size(), m1.outside_parent_bones.size());
  std::vector<Warning> w2;
  const Project back = read_back(*doc, w2);
  const Project* p = &back;
  ASSERT_EQ(p->scene.models.size(), 2u);
  EXPECT_TRUE(w2.empty()) << w2.front().to_string();
  EXPECT_TRUE(p->scene.models[0].parents.empty());
  const auto& got = p->scene.models[1].parents;
  ASSERT_EQ(got.size(), 3u);
  for (std::size_t k = 0; k < 3; ++k) {
    EXPECT_EQ(got[k].frame, in.models[1].parents[k].frame) << k;
    EXPECT_EQ(got[k].bone, in.models[1].parents[k].bone) << k;
    EXPECT_EQ(got[k].model, in.models[1].parents[k].model) << k;
    EXPECT_EQ(got[k].parent_bone, in.models[1].parents[k].parent_bone) << k;
  }
  ASSERT_EQ(p->scene.gravity.size(), 2u);
  EXPECT_EQ(p->scene.gravity[1].frame, 30u);
  for (std::size_t k = 0; k < 2; ++k)
    for (std::size_t a = 0; a < 3; ++a) EXPECT_NEAR(p->scene.gravity[k].gravity[a], in.gravity[k].gravity[a], 1e-4f) << k;
  EXPECT_EQ(p->scene.physics_mode, PhysicsMode::off);
  EXPECT_FALSE(p->scene.physics_ground);
  // A bone the model does not have is named.
  in.models[1].parents = {{5, "センター", 0, "しっぽ"}};
  auto bad = create_project(in, w);
  ASSERT_FALSE(bad.has_value());
  EXPECT_NE(bad.error().message.find("models[1].parents[0].parent_bone: model 0 has no bone 'しっぽ'"), std::string::npos)
      << bad.error().message;
}

// A scene's edge colour and background pictures are written as the project's settings (stored
// paths relative to the project's folder) and read back as the same view.
TEST_F(ProjectCreate, EdgeColourAndBackgroundPicturesComeBack) {
  std::ofstream(dir / "sky.png") << "x";
  std::ofstream(dir / "clip.mp4") << "x";
  CreateInput in;
  in.models.push_back(CreateModel{model_file, {}});
  in.project_folder = dir;
  ViewSettings v;
  v.edge_color = std::array<float, 3>{1.0f, 0.2f, 0.0f};
  v.background_image = BackgroundPicture{dir / "sky.png", {12, -7}, 0.75f};
  v.background_video = BackgroundPicture{dir / "clip.mp4", {0, 0}, 1.0f};
  in.view = v;
  std::vector<Warning> w;
  auto doc = create_project(in, w);
  ASSERT_TRUE(doc.has_value()) << doc.error().to_string();
  EXPECT_EQ(doc->edge_color, (std::array<std::int32_t, 3>{255, 51, 0}));
  EXPECT_EQ(doc->background_image_enabled, 1);
  EXPECT_EQ(doc->background_image_path.text, "sky.png");
  EXPECT_EQ(doc->background_image_x, 12);
  EXPECT_EQ(doc->background_image_y, -7);
  EXPECT_EQ(doc->background_image_scale, 0.75f);
  EXPECT_EQ(doc->background_video_enabled, 1);
  EXPECT_EQ(doc->background_video_path.text, "clip.mp4");
  std::vector<Warning> w2;
  const Project back = read_back(*doc, w2);
  EXPECT_TRUE(w2.empty()) << w2.front().to_string();
  EXPECT_EQ(back.scene.view.edge_color, v.edge_color);
  EXPECT_EQ(back.scene.view.background_image, v.background_image);
  EXPECT_EQ(back.scene.view.background_video, v.background_video);
  // Without them: MMD's fresh settings (black edges, no background).
  in.view = ViewSettings{};
  auto plain = create_project(in, w);
  ASSERT_TRUE(plain.has_value());
  EXPECT_EQ(plain->edge_color, (std::array<std::int32_t, 3>{0, 0, 0}));
  EXPECT_EQ(plain->background_image_enabled, 0);
  EXPECT_EQ(plain->background_video_enabled, 0);
}

TEST_F(ProjectCreate, PathsOutsideTheFolderAreAbsoluteAndFoundAgain) {
  const fs::path elsewhere = test::temp_dir("project_create_elsewhere");
  const std::string stored = project_stored_path(model_file, elsewhere);
  EXPECT_EQ(stored.front(), '\\');
  EXPECT_EQ(stored.find('/'), std::string::npos);
  const ProjectPath found = resolve_project_path(stored, {elsewhere});
  ASSERT_TRUE(found.found.has_value());
  EXPECT_TRUE(fs::equivalent(*found.found, model_file));
}

TEST_F(ProjectCreate, BadAccessoryParentIsAnError) {
  CreateInput in;
  in.models.push_back(CreateModel{model_file, {}});
  CreateAccessory a;
  a.file = dir / "a.x";
  a.model = 0;
  a.bone = "しっぽ";
  in.accessories.push_back(a);
  std::vector<Warning> w;
  auto doc = create_project(in, w);
  ASSERT_FALSE(doc.has_value());
  EXPECT_NE(doc.error().message.find("has no bone 'しっぽ'"), std::string::npos) << doc.error().message;
  in.accessories[0].model = 3;
  doc = create_project(in, w);
  ASSERT_FALSE(doc.has_value());
  EXPECT_NE(doc.error().message.find("model 3 is not one of the project's 1 models"), std::string::npos);
}

// MMD 9.26 saved t.pmm with 初音ミク.pmd and no keys: a project made here from the same model has
// the same lists and model settings, and the same view settings (docs/PMM.md "Creating a project").
TEST(ProjectCreateCorpus, ModelListsEqualWhatMmdWroteInTPmm) {
  MMDKIT_REQUIRE_CORPUS();
  const fs::path folder = *test::corpus_dir() / "oigami__PMMEditor/UserFile/Model";
  auto t = pmm::read_file(folder / "t.pmm");
  ASSERT_TRUE(t.has_value()) << t.error().to_string();
  CreateInput in;
  in.models.push_back(CreateModel{folder / "初音ミク.pmd", {}});
  in.project_folder = folder;
  std::vector<Warning> w;
  auto doc = create_project(in, w);
  ASSERT_TRUE(doc.has_value()) << doc.error().to_string();
  EXPECT_TRUE(w.empty());
  const pmm::Model& mmd = t->document.models[0];
  const pmm::Model& ours = doc->models[0];
  auto texts = [](const std::vector<EncodedText>& v) {
    std::vector<std::string> s;
    for (const auto& name : v) s.push_back(name.text);
    return s;
  };
  EXPECT_EQ(ours.name.text, mmd.name.text);
  EXPECT_EQ(ours.name_en.text, mmd.name_en.text);
  EXPECT_EQ(texts(ours.bone_names), texts(mmd.bone_names));
  EXPECT_EQ(texts(ours.morph_names), texts(mmd.morph_names));
  EXPECT_EQ(ours.ik_bones, mmd.ik_bones);
  EXPECT_EQ(ours.outside_parent_bones, mmd.outside_parent_bones);
  EXPECT_EQ(ours.fixed_tracks, mmd.fixed_tracks);
  EXPECT_EQ(ours.expanded_frames, mmd.expanded_frames);
  EXPECT_EQ(ours.selected_morphs, mmd.selected_morphs);
  EXPECT_EQ(ours.draw_order, mmd.draw_order);
  EXPECT_EQ(ours.transform_order, mmd.transform_order);
  EXPECT_EQ(ours.ik_states, mmd.ik_states);
  // Everything after the lists (keys, states, settings) as MMD wrote it: the model record's bytes
  // from draw_order on are equal when the lists and names are taken as stored.
  pmm::Document a = *doc, b = t->document;
  a.models[0].path = b.models[0].path;
  a.models[0].name = b.models[0].name;
  a.models[0].name_en = b.models[0].name_en;
  a.models[0].bone_names = b.models[0].bone_names;
  a.models[0].morph_names = b.models[0].morph_names;
  b.audio_path = a.audio_path;
  b.background_video_path = a.background_video_path;
  b.background_image_path = a.background_image_path;
  auto wa = pmm::write(a), wb = pmm::write(b);
  ASSERT_TRUE(wa.has_value() && wb.has_value());
  EXPECT_EQ(wa->size(), wb->size());
  EXPECT_TRUE(*wa == *wb) << "the made project differs from t.pmm beyond names and paths";
}

// MMD's sample project → its scene (convert_project: one motion per model, the camera motion) →
// a new project (create_project) → its scene again: every model's bone, morph and property keys
// and the camera / light keys are the same (11 models, 24,562 regular bone keys).
TEST(ProjectCreateCorpus, SampleProjectThroughItsSceneGivesTheSameKeys) {
  MMDKIT_REQUIRE_CORPUS();
  const fs::path folder = *test::corpus_dir() / "oigami__PMMEditor/UserFile";
  auto r = pmm::read_file(folder / "サンプル（きしめんAllStar).pmm");
  ASSERT_TRUE(r.has_value()) << r.error().to_string();
  ProjectOptions o;
  o.project_folder = folder;
  std::vector<Warning> w;
  auto first = convert_project(r->document, o, w);
  ASSERT_TRUE(first.has_value()) << first.error().to_string();
  CreateInput in;
  for (const ProjectModel& m : first->models) {
    ASSERT_TRUE(m.file.found.has_value()) << m.name;
    in.models.push_back(CreateModel{*m.file.found, {m.motion}});
  }
  in.camera = first->camera;
  in.project_folder = folder;
  std::vector<Warning> w2;
  auto made = create_project(in, w2);
  ASSERT_TRUE(made.has_value()) << made.error().to_string();
  EXPECT_TRUE(w2.empty()) << w2.front().to_string();
  // Models below the project's folder are stored relative to it.
  EXPECT_EQ(made->models[2].path.text, "Model\\初音ミク.pmd");
  auto bytes = pmm::write(*made);
  ASSERT_TRUE(bytes.has_value());
  auto back = pmm::read(ByteSpan(bytes->data(), bytes->size()));
  ASSERT_TRUE(back.has_value()) << back.error().to_string();
  std::vector<Warning> w3;
  auto second = convert_project(back->document, o, w3);
  ASSERT_TRUE(second.has_value()) << second.error().to_string();
  ASSERT_EQ(second->models.size(), first->models.size());
  std::size_t bone_keys = 0;
  for (std::size_t i = 0; i < first->models.size(); ++i) {
    const vmd::Motion &a = first->models[i].motion, &b = second->models[i].motion;
    ASSERT_EQ(a.bone_keys.size(), b.bone_keys.size()) << i;
    bone_keys += r->document.models[i].bone_keys.size();
    for (std::size_t k = 0; k < a.bone_keys.size(); ++k) {
      EXPECT_EQ(a.bone_names[a.bone_keys[k].name].text, b.bone_names[b.bone_keys[k].name].text);
      EXPECT_EQ(a.bone_keys[k].frame, b.bone_keys[k].frame);
      EXPECT_EQ(a.bone_keys[k].position, b.bone_keys[k].position);
      EXPECT_EQ(a.bone_keys[k].rotation, b.bone_keys[k].rotation);
      EXPECT_EQ(a.bone_keys[k].interpolation, b.bone_keys[k].interpolation);
    }
    ASSERT_EQ(a.morph_keys.size(), b.morph_keys.size()) << i;
    for (std::size_t k = 0; k < a.morph_keys.size(); ++k) {
      EXPECT_EQ(a.morph_keys[k].frame, b.morph_keys[k].frame);
      EXPECT_EQ(a.morph_keys[k].weight, b.morph_keys[k].weight);
    }
    EXPECT_EQ(a.property_keys.size(), b.property_keys.size()) << i;
    EXPECT_EQ(back->document.models[i].bone_keys.size(), r->document.models[i].bone_keys.size()) << i;
  }
  EXPECT_EQ(bone_keys, 24562u);  // tests/data/pmm_counts.tsv's regular bone keys, summed
  ASSERT_EQ(second->camera.camera_keys.size(), first->camera.camera_keys.size());
  for (std::size_t k = 0; k < first->camera.camera_keys.size(); ++k) {
    const vmd::CameraKey &a = first->camera.camera_keys[k], &b = second->camera.camera_keys[k];
    EXPECT_EQ(a.frame, b.frame);
    EXPECT_EQ(a.distance, b.distance);
    EXPECT_EQ(a.target, b.target);
    EXPECT_EQ(a.rotation, b.rotation);
    EXPECT_EQ(a.interpolation, b.interpolation);
    EXPECT_EQ(a.view_angle, b.view_angle);
  }
  EXPECT_EQ(second->camera.light_keys.size(), first->camera.light_keys.size());
  EXPECT_EQ(back->document.camera.keys.size(), 14u);
  EXPECT_EQ(back->document.light.keys.size(), 18u);
}

}  // namespace
}  // namespace mmdkit::scene
