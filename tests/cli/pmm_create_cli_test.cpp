// `mmdkit pmm create` (the built binary): the short form and --scene write a project that `check`
// passes and `info` counts (keys counted here from the inputs); `pmm extract` of it gives back the
// motion's keys; usage errors (exit 2) and an existing output without --force (exit 1).
#include <gtest/gtest.h>

#include <string>

#include "mmdkit/formats/pmm.hpp"
#include "mmdkit/version.hpp"
#include "mmdkit/formats/pmx.hpp"
#include "mmdkit/formats/pmx_generate.hpp"
#include "mmdkit/formats/vmd.hpp"
#include "mmdkit/formats/vmd_generate.hpp"
#include "support/cli_run.hpp"
#include "support/corpus.hpp"

namespace {

namespace fs = std::filesystem;

using mmdkit::test::Outcome;
using mmdkit::test::quote;

class PmmCreateCli : public mmdkit::test::CliTest {
 protected:
  PmmCreateCli() : CliTest("pmmcreatecli") {}
  void SetUp() override {
    mmdkit::pmx::GenerateOptions g;
    g.vertices = 30;
    auto model = mmdkit::pmx::generate(g);
    ASSERT_TRUE(model.has_value());
    auto mb = mmdkit::pmx::write(*model);
    ASSERT_TRUE(mb.has_value());
    fs::create_directories(dir / "Model");
    pmx = file("Model/dancer.pmx", *mb);
    mmdkit::vmd::GenerateOptions v;
    v.bone_keys = 200;
    v.morph_keys = 20;
    v.camera_keys = 12;
    v.frames = 120;
    for (const auto& b : model->bones) v.bone_names.push_back(b.name.text);
    for (const auto& m : model->morphs) v.morph_names.push_back(m.name.text);
    motion = mmdkit::vmd::generate(v);
    auto vb = mmdkit::vmd::write(motion);
    ASSERT_TRUE(vb.has_value());
    vmd = file("dance.vmd", *vb);
  }
  fs::path pmx, vmd;
  mmdkit::vmd::Motion motion;
};

// The summary counts keys as `info` does (after each track's initial key, camera included); a .json
// output is the project's JSON, which `convert` turns into the same bytes as a .pmm output; any
// other extension is a usage error and writes nothing.
TEST_F(PmmCreateCli, SummaryCountsAsInfoJsonOutputAndOtherExtensionsRefused) {
  const fs::path out = dir / "q.pmm";
  Outcome c = run("pmm create " + quote(pmx.string()) + " " + quote(vmd.string()) + " --camera " + quote(vmd.string()) +
                  " -o " + quote(out.string()));
  ASSERT_EQ(c.code, 0) << c.err;
  auto doc = mmdkit::pmm::read_file(out);
  ASSERT_TRUE(doc.has_value());
  const auto& m = doc->document.models[0];
  const std::string want = "(1 model, 0 accessories; after the initial keys: " + std::to_string(m.bone_keys.size()) +
                           " bone keys, " + std::to_string(m.morph_keys.size()) + " morph keys, " +
                           std::to_string(doc->document.camera.keys.size()) + " camera keys)";
  EXPECT_NE(c.err.find(want), std::string::npos) << want << "\n" << c.err;
  Outcome info = run("info " + quote(out.string()));
  EXPECT_NE(info.out.find("keys: " + std::to_string(m.bone_keys.size()) + " bone, " +
                          std::to_string(m.morph_keys.size()) + " morph"),
            std::string::npos)
      << info.out;

  const fs::path json = dir / "q.json", back = dir / "back.pmm";
  Outcome j = run("pmm create " + quote(pmx.string()) + " " + quote(vmd.string()) + " --camera " + quote(vmd.string()) +
                  " -o " + quote(json.string()));
  ASSERT_EQ(j.code, 0) << j.err;
  Outcome conv = run("convert " + quote(json.string()) + " " + quote(back.string()));
  ASSERT_EQ(conv.code, 0) << conv.err;
  EXPECT_EQ(mmdkit::test::slurp(back), mmdkit::test::slurp(out));

  const fs::path txt = dir / "g.txt";
  Outcome bad = run("pmm create " + quote(pmx.string()) + " -o " + quote(txt.string()));
  EXPECT_EQ(bad.code, 2) << bad.err;
  EXPECT_NE(bad.err.find("an MMD project converts only to .pmm or .json, not .txt"), std::string::npos) << bad.err;
  EXPECT_FALSE(fs::exists(txt));
}

TEST_F(PmmCreateCli, ShortFormWritesAProjectCheckAndExtractAgree) {
  file("mic.vac", std::string("mic\r\nmic.x\r\n1.5\r\n0,1,0\r\n0,90,0\r\n\x93\xaa\r\n"));  // bone 頭 in CP932
  const fs::path out = dir / "p.pmm";
  Outcome c = run("pmm create " + quote(pmx.string()) + " " + quote(vmd.string()) + " --camera " +
                  quote(vmd.string()) + " --accessory " + quote((dir / "mic.vac").string()) +
                  " --size 640x360 --play-range 0-100 -o " + quote(out.string()));
  ASSERT_EQ(c.code, 0) << c.err;
  EXPECT_NE(c.err.find("mmdkit pmm create: wrote"), std::string::npos) << c.err;
  Outcome chk = run("check " + quote(out.string()));
  EXPECT_EQ(chk.code, 0) << chk.out << chk.err;
  EXPECT_NE(chk.out.find("0 error(s), 0 warning(s)"), std::string::npos) << chk.out;
  Outcome info = run("info " + quote(out.string()));
  ASSERT_EQ(info.code, 0) << info.err;
  for (const char* line : {"version: 2 (\"Polygon Movie maker 0002\")\n", "output size: 640x360\n", "models: 1\n",
                           "accessories: 1\n", "camera keys: 11 (+ the initial key)\n"})
    EXPECT_NE(info.out.find(line), std::string::npos) << line << "\n" << info.out;
  auto doc = mmdkit::pmm::read_file(out);
  ASSERT_TRUE(doc.has_value());
  EXPECT_EQ(doc->document.models[0].path.text, "Model\\dancer.pmx");  // relative to the project's folder
  EXPECT_EQ(doc->document.accessories[0].path.text, "mic.vac");
  EXPECT_EQ(doc->document.accessories[0].name.text, "mic");
  EXPECT_EQ(doc->document.accessories[0].initial_key.scale, 1.5f);
  EXPECT_EQ(doc->document.end_frame, 100);
  // Every key of the motion is in the project: each generated track starts at frame 0, so the
  // project's keys = the motion's keys (initial + regular) plus one initial key per unkeyed track.
  std::size_t bone_keys = doc->document.models[0].bone_keys.size();
  std::size_t keyed_frame0 = 0;
  for (const auto& k : motion.bone_keys) keyed_frame0 += k.frame == 0 ? 1 : 0;
  EXPECT_EQ(bone_keys, motion.bone_keys.size() - keyed_frame0);
  // pmm extract gives the motion back: the same number of keys per keyed track.
  Outcome x = run("pmm extract " + quote(out.string()) + " -o " + quote((dir / "x").string()));
  ASSERT_EQ(x.code, 0) << x.err;
  auto back = mmdkit::vmd::read_file(dir / "x" / (doc->document.models[0].name.text + ".vmd"));
  ASSERT_TRUE(back.has_value());
  EXPECT_EQ(back->motion.bone_keys.size(), doc->document.models[0].initial_bone_keys.size() + bone_keys);
}

TEST_F(PmmCreateCli, SceneFormAndErrors) {
  file("scene.json", "{\"models\": [{\"file\": \"Model/dancer.pmx\", \"motions\": [\"dance.vmd\"]}], "
                     "\"camera\": \"dance.vmd\"}");
  const fs::path out = dir / "s.pmm";
  Outcome c = run("pmm create --scene " + quote((dir / "scene.json").string()) + " -o " + quote(out.string()));
  ASSERT_EQ(c.code, 0) << c.err;
  Outcome again = run("pmm create --scene " + quote((dir / "scene.json").string()) + " -o " + quote(out.string()));
  EXPECT_EQ(again.code, 1);
  EXPECT_NE(again.err.find("exists"), std::string::npos) << again.err;
  EXPECT_EQ(run("pmm create -o " + quote((dir / "n.pmm").string())).code, 2);
  EXPECT_EQ(run("pmm create --scene " + quote((dir / "scene.json").string()) + " " + quote(pmx.string()) + " -o " +
                quote((dir / "n.pmm").string()))
                .code,
            2);
  EXPECT_EQ(run("pmm create " + quote(pmx.string()) + " --size 10 -o " + quote((dir / "n.pmm").string())).code, 2);
  Outcome bad = run("pmm create " + quote((dir / "none.pmx").string()) + " -o " + quote((dir / "n.pmm").string()));
  EXPECT_EQ(bad.code, 1);
  EXPECT_NE(bad.err.find("none.pmx"), std::string::npos) << bad.err;
  EXPECT_FALSE(fs::exists(dir / "n.pmm"));
  // FILE@BONE: the accessory on the dancer's bone; an unknown bone is named.
  Outcome on = run("pmm create " + quote(pmx.string()) + " --accessory " + quote((dir / "mic.x").string() + "@頭") +
                   " -o " + quote((dir / "on.pmm").string()));
  ASSERT_EQ(on.code, 0) << on.err;
  auto doc = mmdkit::pmm::read_file(dir / "on.pmm");
  ASSERT_TRUE(doc.has_value());
  EXPECT_EQ(doc->document.accessories[0].initial_key.parent.model, 0);
  EXPECT_EQ(doc->document.models[0].bone_names[static_cast<std::size_t>(doc->document.accessories[0].initial_key.parent.bone)].text,
            "頭");
  Outcome off = run("pmm create " + quote(pmx.string()) + " --accessory " + quote((dir / "mic.x").string() + "@しっぽ") +
                    " -o " + quote((dir / "off.pmm").string()));
  EXPECT_EQ(off.code, 1);
  EXPECT_NE(off.err.find("has no bone 'しっぽ'"), std::string::npos) << off.err;
  EXPECT_EQ(run("pmm create " + quote(pmx.string()) + " --accessory " + quote((dir / "mic.x@").string()) + " -o " +
                quote((dir / "off.pmm").string()))
                .code,
            2);
}

#if MMDKIT_HAS_RENDER
// MMD's sample project → pmm extract → pmm create --scene: the new project (its models by absolute
// path, accessories as the extracted .vac files) renders frame 300 with the same bytes as the
// original project.
TEST_F(PmmCreateCli, CorpusSampleExtractedAndCreatedAgainRendersTheSamePicture) {
  MMDKIT_REQUIRE_CORPUS();
  const fs::path root = *mmdkit::test::corpus_dir();
  const fs::path sample = root / "oigami__PMMEditor/UserFile/サンプル（きしめんAllStar).pmm";
  const fs::path acc = root / "magicien__MMDSceneKit/Sample_swift/Common/art.scnassets/Accessory";
  Outcome x = run("pmm extract -q " + quote(sample.string()) + " --search-dir " + quote(acc.string()) + " -o " +
                  quote((dir / "x").string()));
  ASSERT_EQ(x.code, 0) << x.err;
  Outcome c = run("pmm create -q --scene " + quote((dir / "x/scene.json").string()) + " -o " +
                  quote((dir / "x/again.pmm").string()));
  ASSERT_EQ(c.code, 0) << c.err;
  Outcome a = run("render -q " + quote(sample.string()) + " --search-dir " + quote(acc.string()) +
                  " --frame 300 -o " + quote((dir / "a.png").string()));
  ASSERT_EQ(a.code, 0) << a.err;
  Outcome b = run("render -q " + quote((dir / "x/again.pmm").string()) + " --size 512x288 --frame 300 -o " +
                  quote((dir / "b.png").string()));
  ASSERT_EQ(b.code, 0) << b.err;
  EXPECT_TRUE(mmdkit::test::slurp(dir / "a.png") == mmdkit::test::slurp(dir / "b.png"));
}
#endif

#if MMDKIT_HAS_RENDER
// Outside parents through the commands: a scene whose second dancer's センター follows the first's
// 頭 from frame 5 → pmm create --scene → the project keeps them (model keys) → pmm extract writes
// them into scene.json → render of the project and of the extracted scene give the same PNG bytes,
// which differ from the same scene without the outside parent (the dancer moved).
TEST_F(PmmCreateCli, OutsideParentsRenderTheSameFromTheProjectAndItsExtractedScene) {
  const std::string models = "\"models\": [{\"file\": \"Model/dancer.pmx\", \"motions\": [\"dance.vmd\"]}, "
                             "{\"file\": \"Model/dancer.pmx\", \"motions\": [\"dance.vmd\"]";
  file("op.json", "{" + models + ", \"parents\": [{\"frame\": 5, \"bone\": \"センター\", \"model\": 0, "
                  "\"parent_bone\": \"頭\"}]}], \"camera\": \"dance.vmd\", \"physics_mode\": \"off\"}");
  file("plain.json", "{" + models + "}], \"camera\": \"dance.vmd\", \"physics_mode\": \"off\"}");
  const fs::path project = dir / "op.pmm";
  Outcome c = run("pmm create -q --scene " + quote((dir / "op.json").string()) + " -o " + quote(project.string()));
  ASSERT_EQ(c.code, 0) << c.err;
  auto doc = mmdkit::pmm::read_file(project);
  ASSERT_TRUE(doc.has_value());
  EXPECT_EQ(doc->document.physics_mode, 0);
  Outcome x = run("pmm extract -q " + quote(project.string()) + " -o " + quote((dir / "x").string()));
  ASSERT_EQ(x.code, 0) << x.err;
  const std::string scene = mmdkit::test::slurp(dir / "x" / "scene.json");
  EXPECT_NE(scene.find("\"parents\": [\n      {\"frame\": 5, \"bone\": \"センター\", \"model\": 0, \"parent_bone\": \"頭\"}]"),
            std::string::npos) << scene;
  EXPECT_NE(scene.find("\"physics_mode\": \"off\""), std::string::npos) << scene;
  const std::string look = " --frame 12 --size 64x48 --msaa 1 -q -o ";
  Outcome a = run("render " + quote(project.string()) + look + quote((dir / "a.png").string()));
  ASSERT_EQ(a.code, 0) << a.err;
  Outcome b = run("render --scene " + quote((dir / "x" / "scene.json").string()) + look + quote((dir / "b.png").string()));
  ASSERT_EQ(b.code, 0) << b.err;
  Outcome p = run("render --scene " + quote((dir / "plain.json").string()) + look + quote((dir / "p.png").string()));
  ASSERT_EQ(p.code, 0) << p.err;
  EXPECT_TRUE(mmdkit::test::slurp(dir / "a.png") == mmdkit::test::slurp(dir / "b.png"));
  EXPECT_FALSE(mmdkit::test::slurp(dir / "a.png") == mmdkit::test::slurp(dir / "p.png"));
  // physics_mode "off": render simulates only when --physics asks (the same bytes as --no-physics).
  Outcome n = run("render --scene " + quote((dir / "plain.json").string()) + " --no-physics" + look + quote((dir / "n.png").string()));
  ASSERT_EQ(n.code, 0) << n.err;
  EXPECT_TRUE(mmdkit::test::slurp(dir / "n.png") == mmdkit::test::slurp(dir / "p.png"));
}
#endif

}  // namespace
