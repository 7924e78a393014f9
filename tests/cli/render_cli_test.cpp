// `mmdkit render` end to end on models and motions written in code: a bone moved by a motion
// lands on the pixel the default camera predicts, camera cuts hold the first key (60 fps
// samples), PNG patterns, video files (H.264 / VP9 / audio), usage errors, physics on by default
// for a model with rigid bodies and in half-frame steps at 60 fps, and the temporary file removed
// on SIGTERM.
#include <gtest/gtest.h>

#include "mmdkit/version.hpp"

#if MMDKIT_HAS_RENDER

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "cli/app.hpp"
#include "mmdkit/core/file.hpp"
#include "mmdkit/core/text.hpp"
#include "mmdkit/formats/pmx.hpp"
#include "mmdkit/formats/vmd.hpp"
#include "mmdkit/render/image.hpp"
#include "mmdkit/render/video.hpp"
#include "support/cli_run.hpp"
#include "support/corpus.hpp"

namespace mmdkit::cli {
namespace {

namespace fs = std::filesystem;

struct RenderRun {
  int code = -1;
  std::string out, err;
};

RenderRun render(std::vector<std::string> args) {
  args.insert(args.begin(), {"mmdkit", "render"});
  std::vector<const char*> argv;
  for (const auto& a : args) argv.push_back(a.c_str());
  std::ostringstream out, err;
  RenderRun r;
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

// One movable bone センター at (0, 10, 0) and a black 0.6 × 0.6 quad around it facing the camera.
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

vmd::TrackName track(const std::string& utf8) {
  vmd::TrackName t;
  t.raw = *encode_text(utf8, Encoding::cp932);
  return t;
}

class RenderCli : public ::testing::Test {
 protected:
  void SetUp() override {
    dir = test::temp_dir("render_cli");
    model = dir / "marker.pmx";
    ASSERT_TRUE(write_file_atomic(model, *pmx::write(marker_model())));
    vmd::Motion m;
    m.bone_names = {track("センター")};
    const auto lin = vmd::encode_bone_interpolation(vmd::kLinearCurve, vmd::kLinearCurve, vmd::kLinearCurve, vmd::kLinearCurve);
    m.bone_keys = {vmd::BoneKey{0, 0, {0, 0, 0}, {0, 0, 0, 1}, lin}, vmd::BoneKey{0, 30, {5, 3, 0}, {0, 0, 0, 1}, lin}};
    motion = dir / "move.vmd";
    ASSERT_TRUE(write_file_atomic(motion, *vmd::write(m)));
  }
  // Centroid of the dark pixels of a PNG.
  static std::array<double, 2> centroid(const fs::path& png) {
    auto bytes = read_file(png);
    EXPECT_TRUE(bytes) << png;
    if (!bytes) return {-1, -1};
    auto img = decode_image(*bytes, png.string());
    EXPECT_TRUE(img);
    double sx = 0, sy = 0, n = 0;
    for (int y = 0; y < img->height; ++y)
      for (int x = 0; x < img->width; ++x)
        if (img->at(x, y)[0] < 128) {
          sx += x + 0.5;
          sy += y + 0.5;
          n += 1;
        }
    EXPECT_GT(n, 0) << png;
    return {sx / std::max(n, 1.0), sy / std::max(n, 1.0)};
  }
  // Where MMD's default camera (eye (0, 10, −45), 30°) shows a world point, on a w × h image.
  static std::array<double, 2> project(double x, double y, double z, int w, int h, double target_x = 0) {
    const double f = 1.0 / std::tan(15.0 * 3.14159265358979 / 180.0);
    const double d = z + 45.0;
    return {(f * h / w * (x - target_x) / d + 1) * 0.5 * w, (1 - f * (y - 10.0) / d) * 0.5 * h};
  }
  std::vector<std::string> small() const { return {"--size", "160x120", "--msaa", "1", "--no-edge", "--no-shadow"}; }

  fs::path dir, model, motion;
};

// MMD's 表示 (VMD property keys' visible byte): keys shown at 10, hidden at 12, shown at 20: the
// marker is drawn at frame 5 (before the first key: its state), not at 12 and 15 (nothing but the
// background: every pixel white), again at 20; a motion whose only key hides the model hides it
// from frame 0 on.
TEST_F(RenderCli, PropertyKeysHideTheModel) {
  auto write_motion = [&](const fs::path& p, std::vector<std::pair<std::uint32_t, std::uint8_t>> keys) {
    vmd::Motion m;
    m.bone_names = {track("センター")};  // a bone key too: a motion keying no bone is refused
    m.bone_keys = {vmd::BoneKey{0, 0, {0, 0, 0}, {0, 0, 0, 1},
                                vmd::encode_bone_interpolation(vmd::kLinearCurve, vmd::kLinearCurve,
                                                               vmd::kLinearCurve, vmd::kLinearCurve)}};
    for (auto [frame, visible] : keys) m.property_keys.push_back(vmd::PropertyKey{frame, visible, {}});
    ASSERT_TRUE(write_file_atomic(p, *vmd::write(m)));
  };
  write_motion(dir / "show.vmd", {{10, 1}, {12, 0}, {20, 1}});
  write_motion(dir / "hidden.vmd", {{10, 0}});
  auto white_pixels = [&](const fs::path& vmd, int frame) {
    const fs::path out = dir / ("vis_" + vmd.stem().string() + std::to_string(frame) + ".png");
    auto args = small();
    args.insert(args.begin(), {model.string(), vmd.string(), "-o", out.string(), "--frame", std::to_string(frame)});
    const RenderRun r = render(args);
    EXPECT_EQ(r.code, 0) << r.err;
    auto img = decode_image(*read_file(out), out.string());
    int white = 0;
    for (int y = 0; y < img->height; ++y)
      for (int x = 0; x < img->width; ++x)
        white += img->at(x, y)[0] == 255 && img->at(x, y)[1] == 255 && img->at(x, y)[2] == 255;
    return white;
  };
  const int all = 160 * 120;
  EXPECT_LT(white_pixels(dir / "show.vmd", 5), all);
  EXPECT_EQ(white_pixels(dir / "show.vmd", 12), all);
  EXPECT_EQ(white_pixels(dir / "show.vmd", 15), all);
  EXPECT_LT(white_pixels(dir / "show.vmd", 20), all);
  EXPECT_EQ(white_pixels(dir / "hidden.vmd", 0), all);
}

TEST_F(RenderCli, BoneMovedByTheMotionProjectsToThePredictedPixel) {
  for (auto [frame, x, y] : {std::tuple{30, 5.0, 13.0}, {15, 2.5, 11.5}, {0, 0.0, 10.0}}) {
    const fs::path out = dir / ("f" + std::to_string(frame) + ".png");
    auto args = small();
    args.insert(args.begin(), {model.string(), motion.string(), "--frame", std::to_string(frame), "-o", out.string()});
    const RenderRun r = render(args);
    ASSERT_EQ(r.code, 0) << r.err;
    const auto c = centroid(out);
    const auto p = project(x, y, 0, 160, 120);
    EXPECT_NEAR(c[0], p[0], 0.5) << "frame " << frame;
    EXPECT_NEAR(c[1], p[1], 0.5) << "frame " << frame;
  }
}

// --background-image: a PNG written here (left half blue, right half green) stretched over the
// whole output behind the model: the marker stays where it was, the rest is the picture's halves;
// a missing file is an error naming the option.
// 4 × 2 pixels: the left half blue (20, 40, 230), the right half green (20, 220, 60).
fs::path write_halves_png(const fs::path& png) {
  Image bg{4, 2, std::vector<std::uint8_t>(32, 255)};
  for (int y = 0; y < 2; ++y)
    for (int x = 0; x < 4; ++x) {
      std::uint8_t* p = bg.rgba.data() + (y * 4 + x) * 4;
      p[0] = 20;
      p[1] = x < 2 ? 40 : 220;
      p[2] = x < 2 ? 230 : 60;
    }
  EXPECT_TRUE(write_file_atomic(png, *encode_png(bg)));
  return png;
}

TEST_F(RenderCli, BackgroundImageIsStretchedBehindTheModel) {
  const fs::path png = write_halves_png(dir / "bg.png");
  const fs::path out = dir / "bg_out.png";
  auto args = small();
  args.insert(args.begin(), {model.string(), "-o", out.string(), "--background-image", png.string()});
  const RenderRun r = render(args);
  ASSERT_EQ(r.code, 0) << r.err;
  auto bytes = read_file(out);
  ASSERT_TRUE(bytes);
  auto img = decode_image(*bytes, out.string());
  ASSERT_TRUE(img);
  auto at = [&](int x, int y) { return std::array<int, 3>{img->at(x, y)[0], img->at(x, y)[1], img->at(x, y)[2]}; };
  EXPECT_EQ(at(20, 20), (std::array<int, 3>{20, 40, 230}));
  EXPECT_EQ(at(140, 100), (std::array<int, 3>{20, 220, 60}));
  EXPECT_LT(at(80, 60)[0], 10) << "the black marker is drawn over the picture";
  EXPECT_LT(at(80, 60)[2], 10);
  args = small();
  args.insert(args.begin(), {model.string(), "-o", out.string(), "--force", "--background-image", (dir / "none.png").string()});
  const RenderRun missing = render(args);
  EXPECT_EQ(missing.code, 1);
  EXPECT_NE(missing.err.find("--background-image: file not found"), std::string::npos) << missing.err;
}

// A scene's background image through a project: pmm create --scene stores it, render project.pmm
// draws it (the scene -> project -> scene round trip).
TEST_F(RenderCli, BackgroundImageThroughAProject) {
  write_halves_png(dir / "bg.png");
  std::ofstream(dir / "bg_scene.json") << R"({"models": [{"file": "marker.pmx"}], "view": {"size": [160, 120],
      "background_image": {"file": "bg.png", "offset": [80, 0], "scale": 0.5}}})";
  const std::string scene = (dir / "bg_scene.json").string(), project = (dir / "bg.pmm").string();
  std::vector<const char*> argv = {"mmdkit", "pmm", "create", "--scene", scene.c_str(), "-o", project.c_str(), "-q"};
  std::ostringstream out, err;
  ASSERT_EQ(run(static_cast<int>(argv.size()), argv.data(), out, err), 0) << err.str();
  const fs::path png = dir / "bg_project.png";
  const RenderRun r = render({project, "--msaa", "1", "--no-edge", "--no-shadow", "-o", png.string()});
  ASSERT_EQ(r.code, 0) << r.err;
  auto bytes = read_file(png);
  ASSERT_TRUE(bytes);
  auto img = decode_image(*bytes, png.string());
  ASSERT_TRUE(img);
  auto at = [&](int x, int y) { return std::array<int, 3>{img->at(x, y)[0], img->at(x, y)[1], img->at(x, y)[2]}; };
  // The picture covers x 80..160, y 0..60 (offset 80, 0; scale 0.5): blue then green; white elsewhere.
  EXPECT_EQ(at(90, 20), (std::array<int, 3>{20, 40, 230}));
  EXPECT_EQ(at(150, 20), (std::array<int, 3>{20, 220, 60}));
  EXPECT_EQ(at(20, 20), (std::array<int, 3>{255, 255, 255}));
  EXPECT_EQ(at(150, 100), (std::array<int, 3>{255, 255, 255}));
}

// A scene's background video: output frame F shows the video's frame F (30 fps), here three
// flat greys written with VideoWriter, behind the model; after the video's end its last frame.
TEST_F(RenderCli, BackgroundVideoShowsOneFramePerOutputFrame) {
  const int greys[] = {40, 120, 200};
  render::VideoSettings vs;
  vs.path = dir / "bg.mp4";
  vs.width = 64;
  vs.height = 48;
  auto writer = render::VideoWriter::open(vs);
  ASSERT_TRUE(writer) << writer.error().to_string();
  for (int g : greys) {
    Image im{64, 48, std::vector<std::uint8_t>(64 * 48 * 4, 255)};
    for (std::size_t i = 0; i < im.rgba.size(); i += 4) im.rgba[i] = im.rgba[i + 1] = im.rgba[i + 2] = static_cast<std::uint8_t>(g);
    ASSERT_TRUE(writer->write(im));
  }
  ASSERT_TRUE(writer->finish());
  const fs::path scene = dir / "video_scene.json";
  std::ofstream(scene) << R"({"models": [{"file": "marker.pmx"}], "view": {"background_video": {"file": "bg.mp4"}}})";
  auto args = small();
  args.insert(args.begin(), {"--scene", scene.string(), "--frames", "0-4", "-o", (dir / "v%d.png").string()});
  const RenderRun r = render(args);
  ASSERT_EQ(r.code, 0) << r.err;
  for (int f = 0; f < 5; ++f) {
    auto bytes = read_file(dir / ("v" + std::to_string(f) + ".png"));
    ASSERT_TRUE(bytes) << f;
    auto img = decode_image(*bytes, "v.png");
    ASSERT_TRUE(img);
    const int want = greys[std::min(f, 2)];
    EXPECT_NEAR(img->at(10, 10)[0], want, 3) << "frame " << f;
    EXPECT_LT(img->at(80, 60)[0], 10) << "the marker over it, frame " << f;
  }
}

// A scene's edge colour colours the edges of a PMD model (whose materials store none) and leaves
// a PMX model's pixels as they were.
TEST_F(RenderCli, SceneEdgeColourColoursPmdEdgesOnly) {
  MMDKIT_REQUIRE_CORPUS();
  const auto miku = test::corpus_file("jomin398__jomin398.github.io/docs/assets/models/mmd/miku_v2/miku_v2.pmd");
  ASSERT_TRUE(miku);
  auto green_pixels = [&](const std::string& model_file, const std::string& view, const std::string& name) {
    const fs::path scene = dir / (name + ".json");
    std::ofstream(scene) << R"({"models": [{"file": ")" << model_file << R"("}])" << view << "}";
    const fs::path out = dir / (name + ".png");
    const RenderRun r = render({"--scene", scene.string(), "--size", "320x240", "--msaa", "1", "--no-shadow", "-o", out.string()});
    EXPECT_EQ(r.code, 0) << r.err;
    auto bytes = read_file(out);
    EXPECT_TRUE(bytes);
    if (!bytes) return std::pair{-1, std::vector<std::uint8_t>{}};
    auto img = decode_image(*bytes, name);
    EXPECT_TRUE(img);
    int n = 0;
    if (img)
      for (int y = 0; y < img->height; ++y)
        for (int x = 0; x < img->width; ++x) n += img->at(x, y)[0] < 60 && img->at(x, y)[1] > 180 && img->at(x, y)[2] < 60;
    return std::pair{n, *bytes};
  };
  const std::string green = R"(, "view": {"edge_color": [0, 1, 0]})";
  const auto pmd_plain = green_pixels(miku->path.string(), "", "pmd_plain");
  const auto pmd_green = green_pixels(miku->path.string(), green, "pmd_green");
  EXPECT_EQ(pmd_plain.first, 0);
  EXPECT_GT(pmd_green.first, 100) << "green outlines";
  const auto pmx_plain = green_pixels("marker.pmx", "", "pmx_plain");
  const auto pmx_green = green_pixels("marker.pmx", green, "pmx_green");
  EXPECT_EQ(pmx_plain.second, pmx_green.second) << "a PMX model keeps its materials' edge colour";
}

TEST_F(RenderCli, CameraCutHoldsTheFirstKeyAndSixtyFpsSamplesHalfFrames) {
  auto camera = [&](std::uint32_t second_frame) {
    vmd::Motion m;
    const auto lin = vmd::encode_camera_interpolation({});
    m.camera_keys = {vmd::CameraKey{0, -45, {0, 10, 0}, {0, 0, 0}, lin, 30, 0},
                     vmd::CameraKey{second_frame, -45, {4, 10, 0}, {0, 0, 0}, lin, 30, 0}};
    const fs::path p = dir / ("camera" + std::to_string(second_frame) + ".vmd");
    EXPECT_TRUE(write_file_atomic(p, *vmd::write(m)));
    return p;
  };
  // Keys one frame apart: a cut. Frame 0.5 still shows key 0; frame 1 shows key 1.
  fs::create_directory(dir / "cut");
  auto args = small();
  args.insert(args.begin(), {model.string(), "--camera", camera(1).string(), "--frames", "0-1", "--fps", "60", "-o",
                             (dir / "cut" / "%03d.png").string()});
  RenderRun r = render(args);
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(test::slurp(dir / "cut" / "000.png"), test::slurp(dir / "cut" / "001.png"));
  EXPECT_NEAR(centroid(dir / "cut" / "002.png")[0], project(0, 10, 0, 160, 120, 4)[0], 0.5);
  EXPECT_FALSE(fs::exists(dir / "cut" / "003.png"));
  // Keys two frames apart: frame 1 is halfway (linear curves).
  fs::create_directory(dir / "blend");
  args = small();
  args.insert(args.begin(), {model.string(), "--camera", camera(2).string(), "--frames", "1-1", "-o",
                             (dir / "blend" / "%d.png").string()});
  r = render(args);
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NEAR(centroid(dir / "blend" / "0.png")[0], project(0, 10, 0, 160, 120, 2)[0], 0.5);
}

TEST_F(RenderCli, VideoFilesAreWrittenAndSummarised) {
  for (const char* name : {"v.mp4", "v.webm"}) {
    auto args = small();
    args.insert(args.begin(), {model.string(), motion.string(), "--frames", "0-9", "-o", (dir / name).string()});
    const RenderRun r = render(args);
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_GT(fs::file_size(dir / name), 500u) << name;
    // The summary line of every command (cli/progress.hpp): "mmdkit render: wrote OUT (counts)".
    EXPECT_NE(r.err.find("mmdkit render: wrote " + (dir / name).string() + " (10 frames, 160x120, "), std::string::npos)
        << r.err;
    // No temporary file left.
    for (const auto& e : fs::directory_iterator(dir)) EXPECT_EQ(e.path().filename().string().find(".tmp"), std::string::npos);
  }
  const std::string mp4 = test::slurp(dir / "v.mp4");
  EXPECT_NE(mp4.find("avc1"), std::string::npos);  // H.264 sample entry
  const std::string webm = test::slurp(dir / "v.webm");
  EXPECT_NE(webm.find("V_VP9"), std::string::npos);  // Matroska codec id
}

TEST_F(RenderCli, AudioIsMuxedIntoTheVideo) {
  // One second of a 440 Hz sine, 16-bit mono WAV at 22050 Hz.
  const int rate = 22050, n = rate;
  std::string wav = "RIFF";
  auto u32 = [&](std::uint32_t v) { for (int i = 0; i < 4; ++i) wav += char(v >> (8 * i) & 255); };
  auto u16 = [&](std::uint16_t v) { wav += char(v & 255); wav += char(v >> 8); };
  u32(36 + n * 2);
  wav += "WAVEfmt ";
  u32(16); u16(1); u16(1); u32(rate); u32(rate * 2); u16(2); u16(16);
  wav += "data";
  u32(n * 2);
  for (int i = 0; i < n; ++i) u16(static_cast<std::uint16_t>(static_cast<std::int16_t>(8000 * std::sin(2 * 3.14159265 * 440 * i / rate))));
  const fs::path audio = dir / "a.wav";
  ASSERT_TRUE(write_file_atomic(audio, std::string_view(wav)));
  auto args = small();
  args.insert(args.begin(), {model.string(), "--frames", "0-14", "--audio", audio.string(), "-o", (dir / "a.mp4").string()});
  const RenderRun r = render(args);
  ASSERT_EQ(r.code, 0) << r.err;
  const std::string mp4 = test::slurp(dir / "a.mp4");
  EXPECT_NE(mp4.find("mp4a"), std::string::npos);  // AAC sample entry
  // A missing audio file is named.
  args = small();
  args.insert(args.begin(), {model.string(), "--audio", (dir / "none.wav").string(), "-o", (dir / "b.mp4").string()});
  const RenderRun bad = render(args);
  EXPECT_EQ(bad.code, 1);
  EXPECT_NE(bad.err.find("none.wav"), std::string::npos);
  EXPECT_FALSE(fs::exists(dir / "b.mp4"));
}

TEST_F(RenderCli, UsageErrors) {
  const std::string m = model.string();
  EXPECT_EQ(render({m, "-o", (dir / "x.gif").string()}).code, 2);
  EXPECT_EQ(render({m, "--frames", "0-5", "-o", (dir / "x.png").string()}).code, 2);
  EXPECT_EQ(render({m, "--size", "101x100", "-o", (dir / "x.mp4").string()}).code, 2);
  EXPECT_EQ(render({m, "--size", "big", "-o", (dir / "x.png").string()}).code, 2);
  EXPECT_EQ(render({m, "--fps", "25", "-o", (dir / "x.mp4").string()}).code, 2);
  EXPECT_EQ(render({m, "--background", "red", "-o", (dir / "x.png").string()}).code, 2);
  EXPECT_EQ(render({m, "--frames", "5-1", "-o", (dir / "x.mp4").string()}).code, 2);
  {  // one number given to --frames: the error points to --frame
    const auto one = render({m, "--frames", "15", "-o", (dir / "x.png").string()});
    EXPECT_EQ(one.code, 2);
    EXPECT_NE(one.err.find("(one frame: --frame F)"), std::string::npos) << one.err;
  }
  EXPECT_EQ(render({m, "-o", (dir / "%d%d.png").string()}).code, 2);
  EXPECT_EQ(render({m, "--audio", m, "-o", (dir / "x.png").string()}).code, 2);
  // The render farm (render_farm.hpp) checks the options as render does, before any Python runs.
  EXPECT_EQ(render({m, "--workers", "2", "--scheduler", "tcp://127.0.0.1:1", "-o", (dir / "x.png").string()}).code, 2);
  EXPECT_EQ(render({m, "--workers", "-1", "-o", (dir / "x.png").string()}).code, 2);
  EXPECT_EQ(render({m, "--workers", "2", "--size", "101x100", "-o", (dir / "x.mp4").string()}).code, 2);
  {
    const auto stage = render({m, "--workers", "2", "--stage", m, "-o", (dir / "x.png").string()});
    EXPECT_EQ(stage.code, 2);
    EXPECT_NE(stage.err.find("--stage"), std::string::npos) << stage.err;
  }
  // An existing output needs --force; the input is never replaced without it.
  ASSERT_TRUE(write_file_atomic(dir / "old.png", std::string_view("x")));
  auto args = small();
  args.insert(args.begin(), {m, "-o", (dir / "old.png").string()});
  EXPECT_EQ(render(args).code, 1);
  EXPECT_EQ(test::slurp(dir / "old.png"), "x");
  args.push_back("--force");
  EXPECT_EQ(render(args).code, 0);
}

// A pendulum: センター at (0, 10, 0) holds a kinematic body; bone 髪 at (3, 10, 0) carries a black
// double-sided 0.6 × 0.6 quad and a simulated body hinged about Z at the centre, so under physics
// it swings down (heavily damped by default: it hangs at (0, 7, 0) after a few seconds). Bind
// pose, no motion: the kinematic body is at rest (the case where a 60 fps run's whole frames
// equal the 30 fps run's).
pmx::Model pendulum_model(float damping = 0.99f) {
  pmx::Model m = marker_model();
  for (auto& v : m.vertices) {
    v.position[0] += 3;
    v.bones = {1, -1, -1, -1};
  }
  m.materials[0].flags = pmx::kDoubleSided;
  pmx::Bone hair;
  hair.name = text("髪");
  hair.position = {3, 10, 0};
  hair.parent = 0;
  hair.flags = pmx::kRotatable | pmx::kVisible | pmx::kOperable;
  m.bones.push_back(hair);
  pmx::RigidBody anchor;
  anchor.name = text("anchor");
  anchor.bone = 0;
  anchor.group = 0;
  anchor.collision_mask = 0;
  anchor.shape = 0;
  anchor.size = {0.5f, 0, 0};
  anchor.position = {0, 10, 0};
  anchor.mass = 1;
  anchor.mode = 0;
  pmx::RigidBody bob = anchor;
  bob.name = text("bob");
  bob.bone = 1;
  bob.group = 1;
  bob.position = {3, 10, 0};
  bob.linear_damping = damping;
  bob.angular_damping = damping;
  bob.mode = 1;
  m.rigid_bodies = {anchor, bob};
  pmx::Joint j;
  j.name = text("hinge");
  j.rigid_body_a = 0;
  j.rigid_body_b = 1;
  j.position = {0, 10, 0};
  j.angular_lower = {0, 0, 1};  // lower > upper: free about Z (Bullet's rule)
  j.angular_upper = {0, 0, -1};
  m.joints.push_back(j);
  return m;
}

// Physics is on by default for a model with rigid bodies (as in MMD): the bob hangs below the
// hinge; --no-physics leaves it where the bone puts it; --physics is the default.
TEST_F(RenderCli, PhysicsIsOnByDefaultForAModelWithRigidBodies) {
  const fs::path pend = dir / "pendulum.pmx";
  ASSERT_TRUE(write_file_atomic(pend, *pmx::write(pendulum_model())));
  const int w = 160, h = 120;
  auto run_png = [&](const std::string& name, std::vector<std::string> extra) {
    auto args = small();
    args.insert(args.begin(), {pend.string(), "--frame", "300", "-o", (dir / name).string()});
    args.insert(args.end(), extra.begin(), extra.end());
    auto r = render(args);
    EXPECT_EQ(r.code, 0) << r.err;
    return dir / name;
  };
  const auto off = centroid(run_png("off.png", {"--no-physics"}));
  const auto on = centroid(run_png("on.png", {}));
  const auto forced = run_png("forced.png", {"--physics"});
  const auto at_bone = project(3, 10, 0, w, h), hanging = project(0, 7, 0, w, h);
  EXPECT_NEAR(off[0], at_bone[0], 0.75);
  EXPECT_NEAR(off[1], at_bone[1], 0.75);
  EXPECT_NEAR(on[0], hanging[0], 1.5);
  EXPECT_NEAR(on[1], hanging[1], 1.5);
  EXPECT_TRUE(test::slurp(dir / "on.png") == test::slurp(forced));
  // Frames off the half-frame grid cannot be simulated: a usage error that names --no-physics.
  auto quarter = render({pend.string(), "--frame", "0.25", "--size", "64x48", "-o", (dir / "q.png").string()});
  EXPECT_EQ(quarter.code, 2);
  EXPECT_NE(quarter.err.find("--no-physics"), std::string::npos) << quarter.err;
  EXPECT_EQ(render({pend.string(), "--frame", "0.25", "--no-physics", "--size", "64x48", "-o", (dir / "q.png").string()}).code, 0);
}

// --fps 60 advances physics by half frames: output frame 2k of a 60 fps run is output frame k of
// the 30 fps run (the kinematic body is at rest, so both runs move it identically), byte for
// byte; the odd frames are in between (an undamped pendulum keeps swinging: about 15 pixels a
// frame here).
TEST_F(RenderCli, SixtyFpsPhysicsStepsHalfFramesAndMatchesThirtyFps) {
  const fs::path pend = dir / "pendulum.pmx";
  ASSERT_TRUE(write_file_atomic(pend, *pmx::write(pendulum_model(0.0f))));
  fs::create_directories(dir / "f30");
  fs::create_directories(dir / "f60");
  for (const char* fps : {"30", "60"}) {
    auto args = small();
    args.insert(args.begin(), {pend.string(), "--frames", "0-6", "--fps", fps, "-o", (dir / ("f" + std::string(fps)) / "%03d.png").string()});
    auto r = render(args);
    ASSERT_EQ(r.code, 0) << r.err;
    // The summary names the files the pattern gave, first .. last (not the pattern).
    const std::string last = std::string(fps) == "30" ? "006.png" : "012.png";
    const fs::path folder = dir / ("f" + std::string(fps));
    EXPECT_NE(r.err.find("mmdkit render: wrote " + (folder / "000.png").string() + " .. " + (folder / last).string() + " ("),
              std::string::npos)
        << r.err;
  }
  auto png = [&](const char* sub, int i) {
    char name[16];
    std::snprintf(name, sizeof name, "%03d.png", i);
    return test::slurp(dir / sub / name);
  };
  ASSERT_FALSE(png("f30", 6).empty());
  ASSERT_FALSE(png("f60", 12).empty());
  EXPECT_FALSE(fs::exists(dir / "f60" / "013.png"));
  for (int k = 0; k <= 6; ++k) EXPECT_TRUE(png("f60", 2 * k) == png("f30", k)) << "frame " << k;
  for (int k = 0; k < 6; ++k) {
    EXPECT_FALSE(png("f30", k) == png("f30", k + 1)) << "frames " << k << " and " << k + 1;
    EXPECT_FALSE(png("f60", 2 * k + 1) == png("f30", k)) << "frame " << k << ".5";
    EXPECT_FALSE(png("f60", 2 * k + 1) == png("f30", k + 1)) << "frame " << k << ".5";
  }
}

TEST_F(RenderCli, SigtermRemovesTheTemporaryVideo) {
  // A long render in a child process, stopped after its first frames.
  const fs::path out = dir / "long.mp4";
  const std::string bin = test::cli_path().string();
  const pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    const std::string err_path = (dir / "stderr.txt").string();
    freopen(err_path.c_str(), "w", stderr);
    execl(bin.c_str(), bin.c_str(), "render", model.c_str(), motion.c_str(), "--frames", "0-100000", "--size", "64x64",
          "--msaa", "1", "-o", out.c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  // Wait until the temporary file exists, then stop the render.
  bool started = false;
  for (int i = 0; i < 600 && !started; ++i) {
    for (const auto& e : fs::directory_iterator(dir))
      started = started || e.path().filename().string().find("long.mp4.tmp") != std::string::npos;
    if (!started) usleep(50000);
  }
  EXPECT_TRUE(started);
  usleep(200000);
  kill(pid, SIGTERM);
  int status = 0;
  waitpid(pid, &status, 0);
  // The interrupt registry (core/interrupt.hpp) removed the file and ended the process by the signal.
  ASSERT_TRUE(WIFSIGNALED(status)) << "status " << status << ": " << test::slurp(dir / "stderr.txt");
  EXPECT_EQ(WTERMSIG(status), SIGTERM);
  EXPECT_FALSE(fs::exists(out));
  for (const auto& e : fs::directory_iterator(dir))
    EXPECT_EQ(e.path().filename().string().find(".tmp"), std::string::npos) << e.path();
}

}  // namespace
}  // namespace mmdkit::cli

#endif  // MMDKIT_HAS_RENDER
