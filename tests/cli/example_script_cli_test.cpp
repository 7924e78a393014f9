// scripts/run-example.sh (the README's first command): its generated model and motions agree, so
// the example runs without a warning. The script's own `$m ...` lines are run here (all but render,
// which needs seconds per frame in software GL; it reads the same model and motion the same way),
// so the test follows the script as it changes.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "support/cli_run.hpp"

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

}  // namespace
}  // namespace mmdkit::test
