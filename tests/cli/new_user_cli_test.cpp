// What a new user met running mmdkit on real files, on generated ones: `pose` of a camera-only
// motion refused as `sample` refuses it (one rule, cli/animation_input.hpp), that message naming
// the model apart from the sentence, a PMD model's base morph key ignored silently, unmatched-track
// warnings naming each motion once, `check` in the diagnostic form of every command
// (cli/messages.hpp), `convert` naming --copy-textures, and `bake` warning about unmatched tracks.
#include <gtest/gtest.h>

#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include "mmdkit/core/file.hpp"
#include "mmdkit/formats/pmx.hpp"
#include "mmdkit/formats/vmd.hpp"
#include "mmdkit/version.hpp"
#include "support/cli_run.hpp"

namespace mmdkit::test {
namespace {

namespace fs = std::filesystem;

std::vector<std::string> lines_with(const std::string& text, const std::string& what) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);)
    if (line.find(what) != std::string::npos) out.push_back(line);
  return out;
}

class NewUserCli : public CliTest {
 protected:
  NewUserCli() : CliTest("new_user_cli") {}
  void SetUp() override {
    ASSERT_EQ(run("generate pmx --vertices 40 --morphs 3 -o " + q("m.pmx")).code, 0);
    ASSERT_EQ(run("generate vmd --bone-keys 0 --morph-keys 0 --camera-keys 4 --frames 90 -o " + q("cam.vmd")).code, 0);
    // The standard names: 5 bones and 13 morphs the generated model lacks (unmatched_cli_test).
    ASSERT_EQ(run("generate vmd --bone-keys 100 --morph-keys 32 --frames 20 -o " + q("std.vmd")).code, 0);
  }
  std::string q(const std::string& name) const { return quote((dir / name).string()); }
  std::string p(const std::string& name) const { return (dir / name).string(); }
};

// 1, 2: pose refuses a motion keying nothing of the model, with sample's rule and words.
TEST_F(NewUserCli, PoseRefusesACameraMotionAsSampleDoes) {
  // Before: exit 0 and a rest-pose OBJ without a word.
  const Outcome r = run("pose " + q("m.pmx") + " " + q("cam.vmd") + " -o " + q("p.obj"));
  EXPECT_EQ(r.code, 1);
  EXPECT_EQ(r.err, "mmdkit: error: " + p("cam.vmd") + ": the motion keys no bone or morph of the model '" + p("m.pmx") +
                       "': every frame would be the rest pose (a camera motion: pose writes no camera; give the "
                       "model's motion, or no motion for the rest pose)\n");
  EXPECT_FALSE(fs::exists(dir / "p.obj"));
  EXPECT_FALSE(fs::exists(dir / "p.mtl"));
  // The same sentence as sample's, up to the hint.
  const Outcome s = run("sample " + q("m.pmx") + " " + q("cam.vmd") + " -o " + q("s.json"));
  EXPECT_EQ(s.code, 1);
  const std::string head = "mmdkit: error: " + p("cam.vmd") + ": the motion keys no bone or morph of the model '" +
                           p("m.pmx") + "': every frame would be the rest pose (a camera motion: ";
  EXPECT_TRUE(s.err.starts_with(head)) << s.err;
  EXPECT_TRUE(r.err.starts_with(head)) << r.err;
  // No motion: the bind pose, as before; a motion keying the model: posed.
  EXPECT_EQ(run("pose " + q("m.pmx") + " -o " + q("p.obj")).code, 0);
  ASSERT_EQ(run("generate vmd --model " + q("m.pmx") + " --bone-keys 60 --frames 10 -o " + q("own.vmd")).code, 0);
  EXPECT_EQ(run("pose " + q("m.pmx") + " " + q("own.vmd") + " " + q("cam.vmd") + " --force -o " + q("p.obj")).code, 0);
}

// 2: several motions: each path quoted, the model's too, none run into the sentence.
TEST_F(NewUserCli, TheRefusalOfSeveralMotionsQuotesEachPath) {
  ASSERT_EQ(run("generate vmd --bone-keys 0 --morph-keys 0 --camera-keys 2 --frames 9 --seed 3 -o " + q("cam2.vmd")).code, 0);
  const Outcome r = run("pose " + q("m.pmx") + " " + q("cam.vmd") + " " + q("cam2.vmd") + " -o " + q("p.obj"));
  EXPECT_EQ(r.code, 1);
  EXPECT_TRUE(r.err.starts_with("mmdkit: error: the motions '" + p("cam.vmd") + "', '" + p("cam2.vmd") +
                                "' key no bone or morph of the model '" + p("m.pmx") +
                                "': every frame would be the rest pose ("))
      << r.err;
}

// 4: each unmatched-track warning names its motion once, at the start, then the names.
TEST_F(NewUserCli, UnmatchedWarningsNameEachMotionOnce) {
  ASSERT_EQ(run("generate vmd --bone-keys 100 --morph-keys 32 --frames 20 --seed 5 -o " + q("std2.vmd")).code, 0);
  const Outcome r = run("sample " + q("m.pmx") + " " + q("std.vmd") + " " + q("std2.vmd") + " --frames 0 -o " + q("s.json"));
  ASSERT_EQ(r.code, 0) << r.err;
  const std::vector<std::string> w = lines_with(r.err, " match no ");
  ASSERT_EQ(w.size(), 4u) << r.err;  // bones, morphs of each motion, in that order
  const std::string bones = ": 5 bone tracks of the motion match no bone of the model and are ignored: '";
  const std::string morphs = ": 13 morph tracks of the motion match no morph of the model and are ignored: '";
  EXPECT_TRUE(w[0].starts_with("mmdkit: warning: " + p("std.vmd") + bones)) << w[0];
  EXPECT_TRUE(w[1].starts_with("mmdkit: warning: " + p("std.vmd") + morphs)) << w[1];
  EXPECT_TRUE(w[2].starts_with("mmdkit: warning: " + p("std2.vmd") + bones)) << w[2];
  EXPECT_TRUE(w[3].starts_with("mmdkit: warning: " + p("std2.vmd") + morphs)) << w[3];
  for (const std::string& line : w) {
    EXPECT_EQ(count(line, dir.string()), 1u) << line;  // the path once, not after every name
    EXPECT_LT(line.size(), dir.string().size() + 200) << line;
  }
  // The five names of the humanoid's missing bones, in one list; at most 5 names then "...".
  for (const char* b : {"'グルーブ'", "'上半身2'", "'腰'", "'左親指１'", "'右親指１'"}) EXPECT_EQ(count(w[0], b), 1u) << b;
  EXPECT_TRUE(w[1].ends_with(", ...")) << w[1];
  EXPECT_EQ(count(w[1], "', '"), 4u) << w[1];
}

// 3: a PMD model's base morph ("base", skin type 0) is no morph of the view; a key of it (motions
// made with PMD models have one) is ignored without a warning. The same motion on the model
// converted to PMX (PMX Editor drops the base morph) does warn: the rule is PMD's only.
TEST_F(NewUserCli, APmdBaseMorphKeyIsNotReportedAsUnmatched) {
  ASSERT_EQ(run("generate pmd --vertices 40 --morphs 3 -o " + q("m.pmd")).code, 0);
  ASSERT_EQ(run("generate vmd --model " + q("m.pmd") + " --bone-keys 60 --morph-keys 9 --frames 10 -o " + q("own.vmd")).code, 0);
  auto motion = vmd::read_file(dir / "own.vmd");
  ASSERT_TRUE(motion);
  vmd::Motion mo = motion->motion;
  vmd::TrackName base;
  base.raw = {'b', 'a', 's', 'e'};
  base.text = "base";
  mo.morph_names.push_back(base);
  mo.morph_keys.push_back({static_cast<std::uint32_t>(mo.morph_names.size() - 1), 0, 0.0f});
  auto bytes = vmd::write(mo);
  ASSERT_TRUE(bytes);
  ASSERT_TRUE(write_file_atomic(dir / "with_base.vmd", *bytes));
  // Before: "1 morph track of the motions matches no morph of the model and is ignored: 'base'".
  const Outcome r = run("sample " + q("m.pmd") + " " + q("with_base.vmd") + " --frames 0 -o " + q("s.json"));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.err.find("match"), std::string::npos) << r.err;
  const Outcome po = run("pose " + q("m.pmd") + " " + q("with_base.vmd") + " -o " + q("p.obj"));
  ASSERT_EQ(po.code, 0) << po.err;
  EXPECT_EQ(po.err.find("match"), std::string::npos) << po.err;
  // PMX: an ordinary name, unmatched.
  ASSERT_EQ(run("convert " + q("m.pmd") + " " + q("m.pmx") + " --force").code, 0);
  const Outcome x = run("sample " + q("m.pmx") + " " + q("with_base.vmd") + " --frames 0 --force -o " + q("s.json"));
  ASSERT_EQ(x.code, 0) << x.err;
  EXPECT_NE(x.err.find("mmdkit: warning: " + p("with_base.vmd") +
                       ": 1 morph track of the motion matches no morph of the model and is ignored: 'base'\n"),
            std::string::npos)
      << x.err;
  // A PMX model with a morph named "base" (its first morph renamed): an ordinary morph, keyed; the
  // motion's key of the old name is the one unmatched track now.
  auto pmx = pmx::read_file(dir / "m.pmx");
  ASSERT_TRUE(pmx);
  ASSERT_FALSE(pmx->model.morphs.empty());
  const std::string renamed = pmx->model.morphs[0].name.text;
  pmx->model.morphs[0].name.assign("base");
  ASSERT_TRUE(write_file_atomic(dir / "named.pmx", *pmx::write(pmx->model)));
  const Outcome n = run("sample " + q("named.pmx") + " " + q("with_base.vmd") + " --frames 0 --morphs -o " + q("n.json"));
  ASSERT_EQ(n.code, 0) << n.err;
  EXPECT_NE(n.err.find(": 1 morph track of the motion matches no morph of the model and is ignored: '" + renamed + "'\n"),
            std::string::npos)
      << n.err;
  EXPECT_EQ(n.err.find("'base'"), std::string::npos) << n.err;
  EXPECT_NE(slurp(dir / "n.json").find("\"base\""), std::string::npos);
}

// 5: check's findings in the form of every command's diagnostics ("mmdkit: warning: FILE: ...",
// single quotes), the same line convert prints for the same texture.
TEST_F(NewUserCli, CheckFindingsHaveTheFormOfEveryWarning) {
  auto m = pmx::read_file(dir / "m.pmx");
  ASSERT_TRUE(m);
  ASSERT_FALSE(m->model.textures.empty());
  m->model.textures[0].assign("gone.png");
  ASSERT_TRUE(write_file_atomic(dir / "t.pmx", *pmx::write(m->model)));
  const Outcome c = run("check " + q("t.pmx"));
  ASSERT_EQ(c.code, 0) << c.out << c.err;
  const std::vector<std::string> w = lines_with(c.out, "gone.png");
  ASSERT_EQ(w.size(), 1u) << c.out;
  const std::string prefix = "mmdkit: warning: " + p("t.pmx") + ": section 'materials', record ";
  EXPECT_TRUE(w[0].starts_with(prefix)) << w[0];
  EXPECT_NE(w[0].find(": texture_missing: field texture: 'gone.png' not found in " + dir.string()), std::string::npos)
      << w[0];
  EXPECT_EQ(w[0].find('"'), std::string::npos) << w[0];
  EXPECT_EQ(lines_with(c.out, "warning:").size(), lines_with(c.out, "mmdkit: warning: ").size()) << c.out;
  EXPECT_NE(c.out.find(p("t.pmx") + ": 0 error(s), 1 warning(s)\n"), std::string::npos) << c.out;
}

// 6: a texture beside the input that a converted model will not find: the warning names the
// option that copies it; a texture missing beside the input too: not (it cannot help).
TEST_F(NewUserCli, ConvertNamesCopyTexturesWhereItApplies) {
  auto m = pmx::read_file(dir / "m.pmx");
  ASSERT_TRUE(m);
  ASSERT_GE(m->model.textures.size(), 1u);
  m->model.textures.emplace_back().assign("gone.png");
  ASSERT_GE(m->model.materials.size(), 2u);
  m->model.materials[1].texture = static_cast<std::int32_t>(m->model.textures.size() - 1);
  ASSERT_TRUE(write_file_atomic(dir / "t.pmx", *pmx::write(m->model)));
  fs::create_directories(dir / "out");
  const Outcome r = run("convert " + q("t.pmx") + " " + q("out/t.pmx"));
  ASSERT_EQ(r.code, 0) << r.err;
  const std::vector<std::string> beside = lines_with(r.err, "it is beside the input");
  ASSERT_FALSE(beside.empty()) << r.err;
  for (const std::string& line : beside) EXPECT_NE(line.find("give --copy-textures to copy it there"), std::string::npos) << line;
  const std::vector<std::string> gone = lines_with(r.err, "'gone.png'");
  ASSERT_EQ(gone.size(), 1u) << r.err;
  EXPECT_NE(gone[0].find("it is missing beside the input too"), std::string::npos) << gone[0];
  EXPECT_EQ(gone[0].find("--copy-textures"), std::string::npos) << gone[0];
  // What the warning says works: with --copy-textures the found textures are copied, no such warning.
  const Outcome c = run("convert " + q("t.pmx") + " " + q("out/t.pmx") + " --force --copy-textures");
  ASSERT_EQ(c.code, 0) << c.err;
  EXPECT_EQ(c.err.find("it is beside the input"), std::string::npos) << c.err;
}

#if MMDKIT_HAS_PHYSICS
// 8: bake warns about tracks that match nothing, in sample's words; --quiet silences it.
TEST_F(NewUserCli, BakeWarnsAboutUnmatchedTracksAsSampleDoes) {
  ASSERT_EQ(run("generate pmd --vertices 40 --morphs 3 -o " + q("m.pmd")).code, 0);
  const Outcome s = run("sample " + q("m.pmd") + " " + q("std.vmd") + " --frames 0 -o " + q("s.json"));
  ASSERT_EQ(s.code, 0) << s.err;
  const std::vector<std::string> expected = lines_with(s.err, " match no ");
  ASSERT_EQ(expected.size(), 2u) << s.err;
  const Outcome b = run("bake " + q("m.pmd") + " " + q("std.vmd") + " --frames 0-5 -o " + q("b.vmd"));
  ASSERT_EQ(b.code, 0) << b.err;
  EXPECT_EQ(lines_with(b.err, " match no "), expected) << b.err;
  const Outcome quiet = run("bake " + q("m.pmd") + " " + q("std.vmd") + " --frames 0-5 --quiet --force -o " + q("b.vmd"));
  ASSERT_EQ(quiet.code, 0) << quiet.err;
  EXPECT_EQ(quiet.err, "");
}
#endif

}  // namespace
}  // namespace mmdkit::test

namespace mmdkit::test {
namespace {

class PastTheEndCli : public CliTest {
 protected:
  PastTheEndCli() : CliTest("past_the_end_cli") {}
  std::string q(const std::string& name) const { return quote((dir / name).string()); }
};

// A new user sampled --frames 3000-4000 of a motion ending at 2809 and got 1001 held frames
// without a word: sample notes it once (not with -q, not for frames within the motion).
TEST_F(PastTheEndCli, SampleNotesFramesAfterTheLastKey) {
  ASSERT_EQ(run("generate pmx --vertices 40 -o " + q("m.pmx")).code, 0);
  ASSERT_EQ(run("generate vmd --model " + q("m.pmx") + " --bone-keys 50 --morph-keys 0 --frames 30 -o " + q("a.vmd")).code, 0);
  const Outcome past = run("sample " + q("m.pmx") + " " + q("a.vmd") + " --frames 0-100:50 -o " + q("s1.json"));
  ASSERT_EQ(past.code, 0) << past.err;
  const std::size_t at = past.err.find("mmdkit: note: --frames goes to 100 but the inputs' last key is at frame ");
  ASSERT_NE(at, std::string::npos) << past.err;
  EXPECT_EQ(past.err.find("mmdkit: note: --frames", at + 1), std::string::npos);  // once
  const Outcome within = run("sample " + q("m.pmx") + " " + q("a.vmd") + " --frames 0,0.5 -o " + q("s2.json"));
  ASSERT_EQ(within.code, 0);
  EXPECT_EQ(within.err.find("--frames goes to"), std::string::npos) << within.err;
  const Outcome quiet = run("sample " + q("m.pmx") + " " + q("a.vmd") + " --frames 0-100:50 -q -o " + q("s3.json"));
  ASSERT_EQ(quiet.code, 0);
  EXPECT_EQ(quiet.err, "");
}

}  // namespace
}  // namespace mmdkit::test
