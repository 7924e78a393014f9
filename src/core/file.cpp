#include "mmdkit/core/file.hpp"

#include "mmdkit/core/interrupt.hpp"

#include "core/load_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <random>
#include <string>

namespace mmdkit {
namespace {

std::unexpected<Error> io_error(const std::filesystem::path& path, std::string message) {
  Error e{ErrorCode::io_error, std::move(message), {}, -1, -1, path.string()};
  return std::unexpected<Error>(std::move(e));
}

}  // namespace

Result<std::vector<std::uint8_t>> read_file(const std::filesystem::path& path, std::uint64_t max_bytes) {
  auto bytes = detail::load_file(path, max_bytes, /*allow_map=*/false);
  if (!bytes) return std::unexpected(bytes.error());
  return std::move(*bytes).take();
}

AtomicFile::AtomicFile(AtomicFile&& o) noexcept
    : fd_(o.fd_), cleanup_slot_(o.cleanup_slot_), path_(std::move(o.path_)), tmp_(std::move(o.tmp_)) {
  o.fd_ = -1;
  o.cleanup_slot_ = -1;
  o.tmp_.clear();
}

AtomicFile& AtomicFile::operator=(AtomicFile&& o) noexcept {
  if (this != &o) {
    discard();
    fd_ = o.fd_;
    cleanup_slot_ = o.cleanup_slot_;
    path_ = std::move(o.path_);
    tmp_ = std::move(o.tmp_);
    o.fd_ = -1;
    o.cleanup_slot_ = -1;
    o.tmp_.clear();
  }
  return *this;
}

AtomicFile::~AtomicFile() { discard(); }

void AtomicFile::discard() noexcept {
  if (fd_ >= 0) {
    ::close(fd_);
    ::unlink(tmp_.c_str());
    fd_ = -1;
  }
  unregister_temp_file(cleanup_slot_);
  cleanup_slot_ = -1;
  tmp_.clear();
}

Result<AtomicFile> AtomicFile::create(const std::filesystem::path& path, const WriteOptions& options) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (fs::is_directory(path, ec)) return io_error(path, "output is a directory");
  if (!options.force && fs::exists(path, ec)) {
    for (const fs::path& in : options.protected_inputs) {
      std::error_code ec2;
      if (fs::equivalent(in, path, ec2)) {
        return io_error(path, "refusing to overwrite an input file (use --force to allow)");
      }
    }
  }
  fs::path dir = path.parent_path();
  if (dir.empty()) dir = ".";
  if (!fs::is_directory(dir, ec)) return io_error(path, "output folder does not exist");

  AtomicFile f;
  f.path_ = path;
  std::random_device rd;
  // Appended piece by piece: `"." + std::string&&` (an insert at 0) trips g++ 12's -Wrestrict
  // false positive at -O3 (GCC bug 105651).
  std::string tmp_name = ".";
  tmp_name += path.filename().string();
  tmp_name += ".tmp";
  tmp_name += std::to_string(rd() % 1000000);
  f.tmp_ = dir / tmp_name;
  f.fd_ = ::open(f.tmp_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (f.fd_ < 0) {
    f.tmp_.clear();
    return io_error(path, std::string("cannot create temporary file: ") + std::strerror(errno));
  }
  f.cleanup_slot_ = register_temp_file(f.tmp_.c_str());
  return f;
}

Result<void> AtomicFile::write(ByteSpan bytes) {
  if (fd_ < 0) return io_error(path_, "write after the output was finished");
  std::size_t put = 0;
  while (put < bytes.size()) {
    ssize_t n = ::write(fd_, bytes.data() + put, bytes.size() - put);
    if (n < 0) {
      if (errno == EINTR) continue;
      int err = errno;
      discard();
      return io_error(path_, std::string("write failed: ") + std::strerror(err));
    }
    put += static_cast<std::size_t>(n);
  }
  return {};
}

Result<void> AtomicFile::write(std::string_view text) {
  return write(ByteSpan(reinterpret_cast<const std::uint8_t*>(text.data()), text.size()));
}

Result<void> AtomicFile::commit() {
  if (fd_ < 0) return io_error(path_, "output already finished");
  const int fd = fd_;
  fd_ = -1;
  const std::filesystem::path tmp = std::move(tmp_);
  tmp_.clear();
  const int slot = cleanup_slot_;  // unregistered once the temporary file is gone or renamed
  cleanup_slot_ = -1;
  if (::close(fd) != 0) {
    int err = errno;
    ::unlink(tmp.c_str());
    unregister_temp_file(slot);
    return io_error(path_, std::string("write failed: ") + std::strerror(err));
  }
  if (::rename(tmp.c_str(), path_.c_str()) != 0) {
    int err = errno;
    ::unlink(tmp.c_str());
    unregister_temp_file(slot);
    return io_error(path_, std::string("cannot rename temporary file into place: ") + std::strerror(err));
  }
  unregister_temp_file(slot);
  return {};
}

Result<void> write_file_atomic(const std::filesystem::path& path, ByteSpan bytes, const WriteOptions& options) {
  auto file = AtomicFile::create(path, options);
  if (!file) return std::unexpected(file.error());
  if (auto r = file->write(bytes); !r) return r;
  return file->commit();
}

Result<void> write_file_atomic(const std::filesystem::path& path, std::string_view text, const WriteOptions& options) {
  return write_file_atomic(path, ByteSpan(reinterpret_cast<const std::uint8_t*>(text.data()), text.size()), options);
}

}  // namespace mmdkit
