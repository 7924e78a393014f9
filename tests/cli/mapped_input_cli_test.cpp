// Inputs mapped or read (core/mapped_file.hpp) through the built binary: the same output whether
// a file is given by path (mapped), through a pipe (/dev/stdin of `cat FILE |`), as a redirected
// /dev/stdin, or as "-"; an empty file and a FIFO with no writer are errors, not a hang.
#include <gtest/gtest.h>

#include <sys/stat.h>

#include <cstdlib>
#include <filesystem>
#include <string>

#include "support/cli_run.hpp"
#include "support/corpus.hpp"

namespace {

namespace fs = std::filesystem;
using mmdkit::test::quote;
using mmdkit::test::slurp;

class MappedInputCli : public mmdkit::test::CliTest {
 protected:
  MappedInputCli() : CliTest("mappedcli") {}

  // `cat INPUT | mmdkit ARGS` (ARGS names /dev/stdin); stdout in out.bin, exit code returned.
  int piped(const fs::path& input, const std::string& args) const {
    const std::string cmd = "cat " + quote(input.string()) + " | " + quote(mmdkit::test::cli_path().string()) + " " +
                            args + " >" + quote((dir / "out.bin").string()) + " 2>" + quote((dir / "err.txt").string());
    const int status = std::system(cmd.c_str());
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  }

  // A motion of a few hundred KiB (above the size from which files are mapped) and a model.
  fs::path motion() {
    const fs::path p = dir / "m.vmd";
    if (!fs::exists(p)) {
      EXPECT_EQ(run("generate vmd -o " + quote(p.string()) + " --seed 3 --bone-keys 4000 --morph-keys 300").code, 0);
    }
    EXPECT_GT(fs::file_size(p), 64u << 10);
    return p;
  }
  fs::path model() {
    const fs::path p = dir / "model.pmx";
    if (!fs::exists(p)) {
      EXPECT_EQ(run("generate pmx -o " + quote(p.string()) + " --seed 2 --vertices 3000").code, 0);
    }
    return p;
  }
};

TEST_F(MappedInputCli, InfoAndDumpAreTheSameByPathPipeRedirectAndStdin) {
  const fs::path m = motion();
  for (const char* command : {"info", "dump"}) {
    SCOPED_TRACE(command);
    auto by_path = run(std::string(command) + " " + quote(m.string()));
    ASSERT_EQ(by_path.code, 0) << by_path.err;
    ASSERT_FALSE(by_path.out.empty());
    auto by_stdin = run(std::string(command) + " - < " + quote(m.string()));
    ASSERT_EQ(by_stdin.code, 0) << by_stdin.err;
    EXPECT_EQ(by_stdin.out, by_path.out);
    auto redirected = run(std::string(command) + " /dev/stdin < " + quote(m.string()));
    ASSERT_EQ(redirected.code, 0) << redirected.err;
    EXPECT_EQ(redirected.out, by_path.out);
    ASSERT_EQ(piped(m, std::string(command) + " /dev/stdin"), 0) << slurp(dir / "err.txt");
    EXPECT_EQ(slurp(dir / "out.bin"), by_path.out);
  }
}

TEST_F(MappedInputCli, SampleOfAPipedMotionAndModelEqualsTheFiles) {
  const fs::path m = motion(), pmx = model();
  auto by_path = run("sample " + quote(pmx.string()) + " " + quote(m.string()) +
                     " --frames 0-40:5 --format binary -o " + quote((dir / "a.bin").string()));
  ASSERT_EQ(by_path.code, 0) << by_path.err;
  ASSERT_EQ(piped(m, "sample " + quote(pmx.string()) + " /dev/stdin --frames 0-40:5 --format binary -o " +
                         quote((dir / "b.bin").string())),
            0)
      << slurp(dir / "err.txt");
  ASSERT_EQ(piped(pmx, "sample /dev/stdin " + quote(m.string()) + " --frames 0-40:5 --format binary -o " +
                           quote((dir / "c.bin").string())),
            0)
      << slurp(dir / "err.txt");
  const std::string a = slurp(dir / "a.bin");
  ASSERT_FALSE(a.empty());
  EXPECT_EQ(slurp(dir / "b.bin"), a);
  EXPECT_EQ(slurp(dir / "c.bin"), a);
}

TEST_F(MappedInputCli, EmptyFileAndFifoWithoutWriterAreErrors) {
  const fs::path empty = file("empty.vmd", std::string());
  auto e = run("info " + quote(empty.string()));
  EXPECT_EQ(e.code, 1);
  EXPECT_NE(e.err.find("empty"), std::string::npos) << e.err;
  const fs::path fifo = dir / "fifo.vmd";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  auto f = run("info " + quote(fifo.string()));  // returns: no writer is waited for
  EXPECT_EQ(f.code, 1);
  EXPECT_NE(f.err.find("no writer"), std::string::npos) << f.err;
  EXPECT_NE(f.err.find(fifo.string()), std::string::npos) << f.err;
}

}  // namespace
