// Temporary files removed on interrupt (core/interrupt.hpp). The handler only reads fixed
// buffers and calls unlink() and signal()/raise(), all async-signal-safe.
#include "mmdkit/core/interrupt.hpp"

#include <unistd.h>

#include <atomic>
#include <csignal>
#include <cstring>

namespace mmdkit {
namespace {

constexpr int kSlots = 64;
constexpr std::size_t kPathMax = 4096;
// 0 free, 1 being written or cleared, 2 holds a path.
std::atomic<int> g_state[kSlots];
char g_paths[kSlots][kPathMax];
std::atomic<bool> g_installed{false};

void on_signal(int sig) {
  remove_registered_temp_files();
  std::signal(sig, SIG_DFL);
  std::raise(sig);
}

}  // namespace

int register_temp_file(const char* path) noexcept {
  const std::size_t n = std::strlen(path);
  if (n >= kPathMax) return -1;
  for (int i = 0; i < kSlots; ++i) {
    int expected = 0;
    if (g_state[i].compare_exchange_strong(expected, 1)) {
      std::memcpy(g_paths[i], path, n + 1);
      g_state[i].store(2);
      return i;
    }
  }
  return -1;
}

void unregister_temp_file(int slot) noexcept {
  if (slot < 0 || slot >= kSlots) return;
  g_state[slot].store(1);
  g_paths[slot][0] = '\0';
  g_state[slot].store(0);
}

void remove_registered_temp_files() noexcept {
  for (int i = 0; i < kSlots; ++i)
    if (g_state[i].load() == 2) ::unlink(g_paths[i]);
}

void install_interrupt_cleanup() noexcept {
  if (g_installed.exchange(true)) return;
  for (int sig : {SIGINT, SIGTERM, SIGHUP}) {
    struct sigaction old {};
    if (::sigaction(sig, nullptr, &old) != 0 || old.sa_handler != SIG_DFL) continue;
    struct sigaction sa {};
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    ::sigaction(sig, &sa, nullptr);
  }
}

}  // namespace mmdkit
