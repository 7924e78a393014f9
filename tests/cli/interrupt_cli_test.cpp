// Issue 13, item 1: `sample` interrupted (SIGINT / SIGTERM) while it streams its output to a file
// leaves neither the hidden temporary file nor the output, and ends by that signal.
#include <gtest/gtest.h>

#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include "support/cli_run.hpp"
#include "support/corpus.hpp"

namespace {

namespace fs = std::filesystem;
using mmdkit::test::quote;

class InterruptCli : public mmdkit::test::CliTest {
 protected:
  InterruptCli() : CliTest("interruptcli") {}

  // Starts `mmdkit sample` over many frames into dir/out.json, waits until its temporary file
  // holds data, sends `sig`, and checks what is left.
  void interrupt_sample(int sig) {
    ASSERT_EQ(run("generate pmx -o " + quote((dir / "m.pmx").string()) + " --vertices 30").code, 0);
    ASSERT_EQ(run("generate vmd -o " + quote((dir / "m.vmd").string()) + " --bone-keys 200 --frames 100").code, 0);
    const std::string cli = mmdkit::test::cli_path().string();
    const std::vector<std::string> args = {cli, "sample", (dir / "m.pmx").string(), (dir / "m.vmd").string(),
                                           "--frames", "0-9000000", "-o", (dir / "out.json").string()};
    const pid_t pid = ::fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
      std::vector<char*> argv;
      for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
      argv.push_back(nullptr);
      ::execv(cli.c_str(), argv.data());
      ::_exit(127);
    }
    // Wait (at most 60 s) for the temporary file to hold something.
    bool seen = false;
    for (int i = 0; i < 600 && !seen; ++i) {
      for (const auto& e : fs::directory_iterator(dir)) {
        std::error_code ec;
        if (e.path().filename().string().starts_with(".out.json.tmp") && fs::file_size(e.path(), ec) > 0 && !ec)
          seen = true;
      }
      if (!seen) std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    ::kill(pid, seen ? sig : SIGKILL);
    int status = 0;
    ASSERT_EQ(::waitpid(pid, &status, 0), pid);
    ASSERT_TRUE(seen) << "no temporary output appeared";
    ASSERT_TRUE(WIFSIGNALED(status)) << "status " << status;
    EXPECT_EQ(WTERMSIG(status), sig);
    for (const auto& e : fs::directory_iterator(dir)) {
      const std::string name = e.path().filename().string();
      EXPECT_FALSE(name.starts_with(".out.json")) << "left behind: " << name;
      EXPECT_NE(name, "out.json");
    }
  }
};

TEST_F(InterruptCli, SampleSigintLeavesNoTemporaryFile) { interrupt_sample(SIGINT); }
TEST_F(InterruptCli, SampleSigtermLeavesNoTemporaryFile) { interrupt_sample(SIGTERM); }

}  // namespace
