// Mapped inputs (core/mapped_file.hpp): the one file loader, and the SIGBUS guard of mappings.
//
// The guard: a fixed table of mapped ranges (lock-free slots) and a SIGBUS handler. A fault inside
// a registered range (the file shrank under its mapping) gets a page of zeros mapped over the
// faulting page (mmap MAP_FIXED | MAP_ANONYMOUS; the retried read then sees zeros) and the slot is
// marked; any other fault goes to the handler that was there before, or to the default action.
// The same technique as systemd's journal reader (src/libsystemd/sd-journal, sigbus.c).
#include "mmdkit/core/mapped_file.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <mutex>
#include <string>

#include "core/load_file.hpp"

namespace mmdkit {
namespace {

// --- the SIGBUS guard ----------------------------------------------------------------------------

constexpr int kSlots = 256;
struct Slot {
  std::atomic<int> taken{0};             // claimed by a mapping
  std::atomic<std::uintptr_t> begin{0};  // 0 = no range (the handler skips it)
  std::atomic<std::size_t> size{0};
  std::atomic<int> faulted{0};
};
Slot g_slots[kSlots];
std::uintptr_t g_page = 4096;
struct sigaction g_previous {};
std::once_flag g_install_once;
bool g_installed = false;

void on_sigbus(int sig, siginfo_t* info, void* context) {
  const auto addr = reinterpret_cast<std::uintptr_t>(info ? info->si_addr : nullptr);
  for (Slot& s : g_slots) {
    const std::uintptr_t b = s.begin.load(std::memory_order_acquire);
    if (b == 0 || addr < b || addr - b >= s.size.load(std::memory_order_acquire)) continue;
    void* page = reinterpret_cast<void*>(addr & ~(g_page - 1));
    if (::mmap(page, g_page, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) == MAP_FAILED) break;
    s.faulted.store(1, std::memory_order_release);
    return;  // the read is retried and sees zeros
  }
  // Not one of ours (or no page could be put there): the previous handler, else the default.
  if ((g_previous.sa_flags & SA_SIGINFO) && g_previous.sa_sigaction) {
    g_previous.sa_sigaction(sig, info, context);
    return;
  }
  if (g_previous.sa_handler != SIG_DFL && g_previous.sa_handler != SIG_IGN) {
    g_previous.sa_handler(sig);
    return;
  }
  ::signal(sig, SIG_DFL);  // returning re-runs the faulting access, which now ends the process
}

bool install_guard() {
  std::call_once(g_install_once, [] {
    const long page = ::sysconf(_SC_PAGESIZE);
    if (page > 0) g_page = static_cast<std::uintptr_t>(page);
    struct sigaction sa {};
    sa.sa_sigaction = on_sigbus;
    sa.sa_flags = SA_SIGINFO | SA_NODEFER;
    sigemptyset(&sa.sa_mask);
    g_installed = ::sigaction(SIGBUS, &sa, &g_previous) == 0;
  });
  return g_installed;
}

int register_mapping(const void* begin, std::size_t size) {
  for (int i = 0; i < kSlots; ++i) {
    Slot& s = g_slots[i];
    int expected = 0;
    if (!s.taken.compare_exchange_strong(expected, 1, std::memory_order_acq_rel)) continue;
    // size before begin: the handler reads begin, then size.
    s.faulted.store(0, std::memory_order_relaxed);
    s.size.store(size, std::memory_order_release);
    s.begin.store(reinterpret_cast<std::uintptr_t>(begin), std::memory_order_release);
    return i;
  }
  return -1;
}

// --- loading -------------------------------------------------------------------------------------

std::unexpected<Error> io_error(const std::filesystem::path& path, std::string message) {
  return std::unexpected<Error>(Error{ErrorCode::io_error, std::move(message), {}, -1, -1, path.string()});
}

std::unexpected<Error> too_large(const std::filesystem::path& path, const std::string& what, std::uint64_t max_bytes) {
  return std::unexpected<Error>(Error{ErrorCode::limit_exceeded,
                                      what + ", more than the limit of " + std::to_string(max_bytes) + " bytes", {}, -1,
                                      -1, path.string()});
}

struct Fd {
  int fd = -1;
  ~Fd() {
    if (fd >= 0) ::close(fd);
  }
};

// Everything `fd` gives until its end (a pipe, a device, a /proc file), at most max_bytes.
Result<std::vector<std::uint8_t>> read_to_end(int fd, const std::filesystem::path& path, std::uint64_t max_bytes,
                                              std::vector<std::uint8_t> data) {
  std::size_t got = data.size();
  for (;;) {
    if (data.size() - got < (std::size_t{1} << 16)) data.resize(got + std::max<std::size_t>(std::size_t{1} << 16, got));
    const ssize_t n = ::read(fd, data.data() + got, data.size() - got);
    if (n < 0) {
      if (errno == EINTR) continue;
      return io_error(path, std::string("read failed: ") + std::strerror(errno));
    }
    if (n == 0) break;
    got += static_cast<std::size_t>(n);
    if (got > max_bytes) return too_large(path, "the pipe or device gives more", max_bytes);
  }
  data.resize(got);
  data.shrink_to_fit();
  return data;
}

}  // namespace

// --- FileBytes -----------------------------------------------------------------------------------

FileBytes::FileBytes(std::vector<std::uint8_t> owned) noexcept : owned_(std::move(owned)) {
  data_ = owned_.data();
  size_ = owned_.size();
}

FileBytes::FileBytes(FileBytes&& o) noexcept
    : owned_(std::move(o.owned_)), data_(o.data_), size_(o.size_), slot_(o.slot_) {
  o.data_ = nullptr;
  o.size_ = 0;
  o.slot_ = -1;
}

FileBytes& FileBytes::operator=(FileBytes&& o) noexcept {
  if (this != &o) {
    release();
    owned_ = std::move(o.owned_);
    data_ = o.data_;
    size_ = o.size_;
    slot_ = o.slot_;
    o.data_ = nullptr;
    o.size_ = 0;
    o.slot_ = -1;
  }
  return *this;
}

FileBytes::~FileBytes() { release(); }

void FileBytes::release() noexcept {
  if (slot_ >= 0) {
    g_slots[slot_].begin.store(0, std::memory_order_release);
    ::munmap(const_cast<std::uint8_t*>(data_), size_);
    g_slots[slot_].taken.store(0, std::memory_order_release);
    slot_ = -1;
  }
  owned_ = {};
  data_ = nullptr;
  size_ = 0;
}

FileBytes::FileBytes(const std::uint8_t* mapping, std::size_t size, int slot) noexcept
    : data_(mapping), size_(size), slot_(slot) {}

bool FileBytes::changed() const noexcept {
  return slot_ >= 0 && g_slots[slot_].faulted.load(std::memory_order_acquire) != 0;
}

Result<void> FileBytes::verify_unchanged(const std::filesystem::path& path) const {
  if (changed()) return io_error(path, "the file changed size while being read");
  return {};
}

std::vector<std::uint8_t> FileBytes::take() && {
  std::vector<std::uint8_t> v = slot_ >= 0 ? std::vector<std::uint8_t>(data_, data_ + size_) : std::move(owned_);
  release();
  return v;
}

namespace detail {

Result<FileBytes> load_file(const std::filesystem::path& path, std::uint64_t max_bytes, bool allow_map) {
  // O_NONBLOCK: opening a FIFO must not wait for a writer (found by a user: `mmdkit info FIFO`
  // blocked forever in open()).
  Fd f{::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK)};
  if (f.fd < 0) return io_error(path, std::string("cannot open: ") + std::strerror(errno));
  struct stat st {};
  if (::fstat(f.fd, &st) != 0) return io_error(path, std::string("cannot stat: ") + std::strerror(errno));
  if (S_ISDIR(st.st_mode)) return io_error(path, "is a directory, not a file");

  if (!S_ISREG(st.st_mode) || st.st_size == 0) {
    std::vector<std::uint8_t> first;
    if (S_ISFIFO(st.st_mode)) {
      // A pipe read now, without waiting: bytes, "would block" (a writer is there), or end (no
      // writer and nothing in it, which would otherwise be a wait for a writer that may never come).
      first.resize(std::size_t{1} << 16);
      ssize_t n;
      do n = ::read(f.fd, first.data(), first.size());
      while (n < 0 && errno == EINTR);
      if (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK)
        return io_error(path, std::string("read failed: ") + std::strerror(errno));
      if (n == 0) return io_error(path, "is a pipe with no writer and nothing in it (start the writer first)");
      first.resize(n > 0 ? static_cast<std::size_t>(n) : 0);
    }
    // The rest blocking: a pipe until its writer closes it, a device or /proc file to its end.
    const int fl = ::fcntl(f.fd, F_GETFL);
    if (fl >= 0) ::fcntl(f.fd, F_SETFL, fl & ~O_NONBLOCK);
    auto data = read_to_end(f.fd, path, max_bytes, std::move(first));
    if (!data) return std::unexpected(data.error());
    return FileBytes(std::move(*data));
  }

  const auto size = static_cast<std::uint64_t>(st.st_size);
  if (size > max_bytes) return too_large(path, "file is " + std::to_string(size) + " bytes", max_bytes);
  if (allow_map && size >= kMapMinBytes && install_guard()) {
    void* p = ::mmap(nullptr, static_cast<std::size_t>(size), PROT_READ, MAP_PRIVATE, f.fd, 0);
    if (p != MAP_FAILED) {
      const int slot = register_mapping(p, static_cast<std::size_t>(size));
      if (slot >= 0) {
        return FileBytes(static_cast<const std::uint8_t*>(p), static_cast<std::size_t>(size), slot);
      }
      ::munmap(p, static_cast<std::size_t>(size));  // every slot taken: read instead
    }
  }
  std::vector<std::uint8_t> data(static_cast<std::size_t>(size));
  std::size_t got = 0;
  while (got < data.size()) {
    const ssize_t n = ::read(f.fd, data.data() + got, data.size() - got);
    if (n < 0) {
      if (errno == EINTR) continue;
      return io_error(path, std::string("read failed: ") + std::strerror(errno));
    }
    if (n == 0) break;  // file shrank while reading
    got += static_cast<std::size_t>(n);
  }
  data.resize(got);
  return FileBytes(std::move(data));
}

}  // namespace detail

Result<FileBytes> map_file(const std::filesystem::path& path, std::uint64_t max_bytes) {
  return detail::load_file(path, max_bytes, true);
}

}  // namespace mmdkit
