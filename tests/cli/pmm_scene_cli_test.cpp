// `mmdkit pmm extract` and `mmdkit render project.pmm` (src/cli/project_input.hpp, docs/PMM.md): a
// project built in code (pmm's writer) next to a generated model gives VMDs whose keys are the
// project's and a scene.json that `render --scene` draws with the same pixels as `render
// project.pmm`; missing files are named with every place tried (--strict refuses); the corpus's
// sample project extracts to 11 model motions with the project's key counts and renders.
#include <gtest/gtest.h>

#include "mmdkit/version.hpp"

#include <filesystem>
#include <string>

#include "formats/pmm/fixture.hpp"
#include "mmdkit/core/file.hpp"
#include "mmdkit/core/image.hpp"
#include "mmdkit/formats/pmm.hpp"
#include "mmdkit/formats/vmd.hpp"
#include "mmdkit/formats/pmx.hpp"
#include "mmdkit/formats/vac.hpp"
#include "scene/scene_fixture.hpp"
#include "support/cli_run.hpp"
#include "support/corpus.hpp"

namespace {

namespace fs = std::filesystem;

using mmdkit::test::Outcome;
using mmdkit::test::quote;
using mmdkit::test::slurp;

class PmmSceneCli : public mmdkit::test::CliTest {
 protected:
  PmmSceneCli() : CliTest("pmmscenecli") {}

  // A version-2 project (the pmm fixture: one model, bone keys at 10 and 20 on 左足ＩＫ, camera and
  // light keys) naming `G:\MMD\UserFile\Model\dancer.pmx` (a generated model in dir/UserFile/Model)
  // and, with `accessory`, `C:\x\UserFile\Accessory\stage01.x` (not there).
  fs::path write_project(bool accessory) {
    mmdkit::pmm::Document d = mmdkit::pmm::test::sample_document(mmdkit::pmm::Version::v2, 1);
    d.models[0].path.raw.clear();
    d.models[0].path.text = "G:\\MMD\\UserFile\\Model\\dancer.pmx";
    d.audio_enabled = 0;
    if (accessory) {
      d.accessories[0].path.raw.clear();
      d.accessories[0].path.text = "C:\\x\\UserFile\\Accessory\\stage01.x";
    } else {
      d.accessories.clear();
      d.accessory_names.clear();
    }
    fs::create_directories(dir / "UserFile" / "Model");
    mmdkit::scene::test::write_model(dir / "UserFile" / "Model", "dancer.pmx", 7);
    auto bytes = mmdkit::pmm::write(d);
    EXPECT_TRUE(bytes.has_value()) << (bytes ? "" : bytes.error().to_string());
    const fs::path p = dir / "UserFile" / "project.pmm";
    if (bytes) mmdkit::scene::test::write_bytes(p, *bytes);
    return p;
  }
};

mmdkit::vmd::Motion read_vmd(const fs::path& p) {
  auto r = mmdkit::vmd::read_file(p);
  EXPECT_TRUE(r.has_value()) << p << (r ? "" : r.error().to_string());
  return r ? std::move(r->motion) : mmdkit::vmd::Motion{};
}

TEST_F(PmmSceneCli, ExtractWritesTheProjectsKeys) {
  const fs::path project = write_project(false);
  Outcome o = run("pmm extract " + quote(project.string()) + " -o " + quote((dir / "out").string()));
  ASSERT_EQ(o.code, 0) << o.err;
  EXPECT_NE(o.err.find("mmdkit pmm extract: wrote "), std::string::npos) << o.err;
  const mmdkit::vmd::Motion m = read_vmd(dir / "out" / "モデル0.vmd");
  // 3 initial bone keys + the 2 regular keys of 左足ＩＫ (frames 10, 20; the fixture's values).
  ASSERT_EQ(m.bone_keys.size(), 5u);
  ASSERT_EQ(m.bone_names.size(), 3u);
  EXPECT_EQ(m.bone_names[1].text, "左足ＩＫ");
  EXPECT_EQ(m.bone_keys[2].frame, 10u);
  EXPECT_EQ(m.bone_keys[2].position, (std::array<float, 3>{1, 2, 3}));
  EXPECT_EQ(m.bone_keys[3].frame, 20u);
  EXPECT_EQ(m.bone_keys[3].rotation, (std::array<float, 4>{0, 0.70710677f, 0, 0.70710677f}));
  // physics_disabled on the frame-20 key: MMD's 0x63 0x0F in bytes 2 and 3 of the block.
  EXPECT_EQ(m.bone_keys[3].interpolation[2], 0x63);
  EXPECT_EQ(m.bone_keys[3].interpolation[3], 0x0F);
  EXPECT_EQ(m.bone_keys[2].interpolation[2], 20);
  const mmdkit::vmd::Motion cam = read_vmd(dir / "out" / "camera.vmd");
  EXPECT_EQ(cam.camera_keys.size(), 3u);  // initial + 2
  EXPECT_EQ(cam.light_keys.size(), 2u);
  const std::string scene = slurp(dir / "out" / "scene.json");
  EXPECT_NE(scene.find("\"motions\": [\"モデル0.vmd\"]"), std::string::npos) << scene;
  EXPECT_NE(scene.find((dir / "UserFile" / "Model" / "dancer.pmx").string()), std::string::npos) << scene;
  EXPECT_NE(scene.find("\"camera\": \"camera.vmd\""), std::string::npos) << scene;
  // A second run without --force refuses to replace the files.
  Outcome again = run("pmm extract " + quote(project.string()) + " -o " + quote((dir / "out").string()));
  EXPECT_EQ(again.code, 1) << again.err;
}

TEST_F(PmmSceneCli, MissingFileWarnsWithThePlacesTriedAndStrictRefuses) {
  const fs::path project = write_project(true);
  Outcome o = run("pmm extract " + quote(project.string()) + " -o " + quote((dir / "out").string()));
  ASSERT_EQ(o.code, 0) << o.err;
  EXPECT_NE(o.err.find("mmdkit: warning: "), std::string::npos) << o.err;
  EXPECT_NE(o.err.find("C:\\x\\UserFile\\Accessory\\stage01.x"), std::string::npos) << o.err;
  EXPECT_NE(o.err.find((dir / "UserFile" / "Accessory" / "stage01.x").string()), std::string::npos) << o.err;
  EXPECT_NE(o.err.find("'" + (dir / "UserFile" / "stage01.x").string() + "'"), std::string::npos) << o.err;
  EXPECT_NE(o.err.find("left out of the scene"), std::string::npos) << o.err;
  EXPECT_NE(o.err.find("1 of 1 models, 0 of 1 accessories found"), std::string::npos) << o.err;
  Outcome s = run("pmm extract --strict " + quote(project.string()) + " -o " + quote((dir / "strict").string()));
  EXPECT_EQ(s.code, 1) << s.err;
  EXPECT_NE(s.err.find("mmdkit: error: "), std::string::npos) << s.err;
  EXPECT_NE(s.err.find("stage01.x"), std::string::npos) << s.err;
  EXPECT_FALSE(fs::exists(dir / "strict" / "scene.json"));
  // No model found: nothing to render, said so.
  fs::remove(dir / "UserFile" / "Model" / "dancer.pmx");
  Outcome r = run("sample --scene " + quote(project.string()) + " -o " + quote((dir / "s.json").string()));
  EXPECT_EQ(r.code, 1) << r.err;
  EXPECT_NE(r.err.find("no model of the project was found"), std::string::npos) << r.err;
  Outcome bad = run("pmm extract " + quote(project.string()) + " --search-dir " + quote((dir / "nope").string()) +
                    " -o " + quote((dir / "x").string()));
  EXPECT_EQ(bad.code, 1) << bad.err;
  EXPECT_NE(bad.err.find("--search-dir: not a folder"), std::string::npos) << bad.err;
}

// A version-1 project stores no names: the model file's (found by the same rule) name the tracks,
// and its counts are the ones the project's keys were read with.
TEST_F(PmmSceneCli, VersionOneTakesTheNamesFromTheModelFile) {
  const mmdkit::pmx::Model model = mmdkit::scene::test::generated_model(3);
  std::size_t iks = 0;
  for (const auto& b : model.bones) iks += b.has(mmdkit::pmx::kIk) ? 1 : 0;
  ASSERT_GE(model.bones.size(), 2u);
  mmdkit::pmm::Document d = mmdkit::pmm::test::sample_document(
      mmdkit::pmm::Version::v1, 1, mmdkit::pmm::ModelCounts{model.bones.size(), model.morphs.size(), iks});
  d.models[0].path.raw.clear();
  d.models[0].path.text = "D:\\MMD\\UserFile\\Model\\gen.pmx";
  d.accessories.clear();
  d.accessory_names.clear();
  d.audio_enabled = 0;
  fs::create_directories(dir / "models" / "Model");
  mmdkit::scene::test::write_model(dir / "models" / "Model", "gen.pmx", model);
  auto bytes = mmdkit::pmm::write(d);
  ASSERT_TRUE(bytes.has_value()) << bytes.error().to_string();
  const fs::path project = dir / "v1.pmm";
  mmdkit::scene::test::write_bytes(project, *bytes);
  // Without the model's folder: not readable (the counts are in the model file).
  Outcome no = run("pmm extract " + quote(project.string()) + " -o " + quote((dir / "no").string()));
  EXPECT_EQ(no.code, 1) << no.err;
  Outcome o = run("pmm extract " + quote(project.string()) + " --search-dir " + quote((dir / "models").string()) +
                  " -o " + quote((dir / "out").string()));
  ASSERT_EQ(o.code, 0) << o.err;
  const mmdkit::vmd::Motion m = read_vmd(dir / "out" / "モデル0.vmd");
  ASSERT_EQ(m.bone_keys.size(), model.bones.size() + 2);
  ASSERT_EQ(m.bone_names.size(), model.bones.size());
  // Bone 1's track: the model's bone 1 name, keys at 0, 10, 20.
  EXPECT_EQ(m.bone_names[m.bone_keys[1].name].text, model.bones[1].name.text);
  EXPECT_EQ(m.bone_keys[2].frame, 10u);
  EXPECT_EQ(m.bone_keys[3].frame, 20u);
  EXPECT_EQ(m.bone_names[m.bone_keys[3].name].text, model.bones[1].name.text);
  EXPECT_EQ(m.morph_keys.size(), model.morphs.size() + 1);
  EXPECT_EQ(m.property_keys.front().ik.size(), iks);
}

// sample / pose --scene take a project as they take its extracted scene.json: the same frames.
TEST_F(PmmSceneCli, SampleAndPoseTakeAProjectAsScene) {
  const fs::path project = write_project(false);
  Outcome e = run("pmm extract " + quote(project.string()) + " -o " + quote((dir / "out").string()));
  ASSERT_EQ(e.code, 0) << e.err;
  Outcome a = run("sample --scene " + quote((dir / "out" / "scene.json").string()) + " --frames 0-20 -o " +
                  quote((dir / "a.json").string()));
  ASSERT_EQ(a.code, 0) << a.err;
  Outcome b = run("sample --scene " + quote(project.string()) + " --frames 0-20 -o " + quote((dir / "b.json").string()));
  ASSERT_EQ(b.code, 0) << b.err;
  const std::string ja = slurp(dir / "a.json"), jb = slurp(dir / "b.json");
  const std::size_t fa = ja.find("{\"frame\":"), fb = jb.find("{\"frame\":");
  ASSERT_NE(fa, std::string::npos);
  ASSERT_NE(fb, std::string::npos);
  EXPECT_EQ(ja.substr(fa), jb.substr(fb));  // the header names the motions' (temporary) paths
  Outcome p = run("pose --scene " + quote(project.string()) + " --frame 12 -o " + quote((dir / "p.obj").string()));
  ASSERT_EQ(p.code, 0) << p.err;
  Outcome q = run("pose --scene " + quote((dir / "out" / "scene.json").string()) + " --frame 12 -o " +
                  quote((dir / "q.obj").string()));
  ASSERT_EQ(q.code, 0) << q.err;
  std::string op = slurp(dir / "p.obj"), oq = slurp(dir / "q.obj");
  op = op.substr(op.find("\nv "));
  oq = oq.substr(oq.find("\nv "));
  EXPECT_EQ(op, oq);
  // --search-dir belongs to a project.
  Outcome u = run("sample --scene " + quote((dir / "out" / "scene.json").string()) + " --search-dir " +
                  quote(dir.string()) + " -o " + quote((dir / "u.json").string()));
  EXPECT_EQ(u.code, 2) << u.err;
}

#if MMDKIT_HAS_RENDER
TEST_F(PmmSceneCli, RenderProjectEqualsRenderOfTheExtractedScene) {
  const fs::path project = write_project(false);
  Outcome e = run("pmm extract " + quote(project.string()) + " -o " + quote((dir / "out").string()));
  ASSERT_EQ(e.code, 0) << e.err;
  const std::string look = " --frame 15 --size 96x64 --msaa 1 --no-physics";
  Outcome a = run("render --scene " + quote((dir / "out" / "scene.json").string()) + " -o " +
                  quote((dir / "a.png").string()) + look);
  ASSERT_EQ(a.code, 0) << a.err;
  Outcome b = run("render " + quote(project.string()) + " -o " + quote((dir / "b.png").string()) + look);
  ASSERT_EQ(b.code, 0) << b.err;
  EXPECT_EQ(slurp(dir / "a.png"), slurp(dir / "b.png"));
  // The project's output size (the fixture's header) when --size is not given.
  Outcome c = run("render " + quote(project.string()) + " -o " + quote((dir / "c.png").string()) +
                  " --msaa 1 --no-physics -q");
  ASSERT_EQ(c.code, 0) << c.err;
  auto img = mmdkit::decode_image(mmdkit::test::read_bytes(dir / "c.png"), "c.png");
  ASSERT_TRUE(img.has_value());
  auto doc = mmdkit::pmm::read_file(project);
  ASSERT_TRUE(doc.has_value());
  EXPECT_EQ(img->width, doc->document.output_width);
  EXPECT_EQ(img->height, doc->document.output_height);
  // A project with MOTION or --scene is a usage error.
  Outcome u = run("render " + quote(project.string()) + " x.vmd -o " + quote((dir / "u.png").string()));
  EXPECT_EQ(u.code, 2) << u.err;
}
#endif

#if MMDKIT_HAS_RENDER
// The project's view settings (MMD's black background, ground shadow off, 60 fps) go into the
// extracted scene's "view"; `render project.pmm` and `render --scene` of it draw them alike, and the
// command's options still win.
TEST_F(PmmSceneCli, ViewSettingsReachTheSceneAndTheRender) {
  const fs::path project = write_project(false);
  auto doc = mmdkit::pmm::read_file(project);
  ASSERT_TRUE(doc.has_value());
  mmdkit::pmm::Document d = doc->document;
  d.black_background = 1;
  d.ground_shadow = 0;
  d.preferred_fps = 60;
  d.output_width = 64;
  d.output_height = 48;
  auto bytes = mmdkit::pmm::write(d);
  ASSERT_TRUE(bytes.has_value());
  mmdkit::scene::test::write_bytes(project, *bytes);
  Outcome e = run("pmm extract " + quote(project.string()) + " -o " + quote((dir / "out").string()));
  ASSERT_EQ(e.code, 0) << e.err;
  const std::string scene = slurp(dir / "out" / "scene.json");
  EXPECT_NE(scene.find("\"view\": {\"size\": [64, 48], \"fps\": 60, \"background\": [0, 0, 0], \"ground_shadow\": false}"),
            std::string::npos) << scene;
  const std::string look = " --frame 10 --msaa 1 --no-physics -q";
  Outcome a = run("render --scene " + quote((dir / "out" / "scene.json").string()) + " -o " + quote((dir / "a.png").string()) + look);
  ASSERT_EQ(a.code, 0) << a.err;
  Outcome b = run("render " + quote(project.string()) + " -o " + quote((dir / "b.png").string()) + look);
  ASSERT_EQ(b.code, 0) << b.err;
  EXPECT_EQ(slurp(dir / "a.png"), slurp(dir / "b.png"));
  auto img = mmdkit::decode_image(mmdkit::test::read_bytes(dir / "a.png"), "a.png");
  ASSERT_TRUE(img.has_value());
  EXPECT_EQ(img->width, 64);  // the view's size
  EXPECT_EQ(img->height, 48);
  EXPECT_EQ(img->rgba[0], 0);  // the top-left corner: MMD's black background
  EXPECT_EQ(img->rgba[3], 255);
  // --background and --size win over the view.
  Outcome w = run("render " + quote(project.string()) + " -o " + quote((dir / "w.png").string()) + look +
                  " --background ffffff --size 32x24");
  ASSERT_EQ(w.code, 0) << w.err;
  auto white = mmdkit::decode_image(mmdkit::test::read_bytes(dir / "w.png"), "w.png");
  ASSERT_TRUE(white.has_value());
  EXPECT_EQ(white->width, 32);
  EXPECT_EQ(white->rgba[0], 255);
  // 60 fps from the view: frames 0-1 are three pictures (0, 0.5, 1); --fps 30 gives two.
  fs::create_directories(dir / "f60");
  fs::create_directories(dir / "f30");
  Outcome f60 = run("render " + quote(project.string()) + " --frames 0-1 -o " + quote((dir / "f60" / "%02d.png").string()) +
                    " --msaa 1 --no-physics -q --size 16x12");
  ASSERT_EQ(f60.code, 0) << f60.err;
  Outcome f30 = run("render --scene " + quote((dir / "out" / "scene.json").string()) + " --fps 30 --frames 0-1 -o " +
                    quote((dir / "f30" / "%02d.png").string()) + " --msaa 1 --no-physics -q --size 16x12");
  ASSERT_EQ(f30.code, 0) << f30.err;
  auto count = [](const fs::path& p) { return std::distance(fs::directory_iterator(p), fs::directory_iterator{}); };
  EXPECT_EQ(count(dir / "f60"), 3);
  EXPECT_EQ(count(dir / "f30"), 2);
}
#endif

// An accessory with keys (the fixture's stage01.x: initial key and a key at frame 12, made to move
// here) found as a generated .x: extract writes its keys into scene.json, and the project and
// the extracted scene draw the same pixels between the keys, where the accessory has moved.
TEST_F(PmmSceneCli, MovingAccessoryRendersTheSameFromTheProjectAndTheExtractedScene) {
  const fs::path project = write_project(true);
  auto doc = mmdkit::pmm::read_file(project);
  ASSERT_TRUE(doc.has_value());
  mmdkit::pmm::Document d = doc->document;
  mmdkit::pmm::Accessory& a = d.accessories.at(0);
  a.initial_key.translation = {-8, 4, 0};
  a.keys.at(0).translation = {8, 14, 0};
  a.keys.at(0).rotation = {0, 0, 1.0f};
  a.keys.at(0).scale = 2;
  a.add_blend = 0;
  d.camera.keys.at(0).follow = {0, 2};  // from frame 15 to 45 the camera follows the model's 頭
  auto bytes = mmdkit::pmm::write(d);
  ASSERT_TRUE(bytes.has_value());
  mmdkit::scene::test::write_bytes(project, *bytes);
  fs::create_directories(dir / "UserFile" / "Accessory");
  mmdkit::scene::test::write_text(dir / "UserFile" / "Accessory" / "stage01.x", R"(xof 0302txt 0032
Material Plain { 0.8;0.4;0.2;1.0;; 0.0; 0.0;0.0;0.0;; 0.1;0.2;0.3;; }
Mesh Quad {
  4;
  -0.5;0.5;0;, 0.5;0.5;0;, 0.5;-0.5;0;, -0.5;-0.5;0;;
  1;
  4;0,1,2,3;;
  MeshNormals { 1; 0;0;-1;; 1; 4;0,0,0,0;; }
  MeshMaterialList { 1; 1; 0;; { Plain } }
}
)");
  Outcome e = run("pmm extract " + quote(project.string()) + " --strict -o " + quote((dir / "out").string()));
  ASSERT_EQ(e.code, 0) << e.err;
  EXPECT_EQ(e.err.find("warning"), std::string::npos) << e.err;
  const std::string scene = slurp(dir / "out" / "scene.json");
  EXPECT_NE(scene.find("\"keys\": ["), std::string::npos) << scene;
  EXPECT_NE(scene.find("{\"frame\": 12, \"position\": [8, 14, 0]"), std::string::npos) << scene;
  EXPECT_NE(scene.find("\"opacity\": 0.", scene.find("\"frame\": 12")), std::string::npos) << scene;
  EXPECT_NE(scene.find("\"camera_parents\": [{\"frame\": 15, \"model\": 0, \"bone\": \"頭\"}, {\"frame\": 45}]"), std::string::npos)
      << scene;
#if MMDKIT_HAS_RENDER
  const std::string look = " --size 96x64 --msaa 1 --no-physics";
  for (const char* frame : {"0", "6", "20"}) {
    SCOPED_TRACE(frame);
    const std::string f = std::string(" --frame ") + frame;
    Outcome r1 = run("render --scene " + quote((dir / "out" / "scene.json").string()) + " -o " +
                     quote((dir / ("s" + std::string(frame) + ".png")).string()) + look + f);
    ASSERT_EQ(r1.code, 0) << r1.err;
    Outcome r2 = run("render " + quote(project.string()) + " -o " +
                     quote((dir / ("p" + std::string(frame) + ".png")).string()) + look + f);
    ASSERT_EQ(r2.code, 0) << r2.err;
    EXPECT_EQ(slurp(dir / ("s" + std::string(frame) + ".png")), slurp(dir / ("p" + std::string(frame) + ".png")));
  }
  EXPECT_NE(slurp(dir / "s0.png"), slurp(dir / "s6.png")) << "the accessory moves between its keys";
#endif
}

// A project's per-model self-shadow and additive blending, an accessory's ground shadow per key
// and its draw order (accessory_after_models): `pmm extract` writes them into scene.json, and the
// project and the extracted scene draw the same pixels, which differ from the project without
// them (the model is blended additively over the background).
TEST_F(PmmSceneCli, ModelAndAccessorySettingsRenderTheSameFromTheProjectAndTheExtractedScene) {
  const fs::path project = write_project(true);
  auto doc = mmdkit::pmm::read_file(project);
  ASSERT_TRUE(doc.has_value());
  const mmdkit::pmm::Document plain = doc->document;
  mmdkit::pmm::Document d = plain;
  d.models.at(0).self_shadow = 0;
  d.models.at(0).blend = 1;
  mmdkit::pmm::Accessory& a = d.accessories.at(0);
  a.draw_order = 0;
  a.keys.at(0).shadow = 0;  // frame 12 on: no ground shadow
  d.accessory_after_models = 1;  // the accessory is drawn before the model
  auto bytes = mmdkit::pmm::write(d);
  ASSERT_TRUE(bytes.has_value());
  mmdkit::scene::test::write_bytes(project, *bytes);
  fs::create_directories(dir / "UserFile" / "Accessory");
  mmdkit::scene::test::write_text(dir / "UserFile" / "Accessory" / "stage01.x", R"(xof 0302txt 0032
Material Plain { 0.8;0.4;0.2;1.0;; 0.0; 0.0;0.0;0.0;; 0.1;0.2;0.3;; }
Mesh Quad {
  4;
  -0.5;0.5;0;, 0.5;0.5;0;, 0.5;-0.5;0;, -0.5;-0.5;0;;
  1;
  4;0,1,2,3;;
  MeshNormals { 1; 0;0;-1;; 1; 4;0,0,0,0;; }
  MeshMaterialList { 1; 1; 0;; { Plain } }
}
)");
  Outcome e = run("pmm extract " + quote(project.string()) + " --strict -o " + quote((dir / "out").string()));
  ASSERT_EQ(e.code, 0) << e.err;
  const std::string scene = slurp(dir / "out" / "scene.json");
  EXPECT_NE(scene.find("\"self_shadow\": false, \"add_blend\": true"), std::string::npos) << scene;
  EXPECT_NE(scene.find("\"shadow\": false", scene.find("\"frame\": 12")), std::string::npos) << scene;
  EXPECT_NE(scene.find("\"accessories_after_models\": 1"), std::string::npos) << scene;
#if MMDKIT_HAS_RENDER
  const std::string look = " --size 96x64 --msaa 1 --no-physics --frame 20 --background 404040";
  Outcome r1 = run("render --scene " + quote((dir / "out" / "scene.json").string()) + " -o " + quote((dir / "s.png").string()) + look);
  ASSERT_EQ(r1.code, 0) << r1.err;
  Outcome r2 = run("render " + quote(project.string()) + " -o " + quote((dir / "p.png").string()) + look);
  ASSERT_EQ(r2.code, 0) << r2.err;
  EXPECT_EQ(slurp(dir / "s.png"), slurp(dir / "p.png"));
  auto plain_bytes = mmdkit::pmm::write(plain);
  ASSERT_TRUE(plain_bytes.has_value());
  mmdkit::scene::test::write_bytes(project, *plain_bytes);
  Outcome r3 = run("render " + quote(project.string()) + " -o " + quote((dir / "plain.png").string()) + look);
  ASSERT_EQ(r3.code, 0) << r3.err;
  EXPECT_NE(slurp(dir / "plain.png"), slurp(dir / "p.png")) << "the settings change the picture";
#endif
}

constexpr const char* kSample = "oigami__PMMEditor/UserFile/サンプル（きしめんAllStar).pmm";
constexpr const char* kAccessories = "magicien__MMDSceneKit/Sample_swift/Common/art.scnassets/Accessory";

TEST_F(PmmSceneCli, CorpusSampleExtractsElevenModelMotionsAndRenders) {
  MMDKIT_REQUIRE_CORPUS();
  const fs::path root = *mmdkit::test::corpus_dir();
  const fs::path project = root / kSample;
  Outcome e = run("pmm extract " + quote(project.string()) + " --strict --search-dir " +
                  quote((root / kAccessories).string()) + " -o " + quote((dir / "out").string()));
  ASSERT_EQ(e.code, 0) << e.err;
  auto doc = mmdkit::pmm::read_file(project);
  ASSERT_TRUE(doc.has_value());
  const auto& models = doc->document.models;
  ASSERT_EQ(models.size(), 11u);
  std::size_t vmds = 0;
  for (const auto& entry : fs::directory_iterator(dir / "out"))
    if (entry.path().extension() == ".vmd" && entry.path().filename() != "camera.vmd") ++vmds;
  EXPECT_EQ(vmds, 11u);
  // Names: the two ダミーボーン models are numbered; every count is the project's.
  const char* names[] = {"ダミーボーン.vmd", "ダミーボーン_2.vmd", "初音ミク.vmd", "鏡音レン.vmd", "鏡音リン.vmd", "弱音ハク.vmd",
                         "亞北ネル.vmd", "ＫＡＩＴＯ.vmd", "咲音メイコ.vmd", "巡音ルカ.vmd", "MEIKO.vmd"};
  for (std::size_t i = 0; i < 11; ++i) {
    SCOPED_TRACE(names[i]);
    const mmdkit::vmd::Motion m = read_vmd(dir / "out" / names[i]);
    EXPECT_EQ(m.bone_keys.size(), models[i].initial_bone_keys.size() + models[i].bone_keys.size());
    EXPECT_EQ(m.morph_keys.size(), models[i].initial_morph_keys.size() + models[i].morph_keys.size());
  }
  // The .vac written for ネギ (its .x, frame-0 placement and bone): what ネギ(右手).vac, which the
  // project loaded, says (lines 2-6: negi.x, 1.0, -0.5,-1.0,0.00, 0,0,0, 右手首).
  auto vac = mmdkit::vac::read_file(dir / "out" / "ネギ.vac");
  ASSERT_TRUE(vac.has_value()) << vac.error().to_string();
  EXPECT_EQ(vac->x_file, "negi.x");
  EXPECT_EQ(vac->scale, 1.0f);
  EXPECT_EQ(vac->position, (mmdkit::Vec3{-0.5f, -1.0f, 0.0f}));
  EXPECT_EQ(vac->rotation_degrees, (mmdkit::Vec3{0, 0, 0}));
  EXPECT_EQ(vac->bone, "右手首");
#if MMDKIT_HAS_RENDER
  const std::string look = " --frame 600 --size 256x144";
  Outcome a = run("render --scene " + quote((dir / "out" / "scene.json").string()) + " -o " +
                  quote((dir / "a.png").string()) + look);
  ASSERT_EQ(a.code, 0) << a.err;
  EXPECT_NE(a.err.find("scene of 11 models and 29 accessories, 1 frame, 256x144"), std::string::npos) << a.err;
  Outcome b = run("render " + quote(project.string()) + " --search-dir " + quote((root / kAccessories).string()) +
                  " -o " + quote((dir / "b.png").string()) + look);
  ASSERT_EQ(b.code, 0) << b.err;
  EXPECT_EQ(slurp(dir / "a.png"), slurp(dir / "b.png"));
  auto img = mmdkit::decode_image(mmdkit::test::read_bytes(dir / "a.png"), "a.png");
  ASSERT_TRUE(img.has_value());
  std::size_t not_white = 0;
  for (std::size_t i = 0; i < img->rgba.size(); i += 4) not_white += img->rgba[i] < 250 ? 1 : 0;
  EXPECT_GT(not_white, 256u * 144u / 2) << "the stage and the dancers fill the picture";
#endif
}

}  // namespace
