// The one dispatch (app.cpp, command table): --version with the build options, `help`,
// `help --commands`, usage errors (prefix, program name, exit 2), --encoding refused unless cp932/gbk.
#include <gtest/gtest.h>

#include <set>
#include <sstream>
#include <string>

#include "cli/app.hpp"
#include "cli/command.hpp"
#include "mmdkit/formats/registry.hpp"
#include "mmdkit/version.hpp"
#include "support/cli_run.hpp"

namespace {

using mmdkit::test::Outcome;

bool has(const std::string& text, const std::string& what) { return text.find(what) != std::string::npos; }

// `word` in `text` with no letter just before or after it ("X" is not in "PMX").
bool has_word(const std::string& text, const std::string& word) {
  auto letter = [](char c) { return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z'); };
  for (std::size_t at = text.find(word); at != std::string::npos; at = text.find(word, at + 1))
    if ((at == 0 || !letter(text[at - 1])) && (at + word.size() >= text.size() || !letter(text[at + word.size()])))
      return true;
  return false;
}

class AppCli : public mmdkit::test::CliTest {
 protected:
  AppCli() : CliTest("appcli") {}
};

TEST_F(AppCli, VersionNamesVersionAndBuildOptions) {
  Outcome r = run("--version");
  ASSERT_EQ(r.code, 0) << r.err;
  // The version written once (CMakeLists.txt project()), seen through the generated header.
  EXPECT_EQ(std::string(mmdkit::kVersion), std::to_string(MMDKIT_VERSION_MAJOR) + "." +
                                               std::to_string(MMDKIT_VERSION_MINOR) + "." +
                                               std::to_string(MMDKIT_VERSION_PATCH));
  const std::string yn[2] = {"no", "yes"};
  EXPECT_EQ(r.out, "mmdkit " + std::string(mmdkit::kVersion) + "\nbuilt with: physics " + yn[MMDKIT_HAS_PHYSICS] +
                       ", render " + yn[MMDKIT_HAS_RENDER] + ", python " + yn[MMDKIT_HAS_PYTHON] + "\n");
}

TEST_F(AppCli, HelpCommandsListsTheTable) {
  Outcome r = run("help --commands");
  ASSERT_EQ(r.code, 0) << r.err;
  std::set<std::string> listed;
  std::istringstream lines(r.out);
  for (std::string line; std::getline(lines, line);) {
    const auto tab = line.find('\t');
    ASSERT_NE(tab, std::string::npos) << line;
    EXPECT_GT(line.size(), tab + 1) << "summary missing: " << line;
    listed.insert(line.substr(0, tab));
  }
  for (const mmdkit::cli::Command& c : mmdkit::cli::command_table()) EXPECT_TRUE(listed.count(std::string(c.name))) << c.name;
  EXPECT_TRUE(listed.count("sample"));
  EXPECT_TRUE(listed.count("pose"));
  EXPECT_FALSE(listed.count("help"));
}

// A fresh user read the top-level help to learn what mmdkit reads; it named four of the seven
// formats. Every format of the registry is named there (".pmm", ".x", ".vac" or "VMD", ...), and
// every one that has a lossless JSON form is in convert's "<-> .json" list.
TEST_F(AppCli, HelpNamesEveryFormat) {
  Outcome top = run("--help");
  ASSERT_EQ(top.code, 0) << top.err;
  const std::size_t convert_at = top.out.find("\n  convert ");
  ASSERT_NE(convert_at, std::string::npos) << top.out;
  const std::string convert_line = top.out.substr(convert_at, top.out.find('\n', convert_at + 1) - convert_at);
  const std::string header = top.out.substr(0, top.out.find("Usage:"));
  for (const mmdkit::formats::FormatOps* f : mmdkit::formats::all_formats()) {
    std::string upper(f->name);
    for (char& c : upper) c = static_cast<char>(c >= 'a' && c <= 'z' ? c - 32 : c);
    EXPECT_TRUE(has(header, std::string(f->extension) + " ") || has_word(header, upper)) << f->name << " in:\n" << header;
    if (f->from_json != nullptr) {
      EXPECT_TRUE(has(convert_line, std::string(f->extension))) << f->name << " in: " << convert_line;
    }
  }
}

TEST_F(AppCli, HelpAndHelpCommand) {
  Outcome top = run("help");
  ASSERT_EQ(top.code, 0) << top.err;
  EXPECT_TRUE(has(top.out, "Usage: mmdkit ")) << top.out;
  EXPECT_EQ(top.out, run("--help").out);
  Outcome info = run("help info");
  ASSERT_EQ(info.code, 0) << info.err;
  EXPECT_TRUE(has(info.out, "Usage: mmdkit info ")) << info.out;
  EXPECT_EQ(info.out, run("info --help").out);
  Outcome bad = run("help nope");
  EXPECT_EQ(bad.code, 2);
  EXPECT_TRUE(has(bad.err, "mmdkit: error: unknown command 'nope'")) << bad.err;
  // A command's subcommand: the page of `mmdkit motion trim --help` (a fresh user got a parse error).
  Outcome trim = run("help motion trim");
  ASSERT_EQ(trim.code, 0) << trim.err;
  EXPECT_TRUE(has(trim.out, "Usage: mmdkit motion trim ")) << trim.out;
  EXPECT_EQ(trim.out, run("motion trim --help").out);
  Outcome no_sub = run("help motion nope");
  EXPECT_EQ(no_sub.code, 2);
  EXPECT_TRUE(has(no_sub.err, "'motion' has no subcommand 'nope' (")) << no_sub.err;
  EXPECT_TRUE(has(no_sub.err, "trim")) << no_sub.err;
  Outcome flat = run("help info extra");
  EXPECT_EQ(flat.code, 2);
  EXPECT_TRUE(has(flat.err, "'info' has no subcommands")) << flat.err;
}

TEST_F(AppCli, UsageErrorsArePrefixedAndExit2) {
  Outcome none = run("");
  EXPECT_EQ(none.code, 2);
  EXPECT_TRUE(has(none.err, "mmdkit: error: a command is required")) << none.err;
  EXPECT_TRUE(has(none.err, "Usage: mmdkit ")) << none.err;
  Outcome unknown = run("frobnicate x");
  EXPECT_EQ(unknown.code, 2);
  EXPECT_TRUE(has(unknown.err, "mmdkit: error: unknown command 'frobnicate'")) << unknown.err;
  Outcome missing = run("info");
  EXPECT_EQ(missing.code, 2);
  EXPECT_TRUE(has(missing.err, "mmdkit: error: FILE is required")) << missing.err;
  EXPECT_TRUE(has(missing.err, "run 'mmdkit info --help' for usage")) << missing.err;
  Outcome extra = run("dump a b c");
  EXPECT_EQ(extra.code, 2);
  EXPECT_EQ(extra.err.rfind("mmdkit: error: ", 0), 0u) << extra.err;
}

TEST_F(AppCli, EncodingOnlyLegacyEncodings) {
  const auto vmd = file("a.vmd", std::string("x"));
  for (const char* bad : {"utf8", "utf-16le", "latin1"}) {
    Outcome r = run(std::string("info --encoding ") + bad + " " + mmdkit::test::quote(vmd.string()));
    EXPECT_EQ(r.code, 2) << bad;
    EXPECT_TRUE(has(r.err, "mmdkit: error: --encoding '" + std::string(bad) + "' is not cp932 or gbk")) << r.err;
  }
  // cp932 passes the usage check (then the 1-byte file is bad input: exit 1).
  EXPECT_EQ(run("info --encoding cp932 " + mmdkit::test::quote(vmd.string())).code, 1);
}

}  // namespace
