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
#include <vector>

#include "mmdkit/core/bytes.hpp"
#include "mmdkit/core/error.hpp"

namespace mmdkit {

/// Reads a whole regular file. Errors (code io_error, `file` set to the path): missing file,
/// a directory, no permission, read failure. `max_bytes` bounds the size accepted
/// (limit_exceeded above it; default 4 GiB).
Result<std::vector<std::uint8_t>> read_file(const std::filesystem::path& path,
                                            std::uint64_t max_bytes = std::uint64_t{4} << 30);

/// Options for write_file_atomic.
struct WriteOptions {
  /// Paths the output must not replace (the command's inputs) unless `force` is set.
  std::span<const std::filesystem::path> protected_inputs{};
  bool force = false;  ///< allow replacing a protected input
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
