// `mmdkit info` of PMD and PMX says the same things the same way (issue 13.15): "English name:",
// "face indices: N (T triangles)" with N the stored index count (the length of the dump's
// "indices" / "faces" array) and T = N / 3, and --json counts "face_indices" and "triangles" for
// both formats (PMX's "faces" used to count triangles while the dump's "faces" lists indices).
// Values checked against the dump's arrays and, on the corpus, against the independent counts of
// tools/pmd_counts.py and tools/pmx_counts.py (tests/data/*_counts.tsv).
#include <gtest/gtest.h>
#include <rapidjson/document.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "support/cli_run.hpp"
#include "support/corpus.hpp"

namespace mmdkit::test {
namespace {

namespace fs = std::filesystem;

class InfoLabelsCli : public CliTest {
 protected:
  InfoLabelsCli() : CliTest("info_labels_cli") {}

  rapidjson::Document json_of(const std::string& args) {
    const Outcome r = run(args);
    EXPECT_EQ(r.code, 0) << args << "\n" << r.err;
    rapidjson::Document d;
    d.Parse(r.out.c_str());
    EXPECT_FALSE(d.HasParseError()) << args;
    return d;
  }
};

// Rows of a counts table, every column as text, keyed by local_path.
std::map<std::string, std::map<std::string, std::string>> load_table(const std::string& name) {
  std::map<std::string, std::map<std::string, std::string>> rows;
  std::ifstream in(fs::path(MMDKIT_TESTS_DIR) / "data" / name);
  EXPECT_TRUE(in) << name;
  std::string line, c;
  std::getline(in, line);
  std::vector<std::string> header;
  for (std::stringstream ss(line); std::getline(ss, c, '\t');) header.push_back(c);
  while (std::getline(in, line)) {
    std::map<std::string, std::string> row;
    std::stringstream ss(line);
    for (std::size_t i = 0; i < header.size() && std::getline(ss, c, '\t'); ++i) row[header[i]] = c;
    rows[row["local_path"]] = row;
  }
  return rows;
}

TEST_F(InfoLabelsCli, PmdAndPmxUseTheSameLabelsAndCountsAsTheDump) {
  const fs::path pmd = dir / "a.pmd", pmx = dir / "a.pmx";
  ASSERT_EQ(run("generate pmd --vertices 60 -o " + quote(pmd.string())).code, 0);
  ASSERT_EQ(run("convert " + quote(pmd.string()) + " " + quote(pmx.string())).code, 0);
  // The dump's index arrays: PMD "indices" and PMX "faces".
  const rapidjson::Document dpmd = json_of("dump " + quote(pmd.string()));
  const rapidjson::Document dpmx = json_of("dump " + quote(pmx.string()));
  ASSERT_TRUE(dpmd.HasMember("indices") && dpmd["indices"].IsArray());
  ASSERT_TRUE(dpmx.HasMember("faces") && dpmx["faces"].IsArray());
  const std::size_t n = dpmx["faces"].Size();
  ASSERT_GT(n, 3u);
  ASSERT_EQ(n % 3, 0u);
  std::size_t pmd_indices = 0;  // the PMD dump lists indices flat or as triangles
  for (const auto& v : dpmd["indices"].GetArray()) pmd_indices += v.IsArray() ? v.Size() : 1;
  EXPECT_EQ(pmd_indices, n);  // the conversion keeps the faces
  const std::string faces = "face indices: " + std::to_string(n) + " (" + std::to_string(n / 3) + " triangles)\n";
  for (const fs::path& p : {pmd, pmx}) {
    SCOPED_TRACE(p.string());
    const Outcome r = run("info " + quote(p.string()));
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.out.find(faces), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("\nEnglish name: "), std::string::npos) << r.out;
    EXPECT_EQ(r.out.find("english name"), std::string::npos) << r.out;
    EXPECT_EQ(r.out.find("\nfaces:"), std::string::npos) << r.out;
    const rapidjson::Document j = json_of("info --json " + quote(p.string()));
    ASSERT_TRUE(j.HasMember("counts"));
    EXPECT_EQ(j["counts"]["face_indices"].GetUint64(), n);
    EXPECT_EQ(j["counts"]["triangles"].GetUint64(), n / 3);
    EXPECT_FALSE(j["counts"].HasMember("faces"));
    ASSERT_TRUE(j.HasMember("name_en") && j["name_en"].IsString());
  }
  // The English name is the one the dump holds (PMX name_en; PMD's English block).
  const rapidjson::Document jx = json_of("info --json " + quote(pmx.string()));
  const rapidjson::Document jd = json_of("info --json " + quote(pmd.string()));
  EXPECT_STREQ(jx["name_en"].GetString(), dpmx["name_en"].GetString());
  EXPECT_STREQ(jd["name_en"].GetString(), jx["name_en"].GetString());
}

TEST_F(InfoLabelsCli, OneTriangleIsSingular) {
  // A PMX with 3 face indices: the smallest model `generate` writes has more, so cut one by JSON.
  const fs::path pmx = dir / "b.pmx", js = dir / "b.json", one = dir / "one.pmx";
  ASSERT_EQ(run("generate pmx --vertices 50 -o " + quote(pmx.string())).code, 0);
  rapidjson::Document d = json_of("dump " + quote(pmx.string()));
  rapidjson::Value& f = d["faces"];
  while (f.Size() > 3) f.PopBack();
  for (auto& m : d["materials"].GetArray()) m["face_index_count"].SetUint(0);
  d["materials"][0]["face_index_count"].SetUint(3);
  rapidjson::StringBuffer buf;
  rapidjson::Writer<rapidjson::StringBuffer> w(buf);
  d.Accept(w);
  file("b.json", std::string(buf.GetString(), buf.GetSize()));
  ASSERT_EQ(run("convert " + quote(js.string()) + " " + quote(one.string())).code, 0);
  const Outcome r = run("info " + quote(one.string()));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("face indices: 3 (1 triangle)\n"), std::string::npos) << r.out;
}

TEST_F(InfoLabelsCli, CorpusCountsMatchTheIndependentTables) {
  MMDKIT_REQUIRE_CORPUS();
  const auto pmd = load_table("pmd_counts.tsv"), pmx = load_table("pmx_counts.tsv");
  std::size_t checked = 0;
  for (const char* kind : {"pmd", "pmx"}) {
    const auto& table = std::string(kind) == "pmd" ? pmd : pmx;
    std::size_t n = 0;
    for (const CorpusFile& f : corpus_files(kind)) {
      if (n++ == 6) break;  // the first few of each kind: the library tests read every file
      SCOPED_TRACE(f.local_path);
      auto row = table.find(f.local_path);
      ASSERT_NE(row, table.end());
      const rapidjson::Document j = json_of("info --json " + quote(f.path.string()));
      ASSERT_TRUE(j.HasMember("counts"));
      const auto& c = j["counts"];
      if (std::string(kind) == "pmd") {
        const std::uint64_t idx = std::stoull(row->second.at("face_indices"));
        EXPECT_EQ(c["face_indices"].GetUint64(), idx);
        EXPECT_EQ(c["triangles"].GetUint64(), idx / 3);
      } else {
        const std::uint64_t tri = std::stoull(row->second.at("triangles"));
        EXPECT_EQ(c["triangles"].GetUint64(), tri);
        EXPECT_EQ(c["face_indices"].GetUint64() / 3, tri);
      }
      ++checked;
    }
  }
  EXPECT_GT(checked, 2u);
}

}  // namespace
}  // namespace mmdkit::test
