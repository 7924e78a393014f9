// PMX on real files: every corpus PMX parses, writes back byte-identical, and has the section
// counts that tools/pmx_counts.py (an independent Python reader written from the spec) computed.
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <sstream>

#include "mmdkit/formats/pmx.hpp"
#include "support/corpus.hpp"

namespace mmdkit::pmx {
namespace {

struct Expected {
  std::string version;
  int encoding = 0, additional_uvs = 0;
  std::string index_sizes;
  std::uint64_t vertices = 0, sdef = 0, triangles = 0, textures = 0, materials = 0, bones = 0, morphs = 0,
                display_frames = 0, rigid_bodies = 0, joints = 0, soft_bodies = 0, trailing = 0;
  std::string name;
};

std::map<std::string, Expected> expected_counts() {
  std::map<std::string, Expected> out;
  std::ifstream in(std::filesystem::path(MMDKIT_TESTS_DIR) / "data/pmx_counts.tsv");
  std::string line;
  std::getline(in, line);  // header
  while (std::getline(in, line)) {
    std::vector<std::string> c;
    std::stringstream ss(line);
    std::string col;
    while (std::getline(ss, col, '\t')) c.push_back(col);
    if (c.size() < 17) continue;
    Expected e;
    e.version = c[1];
    e.encoding = std::stoi(c[2]);
    e.additional_uvs = std::stoi(c[3]);
    e.index_sizes = c[4];
    std::uint64_t* f[] = {&e.vertices, &e.sdef, &e.triangles, &e.textures, &e.materials, &e.bones, &e.morphs,
                          &e.display_frames, &e.rigid_bodies, &e.joints, &e.soft_bodies, &e.trailing};
    for (int i = 0; i < 12; ++i) *f[i] = std::stoull(c[5 + i]);
    e.name = c.size() > 17 ? c[17] : "";
    out[c[0]] = e;
  }
  return out;
}

TEST(PmxCorpus, EveryFileParsesRoundTripsAndMatchesIndependentCounts) {
  MMDKIT_REQUIRE_CORPUS();
  auto files = test::corpus_files("pmx");
  auto expected = expected_counts();
  ASSERT_EQ(files.size(), 43u);
  ASSERT_EQ(expected.size(), 43u) << "tests/data/pmx_counts.tsv";
  for (const auto& f : files) {
    SCOPED_TRACE(f.local_path);
    auto bytes = test::read_bytes(f.path);
    ASSERT_EQ(bytes.size(), f.bytes);
    auto r = read(bytes);
    ASSERT_TRUE(r.has_value()) << r.error().to_string();
    const Model& m = r->model;
    auto it = expected.find(f.local_path);
    ASSERT_NE(it, expected.end());
    const Expected& e = it->second;
    EXPECT_EQ(version_name(m.header.version), e.version);
    EXPECT_EQ(m.header.encoding == Encoding::utf16le ? 0 : 1, e.encoding);
    EXPECT_EQ(m.header.additional_uv_count, e.additional_uvs);
    const Header& h = m.header;
    EXPECT_EQ(std::to_string(h.vertex_index_size) + "," + std::to_string(h.texture_index_size) + "," +
                  std::to_string(h.material_index_size) + "," + std::to_string(h.bone_index_size) + "," +
                  std::to_string(h.morph_index_size) + "," + std::to_string(h.rigid_body_index_size),
              e.index_sizes);
    Counts c = r->counts;
    EXPECT_EQ(c.vertices, e.vertices);
    EXPECT_EQ(c.sdef_vertices, e.sdef);
    EXPECT_EQ(c.faces, e.triangles);
    EXPECT_EQ(c.textures, e.textures);
    EXPECT_EQ(c.materials, e.materials);
    EXPECT_EQ(c.bones, e.bones);
    EXPECT_EQ(c.morphs, e.morphs);
    EXPECT_EQ(c.display_frames, e.display_frames);
    EXPECT_EQ(c.rigid_bodies, e.rigid_bodies);
    EXPECT_EQ(c.joints, e.joints);
    EXPECT_EQ(c.soft_bodies, e.soft_bodies);
    EXPECT_EQ(c.trailing_bytes, e.trailing);
    // Python replaced tabs/newlines by spaces in the name column.
    std::string name = m.name.text;
    for (char& ch : name)
      if (ch == '\t' || ch == '\n' || ch == '\r') ch = ' ';
    EXPECT_EQ(name, e.name);
    // Material face counts cover the faces exactly in well-formed files.
    std::uint64_t material_faces = 0;
    for (const auto& mt : m.materials) material_faces += mt.face_index_count;
    EXPECT_EQ(material_faces, m.faces.size());

    auto w = write(m);
    ASSERT_TRUE(w.has_value()) << w.error().to_string();
    EXPECT_TRUE(*w == bytes) << "binary round trip differs";

    // The summary mode gives the same counts without storing geometry.
    auto s = read(bytes, ReadOptions{.skip_geometry = true});
    ASSERT_TRUE(s.has_value());
    EXPECT_TRUE(s->model.vertices.empty());
    EXPECT_EQ(s->counts.vertices, e.vertices);
    EXPECT_EQ(s->counts.faces, e.triangles);
  }
}

TEST(PmxCorpus, Pmx21Utf8SampleHasOneSoftBodyAndUtf8Names) {
  MMDKIT_REQUIRE_CORPUS();
  auto f = test::corpus_file("miu200521358__mlib_go/resources/test/サンプルモデル_PMX2.1_UTF-8.pmx");
  if (!f) GTEST_SKIP() << "file not in corpus";
  auto bytes = test::read_bytes(f->path);
  auto r = read(bytes);
  ASSERT_TRUE(r.has_value()) << r.error().to_string();
  EXPECT_EQ(r->model.header.version, Version::v2_1);
  EXPECT_EQ(r->model.header.encoding, Encoding::utf8);
  ASSERT_EQ(r->model.soft_bodies.size(), 1u);
  // UTF-8 file: the decoded text is the raw bytes.
  EXPECT_EQ(r->model.name.text, std::string(r->model.name.raw.begin(), r->model.name.raw.end()));
}

// Every prefix of a small file is a clean error (never a crash, never success).
void expect_all_prefixes_fail(const std::vector<std::uint8_t>& bytes, std::size_t step = 1) {
  for (std::size_t n = 0; n < bytes.size(); n += step) {
    auto r = read(ByteSpan(bytes.data(), n));
    ASSERT_FALSE(r.has_value()) << "prefix of " << n << " bytes parsed";
    const Error& e = r.error();
    EXPECT_TRUE(e.code == ErrorCode::truncated || e.code == ErrorCode::count_too_large ||
                e.code == ErrorCode::empty_input || e.code == ErrorCode::bad_signature)
        << n << ": " << e.to_string();
    EXPECT_FALSE(e.section.empty()) << n;
    EXPECT_GE(e.offset, 0) << n;
    EXPECT_LE(e.offset, static_cast<std::int64_t>(n)) << n;
  }
}

TEST(PmxCorpus, EveryPrefixOfSmallFilesIsACleanError) {
  MMDKIT_REQUIRE_CORPUS();
  int tested = 0;
  for (const auto& f : test::corpus_files("pmx")) {
    if (f.bytes > 10000) continue;  // 35 files up to nanoem's test.pmx (9631 bytes)
    SCOPED_TRACE(f.local_path);
    auto bytes = test::read_bytes(f.path);
    expect_all_prefixes_fail(bytes);
    ++tested;
  }
  EXPECT_GE(tested, 30);
}

TEST(PmxCorpus, SampledPrefixesOfTheLargestFileAreCleanErrors) {
  MMDKIT_REQUIRE_CORPUS();
  std::optional<test::CorpusFile> big;
  for (const auto& f : test::corpus_files("pmx"))
    if (!big || f.bytes > big->bytes) big = f;
  ASSERT_TRUE(big);
  auto bytes = test::read_bytes(big->path);
  // ~300 prefixes spread over the file, plus every prefix of the first 4 KiB and the last 300 bytes.
  expect_all_prefixes_fail(bytes, bytes.size() / 300 + 1);
  for (std::size_t n = 0; n < 4096; ++n) ASSERT_FALSE(read(ByteSpan(bytes.data(), n)).has_value());
  for (std::size_t n = bytes.size() - 300; n < bytes.size(); ++n)
    ASSERT_FALSE(read(ByteSpan(bytes.data(), n)).has_value()) << n;
}

TEST(PmxCorpus, SingleByteCorruptionNeverCrashes) {
  MMDKIT_REQUIRE_CORPUS();
  int files = 0;
  for (const auto& f : test::corpus_files("pmx")) {
    if (f.bytes > 1100) continue;
    SCOPED_TRACE(f.local_path);
    auto bytes = test::read_bytes(f.path);
    for (std::size_t i = 0; i < bytes.size(); ++i) {
      for (std::uint8_t v : {std::uint8_t{0x00}, std::uint8_t{0x7F}, std::uint8_t{0x80}, std::uint8_t{0xFF},
                             static_cast<std::uint8_t>(bytes[i] ^ 0x01)}) {
        auto copy = bytes;
        copy[i] = v;
        auto r = read(copy);
        if (r) {
          // Whatever parses writes back to the same bytes.
          auto w = write(r->model);
          ASSERT_TRUE(w.has_value()) << i;
          EXPECT_TRUE(*w == copy) << "corrupted byte " << i;
        } else {
          EXPECT_LE(r.error().offset, static_cast<std::int64_t>(copy.size()));
        }
      }
    }
    ++files;
  }
  EXPECT_GE(files, 8);
}

}  // namespace
}  // namespace mmdkit::pmx
