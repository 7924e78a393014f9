// mmdkit — a file's bytes, mapped rather than copied where the platform allows.
//
// Every parser takes a byte span; FileBytes is where that span comes from when the input is a
// path. A regular file is mapped read-only (mmap, MAP_PRIVATE): nothing is copied, and the pages
// stay the kernel's page cache (they count in the process's resident set only while mapped and
// touched; they are not allocated by the process). Pipes, FIFOs, character devices, /proc files
// (size 0) and small files are read into memory instead. The bytes are the same either way.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <vector>

#include "mmdkit/core/bytes.hpp"
#include "mmdkit/core/error.hpp"

namespace mmdkit {

class FileBytes;
namespace detail {
Result<FileBytes> load_file(const std::filesystem::path& path, std::uint64_t max_bytes, bool allow_map);
}  // namespace detail

/// The bytes of one input: a read-only mapping of a regular file, or bytes held in memory (read
/// from a pipe or special file, a small file, or given by the caller). Move-only; the span is
/// valid while the object lives (moving keeps it valid: the bytes do not move).
///
/// A mapped file that is truncated while mapped would normally kill the process with SIGBUS on
/// the next read past its new end. mmdkit installs a SIGBUS handler (once, on the first mapping)
/// that, for an address inside one of its mappings only, puts a page of zeros there and marks the
/// mapping `changed()`; parse_file() then turns the parse into an io_error ("changed size while
/// being read"). Faults elsewhere go to the previous handler or the default action. A file
/// replaced by rename (mmdkit's own writer, editors) does not affect a mapping: the old contents
/// stay readable. A file rewritten in place while mapped is seen as it is at each read, as with
/// read().
class FileBytes {
 public:
  FileBytes() noexcept = default;
  /// Bytes held in memory (no mapping).
  explicit FileBytes(std::vector<std::uint8_t> owned) noexcept;
  FileBytes(FileBytes&& other) noexcept;
  FileBytes& operator=(FileBytes&& other) noexcept;
  FileBytes(const FileBytes&) = delete;
  FileBytes& operator=(const FileBytes&) = delete;
  ~FileBytes();

  const std::uint8_t* data() const noexcept { return data_; }
  std::size_t size() const noexcept { return size_; }
  bool empty() const noexcept { return size_ == 0; }
  ByteSpan span() const noexcept { return {data_, size_}; }
  operator ByteSpan() const noexcept { return span(); }  // NOLINT: a FileBytes is read as its bytes

  /// True when the bytes are a mapping of the file (not a copy).
  bool is_mapped() const noexcept { return slot_ >= 0; }
  /// True when the mapped file shrank under the mapping and a read reached past its new end
  /// (that read saw zeros). Always false for bytes in memory.
  bool changed() const noexcept;
  /// io_error "the file changed size while being read" (`file` = `path`) when changed(); call it
  /// after parsing, before using what the parse gave.
  Result<void> verify_unchanged(const std::filesystem::path& path) const;

  /// The bytes as a vector: moved out when held in memory, copied from a mapping. Leaves this
  /// object empty.
  std::vector<std::uint8_t> take() &&;

 private:
  friend Result<FileBytes> detail::load_file(const std::filesystem::path&, std::uint64_t, bool);
  FileBytes(const std::uint8_t* mapping, std::size_t size, int slot) noexcept;
  void release() noexcept;
  std::vector<std::uint8_t> owned_;
  const std::uint8_t* data_ = nullptr;
  std::size_t size_ = 0;
  int slot_ = -1;  // the mapping's slot in the SIGBUS guard; -1 = not mapped
};

/// Regular files from this size (64 KiB) are mapped; smaller ones are read (one read() is cheaper
/// than a mapping and its page faults).
inline constexpr std::uint64_t kMapMinBytes = std::uint64_t{64} << 10;

/// The bytes of the file at `path`: mapped when it is a regular file of at least kMapMinBytes
/// (and mapping works), read otherwise. Pipes and FIFOs are read to their end when they have a
/// writer or bytes waiting; a FIFO with neither is refused rather than waited on. Errors (code
/// io_error, `file` = the path): missing file, a directory, a socket, no permission, a FIFO with
/// no writer, read failure; limit_exceeded when the file (or what a pipe gives) is larger than
/// `max_bytes` (default 4 GiB).
Result<FileBytes> map_file(const std::filesystem::path& path, std::uint64_t max_bytes = std::uint64_t{4} << 30);

}  // namespace mmdkit
