// `pose` and `sample` share one pipeline (anim/character.hpp): the same bone transforms for the
// same inputs, bit for bit (a bone morph keyed by a motion, a VPD naming one of two bones whose
// names share their first 15 bytes, corpus model + motion pairs); one input rule (VMDs + one VPD,
// by content, binary or JSON); tracks that match nothing are reported (--quiet silences).
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <sstream>

#include "cli/app.hpp"
#include "cli/cmd_pose.hpp"
#include "cli/cmd_sample.hpp"
#include "mmdkit/anim/character.hpp"
#include "mmdkit/anim/input_files.hpp"
#include "mmdkit/core/file.hpp"
#include "mmdkit/core/number.hpp"
#include "mmdkit/core/text.hpp"
#include "mmdkit/formats/pmx.hpp"
#include "mmdkit/formats/pmx_generate.hpp"
#include "mmdkit/formats/pmx_json.hpp"
#include "mmdkit/formats/vmd.hpp"
#include "mmdkit/formats/vmd_json.hpp"
#include "mmdkit/formats/vpd.hpp"
#include "support/cli_run.hpp"
#include "support/corpus.hpp"

namespace mmdkit::cli {
namespace {

namespace fs = std::filesystem;

struct CmdRun {
  int code = -1;
  std::string out, err;
};

CmdRun run(int (*cmd)(int, const char* const*, std::ostream&, std::ostream&), const std::vector<std::string>& args) {
  std::vector<const char*> argv{"mmdkit"};
  for (const auto& a : args) argv.push_back(a.c_str());
  std::ostringstream out, err;
  CmdRun r;
  r.code = cmd(static_cast<int>(argv.size()), argv.data(), out, err);
  r.out = out.str();
  r.err = err.str();
  return r;
}

std::vector<std::uint8_t> cp932(const std::string& utf8) { return *encode_text(utf8, Encoding::cp932); }

// Two names whose CP932 forms share their first 15 bytes (7 double-byte characters + the lead
// byte of the 8th).
const std::string kLong1 = "左腕捩れ補助ボーン１";
const std::string kLong2 = "左腕捩れ補助ボーン２";

struct Files {
  fs::path dir, model, motion, pose;
  pmx::Model pmx;
  std::string bone_morph;  // name of the generated model's first bone morph
  std::uint32_t long1 = 0, long2 = 0;
};

// A generated humanoid PMX whose 左ひじ / 右ひじ are renamed kLong1 / kLong2; a VMD turning 全ての親
// and keying the first bone morph 0 → 1 over frames 0..10 plus a track no bone has; a VPD turning
// kLong2 (named whole) 90° about X.
const Files& files() {
  static const Files f = [] {
    Files x;
    x.dir = test::temp_dir("pipeline_cli");
    pmx::GenerateOptions o;
    o.vertices = 400;
    o.morphs = 8;
    x.pmx = *pmx::generate(o);
    for (std::size_t i = 0; i < x.pmx.bones.size(); ++i) {
      if (x.pmx.bones[i].name.text == "左ひじ") {
        x.pmx.bones[i].name.assign(kLong1);
        x.long1 = static_cast<std::uint32_t>(i);
      } else if (x.pmx.bones[i].name.text == "右ひじ") {
        x.pmx.bones[i].name.assign(kLong2);
        x.long2 = static_cast<std::uint32_t>(i);
      }
    }
    for (const pmx::Morph& m : x.pmx.morphs)
      if (m.type == pmx::MorphType::bone && !m.bone_offsets.empty() && x.bone_morph.empty()) x.bone_morph = m.name.text;
    x.model = x.dir / "model.pmx";
    EXPECT_TRUE(write_file_atomic(x.model, *pmx::write(x.pmx)).has_value());

    vmd::Motion m;
    vmd::TrackName root, nobody, morph;
    root.raw = cp932("全ての親");
    nobody.raw = cp932("尻尾");
    nobody.text = "尻尾";
    morph.raw = cp932(x.bone_morph);
    m.bone_names = {root, nobody};
    m.morph_names = {morph};
    const auto lin = vmd::encode_bone_interpolation(vmd::kLinearCurve, vmd::kLinearCurve, vmd::kLinearCurve,
                                                    vmd::kLinearCurve);
    const float h = std::sqrt(0.5f);
    m.bone_keys = {vmd::BoneKey{0, 0, {0, 0, 0}, {0, 0, 0, 1}, lin}, vmd::BoneKey{0, 10, {1, 0, 0}, {0, h, 0, h}, lin},
                   vmd::BoneKey{1, 0, {0, 1, 0}, {0, 0, 0, 1}, lin}};
    m.morph_keys = {vmd::MorphKey{0, 0, 0.0f}, vmd::MorphKey{0, 10, 1.0f}};
    x.motion = x.dir / "motion.vmd";
    EXPECT_TRUE(write_file_atomic(x.motion, *vmd::write(m)).has_value());

    vpd::Pose p;
    p.bones.resize(1);
    p.bones[0].name.raw = cp932(kLong2);
    p.bones[0].name.text = kLong2;
    p.bones[0].rotation = {h, 0, 0, h};
    x.pose = x.dir / "pose.vpd";
    EXPECT_TRUE(write_file_atomic(x.pose, *vpd::write(p)).has_value());
    return x;
  }();
  return f;
}

// sample --format binary → per frame, per bone: the 16 floats.
std::vector<std::vector<Mat4>> sample_matrices(const std::vector<std::string>& inputs, const std::string& frames,
                                                     std::string* err = nullptr) {
  std::vector<std::string> args = inputs;
  args.insert(args.end(), {"--frames", frames, "--format", "binary"});
  const CmdRun r = run(cmd_sample, args);
  if (err) *err = r.err;
  EXPECT_EQ(r.code, 0) << r.err;
  std::vector<std::vector<Mat4>> out;
  if (r.code != 0 || r.out.size() < 32) return out;
  const char* p = r.out.data();
  std::uint32_t frames_n, bones_n, morphs_n;
  std::memcpy(&frames_n, p + 12, 4);
  std::memcpy(&bones_n, p + 16, 4);
  std::memcpy(&morphs_n, p + 20, 4);
  p += 32;
  for (std::uint32_t b = 0; b < bones_n; ++b) {
    std::uint32_t len;
    std::memcpy(&len, p + 4, 4);
    p += 8 + len;
  }
  for (std::uint32_t f = 0; f < frames_n; ++f) {
    p += 8;
    std::vector<Mat4> mats(bones_n);
    std::memcpy(mats.data(), p, bones_n * sizeof(Mat4));
    p += bones_n * sizeof(Mat4) + morphs_n * 4;
    out.push_back(std::move(mats));
  }
  return out;
}

// What `pose` evaluates: the library pipeline on the model WITH geometry.
std::vector<std::vector<Mat4>> pose_path_matrices(const fs::path& model, const std::vector<fs::path>& motions,
                                                        const std::vector<double>& frames) {
  auto loaded = anim::load_character(model, motions, anim::InputOptions{.encoding = {}, .geometry = true});
  EXPECT_TRUE(loaded) << loaded.error().to_string();
  std::vector<std::vector<Mat4>> out;
  if (!loaded) return out;
  anim::Character c(loaded->data);
  for (double f : frames) {
    EXPECT_TRUE(c.evaluate(f));
    const auto m = c.pose().model_matrices();
    out.emplace_back(m.begin(), m.end());
  }
  return out;
}

bool same_bytes(const std::vector<std::vector<Mat4>>& a, const std::vector<std::vector<Mat4>>& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (a[i].size() != b[i].size() || std::memcmp(a[i].data(), b[i].data(), a[i].size() * sizeof(Mat4)) != 0)
      return false;
  return true;
}

std::vector<std::array<float, 3>> obj_vertices(const fs::path& p) {
  std::vector<std::array<float, 3>> v;
  std::istringstream in(test::slurp(p));
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("v ", 0) != 0) continue;
    std::istringstream l(line.substr(2));
    std::array<float, 3> a{};
    for (float& c : a) {
      std::string t;
      l >> t;
      c = static_cast<float>(*parse_float(t));
    }
    v.push_back(a);
  }
  return v;
}

TEST(PipelineCli, PoseAndSampleGiveTheSameBonesWithABoneMorphAndALongVpdName) {
  const Files& x = files();
  ASSERT_FALSE(x.bone_morph.empty()) << "the generated model has no bone morph";
  const std::vector<double> frames{0, 5, 7.5, 10};
  const auto sampled = sample_matrices({x.model.string(), x.motion.string(), x.pose.string()}, "0,5,7.5,10");
  const auto posed = pose_path_matrices(x.model, {x.motion, x.pose}, frames);
  ASSERT_EQ(sampled.size(), 4u);
  EXPECT_TRUE(same_bytes(sampled, posed));

  // The bone morph moves bones: sampling without it (weight 0 at frame 0) differs at frame 10.
  const auto& m10 = sampled[3];
  bool moved_by_morph = false;
  for (const pmx::Morph& m : x.pmx.morphs)
    if (m.name.text == x.bone_morph)
      for (const pmx::BoneOffset& o : m.bone_offsets)
        if (o.translation != pmx::Vec3{0, 0, 0} || o.rotation != pmx::Vec4{0, 0, 0, 1}) moved_by_morph = true;
  ASSERT_TRUE(moved_by_morph);
  {
    // Same motion without the morph track: the transforms must differ somewhere at frame 10.
    auto read = vmd::read_file(x.motion);
    ASSERT_TRUE(read);
    vmd::Motion m = std::move(read->motion);
    m.morph_keys.clear();
    const fs::path no_morph = x.dir / "no_morph.vmd";
    ASSERT_TRUE(write_file_atomic(no_morph, *vmd::write(m)).has_value());
    const auto plain = sample_matrices({x.model.string(), no_morph.string(), x.pose.string()}, "10");
    ASSERT_EQ(plain.size(), 1u);
    EXPECT_NE(std::memcmp(plain[0].data(), m10.data(), m10.size() * sizeof(Mat4)), 0);
  }

  // The VPD names kLong2 whole: kLong2 turns 90° about X relative to its parent, kLong1 (same
  // first 15 bytes) does not. At frame 0 the root is at rest, so the model rotation of kLong1
  // is its parent chain's (identity here) and kLong2's has the X turn: matrix element [5]
  // (Y·Y) = cos 90° = 0 for kLong2, 1 for kLong1.
  EXPECT_NEAR(sampled[0][x.long2][5], 0.0f, 1e-6f);
  EXPECT_NEAR(sampled[0][x.long1][5], 1.0f, 1e-6f);

  // pose's OBJ at frame 7.5: every BDEF1 vertex = its bone's matrix (from sample) × the vertex
  // (no vertex morph is keyed).
  const fs::path obj = x.dir / "posed.obj";
  const CmdRun r = run(cmd_pose, {x.model.string(), x.motion.string(), x.pose.string(), "--frame", "7.5", "-o",
                               obj.string(), "--force"});
  ASSERT_EQ(r.code, 0) << r.err;
  const auto v = obj_vertices(obj);
  ASSERT_EQ(v.size(), x.pmx.vertices.size());
  std::size_t checked = 0;
  for (std::size_t i = 0; i < v.size(); ++i) {
    const pmx::Vertex& pv = x.pmx.vertices[i];
    if (pv.deform != pmx::DeformType::bdef1) continue;
    const auto b = static_cast<std::size_t>(pv.bones[0]);
    const Mat4& M = sampled[2][b];
    const auto& bind = x.pmx.bones[b].position;
    const float d[3] = {pv.position[0] - bind[0], pv.position[1] - bind[1], pv.position[2] - bind[2]};
    for (int c = 0; c < 3; ++c) {
      const float want = M[c] * d[0] + M[4 + c] * d[1] + M[8 + c] * d[2] + M[12 + c];
      EXPECT_NEAR(v[i][c], want, 1e-4f) << "vertex " << i;
    }
    ++checked;
  }
  EXPECT_GT(checked, 50u);
}

// The same files as mmdkit JSON (told apart by content, whatever their names) give the same bytes.
TEST(PipelineCli, JsonInputsAreAcceptedWhereverAFileIs) {
  const Files& x = files();
  const fs::path mj = x.dir / "model_as.json", vj = x.dir / "motion_as.txt";
  auto model = pmx::read_file(x.model);
  auto motion = vmd::read_file(x.motion);
  ASSERT_TRUE(model && motion);
  ASSERT_TRUE(write_file_atomic(mj, std::string_view(pmx::to_json(model->model))).has_value());
  ASSERT_TRUE(write_file_atomic(vj, std::string_view(vmd::to_json(motion->motion))).has_value());
  const auto a = sample_matrices({x.model.string(), x.motion.string()}, "0-10:2.5");
  const auto b = sample_matrices({mj.string(), vj.string()}, "0-10:2.5");
  ASSERT_EQ(a.size(), 5u);
  EXPECT_TRUE(same_bytes(a, b));
  const fs::path o1 = x.dir / "bin.obj", o2 = x.dir / "json.obj";
  ASSERT_EQ(run(cmd_pose, {x.model.string(), x.motion.string(), "--frame", "4", "-o", o1.string(), "--force"}).code, 0);
  const CmdRun r = run(cmd_pose, {mj.string(), vj.string(), "--frame", "4", "-o", o2.string(), "--force"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(obj_vertices(o1), obj_vertices(o2));
}

// One input rule for both commands: VMDs plus one VPD anywhere; a second VPD is a usage error;
// sample honours --frames with a pose.
TEST(PipelineCli, OneInputRuleForPoseAndSample) {
  const Files& x = files();
  const auto m = sample_matrices({x.model.string(), x.pose.string(), x.motion.string()}, "0,10");
  EXPECT_EQ(m.size(), 2u);
  const auto alone = sample_matrices({x.model.string(), x.pose.string()}, "0,3,6");
  EXPECT_EQ(alone.size(), 3u);
  CmdRun r = run(cmd_sample, {x.model.string(), x.pose.string(), x.pose.string()});
  EXPECT_EQ(r.code, kExitUsage) << r.err;
  EXPECT_NE(r.err.find("second VPD"), std::string::npos) << r.err;
  r = run(cmd_pose, {x.model.string(), x.pose.string(), x.motion.string(), x.pose.string(), "-o",
                     (x.dir / "two.obj").string(), "--force"});
  EXPECT_EQ(r.code, kExitUsage) << r.err;
  EXPECT_NE(r.err.find("second VPD"), std::string::npos) << r.err;
}

TEST(PipelineCli, TracksThatMatchNothingAreReportedUnlessQuiet) {
  const Files& x = files();
  CmdRun r = run(cmd_sample, {x.model.string(), x.motion.string(), "--frames", "0", "-o", (x.dir / "s.json").string(),
                           "--force"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.err.find("mmdkit: warning: " + x.motion.string() +
                       ": 1 bone track of the motion matches no bone of the model and is ignored: '尻尾'\n"),
            std::string::npos)
      << r.err;
  EXPECT_EQ(r.err.find("morph track"), std::string::npos) << r.err;
  r = run(cmd_sample, {x.model.string(), x.motion.string(), "--frames", "0", "-o", (x.dir / "s.json").string(),
                       "--force", "--quiet"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.err, "");
  r = run(cmd_pose, {x.model.string(), x.motion.string(), "-o", (x.dir / "q.obj").string(), "--force"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.err.find("1 bone track"), std::string::npos) << r.err;
}

// Corpus model + motion pairs: sample (geometry-free) and the pose path (full view) agree bit for
// bit on every bone at frames across the motion.
TEST(PipelineCli, CorpusPairsPoseAndSampleAgreeBitForBit) {
  MMDKIT_REQUIRE_CORPUS();
  const std::pair<const char*, const char*> pairs[] = {
      {"jomin398__jomin398.github.io/docs/assets/models/mmd/miku_v2/miku_v2.pmd",
       "moeru-ai__three-mmd/examples/vanilla/src/assets/vmds/wavefile_v2.vmd"},
      {"mmdagent__mmdagent-mirror/MMDAgent_Example/Model/mei/mei.pmd",
       "mmdagent__mmdagent-mirror/MMDAgent_Example/Motion/mei_greeting/mei_greeting.vmd"},
      {"miu200521358__mmd_base/test/resources/サンプルモデル.pmx",
       "miu200521358__mmd_base/tests/resources/サンプルモーション2.vmd"},
  };
  std::size_t done = 0;
  for (const auto& [mp, vp] : pairs) {
    auto mf = test::corpus_file(mp);
    auto vf = test::corpus_file(vp);
    if (!mf || !vf) continue;
    std::vector<double> frames;
    for (double f = 0; f <= 600; f += 37.5) frames.push_back(f);
    const auto sampled = sample_matrices({mf->path.string(), vf->path.string(), "--quiet"}, "0-600:37.5");
    const auto posed = pose_path_matrices(mf->path, {vf->path}, frames);
    ASSERT_EQ(sampled.size(), frames.size()) << mp;
    EXPECT_TRUE(same_bytes(sampled, posed)) << mp;
    ++done;
  }
  EXPECT_GE(done, 2u);
}

}  // namespace
}  // namespace mmdkit::cli
