// Real files: every corpus VMD parses (or fails as tools/vmd_counts.py says), its counts equal the
// independent counts in tests/data/vmd_counts.tsv, and read → write gives the identical bytes.
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <sstream>

#include "mmdkit/formats/vmd.hpp"
#include "support/corpus.hpp"

namespace mmdkit::vmd {
namespace {

struct Expected {
  std::string status, version;
  std::array<std::uint64_t, 6> counts{};
  std::uint64_t ik_states = 0, trailing_bytes = 0, bone_tracks = 0, morph_tracks = 0;
  int sections_present = 0;
};

std::map<std::string, Expected> load_counts() {
  std::map<std::string, Expected> out;
  auto path = std::filesystem::path(MMDKIT_TESTS_DIR) / "data/vmd_counts.tsv";
  std::ifstream in(path);
  EXPECT_TRUE(in) << "cannot open " << path;
  std::string line;
  std::getline(in, line);  // header
  while (std::getline(in, line)) {
    std::vector<std::string> c;
    std::stringstream ss(line);
    std::string col;
    while (std::getline(ss, col, '\t')) c.push_back(col);
    if (c.size() != 14) {
      ADD_FAILURE() << "bad line: " << line;
      continue;
    }
    Expected e;
    e.status = c[1];
    e.version = c[2];
    for (int i = 0; i < 6; ++i) e.counts[static_cast<std::size_t>(i)] = std::stoull(c[static_cast<std::size_t>(3 + i)]);
    e.ik_states = std::stoull(c[9]);
    e.sections_present = std::stoi(c[10]);
    e.trailing_bytes = std::stoull(c[11]);
    e.bone_tracks = std::stoull(c[12]);
    e.morph_tracks = std::stoull(c[13]);
    out[c[0]] = e;
  }
  return out;
}

TEST(VmdCorpus, EveryFileParsesWithIndependentCountsAndRoundTrips) {
  MMDKIT_REQUIRE_CORPUS();
  auto expected = load_counts();
  auto files = mmdkit::test::corpus_files("vmd");
  ASSERT_EQ(files.size(), expected.size()) << "tests/data/vmd_counts.tsv is out of date with MANIFEST.tsv";
  std::size_t ok = 0, failed = 0;
  for (const auto& f : files) {
    SCOPED_TRACE(f.local_path);
    auto it = expected.find(f.local_path);
    ASSERT_NE(it, expected.end());
    const Expected& e = it->second;
    auto bytes = mmdkit::test::read_bytes(f.path);
    ASSERT_EQ(bytes.size(), f.bytes);
    auto r = read(bytes);
    auto s = summarize(bytes);
    if (e.status != "ok") {
      ASSERT_FALSE(r);
      EXPECT_EQ(error_code_name(r.error().code), e.status);
      ASSERT_FALSE(s);
      EXPECT_EQ(s.error().code, r.error().code);
      ++failed;
      continue;
    }
    ASSERT_TRUE(r) << r.error().to_string();
    ASSERT_TRUE(s);
    const Motion& m = r->motion;
    EXPECT_EQ(m.version == Version::v2 ? "v2" : "v1", e.version);
    std::array<std::uint64_t, 6> got{m.bone_keys.size(),  m.morph_keys.size(),       m.camera_keys.size(),
                                     m.light_keys.size(), m.self_shadow_keys.size(), m.property_keys.size()};
    EXPECT_EQ(got, e.counts);
    EXPECT_EQ(s->counts, e.counts);
    std::uint64_t states = 0;
    for (const auto& p : m.property_keys) states += p.ik.size();
    EXPECT_EQ(states, e.ik_states);
    EXPECT_EQ(s->ik_states, e.ik_states);
    EXPECT_EQ(m.sections_present, e.sections_present);
    EXPECT_EQ(m.trailing.size(), e.trailing_bytes);
    EXPECT_EQ(m.bone_names.size(), e.bone_tracks);
    EXPECT_EQ(m.morph_names.size(), e.morph_tracks);
    EXPECT_EQ(s->bone_tracks, e.bone_tracks);
    EXPECT_EQ(s->morph_tracks, e.morph_tracks);
    EXPECT_EQ(s->frame_range, frame_range(m));
    EXPECT_EQ(s->encoding, m.encoding);
    for (const auto& k : m.bone_keys) ASSERT_LT(k.name, m.bone_names.size());
    auto w = write(m);
    ASSERT_TRUE(w) << w.error().to_string();
    EXPECT_TRUE(*w == bytes) << "read → write is not byte-identical";
    ++ok;
  }
  EXPECT_EQ(failed, 1u);  // result.vmd
  EXPECT_EQ(ok + failed, files.size());
}

TEST(VmdCorpus, ResultVmdDeclaresTooManyBoneKeys) {
  MMDKIT_REQUIRE_CORPUS();
  auto f = mmdkit::test::corpus_file("miu200521358__mmd_base/tests/resources/result.vmd");
  ASSERT_TRUE(f);
  auto r = read_file(f->path);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, ErrorCode::count_too_large);
  EXPECT_EQ(r.error().section, "bone keyframes");
  EXPECT_EQ(r.error().offset, 50);  // the count field
  EXPECT_NE(r.error().message.find("39564"), std::string::npos);
  EXPECT_EQ(r.error().file, f->path.string());
}

TEST(VmdCorpus, KnownNamesDecode) {
  MMDKIT_REQUIRE_CORPUS();
  // mincam.vmd: signature "0002\0JKLM", model name "カメラ・照明" with 0xFD fill after the NUL.
  auto f = mmdkit::test::corpus_file("olyutorskii__Vmd2XML/src/test/resources/testdata/vmd110820/minimum/mincam.vmd");
  ASSERT_TRUE(f);
  auto r = read_file(f->path);
  ASSERT_TRUE(r);
  EXPECT_EQ(r->motion.model_name.text, "カメラ・照明");
  EXPECT_EQ(r->motion.model_name.raw[19], 0xFD);
  EXPECT_EQ(r->motion.signature[26], 'J');
  EXPECT_EQ(r->motion.encoding, Encoding::cp932);
}

}  // namespace
}  // namespace mmdkit::vmd
