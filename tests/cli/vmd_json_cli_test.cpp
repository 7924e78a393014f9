// The built `mmdkit` binary on VMD <-> JSON: dump (stdout and -o), dump --euler, convert a.vmd
// a.json then a.json b.vmd (byte-identical), JSON errors with their path or byte offset. The input
// VMD is assembled field by field (tests/formats/vmd/fixture.hpp), independent of vmd::write.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

#include "formats/vmd/fixture.hpp"
#include "support/cli_run.hpp"
#include "support/corpus.hpp"

namespace {

namespace fs = std::filesystem;
using mmdkit::vmd::test::kAUpperSjis;
using mmdkit::vmd::test::kCenterSjis;
using mmdkit::vmd::test::kLeftLegIkSjis;
using mmdkit::vmd::test::VmdBytes;

using mmdkit::test::Outcome;
using mmdkit::test::quote;
using mmdkit::test::slurp;

std::size_t count(const std::string& s, const std::string& what) {
  std::size_t n = 0;
  for (std::size_t at = s.find(what); at != std::string::npos; at = s.find(what, at + 1)) ++n;
  return n;
}

class VmdJsonCli : public mmdkit::test::CliTest {
 protected:
  VmdJsonCli() : CliTest("vmdjsoncli") {}

  // Every section, a name with garbage after its NUL, MMD's "0002\0JKLM" signature, and the
  // rotation of Vmd2XML's euler.vmd fixture (YXZ 20/20/20 there, UI (20, -20, -20) here).
  std::vector<std::uint8_t> motion() {
    VmdBytes v;
    v.field(std::string("Vocaloid Motion Data 0002") + '\0' + "JKLM", 30).field(kCenterSjis, 20);
    v.u32(2);
    v.field(kCenterSjis, 15).u32(0).f32(1).f32(2).f32(3);
    for (std::uint32_t bits : {0x3e4adcbau, 0x3e0e0bb0u, 0x3e0e0bb0u, 0x3f75d963u}) v.u32(bits);
    for (int r = 0; r < 4; ++r) {  // linear curves, rows padded with 00 00 00 as newer MMD does
      std::uint8_t row0[19] = {20, 20, 20, 20, 20, 20, 20, 20, 107, 107, 107, 107, 107, 107, 107, 107, 0, 0, 0};
      for (int i = 0; i < 16; ++i) v.u8(row0[i + r]);
    }
    v.field(kCenterSjis + std::string(1, '\0') + "\xFD\xFD", 15).u32(5).f32(0).f32(0).f32(0).f32(0).f32(0).f32(0).f32(1);
    for (int i = 0; i < 64; ++i) v.u8(static_cast<std::uint8_t>(i));  // not a canonical block
    v.u32(1).morph(kAUpperSjis, 3, 0.5f);
    v.u32(1).camera(0);
    v.u32(1).light(0);
    v.u32(1).shadow(0, 1);
    v.u32(1).property(0, 1, {{kLeftLegIkSjis, 0}});
    v.raw("\x01\x02\x03");  // trailing bytes (kept, with a warning)
    return v.b;
  }
};

TEST_F(VmdJsonCli, DumpToStdoutStartsWithFormatOneKeyPerLine) {
  auto a = file("a.vmd", motion());
  Outcome r = run("dump " + quote(a.string()));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(r.out.starts_with("{\"format\": \"vmd\",")) << r.out.substr(0, 40);
  EXPECT_NE(r.out.find("\"model_name\":\"センター\""), std::string::npos);
  EXPECT_NE(r.out.find("\"signature_hex\":\"566f63616c6f6964204d6f74696f6e2044617461203030303200"
                       "4a4b4c4d\""),
            std::string::npos);
  EXPECT_NE(r.out.find("\"trailing_hex\":\"010203\""), std::string::npos);
  EXPECT_NE(r.out.find("\"pad\":[0,0,0]"), std::string::npos);
  EXPECT_EQ(count(r.out, "\"interpolation_hex\""), 1u);
  // 7 keys (2 bone, 1 morph, 1 camera, 1 light, 1 self-shadow, 1 property), each on its own line.
  std::size_t key_lines = 0;
  std::stringstream ss(r.out);
  for (std::string line; std::getline(ss, line);) {
    std::size_t n = count(line, "\"frame\":");
    EXPECT_LE(n, 1u) << line;
    key_lines += n;
  }
  EXPECT_EQ(key_lines, 7u);
  EXPECT_NE(r.err.find("warning"), std::string::npos) << "trailing bytes should be reported";
}

TEST_F(VmdJsonCli, ConvertToJsonAndBackIsByteIdentical) {
  auto bytes = motion();
  auto a = file("a.vmd", bytes);
  fs::path j = dir / "a.json", b = dir / "b.vmd";
  Outcome r1 = run("convert " + quote(a.string()) + " " + quote(j.string()));
  ASSERT_EQ(r1.code, 0) << r1.err;
  std::string json = slurp(j);
  EXPECT_TRUE(json.starts_with("{\"format\": \"vmd\","));
  // -o writes the same text as stdout.
  Outcome d = run("dump " + quote(a.string()));
  EXPECT_EQ(d.out, json);
  Outcome r2 = run("convert " + quote(j.string()) + " " + quote(b.string()));
  ASSERT_EQ(r2.code, 0) << r2.err;
  EXPECT_EQ(slurp(b), std::string(bytes.begin(), bytes.end()));
  // JSON input is detected by its "format" member: dump of the JSON gives the JSON again.
  Outcome again = run("dump " + quote(j.string()));
  ASSERT_EQ(again.code, 0) << again.err;
  EXPECT_EQ(again.out, json);
}

TEST_F(VmdJsonCli, DumpEulerAddsUiAngles) {
  auto a = file("a.vmd", motion());
  Outcome r = run("dump --euler " + quote(a.string()));
  ASSERT_EQ(r.code, 0) << r.err;
  auto at = r.out.find("\"euler\":[");
  ASSERT_NE(at, std::string::npos);
  std::string arr = r.out.substr(at + 9, r.out.find(']', at) - at - 9);
  double e[3];
  ASSERT_EQ(std::sscanf(arr.c_str(), "%lf,%lf,%lf", &e[0], &e[1], &e[2]), 3) << arr;
  EXPECT_NEAR(e[0], 20, 1e-4);
  EXPECT_NEAR(e[1], -20, 1e-4);
  EXPECT_NEAR(e[2], -20, 1e-4);
  EXPECT_EQ(count(r.out, "\"euler\":"), 2u);  // one per bone key
  // The quaternion stays authoritative: the --euler JSON converts back to the same bytes.
  fs::path j = file("e.json", r.out), b = dir / "e.vmd";
  Outcome c = run("convert " + quote(j.string()) + " " + quote(b.string()));
  ASSERT_EQ(c.code, 0) << c.err;
  auto bytes = motion();
  EXPECT_EQ(slurp(b), std::string(bytes.begin(), bytes.end()));
}

TEST_F(VmdJsonCli, JsonErrorsNamePathOrOffset) {
  fs::path bad = file("bad.json", R"({"format": "vmd", "bone_keys": [{"name": "a", "frame": -3}]})");
  Outcome r = run("convert " + quote(bad.string()) + " " + quote((dir / "x.vmd").string()));
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("bad.json"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("bone_keys[0].frame"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("json_schema"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(dir / "x.vmd"));
  const std::string text = R"({"format": "vmd", "version": 2 "x": 1})";
  fs::path syn = file("syn.json", text);
  Outcome s = run("convert " + quote(syn.string()) + " " + quote((dir / "y.vmd").string()));
  EXPECT_EQ(s.code, 1);
  EXPECT_NE(s.err.find("json_syntax"), std::string::npos) << s.err;
  EXPECT_NE(s.err.find("byte " + std::to_string(text.find("\"x\""))), std::string::npos) << s.err;
  // Issue 13.5: the line and column of the syntax error (one line: column = byte + 1).
  EXPECT_NE(s.err.find("line 1, column " + std::to_string(text.find("\"x\"") + 1)), std::string::npos) << s.err;
}

TEST_F(VmdJsonCli, CorpusFilesConvertThroughJsonByteIdentical) {
  MMDKIT_REQUIRE_CORPUS();
  for (const char* local : {"olyutorskii__Vmd2XML/src/test/resources/testdata/vmd110820/euler/euler.vmd",
                            "takahirox__mmd-viewer-js/vmd/wavefile_v2.vmd"}) {
    SCOPED_TRACE(local);
    auto f = mmdkit::test::corpus_file(local);
    ASSERT_TRUE(f);
    fs::path j = dir / "c.json", b = dir / "c.vmd";
    fs::remove(j);
    fs::remove(b);
    Outcome r1 = run("convert " + quote(f->path.string()) + " " + quote(j.string()));
    ASSERT_EQ(r1.code, 0) << r1.err;
    Outcome r2 = run("convert " + quote(j.string()) + " " + quote(b.string()));
    ASSERT_EQ(r2.code, 0) << r2.err;
    std::string orig = slurp(f->path);
    ASSERT_EQ(orig.size(), f->bytes);
    EXPECT_TRUE(slurp(b) == orig);
  }
}

}  // namespace
