// Internal (not installed): the one file loader behind read_file() (core/file.hpp) and map_file()
// (core/mapped_file.hpp).
#pragma once

#include <cstdint>
#include <filesystem>

#include "mmdkit/core/mapped_file.hpp"

namespace mmdkit::detail {

/// map_file() when `allow_map`, else the same checks and errors with the bytes always read.
Result<FileBytes> load_file(const std::filesystem::path& path, std::uint64_t max_bytes, bool allow_map);

}  // namespace mmdkit::detail
