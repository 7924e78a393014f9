#include "support/corpus.hpp"

#include <cstdlib>
#include <fstream>
#include <random>
#include <sstream>

#include "mmdkit/core/file.hpp"

namespace mmdkit::test {

std::optional<std::filesystem::path> corpus_dir() {
  std::filesystem::path dir;
  if (const char* env = std::getenv("MMDKIT_CORPUS"); env && *env) {
    dir = env;
  } else {
    dir = MMDKIT_DEFAULT_CORPUS_DIR;
  }
  std::error_code ec;
  if (!std::filesystem::is_regular_file(dir / "MANIFEST.tsv", ec)) return std::nullopt;
  return std::filesystem::weakly_canonical(dir, ec);
}

static std::vector<CorpusFile> all_files() {
  std::vector<CorpusFile> out;
  auto dir = corpus_dir();
  if (!dir) return out;
  std::ifstream in(*dir / "MANIFEST.tsv");
  std::string line;
  bool header = true;
  while (std::getline(in, line)) {
    if (header) {
      header = false;
      continue;
    }
    std::vector<std::string> cols;
    std::stringstream ss(line);
    std::string col;
    while (std::getline(ss, col, '\t')) cols.push_back(col);
    if (cols.size() < 7) continue;
    CorpusFile f;
    f.local_path = cols[0];
    f.path = *dir / cols[0];
    f.bytes = std::stoull(cols[4]);
    f.sha256 = cols[5];
    f.kind = cols[6];
    out.push_back(std::move(f));
  }
  return out;
}

std::vector<CorpusFile> corpus_files(const std::string& kind) {
  std::vector<CorpusFile> out;
  for (auto& f : all_files())
    if (f.kind == kind) out.push_back(f);
  return out;
}

std::optional<CorpusFile> corpus_file(const std::string& local_path) {
  for (auto& f : all_files())
    if (f.local_path == local_path) return f;
  return std::nullopt;
}

std::vector<std::uint8_t> read_bytes(const std::filesystem::path& path) {
  auto r = mmdkit::read_file(path);
  if (!r) {
    ADD_FAILURE() << r.error().to_string();
    return {};
  }
  return std::move(*r);
}

std::filesystem::path cli_path() { return MMDKIT_CLI_PATH; }

std::filesystem::path temp_dir(const std::string& tag) {
  std::random_device rd;
  auto dir = std::filesystem::temp_directory_path() / ("mmdkit-test-" + tag + "-" + std::to_string(rd()));
  std::filesystem::create_directories(dir);
  return dir;
}

}  // namespace mmdkit::test
