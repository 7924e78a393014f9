// The built `mmdkit` binary on `convert` with BVH: errors of a BVH that does not parse reach the
// user with the file, the line, the frame and the joint (exit 1); usage problems exit 2; an output
// never replaces an input without --force. (The reader's rules are tested in tests/motion.)
#include <gtest/gtest.h>

#include <sstream>
#include <string>

#include "support/bvh_fixture.hpp"
#include "mmdkit/core/file.hpp"
#include "mmdkit/formats/pmx.hpp"
#include "mmdkit/formats/pmx_generate.hpp"
#include "mmdkit/formats/vmd.hpp"
#include "mmdkit/formats/vmd_generate.hpp"
#include "support/cli_run.hpp"

namespace mmdkit {
namespace {

namespace fs = std::filesystem;
using test::Outcome;
using test::quote;

const char* const kBvh = ::mmdkit::test::kTwoJointBvh;  // support/bvh_fixture.hpp

class BvhCli : public test::CliTest {
 protected:
  BvhCli() : CliTest("bvh_cli") {}
  Outcome go(const std::string& args) const {
    std::string out, word;
    std::istringstream in(args);
    while (in >> word) {
      for (const char* ext : {".pmx", ".vmd", ".bvh", ".tsv"})
        if (word.size() > 4 && word.ends_with(ext)) {
          word = quote((dir / word).string());
          break;
        }
      out += (out.empty() ? "" : " ") + word;
    }
    return run(out);
  }
  void SetUp() override {
    pmx::GenerateOptions po;
    po.vertices = 0;
    ASSERT_TRUE(write_file_atomic(dir / "h.pmx", *pmx::write(*pmx::generate(po))).has_value());
    vmd::GenerateOptions o;
    o.frames = 20;
    o.bone_keys = 60;
    o.morph_keys = 0;
    ASSERT_TRUE(write_file_atomic(dir / "g.vmd", *vmd::write(vmd::generate(o))).has_value());
  }
  std::string with(const char* from, const char* to) const {
    std::string t = kBvh;
    t.replace(t.rfind(from), std::string(from).size(), to);
    return t;
  }
};

TEST_F(BvhCli, MissingChannelsNameFileLineFrameAndJoint) {
  file("short.bvh", with("0 0 90\n", "0\n"));  // frame 1 (line 20) loses 2 values
  Outcome r = go("convert short.bvh o.vmd --model h.pmx");
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("short.bvh"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("line 20"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("frame 1 has 7 of 9 values"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("joint 'Left Arm' misses channels Xrotation Yrotation"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(dir / "o.vmd"));
}

TEST_F(BvhCli, InconsistentFrameCountNamesTheFrames) {
  file("fewer.bvh", with("Frames: 2", "Frames: 3"));
  Outcome r = go("convert fewer.bvh o.vmd --model h.pmx");
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("fewer.bvh"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("after 2 of the 3 frames"), std::string::npos) << r.err;
  file("more.bvh", with("Frames: 2", "Frames: 1"));
  r = go("convert more.bvh o.vmd --model h.pmx");
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("more.bvh"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("line 20"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("more frame lines than 'Frames: 1'"), std::string::npos) << r.err;
  file("nan.bvh", with("90 0 0", "90 nan 0"));
  r = go("convert nan.bvh o.vmd --model h.pmx");
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("frame 1, value 4 (joint 'Hips' Xrotation): not a number: 'nan'"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(dir / "o.vmd"));
}

TEST_F(BvhCli, MapErrorsNameTheLine) {
  file("ok.bvh", kBvh);
  file("map.tsv", "# map\nHips\tセンター\nLeft Arm\tno such bone\n");
  Outcome r = go("convert ok.bvh o.vmd --model h.pmx --map map.tsv");
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("map.tsv"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("no such bone"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("line 3"), std::string::npos) << r.err;
  file("bad.tsv", "Hips\tセンター\nHips 左腕\n");
  r = go("convert ok.bvh o.vmd --model h.pmx --map bad.tsv");
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("bad.tsv"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("line 2"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(dir / "o.vmd"));
}

TEST_F(BvhCli, UsageAndOverwrite) {
  file("ok.bvh", kBvh);
  EXPECT_EQ(go("convert ok.bvh o.vmd").code, 2);                       // no --model
  EXPECT_EQ(go("convert ok.bvh o.bvh --model h.pmx").code, 2);         // bvh -> bvh
  EXPECT_EQ(go("convert ok.bvh o.vmd --model h.pmx --frames 0-3").code, 2);
  EXPECT_EQ(go("convert g.vmd o.bvh --model h.pmx --frames 3-x").code, 2);
  EXPECT_EQ(go("convert g.vmd o.bvh --model h.pmx --no-leg-ik").code, 2);
  EXPECT_FALSE(fs::exists(dir / "o.vmd") || fs::exists(dir / "o.bvh"));
  // VMD -> BVH -> VMD works; neither direction replaces an existing file without --force.
  ASSERT_EQ(go("convert g.vmd o.bvh --model h.pmx").code, 0);
  EXPECT_TRUE(test::slurp(dir / "o.bvh").starts_with("HIERARCHY"));
  ASSERT_EQ(go("convert o.bvh o.vmd --model h.pmx").code, 0);
  const std::string bvh = test::slurp(dir / "o.bvh"), vmd = test::slurp(dir / "o.vmd");
  Outcome r = go("convert g.vmd o.bvh --model h.pmx");
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("--force"), std::string::npos) << r.err;
  EXPECT_EQ(go("convert o.bvh o.vmd --model h.pmx").code, 1);
  EXPECT_EQ(go("convert o.bvh o.bvh.vmd --model h.pmx").code, 0);
  EXPECT_EQ(go("convert o.bvh h.pmx --model h.pmx").code, 2);  // not a .vmd output
  EXPECT_TRUE(test::slurp(dir / "o.bvh") == bvh);
  EXPECT_TRUE(test::slurp(dir / "o.vmd") == vmd);
}

// Both directions end with the summary line of every writing command ("mmdkit convert: wrote OUT
// (..., B bytes)"), counts read back from the files; -q silences it; -q on a non-BVH conversion
// is a usage error like the other BVH options.
TEST_F(BvhCli, SummaryLineSaysWhatWasWrittenQuietSilencesIt) {
  Outcome r = go("convert g.vmd o.bvh --model h.pmx --frames 0-9");
  ASSERT_EQ(r.code, 0) << r.err;
  const std::string bvh = test::slurp(dir / "o.bvh");
  std::size_t joints = 0;
  for (std::size_t p = bvh.find("JOINT "); p != std::string::npos; p = bvh.find("JOINT ", p + 1)) ++joints;
  joints += bvh.find("ROOT ") != std::string::npos;
  ASSERT_NE(bvh.find("Frames: 10\n"), std::string::npos);
  // (g.vmd has the standard names: the unmatched-track warnings come first.)
  EXPECT_TRUE(r.err.ends_with("\nmmdkit convert: wrote " + (dir / "o.bvh").string() + " (BVH: " + std::to_string(joints) +
                              " joints, 10 frames, scale 1, " + std::to_string(bvh.size()) + " bytes)\n"))
      << r.err;
  EXPECT_EQ(go("convert g.vmd o.bvh --model h.pmx --force -q").err, "");

  r = go("convert o.bvh t.vmd --model h.pmx");  // the model's own skeleton: mapped automatically
  ASSERT_EQ(r.code, 0) << r.err;
  const std::string head = "mmdkit convert: wrote " + (dir / "t.vmd").string() + " (VMD: ";
  const std::string tail = " 21 frames, scale 1, ";  // o.bvh as the -q run above rewrote it: frames 0..20
  const std::string last = r.err.substr(r.err.rfind('\n', r.err.size() - 2) + 1);  // after any warnings
  EXPECT_TRUE(last.starts_with(head)) << r.err;
  EXPECT_NE(last.find(tail), std::string::npos) << r.err;
  EXPECT_TRUE(last.ends_with(", " + std::to_string(fs::file_size(dir / "t.vmd")) + " bytes)\n")) << r.err;
  EXPECT_EQ(go("convert o.bvh t.vmd --model h.pmx --force --quiet").err, "");
  // -q applies to every conversion (was a usage error outside BVH): nothing printed, file written.
  const auto json = go("convert g.vmd " + quote((dir / "g.json").string()) + " -q");
  EXPECT_EQ(json.code, 0) << json.err;
  EXPECT_EQ(json.err, "");
  EXPECT_TRUE(fs::exists(dir / "g.json"));
}

}  // namespace
}  // namespace mmdkit
