#include "support/cli_run.hpp"

#include <fcntl.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "support/corpus.hpp"

extern char** environ;

namespace mmdkit::test {

std::string slurp(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::string quote(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

Outcome run_cli(const std::filesystem::path& dir, const std::string& args) {
  const std::filesystem::path out = dir / "stdout.txt", err = dir / "stderr.txt";
  // The command runs in a subshell so that a redirection at the end of `args` applies to it alone.
  const std::string cmd = "(" + quote(cli_path().string()) + " " + args + ") >" + quote(out.string()) + " 2>" +
                          quote(err.string());
  const int status = std::system(cmd.c_str());
  Outcome r;
  r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  r.out = slurp(out);
  r.err = slurp(err);
  return r;
}

MeasuredRun run_cli_measured(const std::filesystem::path& dir, const std::vector<std::string>& args,
                             const std::filesystem::path& stdin_path, const std::filesystem::path& stdout_path) {
  MeasuredRun m;
  const std::string exe = cli_path().string();
  const std::filesystem::path err = dir / "stderr.txt";
  std::vector<char*> argv;
  argv.push_back(const_cast<char*>(exe.c_str()));
  for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  const std::string in = stdin_path.empty() ? "/dev/null" : stdin_path.string();
  const std::string out = stdout_path.empty() ? "/dev/null" : stdout_path.string();
  posix_spawn_file_actions_addopen(&fa, 0, in.c_str(), O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&fa, 1, out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_addopen(&fa, 2, err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  pid_t pid = 0;
  const int rc = posix_spawn(&pid, exe.c_str(), &fa, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&fa);
  if (rc != 0) {
    m.err = "posix_spawn failed: " + std::to_string(rc);
    return m;
  }
  int status = 0;
  struct rusage ru {};
  while (::wait4(pid, &status, 0, &ru) < 0 && errno == EINTR) {
  }
  m.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  m.max_rss_kib = static_cast<std::uint64_t>(ru.ru_maxrss);
  m.err = slurp(err);
  return m;
}

CliTest::CliTest(const std::string& tag) : dir(temp_dir(tag)) {}

Outcome CliTest::run(const std::string& args) const { return run_cli(dir, args); }

std::filesystem::path CliTest::file(const std::string& name, const std::string& bytes) const {
  const std::filesystem::path p = dir / name;
  std::ofstream(p, std::ios::binary) << bytes;
  return p;
}

std::filesystem::path CliTest::file(const std::string& name, const std::vector<std::uint8_t>& bytes) const {
  const std::filesystem::path p = dir / name;
  std::ofstream(p, std::ios::binary)
      .write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  return p;
}

const std::string& pty_unavailable() {
  static const std::string why = [] {
    if (!std::filesystem::exists("/usr/bin/script")) return std::string("util-linux script is not installed");
    const auto log = std::filesystem::temp_directory_path() / ("mmdkit-pty-probe-" + std::to_string(::getpid()));
    const std::string cmd = "script -qec true /dev/null > " + quote(log.string()) + " 2>&1 < /dev/null";
    const int status = std::system(cmd.c_str());
    std::string said = slurp(log);
    std::filesystem::remove(log);
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return std::string();
    while (!said.empty() && (said.back() == '\n' || said.back() == '\r')) said.pop_back();
    return said.empty() ? std::string("script -qec true /dev/null failed") : said;
  }();
  return why;
}

}  // namespace mmdkit::test
