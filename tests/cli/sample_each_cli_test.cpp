// `sample --each` (cli/cmd_sample.hpp): every motion on its own, the model read once; each output
// must be the bytes of the one-motion run `sample MODEL MOTION -o FILE` with the same options.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "support/cli_run.hpp"
#include "support/corpus.hpp"

namespace {

namespace fs = std::filesystem;
using mmdkit::test::quote;
using mmdkit::test::slurp;

class SampleEachCli : public mmdkit::test::CliTest {
 protected:
  SampleEachCli() : CliTest("sampleeach") {}

  void SetUp() override {
    model = dir / "model.pmx";
    ASSERT_EQ(run("generate pmx -o " + quote(model.string()) + " --seed 5 --vertices 200").code, 0);
    fs::create_directories(dir / "in");
    for (int i = 0; i < 3; ++i) {
      motions.push_back(dir / "in" / ("m" + std::to_string(i) + ".vmd"));
      ASSERT_EQ(run("generate vmd -o " + quote(motions.back().string()) + " --seed " + std::to_string(10 + i) +
                    " --bone-keys " + std::to_string(200 + 50 * i) + " --morph-keys 20 --frames " +
                    std::to_string(60 + 30 * i))
                    .code,
                0);
    }
    fs::create_directories(dir / "out");
  }

  std::string motion_args() const {
    std::string s;
    for (const fs::path& m : motions) s += " " + quote(m.string());
    return s;
  }

  fs::path model;
  std::vector<fs::path> motions;
};

TEST_F(SampleEachCli, EachOutputEqualsTheOneMotionRunByteForByte) {
  for (const std::string& opts : {std::string(" --format binary --morphs"), std::string(" --frames 0-50:2.5 --morphs")}) {
    SCOPED_TRACE(opts);
    const std::string ext = opts.find("binary") != std::string::npos ? ".bin" : ".json";
    for (const auto& e : fs::directory_iterator(dir / "out")) fs::remove(e.path());
    auto each = run("sample " + quote(model.string()) + motion_args() + " --each -o " + quote((dir / "out").string()) + opts);
    ASSERT_EQ(each.code, 0) << each.err;
    for (std::size_t i = 0; i < motions.size(); ++i) {
      const fs::path one = dir / ("one" + ext);
      auto r = run("sample " + quote(model.string()) + " " + quote(motions[i].string()) + " --force -o " +
                   quote(one.string()) + opts);
      ASSERT_EQ(r.code, 0) << r.err;
      const std::string expected = slurp(one);
      ASSERT_GT(expected.size(), 100u);
      EXPECT_EQ(slurp(dir / "out" / (motions[i].stem().string() + ext)), expected) << motions[i];
    }
    // The three motions span different frame ranges: the default range is each motion's own.
    if (ext == ".bin") {
      EXPECT_NE(fs::file_size(dir / "out" / "m0.bin"), fs::file_size(dir / "out" / "m2.bin"));
    }
  }
}

TEST_F(SampleEachCli, UsageErrorsAndTheForceRule) {
  const std::string base = "sample " + quote(model.string()) + motion_args() + " --each";
  EXPECT_EQ(run(base).code, 2);                                                 // no -o
  EXPECT_EQ(run(base + " -o -").code, 2);                                       // not stdout
  EXPECT_EQ(run(base + " -o " + quote((dir / "missing").string())).code, 2);  // no such folder
  // Two motions of the same file name would write the same output.
  fs::create_directories(dir / "other");
  fs::copy_file(motions[0], dir / "other" / "m0.vmd");
  auto dup = run(base + " " + quote((dir / "other" / "m0.vmd").string()) + " -o " + quote((dir / "out").string()));
  EXPECT_EQ(dup.code, 2);
  EXPECT_NE(dup.err.find("m0.json"), std::string::npos) << dup.err;
  EXPECT_TRUE(fs::is_empty(dir / "out"));
  // An existing output is not replaced without --force, and nothing is written then.
  { std::ofstream(dir / "out" / "m1.json") << "keep"; }
  auto exists = run(base + " -o " + quote((dir / "out").string()));
  EXPECT_EQ(exists.code, 1);
  EXPECT_EQ(slurp(dir / "out" / "m1.json"), "keep");
  EXPECT_FALSE(fs::exists(dir / "out" / "m0.json"));
  EXPECT_EQ(run(base + " --force -o " + quote((dir / "out").string())).code, 0);
  EXPECT_NE(slurp(dir / "out" / "m1.json"), "keep");
}

TEST_F(SampleEachCli, ABadMotionFailsAloneAndTheOthersAreWritten) {
  const fs::path bad = dir / "in" / "bad.vmd";
  { std::ofstream(bad) << "not a motion"; }
  auto r = run("sample " + quote(model.string()) + " " + quote(motions[0].string()) + " " + quote(bad.string()) + " " +
               quote(motions[1].string()) + " --each -o " + quote((dir / "out").string()));
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("bad.vmd"), std::string::npos) << r.err;
  EXPECT_TRUE(fs::exists(dir / "out" / "m0.json"));
  EXPECT_TRUE(fs::exists(dir / "out" / "m1.json"));
  EXPECT_FALSE(fs::exists(dir / "out" / "bad.json"));
}

}  // namespace
