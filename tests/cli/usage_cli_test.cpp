// Issue 13, a new user's findings on outputs and usage: -o /dev/null is an output (16), binary
// output to a terminal is refused (17), dump -o NAME.vmd warns that it writes JSON (13),
// generate refuses another format's extension and options that do not apply (left-overs, 14),
// usage errors carry "error:" and exit 2 (15).
#include <gtest/gtest.h>

#include <sys/wait.h>

#include <cstdlib>
#include <string>

#include "support/cli_run.hpp"
#include "support/corpus.hpp"

namespace {

namespace fs = std::filesystem;
using mmdkit::test::Outcome;
using mmdkit::test::quote;

bool has(const std::string& text, const std::string& what) { return text.find(what) != std::string::npos; }

class UsageCli : public mmdkit::test::CliTest {
 protected:
  UsageCli() : CliTest("usagecli") {}
  std::string p(const std::string& name) const { return quote((dir / name).string()); }
  fs::path motion() {
    if (!fs::exists(dir / "m.vmd")) {
      EXPECT_EQ(run("generate vmd -o " + p("m.vmd") + " --bone-keys 5").code, 0);
    }
    return dir / "m.vmd";
  }
  // Runs the binary with a terminal as its standard output (script(1) gives it a pseudo-terminal);
  // returns the exit code, and what the terminal showed in `shown`.
  int on_terminal(const std::string& args, std::string& shown) {
    const std::string inner = quote(mmdkit::test::cli_path().string()) + " " + args;
    Outcome r = run_sh("script -qec " + quote(inner) + " /dev/null");
    shown = r.out;
    return r.code;
  }
  Outcome run_sh(const std::string& cmd) {
    // run_cli prefixes the binary; an empty binary call is avoided by running sh directly.
    const std::string out = (dir / "sh_out.txt").string(), err = (dir / "sh_err.txt").string();
    Outcome r;
    const int status = std::system((cmd + " > " + quote(out) + " 2> " + quote(err) + " < /dev/null").c_str());
    r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    r.out = mmdkit::test::slurp(out);
    r.err = mmdkit::test::slurp(err);
    return r;
  }
};

TEST_F(UsageCli, DevNullIsAnOutputNotAnExistingFile) {
  const fs::path m = motion();
  for (const std::string& cmd : {std::string("generate vmd -o /dev/null"), "convert " + quote(m.string()) + " /dev/null --to vmd",
                                 "dump " + quote(m.string()) + " -o /dev/null", std::string("generate pmx -o /dev/null")}) {
    Outcome r = run(cmd);
    EXPECT_EQ(r.code, 0) << cmd << ": " << r.err;
    EXPECT_FALSE(has(r.err, "exists")) << r.err;
  }
  EXPECT_TRUE(fs::is_character_file("/dev/null"));  // still the device, not a renamed file
}

TEST_F(UsageCli, BinaryOutputToATerminalIsRefused) {
  MMDKIT_REQUIRE_PTY();
  const fs::path m = motion();
  std::string shown;
  EXPECT_EQ(on_terminal("generate vmd -o -", shown), 2) << shown;
  EXPECT_TRUE(has(shown, "mmdkit: error: refusing to write binary data to a terminal")) << shown;
  EXPECT_EQ(on_terminal("convert " + quote(m.string()) + " - --to vmd", shown), 2) << shown;
  EXPECT_TRUE(has(shown, "refusing to write binary vmd data to a terminal")) << shown;
  // Text is fine on a terminal, and binary is fine into a pipe.
  EXPECT_EQ(on_terminal("convert " + quote(m.string()) + " - --to json", shown), 0) << shown;
  EXPECT_TRUE(has(shown, "\"format\"")) << shown;
  Outcome piped = run("convert " + quote(m.string()) + " - --to vmd");
  EXPECT_EQ(piped.code, 0) << piped.err;
  EXPECT_EQ(piped.out, mmdkit::test::slurp(m));
}

TEST_F(UsageCli, DumpUnderABinaryExtensionWarns) {
  const fs::path m = motion();
  Outcome r = run("dump " + quote(m.string()) + " -o " + p("new.vmd"));
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(has(r.err, "mmdkit: warning: " + (dir / "new.vmd").string() + ": dump writes JSON text, not a vmd file"))
      << r.err;
  EXPECT_EQ(mmdkit::test::slurp(dir / "new.vmd").substr(0, 1), "{");
  Outcome j = run("dump " + quote(m.string()) + " -o " + p("new.json"));
  EXPECT_EQ(j.code, 0);
  EXPECT_FALSE(has(j.err, "warning")) << j.err;
}

TEST_F(UsageCli, GenerateRefusesAnotherFormatsExtensionAndForeignOptions) {
  Outcome ext = run("generate vmd -o " + p("x.pmx"));
  EXPECT_EQ(ext.code, 2);
  EXPECT_TRUE(has(ext.err, "mmdkit: error: output '" + (dir / "x.pmx").string() + "' has the extension of another format"))
      << ext.err;
  EXPECT_FALSE(fs::exists(dir / "x.pmx"));
  Outcome vertices = run("generate vmd --vertices 10 -o " + p("a.vmd"));
  EXPECT_EQ(vertices.code, 2);
  EXPECT_TRUE(has(vertices.err, "mmdkit: error: --vertices does not apply to generate vmd (only to pmd pmx)"))
      << vertices.err;
  Outcome variant = run("generate vmd --variant foo -o " + p("a.vmd"));
  EXPECT_EQ(variant.code, 2);
  EXPECT_TRUE(has(variant.err, "--variant does not apply to generate vmd")) << variant.err;
  Outcome keys = run("generate pmx --bone-keys 3 -o " + p("a.pmx"));
  EXPECT_EQ(keys.code, 2);
  EXPECT_FALSE(fs::exists(dir / "a.vmd"));
  EXPECT_EQ(run("generate vmd --bone-keys 3 -o " + p("ok.vmd")).code, 0);  // what applies still works
  EXPECT_EQ(run("generate pmx --vertices 10 -o " + p("ok.pmx")).code, 0);
}

// Values a generator cannot take are usage errors (exit 2), not bad input: negative sizes (they
// wrapped around to huge unsigned numbers and hit a limit, exit 1), unknown variants, PMD bone
// counts other than 0 / 29, sizes beyond the generators' limits.
TEST_F(UsageCli, GenerateRefusesImpossibleValuesAsUsage) {
  const std::pair<const char*, const char*> cases[] = {{"generate pmx --vertices -5", "bad.pmx"},
                                                       {"generate vmd --bone-keys -1", "bad.vmd"},
                                                       {"generate pmx --variant foo", "bad.pmx"},
                                                       {"generate pmd --bones 10", "bad.pmd"},
                                                       {"generate pmx --vertices 40000000", "bad.pmx"}};
  for (const auto& [args, out] : cases) {
    Outcome r = run(std::string(args) + " -o " + p(out));
    EXPECT_EQ(r.code, 2) << args << ": " << r.err;
    EXPECT_TRUE(has(r.err, "mmdkit: error:")) << args << ": " << r.err;
  }
  EXPECT_FALSE(fs::exists(dir / "bad.pmx"));
  EXPECT_FALSE(fs::exists(dir / "bad.pmd"));
  EXPECT_FALSE(fs::exists(dir / "bad.vmd"));
}

TEST_F(UsageCli, UsageErrorsSayErrorAndExit2) {
  const fs::path m = motion();
  for (const std::string& cmd : {std::string("generate xyz -o ") + p("a.bin"), "convert " + quote(m.string()) + " -",
                                 "convert " + quote(m.string()) + " " + p("a.txt")}) {
    Outcome r = run(cmd);
    EXPECT_EQ(r.code, 2) << cmd;
    EXPECT_EQ(r.err.rfind("mmdkit: error: ", 0), 0u) << cmd << ": " << r.err;
  }
}

}  // namespace
