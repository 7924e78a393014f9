// mmdkit CLI — `mmdkit dataset MODEL MOTION... -o out.npz`: the Python module's extraction
// (mmdkit.dataset, docs/PYTHON.md) run as `python3 -m mmdkit dataset ...`, so that the command and
// the library are one implementation. Built with the Python layer (MMDKIT_WITH_PYTHON).
//
// The interpreter is $MMDKIT_PYTHON, else the one the module was built for; the package is found
// in the build tree's python/ folder (a run from the build tree), else where `cmake --install
// --component python` put it, else on the interpreter's own path (PYTHONPATH is extended, never
// replaced).
#include "cli/python/cmd_dataset.hpp"

#include <sys/wait.h>
#include <unistd.h>

#include <CLI/CLI.hpp>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <string>
#include <vector>

#include "cli/app.hpp"

namespace mmdkit::cli {
namespace {

namespace fs = std::filesystem;

std::string python_path() {
  std::string path;
  auto add = [&](const std::string& dir) {
    std::error_code ec;
    if (dir.empty() || !fs::is_directory(fs::path(dir) / "mmdkit", ec)) return;
    if (!path.empty()) path += ':';
    path += dir;
  };
  add(MMDKIT_PYTHON_BUILD_DIR);
  add(MMDKIT_PYTHON_INSTALL_DIR);
  if (const char* old = std::getenv("PYTHONPATH"); old != nullptr && *old != '\0') {
    if (!path.empty()) path += ':';
    path += old;
  }
  return path;
}

}  // namespace

int run_python_command(const std::string& command, const std::vector<std::string>& args, const Streams& s) {
  const char* env_python = std::getenv("MMDKIT_PYTHON");
  const std::string python = env_python != nullptr && *env_python != '\0' ? env_python : MMDKIT_PYTHON_EXECUTABLE;
  std::vector<std::string> argv_s{python, "-m", "mmdkit", command};
  argv_s.insert(argv_s.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (std::string& a : argv_s) argv.push_back(a.data());
  argv.push_back(nullptr);
  const std::string pypath = python_path();
  // This executable, for the Python side's own calls of mmdkit (the render farm's `bake`).
  std::error_code ec;
  const std::string self_exe = fs::read_symlink("/proc/self/exe", ec).string();
  s.out.flush();
  s.err.flush();
  std::cout.flush();
  std::cerr.flush();
  const pid_t pid = fork();
  if (pid < 0) {
    s.err << "mmdkit: error: " << command << ": cannot start " << python << ": " << std::strerror(errno) << "\n";
    return kExitBadInput;
  }
  if (pid == 0) {
    if (!pypath.empty()) setenv("PYTHONPATH", pypath.c_str(), 1);
    if (!self_exe.empty()) setenv("MMDKIT_CLI", self_exe.c_str(), 1);
    execvp(argv[0], argv.data());
    const char* why = std::strerror(errno);
    (void)!write(2, "mmdkit: error: cannot run ", 26);
    (void)!write(2, argv[0], std::strlen(argv[0]));
    (void)!write(2, ": ", 2);
    (void)!write(2, why, std::strlen(why));
    (void)!write(2, " (Debian python3 with python3-numpy; MMDKIT_PYTHON names another)\n", 67);
    _exit(kExitBadInput);
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) return kExitBadInput;
  }
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  s.err << "mmdkit: error: " << command << ": python was stopped by signal " << WTERMSIG(status) << "\n";
  return kExitBadInput;
}

const Command kDatasetCommand{
    "dataset", "joint or bone arrays of motions on a model for training (.npz; Python module, Dask)",
    [](CLI::App& sub) -> Runner {
      // Every argument (--help included) goes to the Python command, which declares and checks them.
      sub.prefix_command();
      sub.allow_extras();
      sub.set_help_flag();
      CLI::App* self = &sub;
      return [self](const Streams& s) { return run_python_command("dataset", self->remaining(), s); };
    }};

}  // namespace mmdkit::cli
