// What a new user hit on MMD files the project had never seen (MMD's bundled models among them),
// rebuilt on generated files: names with control characters stay on one diagnostic line, ...
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include "mmdkit/core/file.hpp"
#include "mmdkit/formats/pmd.hpp"
#include "mmdkit/formats/pmx.hpp"
#include "mmdkit/formats/vmd.hpp"
#include "mmdkit/formats/vpd.hpp"
#include "mmdkit/version.hpp"
#include "support/corpus.hpp"
#include "cli/progress.hpp"
#include "support/cli_run.hpp"

namespace mmdkit::test {
namespace {

namespace fs = std::filesystem;

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

class UnseenFilesCli : public CliTest {
 protected:
  UnseenFilesCli() : CliTest("unseen_files_cli") {}
  std::string q(const std::string& name) const { return quote((dir / name).string()); }
};

// mokou_A.pmd names joint 44 "\nネクタイJ1": every warning about it printed over two lines. Names
// in diagnostics are escaped (\n), the line stays one, in text and in `check --json`.
TEST_F(UnseenFilesCli, ANameWithALineFeedStaysOnOneDiagnosticLine) {
  ASSERT_EQ(run("generate pmx --vertices 30 -o " + q("m.pmx")).code, 0);
  auto bytes = read_file(dir / "m.pmx");
  ASSERT_TRUE(bytes);
  auto r = pmx::read(*bytes);
  ASSERT_TRUE(r) << r.error().to_string();
  pmx::Model m = r->model;
  ASSERT_FALSE(m.textures.empty());
  m.textures[0].assign("\nnew\tline.png");  // a texture that is missing: check warns naming it
  auto w = pmx::write(m);
  ASSERT_TRUE(w);
  const fs::path f = file("nl.pmx", *w);
  const Outcome c = run("check " + quote(f.string()));
  std::size_t named = 0;
  for (const std::string& line : lines_of(c.out)) {
    if (line.find("new") == std::string::npos) continue;
    ++named;
    EXPECT_EQ(line.rfind("mmdkit: warning: ", 0), 0u) << line;
    EXPECT_NE(line.find("'\\nnew\\tline.png'"), std::string::npos) << line;
  }
  EXPECT_GE(named, 1u) << c.out;
  // Every line is a diagnostic or the count line: none is the rest of a name cut by its line feed.
  for (const std::string& line : lines_of(c.out))
    EXPECT_TRUE(line.rfind("mmdkit: ", 0) == 0 || line.rfind(f.string() + ": ", 0) == 0) << "a line of its own: " << line;
  const Outcome j = run("check --json " + quote(f.string()));
  EXPECT_NE(j.out.find("\\nnew\\tline.png"), std::string::npos) << j.out;  // JSON's own escape
}

// `convert x.pmx x.pmd` of a model with SDEF / BDEF4 weights was refused with no way through:
// --lossy converts them (SDEF → BDEF2 with its bones and weight, BDEF4 / QDEF → the two largest
// weights renormalised) and reports the counts; without it the refusal stays.
TEST_F(UnseenFilesCli, ConvertLossyTurnsWeightsPmdCannotHoldIntoBdef2) {
  ASSERT_EQ(run("generate pmx --vertices 200 --morphs 0 -o " + q("g.pmx")).code, 0);  // every deform type
  auto bytes = read_file(dir / "g.pmx");
  ASSERT_TRUE(bytes);
  auto r = pmx::read(*bytes);
  ASSERT_TRUE(r) << r.error().to_string();
  // Names PMD's fields hold, so that only the weights (and what --lossy converts) stand in the way.
  pmx::Model m = r->model;
  m.name_en.assign("w");
  for (std::size_t t = 0; t < m.textures.size(); ++t)  // short, the extension (the sphere mode) kept
    m.textures[t].assign("t" + std::to_string(t) + fs::path(m.textures[t].text).extension().string());
  auto w = pmx::write(m);
  ASSERT_TRUE(w) << w.error().to_string();
  file("w.pmx", *w);
  std::size_t sdef = 0, bdef4 = 0, qdef = 0;
  for (const pmx::Vertex& v : m.vertices) {
    sdef += v.deform == pmx::DeformType::sdef;
    bdef4 += v.deform == pmx::DeformType::bdef4;
    qdef += v.deform == pmx::DeformType::qdef;
  }
  ASSERT_GT(sdef, 0u);
  ASSERT_GT(bdef4, 0u);
  const Outcome refused = run("convert " + q("w.pmx") + " " + q("strict.pmd"));
  EXPECT_EQ(refused.code, 1) << refused.err;
  EXPECT_NE(refused.err.find("SDEF vertices"), std::string::npos) << refused.err;
  EXPECT_NE(refused.err.find("(--lossy converts the weights"), std::string::npos) << refused.err;
  EXPECT_FALSE(fs::exists(dir / "strict.pmd"));

  const Outcome lossy = run("convert --lossy " + q("w.pmx") + " " + q("lossy.pmd"));
  ASSERT_EQ(lossy.code, 0) << lossy.err;
  EXPECT_NE(lossy.err.find("--lossy: "), std::string::npos) << lossy.err;
  EXPECT_NE(lossy.err.find("SDEF vertices converted to BDEF2 (same bones and weight, linear blending) (" +
                           std::to_string(sdef) + ": "),
            std::string::npos)
      << lossy.err;
  EXPECT_NE(lossy.err.find("BDEF4 vertices converted to BDEF2 (the two largest weights, renormalised) (" +
                           std::to_string(bdef4) + ": "),
            std::string::npos)
      << lossy.err;
  auto pb = read_file(dir / "lossy.pmd");
  ASSERT_TRUE(pb);
  auto p = pmd::read(*pb);
  ASSERT_TRUE(p) << p.error().to_string();
  ASSERT_EQ(p->model.vertices.size(), m.vertices.size());
  std::size_t checked = 0;
  for (std::size_t i = 0; i < m.vertices.size(); ++i) {
    const pmx::Vertex& v = m.vertices[i];
    const pmd::Vertex& d = p->model.vertices[i];
    if (v.deform == pmx::DeformType::sdef) {
      EXPECT_EQ(d.bones[0], v.bones[0]) << i;
      EXPECT_EQ(d.bones[1], v.bones[1]) << i;
      EXPECT_EQ(d.weight, std::lround(v.weights[0] * 100)) << i;
      ++checked;
    } else if (v.deform == pmx::DeformType::bdef4 || v.deform == pmx::DeformType::qdef) {
      // The two largest weights, written out by hand: first the largest (lowest slot on a tie).
      std::size_t a = 0;
      for (std::size_t k = 1; k < 4; ++k)
        if (v.weights[k] > v.weights[a]) a = k;
      std::size_t b = a == 0 ? 1 : 0;
      for (std::size_t k = 0; k < 4; ++k)
        if (k != a && v.weights[k] > v.weights[b]) b = k;
      EXPECT_EQ(d.bones[0], v.bones[a]) << i;
      EXPECT_EQ(d.bones[1], v.bones[b]) << i;
      EXPECT_EQ(d.weight, std::lround(v.weights[a] / (v.weights[a] + v.weights[b]) * 100)) << i;
      ++checked;
    }
  }
  EXPECT_EQ(checked, sdef + bdef4 + qdef);
}

// Messages that misled: a missing output folder named a temporary file (video) or said nothing
// useful; a folder as convert's output was an "extension ''"; a folder as a model was "is not a
// file" here and "is a directory, not a file" in info; `mmdkit motion` and `mmdkit` asked for a
// command in two styles.
TEST_F(UnseenFilesCli, MessagesSayWhatIsWrongInOneWording) {
  ASSERT_EQ(run("generate pmx --vertices 20 -o " + q("m.pmx")).code, 0);
  ASSERT_EQ(run("generate vmd --bone-keys 10 -o " + q("a.vmd")).code, 0);
  const std::string missing = (dir / "nodir" / "x.mp4").string();
  if (MMDKIT_HAS_RENDER) {
    for (const char* out : {"x.mp4", "x.webm", "x.png"}) {
      const std::string o = (dir / "nodir" / out).string();
      const Outcome r = run("render " + q("m.pmx") + " --frame 0 -o " + quote(o));
      EXPECT_EQ(r.code, 1) << r.err;
      EXPECT_NE(r.err.find("mmdkit: error: " + o + ": io_error: output folder does not exist"), std::string::npos) << r.err;
      EXPECT_EQ(r.err.find(".tmp"), std::string::npos) << r.err;
    }
  }
  const Outcome sample = run("sample " + q("m.pmx") + " " + q("a.vmd") + " -o " + quote((dir / "nodir" / "t.json").string()));
  EXPECT_EQ(sample.code, 1);
  EXPECT_NE(sample.err.find("output folder does not exist"), std::string::npos) << sample.err;

  const Outcome folder = run("convert " + q("a.vmd") + " " + quote(dir.string()));
  EXPECT_EQ(folder.code, 1) << folder.err;
  EXPECT_NE(folder.err.find("mmdkit: error: " + dir.string() + ": io_error: the output is a folder; give a file name"),
            std::string::npos)
      << folder.err;
  EXPECT_EQ(folder.err.find("extension"), std::string::npos) << folder.err;

  const Outcome info = run("info " + quote(dir.string()));
  EXPECT_NE(info.err.find("is a directory, not a file"), std::string::npos) << info.err;
  if (MMDKIT_HAS_RENDER) {
    const Outcome model = run("render " + quote(dir.string()) + " -o " + q("t.png"));
    EXPECT_EQ(model.code, 1) << model.err;
    EXPECT_NE(model.err.find("is a directory, not a file"), std::string::npos) << model.err;
  }

  const Outcome top = run("");
  const Outcome motion = run("motion");
  EXPECT_EQ(top.code, 2);
  EXPECT_EQ(motion.code, 2);
  EXPECT_NE(top.err.find("mmdkit: error: a command is required (info, "), std::string::npos) << top.err;
  EXPECT_NE(motion.err.find("mmdkit: error: a subcommand of motion is required (trim, shift, merge, mirror, "),
            std::string::npos)
      << motion.err;
  EXPECT_EQ(motion.err.find("A subcommand"), std::string::npos) << motion.err;
  const Outcome foo = run("motion foo");
  EXPECT_EQ(foo.code, 2);
  EXPECT_NE(foo.err.find("mmdkit: error: unknown subcommand 'foo' of motion (trim, "), std::string::npos) << foo.err;
}

// `motion mirror 11.vpd -o m11.vpd` said a VMD motion converts only to .vmd: a pose is mirrored
// as a pose — names swapped (左 ↔ 右), x translation and the y, z rotation components negated —
// and twice gives the file back byte for byte.
TEST_F(UnseenFilesCli, MirrorOfAPoseIsAPose) {
  vpd::Pose pose;
  pose.model_file.assign("m.pmx");
  vpd::Bone left, center;
  left.name.assign("左腕");
  left.translation = {1.5f, 2, 3};
  left.rotation = {0.1f, 0.2f, 0.3f, 0.927362f};
  center.name.assign("センター");
  center.translation = {0, 1, 0};
  pose.bones = {left, center};
  auto bytes = vpd::write(pose);
  ASSERT_TRUE(bytes);
  const fs::path in = file("p.vpd", *bytes);
  const Outcome r = run("motion mirror " + quote(in.string()) + " -o " + q("m.vpd"));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.err.find("mmdkit motion mirror: wrote "), std::string::npos) << r.err;
  auto mb = read_file(dir / "m.vpd");
  ASSERT_TRUE(mb);
  auto m = vpd::read(*mb);
  ASSERT_TRUE(m) << m.error().to_string();
  ASSERT_EQ(m->bones.size(), 2u);
  EXPECT_EQ(m->bones[0].name.text, "右腕");
  EXPECT_EQ(m->bones[0].translation, (std::array<float, 3>{-1.5f, 2, 3}));
  EXPECT_EQ(m->bones[0].rotation, (std::array<float, 4>{0.1f, -0.2f, -0.3f, 0.927362f}));
  EXPECT_EQ(m->bones[1].name.text, "センター");
  EXPECT_EQ(m->bones[1].translation, (std::array<float, 3>{0, 1, 0}));  // no -0 written
  const Outcome back = run("motion mirror " + q("m.vpd") + " -o " + q("back.vpd"));
  ASSERT_EQ(back.code, 0) << back.err;
  EXPECT_EQ(slurp(dir / "back.vpd"), slurp(in));
  // A pose does not become a motion by mirroring: .vmd output is refused for a VPD input.
  const Outcome vmd = run("motion mirror " + quote(in.string()) + " -o " + q("m.vmd"));
  EXPECT_EQ(vmd.code, 2) << vmd.err;
}

// `mmdkit info a.vmd b.vmd`, `mmdkit check *.pmd`: one block (or JSON object) per file, the exit
// status the worst.
TEST_F(UnseenFilesCli, InfoAndCheckTakeSeveralFiles) {
  ASSERT_EQ(run("generate vmd --bone-keys 10 -o " + q("a.vmd")).code, 0);
  ASSERT_EQ(run("generate vmd --bone-keys 20 -o " + q("b.vmd")).code, 0);
  ASSERT_EQ(run("generate pmx --vertices 20 -o " + q("m.pmx")).code, 0);
  const Outcome one = run("info " + q("a.vmd"));
  const Outcome two = run("info " + q("a.vmd") + " " + q("b.vmd"));
  ASSERT_EQ(two.code, 0) << two.err;
  EXPECT_EQ(count(two.out, "format: vmd"), 2u) << two.out;
  EXPECT_NE(two.out.find("file: " + (dir / "a.vmd").string() + "\n" + one.out), std::string::npos) << two.out;
  const Outcome json = run("info --json " + q("a.vmd") + " " + q("b.vmd"));
  ASSERT_EQ(json.code, 0);
  EXPECT_EQ(json.out.substr(0, 2), "[\n") << json.out;
  EXPECT_NE(json.out.find("\"file\": \"" + (dir / "b.vmd").string() + "\""), std::string::npos) << json.out;
  // A bad file among good ones: its error, the others' blocks, exit 1.
  file("bad.vmd", std::string("Vocaloid Motion Data 0002"));
  const Outcome mixed = run("info " + q("a.vmd") + " " + q("bad.vmd") + " " + q("b.vmd"));
  EXPECT_EQ(mixed.code, 1);
  EXPECT_EQ(count(mixed.out, "format: vmd"), 2u) << mixed.out;
  EXPECT_NE(mixed.err.find("bad.vmd"), std::string::npos) << mixed.err;
  const Outcome mixed_json = run("info --json " + q("a.vmd") + " " + q("bad.vmd"));
  EXPECT_EQ(mixed_json.code, 1);
  EXPECT_NE(mixed_json.out.find("{\"file\": \"" + (dir / "bad.vmd").string() + "\", \"error\": \"" + (dir / "bad.vmd").string()),
            std::string::npos)
      << mixed_json.out;
  // one unreadable file alone: its error object on stdout as well (a new user's finding: nothing)
  for (const char* cmd : {"info --json ", "check --json "}) {
    const Outcome alone = run(cmd + q("bad.vmd"));
    EXPECT_EQ(alone.code, 1) << cmd;
    EXPECT_EQ(alone.out.rfind("{\"file\": \"" + (dir / "bad.vmd").string() + "\", \"error\": \"", 0), 0u) << cmd << alone.out;
    EXPECT_NE(alone.err.find("bad.vmd"), std::string::npos) << cmd << alone.err;
  }
  const Outcome check = run("check " + q("a.vmd") + " " + q("m.pmx"));
  EXPECT_NE(check.out.find((dir / "a.vmd").string() + ": 0 error(s)"), std::string::npos) << check.out;
  EXPECT_NE(check.out.find((dir / "m.pmx").string() + ": 0 error(s)"), std::string::npos) << check.out;
  const Outcome cj = run("check --json " + q("a.vmd") + " " + q("m.pmx"));
  EXPECT_EQ(count(cj.out, "\"file\": "), 2u) << cj.out;
  EXPECT_EQ(run("info - " + q("a.vmd")).code, 2);  // stdin only as the one file
}

// MMD's stock ネギ(右手).vac describes the format in comment lines after its six: `info` printed
// a trailing_data warning per line where `render --accessory` was quiet. MMD ignores them.
TEST_F(UnseenFilesCli, StockVacIsReadQuietly) {
  MMDKIT_REQUIRE_CORPUS();
  const auto vac = corpus_file("magicien__MMDSceneKit/Sample_swift/Common/art.scnassets/Accessory/ネギ(右手).vac");
  ASSERT_TRUE(vac);
  const Outcome r = run("info " + quote(vac->path.string()));
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.err, "");
  EXPECT_NE(r.out.find("右手"), std::string::npos) << r.out;
}

// MMD's own ダミーボーン.pmd (bundled with MMD, used twice by its sample project) was read as GBK:
// name 僟儈乕儃乕儞, bone ﾎﾞｰﾝ01 (ce de b0 dd 30 31) as 无拜01, and a VMD keying ﾎﾞｰﾝ01 by the same
// bytes bound nothing. CP932 now, so the names read and the motion binds.
TEST_F(UnseenFilesCli, MmdsDummyBoneModelReadsAsCp932AndBinds) {
  MMDKIT_REQUIRE_CORPUS();
  const auto f = corpus_file("oigami__PMMEditor/UserFile/Model/ダミーボーン.pmd");
  ASSERT_TRUE(f);
  const Outcome info = run("info " + quote(f->path.string()));
  ASSERT_EQ(info.code, 0) << info.err;
  EXPECT_NE(info.out.find("encoding: cp932"), std::string::npos) << info.out;
  EXPECT_NE(info.out.find("ダミーボーン"), std::string::npos) << info.out;
  const Outcome dump = run("dump " + quote(f->path.string()));
  EXPECT_NE(dump.out.find("ﾎﾞｰﾝ01"), std::string::npos);
  EXPECT_EQ(dump.out.find("无拜"), std::string::npos);
  // A motion keying ﾎﾞｰﾝ01 by its CP932 bytes binds (sample would refuse a motion keying nothing).
  vmd::Motion m;
  vmd::TrackName n;
  n.raw = {0xCE, 0xDE, 0xB0, 0xDD, '0', '1'};
  n.text = "ﾎﾞｰﾝ01";
  m.bone_names.push_back(n);
  vmd::BoneKey k;
  k.frame = 0;
  k.position = {0, 1, 0};
  m.bone_keys.push_back(k);
  auto bytes = vmd::write(m);
  ASSERT_TRUE(bytes) << bytes.error().to_string();
  const fs::path motion = file("dummy.vmd", *bytes);
  const Outcome sample = run("sample " + quote(f->path.string()) + " " + quote(motion.string()) + " -o " + q("d.json"));
  EXPECT_EQ(sample.code, 0) << sample.err;
  EXPECT_EQ(sample.err.find("match no bone"), std::string::npos) << sample.err;
}

// Summary lines name files and records too: one line each, whatever a name holds.
TEST(UnseenFilesSummary, SummaryLinesEscapeControlCharacters) {
  std::ostringstream err;
  cli::summary(err, false, "bake", "wrote b.vmd (1 bone '\nネクタイJ1')");
  EXPECT_EQ(err.str(), "mmdkit bake: wrote b.vmd (1 bone '\\nネクタイJ1')\n");
}

}  // namespace
}  // namespace mmdkit::test
