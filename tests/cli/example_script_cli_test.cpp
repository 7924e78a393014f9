// scripts/run-example.sh (the README's first command): its generated model and motions agree, so
// the example runs without a warning. The script's own `$m ...` lines are run here (all but render,
// which needs seconds per frame in software GL; it reads the same model and motion the same way),
// so the test follows the script as it changes.
#include <gtest/gtest.h>
#include <rapidjson/document.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "support/cli_run.hpp"
#include "support/corpus.hpp"

namespace mmdkit::test {
namespace {

class ExampleScript : public CliTest {
 protected:
  ExampleScript() : CliTest("example_script") {}
};

// The script's mmdkit commands ("$m ARGS" lines), "$out" replaced by `out`.
std::vector<std::string> script_commands(const std::string& out) {
  std::ifstream in(std::string(MMDKIT_TESTS_DIR) + "/../scripts/run-example.sh");
  std::vector<std::string> cmds;
  for (std::string line; std::getline(in, line);) {
    if (!line.starts_with("$m ")) continue;
    line.erase(0, 3);
    for (std::size_t p; (p = line.find("$out")) != std::string::npos;) line.replace(p, 4, out);
    cmds.push_back(line);
  }
  return cmds;
}

// The script's real-file steps: its "  $m ARGS" lines (inside `if [ -n "$c" ]`), "$c" replaced by
// `corpus` and "$out" by `out`.
std::vector<std::string> corpus_commands(const std::string& corpus, const std::string& out) {
  std::ifstream in(std::string(MMDKIT_TESTS_DIR) + "/../scripts/run-example.sh");
  std::vector<std::string> cmds;
  for (std::string line; std::getline(in, line);) {
    if (!line.starts_with("  $m ")) continue;
    line.erase(0, 5);
    for (std::size_t p; (p = line.find("$out")) != std::string::npos;) line.replace(p, 4, out);
    for (std::size_t p; (p = line.find("$c")) != std::string::npos;) line.replace(p, 2, corpus);
    cmds.push_back(line);
  }
  return cmds;
}

struct Shell {
  int code = -1;
  std::string out;
};

// `command` through /bin/sh; stdout captured, stderr to `err_file`.
Shell shell(const std::string& command, const std::filesystem::path& err_file) {
  Shell r;
  FILE* p = popen((command + " 2>" + test::quote(err_file.string())).c_str(), "r");
  if (!p) return r;
  char buf[512];
  for (std::size_t n; (n = std::fread(buf, 1, sizeof buf, p)) > 0;) r.out.append(buf, n);
  const int st = pclose(p);
  r.code = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  return r;
}

// scripts/corpus-dir.sh, which run-example.sh uses: MMDKIT_CORPUS (relative to the caller's
// folder) resolved to an absolute path; without it ../shared/corpus beside the repository; a
// folder that is not there: exit 1 and a message naming it.
TEST_F(ExampleScript, TheCorpusFolderFollowsMmdkitCorpus) {
  const std::string script = test::quote(std::string(MMDKIT_TESTS_DIR) + "/../scripts/corpus-dir.sh");
  std::filesystem::create_directories(dir / "sub" / "corpus");
  const std::string abs = std::filesystem::canonical(dir / "sub" / "corpus").string();
  const std::filesystem::path err = dir / "err.txt";
  // Relative to the folder it is run from, printed absolute.
  Shell r = shell("cd " + test::quote((dir / "sub").string()) + " && MMDKIT_CORPUS=corpus sh " + script, err);
  EXPECT_EQ(r.code, 0) << test::slurp(err);
  EXPECT_EQ(r.out, abs + "\n");
  r = shell("cd / && MMDKIT_CORPUS=" + test::quote(abs) + " sh " + script, err);
  EXPECT_EQ(r.out, abs + "\n");
  // Not there: exit 1, the folder named.
  r = shell("cd " + test::quote(dir.string()) + " && MMDKIT_CORPUS=nowhere sh " + script, err);
  EXPECT_EQ(r.code, 1);
  EXPECT_EQ(r.out, "");
  EXPECT_NE(test::slurp(err).find("no corpus folder at 'nowhere' (set MMDKIT_CORPUS=DIR)"), std::string::npos)
      << test::slurp(err);
  // Unset: ../shared/corpus beside the repository, wherever it is run from.
  const std::filesystem::path beside = std::filesystem::path(MMDKIT_TESTS_DIR) / ".." / ".." / "shared" / "corpus";
  r = shell("cd / && env -u MMDKIT_CORPUS sh " + script, err);
  if (std::filesystem::is_directory(beside)) {
    EXPECT_EQ(r.code, 0);
    EXPECT_EQ(r.out, std::filesystem::canonical(beside).string() + "\n");
  } else {
    EXPECT_EQ(r.code, 1);
  }
  // run-example.sh takes its corpus from this script.
  const std::string text = test::slurp(std::string(MMDKIT_TESTS_DIR) + "/../scripts/run-example.sh");
  EXPECT_NE(text.find("c=$(sh \"$(dirname \"$0\")/corpus-dir.sh\" 2>/dev/null) || c="), std::string::npos);
}

// The real-file steps (README's "Example on real files") run without a warning: miku_v2.pmd with
// wavefile_v2.vmd, whose 'base' key is the PMD base morph (not an unmatched track).
TEST_F(ExampleScript, RealFileStepsRunWithoutWarnings) {
  MMDKIT_REQUIRE_CORPUS();
  const std::vector<std::string> cmds = corpus_commands(test::corpus_dir()->string(), dir.string());
  ASSERT_EQ(cmds.size(), 3u) << "scripts/run-example.sh's real-file steps changed shape";
  for (const std::string& c : cmds) {
    const Outcome r = run(c);
    ASSERT_EQ(r.code, 0) << c << "\n" << r.err;
    EXPECT_EQ(r.err.find("warning"), std::string::npos) << c << "\n" << r.err;
  }
}

TEST_F(ExampleScript, RunsWithoutWarnings) {
  const std::vector<std::string> cmds = script_commands(dir.string());
  ASSERT_GE(cmds.size(), 8u) << "scripts/run-example.sh not found or changed shape";
  std::size_t evaluating = 0;
  for (const std::string& c : cmds) {
    if (c.starts_with("render ")) continue;
    evaluating += c.starts_with("pose ") || c.starts_with("sample ");
    const Outcome r = run(c);
    ASSERT_EQ(r.code, 0) << c << "\n" << r.err;
    EXPECT_EQ(r.err.find("warning"), std::string::npos) << c << "\n" << r.err;
  }
  EXPECT_EQ(evaluating, 2u);  // pose and sample bind the motion to the model
  // Every bone and morph track of both motions names a bone / morph of the model.
  for (const char* motion : {"motion.vmd", "dance.vmd"}) {
    const Outcome s = run("sample " + quote((dir / "model.pmx").string()) + " " + quote((dir / motion).string()) +
                          " --frames 0 --morphs -o " + quote((dir / "s.json").string()) + " --force");
    ASSERT_EQ(s.code, 0) << s.err;
    EXPECT_EQ(s.err.find("match no"), std::string::npos) << motion << "\n" << s.err;
  }
}

// The README's showcase video: the script's dance (`generate vmd --model` on the generated
// figure; BoneStyle::dance) keeps the figure in view and on its feet. The generated motion at seed 7
// moved センター to y -15.9 and x 18.3 (the figure under the floor and out of the picture). Checked
// on every half frame, for the script's seed and four others, against the box vmd_generate.hpp
// documents: the centre within x, z in [-2.9, 2.9] and y in [7, 8.5] (rest height 8), the head
// above y = 13 (and so above the floor), the ankles no lower than their rest height 1.2 and the
// toes not below the floor (leg IK keys never go down; IK reaches them within 0.05), and the
// figure moves (a wrist travels more than 2 units; the centre more than 1).
TEST_F(ExampleScript, TheDanceStaysInViewAndAboveTheFloor) {
  const std::vector<std::string> cmds = script_commands(dir.string());
  std::string model_cmd, dance_cmd;
  for (const std::string& c : cmds) {
    if (c.starts_with("generate pmx ")) model_cmd = c;
    if (c.starts_with("generate vmd ") && c.find("dance.vmd") != std::string::npos) dance_cmd = c;
  }
  ASSERT_NE(model_cmd, "") << "scripts/run-example.sh changed shape";
  ASSERT_NE(dance_cmd, "") << "scripts/run-example.sh changed shape";
  ASSERT_NE(dance_cmd.find("--seed 7 "), std::string::npos) << dance_cmd;
  ASSERT_EQ(run(model_cmd).code, 0) << model_cmd;
  const std::string model = quote((dir / "model.pmx").string());
  for (const char* seed : {"7", "1", "2", "3", "4"}) {
    SCOPED_TRACE(std::string("seed ") + seed);
    std::string c = dance_cmd;
    c.replace(c.find("--seed 7 "), 9, std::string("--seed ") + seed + " ");
    ASSERT_EQ(run(c).code, 0) << c;
    const Outcome r = run("sample " + model + " " + quote((dir / "dance.vmd").string()) +
                          " --frames 0-60:0.5 --bones センター,頭,左足首,右足首,左つま先,右つま先,左手首 -o -");
    ASSERT_EQ(r.code, 0) << r.err;
    rapidjson::Document d;
    d.Parse(r.out.c_str());
    ASSERT_FALSE(d.HasParseError());
    ASSERT_EQ(d["frames"].Size(), 121u);
    std::array<double, 3> wrist_lo{1e9, 1e9, 1e9}, wrist_hi{-1e9, -1e9, -1e9}, centre_lo = wrist_lo, centre_hi = wrist_hi;
    for (const auto& f : d["frames"].GetArray()) {
      const double frame = f["frame"].GetDouble();
      for (const auto& b : f["bones"].GetArray()) {
        const std::string name = b["name"].GetString();
        const double x = b["position"][0].GetDouble(), y = b["position"][1].GetDouble(), z = b["position"][2].GetDouble();
        SCOPED_TRACE(name + " at frame " + std::to_string(frame));
        if (name == "センター") {
          EXPECT_LE(std::abs(x), 2.9);
          EXPECT_LE(std::abs(z), 2.9);
          EXPECT_GE(y, 7.0 - 1e-4);
          EXPECT_LE(y, 8.5 + 1e-4);
        } else if (name == "頭") {
          EXPECT_GT(y, 13.0);
        } else if (name.ends_with("足首")) {
          EXPECT_GE(y, 1.2 - 0.05);
        } else if (name.ends_with("つま先")) {
          EXPECT_GE(y, -0.05);
        }
        auto& lo = name == "左手首" ? wrist_lo : centre_lo;
        auto& hi = name == "左手首" ? wrist_hi : centre_hi;
        if (name == "左手首" || name == "センター")
          for (std::size_t a = 0; a < 3; ++a) {
            lo[a] = std::min(lo[a], b["position"][static_cast<rapidjson::SizeType>(a)].GetDouble());
            hi[a] = std::max(hi[a], b["position"][static_cast<rapidjson::SizeType>(a)].GetDouble());
          }
      }
    }
    auto spread = [](const std::array<double, 3>& lo, const std::array<double, 3>& hi) {
      double s = 0;
      for (std::size_t a = 0; a < 3; ++a) s = std::max(s, hi[a] - lo[a]);
      return s;
    };
    EXPECT_GT(spread(wrist_lo, wrist_hi), 2.0);
    EXPECT_GT(spread(centre_lo, centre_hi), 1.0);
  }
}

}  // namespace
}  // namespace mmdkit::test
