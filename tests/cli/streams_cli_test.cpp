// The built `mmdkit` binary with the standard streams ("-" as input and output), the one --force
// rule of every writing command, `check`'s summary counts and `dump --euler` on a VPD.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <numbers>
#include <string>

#include "formats/vmd/fixture.hpp"
#include "support/cli_run.hpp"
#include "support/corpus.hpp"

namespace {

namespace fs = std::filesystem;

using mmdkit::test::Outcome;
using mmdkit::test::quote;
using mmdkit::test::slurp;
using mmdkit::vmd::test::VmdBytes;

bool has(const std::string& text, const std::string& what) { return text.find(what) != std::string::npos; }

class StreamsCli : public mmdkit::test::CliTest {
 protected:
  StreamsCli() : CliTest("streamscli") {}

  fs::path q(const std::string& name) const { return dir / name; }
  std::string qs(const std::string& name) const { return quote((dir / name).string()); }

  // Generated files (CLI generate writes them; the tests below compare the CLI with itself only
  // where the value is the same bytes read two ways).
  fs::path motion() {
    const fs::path p = q("m.vmd");
    if (!fs::exists(p)) {
      EXPECT_EQ(run("generate vmd -o " + quote(p.string()) + " --seed 4 --bone-keys 6 --morph-keys 2").code, 0);
    }
    return p;
  }
  fs::path model() {
    const fs::path p = q("model.pmx");
    if (!fs::exists(p)) {
      EXPECT_EQ(run("generate pmx -o " + quote(p.string()) + " --seed 2 --vertices 40").code, 0);
    }
    return p;
  }
};

TEST_F(StreamsCli, InfoDumpCheckReadStdin) {
  const fs::path m = motion();
  const std::string bytes = slurp(m);
  ASSERT_EQ(bytes.size(), 50u + 4 + 6 * 111 + 4 + 2 * 23 + 4 + 4 + 4 + 4);
  Outcome file_info = run("info " + quote(m.string()));
  Outcome in_info = run("info - < " + quote(m.string()));
  ASSERT_EQ(in_info.code, 0) << in_info.err;
  EXPECT_TRUE(has(in_info.out, "bone keys: 6")) << in_info.out;
  EXPECT_TRUE(has(in_info.out, "file bytes: " + std::to_string(bytes.size()))) << in_info.out;
  EXPECT_EQ(in_info.out, file_info.out);
  Outcome in_dump = run("dump - < " + quote(m.string()));
  ASSERT_EQ(in_dump.code, 0) << in_dump.err;
  EXPECT_EQ(in_dump.out, run("dump " + quote(m.string())).out);
  Outcome chk = run("check - < " + quote(m.string()));
  EXPECT_EQ(chk.code, 0) << chk.err;
  EXPECT_TRUE(has(chk.out, "<stdin>: 0 error(s)")) << chk.out;
  // Empty stdin and an unknown signature are clean errors naming <stdin>.
  Outcome empty = run("info - < /dev/null");
  EXPECT_EQ(empty.code, 1);
  EXPECT_TRUE(has(empty.err, "<stdin>")) << empty.err;
  EXPECT_TRUE(has(empty.err, "standard input is empty")) << empty.err;
  const fs::path junk = file("junk.bin", std::string("not a model at all"));
  Outcome bad = run("info - < " + quote(junk.string()));
  EXPECT_EQ(bad.code, 1);
  EXPECT_TRUE(has(bad.err, "<stdin>: section 'header'")) << bad.err;
}

TEST_F(StreamsCli, CheckOfAModelOnStdinSaysTexturesAreNotChecked) {
  const fs::path p = model();
  Outcome r = run("check - < " + quote(p.string()));
  EXPECT_TRUE(has(r.out, "note: <stdin>: not checked: textures")) << r.out;
  EXPECT_FALSE(has(r.out, "texture_missing")) << r.out;
  Outcome j = run("check --json - < " + quote(p.string()));
  EXPECT_TRUE(has(j.out, "\"not_checked\": [\"textures:")) << j.out;
  EXPECT_TRUE(has(j.out, "\"file\": \"<stdin>\"")) << j.out;
  // A file input has its folder: no such note.
  Outcome f = run("check " + quote(p.string()));
  EXPECT_FALSE(has(f.out, "not checked")) << f.out;
}

TEST_F(StreamsCli, FormatOptionNamesJsonWithoutFormatMemberAndMustAgree) {
  // A hand-written VPD JSON without "format".
  const fs::path j = file("pose.json", std::string(R"({"model_file": "a.osm", "bones": [{"name": "a", )"
                                                   R"("translation": [0, 0, 0], "rotation": [0, 0, 0, 1]}]})"));
  Outcome none = run("info - < " + quote(j.string()));
  EXPECT_EQ(none.code, 1);
  EXPECT_TRUE(has(none.err, "--format")) << none.err;
  Outcome named = run("info --format vpd - < " + quote(j.string()));
  ASSERT_EQ(named.code, 0) << named.err;
  EXPECT_TRUE(has(named.out, "bones: 1")) << named.out;
  Outcome wrong = run("info --format pmx " + quote(motion().string()));
  EXPECT_EQ(wrong.code, 1);
  EXPECT_TRUE(has(wrong.err, "--format pmx given, but the content is a vmd file")) << wrong.err;
}

TEST_F(StreamsCli, ConvertBetweenStreams) {
  const fs::path m = motion();
  const std::string bytes = slurp(m);
  // stdin → file
  Outcome a = run("convert - " + qs("a.json") + " < " + quote(m.string()));
  ASSERT_EQ(a.code, 0) << a.err;
  EXPECT_EQ(slurp(q("a.json")), run("dump " + quote(m.string())).out);
  // file → stdout, same format: the identical bytes
  Outcome b = run("convert --to vmd " + quote(m.string()) + " -");
  ASSERT_EQ(b.code, 0) << b.err;
  EXPECT_EQ(b.out, bytes);
  // stdin JSON → stdout VMD
  Outcome c = run("convert --to vmd - - < " + qs("a.json"));
  ASSERT_EQ(c.code, 0) << c.err;
  EXPECT_EQ(c.out, bytes);
  // stdin → stdout JSON
  Outcome d = run("convert --to json - - < " + quote(m.string()));
  ASSERT_EQ(d.code, 0) << d.err;
  EXPECT_EQ(d.out, slurp(q("a.json")));
  // stdout without --to, --to disagreeing with the extension: usage errors
  Outcome e = run("convert " + quote(m.string()) + " -");
  EXPECT_EQ(e.code, 2);
  EXPECT_TRUE(has(e.err, "needs --to")) << e.err;
  Outcome f = run("convert --to pmx " + quote(m.string()) + " " + qs("x.vmd"));
  EXPECT_EQ(f.code, 2);
  EXPECT_TRUE(has(f.err, "disagrees")) << f.err;
  EXPECT_FALSE(fs::exists(q("x.vmd")));
}

TEST_F(StreamsCli, DumpAndGenerateToStdout) {
  const fs::path m = motion();
  Outcome d = run("dump -o - " + quote(m.string()));
  ASSERT_EQ(d.code, 0) << d.err;
  EXPECT_EQ(d.out, run("dump " + quote(m.string())).out);
  Outcome g = run("generate vmd -o - --seed 4 --bone-keys 6 --morph-keys 2");
  ASSERT_EQ(g.code, 0) << g.err;
  EXPECT_EQ(g.out, slurp(m));
  EXPECT_FALSE(fs::exists(fs::current_path() / "-"));
  // A model to stdout: the same bytes as the file form; its textures need a folder, so they are
  // not written, and a note says so.
  Outcome p = run("generate pmx -o - --seed 3 --vertices 200");
  ASSERT_EQ(p.code, 0) << p.err;
  ASSERT_EQ(run("generate pmx -o " + qs("g.pmx") + " --seed 3 --vertices 200").code, 0);
  EXPECT_EQ(p.out, slurp(q("g.pmx")));
  EXPECT_TRUE(has(p.err, "textures are not written")) << p.err;
  EXPECT_FALSE(fs::exists(fs::current_path() / "tex"));
}

TEST_F(StreamsCli, SampleToStdoutTextAndBinaryPoseRefused) {
  const fs::path mdl = model(), m = motion();
  const std::string common = quote(mdl.string()) + " " + quote(m.string()) + " --frames 0,5,10";
  ASSERT_EQ(run("sample " + common + " -o " + qs("s.json")).code, 0);
  ASSERT_EQ(run("sample " + common + " --format binary -o " + qs("s.bin")).code, 0);
  Outcome j = run("sample " + common + " -o -");
  ASSERT_EQ(j.code, 0) << j.err;
  EXPECT_EQ(j.out.rfind("{\"lib\":\"mmdkit", 0), 0u);
  EXPECT_EQ(j.out, slurp(q("s.json")));
  Outcome b = run("sample " + common + " --format binary -o -");
  ASSERT_EQ(b.code, 0) << b.err;
  EXPECT_EQ(b.out.substr(0, 8), "MMDKSMP1");
  EXPECT_EQ(b.out, slurp(q("s.bin")));
  EXPECT_FALSE(fs::exists(fs::current_path() / "-"));
  Outcome p = run("pose " + quote(mdl.string()) + " -o -");
  EXPECT_EQ(p.code, 2);
  EXPECT_TRUE(has(p.err, "pose cannot write to stdout")) << p.err;
  Outcome s = run("sample - " + quote(m.string()) + " < " + quote(mdl.string()));
  EXPECT_EQ(s.code, 2);
  EXPECT_TRUE(has(s.err, "sample reads files only")) << s.err;
}

TEST_F(StreamsCli, ForceHasOneMeaningForEveryWritingCommand) {
  const fs::path m = motion(), mdl = model();
  const std::string refuse = "exists; refusing to replace it (use --force to allow)";
  const std::string input = "is an input file; refusing to replace it (use --force to allow)";
  // An existing output: refused without --force by convert, dump, generate, sample, pose.
  const fs::path existing = file("existing.vmd", std::string("keep me"));
  const fs::path existing_json = file("existing.json", std::string("keep me"));
  const fs::path existing_obj = file("existing.obj", std::string("keep me"));
  struct Case {
    std::string args;
    fs::path out;
  };
  const Case cases[] = {
      {"convert " + quote(m.string()) + " " + quote(existing.string()), existing},
      {"dump " + quote(m.string()) + " -o " + quote(existing_json.string()), existing_json},
      {"generate vmd --bone-keys 6 -o " + quote(existing.string()), existing},
      {"sample " + quote(mdl.string()) + " --frames 0 -o " + quote(existing_json.string()), existing_json},
      {"pose " + quote(mdl.string()) + " -o " + quote(existing_obj.string()), existing_obj},
  };
  for (const Case& c : cases) {
    file(c.out.filename().string(), std::string("keep me"));
    Outcome r = run(c.args);
    EXPECT_EQ(r.code, 1) << c.args;
    EXPECT_TRUE(has(r.err, refuse) || has(r.err, "exists (use --force to replace it)")) << c.args << "\n" << r.err;
    EXPECT_EQ(slurp(c.out), "keep me") << c.args;
    Outcome f = run(c.args + " --force");
    EXPECT_EQ(f.code, 0) << c.args << "\n" << f.err;
    EXPECT_NE(slurp(c.out), "keep me") << c.args;
  }
  // An input as the output: its own message, and --force allows it.
  const fs::path copy = q("copy.vmd");
  ASSERT_EQ(run("convert " + quote(m.string()) + " " + quote(copy.string())).code, 0);
  Outcome self = run("convert " + quote(copy.string()) + " " + quote(copy.string()));
  EXPECT_EQ(self.code, 1);
  EXPECT_TRUE(has(self.err, input)) << self.err;
  Outcome forced = run("convert --force " + quote(copy.string()) + " " + quote(copy.string()));
  EXPECT_EQ(forced.code, 0) << forced.err;
  EXPECT_EQ(slurp(copy), slurp(m));
  // The same help text everywhere.
  const std::string help = "allow the output to replace an existing file, an input included";
  for (const char* cmd : {"convert", "dump", "generate", "sample"}) {
    Outcome h = run(std::string(cmd) + " --help");
    EXPECT_TRUE(has(h.out, help)) << cmd << "\n" << h.out;
  }
}

TEST_F(StreamsCli, CheckSummaryCountsFindingsNotTheNotListedLine) {
  // 30 bone tracks b0..b29, each with a key repeating frame 7: one finding per track; check lists
  // 20 and notes "10 more tracks with duplicate keys not listed"; the summary counts all 30.
  VmdBytes v;
  v.header();
  v.u32(60);
  for (int i = 0; i < 30; ++i) v.bone("b" + std::to_string(i), 7).bone("b" + std::to_string(i), 7);
  v.u32(0);
  const fs::path p = file("dups.vmd", v.b);
  Outcome r = run("check " + quote(p.string()));
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(has(r.out, "note: " + p.string() +
                             ": section 'bone keyframes': invalid_value: 10 more tracks with duplicate keys not listed"))
      << r.out;
  EXPECT_TRUE(has(r.out, p.string() + ": 0 error(s), 30 warning(s)")) << r.out;
  Outcome j = run("check --json " + quote(p.string()));
  EXPECT_TRUE(has(j.out, "\"errors\": 0, \"warnings\": 30")) << j.out;
  EXPECT_TRUE(has(j.out, "\"not_listed\": [\n  {\"severity\": \"warning\", \"section\": \"bone keyframes\", \"count\": 10"))
      << j.out;
}

TEST_F(StreamsCli, CheckGroupsDuplicateKeysByTrackAndNamesIt) {
  // 40 keys of bone "a" at frame 7 (39 repeats) and 2 of "b" at frames 0 and 3 each (2 repeats):
  // two lines, not 41, each naming its track.
  VmdBytes v;
  v.header();
  v.u32(44);
  for (int i = 0; i < 40; ++i) v.bone("a", 7);
  v.bone("b", 0).bone("b", 3).bone("b", 3).bone("b", 0);
  v.u32(0);
  const fs::path p = file("dups2.vmd", v.b);
  Outcome r = run("check " + quote(p.string()));
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(has(r.out, "warning: " + p.string() +
                             ": section 'bone keyframes', record 1, byte 165: invalid_value: track 'a': 39 keys "
                             "repeat the frame of an earlier key (frame 7); MMD uses the last one read"))
      << r.out;
  EXPECT_TRUE(has(r.out, "record 42, byte " + std::to_string(54 + 42 * 111) +
                             ": invalid_value: track 'b': 2 keys repeat the frame of an earlier key (2 frames: 0, 3)"))
      << r.out;
  EXPECT_TRUE(has(r.out, p.string() + ": 0 error(s), 2 warning(s)")) << r.out;
  std::size_t lines = 0;
  for (char c : r.out) lines += c == '\n';
  EXPECT_EQ(lines, 3u) << r.out;
  Outcome j = run("check --json " + quote(p.string()));
  EXPECT_TRUE(has(j.out, "\"track\": \"a\", \"keys\": 39, \"frames\": [7]}")) << j.out;
  EXPECT_TRUE(has(j.out, "\"track\": \"b\", \"keys\": 2, \"frames\": [0, 3]}")) << j.out;
}

// Euler angles from the quaternion, by the convention of docs/formats/vmd-json.md: UI (X, Y, Z) =
// (X, -Y, -Z) of the YXZ decomposition. A pure rotation of +30° about Y (q = (0, sin 15°, 0,
// cos 15°)) shows Y = -30; a pure +20° about X shows X = 20.
TEST_F(StreamsCli, DumpEulerWorksForVpd) {
  const std::string vpd =
      "Vocaloid Pose Data file\n\nm.osm;\n2;\n\n"
      "Bone0{a\n  0.000000,0.000000,0.000000;\n  0.000000,0.258819,0.000000,0.965926;\n}\n\n"
      "Bone1{b\n  0.000000,0.000000,0.000000;\n  0.173648,0.000000,0.000000,0.984808;\n}\n\n";
  const fs::path p = file("e.vpd", vpd);
  Outcome plain = run("dump " + quote(p.string()));
  ASSERT_EQ(plain.code, 0) << plain.err;
  EXPECT_FALSE(has(plain.out, "euler"));
  Outcome e = run("dump --euler " + quote(p.string()));
  ASSERT_EQ(e.code, 0) << e.err;
  auto euler_of = [&](const std::string& bone) {
    const std::size_t at = e.out.find("\"name\": \"" + bone + "\"");
    const std::size_t k = e.out.find("\"euler\": [", at);
    EXPECT_NE(k, std::string::npos) << e.out;
    double x = 0, y = 0, z = 0;
    EXPECT_EQ(std::sscanf(e.out.c_str() + k + 10, "%lf, %lf, %lf", &x, &y, &z), 3) << e.out.substr(k);
    return std::array<double, 3>{x, y, z};
  };
  const auto a = euler_of("a"), b = euler_of("b");
  EXPECT_NEAR(a[0], 0, 1e-3);
  EXPECT_NEAR(a[1], -30, 1e-3);
  EXPECT_NEAR(a[2], 0, 1e-3);
  EXPECT_NEAR(b[0], 20, 1e-3);
  EXPECT_NEAR(b[1], 0, 1e-3);
  EXPECT_NEAR(b[2], 0, 1e-3);
  // Informative: the JSON with Euler angles converts back to the identical file.
  ASSERT_EQ(run("convert --euler " + quote(p.string()) + " " + qs("e.json")).code, 0);
  ASSERT_EQ(run("convert " + qs("e.json") + " " + qs("back.vpd")).code, 0);
  EXPECT_EQ(slurp(q("back.vpd")), vpd);
  // A hand-written bone with only "euler": the quaternion is built from it.
  const fs::path h = file("h.json", std::string(R"({"format": "vpd", "model_file": "m.osm", "bones": [)"
                                                R"({"name": "a", "translation": [0, 0, 0], "euler": [0, -30, 0]}]})"));
  ASSERT_EQ(run("convert " + quote(h.string()) + " " + qs("h.vpd")).code, 0);
  const std::string written = slurp(q("h.vpd"));
  const std::size_t line = written.find('\n', written.find("Bone0{a"));
  const std::size_t rot = written.find('\n', line + 1);
  ASSERT_NE(rot, std::string::npos) << written;
  double x = 1, y = 0, z = 1, w = 0;
  ASSERT_EQ(std::sscanf(written.c_str() + rot + 1, " %lf,%lf,%lf,%lf;", &x, &y, &z, &w), 4) << written;
  EXPECT_NEAR(x, 0, 1e-7);
  EXPECT_NEAR(y, std::sin(15.0 * std::numbers::pi / 180), 1e-7);
  EXPECT_NEAR(z, 0, 1e-7);
  EXPECT_NEAR(w, std::cos(15.0 * std::numbers::pi / 180), 1e-7);
  EXPECT_FALSE(has(written, "-0.000000")) << written;  // no negative zero from the conversion
}

}  // namespace
