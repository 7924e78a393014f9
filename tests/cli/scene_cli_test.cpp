// `mmdkit sample/pose/render --scene` and the short form (--stage, --accessory): a scene file and
// the same scene as options give the same bytes; a scene of two models, a stage and an accessory
// renders to MP4 and its frame 0 shows every item where the default camera's projection puts it;
// scene file errors name the field.
#include <gtest/gtest.h>

#include "mmdkit/version.hpp"

#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "cli/app.hpp"
#include "mmdkit/core/file.hpp"
#include "mmdkit/core/image.hpp"
#include "mmdkit/core/text.hpp"
#include "mmdkit/formats/pmx.hpp"
#include "scene/scene_fixture.hpp"
#include "support/cli_run.hpp"
#include "support/corpus.hpp"

namespace mmdkit::cli {
namespace {

namespace fs = std::filesystem;

struct Run {
  int code = -1;
  std::string out, err;
};

Run mmdkit_run(std::vector<std::string> args) {
  args.insert(args.begin(), "mmdkit");
  std::vector<const char*> argv;
  for (const auto& a : args) argv.push_back(a.c_str());
  std::ostringstream out, err;
  Run r;
  r.code = run(static_cast<int>(argv.size()), argv.data(), out, err);
  r.out = out.str();
  r.err = err.str();
  return r;
}

pmx::Text text(const std::string& s) {
  pmx::Text t;
  t.text = s;
  return t;
}

// One bone センター at (0, 10, 0) and a black 0.6 × 0.6 quad around it facing the camera.
pmx::Model marker_model() {
  pmx::Model m;
  m.header.encoding = Encoding::utf16le;
  m.name = text("marker");
  const float h = 0.3f;
  for (auto [x, y] : {std::pair{-h, h}, {h, h}, {h, -h}, {-h, -h}}) {
    pmx::Vertex v;
    v.position = {x, 10 + y, 0};
    v.normal = {0, 0, -1};
    v.bones = {0, -1, -1, -1};
    v.weights = {1, 0, 0, 0};
    m.vertices.push_back(v);
  }
  m.faces = {0, 1, 2, 0, 2, 3};
  pmx::Material mat;
  mat.name = text("black");
  mat.diffuse = {0, 0, 0, 1};
  mat.face_index_count = 6;
  mat.shared_toon = 0;
  mat.toon = -1;
  m.materials.push_back(mat);
  pmx::Bone b;
  b.name = text("センター");
  b.position = {0, 10, 0};
  b.parent = -1;
  b.flags = pmx::kRotatable | pmx::kMovable | pmx::kVisible | pmx::kOperable;
  m.bones.push_back(b);
  pmx::DisplayFrame f;
  f.name = text("Root");
  f.special = 1;
  m.display_frames.push_back(f);
  return m;
}

// MMD's default camera (target (0, 10, 0), distance 45, 30°) maps world (x, y, 0) to this pixel.
std::array<double, 2> project(double x, double y, int w, int h) {
  const double f = 1.0 / std::tan(15.0 * 3.14159265358979 / 180.0);
  return {(f * h / w * x / 45.0 + 1) * 0.5 * w, (1 - f * (y - 10.0) / 45.0) * 0.5 * h};
}

// Centroid and count of the dark pixels within `r` pixels of `c`.
std::array<double, 3> dark_near(const Image& img, std::array<double, 2> c, int r) {
  double sx = 0, sy = 0, n = 0;
  for (int y = std::max(0, int(c[1]) - r); y < std::min(img.height, int(c[1]) + r); ++y)
    for (int x = std::max(0, int(c[0]) - r); x < std::min(img.width, int(c[0]) + r); ++x)
      if (img.at(x, y)[0] < 128) {
        sx += x + 0.5;
        sy += y + 0.5;
        n += 1;
      }
  return {n ? sx / n : -1, n ? sy / n : -1, n};
}

std::uint32_t be32(const std::string& s, std::size_t at) {
  return (std::uint32_t(std::uint8_t(s[at])) << 24) | (std::uint32_t(std::uint8_t(s[at + 1])) << 16) |
         (std::uint32_t(std::uint8_t(s[at + 2])) << 8) | std::uint32_t(std::uint8_t(s[at + 3]));
}

class SceneCli : public ::testing::Test {
 protected:
  void SetUp() override {
    dir = mmdkit::test::temp_dir("scene_cli");
    dancer = scene::test::write_model(dir, "dancer.pmx", 1, 400);
    stage = scene::test::write_model(dir, "stage.pmx", 2, 200);
    mic = scene::test::write_model(dir, "mic.pmx", 3, 40);
    dance = scene::test::write_motion(dir, "dance.vmd", 4, 12, 300);
    marker = dir / "marker.pmx";
    ASSERT_TRUE(write_file_atomic(marker, *pmx::write(marker_model())));
  }
  fs::path dir, dancer, stage, mic, dance, marker;
};

// `sample --scene` ends with the summary line every command writes (a fresh user found none): what
// was written, the counts, and the bytes, which are the file's size; -q silences it.
TEST_F(SceneCli, SampleSceneSaysWhatItWrote) {
  const fs::path out = dir / "summary.json";
  auto r = mmdkit_run({"sample", dancer.string(), dance.string(), "--stage", stage.string(), "--accessory",
                       mic.string() + "@右手首", "--frames", "0-4", "--camera", "-o", out.string()});
  ASSERT_EQ(r.code, 0) << r.err;
  const std::string expected = "wrote " + out.string() + " (5 frames x 2 models, 1 accessory, camera, json, " +
                               std::to_string(fs::file_size(out)) + " bytes)";
  EXPECT_NE(r.err.find(expected), std::string::npos) << r.err;
  auto q = mmdkit_run({"sample", dancer.string(), dance.string(), "--stage", stage.string(), "--frames", "0", "-q", "-o",
                       out.string(), "--force"});
  ASSERT_EQ(q.code, 0) << q.err;
  EXPECT_EQ(q.err, "");
}

// A model that does not parse, named in the short form (MODEL --stage ...), gets the error line of
// `sample MODEL` (a fresh user saw "truncated: MODEL: ..." from render); a missing file still
// says which argument it is.
TEST_F(SceneCli, ShortFormParseErrorsReadAsSampleOfTheFile) {
  const std::string bytes = mmdkit::test::slurp(dancer);
  const fs::path cut = dir / "cut.pmx";
  {
    std::ofstream f(cut, std::ios::binary);
    f.write(bytes.data(), 1000);
  }
  auto plain = mmdkit_run({"sample", cut.string(), "-o", (dir / "p.json").string()});
  auto staged = mmdkit_run({"sample", cut.string(), "--stage", stage.string(), "-o", (dir / "s.json").string()});
  ASSERT_EQ(plain.code, 1) << plain.err;
  EXPECT_EQ(staged.code, 1) << staged.err;
  EXPECT_NE(plain.err.find(cut.string() + ": section '"), std::string::npos) << plain.err;
  EXPECT_EQ(staged.err, plain.err);
  auto missing = mmdkit_run({"sample", (dir / "none.pmx").string(), "--stage", stage.string()});
  EXPECT_EQ(missing.code, 1);
  EXPECT_NE(missing.err.find("MODEL: file not found"), std::string::npos) << missing.err;
}

TEST_F(SceneCli, SceneFileAndShortFormGiveTheSameSampleBytesAndPixels) {
  const fs::path scene = scene::test::write_text(dir / "scene.json", R"({
    "models": [{"file": "dancer.pmx", "motions": ["dance.vmd"]}],
    "stage": "stage.pmx",
    "accessories": [{"file": "mic.pmx", "model": 0, "bone": "右手首"}]})");
  const std::vector<std::string> short_form{dancer.string(), dance.string(), "--stage", stage.string(),
                                            "--accessory", mic.string() + "@右手首"};
  auto a = mmdkit_run({"sample", "--scene", scene.string(), "--morphs", "--camera", "-q", "-o", (dir / "a.json").string()});
  ASSERT_EQ(a.code, 0) << a.err;
  auto args = short_form;
  args.insert(args.begin(), "sample");
  for (const char* s : {"--morphs", "--camera", "-q", "-o"}) args.push_back(s);
  args.push_back((dir / "b.json").string());
  auto b = mmdkit_run(args);
  ASSERT_EQ(b.code, 0) << b.err;
  const std::string ja = mmdkit::test::slurp(dir / "a.json");
  EXPECT_GT(ja.size(), 10000u);
  EXPECT_EQ(ja, mmdkit::test::slurp(dir / "b.json"));
  // 13 frames (0..12) × (dancer + stage) bone lists, one accessory matrix per frame.
  std::size_t frames = 0, accessories = 0;
  for (std::size_t p = 0; (p = ja.find("{\"frame\":", p)) != std::string::npos; ++p) ++frames;
  for (std::size_t p = 0; (p = ja.find("{\"index\":0,\"matrix\":", p)) != std::string::npos; ++p) ++accessories;
  EXPECT_EQ(frames, 13u);
  EXPECT_EQ(accessories, 13u);
#if MMDKIT_HAS_RENDER
  const std::vector<std::string> look{"--frame", "6", "--size", "96x64", "--msaa", "1", "-q"};
  args = {"render", "--scene", scene.string(), "-o", (dir / "a.png").string()};
  args.insert(args.end(), look.begin(), look.end());
  auto ra = mmdkit_run(args);
  ASSERT_EQ(ra.code, 0) << ra.err;
  args = short_form;
  args.insert(args.begin(), "render");
  args.insert(args.end(), look.begin(), look.end());
  args.push_back("-o");
  args.push_back((dir / "b.png").string());
  auto rb = mmdkit_run(args);
  ASSERT_EQ(rb.code, 0) << rb.err;
  auto ia = decode_image(mmdkit::test::read_bytes(dir / "a.png"), "a.png");
  auto ib = decode_image(mmdkit::test::read_bytes(dir / "b.png"), "b.png");
  ASSERT_TRUE(ia && ib);
  EXPECT_EQ(ia->rgba, ib->rgba);
  std::size_t not_white = 0;
  for (std::size_t i = 0; i < ia->rgba.size(); i += 4) not_white += ia->rgba[i] < 250 ? 1 : 0;
  EXPECT_GT(not_white, 50u) << "something is drawn";
#endif
}

#if MMDKIT_HAS_RENDER
// `render MODEL MOTION` is a one-model scene drawn by the same loop: the same pixels as a scene
// file naming that model and motion, and the same as the PNG pattern's frame (three frames).
TEST_F(SceneCli, OneModelRenderIsTheOneModelScene) {
  const fs::path scene = scene::test::write_text(dir / "one.json", R"({"models": [{"file": "dancer.pmx", "motions": ["dance.vmd"]}]})");
  // No --quiet: it silences the summary line checked here (cli/progress.hpp).
  const std::vector<std::string> look{"--frames", "4-6", "--size", "96x64", "--msaa", "1"};
  fs::create_directories(dir / "a");
  fs::create_directories(dir / "b");
  std::vector<std::string> args{"render", dancer.string(), dance.string(), "-o", (dir / "a" / "%d.png").string()};
  args.insert(args.end(), look.begin(), look.end());
  auto ra = mmdkit_run(args);
  ASSERT_EQ(ra.code, 0) << ra.err;
  // The summary line of every command: "mmdkit render: wrote OUT (counts)" (cli/progress.hpp); a
  // pattern's files first .. last.
  EXPECT_NE(ra.err.find("mmdkit render: wrote " + (dir / "a" / "0.png").string() + " .. " + (dir / "a" / "2.png").string() +
                        " (3 frames, 96x64, "),
            std::string::npos)
      << ra.err;
  args = {"render", "--scene", scene.string(), "-o", (dir / "b" / "%d.png").string()};
  args.insert(args.end(), look.begin(), look.end());
  auto rb = mmdkit_run(args);
  ASSERT_EQ(rb.code, 0) << rb.err;
  EXPECT_NE(rb.err.find("mmdkit render: wrote " + (dir / "b" / "0.png").string() + " .. " + (dir / "b" / "2.png").string() +
                        " (scene of 1 model and 0 accessories, 3 frames, 96x64, "),
            std::string::npos)
      << rb.err;
  for (const char* f : {"0.png", "1.png", "2.png"}) {
    auto ia = decode_image(mmdkit::test::read_bytes(dir / "a" / f), f);
    auto ib = decode_image(mmdkit::test::read_bytes(dir / "b" / f), f);
    ASSERT_TRUE(ia && ib) << f;
    EXPECT_EQ(ia->rgba, ib->rgba) << f;
  }
}
#endif

#if MMDKIT_HAS_RENDER
TEST_F(SceneCli, TwoModelsStageAndAccessoryRenderToMp4AndWhereTheCameraPutsThem) {
  // Markers (a black quad at their センター, (0, 10, 0) in their own space): dancers at x = ∓6, the
  // stage raised by 4 (its quad at (0, 14)), the accessory on dancer 1's センター lowered by 14
  // (its quad at (6, 10 - 14 + 10) = (6, 6)).
  const fs::path scene = scene::test::write_text(dir / "markers.json", R"({
    "models": [{"file": "marker.pmx", "position": [-6, 0, 0]}, {"file": "marker.pmx", "position": [6, 0, 0]}],
    "stage": {"file": "marker.pmx", "position": [0, 4, 0]},
    "accessories": [{"file": "marker.pmx", "model": 1, "bone": "センター", "position": [0, -14, 0]}]})");
  const std::vector<std::string> look{"--size", "320x240", "--msaa", "1", "--no-edge", "--no-shadow", "-q"};
  auto args = std::vector<std::string>{"render", "--scene", scene.string(), "--frames", "0-9", "-o", (dir / "v.mp4").string()};
  args.insert(args.end(), look.begin(), look.end());
  auto r = mmdkit_run(args);
  ASSERT_EQ(r.code, 0) << r.err;
  // The MP4's own boxes: the H.264 sample entry's size and the sample table's count.
  const std::string mp4 = mmdkit::test::slurp(dir / "v.mp4");
  const std::size_t avc1 = mp4.find("avc1", mp4.find("stsd"));  // the sample entry (ftyp names the brand too)
  ASSERT_NE(avc1, std::string::npos);
  EXPECT_EQ(be32(mp4, avc1 + 4 + 24) >> 16, 320u);
  EXPECT_EQ(be32(mp4, avc1 + 4 + 24) & 0xFFFF, 240u);
  const std::size_t stsz = mp4.find("stsz");
  ASSERT_NE(stsz, std::string::npos);
  EXPECT_EQ(be32(mp4, stsz + 12), 10u) << "frames in the video";

  args = {"render", "--scene", scene.string(), "--frame", "0", "-o", (dir / "f0.png").string()};
  args.insert(args.end(), look.begin(), look.end());
  r = mmdkit_run(args);
  ASSERT_EQ(r.code, 0) << r.err;
  auto img = decode_image(mmdkit::test::read_bytes(dir / "f0.png"), "f0.png");
  ASSERT_TRUE(img);
  std::size_t total = 0;
  for (std::size_t i = 0; i < img->rgba.size(); i += 4) total += img->rgba[i] < 128 ? 1 : 0;
  std::size_t found = 0;
  for (auto [x, y, what] : {std::tuple{-6.0, 10.0, "model 0"}, {6.0, 10.0, "model 1"}, {0.0, 14.0, "stage"},
                            {6.0, 6.0, "accessory"}}) {
    const auto p = project(x, y, 320, 240);
    const auto c = dark_near(*img, p, 15);
    EXPECT_GT(c[2], 10) << what;
    EXPECT_NEAR(c[0], p[0], 0.75) << what;
    EXPECT_NEAR(c[1], p[1], 0.75) << what;
    found += static_cast<std::size_t>(c[2]);
  }
  EXPECT_EQ(found, total) << "nothing dark elsewhere";
}
#endif

// --accessory FILE.vac: the .vac's .x, placement and bone, the same numbers as a scene file
// entry written by hand from the .vac's lines (frames' accessory matrices byte for byte);
// --stage FILE.x: an accessory in the world (the same pixels as --accessory FILE.x).
TEST_F(SceneCli, VacAccessoryAndXStage) {
  const char* tri = "xof 0302txt 0032\nMesh {\n 3;\n 0.0;0.0;0.0;,\n 1.0;0.0;0.0;,\n 0.0;1.0;0.0;;\n 1;\n 3;0,2,1;;\n}\n";
  const fs::path x = scene::test::write_text(dir / "tri.x", tri);
  auto vac_bytes = encode_text("tri\r\ntri.x\r\n0.8\r\n0.25,-1.5,2\r\n-15,30,45\r\n右手首\r\n", Encoding::cp932);
  ASSERT_TRUE(vac_bytes.has_value());
  scene::test::write_bytes(dir / "tri.vac", *vac_bytes);
  const fs::path hand = scene::test::write_text(dir / "hand.json", R"({
    "models": [{"file": "dancer.pmx", "motions": ["dance.vmd"]}],
    "accessories": [{"file": "tri.x", "model": 0, "bone": "右手首", "position": [0.25, -1.5, 2], "rotation": [-15, 30, 45], "scale": 0.8}]})");
  auto a = mmdkit_run({"sample", dancer.string(), dance.string(), "--accessory", (dir / "tri.vac").string(), "-q", "-o", (dir / "vac.json").string()});
  ASSERT_EQ(a.code, 0) << a.err;
  auto b = mmdkit_run({"sample", "--scene", hand.string(), "-q", "-o", (dir / "hand_out.json").string()});
  ASSERT_EQ(b.code, 0) << b.err;
  const std::string ja = mmdkit::test::slurp(dir / "vac.json"), jb = mmdkit::test::slurp(dir / "hand_out.json");
  EXPECT_NE(ja.find("\"vac\":"), std::string::npos);
  EXPECT_NE(ja.find("\"bone\":\"右手首\""), std::string::npos);
  const std::size_t fa = ja.find("{\"frame\":"), fb = jb.find("{\"frame\":");
  ASSERT_NE(fa, std::string::npos);
  ASSERT_NE(fb, std::string::npos);
  EXPECT_EQ(ja.substr(fa), jb.substr(fb));
#if MMDKIT_HAS_RENDER
  const std::vector<std::string> look{"--size", "96x64", "--msaa", "1", "--no-shadow", "-q"};
  auto png = [&](const std::string& opt, const std::string& name) {
    std::vector<std::string> args{"render", marker.string(), opt, x.string(), "-o", (dir / name).string()};
    args.insert(args.end(), look.begin(), look.end());
    auto r = mmdkit_run(args);
    EXPECT_EQ(r.code, 0) << r.err;
    auto img = decode_image(mmdkit::test::read_bytes(dir / name), name);
    EXPECT_TRUE(img.has_value());
    return img ? img->rgba : std::vector<std::uint8_t>{};
  };
  const auto as_stage = png("--stage", "stage_x.png"), world = png("--accessory", "acc_x.png");
  EXPECT_EQ(as_stage, world);
  std::size_t drawn = 0;  // the triangle (10 units at the origin, clockwise on screen: a front face) shows
  for (std::size_t i = 0; i < as_stage.size(); i += 4) drawn += as_stage[i] < 250 ? 1 : 0;
  EXPECT_GT(drawn, 200u);
#endif
}

TEST_F(SceneCli, SceneFileErrorsNameTheFieldAndUsageIsChecked) {
  const fs::path scene = scene::test::write_text(dir / "bad.json", R"({"models": [{"file": "dancer.pmx", "motions": ["nope.vmd"]}]})");
  auto r = mmdkit_run({"sample", "--scene", scene.string()});
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("models[0].motions[0]: file not found"), std::string::npos) << r.err;
  scene::test::write_text(scene, R"({"models": [{"file": "dancer.pmx"}], "accessories": [{"file": "mic.pmx", "model": 0, "bone": "ない"}]})");
  r = mmdkit_run({"pose", "--scene", scene.string(), "-o", (dir / "x.obj").string()});
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("accessories[0].bone: model 0 has no bone 'ない'"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(dir / "x.obj"));
  // Usage: a scene file with a MODEL, a short form without one, a bad --accessory.
  EXPECT_EQ(mmdkit_run({"sample", "--scene", scene.string(), dancer.string()}).code, 2);
  EXPECT_EQ(mmdkit_run({"sample", "--stage", stage.string()}).code, 2);
  EXPECT_EQ(mmdkit_run({"sample", dancer.string(), "--accessory", "@頭"}).code, 2);
  r = mmdkit_run({"sample", dancer.string(), "--accessory", (dir / "missing.pmx").string() + "@頭"});
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("--accessory: file not found"), std::string::npos) << r.err;
}

TEST_F(SceneCli, PoseWritesEveryItemInOneObj) {
  const fs::path scene = scene::test::write_text(dir / "markers.json", R"({
    "models": [{"file": "marker.pmx", "position": [-6, 0, 0]}, {"file": "marker.pmx", "position": [6, 0, 0]}],
    "stage": {"file": "marker.pmx", "position": [0, 4, 0]},
    "accessories": [{"file": "marker.pmx", "model": 1, "bone": "センター", "position": [0, -14, 0]}]})");
  auto r = mmdkit_run({"pose", "--scene", scene.string(), "-o", (dir / "s.obj").string()});
  ASSERT_EQ(r.code, 0) << r.err;
  const std::string obj = mmdkit::test::slurp(dir / "s.obj");
  // Four quads: 16 vertices whose centres are the four predicted points.
  std::istringstream in(obj);
  std::string line;
  std::vector<std::array<double, 3>> v;
  while (std::getline(in, line))
    if (line.rfind("v ", 0) == 0) {
      std::istringstream l(line.substr(2));
      std::array<double, 3> p{};
      l >> p[0] >> p[1] >> p[2];
      v.push_back(p);
    }
  ASSERT_EQ(v.size(), 16u);
  const double want[4][2] = {{-6, 10}, {6, 10}, {0, 14}, {6, 6}};
  for (std::size_t q = 0; q < 4; ++q) {
    double cx = 0, cy = 0;
    for (std::size_t k = 0; k < 4; ++k) {
      cx += v[q * 4 + k][0] / 4;
      cy += v[q * 4 + k][1] / 4;
    }
    EXPECT_NEAR(cx, want[q][0], 1e-5) << "item " << q;
    EXPECT_NEAR(cy, want[q][1], 1e-5) << "item " << q;
  }
  EXPECT_NE(mmdkit::test::slurp(dir / "s.mtl").find("newmtl a0_"), std::string::npos);
}

// One path per command (issue 29): MODEL alone and the one-model scene of it (identity placement)
// run the same sample and pose code, so they write the same numbers: the marker's quad centred on
// (0, 10, 0) with the same vertex lines, and its one bone at (0, 10, 0) with the same bone JSON;
// only the material names (a scene's model 0 prefixes m0_ to the OBJ-safe name m0_black) and the JSON around the bones differ.
TEST_F(SceneCli, OneModelAndItsOneModelSceneWriteTheSameNumbers) {
  const fs::path scene = scene::test::write_text(dir / "one.json", R"({"models": [{"file": "marker.pmx"}]})");
  auto a = mmdkit_run({"pose", marker.string(), "-o", (dir / "a.obj").string()});
  auto b = mmdkit_run({"pose", "--scene", scene.string(), "-o", (dir / "b.obj").string()});
  ASSERT_EQ(a.code, 0) << a.err;
  ASSERT_EQ(b.code, 0) << b.err;
  const auto vertex_lines = [](const std::string& obj) {
    std::istringstream in(obj);
    std::string line, v;
    while (std::getline(in, line))
      if (line.rfind("v ", 0) == 0) v += line + "\n";
    return v;
  };
  const std::string va = vertex_lines(mmdkit::test::slurp(dir / "a.obj"));
  EXPECT_EQ(va, vertex_lines(mmdkit::test::slurp(dir / "b.obj")));
  std::istringstream in(va);
  double cx = 0, cy = 0, x = 0, y = 0, z = 0;
  std::string tag;
  int n = 0;
  while (in >> tag >> x >> y >> z) {
    cx += x;
    cy += y;
    ++n;
  }
  ASSERT_EQ(n, 4);
  EXPECT_NEAR(cx / 4, 0, 1e-6);
  EXPECT_NEAR(cy / 4, 10, 1e-6);
  EXPECT_NE(mmdkit::test::slurp(dir / "a.mtl").find("newmtl m0_black"), std::string::npos);
  EXPECT_NE(mmdkit::test::slurp(dir / "b.mtl").find("newmtl m0_m0_black"), std::string::npos);

  auto sa = mmdkit_run({"sample", marker.string(), "--frames", "0"});
  auto sb = mmdkit_run({"sample", "--scene", scene.string(), "--frames", "0"});
  ASSERT_EQ(sa.code, 0) << sa.err;
  ASSERT_EQ(sb.code, 0) << sb.err;
  const std::string bone = "\"name\":\"センター\",\"index\":0,\"position\":[0,10,0]";
  const auto at = sa.out.find(bone);
  ASSERT_NE(at, std::string::npos) << sa.out;
  const std::string whole = sa.out.substr(at, sa.out.find('}', at) - at);
  EXPECT_NE(sb.out.find(whole), std::string::npos) << whole << "\n" << sb.out;
}

// pose --scene writes its OBJ as `pose` does (issue 13.9-11, 18, 19): --scale multiplies every
// item's positions, the MTL is named after the OBJ with blanks as '_' (and mtllib says so), a
// missing texture is one warning naming the folder searched, and one summary line on success.
TEST_F(SceneCli, PoseOfASceneScalesNamesTheMtlWithoutBlanksAndSummarises) {
  pmx::Model m = marker_model();
  m.textures.push_back(text("tex/none.png"));
  m.materials[0].texture = 0;
  ASSERT_TRUE(write_file_atomic(dir / "textured.pmx", *pmx::write(m)));
  const fs::path scene = scene::test::write_text(dir / "two.json", R"({
    "models": [{"file": "textured.pmx", "position": [-6, 0, 0]}, {"file": "marker.pmx", "position": [6, 0, 0]}]})");
  const fs::path out = dir / "my scene.obj";
  auto r = mmdkit_run({"pose", "--scene", scene.string(), "--scale", "0.08", "-o", out.string()});
  ASSERT_EQ(r.code, 0) << r.err;
  const std::string obj = mmdkit::test::slurp(out);
  EXPECT_NE(obj.find("\nmtllib my_scene.mtl\n"), std::string::npos) << obj.substr(0, 400);
  ASSERT_TRUE(fs::exists(dir / "my_scene.mtl"));
  std::istringstream in(obj);
  std::string line;
  std::vector<std::array<double, 2>> v;
  while (std::getline(in, line))
    if (line.rfind("v ", 0) == 0) {
      std::istringstream l(line.substr(2));
      std::array<double, 2> p{};
      l >> p[0] >> p[1];
      v.push_back(p);
    }
  ASSERT_EQ(v.size(), 8u);
  const double want[2][2] = {{-6 * 0.08, 10 * 0.08}, {6 * 0.08, 10 * 0.08}};
  for (std::size_t q = 0; q < 2; ++q) {
    double cx = 0, cy = 0;
    for (std::size_t k = 0; k < 4; ++k) {
      cx += v[q * 4 + k][0] / 4;
      cy += v[q * 4 + k][1] / 4;
    }
    EXPECT_NEAR(cx, want[q][0], 1e-6) << "item " << q;
    EXPECT_NEAR(cy, want[q][1], 1e-6) << "item " << q;
  }
  const std::string missing = "texture 'tex/none.png' not found in ";
  ASSERT_NE(r.err.find(missing), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find(missing, r.err.find(missing) + 1), std::string::npos) << r.err;  // once
  EXPECT_NE(r.err.find("mmdkit pose: wrote " + out.string() + " (8 vertices, 4 triangles, 2 materials)"), std::string::npos)
      << r.err;
  auto q = mmdkit_run({"pose", "--scene", scene.string(), "--quiet", "--force", "-o", out.string()});
  ASSERT_EQ(q.code, 0) << q.err;
  EXPECT_EQ(q.err, "");
  EXPECT_EQ(mmdkit_run({"pose", "--scene", scene.string(), "--scale", "0", "-o", out.string(), "--force"}).code, 2);
}

}  // namespace
}  // namespace mmdkit::cli
