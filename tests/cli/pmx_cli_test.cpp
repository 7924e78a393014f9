// The built `mmdkit` binary on PMX files: info (text and --json), dump, convert (pmx → json → pmx,
// pmx → pmx), generate (both variants), errors with section/record/offset, --strict, check.
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

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

class PmxCli : public mmdkit::test::CliTest {
 protected:
  PmxCli() : CliTest("pmxcli") {}

  fs::path generated(const std::string& name, const std::string& extra) {
    fs::path p = dir / name;
    Outcome r = run("generate pmx -o " + quote(p.string()) + " --seed 3 " + extra);
    EXPECT_EQ(r.code, 0) << r.err;
    return p;
  }
};

TEST_F(PmxCli, GenerateInfoCounts) {
  fs::path p = generated("a.pmx", "--vertices 500 --morphs 12 --bones 45");
  Outcome r = run("info " + quote(p.string()));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(has(r.out, "version: 2.0\n")) << r.out;
  EXPECT_TRUE(has(r.out, "encoding: utf-16le\n"));
  // 500 vertices → 2-byte vertex indices; 45 bones, 12 morphs → 1-byte indices.
  EXPECT_TRUE(has(r.out, "index sizes: vertex=2 texture=1 material=1 bone=1 morph=1 rigid_body=1\n")) << r.out;
  EXPECT_TRUE(has(r.out, "vertices: 500 ("));
  EXPECT_TRUE(has(r.out, "face indices: 1494 (498 triangles)\n"));
  EXPECT_TRUE(has(r.out, "bones: 45 (4 IK, 2 append)\n")) << r.out;
  EXPECT_TRUE(has(r.out, "morphs: 12 ("));
  EXPECT_TRUE(has(r.out, "materials: 3\n"));
  EXPECT_TRUE(has(r.out, "soft bodies: 0\n"));
  EXPECT_TRUE(has(r.out, "file bytes: " + std::to_string(fs::file_size(p)) + "\n"));
  Outcome j = run("info --json " + quote(p.string()));
  ASSERT_EQ(j.code, 0) << j.err;
  EXPECT_EQ(j.out.rfind("{\n  \"format\": \"pmx\"", 0), 0u) << j.out;
  EXPECT_TRUE(has(j.out, "\"counts\": {\"vertices\": 500, \"face_indices\": 1494, \"triangles\": 498, \"textures\": 3, \"materials\": 3, "
                         "\"bones\": 45, \"morphs\": 12, \"display_frames\": 4, \"rigid_bodies\": 2, \"joints\": 1, "
                         "\"soft_bodies\": 0}"))
      << j.out;
}

TEST_F(PmxCli, Variant21Utf8AndBadVariant) {
  fs::path p = generated("b.pmx", "--vertices 50 --morphs 7 --variant pmx2.1-utf8");
  Outcome r = run("info " + quote(p.string()));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(has(r.out, "version: 2.1\n"));
  EXPECT_TRUE(has(r.out, "encoding: utf-8\n"));
  EXPECT_TRUE(has(r.out, "additional UVs: 1\n"));
  EXPECT_TRUE(has(r.out, "soft bodies: 1\n"));
  EXPECT_TRUE(has(r.out, "flip 1, impulse 1)")) << r.out;
  Outcome bad = run("generate pmx -o " + quote((dir / "c.pmx").string()) + " --variant pmx3");
  EXPECT_NE(bad.code, 0);
  EXPECT_TRUE(has(bad.err, "pmx3")) << bad.err;
  EXPECT_FALSE(fs::exists(dir / "c.pmx"));
}

TEST_F(PmxCli, DumpAndConvertRoundTripBytes) {
  for (std::string variant : {"pmx2.0-utf16", "pmx2.1-utf8"}) {
    fs::path p = generated("g-" + variant + ".pmx", "--vertices 300 --morphs 9 --variant " + variant);
    const std::string original = slurp(p);
    fs::path json = dir / ("g-" + variant + ".json");
    Outcome d = run("dump " + quote(p.string()) + " -o " + quote(json.string()));
    ASSERT_EQ(d.code, 0) << d.err;
    EXPECT_EQ(slurp(json).rfind("{\"format\": \"pmx\",", 0), 0u);
    fs::path back = dir / ("back-" + variant + ".pmx");
    Outcome c = run("convert " + quote(json.string()) + " " + quote(back.string()));
    ASSERT_EQ(c.code, 0) << c.err;
    EXPECT_TRUE(slurp(back) == original) << variant;
    fs::path copy = dir / ("copy-" + variant + ".pmx");
    Outcome c2 = run("convert " + quote(p.string()) + " " + quote(copy.string()));
    ASSERT_EQ(c2.code, 0) << c2.err;
    EXPECT_TRUE(slurp(copy) == original);
    // info on the JSON reads the same model.
    Outcome i = run("info " + quote(json.string()));
    ASSERT_EQ(i.code, 0) << i.err;
    EXPECT_TRUE(has(i.out, "vertices: 300 ("));
  }
}

TEST_F(PmxCli, TruncatedFileNamesSectionRecordOffset) {
  fs::path p = generated("t.pmx", "--vertices 20");
  std::string bytes = slurp(p);
  // Header: 9 + 8 globals, then 4 UTF-16 texts with u32 lengths: "mmdkit 生成モデル" (12 chars),
  // "mmdkit generated model" (22), "mmdkit generate pmx: seed 3" (27), "synthetic model for tests and
  // benchmarks" (40) → 17 + 16 + 2 * 101 = 235; vertex count at 235, vertex 0 at 239.
  // Cut 10 bytes into the vertices: 20 vertices of at least 38 bytes cannot fit → count error at 235.
  fs::path cut = file("cut.pmx", bytes.substr(0, 249));
  Outcome r = run("info " + quote(cut.string()));
  EXPECT_EQ(r.code, 1);
  EXPECT_TRUE(has(r.err, cut.string() + ": section 'vertices', byte 235: count_too_large")) << r.err;
  // Cut inside the model name (24 bytes from byte 21).
  fs::path cut2 = file("cut2.pmx", bytes.substr(0, 31));
  r = run("dump " + quote(cut2.string()));
  EXPECT_EQ(r.code, 1);
  EXPECT_TRUE(has(r.err, cut2.string() + ": section 'header', byte 21: truncated")) << r.err;
  // Encoding byte 2 at offset 9.
  std::string enc = bytes;
  enc[9] = 2;
  Outcome e = run("info " + quote(file("enc.pmx", enc).string()));
  EXPECT_EQ(e.code, 1);
  EXPECT_TRUE(has(e.err, "section 'header', byte 9: invalid_value")) << e.err;
}

TEST_F(PmxCli, TrailingBytesWarnAndStrictFails) {
  fs::path p = generated("s.pmx", "--vertices 10");
  std::string bytes = slurp(p) + "ZZ";
  fs::path t = file("trail.pmx", bytes);
  Outcome r = run("info " + quote(t.string()));
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(has(r.err, "warning")) << r.err;
  EXPECT_TRUE(has(r.out, "trailing bytes: 2 at byte " + std::to_string(bytes.size() - 2)));
  Outcome s = run("info --strict " + quote(t.string()));
  EXPECT_EQ(s.code, 1);
  EXPECT_TRUE(has(s.err, "trailing_data"));
}

TEST_F(PmxCli, CheckFindsBadIndices) {
  fs::path p = generated("k.pmx", "--vertices 10 --morphs 0");
  Outcome ok = run("check " + quote(p.string()));
  EXPECT_EQ(ok.code, 0) << ok.out << ok.err;
  EXPECT_TRUE(has(ok.out, "0 error(s)"));
}

TEST_F(PmxCli, CorpusFileInfoMatchesIndependentCounts) {
  MMDKIT_REQUIRE_CORPUS();
  auto f = mmdkit::test::corpus_file("hkrn__nanoem/emapp/test/fixtures/test.pmx");
  if (!f) GTEST_SKIP();
  Outcome r = run("info " + quote(f->path.string()));
  ASSERT_EQ(r.code, 0) << r.err;
  // tests/data/pmx_counts.tsv (tools/pmx_counts.py): 0 vertices, 4 textures, 1 material, 140 bones,
  // 30 morphs, 9 display frames.
  EXPECT_TRUE(has(r.out, "textures: 4\n"));
  EXPECT_TRUE(has(r.out, "bones: 140 ("));
  EXPECT_TRUE(has(r.out, "morphs: 30 ("));
  EXPECT_TRUE(has(r.out, "display frames: 9\n"));
  EXPECT_TRUE(has(r.out, "name: 初音ミク\n"));
}

}  // namespace
