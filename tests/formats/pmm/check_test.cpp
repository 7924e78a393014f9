// pmm::check on projects built in code (links broken one at a time, indices out of range) and on
// the corpus projects; pmm::resolve_path on a folder made here.
#include <gtest/gtest.h>

#include <fstream>

#include "formats/pmm/fixture.hpp"
#include "mmdkit/formats/pmm.hpp"
#include "support/corpus.hpp"

namespace mmdkit::pmm {
namespace {

using test::sample_document;

std::size_t errors(const std::vector<CheckFinding>& f) {
  std::size_t n = 0;
  for (const auto& x : f) n += x.error ? 1 : 0;
  return n;
}

std::string all(const std::vector<CheckFinding>& f) {
  std::string s;
  for (const auto& x : f) s += x.where.to_string() + "\n";
  return s;
}

TEST(PmmCheck, TheFixtureIsClean) {
  for (Version v : {Version::v1, Version::v2}) {
    auto f = check(sample_document(v));
    EXPECT_TRUE(f.empty()) << all(f);
  }
}

TEST(PmmCheck, BrokenLinksAreFound) {
  Document d = sample_document(Version::v2, 1);
  d.models[0].bone_keys[0].next = 99;  // the second key is then reached by nothing
  auto f = check(d);
  EXPECT_EQ(errors(f), 1u) << all(f);
  ASSERT_EQ(f.size(), 2u) << all(f);
  EXPECT_EQ(f[0].where.section, "model 0 bone keyframes");
  EXPECT_NE(f[0].where.message.find("links to next key 99, which no key has"), std::string::npos);
  EXPECT_FALSE(f[1].error);
  EXPECT_EQ(f[1].where.record, 1);
  EXPECT_NE(f[1].where.message.find("reached from no track's initial key"), std::string::npos);

  d = sample_document(Version::v2, 1);
  d.models[0].bone_keys[1].frame = 5;  // before the key at frame 10 it follows
  f = check(d);
  ASSERT_EQ(f.size(), 1u) << all(f);
  EXPECT_FALSE(f[0].error);
  EXPECT_NE(f[0].where.message.find("at frame 5 follows a key at frame 10"), std::string::npos);

  d = sample_document(Version::v2, 1);
  d.models[0].bone_keys[1].next = d.models[0].bone_keys[0].index;  // a loop
  f = check(d);
  EXPECT_EQ(errors(f), 1u) << all(f);
  EXPECT_NE(all(f).find("reached twice"), std::string::npos);

  d = sample_document(Version::v2, 1);
  d.camera.keys[1].index = d.camera.keys[0].index;  // repeated id
  f = check(d);
  EXPECT_GE(errors(f), 1u);
  EXPECT_NE(all(f).find("is also the id of key 0"), std::string::npos) << all(f);

  d = sample_document(Version::v2, 1);
  d.light.keys[0].previous = 5;
  f = check(d);
  ASSERT_EQ(f.size(), 1u) << all(f);
  EXPECT_NE(f[0].where.message.find("its previous link is 5"), std::string::npos);
}

TEST(PmmCheck, StoredIndexThatIsNotThePositionIsAWarning) {
  Document d = sample_document(Version::v2, 2);
  d.models[1].index = 0;
  auto f = check(d);
  ASSERT_EQ(f.size(), 1u) << all(f);
  EXPECT_FALSE(f[0].error);
  EXPECT_EQ(f[0].where.record, 1);
  EXPECT_NE(f[0].where.message.find("stores index 0"), std::string::npos);
}

TEST(PmmCheck, IndicesOutOfRange) {
  Document d = sample_document(Version::v2, 2);
  d.models[1].outside_parent_bones[0] = -2;
  d.models[0].model_keys[0].outside_parents[0] = OutsideParent{1, 3};  // model 1 has 3 bones
  d.camera.keys[0].follow = OutsideParent{2, 0};                        // 2 models
  auto f = check(d);
  EXPECT_EQ(errors(f), 3u) << all(f);
  EXPECT_NE(all(f).find("outside-parent bone index -2"), std::string::npos);
  EXPECT_NE(all(f).find("bone index 3 is out of range (model 1 has 3 bones)"), std::string::npos);
  EXPECT_NE(all(f).find("camera follow: model index 2 is out of range (2 models)"), std::string::npos);
}

// MMD's own projects link up: no errors.
TEST(PmmCheck, CorpusProjectsHaveNoErrors) {
  MMDKIT_REQUIRE_CORPUS();
  for (const auto& c : mmdkit::test::corpus_files("pmm")) {
    SCOPED_TRACE(c.local_path);
    auto r = read_file(c.path);
    if (!r) continue;  // a.pmm (the corpus test covers it)
    auto f = check(r->document);
    EXPECT_EQ(errors(f), 0u) << all(f);
  }
}

TEST(PmmResolvePath, TrailingComponentsBelowTheProjectCaseInsensitively) {
  const auto dir = mmdkit::test::temp_dir("pmm_resolve");
  std::filesystem::create_directories(dir / "Model");
  std::ofstream(dir / "Model" / "Miku.PMD") << "x";
  EXPECT_EQ(resolve_path("C:\\MMD\\UserFile\\Model\\Miku.PMD", dir), dir / "Model" / "Miku.PMD");
  EXPECT_EQ(resolve_path("C:\\MMD\\UserFile\\model\\miku.pmd", dir), dir / "Model" / "Miku.PMD");
  EXPECT_EQ(resolve_path("Model\\Miku.PMD", dir), dir / "Model" / "Miku.PMD");
  EXPECT_EQ(resolve_path("D:\\elsewhere\\Miku.pmd", dir), std::nullopt);  // not below Model/
  EXPECT_EQ(resolve_path("C:\\MMD\\UserFile\\Model\\Rin.pmd", dir), std::nullopt);
  EXPECT_EQ(resolve_path("", dir), std::nullopt);
  EXPECT_EQ(resolve_path((dir / "Model" / "Miku.PMD").string(), "/nonexistent"), dir / "Model" / "Miku.PMD");
}

TEST(PmmResolvePath, SplitsStoredPathsOnBothSeparators) {
  bool drive = false;
  EXPECT_EQ(split_stored_path("C:\\MMD\\\\UserFile/m.pmd", drive),
            (std::vector<std::string>{"C:", "MMD", "UserFile", "m.pmd"}));
  EXPECT_TRUE(drive);
  EXPECT_EQ(split_stored_path("/abs//Model\\m.pmd\\", drive), (std::vector<std::string>{"abs", "Model", "m.pmd"}));
  EXPECT_FALSE(drive);
  EXPECT_TRUE(split_stored_path("\\/", drive).empty());
  EXPECT_FALSE(drive);
}

}  // namespace
}  // namespace mmdkit::pmm
