// The built `mmdkit` binary on `from-keypoints`: bad input exits 1 naming the file and the place
// (array shape, joint count, a CSV line and column, a joint never seen), usage exits 2 (layout,
// axes), and a joint missing in some frames is held at its last valid position: the output is
// byte for byte the output of the same file with those positions filled in by hand.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "mmdkit/anim/character.hpp"
#include "mmdkit/core/file.hpp"
#include "mmdkit/formats/pmx.hpp"
#include "mmdkit/formats/pmx_generate.hpp"
#include "mmdkit/formats/vmd.hpp"
#include "mmdkit/formats/vmd_generate.hpp"
#include "mmdkit/model/model.hpp"
#include "mmdkit/motion/keypoints.hpp"
#include "support/cli_run.hpp"

namespace mmdkit {
namespace {

namespace fs = std::filesystem;
using test::Outcome;
using test::quote;

/// An NPY 1.0 file of float32 values with `shape` (C order), written here byte by byte (NEP 1).
std::string npy(const std::string& shape, const std::vector<float>& values) {
  std::string header = "{'descr': '<f4', 'fortran_order': False, 'shape': " + shape + ", }";
  while ((10 + header.size() + 1) % 64 != 0) header += ' ';
  header += '\n';
  std::string out = "\x93NUMPY";
  out += '\x01';
  out += '\x00';
  out += static_cast<char>(header.size() & 0xff);
  out += static_cast<char>(header.size() >> 8);
  out += header;
  out.append(reinterpret_cast<const char*>(values.data()), values.size() * 4);
  return out;
}

/// A zip of stored members (np.savez's layout: local headers, the central directory not read).
std::string zip(const std::vector<std::pair<std::string, std::string>>& members) {
  std::string z;
  auto u16 = [&](std::uint32_t v) {
    z += static_cast<char>(v & 0xff);
    z += static_cast<char>((v >> 8) & 0xff);
  };
  auto u32 = [&](std::uint32_t v) {
    u16(v & 0xffff);
    u16(v >> 16);
  };
  for (const auto& [name, data] : members) {
    u32(0x04034b50);
    for (int k = 0; k < 5; ++k) u16(k == 0 ? 20 : 0);  // version, flags, method 0, time, date
    u32(0);                                             // CRC (not checked)
    u32(static_cast<std::uint32_t>(data.size()));
    u32(static_cast<std::uint32_t>(data.size()));
    u16(static_cast<std::uint32_t>(name.size()));
    u16(0);
    z += name + data;
  }
  u32(0x02014b50);
  return z;
}

class KeypointsCli : public test::CliTest {
 protected:
  KeypointsCli() : CliTest("keypoints_cli") {}
  Outcome go(const std::string& args) const {
    std::string out, word;
    std::istringstream in(args);
    while (in >> word) {
      for (const char* ext : {".pmx", ".vmd", ".npy", ".csv", ".json"})
        if (word.size() > 4 && word.ends_with(ext)) {
          word = quote((dir / word).string());
          break;
        }
      out += (out.empty() ? "" : " ") + word;
    }
    return run(out);
  }
  // The generated humanoid, and its h36m17 joints (MMD space) over 12 frames of a generated motion.
  void SetUp() override {
    pmx::GenerateOptions po;
    po.vertices = 0;
    auto p = pmx::generate(po);
    ASSERT_TRUE(p);
    ASSERT_TRUE(write_file_atomic(dir / "h.pmx", *pmx::write(*p)).has_value());
    auto view = model::from_pmx(*p, model::BuildOptions{false});
    ASSERT_TRUE(view);
    vmd::GenerateOptions o;
    o.frames = 12;
    o.bone_keys = 40;
    o.morph_keys = 0;
    const vmd::Motion m = vmd::generate(o);
    anim::MotionInputs in;
    in.motions = {&m};
    auto data = anim::CharacterData::create(std::make_shared<const model::Model>(std::move(*view)), in);
    ASSERT_TRUE(data);
    anim::Character ch(*data);
    for (std::uint32_t f = 0; f < kFrames; ++f) {
      ASSERT_TRUE(ch.evaluate(f));
      const auto j = motion::keypoints_on_model(ch, motion::KeypointLayout::h36m17);
      ASSERT_EQ(j.size(), 17u * 3);
      joints.insert(joints.end(), j.begin(), j.end());
    }
  }
  /// CSV of `joints`: one line per frame; entries of frame f, joint j left empty where drop(f, j).
  std::string csv(const std::vector<float>& values, bool (*drop)(std::uint32_t, std::uint32_t)) const {
    std::string t = "header\n";
    char buf[32];
    for (std::uint32_t f = 0; f < kFrames; ++f) {
      for (std::uint32_t j = 0; j < 17; ++j)
        for (int c = 0; c < 3; ++c) {
          if (j + c > 0) t += ',';
          if (drop && drop(f, j)) continue;
          std::snprintf(buf, sizeof buf, "%.9g", static_cast<double>(values[(f * 17 + j) * 3 + c]));
          t += buf;
        }
      t += '\n';
    }
    return t;
  }
  static constexpr std::uint32_t kFrames = 12;
  std::vector<float> joints;
};

// Frames 4..6 of the left elbow (joint 12) missing: held at frame 3's position.
TEST_F(KeypointsCli, MissingJointsAreHeldAtTheirLastPosition) {
  file("gap.csv", csv(joints, [](std::uint32_t f, std::uint32_t j) { return j == 12 && f >= 4 && f <= 6; }));
  std::vector<float> filled = joints;
  for (std::uint32_t f = 4; f <= 6; ++f)
    for (int c = 0; c < 3; ++c) filled[(f * 17 + 12) * 3 + c] = joints[(3 * 17 + 12) * 3 + c];
  file("filled.csv", csv(filled, nullptr));
  Outcome a = go("from-keypoints gap.csv --layout h36m17 --axes x,y,z --model h.pmx -o a.vmd");
  ASSERT_EQ(a.code, 0) << a.err;
  EXPECT_NE(a.err.find("3 missing joint positions held"), std::string::npos) << a.err;
  Outcome b = go("from-keypoints filled.csv --layout h36m17 --axes x,y,z --model h.pmx -o b.vmd");
  ASSERT_EQ(b.code, 0) << b.err;
  EXPECT_NE(b.err.find("0 missing joint positions held"), std::string::npos) << b.err;
  // The summary line of every writing command: "mmdkit from-keypoints: wrote OUT (12 frames, ...,
  // B bytes)", silenced by -q.
  EXPECT_TRUE(b.err.starts_with("mmdkit from-keypoints: wrote " + (dir / "b.vmd").string() + " (12 frames, ")) << b.err;
  EXPECT_TRUE(b.err.ends_with(", " + std::to_string(std::filesystem::file_size(dir / "b.vmd")) + " bytes)\n")) << b.err;
  EXPECT_EQ(go("from-keypoints filled.csv --layout h36m17 --axes x,y,z --model h.pmx --force -q -o b.vmd").err, "");
  EXPECT_FALSE(test::slurp(dir / "a.vmd").empty());
  EXPECT_TRUE(test::slurp(dir / "a.vmd") == test::slurp(dir / "b.vmd"));
  // Before the first valid one: the first. Frames 0..2 of joint 12 missing = frame 3's there.
  file("lead.csv", csv(joints, [](std::uint32_t f, std::uint32_t j) { return j == 12 && f <= 2; }));
  filled = joints;
  for (std::uint32_t f = 0; f <= 2; ++f)
    for (int c = 0; c < 3; ++c) filled[(f * 17 + 12) * 3 + c] = joints[(3 * 17 + 12) * 3 + c];
  file("lead_filled.csv", csv(filled, nullptr));
  ASSERT_EQ(go("from-keypoints lead.csv --layout h36m17 --axes x,y,z --model h.pmx -o c.vmd").code, 0);
  ASSERT_EQ(go("from-keypoints lead_filled.csv --layout h36m17 --axes x,y,z --model h.pmx -o d.vmd").code, 0);
  EXPECT_TRUE(test::slurp(dir / "c.vmd") == test::slurp(dir / "d.vmd"));
  // The same in NPY with NaN.
  std::vector<float> nan = joints;
  for (std::uint32_t f = 4; f <= 6; ++f)
    for (int c = 0; c < 3; ++c) nan[(f * 17 + 12) * 3 + c] = NAN;
  file("gap.npy", npy("(12, 17, 3)", nan));
  ASSERT_EQ(go("from-keypoints gap.npy --layout h36m17 --axes x,y,z --model h.pmx -o e.vmd").code, 0);
  EXPECT_TRUE(test::slurp(dir / "e.vmd") == test::slurp(dir / "b.vmd"));
}

TEST_F(KeypointsCli, BadInputExit1) {
  file("flat.npy", npy("(10, 24)", std::vector<float>(240, 0.0f)));
  Outcome r = go("from-keypoints flat.npy --layout smpl24 --model h.pmx -o o.vmd");
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("flat.npy"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("shape (10, 24)"), std::string::npos) << r.err;
  file("j17.npy", npy("(12, 17, 3)", joints));
  r = go("from-keypoints j17.npy --layout smpl24 --model h.pmx -o o.vmd");
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("layout smpl24 has 24 joints, the array 17"), std::string::npos) << r.err;
  r = go("from-keypoints j17.npy --layout mediapipe33 --model h.pmx -o o.vmd");
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("layout mediapipe33 has 33 joints, the array 17"), std::string::npos) << r.err;
  // A CSV line with a bad number: line and column named.
  std::string t = csv(joints, nullptr);
  t.replace(t.find('\n', t.find('\n') + 1) + 1, 1, "x");  // first character of line 3 (frame 1)
  file("bad.csv", t);
  r = go("from-keypoints bad.csv --layout h36m17 --model h.pmx -o o.vmd");
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("bad.csv"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("line 3"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("column 1"), std::string::npos) << r.err;
  // JSON: a joint of 2 numbers, named by frame and joint.
  file("bad.json", "[[[0,0,0],[1,2]]]");
  r = go("from-keypoints bad.json --layout h36m17 --model h.pmx -o o.vmd");
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("bad.json"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("frame 0, joint 1"), std::string::npos) << r.err;
  // A joint the method needs that no frame has.
  std::vector<float> nan = joints;
  for (std::uint32_t f = 0; f < kFrames; ++f)
    for (int c = 0; c < 3; ++c) nan[(f * 17 + 13) * 3 + c] = NAN;
  file("never.npy", npy("(12, 17, 3)", nan));
  r = go("from-keypoints never.npy --layout h36m17 --model h.pmx -o o.vmd");
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("joint 13 'left_wrist' has no valid position in any frame"), std::string::npos) << r.err;
  // An NPZ of two motions (as `mmdkit dataset` writes): no guess; the error lists the members and
  // names --npz-member, which then reads it.
  file("two.npz", zip({{"a/positions.npy", npy("(12, 17, 3)", joints)}, {"b/positions.npy", npy("(12, 17, 3)", joints)}}));
  r = run("from-keypoints " + quote((dir / "two.npz").string()) + " --layout h36m17 --model " + quote((dir / "h.pmx").string()) +
          " -o " + quote((dir / "o.vmd").string()));
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("members: a/positions, b/positions); name the array with --npz-member NAME"), std::string::npos)
      << r.err;
  r = run("from-keypoints " + quote((dir / "two.npz").string()) + " --npz-member b/positions --layout h36m17 --model " +
          quote((dir / "h.pmx").string()) + " -o " + quote((dir / "n.vmd").string()));
  EXPECT_EQ(r.code, 0) << r.err;
  // A model that is not one.
  file("junk.vmd", "junk");
  r = go("from-keypoints j17.npy --layout h36m17 --model junk.vmd -o o.vmd");
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("junk.vmd"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(dir / "o.vmd"));
}

TEST_F(KeypointsCli, UsageExit2AndNoOverwrite) {
  file("j17.npy", npy("(12, 17, 3)", joints));
  Outcome r = go("from-keypoints j17.npy --layout body25 --model h.pmx -o o.vmd");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("--layout 'body25'"), std::string::npos) << r.err;
  EXPECT_EQ(go("from-keypoints j17.npy --layout h36m17 --axes x,y -o o.vmd --model h.pmx").code, 2);
  EXPECT_EQ(go("from-keypoints j17.npy --layout h36m17 --axes x,y,w -o o.vmd --model h.pmx").code, 2);
  EXPECT_EQ(go("from-keypoints j17.npy --layout h36m17 -o o.vmd").code, 2);  // no --model
  EXPECT_FALSE(fs::exists(dir / "o.vmd"));
  r = go("from-keypoints j17.npy --layout h36m17 --axes x,y,z --model h.pmx -o j17.npy");
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("--force"), std::string::npos) << r.err;
  EXPECT_EQ(test::slurp(dir / "j17.npy"), npy("(12, 17, 3)", joints));
}

}  // namespace
}  // namespace mmdkit
