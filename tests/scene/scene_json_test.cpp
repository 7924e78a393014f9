// The scene file: schema, field paths in errors, path rules (docs/SCENE.md).
#include <gtest/gtest.h>

#include "mmdkit/scene/description.hpp"
#include "scene/scene_fixture.hpp"
#include "support/corpus.hpp"

namespace mmdkit::scene {
namespace {

namespace fs = std::filesystem;

TEST(SceneJson, ReadsEveryField) {
  const std::string text = R"({
    "format": "mmdkit-scene", "version": 1,
    "models": [
      {"file": "a.pmx", "motions": ["a.vmd", "sub/b.vmd"], "position": [1, 2, 3], "rotation": [0, 90, 0], "scale": 1},
      {"file": "/abs/b.pmd"}
    ],
    "stage": {"file": "stage/s.pmx", "position": [0, -1, 0]},
    "accessories": [
      {"file": "mic.pmx", "model": 1, "bone": "右手首", "position": [0, 1, 0], "rotation": [10, 0, 0], "scale": 2},
      {"file": "lamp.pmx", "visible": false}
    ],
    "camera": "cam.vmd",
    "light": {"color": [0.5, 0.25, 1], "direction": [0, -1, 0]},
    "audio": "song.wav"
  })";
  auto s = parse_scene(text, "/scenes/x");
  ASSERT_TRUE(s.has_value()) << s.error().to_string();
  ASSERT_EQ(s->models.size(), 2u);
  EXPECT_EQ(s->models[0].file, fs::path("/scenes/x/a.pmx"));
  EXPECT_EQ(s->models[0].motions, (std::vector<fs::path>{"/scenes/x/a.vmd", "/scenes/x/sub/b.vmd"}));
  EXPECT_EQ(s->models[0].placement.position, (Vec3{1, 2, 3}));
  EXPECT_EQ(s->models[0].placement.rotation, (Vec3{0, 90, 0}));
  EXPECT_EQ(s->models[1].file, fs::path("/abs/b.pmd"));
  EXPECT_TRUE(s->models[1].placement.is_identity());
  ASSERT_TRUE(s->stage.has_value());
  EXPECT_EQ(s->stage->file, fs::path("/scenes/x/stage/s.pmx"));
  EXPECT_EQ(s->stage->placement.position, (Vec3{0, -1, 0}));
  ASSERT_EQ(s->accessories.size(), 2u);
  EXPECT_EQ(s->accessories[0].model, std::optional<std::size_t>(1));
  EXPECT_EQ(s->accessories[0].bone, "右手首");
  EXPECT_EQ(s->accessories[0].placement.scale, 2.0f);
  EXPECT_FALSE(s->accessories[1].model.has_value());
  EXPECT_FALSE(s->accessories[1].visible);
  EXPECT_EQ(s->camera, fs::path("/scenes/x/cam.vmd"));
  ASSERT_TRUE(s->fixed_light.has_value());
  EXPECT_EQ(s->fixed_light->color, (Vec3{0.5f, 0.25f, 1}));
  EXPECT_EQ(s->fixed_light->direction, (Vec3{0, -1, 0}));
  EXPECT_EQ(s->audio, fs::path("/scenes/x/song.wav"));
  EXPECT_EQ(s->folder, fs::path("/scenes/x"));
  // The stage as a plain path, the light as a VMD.
  auto s2 = parse_scene(R"({"models":[{"file":"a.pmx"}],"stage":"s.pmx","light":"l.vmd"})", "/f");
  ASSERT_TRUE(s2.has_value());
  EXPECT_EQ(s2->stage->file, fs::path("/f/s.pmx"));
  EXPECT_EQ(s2->light_motion, fs::path("/f/l.vmd"));
  EXPECT_FALSE(s2->fixed_light.has_value());
}

struct Bad {
  const char* json;
  const char* message;  // the whole message
  ErrorCode code = ErrorCode::json_schema;
};

TEST(SceneJson, AccessoryKeysOpacityAndAdditiveBlending) {
  const std::string text = R"({"models": [{"file": "a.pmx"}], "accessories": [
    {"file": "light.x", "add_blend": true, "opacity": 0.25},
    {"file": "laser.x", "add_blend": true, "keys": [
      {"frame": 0, "position": [1, 2, 3], "rotation": [0, 90, 0], "scale": 0, "opacity": 0.5},
      {"frame": 30, "visible": false, "model": 0, "bone": "頭"}]}]})";
  auto s = parse_scene(text, "/x");
  ASSERT_TRUE(s.has_value()) << s.error().to_string();
  ASSERT_EQ(s->accessories.size(), 2u);
  EXPECT_TRUE(s->accessories[0].add_blend);
  EXPECT_FLOAT_EQ(s->accessories[0].opacity, 0.25f);
  EXPECT_TRUE(s->accessories[0].keys.empty());
  const AccessoryEntry& a = s->accessories[1];
  ASSERT_EQ(a.keys.size(), 2u);
  EXPECT_EQ(a.keys[0].frame, 0u);
  EXPECT_EQ(a.keys[0].placement.position, (Vec3{1, 2, 3}));
  EXPECT_EQ(a.keys[0].placement.rotation, (Vec3{0, 90, 0}));
  EXPECT_EQ(a.keys[0].placement.scale, 0.0f);
  EXPECT_FLOAT_EQ(a.keys[0].opacity, 0.5f);
  EXPECT_TRUE(a.keys[0].visible);
  EXPECT_FALSE(a.keys[0].model.has_value());
  EXPECT_EQ(a.keys[1].frame, 30u);
  EXPECT_FALSE(a.keys[1].visible);
  ASSERT_TRUE(a.keys[1].model.has_value());
  EXPECT_EQ(*a.keys[1].model, 0u);
  EXPECT_EQ(a.keys[1].bone, "頭");
  EXPECT_TRUE(a.keys[1].placement.is_identity());
}

// A project's per-model and per-accessory settings (description.hpp): self_shadow and add_blend of
// a model, shadow of an accessory and of its keys, accessories_after_models; defaults when absent.
TEST(SceneJson, ModelShadowBlendAccessoryShadowAndDrawOrder) {
  auto s = parse_scene(R"({"models": [{"file": "a.pmx", "self_shadow": false, "add_blend": true}, {"file": "b.pmx"}],
    "accessories": [{"file": "floor.x", "shadow": false}, {"file": "b.x"},
      {"file": "c.x", "keys": [{"frame": 0}, {"frame": 10, "shadow": false}]}],
    "accessories_after_models": 2})", "/s");
  ASSERT_TRUE(s.has_value()) << s.error().to_string();
  EXPECT_FALSE(s->models[0].self_shadow);
  EXPECT_TRUE(s->models[0].add_blend);
  EXPECT_TRUE(s->models[1].self_shadow);
  EXPECT_FALSE(s->models[1].add_blend);
  EXPECT_FALSE(s->accessories[0].shadow);
  EXPECT_TRUE(s->accessories[1].shadow);
  ASSERT_EQ(s->accessories[2].keys.size(), 2u);
  EXPECT_TRUE(s->accessories[2].keys[0].shadow);
  EXPECT_FALSE(s->accessories[2].keys[1].shadow);
  EXPECT_EQ(s->accessories_after_models, 2u);
  auto d = parse_scene(R"({"models": [{"file": "a.pmx"}]})", "/s");
  ASSERT_TRUE(d.has_value());
  EXPECT_EQ(d->accessories_after_models, 0u);
  for (const auto& [text, want] : std::vector<std::pair<std::string, std::string>>{
           {R"({"models": [{"file": "a.pmx", "self_shadow": 0}]})", "models[0].self_shadow: must be true or false, not a number"},
           {R"({"models": [{"file": "a.pmx", "add_blend": "yes"}]})", "models[0].add_blend: must be true or false, not a string"},
           {R"({"models": [{"file": "a.pmx"}], "accessories": [{"file": "m.x", "shadow": null}]})",
            "accessories[0].shadow: must be true or false, not null"},
           {R"({"models": [{"file": "a.pmx"}], "accessories": [{"file": "m.x", "shadow": false, "keys": [{"frame": 0}]}]})",
            "accessories[0].shadow: the keys give it"},
           {R"({"models": [{"file": "a.pmx"}], "accessories": [{"file": "m.x"}], "accessories_after_models": 2})",
            "accessories_after_models: must be an accessory index 0..1"},
           {R"({"models": [{"file": "a.pmx"}], "accessories_after_models": -1})", "accessories_after_models: must be an accessory index 0..0"}}) {
    auto e = parse_scene(text, "/s");
    ASSERT_FALSE(e.has_value()) << text;
    EXPECT_NE(e.error().message.find(want), std::string::npos) << e.error().message;
  }
}

TEST(SceneJson, CameraParents) {
  auto s = parse_scene(R"({"models": [{"file": "a.pmx"}, {"file": "b.pmx", "edge_width": 0.5}],
    "camera_parents": [{"frame": 0, "model": 1, "bone": "頭"}, {"frame": 90}]})", "/x");
  ASSERT_TRUE(s.has_value()) << s.error().to_string();
  EXPECT_EQ(s->models[0].edge_width, 1.0f);
  EXPECT_EQ(s->models[1].edge_width, 0.5f);
  ASSERT_EQ(s->camera_parents.size(), 2u);
  EXPECT_EQ(s->camera_parents[0].frame, 0u);
  ASSERT_TRUE(s->camera_parents[0].model.has_value());
  EXPECT_EQ(*s->camera_parents[0].model, 1u);
  EXPECT_EQ(s->camera_parents[0].bone, "頭");
  EXPECT_EQ(s->camera_parents[1].frame, 90u);
  EXPECT_FALSE(s->camera_parents[1].model.has_value());
  auto late = parse_scene(R"({"models": [{"file": "a.pmx"}], "camera_parents": [{"frame": 9}, {"frame": 3}]})", "/x");
  ASSERT_FALSE(late.has_value());
  EXPECT_EQ(late.error().message, "camera_parents[1].frame: must be after the previous key's frame 9");
  auto none = parse_scene(R"({"models": [{"file": "a.pmx"}], "camera_parents": [{"frame": 0, "model": 3, "bone": "x"}]})", "/x");
  ASSERT_FALSE(none.has_value());
  EXPECT_EQ(none.error().message, "camera_parents[0].model: model 3 does not exist (the scene has 1 model)");
}

TEST(SceneJson, ViewSettings) {
  auto s = parse_scene(R"({"models": [{"file": "a.pmx"}], "view": {"size": [512, 288], "fps": 60,
    "background": [0, 0.5, 1], "ground_shadow": false, "ground_shadow_translucent": true}})", "/x");
  ASSERT_TRUE(s.has_value()) << s.error().to_string();
  EXPECT_EQ(s->view.size, (std::optional<std::array<std::int32_t, 2>>(std::array<std::int32_t, 2>{512, 288})));
  EXPECT_EQ(s->view.fps, std::optional<std::int32_t>(60));
  EXPECT_EQ(s->view.background, (std::optional<std::array<float, 3>>(std::array<float, 3>{0, 0.5f, 1})));
  EXPECT_FALSE(s->view.ground_shadow);
  EXPECT_TRUE(s->view.ground_shadow_translucent);
  // The edge colour and the background pictures (paths against the scene's folder).
  auto pictures = parse_scene(R"({"models": [{"file": "a.pmx"}], "view": {"edge_color": [1, 0.5, 0],
      "background_image": {"file": "bg/sky.png", "offset": [-3, 4], "scale": 0.5},
      "background_video": {"file": "/v/clip.mp4"}}})", "/x");
  ASSERT_TRUE(pictures.has_value()) << pictures.error().to_string();
  EXPECT_EQ(pictures->view.edge_color, (std::optional<std::array<float, 3>>(std::array<float, 3>{1, 0.5f, 0})));
  EXPECT_EQ(pictures->view.background_image, (std::optional<BackgroundPicture>(BackgroundPicture{"/x/bg/sky.png", {-3, 4}, 0.5f})));
  EXPECT_EQ(pictures->view.background_video, (std::optional<BackgroundPicture>(BackgroundPicture{"/v/clip.mp4", {0, 0}, 1.0f})));
  const auto files = scene_files(*pictures);
  ASSERT_EQ(files.size(), 3u);
  EXPECT_EQ(files[1].field, "view.background_image.file");
  EXPECT_EQ(files[2].field, "view.background_video.file");
  auto none = parse_scene(R"({"models": [{"file": "a.pmx"}]})", "/x");
  ASSERT_TRUE(none.has_value());
  EXPECT_FALSE(none->view.size || none->view.fps || none->view.background || none->view.edge_color ||
               none->view.background_image || none->view.background_video);
  EXPECT_TRUE(none->view.ground_shadow);
  EXPECT_FALSE(none->view.ground_shadow_translucent);
  const std::pair<const char*, const char*> bad[] = {
      {R"({"fps": 24})", "view.fps: must be 30 or 60"},
      {R"({"size": [0, 10]})", "view.size[0]: must be 1..16384 pixels"},
      {R"({"size": [10]})", "view.size: must be [width, height], two whole numbers"},
      {R"({"background": [0, 2, 0]})", "view.background[1]: must be 0..1"},
      {R"({"ground_shadow": 1})", "view.ground_shadow: must be true or false, not a number"},
      {R"({"grid": true})",
       "view.grid: unknown field (expected one of: background, ground_shadow, ground_shadow_translucent, size, fps, "
       "edge_color, background_image, background_video)"},
      {R"({"edge_color": [0, 0, -1]})", "view.edge_color[2]: must be 0..1"},
      {R"({"background_image": "bg.png"})", "view.background_image: must be an object, not a string"},
      {R"({"background_image": {"offset": [1, 2]}})", "view.background_image.file: required"},
      {R"({"background_image": {"file": "bg.png", "scale": 0}})", "view.background_image.scale: must be > 0 and <= 1000"},
      {R"({"background_video": {"file": "v.avi", "offset": [1.5, 2]}})",
       "view.background_video.offset: must be [x, y], two whole numbers of pixels (|n| <= 1000000)"},
      {R"({"background_video": {"file": "v.avi", "size": 2}})",
       "view.background_video.size: unknown field (expected one of: file, offset, scale)"},
      {R"({"background_image": {"file": "../bg.png"}})",
       "view.background_image.file: '../bg.png' leaves the scene's folder (relative paths stay inside it; give an absolute path to read a file elsewhere)"},
      {R"([])", "view: must be an object, not an array"},
  };
  for (const auto& [view, message] : bad) {
    auto r = parse_scene(std::string(R"({"models": [{"file": "a.pmx"}], "view": )") + view + "}", "/x");
    ASSERT_FALSE(r.has_value()) << view;
    EXPECT_EQ(r.error().message, message);
  }
}

TEST(SceneJson, ErrorsNameTheField) {
  const Bad cases[] = {
      {R"([])", "(top level): must be an object, not an array"},
      {R"({})", "models: required: at least one model"},
      {R"({"models": []})", "models: required: at least one model"},
      {R"({"models": {}})", "models: must be an array, not an object"},
      {R"({"models": [{"file": "a.pmx"}], "modles": 1})",
       "modles: unknown field (expected one of: format, version, models, stage, accessories, camera, camera_parents, "
       "light, audio, gravity, physics_mode, physics_ground, view, accessories_after_models)"},
      {R"({"models": [{"file": "a.pmx"}, {"file": "b.pmx", "motions": ["x.vmd", 3]}]})",
       "models[1].motions[1]: must be a path (a string), not a number"},
      {R"({"models": [{"file": "a.pmx"}, {"motions": []}]})", "models[1].file: required"},
      {R"({"models": [{"file": "a.pmx", "motion": "x.vmd"}]})",
       "models[0].motion: unknown field (expected one of: file, motions, position, rotation, scale, edge_width, parents, "
       "self_shadow, add_blend)"},
      {R"({"models": [{"file": "a.pmx", "edge_width": -1}]})", "models[0].edge_width: must be >= 0"},
      {R"({"models": [{"file": "a.pmx", "position": [1, 2]}]})",
       "models[0].position: must be an array of 3 numbers, not an array of 2"},
      {R"({"models": [{"file": "a.pmx", "rotation": [1, "2", 3]}]})",
       "models[0].rotation[1]: must be a number, not a string"},
      {R"({"models": [{"file": "a.pmx", "scale": 0}]})", "models[0].scale: must be > 0"},
      {R"({"models": [{"file": "a.pmx", "scale": -1e300}]})", "models[0].scale: must be a finite number of float range"},
      {R"({"models": [{"file": ""}]})", "models[0].file: must not be empty"},
      {R"({"models": [{"file": "a.pmx"}], "accessories": [{"file": "m.pmx", "model": 0}]})",
       "accessories[0].bone: required with 'model'"},
      {R"({"models": [{"file": "a.pmx"}], "accessories": [{"file": "m.pmx", "bone": "頭"}]})",
       "accessories[0].model: required with 'bone'"},
      {R"({"models": [{"file": "a.pmx"}], "accessories": [{"file": "m.pmx", "model": 1, "bone": "頭"}]})",
       "accessories[0].model: model 1 does not exist (the scene has 1 model)"},
      {R"({"models": [{"file": "a.pmx"}], "accessories": [{"file": "m.pmx", "model": -1, "bone": "頭"}]})",
       "accessories[0].model: must be a model index (a whole number >= 0), not that number"},
      {R"({"models": [{"file": "a.pmx"}], "accessories": [{"file": "m.pmx", "visible": 1}]})",
       "accessories[0].visible: must be true or false, not a number"},
      {R"({"models": [{"file": "a.pmx"}], "accessories": [{"file": "m.pmx", "opacity": 1.5}]})",
       "accessories[0].opacity: must be 0..1"},
      {R"({"models": [{"file": "a.pmx"}], "accessories": [{"file": "m.pmx", "add_blend": 1}]})",
       "accessories[0].add_blend: must be true or false, not a number"},
      {R"({"models": [{"file": "a.pmx"}], "accessories": [{"file": "m.pmx", "keys": []}]})",
       "accessories[0].keys: must hold at least one key"},
      {R"({"models": [{"file": "a.pmx"}], "accessories": [{"file": "m.pmx", "scale": 2, "keys": [{"frame": 0}]}]})",
       "accessories[0].scale: the keys give it (no field beside 'keys' but file and add_blend)"},
      {R"({"models": [{"file": "a.pmx"}], "accessories": [{"file": "m.vac", "keys": [{"frame": 0}]}]})",
       "accessories[0].keys: a .vac gives the placement (give its .x file to move the accessory)"},
      {R"({"models": [{"file": "a.pmx"}], "accessories": [{"file": "m.pmx", "keys": [{"position": [0, 0, 0]}]}]})",
       "accessories[0].keys[0].frame: required"},
      {R"({"models": [{"file": "a.pmx"}], "accessories": [{"file": "m.pmx", "keys": [{"frame": 5}, {"frame": 5}]}]})",
       "accessories[0].keys[1].frame: must be after the previous key's frame 5"},
      {R"({"models": [{"file": "a.pmx"}], "accessories": [{"file": "m.pmx", "keys": [{"frame": 0, "scale": -1}]}]})",
       "accessories[0].keys[0].scale: must be >= 0"},
      {R"({"models": [{"file": "a.pmx"}], "accessories": [{"file": "m.pmx", "keys": [{"frame": 0, "model": 0}]}]})",
       "accessories[0].keys[0].bone: required with 'model'"},
      {R"({"models": [{"file": "a.pmx"}], "accessories": [{"file": "m.pmx", "keys": [{"frame": 0, "opacity": -0.5}]}]})",
       "accessories[0].keys[0].opacity: must be 0..1"},
      {R"({"models": [{"file": "a.pmx"}], "accessories": [{"file": "m.pmx", "keys": [{"frame": 0, "shade": 1}]}]})",
       "accessories[0].keys[0].shade: unknown field (expected one of: frame, position, rotation, scale, opacity, visible, "
       "shadow, model, bone)"},
      {R"({"models": [{"file": "a.pmx"}], "accessories": [{"file": "m.pmx", "keys": [{"frame": 0, "shadow": 1}]}]})",
       "accessories[0].keys[0].shadow: must be true or false, not a number"},
      {R"({"models": [{"file": "a.pmx"}], "stage": {"position": [0, 0, 0]}})", "stage.file: required"},
      {R"({"models": [{"file": "a.pmx"}], "light": {"color": [2, 0, 0]}})", "light.color[0]: must be 0..1"},
      {R"({"models": [{"file": "a.pmx"}], "light": {"direction": [0, 0, 0]}})", "light.direction: must not be (0, 0, 0)"},
      {R"({"models": [{"file": "a.pmx"}], "camera": 5})", "camera: must be a path (a string), not a number"},
      {R"({"models": [{"file": "a.pmx"}], "format": "pmx"})", "format: must be \"mmdkit-scene\""},
      {R"({"models": [{"file": "a.pmx"}], "version": 2})", "version: must be 1 (the only version)"},
      {R"({"models": [{"file": "../a.pmx"}]})",
       "models[0].file: '../a.pmx' leaves the scene's folder (relative paths stay inside it; give an absolute path to "
       "read a file elsewhere)",
       ErrorCode::invalid_value},
      {R"({"models": [{"file": "a/../../b/a.pmx"}]})",
       "models[0].file: 'a/../../b/a.pmx' leaves the scene's folder (relative paths stay inside it; give an absolute "
       "path to read a file elsewhere)",
       ErrorCode::invalid_value},
  };
  for (const Bad& b : cases) {
    auto s = parse_scene(b.json, "/scene");
    ASSERT_FALSE(s.has_value()) << b.json;
    EXPECT_EQ(s.error().message, b.message) << b.json;
    EXPECT_EQ(s.error().code, b.code) << b.json;
  }
}

TEST(SceneJson, SyntaxErrorsGiveLineAndColumn) {
  auto s = parse_scene("{\n  \"models\": [\n    {\"file\": \"a.pmx\",}\n  ]\n}", "/x");
  ASSERT_FALSE(s.has_value());
  EXPECT_EQ(s.error().code, ErrorCode::json_syntax);
  EXPECT_EQ(s.error().line, 3);
  EXPECT_GT(s.error().column, 1);
}

TEST(SceneJson, TooManyItemsAreRefused) {
  std::string text = R"({"models": [)";
  for (std::size_t i = 0; i <= kMaxSceneItems; ++i) text += std::string(i ? "," : "") + R"({"file":"a.pmx"})";
  text += "]}";
  auto s = parse_scene(text, "/x");
  ASSERT_FALSE(s.has_value());
  EXPECT_EQ(s.error().code, ErrorCode::limit_exceeded);
  EXPECT_EQ(s.error().message.rfind("models: 1025 items", 0), 0u) << s.error().message;
}

TEST(SceneJson, MissingFilesAndLinksOutOfTheFolderAreNamed) {
  const fs::path dir = mmdkit::test::temp_dir("scene_json");
  fs::create_directories(dir / "scene");
  test::write_text(dir / "scene" / "a.pmx", "x");
  test::write_text(dir / "outside.vmd", "x");
  fs::create_symlink(dir / "outside.vmd", dir / "scene" / "link.vmd");
  const fs::path scene = test::write_text(
      dir / "scene" / "scene.json", R"({"models": [{"file": "a.pmx"}, {"file": "a.pmx", "motions": ["missing.vmd"]}]})");
  auto s = read_scene_file(scene);
  ASSERT_FALSE(s.has_value());
  EXPECT_EQ(s.error().code, ErrorCode::io_error);
  EXPECT_EQ(s.error().message, "models[1].motions[0]: file not found ('" + (dir / "scene" / "missing.vmd").string() + "')");

  test::write_text(scene, R"({"models": [{"file": "a.pmx", "motions": ["link.vmd"]}]})");
  s = read_scene_file(scene);
  ASSERT_FALSE(s.has_value());
  EXPECT_EQ(s.error().code, ErrorCode::invalid_value);
  EXPECT_EQ(s.error().message.rfind("models[0].motions[0]: leaves the scene's folder through a link", 0), 0u)
      << s.error().message;

  // Given explicitly (absolute), a file outside the folder is read.
  test::write_text(scene, R"({"models": [{"file": "a.pmx", "motions": [")" + (dir / "outside.vmd").string() + R"("]}]})");
  s = read_scene_file(scene);
  ASSERT_TRUE(s.has_value()) << s.error().to_string();

  test::write_text(scene, R"({"models": [{"file": "scene.json"}], "stage": "sub"})");
  fs::create_directories(dir / "scene" / "sub");
  s = read_scene_file(scene);
  ASSERT_FALSE(s.has_value());
  EXPECT_EQ(s.error().message, "stage.file: is a directory, not a file ('" + (dir / "scene" / "sub").string() + "')");
}

}  // namespace
}  // namespace mmdkit::scene
