// The built `mmdkit` binary on VPD poses: info (text and JSON), dump, convert vpd → json → vpd
// byte-exactly, check findings, errors with line numbers, generate.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

#include "support/cli_run.hpp"
#include "support/corpus.hpp"

namespace {

namespace fs = std::filesystem;

using mmdkit::test::Outcome;
using mmdkit::test::quote;
using mmdkit::test::slurp;

class VpdCli : public mmdkit::test::CliTest {
 protected:
  VpdCli() : CliTest("vpdcli") {}
};

TEST_F(VpdCli, CorpusInfoAndRoundTripThroughJson) {
  MMDKIT_REQUIRE_CORPUS();
  auto files = mmdkit::test::corpus_files("vpd");
  ASSERT_FALSE(files.empty());
  for (const auto& f : files) {
    Outcome info = run("info " + quote(f.path.string()));
    ASSERT_EQ(info.code, 0) << info.err;
    EXPECT_NE(info.out.find("format: vpd (pose)"), std::string::npos);
    EXPECT_NE(info.out.find("file bytes: " + std::to_string(f.bytes)), std::string::npos) << info.out;
    EXPECT_NE(info.out.find("bones: 93 "), std::string::npos) << info.out;  // all 8 files pose 93 bones
    const fs::path json = dir / "p.json", back = dir / "p.vpd";
    ASSERT_EQ(run("convert --force " + quote(f.path.string()) + " " + quote(json.string())).code, 0);
    EXPECT_TRUE(slurp(json).starts_with("{\"format\": \"vpd\","));
    Outcome c = run("convert --force " + quote(json.string()) + " " + quote(back.string()));
    ASSERT_EQ(c.code, 0) << c.err;
    EXPECT_TRUE(slurp(back) == slurp(f.path)) << f.local_path;
    Outcome chk = run("check " + quote(f.path.string()));
    EXPECT_EQ(chk.code, 0) << chk.out << chk.err;
  }
}

TEST_F(VpdCli, InfoJsonDumpAndCheckOnAFixture) {
  const std::string text = "Vocaloid Pose Data file\n\nm.pmx;\n2;\n\n"
                           "Bone0{a\n  1,2,3;\n  0,0,0,0;\n}\n\n"
                           "Bone5{a\n  0,0,0;\n  0,0,0,2;\n}\n\n"
                           "Morph0{w\n  0.5;\n}\n";
  fs::path p = file("pose.vpd", text);
  Outcome info = run("info --json " + quote(p.string()));
  ASSERT_EQ(info.code, 0) << info.err;
  EXPECT_NE(info.out.find("\"bones\": 2"), std::string::npos) << info.out;
  EXPECT_NE(info.out.find("\"translated_bones\": 1"), std::string::npos) << info.out;
  EXPECT_NE(info.out.find("\"morphs\": 1"), std::string::npos) << info.out;
  EXPECT_NE(info.out.find("\"line_ending\": \"lf\""), std::string::npos) << info.out;
  Outcome dump = run("dump " + quote(p.string()));
  ASSERT_EQ(dump.code, 0) << dump.err;
  EXPECT_NE(dump.out.find("\"weight\": 0.5"), std::string::npos) << dump.out;
  Outcome chk = run("check " + quote(p.string()));
  EXPECT_EQ(chk.code, 0) << chk.err;  // warnings only
  EXPECT_NE(chk.out.find("all-zero quaternion"), std::string::npos) << chk.out;
  EXPECT_NE(chk.out.find("quaternion length 2"), std::string::npos) << chk.out;
  EXPECT_NE(chk.out.find("also posed by block 0"), std::string::npos) << chk.out;
  EXPECT_NE(chk.out.find("numbered Bone5 at position 1"), std::string::npos) << chk.out;
}

TEST_F(VpdCli, ErrorsNameFileLineAndOffset) {
  fs::path p = file("bad.vpd", "Vocaloid Pose Data file\n\nm;\n1;\n// padding padding padding\nBone0{a\n  0,x,0;\n");
  Outcome r = run("info " + quote(p.string()));
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find(p.string()), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("section 'bone 0', record 7"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("invalid_value"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("line 7"), std::string::npos) << r.err;
  fs::path cut = file("cut.vpd", "Vocaloid Pose Da");
  r = run("info " + quote(cut.string()));
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("truncated"), std::string::npos) << r.err;
  // A VPD converts to .vpd and .json only.
  fs::path ok = file("ok.vpd", "Vocaloid Pose Data file\n\nm;\n0;\n");
  r = run("convert " + quote(ok.string()) + " " + quote((dir / "x.vmd").string()));
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("unsupported"), std::string::npos) << r.err;
}

TEST_F(VpdCli, GenerateIsDeterministicAndReadable) {
  const fs::path a = dir / "a.vpd", b = dir / "b.vpd";
  ASSERT_EQ(run("generate vpd -o " + quote(a.string()) + " --seed 5 --bones 30 --morphs 3").code, 0);
  ASSERT_EQ(run("generate vpd -o " + quote(b.string()) + " --seed 5 --bones 30 --morphs 3").code, 0);
  EXPECT_EQ(slurp(a), slurp(b));
  Outcome info = run("info " + quote(a.string()));
  ASSERT_EQ(info.code, 0) << info.err;
  EXPECT_NE(info.out.find("bones: 30 (1 translated)"), std::string::npos) << info.out;
  EXPECT_NE(info.out.find("morphs: 3"), std::string::npos) << info.out;
  EXPECT_NE(info.out.find("line ending: crlf"), std::string::npos) << info.out;
  EXPECT_EQ(run("check " + quote(a.string())).code, 0);
}

}  // namespace
