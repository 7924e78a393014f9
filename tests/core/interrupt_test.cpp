// Temporary files removed on interrupt (core/interrupt.hpp): the registry, and a child process
// killed by SIGINT / SIGTERM while an AtomicFile is open leaves no temporary file and ends by
// that signal.
#include <gtest/gtest.h>

#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <filesystem>
#include <fstream>
#include <string>

#include "mmdkit/core/file.hpp"
#include "mmdkit/core/interrupt.hpp"

namespace {

namespace fs = std::filesystem;

fs::path fresh_dir(const std::string& tag) {
  const fs::path d = fs::temp_directory_path() / ("mmdkit_interrupt_" + tag + "_" + std::to_string(::getpid()));
  fs::remove_all(d);
  fs::create_directories(d);
  return d;
}

TEST(Interrupt, RegisteredFilesAreRemovedUnregisteredKept) {
  const fs::path d = fresh_dir("registry");
  const fs::path a = d / "a.tmp", b = d / "b.tmp";
  std::ofstream(a) << "x";
  std::ofstream(b) << "y";
  const int sa = mmdkit::register_temp_file(a.c_str());
  const int sb = mmdkit::register_temp_file(b.c_str());
  ASSERT_GE(sa, 0);
  ASSERT_GE(sb, 0);
  ASSERT_NE(sa, sb);
  mmdkit::unregister_temp_file(sb);
  mmdkit::remove_registered_temp_files();
  EXPECT_FALSE(fs::exists(a));
  EXPECT_TRUE(fs::exists(b));
  mmdkit::unregister_temp_file(sa);
  EXPECT_EQ(mmdkit::register_temp_file(std::string(5000, 'x').c_str()), -1);  // too long: refused
  fs::remove_all(d);
}

TEST(Interrupt, AtomicFileRegistersUntilCommitted) {
  const fs::path d = fresh_dir("atomic");
  auto f = mmdkit::AtomicFile::create(d / "out.bin");
  ASSERT_TRUE(f) << f.error().to_string();
  const fs::path tmp = f->temp_path();
  ASSERT_TRUE(f->write(std::string_view("abc")));
  ASSERT_TRUE(fs::exists(tmp));
  mmdkit::remove_registered_temp_files();  // what a signal handler does
  EXPECT_FALSE(fs::exists(tmp));
  // A committed file is no longer registered: the same call keeps it.
  auto g = mmdkit::AtomicFile::create(d / "kept.bin");
  ASSERT_TRUE(g);
  ASSERT_TRUE(g->write(std::string_view("x")));
  ASSERT_TRUE(g->commit());
  mmdkit::remove_registered_temp_files();
  EXPECT_TRUE(fs::exists(d / "kept.bin"));
  fs::remove_all(d);
}

// A child opens an AtomicFile, writes, reports ready, waits; the parent sends `sig`.
void interrupted_child_leaves_nothing(int sig) {
  const fs::path d = fresh_dir("child" + std::to_string(sig));
  int ready[2];
  ASSERT_EQ(::pipe(ready), 0);
  const pid_t pid = ::fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    ::close(ready[0]);
    mmdkit::install_interrupt_cleanup();
    auto f = mmdkit::AtomicFile::create(d / "big.out");
    if (!f || !f->write(std::string(1 << 20, 'z'))) ::_exit(3);
    if (::write(ready[1], "r", 1) != 1) ::_exit(4);
    for (;;) ::pause();
  }
  ::close(ready[1]);
  char c = 0;
  ASSERT_EQ(::read(ready[0], &c, 1), 1);
  ::close(ready[0]);
  std::size_t temps = 0;
  for (const auto& e : fs::directory_iterator(d)) temps += e.path().filename().string().starts_with(".big.out.tmp");
  EXPECT_EQ(temps, 1u);  // the temporary file was there while the child wrote
  ASSERT_EQ(::kill(pid, sig), 0);
  int status = 0;
  ASSERT_EQ(::waitpid(pid, &status, 0), pid);
  ASSERT_TRUE(WIFSIGNALED(status)) << "status " << status;
  EXPECT_EQ(WTERMSIG(status), sig);
  EXPECT_TRUE(fs::is_empty(d)) << "left behind: " << fs::directory_iterator(d)->path();
  fs::remove_all(d);
}

TEST(Interrupt, SigintRemovesTheTemporaryFile) { interrupted_child_leaves_nothing(SIGINT); }
TEST(Interrupt, SigtermRemovesTheTemporaryFile) { interrupted_child_leaves_nothing(SIGTERM); }

}  // namespace
