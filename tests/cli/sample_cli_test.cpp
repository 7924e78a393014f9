// `mmdkit sample` through cmd_sample(): frame lists, JSON and binary output with analytic values,
// morphs and camera, errors and exit codes. Inputs are generated in code (humanoid PMX, VMD).
#include <gtest/gtest.h>
#include <rapidjson/document.h>

#include <cstring>
#include <filesystem>
#include <sstream>

#include "cli/app.hpp"
#include "cli/cmd_sample.hpp"
#include "mmdkit/core/file.hpp"
#include "mmdkit/core/text.hpp"
#include "mmdkit/formats/pmx.hpp"
#include "mmdkit/formats/pmx_generate.hpp"
#include "mmdkit/formats/vmd.hpp"
#include "support/corpus.hpp"

namespace mmdkit::cli {
namespace {

namespace fs = std::filesystem;

struct SampleRun {
  int code = -1;
  std::string out, err;
};

SampleRun run(const std::vector<std::string>& args) {
  std::vector<const char*> argv{"mmdkit-sample"};
  for (const auto& a : args) argv.push_back(a.c_str());
  std::ostringstream out, err;
  SampleRun r;
  r.code = cmd_sample(static_cast<int>(argv.size()), argv.data(), out, err);
  r.out = out.str();
  r.err = err.str();
  return r;
}

std::vector<std::uint8_t> cp932(const char* utf8) { return *encode_text(utf8, Encoding::cp932); }

struct Files {
  fs::path dir, model, motion;
  pmx::Model pmx;
};

// A generated humanoid PMX and a VMD that moves 全ての親 by (1,2,3) at frame 0 and (3,2,1) at
// frame 10 (linear), keys morph あ 0.5 → 1.0 over frames 0..10 and has one camera key.
const Files& files() {
  static const Files f = [] {
    Files x;
    x.dir = test::temp_dir("sample_cli");
    pmx::GenerateOptions o;
    o.vertices = 16;
    o.morphs = 8;
    x.pmx = *pmx::generate(o);
    x.model = x.dir / "model.pmx";
    EXPECT_TRUE(write_file_atomic(x.model, *pmx::write(x.pmx)).has_value());
    vmd::Motion m;
    vmd::TrackName root;
    root.raw = cp932("全ての親");
    m.bone_names = {root};
    vmd::TrackName a;
    a.raw = cp932("あ");
    m.morph_names = {a};
    const auto lin = vmd::encode_bone_interpolation(vmd::kLinearCurve, vmd::kLinearCurve, vmd::kLinearCurve,
                                                    vmd::kLinearCurve);
    m.bone_keys = {vmd::BoneKey{0, 0, {1, 2, 3}, {0, 0, 0, 1}, lin}, vmd::BoneKey{0, 10, {3, 2, 1}, {0, 0, 0, 1}, lin}};
    m.morph_keys = {vmd::MorphKey{0, 0, 0.5f}, vmd::MorphKey{0, 10, 1.0f}};
    vmd::CameraKey c;
    c.frame = 0;
    c.distance = -30;
    c.target = {0, 12, 0};
    c.view_angle = 40;
    m.camera_keys = {c};
    x.motion = x.dir / "motion.vmd";
    EXPECT_TRUE(write_file_atomic(x.motion, *vmd::write(m)).has_value());
    return x;
  }();
  return f;
}

TEST(SampleFrames, ListsAndRanges) {
  std::vector<double> f;
  ASSERT_TRUE(parse_frame_list("0-10:5", f));
  EXPECT_EQ(f, (std::vector<double>{0, 5, 10}));
  ASSERT_TRUE(parse_frame_list("0,15,30", f));
  EXPECT_EQ(f, (std::vector<double>{0, 15, 30}));
  ASSERT_TRUE(parse_frame_list("1.5,2-3:0.5", f));
  EXPECT_EQ(f, (std::vector<double>{1.5, 2, 2.5, 3}));
  for (const char* bad : {"", "a", "5-1", "0-1:0", "0-1:-1", "-3", "1,,2", "0-100000000:0.001"})
    EXPECT_FALSE(parse_frame_list(bad, f)) << bad;
}

// Issue 13 item 6: each refusal says why, the limits are named, huge single frames are refused.
TEST(SampleFrames, RefusalsSayWhyAndNameTheLimit) {
  std::vector<double> f;
  const std::pair<const char*, const char*> cases[] = {
      {"", "the list is empty"},
      {"a", "frame 'a' is not a number"},
      {"5-1", "range '5-1' ends before it starts"},
      {"0-1:0", "the step of '0-1:0' is not > 0"},
      {"-3", "'-3': a frame is never negative"},
      {"1,,2", "an empty item between commas"},
      {"100000000000", "frame '100000000000' is beyond the last frame a VMD can hold (4294967295)"},
      {"0-4294967296", "range end '4294967296' is beyond the last frame a VMD can hold (4294967295)"},
      {"0-100000000:0.001", "range '0-100000000:0.001' has more than 10000000 frames"},
  };
  for (const auto& [text, reason] : cases) {
    std::string why;
    EXPECT_FALSE(parse_frame_list(text, f, &why)) << text;
    EXPECT_NE(why.find(reason), std::string::npos) << text << ": " << why;
    EXPECT_TRUE(f.empty()) << text;
  }
  ASSERT_TRUE(parse_frame_list("4294967295", f));  // the last frame itself is fine
  EXPECT_EQ(f, (std::vector<double>{4294967295.0}));
}

TEST(SampleCli, JsonHasThePeersShapeAndAnalyticPositions) {
  const Files& x = files();
  SampleRun r = run({x.model.string(), x.motion.string(), "--frames", "0,5,10", "--bones", "全ての親,頭,左足首"});
  ASSERT_EQ(r.code, 0) << r.err;
  rapidjson::Document d;
  d.Parse(r.out.c_str());
  ASSERT_FALSE(d.HasParseError());
  ASSERT_TRUE(d["frames"].IsArray());
  ASSERT_EQ(d["frames"].Size(), 3u);
  const float shift[3][3] = {{1, 2, 3}, {2, 2, 2}, {3, 2, 1}};  // linear between the keys
  const char* names[] = {"全ての親", "頭", "左足首"};
  for (rapidjson::SizeType fi = 0; fi < 3; ++fi) {
    const auto& fr = d["frames"][fi];
    EXPECT_EQ(fr["frame"].GetDouble(), fi * 5.0);
    ASSERT_EQ(fr["bones"].Size(), 3u);
    for (rapidjson::SizeType k = 0; k < 3; ++k) {
      const auto& b = fr["bones"][k];
      EXPECT_STREQ(b["name"].GetString(), names[k]);
      const int index = b["index"].GetInt();
      const auto& bind = x.pmx.bones[static_cast<std::size_t>(index)].position;
      for (rapidjson::SizeType c = 0; c < 3; ++c) {
        EXPECT_NEAR(b["position"][c].GetDouble(), bind[c] + shift[fi][c], 1e-4) << names[k] << " frame " << fi * 5;
        EXPECT_NEAR(b["matrix"][12 + c].GetDouble(), bind[c] + shift[fi][c], 1e-4);
      }
      EXPECT_NEAR(b["quaternion"][3].GetDouble(), 1.0, 1e-6);
      EXPECT_EQ(b["matrix"].Size(), 16u);
    }
  }
}

TEST(SampleCli, MorphsAndCamera) {
  const Files& x = files();
  SampleRun r = run({x.model.string(), x.motion.string(), "--frames", "5", "--bones", "頭", "--morphs", "--camera"});
  ASSERT_EQ(r.code, 0) << r.err;
  rapidjson::Document d;
  d.Parse(r.out.c_str());
  ASSERT_FALSE(d.HasParseError());
  const auto& fr = d["frames"][0];
  bool found = false;
  for (const auto& m : fr["morphs"].GetArray())
    if (std::string(m["name"].GetString()) == "あ") {
      EXPECT_NEAR(m["weight"].GetDouble(), 0.75, 1e-6);
      found = true;
    }
  EXPECT_TRUE(found);
  EXPECT_NEAR(fr["camera"]["target"][1].GetDouble(), 12.0, 1e-6);
  EXPECT_NEAR(fr["camera"]["distance"].GetDouble(), -30.0, 1e-6);
  EXPECT_NEAR(fr["camera"]["fov"].GetDouble(), 40.0, 1e-6);
  // Eye at target + (0, 0, distance) with no rotation.
  EXPECT_NEAR(fr["camera"]["position"][2].GetDouble(), -30.0, 1e-5);
}

// The JSON's "options" say what was asked (a reader of the file alone can tell whether "morphs"
// and "camera" are missing because they were not asked for).
TEST(SampleCli, OptionsSayWhatWasAsked) {
  const Files& x = files();
  for (const bool flags : {false, true}) {
    std::vector<std::string> args{x.model.string(), x.motion.string(), "--frames", "0", "--bones", "頭"};
    if (flags) args.insert(args.end(), {"--morphs", "--camera", "--no-ik"});
    SampleRun r = run(args);
    ASSERT_EQ(r.code, 0) << r.err;
    rapidjson::Document d;
    d.Parse(r.out.c_str());
    ASSERT_FALSE(d.HasParseError());
    const auto& o = d["options"];
    EXPECT_EQ(o["ik"].GetBool(), !flags);
    EXPECT_FALSE(o["physics"].GetBool());
    EXPECT_EQ(o["morphs"].GetBool(), flags);
    EXPECT_EQ(o["camera"].GetBool(), flags);
    EXPECT_EQ(d["frames"][0].HasMember("camera"), flags);
  }
}

// --camera on inputs without camera keys: MMD's default camera in every frame, and a warning that
// says so (a fresh user took it for a sampled camera); none when the motion has camera keys.
TEST(SampleCli, CameraWithoutCameraKeysWarns) {
  const Files& x = files();
  auto read = vmd::read_file(x.motion);
  ASSERT_TRUE(read.has_value());
  vmd::Motion m = read->motion;
  m.camera_keys.clear();
  const fs::path bare = x.dir / "no_camera.vmd";
  ASSERT_TRUE(write_file_atomic(bare, *vmd::write(m)).has_value());
  SampleRun r = run({x.model.string(), bare.string(), "--frames", "0,5", "--bones", "頭", "--camera"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.err.find("warning: --camera: no input has camera keys"), std::string::npos) << r.err;
  rapidjson::Document d;
  d.Parse(r.out.c_str());
  ASSERT_FALSE(d.HasParseError());
  for (const auto& fr : d["frames"].GetArray()) {  // MMD's initial camera (camera.hpp)
    EXPECT_EQ(fr["camera"]["target"][1].GetDouble(), 10.0);
    EXPECT_EQ(fr["camera"]["distance"].GetDouble(), -45.0);
    EXPECT_EQ(fr["camera"]["fov"].GetDouble(), 30.0);
  }
  SampleRun q = run({x.model.string(), bare.string(), "--frames", "0", "--camera", "-q"});
  EXPECT_EQ(q.err.find("warning"), std::string::npos) << q.err;
  SampleRun k = run({x.model.string(), x.motion.string(), "--frames", "0", "--camera"});
  ASSERT_EQ(k.code, 0) << k.err;
  EXPECT_EQ(k.err.find("--camera"), std::string::npos) << k.err;
}

TEST(SampleCli, BinaryLayout) {
  const Files& x = files();
  const fs::path out = x.dir / "out.bin";
  SampleRun r = run({x.model.string(), x.motion.string(), "--frames", "0,10", "--bones", "頭", "--format", "binary", "-o",
               out.string(), "--force"});
  ASSERT_EQ(r.code, 0) << r.err;
  const auto b = test::read_bytes(out);
  ASSERT_GE(b.size(), 32u);
  EXPECT_EQ(std::memcmp(b.data(), "MMDKSMP1", 8), 0);
  auto u32 = [&](std::size_t o) {
    std::uint32_t v;
    std::memcpy(&v, b.data() + o, 4);
    return v;
  };
  EXPECT_EQ(u32(8), 1u);   // version
  EXPECT_EQ(u32(12), 2u);  // frames
  EXPECT_EQ(u32(16), 1u);  // bones
  EXPECT_EQ(u32(20), 0u);  // morphs
  EXPECT_EQ(u32(24), 0u);  // no camera
  const std::uint32_t head = u32(32);
  const std::uint32_t len = u32(36);
  EXPECT_EQ(std::string(reinterpret_cast<const char*>(b.data() + 40), len), "頭");
  std::size_t o = 40 + len;
  const std::size_t frame_size = 8 + 16 * 4;
  ASSERT_EQ(b.size(), o + 2 * frame_size);
  const auto& bind = x.pmx.bones[head].position;
  for (int fi = 0; fi < 2; ++fi, o += frame_size) {
    double f;
    std::memcpy(&f, b.data() + o, 8);
    EXPECT_EQ(f, fi * 10.0);
    float m[16];
    std::memcpy(m, b.data() + o + 8, sizeof m);
    EXPECT_NEAR(m[12], bind[0] + (fi ? 3.0f : 1.0f), 1e-4f);
    EXPECT_NEAR(m[14], bind[2] + (fi ? 1.0f : 3.0f), 1e-4f);
    EXPECT_EQ(m[15], 1.0f);
  }
}

TEST(SampleCli, ErrorsAndExitCodes) {
  const Files& x = files();
  EXPECT_EQ(run({(x.dir / "missing.pmx").string()}).code, kExitBadInput);
  EXPECT_EQ(run({x.model.string(), x.motion.string(), "--frames", "9-1"}).code, kExitUsage);
  SampleRun r = run({x.model.string(), "--bones", "no such bone"});
  EXPECT_EQ(r.code, kExitUsage);
  EXPECT_NE(r.err.find("no such bone"), std::string::npos);
  EXPECT_EQ(run({x.model.string(), "--format", "xml"}).code, kExitUsage);
  r = run({x.motion.string()});  // a motion is not a model
  EXPECT_EQ(r.code, kExitBadInput);
  EXPECT_NE(r.err.find("not a PMD, PMX or .x model: a vmd file"), std::string::npos) << r.err;
  // An output may not replace an input without --force.
  r = run({x.model.string(), x.motion.string(), "--frames", "0", "-o", x.motion.string()});
  EXPECT_EQ(r.code, kExitBadInput);
  EXPECT_NE(r.err.find("is an input file"), std::string::npos) << r.err;
  // No motion: rest pose at frame 0, every bone at its bind position.
  SampleRun rest = run({x.model.string(), "--bones", "頭"});
  ASSERT_EQ(rest.code, 0);
  rapidjson::Document d;
  d.Parse(rest.out.c_str());
  ASSERT_EQ(d["frames"].Size(), 1u);
}

TEST(SampleCli, CorpusMikuAtRestMatchesBindPositions) {
  MMDKIT_REQUIRE_CORPUS();
  auto f = test::corpus_file("jomin398__jomin398.github.io/docs/assets/models/mmd/miku_v2/miku_v2.pmd");
  if (!f) GTEST_SKIP() << "miku_v2.pmd not in the corpus";
  SampleRun r = run({f->path.string(), "--bones", "左足首,頭"});
  ASSERT_EQ(r.code, 0) << r.err;
  rapidjson::Document d;
  d.Parse(r.out.c_str());
  ASSERT_FALSE(d.HasParseError());
  // Bind heads of miku_v2 (read from the file by an independent Python struct script).
  const auto& bones = d["frames"][0]["bones"];
  EXPECT_NEAR(bones[1]["position"][1].GetDouble(), 16.798503875732422, 1e-5);
  EXPECT_STREQ(bones[0]["name"].GetString(), "左足首");
}

}  // namespace
}  // namespace mmdkit::cli
