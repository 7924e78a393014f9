// Every corpus PMD: parses without warnings, counts equal the independent script's
// (tests/data/pmd_counts.tsv from tools/pmd_counts.py), read → write and read → JSON → write give
// the identical bytes. Prefixes of real files: the small bootscreen.pmd in full, miku_v2.pmd sampled.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "mmdkit/formats/pmd.hpp"
#include "mmdkit/formats/pmd_json.hpp"
#include "support/corpus.hpp"

namespace mmdkit::pmd {
namespace {

using Row = std::map<std::string, long long>;

std::map<std::string, Row> load_counts() {
  std::map<std::string, Row> rows;
  auto path = std::filesystem::path(MMDKIT_TESTS_DIR) / "data/pmd_counts.tsv";
  std::ifstream in(path);
  EXPECT_TRUE(in) << path;
  std::string line;
  std::getline(in, line);
  std::vector<std::string> header;
  {
    std::stringstream ss(line);
    std::string c;
    while (std::getline(ss, c, '\t')) header.push_back(c);
  }
  while (std::getline(in, line)) {
    std::stringstream ss(line);
    std::string c, key;
    Row row;
    for (std::size_t i = 0; std::getline(ss, c, '\t'); ++i) {
      if (i == 0)
        key = c;
      else if (i < header.size())
        row[header[i]] = std::stoll(c);
    }
    rows[key] = row;
  }
  return rows;
}

long long tail_english(const Model& m) {
  if (m.tail < Tail::english) return -1;
  return m.english ? 1 : 0;
}

TEST(PmdCorpus, EveryFileParsesWithIndependentCountsAndRoundTrips) {
  MMDKIT_REQUIRE_CORPUS();
  auto files = test::corpus_files("pmd");
  auto expected = load_counts();
  ASSERT_FALSE(files.empty());
  ASSERT_EQ(files.size(), expected.size()) << "tests/data/pmd_counts.tsv is out of date with MANIFEST.tsv";
  for (const auto& f : files) {
    SCOPED_TRACE(f.local_path);
    auto bytes = test::read_bytes(f.path);
    ASSERT_EQ(bytes.size(), f.bytes);
    auto r = read(bytes);
    ASSERT_TRUE(r) << r.error().to_string();
    EXPECT_TRUE(r->warnings.empty()) << r->warnings.front().to_string();
    const Model& m = r->model;
    ASSERT_TRUE(expected.count(f.local_path));
    Row& e = expected[f.local_path];
    std::size_t links = 0, offsets = 0;
    for (const IkChain& k : m.ik_chains) links += k.links.size();
    for (const Morph& x : m.morphs) offsets += x.offsets.size();
    EXPECT_EQ(static_cast<long long>(m.vertices.size()), e["vertices"]);
    EXPECT_EQ(static_cast<long long>(m.indices.size()), e["face_indices"]);
    EXPECT_EQ(static_cast<long long>(m.materials.size()), e["materials"]);
    EXPECT_EQ(static_cast<long long>(m.bones.size()), e["bones"]);
    EXPECT_EQ(static_cast<long long>(m.ik_chains.size()), e["ik_chains"]);
    EXPECT_EQ(static_cast<long long>(links), e["ik_links"]);
    EXPECT_EQ(static_cast<long long>(m.morphs.size()), e["morphs"]);
    EXPECT_EQ(static_cast<long long>(offsets), e["morph_offsets"]);
    EXPECT_EQ(static_cast<long long>(m.morph_display.size()), e["morph_display"]);
    EXPECT_EQ(static_cast<long long>(m.bone_frames.size()), e["bone_frames"]);
    EXPECT_EQ(static_cast<long long>(m.bone_display.size()), e["bone_display"]);
    EXPECT_EQ(tail_english(m), e["english"]);
    EXPECT_EQ(m.tail >= Tail::toon_textures ? 1 : 0, e["toon"]);
    EXPECT_EQ(m.tail >= Tail::rigid_bodies ? static_cast<long long>(m.rigid_bodies.size()) : -1, e["rigid_bodies"]);
    EXPECT_EQ(m.tail >= Tail::joints ? static_cast<long long>(m.joints.size()) : -1, e["joints"]);
    EXPECT_EQ(static_cast<long long>(m.trailing.size()), e["trailing_bytes"]);

    auto out = write(m);
    ASSERT_TRUE(out) << out.error().to_string();
    EXPECT_TRUE(*out == bytes) << "binary round trip differs";

    std::string json = to_json(m);
    EXPECT_EQ(json.rfind("{\"format\": \"pmd\"", 0), 0u);
    auto back = from_json(json);
    ASSERT_TRUE(back) << back.error().to_string();
    auto out2 = write(*back);
    ASSERT_TRUE(out2) << out2.error().to_string();
    EXPECT_TRUE(*out2 == bytes) << "JSON round trip differs";
    EXPECT_EQ(to_json(*back), json);
  }
}

TEST(PmdCorpus, KnownValuesOfMikuV2) {
  MMDKIT_REQUIRE_CORPUS();
  auto f = test::corpus_file("jomin398__jomin398.github.io/docs/assets/models/mmd/miku_v2/miku_v2.pmd");
  if (!f) GTEST_SKIP() << "miku_v2.pmd not in corpus";
  auto r = read_file(f->path);
  ASSERT_TRUE(r);
  const Model& m = r->model;
  EXPECT_EQ(m.encoding, Encoding::cp932);
  EXPECT_EQ(m.version, 1.0f);
  EXPECT_EQ(m.name.text, "初音ミク");
  // Leg IK chains (checked with a hex dump / tools/pmd_counts.py style walk): 40 iterations,
  // unit angle 0.5, 2 links.
  int legs = 0;
  for (const IkChain& k : m.ik_chains)
    if (m.bones[k.target].name.text == "左足ＩＫ" || m.bones[k.target].name.text == "右足ＩＫ") {
      ++legs;
      EXPECT_EQ(k.iterations, 40);
      EXPECT_EQ(k.unit_angle, 0.5f);
      EXPECT_EQ(k.links.size(), 2u);
    }
  EXPECT_EQ(legs, 2);
  EXPECT_EQ(m.morphs[0].type, 0);
  EXPECT_EQ(m.morphs[0].name.text, "base");
  EXPECT_EQ(m.toon_textures[0].text, "toon01.bmp");
}

void check_prefix(ByteSpan full, std::size_t len, std::size_t mandatory) {
  ByteSpan prefix = full.first(len);
  auto r = read(prefix);
  if (len < mandatory) {
    ASSERT_FALSE(r) << "prefix " << len;
    EXPECT_FALSE(r.error().section.empty());
    EXPECT_GE(r.error().offset, 0);
    EXPECT_LE(r.error().offset, static_cast<std::int64_t>(len));
    return;
  }
  ASSERT_TRUE(r) << "prefix " << len << ": " << r.error().to_string();
  auto again = write(r->model);
  ASSERT_TRUE(again);
  ASSERT_TRUE(std::equal(again->begin(), again->end(), prefix.begin(), prefix.end())) << "prefix " << len;
}

// End of the mandatory part (bone display list) of a model that was read.
std::size_t mandatory_size(Model m) {
  m.tail = Tail::none;
  m.english.reset();
  m.toon_textures = {};
  m.rigid_bodies.clear();
  m.joints.clear();
  m.trailing.clear();
  return write(m)->size();
}

TEST(PmdCorpus, EveryPrefixOfBootscreen) {
  MMDKIT_REQUIRE_CORPUS();
  auto f = test::corpus_file("mmdagent__mmdagent-mirror/MMDAgent_Example/Accessory/bootscreen/bootscreen.pmd");
  if (!f) GTEST_SKIP() << "bootscreen.pmd not in corpus";
  auto bytes = test::read_bytes(f->path);
  ASSERT_EQ(bytes.size(), 2062u);
  auto full = read(bytes);
  ASSERT_TRUE(full);
  const std::size_t mandatory = mandatory_size(full->model);
  for (std::size_t len = 0; len <= bytes.size(); ++len) check_prefix(bytes, len, mandatory);
}

TEST(PmdCorpus, EverySingleByteCorruptionOfBootscreen) {
  MMDKIT_REQUIRE_CORPUS();
  auto f = test::corpus_file("mmdagent__mmdagent-mirror/MMDAgent_Example/Accessory/bootscreen/bootscreen.pmd");
  if (!f) GTEST_SKIP() << "bootscreen.pmd not in corpus";
  auto good = test::read_bytes(f->path);
  for (std::size_t i = 0; i < good.size(); ++i) {
    for (std::uint8_t v : {std::uint8_t(good[i] ^ 0xFF), std::uint8_t(good[i] ^ 0x01), std::uint8_t(0x7F)}) {
      auto b = good;
      b[i] = v;
      auto r = read(b);
      if (!r) continue;
      auto again = write(r->model);
      ASSERT_TRUE(again);
      ASSERT_TRUE(*again == b) << "byte " << i;
    }
  }
}

// Record boundaries ±1 of every section (every 61st record of the large ones) and a stride.
TEST(PmdCorpus, SampledPrefixesOfMikuV2) {
  MMDKIT_REQUIRE_CORPUS();
  auto f = test::corpus_file("jomin398__jomin398.github.io/docs/assets/models/mmd/miku_v2/miku_v2.pmd");
  if (!f) GTEST_SKIP() << "miku_v2.pmd not in corpus";
  auto bytes = test::read_bytes(f->path);
  auto full = read(bytes);
  ASSERT_TRUE(full);
  const Model& m = full->model;
  // Boundaries computed from the record sizes of docs/formats/pmd.md.
  std::set<std::size_t> cuts;
  std::size_t p = 283;
  auto mark = [&](std::size_t at) {
    for (std::size_t d : {std::size_t{0}, std::size_t{1}})
      if (at >= d) cuts.insert(at - d);
    cuts.insert(at + 1);
  };
  auto fixed = [&](std::size_t count_size, std::size_t n, std::size_t rec) {
    mark(p);
    p += count_size;
    for (std::size_t i = 0; i < n; ++i, p += rec)
      if (i % 61 == 0 || i + 1 == n) mark(p);
    mark(p);
  };
  mark(p);
  fixed(4, m.vertices.size(), 38);
  fixed(4, m.indices.size(), 2);
  fixed(4, m.materials.size(), 70);
  fixed(2, m.bones.size(), 39);
  mark(p);
  p += 2;
  for (const IkChain& k : m.ik_chains) mark(p), p += 11 + 2 * k.links.size();
  mark(p);
  p += 2;
  for (const Morph& x : m.morphs) mark(p), mark(p + 25), p += 25 + 16 * x.offsets.size();
  fixed(1, m.morph_display.size(), 2);
  fixed(1, m.bone_frames.size(), 50);
  fixed(4, m.bone_display.size(), 3);
  const std::size_t mandatory = p;
  EXPECT_EQ(mandatory, mandatory_size(m));
  mark(p);
  p += 1 + 20 + 256 + 20 * m.bones.size() + 20 * (m.morphs.size() - 1) + 50 * m.bone_frames.size();
  mark(p);
  p += 1000;
  fixed(4, m.rigid_bodies.size(), 83);
  fixed(4, m.joints.size(), 124);
  EXPECT_EQ(p, bytes.size());
  for (std::size_t at = 0; at < bytes.size(); at += 4099) cuts.insert(at);
  for (std::size_t at : cuts)
    if (at <= bytes.size()) check_prefix(bytes, at, mandatory);
}

}  // namespace

// skip_geometry (the geometry-free load of model::LoadOptions): vertices and face indices are
// not stored, their counts are the file's (the independent script's counts), and everything else
// is what the full read gives (its lossless JSON with the geometry removed is the same text).
TEST(PmdCorpus, SkipGeometryKeepsEverythingButVerticesAndIndices) {
  MMDKIT_REQUIRE_CORPUS();
  auto files = test::corpus_files("pmd");
  auto expected = load_counts();
  ASSERT_FALSE(files.empty());
  for (const auto& f : files) {
    SCOPED_TRACE(f.local_path);
    auto bytes = test::read_bytes(f.path);
    auto full = read(bytes);
    ASSERT_TRUE(full) << full.error().to_string();
    ReadOptions o;
    o.skip_geometry = true;
    auto lite = read(bytes, o);
    ASSERT_TRUE(lite) << lite.error().to_string();
    EXPECT_TRUE(lite->model.vertices.empty());
    EXPECT_TRUE(lite->model.indices.empty());
    Row& e = expected[f.local_path];
    EXPECT_EQ(static_cast<long long>(lite->vertex_count), e["vertices"]);
    EXPECT_EQ(lite->vertex_count, full->vertex_count);
    EXPECT_EQ(lite->index_count, full->model.indices.size());
    EXPECT_EQ(full->vertex_count, full->model.vertices.size());
    Model stripped = full->model;
    stripped.vertices.clear();
    stripped.indices.clear();
    EXPECT_EQ(to_json(lite->model), to_json(stripped));
    EXPECT_EQ(lite->warnings.size(), full->warnings.size());
  }
}

TEST(PmdCorpus, SkipGeometryRefusesTheSameCutFiles) {
  MMDKIT_REQUIRE_CORPUS();
  auto f = test::corpus_file("jomin398__jomin398.github.io/docs/assets/models/mmd/miku_v2/miku_v2.pmd");
  if (!f) GTEST_SKIP() << "miku_v2.pmd not in corpus";
  auto bytes = test::read_bytes(f->path);
  ReadOptions o;
  o.skip_geometry = true;
  // Cut inside the vertices, inside the face indices (12354 vertices of 38 bytes after the
  // 283-byte header and its count), and inside the materials (68883 indices of 2 bytes).
  for (std::size_t cut : {std::size_t{1000}, std::size_t{283 + 4 + 12354 * 38 + 4 + 100},
                           std::size_t{283 + 4 + 12354 * 38 + 4 + 68883 * 2 + 4 + 100}}) {
    SCOPED_TRACE(cut);
    std::vector<std::uint8_t> head(bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(cut));
    auto a = read(head);
    auto b = read(head, o);
    ASSERT_FALSE(a);
    ASSERT_FALSE(b);
    EXPECT_EQ(b.error().code, a.error().code);
    EXPECT_EQ(b.error().section, a.error().section);
    EXPECT_EQ(b.error().record, a.error().record);
    EXPECT_EQ(b.error().offset, a.error().offset);
  }
}

}  // namespace mmdkit::pmd
