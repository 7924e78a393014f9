// Test helpers: where the real-file corpus is, which files it lists, reading files.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace mmdkit::test {

/// One corpus file as MANIFEST.tsv lists it.
struct CorpusFile {
  std::filesystem::path path;  ///< absolute path
  std::string local_path;      ///< path relative to the corpus folder (MANIFEST's first column)
  std::uint64_t bytes = 0;     ///< size MANIFEST.tsv records
  std::string sha256;
  std::string kind;            ///< vmd, pmd, pmx, vpd, texture, readme
};

/// The corpus folder: $MMDKIT_CORPUS if set, else the CMake cache value MMDKIT_CORPUS_DIR.
/// nullopt when the folder (or its MANIFEST.tsv) is absent.
std::optional<std::filesystem::path> corpus_dir();

/// All MANIFEST.tsv entries of one kind ("vmd", ...), in manifest order. Empty without corpus.
std::vector<CorpusFile> corpus_files(const std::string& kind);

/// A corpus file by its MANIFEST local path, e.g.
/// "jomin398__jomin398.github.io/docs/assets/models/mmd/miku_v2/miku_v2.pmd".
std::optional<CorpusFile> corpus_file(const std::string& local_path);

/// Whole file contents; fails the test (ADD_FAILURE) and returns empty on error.
std::vector<std::uint8_t> read_bytes(const std::filesystem::path& path);

/// Path of the built `mmdkit` executable.
std::filesystem::path cli_path();

/// A fresh empty temporary folder for one test (removed by the OS's tmp cleaning, not by us).
std::filesystem::path temp_dir(const std::string& tag);

}  // namespace mmdkit::test

/// Skips the current test with a clear message when the corpus is not there.
#define MMDKIT_REQUIRE_CORPUS()                                                                        \
  do {                                                                                                 \
    if (!::mmdkit::test::corpus_dir())                                                                 \
      GTEST_SKIP() << "real-file corpus not found (set MMDKIT_CORPUS or the CMake cache variable "    \
                      "MMDKIT_CORPUS_DIR; default ../shared/corpus)";                                  \
  } while (0)
