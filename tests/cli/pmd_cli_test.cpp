// The built `mmdkit` binary on PMD files: info (text and --json), dump, convert (pmd, json, and the
// error for other targets), check, exit codes and one-line errors naming file, section, record and
// offset.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

#include "formats/pmd/fixture.hpp"
#include "mmdkit/formats/pmd.hpp"
#include "support/cli_run.hpp"
#include "support/corpus.hpp"

namespace {

namespace fs = std::filesystem;

using mmdkit::test::Outcome;
using mmdkit::test::quote;
using mmdkit::test::slurp;

std::size_t lines(const std::string& s) {
  std::size_t n = 0;
  for (char c : s) n += c == '\n';
  return n;
}

class PmdCli : public mmdkit::test::CliTest {
 protected:
  PmdCli() : CliTest("pmdcli") {}

  std::string sample() {
    auto b = mmdkit::pmd::write(mmdkit::pmd::test::sample_model());
    EXPECT_TRUE(b);
    return std::string(b->begin(), b->end());
  }
};

TEST_F(PmdCli, InfoCountsAndParts) {
  std::string bytes = sample();
  ASSERT_EQ(bytes.size(), mmdkit::pmd::test::sample_size(mmdkit::pmd::Tail::joints));
  fs::path p = file("a.pmd", bytes);
  Outcome r = run("info " + quote(p.string()));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(r.err.empty()) << r.err;
  EXPECT_NE(r.out.find("format: pmd (model)\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("name: テストモデル\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("comment: 一行目\n"), std::string::npos) << r.out;  // first line only
  EXPECT_NE(r.out.find("vertices: 3\n"), std::string::npos);
  EXPECT_NE(r.out.find("face indices: 3 (1 triangle)\n"), std::string::npos);
  EXPECT_NE(r.out.find("bones: 3\n"), std::string::npos);
  EXPECT_NE(r.out.find("IK chains: 1 (2 links)\n"), std::string::npos);
  EXPECT_NE(r.out.find("morphs: 3 (5 offsets)\n"), std::string::npos);
  EXPECT_NE(r.out.find("optional parts: english yes, toon textures yes, rigid bodies 2, joints 1\n"), std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("file bytes: " + std::to_string(bytes.size())), std::string::npos);
  Outcome j = run("info --json " + quote(p.string()));
  ASSERT_EQ(j.code, 0);
  EXPECT_EQ(j.out.rfind("{\n  \"format\": \"pmd\"", 0), 0u) << j.out;
  EXPECT_NE(j.out.find("\"vertices\": 3, \"face_indices\": 3"), std::string::npos) << j.out;
  EXPECT_NE(j.out.find("\"tail\": \"joints\""), std::string::npos);
}

TEST_F(PmdCli, InfoShowsMissingTailParts) {
  auto b = mmdkit::pmd::write(mmdkit::pmd::test::sample_with_tail(mmdkit::pmd::Tail::english, false));
  ASSERT_TRUE(b);
  fs::path p = file("short.pmd", std::string(b->begin(), b->end()));
  Outcome r = run("info " + quote(p.string()));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("optional parts: english no (flag 0), toon textures no, rigid bodies absent, joints absent"),
            std::string::npos)
      << r.out;
}

TEST_F(PmdCli, TruncatedNamesSectionRecordOffset) {
  std::string bytes = sample();
  const std::size_t bones = 283 + 4 + 3 * 38 + 4 + 6 + 4 + 2 * 70;
  fs::path p = file("cut.pmd", bytes.substr(0, bones + 2 + 39 + 5));  // inside bone 1
  Outcome r = run("info " + quote(p.string()));
  EXPECT_EQ(r.code, 1);
  EXPECT_EQ(lines(r.err), 1u) << r.err;
  EXPECT_NE(r.err.find(p.string() + ": section 'bones', record 1, byte " + std::to_string(bones + 2 + 39) +
                       ": count_too_large"),
            std::string::npos)
      << r.err;
  p = file("cut2.pmd", bytes.substr(0, 100));  // inside the header
  r = run("dump " + quote(p.string()));
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("section 'header'"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("truncated"), std::string::npos) << r.err;
}

TEST_F(PmdCli, StrictRejectsTrailingData) {
  std::string bytes = sample() + "XYZ";
  fs::path p = file("trail.pmd", bytes);
  const std::string at = "byte " + std::to_string(bytes.size() - 3);
  Outcome r = run("info " + quote(p.string()));
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(lines(r.err), 1u) << r.err;
  EXPECT_NE(r.err.find("mmdkit: warning: "), std::string::npos);
  EXPECT_NE(r.err.find(at + ": trailing_data"), std::string::npos) << r.err;
  EXPECT_NE(r.out.find("trailing bytes: 3 at " + at), std::string::npos) << r.out;
  r = run("info --strict " + quote(p.string()));
  EXPECT_EQ(r.code, 1);
  EXPECT_EQ(lines(r.err), 1u);
  EXPECT_NE(r.err.find("mmdkit: error: "), std::string::npos);
  EXPECT_NE(r.err.find(at + ": trailing_data"), std::string::npos) << r.err;
}

TEST_F(PmdCli, DumpAndConvertRoundTrip) {
  std::string bytes = sample();
  fs::path p = file("a.pmd", bytes);
  Outcome d = run("dump " + quote(p.string()));
  ASSERT_EQ(d.code, 0) << d.err;
  EXPECT_EQ(d.out.rfind("{\"format\": \"pmd\"", 0), 0u);
  fs::path json = dir / "a.json", back = dir / "b.pmd", copy = dir / "c.pmd";
  Outcome c1 = run("convert " + quote(p.string()) + " " + quote(json.string()));
  ASSERT_EQ(c1.code, 0) << c1.err;
  EXPECT_EQ(slurp(json), d.out);
  Outcome c2 = run("convert " + quote(json.string()) + " " + quote(back.string()));
  ASSERT_EQ(c2.code, 0) << c2.err;
  EXPECT_TRUE(slurp(back) == bytes);
  Outcome c3 = run("convert " + quote(p.string()) + " " + quote(copy.string()));
  ASSERT_EQ(c3.code, 0) << c3.err;
  EXPECT_TRUE(slurp(copy) == bytes);
  // Replacing the input needs --force.
  Outcome c4 = run("convert " + quote(p.string()) + " " + quote(p.string()));
  EXPECT_EQ(c4.code, 1);
}

TEST_F(PmdCli, ConvertToOtherFormatIsUnsupported) {
  fs::path p = file("a.pmd", sample());
  Outcome r = run("convert " + quote(p.string()) + " " + quote((dir / "a.vmd").string()));
  EXPECT_EQ(r.code, 1);
  EXPECT_EQ(lines(r.err), 1u) << r.err;
  EXPECT_NE(r.err.find("unsupported"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(dir / "a.vmd"));
}

TEST_F(PmdCli, BadJsonNamesThePath) {
  std::string json = "{\"format\": \"pmd\", \"version\": 1, \"name\": \"x\", \"comment\": \"\", \"vertices\": [[1]]}";
  fs::path p = file("bad.json", json);
  Outcome r = run("convert " + quote(p.string()) + " " + quote((dir / "bad.pmd").string()));
  EXPECT_EQ(r.code, 1);
  EXPECT_EQ(lines(r.err), 1u) << r.err;
  EXPECT_NE(r.err.find("section 'vertices[0]'"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("json_schema"), std::string::npos) << r.err;
}

TEST_F(PmdCli, CheckReportsLocatedFindings) {
  fs::path good = file("good.pmd", sample());
  Outcome r = run("check " + quote(good.string()));
  EXPECT_EQ(r.code, 0) << r.err;
  // Other layers may add warnings (the model view's checks); errors there are none.
  EXPECT_NE(r.out.find(good.string() + ": 0 error(s)"), std::string::npos) << r.out;
  mmdkit::pmd::Model m = mmdkit::pmd::test::sample_model();
  m.indices[1] = 40;
  auto b = mmdkit::pmd::write(m);
  ASSERT_TRUE(b);
  fs::path bad = file("bad.pmd", std::string(b->begin(), b->end()));
  r = run("check " + quote(bad.string()));
  EXPECT_EQ(r.code, 1);
  const std::size_t faces = 283 + 4 + 3 * 38;
  EXPECT_NE(r.out.find("error: " + bad.string() + ": section 'faces', record 1, byte " + std::to_string(faces + 4 + 2) +
                       ": invalid_value: face index 40 is out of range (3 vertices)"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find(bad.string() + ": 1 error(s)"), std::string::npos) << r.out;
}

TEST_F(PmdCli, CorpusModelThroughJson) {
  MMDKIT_REQUIRE_CORPUS();
  auto f = mmdkit::test::corpus_file("jomin398__jomin398.github.io/docs/assets/models/mmd/miku_v2/miku_v2.pmd");
  if (!f) GTEST_SKIP() << "miku_v2.pmd not in corpus";
  fs::path json = dir / "miku.json", back = dir / "miku.pmd";
  ASSERT_EQ(run("convert " + quote(f->path.string()) + " " + quote(json.string())).code, 0);
  ASSERT_EQ(run("convert " + quote(json.string()) + " " + quote(back.string())).code, 0);
  EXPECT_TRUE(slurp(back) == slurp(f->path));
  Outcome i = run("info " + quote(f->path.string()));
  ASSERT_EQ(i.code, 0);
  EXPECT_NE(i.out.find("vertices: 12354\n"), std::string::npos) << i.out;
  EXPECT_NE(i.out.find("rigid bodies 45, joints 27"), std::string::npos) << i.out;
}

}  // namespace
