// PMD structural checks: a consistent model has no findings; each defect is reported once with its
// section, record and the byte offset of the field in the written file.
#include <gtest/gtest.h>

#include <cstring>
#include <string>

#include "fixture.hpp"
#include "mmdkit/formats/pmd.hpp"
#include "support/corpus.hpp"

namespace mmdkit::pmd {
namespace {

// Offsets of the sample model's sections (docs/formats/pmd.md record sizes).
constexpr std::size_t kVerts = 283;
constexpr std::size_t kFaces = kVerts + 4 + 3 * 38;
constexpr std::size_t kMats = kFaces + 4 + 3 * 2;
constexpr std::size_t kBones = kMats + 4 + 2 * 70;
constexpr std::size_t kIk = kBones + 2 + 3 * 39;
constexpr std::size_t kMorphs = kIk + 2 + 15;

std::vector<CheckFinding> findings(const Model& m) { return check(m); }

TEST(PmdCheck, ConsistentSampleHasNoFindings) {
  auto f = findings(test::sample_model());
  EXPECT_TRUE(f.empty()) << f.front().where.to_string();
}

struct Expect {
  bool error;
  std::string section;
  std::int64_t record, offset;
};

void expect_one(const Model& m, const Expect& e) {
  auto f = findings(m);
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].error, e.error) << f[0].where.to_string();
  EXPECT_EQ(f[0].where.section, e.section) << f[0].where.to_string();
  EXPECT_EQ(f[0].where.record, e.record) << f[0].where.to_string();
  EXPECT_EQ(f[0].where.offset, e.offset) << f[0].where.to_string();
  // The offset points at the field in the written file: check it holds the stored value there.
  auto b = write(m);
  ASSERT_TRUE(b);
  EXPECT_LT(static_cast<std::size_t>(e.offset), b->size());
}

TEST(PmdCheck, EachDefectIsLocated) {
  {
    Model m = test::sample_model();
    m.vertices[1].bones[1] = 7;
    expect_one(m, {true, "vertices", 1, kVerts + 4 + 38 + 34});
  }
  {
    Model m = test::sample_model();
    m.indices[2] = 3;
    expect_one(m, {true, "faces", 2, kFaces + 4 + 4});
  }
  {
    Model m = test::sample_model();
    m.materials[1].index_count = 3;  // draws 6 of 3
    expect_one(m, {true, "materials", -1, kMats});
  }
  {
    Model m = test::sample_model();
    m.bones[0].parent = 2;  // 0 → 2 → 1 → 0 cycle: each of the 3 bones is its own ancestor
    auto f = findings(m);
    ASSERT_EQ(f.size(), 3u);
    EXPECT_EQ(f[0].where.offset, static_cast<std::int64_t>(kBones + 2 + 20));
  }
  {
    Model m = test::sample_model();
    m.bones[2].tail = 5;
    expect_one(m, {false, "bones", 2, kBones + 2 + 2 * 39 + 22});
  }
  {
    Model m = test::sample_model();
    m.ik_chains[0].links[1] = 3;
    expect_one(m, {true, "ik chains", 0, kIk + 2 + 11 + 2});
  }
  {
    Model m = test::sample_model();
    m.morphs[2].offsets[1].vertex = 2;  // base has 2 entries
    expect_one(m, {true, "morphs", 2, kMorphs + 2 + (25 + 32) + (25 + 16) + 25 + 16});
  }
  {
    Model m = test::sample_model();
    m.rigid_bodies[1].mode = 3;
    const std::size_t rigid = kMorphs + 2 + 57 + 41 + 57 + 1 + 4 + 1 + 100 + 4 + 6 + 1 + 20 + 256 + 60 + 40 + 100 + 1000;
    expect_one(m, {false, "rigid bodies", 1, static_cast<std::int64_t>(rigid + 4 + 83 + 82)});
    auto b = write(m);
    ASSERT_TRUE(b);
    EXPECT_EQ((*b)[rigid + 4 + 83 + 82], 3);
  }
  {
    Model m = test::sample_model();
    m.joints[0].rigid_b = 2;
    auto f = findings(m);
    ASSERT_EQ(f.size(), 1u);
    EXPECT_EQ(f[0].where.section, "joints");
  }
  {
    Model m = test::sample_model();
    m.indices.push_back(0);
    m.materials[0].index_count = 4;
    auto f = findings(m);
    ASSERT_EQ(f.size(), 2u);  // face count not a multiple of 3 (error), material count (warning)
    EXPECT_TRUE(f[0].error);
    EXPECT_EQ(f[0].where.section, "faces");
    EXPECT_FALSE(f[1].error);
  }
}

TEST(PmdCheck, ManyFindingsOfOneKindAreSummarized) {
  Model m = test::sample_model();
  for (int i = 0; i < 30; ++i) m.indices.insert(m.indices.end(), {9, 9, 9});
  m.materials[0].index_count += 90;
  auto f = check(m, 5);
  ASSERT_EQ(f.size(), 6u);
  EXPECT_NE(f.back().where.message.find("85 more"), std::string::npos) << f.back().where.message;
}

TEST(PmdCheck, CorpusModelsHaveNoErrors) {
  MMDKIT_REQUIRE_CORPUS();
  for (const auto& file : mmdkit::test::corpus_files("pmd")) {
    auto r = read_file(file.path);
    ASSERT_TRUE(r);
    for (const CheckFinding& f : check(r->model)) EXPECT_FALSE(f.error) << file.local_path << ": " << f.where.to_string();
  }
}

}  // namespace
}  // namespace mmdkit::pmd
