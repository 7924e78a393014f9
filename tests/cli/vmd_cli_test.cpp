// The built `mmdkit` binary on VMD files: exit codes, one-line errors with file/section/record/
// offset, warnings, --strict, --help, convert and generate.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdlib>
#include <cstring>
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

class VmdCli : public mmdkit::test::CliTest {
 protected:
  VmdCli() : CliTest("vmdcli") {}

  // A generated motion: 5 bone keys (single bone track would be 5 tracks of 1 here), 3 morph keys.
  std::string generated(const std::string& extra = "") {
    fs::path p = dir / ("gen" + std::to_string(counter_++) + ".vmd");
    Outcome r = run("generate vmd -o " + quote(p.string()) + " --seed 3 --bone-keys 5 --morph-keys 3 " + extra);
    EXPECT_EQ(r.code, 0) << r.err;
    return slurp(p);
  }
  int counter_ = 0;
};

std::size_t lines(const std::string& s) {
  std::size_t n = 0;
  for (char c : s) n += c == '\n';
  return n;
}

TEST_F(VmdCli, InfoCountsOfGeneratedFile) {
  std::string bytes = generated("--camera-keys 2 --light-keys 1");
  // 50 header + 4 + 5*111 + 4 + 3*23 + 4 + 2*61 + 4 + 28 + 4 (self-shadow) + 4 (property)
  ASSERT_EQ(bytes.size(), 50u + 4 + 555 + 4 + 69 + 4 + 122 + 4 + 28 + 4 + 4);
  fs::path p = file("a.vmd", bytes);
  Outcome r = run("info " + quote(p.string()));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("bone keys: 5 (5 tracks)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("morph keys: 3 (3 tracks)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("camera keys: 2"), std::string::npos);
  EXPECT_NE(r.out.find("light keys: 1"), std::string::npos);
  EXPECT_NE(r.out.find("sections present: 6"), std::string::npos);
  EXPECT_NE(r.out.find("file bytes: " + std::to_string(bytes.size())), std::string::npos);
  EXPECT_NE(r.out.find("frame range: 0..300"), std::string::npos);
  EXPECT_NE(r.out.find("model name: mmdkit generated"), std::string::npos);
  EXPECT_TRUE(r.err.empty()) << r.err;
  Outcome j = run("info --json " + quote(p.string()));
  ASSERT_EQ(j.code, 0);
  EXPECT_NE(j.out.find("\"counts\": {\"bone\": 5, \"morph\": 3, \"camera\": 2, \"light\": 1, \"self_shadow\": 0, "
                       "\"property\": 0}"),
            std::string::npos)
      << j.out;
  EXPECT_NE(j.out.find("\"frame_range\": [0, 300]"), std::string::npos);
}

TEST_F(VmdCli, MissingFileDirectoryEmptyBadSignature) {
  Outcome r = run("info " + quote((dir / "nope.vmd").string()));
  EXPECT_EQ(r.code, 1);
  EXPECT_EQ(lines(r.err), 1u) << r.err;
  EXPECT_NE(r.err.find("nope.vmd"), std::string::npos);
  EXPECT_NE(r.err.find("io_error"), std::string::npos);

  r = run("info " + quote(dir.string()));
  EXPECT_EQ(r.code, 1);
  EXPECT_EQ(lines(r.err), 1u);
  EXPECT_NE(r.err.find("io_error"), std::string::npos);

  r = run("info " + quote(file("empty.vmd", "").string()));
  EXPECT_EQ(r.code, 1);
  EXPECT_EQ(lines(r.err), 1u);
  EXPECT_NE(r.err.find("empty_input"), std::string::npos);

  r = run("check " + quote(file("bad.vmd", std::string("Vocaloid Motion Data 0003") + std::string(40, '\0')).string()));
  EXPECT_EQ(r.code, 1);
  EXPECT_EQ(lines(r.err), 1u);
  EXPECT_NE(r.err.find("bad_signature"), std::string::npos);
}

TEST_F(VmdCli, TruncatedNamesSectionRecordOffset) {
  std::string bytes = generated();
  fs::path p = file("cut.vmd", bytes.substr(0, 54 + 2 * 111 + 50));  // inside bone record 2
  Outcome r = run("info " + quote(p.string()));
  EXPECT_EQ(r.code, 1);
  EXPECT_EQ(lines(r.err), 1u) << r.err;
  EXPECT_NE(r.err.find(p.string() + ": section 'bone keyframes', record 2, byte 276: truncated"), std::string::npos)
      << r.err;
  p = file("cut2.vmd", bytes.substr(0, 20));  // inside the signature
  r = run("dump " + quote(p.string()));
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("truncated"), std::string::npos) << r.err;
}

// dump -q, as info / check / convert -q: no reader warning (here the trailing bytes), no warning
// about a binary format's extension on the JSON output; the JSON the same (a fresh user could
// not silence a .x file's warnings).
TEST_F(VmdCli, DumpQuietSilencesWarnings) {
  fs::path p = file("trail_q.vmd", generated() + "XYZ");
  Outcome loud = run("dump " + quote(p.string()));
  ASSERT_EQ(loud.code, 0) << loud.err;
  EXPECT_EQ(lines(loud.err), 1u) << loud.err;
  Outcome quiet = run("dump -q " + quote(p.string()));
  ASSERT_EQ(quiet.code, 0) << quiet.err;
  EXPECT_EQ(quiet.err, "");
  EXPECT_EQ(quiet.out, loud.out);
  Outcome named = run("dump " + quote(p.string()) + " -o " + quote((dir / "d.vmd").string()));
  EXPECT_NE(named.err.find("dump writes JSON text, not a vmd file"), std::string::npos) << named.err;
  Outcome named_q = run("dump -q " + quote(p.string()) + " -o " + quote((dir / "d2.vmd").string()));
  ASSERT_EQ(named_q.code, 0) << named_q.err;
  EXPECT_EQ(named_q.err, "");
}

TEST_F(VmdCli, StrictRejectsTrailingData) {
  std::string bytes = generated() + "XYZ";
  fs::path p = file("trail.vmd", bytes);
  const std::string at = "byte " + std::to_string(bytes.size() - 3);
  Outcome r = run("info " + quote(p.string()));
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(lines(r.err), 1u);
  EXPECT_NE(r.err.find("warning"), std::string::npos);
  EXPECT_NE(r.err.find(at), std::string::npos) << r.err;
  EXPECT_NE(r.out.find("trailing bytes: 3 at " + at), std::string::npos) << r.out;
  r = run("info --strict " + quote(p.string()));
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("trailing_data"), std::string::npos);
  EXPECT_NE(r.err.find(at), std::string::npos);
  r = run("check --strict " + quote(p.string()));
  EXPECT_EQ(r.code, 1);
  r = run("check " + quote(p.string()));
  EXPECT_EQ(r.code, 0);
  EXPECT_NE(r.out.find("0 error(s), 1 warning(s)"), std::string::npos) << r.out;
}

TEST_F(VmdCli, CheckReportsNanAndDuplicates) {
  std::string bytes = generated();
  // Bone record 1: set position x to NaN; bone record 3: copy record 0's name and frame.
  const std::size_t r0 = 54, r1 = 54 + 111, r3 = 54 + 3 * 111;
  const unsigned char nan[4] = {0x00, 0x00, 0xC0, 0x7F};
  bytes.replace(r1 + 19, 4, reinterpret_cast<const char*>(nan), 4);
  bytes.replace(r3, 19, bytes.substr(r0, 19));
  fs::path p = file("bad.vmd", bytes);
  Outcome r = run("check " + quote(p.string()));
  EXPECT_EQ(r.code, 1) << r.out;
  EXPECT_NE(r.out.find("error: " + p.string() + ": section 'bone keyframes', record 1, byte " + std::to_string(r1)),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("warning: " + p.string() + ": section 'bone keyframes', record 3, byte " + std::to_string(r3)),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("1 error(s), 1 warning(s)"), std::string::npos) << r.out;
}

// Two keys of one bone at one frame whose 15-byte names differ only after the NUL terminator:
// evaluation binds them as one track (core/text.hpp binding_key), so check reports the repeat,
// naming the section, both records, the frame and the name (before: two tracks, no warning).
TEST_F(VmdCli, CheckReportsDuplicatesOfNamesThatDifferAfterTheNul) {
  std::string bytes = generated();
  const std::size_t r0 = 54, r3 = 54 + 3 * 111;
  const std::size_t nul = bytes.find('\0', r0);
  ASSERT_LT(nul, r0 + 14) << "record 0's name must leave room after its NUL";
  bytes.replace(r3, 19, bytes.substr(r0, 19));  // record 3: record 0's name and frame
  bytes[r3 + 14] = 'X';                         // ... with a byte after the NUL
  std::uint32_t frame = 0;
  std::memcpy(&frame, bytes.data() + r0 + 15, 4);
  fs::path p = file("nul.vmd", bytes);
  Outcome r = run("check " + quote(p.string()));
  EXPECT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("warning: " + p.string() + ": section 'bone keyframes', record 3, byte " + std::to_string(r3)),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("1 key repeats the frame of an earlier key (frame " + std::to_string(frame) + ")"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("records 0 and 3 (frame " + std::to_string(frame) + ") name the track differently only after the NUL"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("0 error(s), 1 warning(s)"), std::string::npos) << r.out;
}

// convert between a motion and a pose points to `motion vpd` (which does it), and a VMD's list of
// outputs names .bvh (convert writes it with --model); nothing is written.
TEST_F(VmdCli, ConvertPointsToMotionVpdAndListsBvh) {
  fs::path m = file("m.vmd", generated());
  Outcome r = run("convert " + quote(m.string()) + " " + quote((dir / "x.vpd").string()));
  EXPECT_NE(r.code, 0);
  EXPECT_NE(r.err.find("a VMD motion converts only to .vmd, .json or .bvh (with --model), not .vpd; 'mmdkit motion vpd "),
            std::string::npos)
      << r.err;
  EXPECT_FALSE(fs::exists(dir / "x.vpd"));
  r = run("convert " + quote(m.string()) + " " + quote((dir / "x.pmx").string()));
  EXPECT_NE(r.code, 0);
  EXPECT_NE(r.err.find("a VMD motion converts only to .vmd, .json or .bvh (with --model), not .pmx\n"), std::string::npos)
      << r.err;
  fs::path p = dir / "p.vpd";
  ASSERT_EQ(run("generate vpd -o " + quote(p.string())).code, 0);
  r = run("convert " + quote(p.string()) + " " + quote((dir / "v.vmd").string()));
  EXPECT_NE(r.code, 0);
  EXPECT_NE(r.err.find("a VPD pose converts only to .vpd or .json, not .vmd; 'mmdkit motion vpd IN.vpd -o OUT.vmd'"),
            std::string::npos)
      << r.err;
  EXPECT_FALSE(fs::exists(dir / "v.vmd"));
}

TEST_F(VmdCli, GenerateIsDeterministicAndConvertIsByteExact) {
  EXPECT_EQ(generated(), generated());
  fs::path a = dir / "s1.vmd", b = dir / "s2.vmd";
  ASSERT_EQ(run("generate vmd -o " + quote(a.string()) + " --seed 1").code, 0);
  ASSERT_EQ(run("generate vmd -o " + quote(b.string()) + " --seed 2").code, 0);
  EXPECT_NE(slurp(a), slurp(b));
  // Default sizes: 1000 bone + 100 morph keys, 6 sections.
  EXPECT_EQ(slurp(a).size(), 50u + 4 + 1000 * 111 + 4 + 100 * 23 + 4 * 4);
  Outcome again = run("generate vmd -o " + quote(a.string()));
  EXPECT_EQ(again.code, 1);  // exists, no --force
  fs::path c = dir / "copy.vmd";
  ASSERT_EQ(run("convert " + quote(a.string()) + " " + quote(c.string())).code, 0);
  EXPECT_EQ(slurp(a), slurp(c));
}

// generate vmd --model: the tracks are the model's bones and morphs (but its material morphs), so all of them bind; the
// standard names leave the humanoid's missing 5 bones (グルーブ, 上半身2, 腰, 左親指１, 右親指１) and,
// on a model of 3 morphs (あ, い, う), 13 of the 16 standard morphs unmatched.
TEST_F(VmdCli, GenerateForAModelKeysOnlyItsBonesAndMorphs) {
  const std::string m = quote((dir / "m.pmx").string());
  ASSERT_EQ(run("generate pmx --vertices 30 --morphs 3 -o " + m).code, 0);
  const std::string std_vmd = quote((dir / "std.vmd").string()), own = quote((dir / "own.vmd").string());
  ASSERT_EQ(run("generate vmd --bone-keys 200 --morph-keys 40 -o " + std_vmd).code, 0);
  Outcome r = run("generate vmd --model " + m + " --bone-keys 200 --morph-keys 40 -o " + own);
  ASSERT_EQ(r.code, 0) << r.err;
  const Outcome before = run("sample " + m + " " + std_vmd + " --frames 0 -o " + quote((dir / "a.json").string()));
  EXPECT_NE(before.err.find(": 5 bone tracks of the motion match no bone"), std::string::npos) << before.err;
  EXPECT_NE(before.err.find(": 13 morph tracks of the motion match no morph"), std::string::npos) << before.err;
  const Outcome after = run("sample " + m + " " + own + " --frames 0 -o " + quote((dir / "b.json").string()));
  ASSERT_EQ(after.code, 0) << after.err;
  EXPECT_EQ(after.err.find("warning"), std::string::npos) << after.err;
  // 29 bone tracks (the humanoid set) and 2 morph tracks: あ (vertex) and い (bone); the material
  // morph う is left out (--model makes a dance: random material weights recolour or hide the
  // model); all the keys asked for.
  const std::string info = run("info " + own).out;
  EXPECT_NE(info.find("bone keys: 200 (29 tracks)"), std::string::npos) << info;
  EXPECT_NE(info.find("morph keys: 40 (2 tracks)"), std::string::npos) << info;
  ASSERT_EQ(run("convert " + own + " " + quote((dir / "own.json").string())).code, 0);
  const std::string json = slurp(dir / "own.json");
  EXPECT_NE(json.find("\"あ\""), std::string::npos);
  EXPECT_NE(json.find("\"い\""), std::string::npos);
  EXPECT_EQ(json.find("\"う\""), std::string::npos);
  // A model that cannot be read: exit 1, named; --model on another format: usage (2).
  r = run("generate vmd --model " + quote((dir / "none.pmx").string()) + " -o " + quote((dir / "x.vmd").string()));
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("none.pmx"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(dir / "x.vmd"));
  EXPECT_EQ(run("generate pmx --model " + m + " -o " + quote((dir / "y.pmx").string())).code, 2);
}

TEST_F(VmdCli, ConvertCorpusFileIsByteExact) {
  MMDKIT_REQUIRE_CORPUS();
  auto f = mmdkit::test::corpus_file("moeru-ai__three-mmd/examples/vanilla/src/assets/vmds/wavefile_v2.vmd");
  ASSERT_TRUE(f);
  fs::path out = dir / "wave.vmd";
  Outcome r = run("convert " + quote(f->path.string()) + " " + quote(out.string()));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(slurp(out), slurp(f->path));
  r = run("info " + quote(f->path.string()));
  EXPECT_NE(r.out.find("bone keys: 14160"), std::string::npos) << r.out;
}

TEST_F(VmdCli, JsonRoundTripAndEncodingFlag) {
  std::string bytes = generated("--camera-keys 2 --light-keys 1") + "tail";
  fs::path p = file("j.vmd", bytes), j = dir / "j.json", back = dir / "back.vmd";
  Outcome r = run("convert " + quote(p.string()) + " " + quote(j.string()));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.err.find("warning"), std::string::npos);  // the 4 trailing bytes
  r = run("convert " + quote(j.string()) + " " + quote(back.string()));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(slurp(back), bytes);
  r = run("dump --euler " + quote(p.string()));
  ASSERT_EQ(r.code, 0);
  EXPECT_NE(r.out.find("\"euler\""), std::string::npos);
  r = run("info --encoding gbk " + quote(p.string()));
  ASSERT_EQ(r.code, 0);
  EXPECT_NE(r.out.find("encoding: gbk"), std::string::npos) << r.out;
  r = run("info " + quote(p.string()));
  EXPECT_NE(r.out.find("encoding: cp932"), std::string::npos) << r.out;
}

TEST_F(VmdCli, HelpOnEachSubcommandAndUsageErrors) {
  for (const char* sub : {"info", "dump", "convert", "generate", "check"}) {
    Outcome r = run(std::string(sub) + " --help");
    EXPECT_EQ(r.code, 0) << sub;
    EXPECT_NE(r.out.find(sub), std::string::npos) << sub;
    EXPECT_NE(r.out.find("--"), std::string::npos) << sub;
  }
  EXPECT_EQ(run("info").code, 2);
  EXPECT_EQ(run("info --no-such-flag x.vmd").code, 2);
  EXPECT_EQ(run("info --encoding latin9 x.vmd").code, 2);
}

}  // namespace
