// Real files: every corpus VMD that reads gives the identical bytes after read → to_json →
// from_json → write, in pretty and compact form. Which files read is taken from the independent
// counts in tests/data/vmd_counts.tsv (tools/vmd_counts.py), so a file that silently stops
// round-tripping is noticed.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "formats/vmd/old_name_form.hpp"
#include "mmdkit/formats/vmd.hpp"
#include "mmdkit/formats/vmd_json.hpp"
#include "support/corpus.hpp"

namespace mmdkit::vmd {
namespace {

/// local path -> status ("ok" or an error code name) from tests/data/vmd_counts.tsv.
std::map<std::string, std::string> expected_status() {
  std::map<std::string, std::string> out;
  auto path = std::filesystem::path(MMDKIT_TESTS_DIR) / "data/vmd_counts.tsv";
  std::ifstream in(path);
  EXPECT_TRUE(in) << "cannot open " << path;
  std::string line;
  std::getline(in, line);  // header
  while (std::getline(in, line)) {
    std::stringstream ss(line);
    std::string file, status;
    std::getline(ss, file, '\t');
    std::getline(ss, status, '\t');
    out[file] = status;
  }
  return out;
}

TEST(VmdJsonCorpus, EveryReadableFileRoundTripsByteIdentical) {
  MMDKIT_REQUIRE_CORPUS();
  auto status = expected_status();
  auto files = mmdkit::test::corpus_files("vmd");
  ASSERT_FALSE(files.empty());
  std::size_t expected_ok = 0, round_tripped = 0, with_euler = 0;
  for (const auto& f : files) {
    SCOPED_TRACE(f.local_path);
    auto it = status.find(f.local_path);
    ASSERT_NE(it, status.end()) << "not in tests/data/vmd_counts.tsv";
    if (it->second == "ok") ++expected_ok;
    auto bytes = mmdkit::test::read_bytes(f.path);
    ASSERT_EQ(bytes.size(), f.bytes);
    auto r = read(bytes);
    if (!r) continue;  // the reader's own corpus test checks these failures
    const Motion& m = r->motion;
    // Pretty for all files; compact and --euler on the smaller ones (unedited Euler angles leave
    // the quaternion as stored, so the bytes must not change).
    std::vector<JsonWriteOptions> variants{{false, true}};
    if (bytes.size() < 200'000) {
      variants.push_back({false, false});
      variants.push_back({true, true});
    }
    bool all_ok = true;
    for (const auto& o : variants) {
      std::string j = to_json(m, o);
      ASSERT_TRUE(j.starts_with("{\"format\": \"vmd\",")) << j.substr(0, 40);
      auto back = from_json(j);
      ASSERT_TRUE(back) << back.error().to_string();
      auto w = write(*back);
      ASSERT_TRUE(w) << w.error().to_string();
      if (*w != bytes) {
        all_ok = false;
        std::size_t at = 0;
        while (at < w->size() && at < bytes.size() && (*w)[at] == bytes[at]) ++at;
        ADD_FAILURE() << "bytes differ at offset " << at << " (sizes " << w->size() << " vs " << bytes.size()
                      << "), euler=" << o.euler << " pretty=" << o.pretty;
      }
      if (o.euler) ++with_euler;
      if (!o.pretty && *w == bytes) {
        // Files dumped before the one name form ("name_hex" / "model_name_hex" siblings) still
        // import to the same bytes.
        const std::string old = test::to_old_name_form(j);
        auto old_back = from_json(old);
        ASSERT_TRUE(old_back) << old_back.error().to_string();
        auto old_w = write(*old_back);
        ASSERT_TRUE(old_w);
        if (*old_w != bytes) {
          all_ok = false;
          ADD_FAILURE() << "the old name form does not give the same bytes";
        }
      }
    }
    if (all_ok) ++round_tripped;
  }
  EXPECT_EQ(round_tripped, expected_ok);
  EXPECT_GT(with_euler, 0u);
  std::printf("%zu of %zu corpus VMDs round-trip through JSON (%zu expected to read)\n", round_tripped, files.size(),
              expected_ok);
}

}  // namespace
}  // namespace mmdkit::vmd
