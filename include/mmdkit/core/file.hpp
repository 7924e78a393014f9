// mmdkit — whole-file reading and safe writing.
//
// Parsers work on byte spans; these are the thin path wrappers. Outputs are written to a
// temporary file beside the target and renamed over it, so a failed write never leaves a partial
// file, and an input is never replaced unless the caller says so.
#pragma once

#include <cstdint>
#include <filesystem>
#include <span>
#include <string_view>
#include <utility>
#include <vector>

#include "mmdkit/core/bytes.hpp"
#include "mmdkit/core/error.hpp"
#include "mmdkit/core/mapped_file.hpp"

namespace mmdkit {

/// Reads a whole file into memory (a regular file, or a pipe, FIFO or device to its end; see
/// map_file() in core/mapped_file.hpp, which maps instead of copying). Errors (code io_error,
/// `file` set to the path): missing file, a directory, no permission, a FIFO with no writer, read
/// failure. `max_bytes` bounds the size accepted (limit_exceeded above it; default 4 GiB).
Result<std::vector<std::uint8_t>> read_file(const std::filesystem::path& path,
                                            std::uint64_t max_bytes = std::uint64_t{4} << 30);

/// The file form of a parser (each format's read_file is this): maps `path` (map_file) and
/// returns `parse(bytes)` (`parse` takes a ByteSpan and returns a Result), with the path in
/// Error::file of the error and, when the value has `warnings`, of each warning. A mapped file
/// that shrank while parsed (FileBytes::changed) is an io_error, whatever the parse gave.
template <class Parse>
auto parse_file(const std::filesystem::path& path, Parse&& parse) -> decltype(parse(ByteSpan{})) {
  auto bytes = map_file(path);
  if (!bytes) {
    Error e = bytes.error();
    if (e.file.empty()) e.file = path.string();
    return std::unexpected(std::move(e));
  }
  auto r = parse(bytes->span());
  if (auto same = bytes->verify_unchanged(path); !same) return std::unexpected(same.error());
  if (!r) {
    r.error().file = path.string();
    return r;
  }
  if constexpr (requires { r->warnings; })
    for (auto& w : r->warnings) w.file = path.string();
  return r;
}

/// Options for write_file_atomic.
struct WriteOptions {
  /// Paths the output must not replace (the command's inputs) unless `force` is set.
  std::span<const std::filesystem::path> protected_inputs{};
  bool force = false;  ///< allow replacing a protected input
};

/// A file written in pieces (e.g. one frame at a time) without holding it whole: bytes go to a
/// temporary file beside the target (".NAME.tmpNNNNNN", created exclusively, mode 0644) and
/// commit() renames it onto the target. Destroying (or moving over) an uncommitted AtomicFile
/// removes its temporary file, so a failed run never leaves a partial output; an interrupted one
/// neither, once install_interrupt_cleanup() (core/interrupt.hpp) is in place.
/// This is the one atomic writer; write_file_atomic() is create + write + commit.
class AtomicFile {
 public:
  AtomicFile() = default;
  AtomicFile(AtomicFile&& other) noexcept;
  AtomicFile& operator=(AtomicFile&& other) noexcept;
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;
  ~AtomicFile();

  /// Creates the temporary file for `path`. Errors (io_error, `file` = path): the target is a
  /// directory, the target is one of `options.protected_inputs` and `options.force` is false,
  /// the folder does not exist, the temporary file cannot be created.
  static Result<AtomicFile> create(const std::filesystem::path& path, const WriteOptions& options = {});

  /// Appends bytes. Errors (io_error): write failure (disk full, ...); the temporary file is
  /// removed and later calls fail.
  Result<void> write(ByteSpan bytes);
  Result<void> write(std::string_view text);
  /// Closes the temporary file and renames it onto the target. Errors (io_error): close or
  /// rename failure (the temporary file is removed), or the file was already finished.
  Result<void> commit();

  /// The target path and the temporary file's path (empty once committed or discarded).
  const std::filesystem::path& path() const noexcept { return path_; }
  const std::filesystem::path& temp_path() const noexcept { return tmp_; }

 private:
  void discard() noexcept;
  int fd_ = -1;
  int cleanup_slot_ = -1;  // the temporary file's slot in core/interrupt.hpp (removed on SIGINT/SIGTERM)
  std::filesystem::path path_, tmp_;
};

/// Writes `bytes` to `path` via a temporary file in the same folder and a rename. Errors
/// (io_error): the folder does not exist or is not writable, the target is a directory, the
/// target is one of `protected_inputs` and `force` is false, write or rename failure (the
/// temporary file is removed).
Result<void> write_file_atomic(const std::filesystem::path& path, ByteSpan bytes, const WriteOptions& options = {});

/// Same, for text.
Result<void> write_file_atomic(const std::filesystem::path& path, std::string_view text,
                               const WriteOptions& options = {});

}  // namespace mmdkit
