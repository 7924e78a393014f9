// The built `mmdkit` binary on MMD projects (.pmm): info (text and JSON), dump, convert pmm → json
// → pmm byte-exactly, check (links, indices, files found below the project's folder), the
// corpus's cut file refused with its offset, and version 1 read with its model files' counts.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "formats/pmm/fixture.hpp"
#include "mmdkit/formats/pmd.hpp"
#include "mmdkit/formats/pmm.hpp"
#include "support/cli_run.hpp"
#include "support/corpus.hpp"

namespace {

namespace fs = std::filesystem;

using mmdkit::test::Outcome;
using mmdkit::test::quote;
using mmdkit::test::slurp;

class PmmCli : public mmdkit::test::CliTest {
 protected:
  PmmCli() : CliTest("pmmcli") {}
};

constexpr const char* kSample = "oigami__PMMEditor/UserFile/サンプル（きしめんAllStar).pmm";

TEST_F(PmmCli, CorpusInfoDumpAndByteExactConvertBothWays) {
  MMDKIT_REQUIRE_CORPUS();
  for (const auto& f : mmdkit::test::corpus_files("pmm")) {
    SCOPED_TRACE(f.local_path);
    if (f.local_path.ends_with("a.pmm")) continue;
    Outcome info = run("info " + quote(f.path.string()));
    ASSERT_EQ(info.code, 0) << info.err;
    EXPECT_NE(info.out.find("format: pmm (MMD project)"), std::string::npos) << info.out;
    EXPECT_NE(info.out.find("file bytes: " + std::to_string(f.bytes)), std::string::npos) << info.out;
    const fs::path json = dir / "p.json", back = dir / "p.pmm";
    Outcome c = run("convert --force " + quote(f.path.string()) + " " + quote(json.string()));
    ASSERT_EQ(c.code, 0) << c.err;
    EXPECT_TRUE(slurp(json).starts_with("{\n  \"format\": \"pmm\","));
    c = run("convert --force " + quote(json.string()) + " " + quote(back.string()));
    ASSERT_EQ(c.code, 0) << c.err;
    EXPECT_TRUE(slurp(back) == slurp(f.path));
    c = run("convert --force " + quote(f.path.string()) + " " + quote((dir / "copy.pmm").string()));
    ASSERT_EQ(c.code, 0) << c.err;
    EXPECT_TRUE(slurp(dir / "copy.pmm") == slurp(f.path));
    Outcome dump = run("dump " + quote(f.path.string()));
    ASSERT_EQ(dump.code, 0) << dump.err;
    EXPECT_EQ(dump.out, slurp(json));
  }
}

// The values ../shared/reference/PMM-NOTES.md records for MMD's sample project.
TEST_F(PmmCli, SampleProjectInfo) {
  MMDKIT_REQUIRE_CORPUS();
  auto f = mmdkit::test::corpus_file(kSample);
  ASSERT_TRUE(f.has_value());
  Outcome info = run("info " + quote(f->path.string()));
  ASSERT_EQ(info.code, 0) << info.err;
  for (const char* line : {"version: 2 (\"Polygon Movie maker 0002\")\n", "output size: 512x288\n", "fps: 60\n",
                           "models: 11\n", "accessories: 29\n", "camera keys: 14 (+ the initial key)\n",
                           "light keys: 18 (+ the initial key)\n", "  0 ダミーボーン ("})
    EXPECT_NE(info.out.find(line), std::string::npos) << line << "\n" << info.out;
  EXPECT_NE(info.out.find("play range: 0"), std::string::npos) << info.out;
  EXPECT_NE(info.out.find("..733"), std::string::npos) << info.out;
  Outcome j = run("info --json " + quote(f->path.string()));
  ASSERT_EQ(j.code, 0) << j.err;
  EXPECT_NE(j.out.find("\"output_size\": [512, 288]"), std::string::npos) << j.out;
  EXPECT_EQ(mmdkit::test::count(j.out, "\"bone_keys\": "), 11u);
}

TEST_F(PmmCli, CutFileIsRefusedWithItsOffset) {
  MMDKIT_REQUIRE_CORPUS();
  auto f = mmdkit::test::corpus_file("oigami__PMMEditor/UserFile/Model/a.pmm");
  ASSERT_TRUE(f.has_value());
  Outcome info = run("info " + quote(f->path.string()));
  EXPECT_EQ(info.code, 1);
  EXPECT_NE(info.err.find("section 'camera', byte 55: truncated: camera keyframe needs 78 bytes, 77 left"),
            std::string::npos)
      << info.err;
}

// Models are found below the project's folder by their last path components (case-insensitive);
// the sample's accessories are not in that folder, so check warns about each file it cannot find,
// once per file (its 29 accessories name fewer files: the lights come in pairs), at its first record.
TEST_F(PmmCli, CheckFindsTheSampleModelsAndNamesMissingFiles) {
  MMDKIT_REQUIRE_CORPUS();
  auto f = mmdkit::test::corpus_file(kSample);
  ASSERT_TRUE(f.has_value());
  auto doc = mmdkit::pmm::read_file(f->path);
  ASSERT_TRUE(doc.has_value());
  std::set<std::string> files;
  for (const auto& a : doc->document.accessories) files.insert(a.path.text);
  ASSERT_LT(files.size(), doc->document.accessories.size());  // some file is named twice
  Outcome chk = run("check " + quote(f->path.string()));
  EXPECT_EQ(mmdkit::test::count(chk.out, "model file '"), 0u) << chk.out;
  EXPECT_EQ(mmdkit::test::count(chk.out, "accessory file '"), files.size()) << chk.out;
  EXPECT_GT(mmdkit::test::count(chk.out, "; record 2 names it too"), 0u) << chk.out;  // light03_r.x: records 1, 2
  EXPECT_GT(mmdkit::test::count(chk.out, "records 6, 7 name it too"), 0u) << chk.out;  // floorlight01.x: 5, 6, 7
  EXPECT_EQ(mmdkit::test::count(chk.out, "mmdkit: error:"), 0u) << chk.out;
  EXPECT_EQ(chk.code, 0) << chk.out << chk.err;
  // --search-dir (as render's): the folder the accessories really are in finds every one of them.
  const fs::path acc = f->path.parent_path().parent_path().parent_path() /
                       "magicien__MMDSceneKit/Sample_swift/Common/art.scnassets/Accessory";
  Outcome found = run("check " + quote(f->path.string()) + " --search-dir " + quote(acc.string()));
  EXPECT_EQ(mmdkit::test::count(found.out, "accessory file '"), 0u) << found.out;
  EXPECT_EQ(found.code, 0) << found.out << found.err;
  Outcome bad = run("check " + quote(f->path.string()) + " --search-dir " + quote((dir / "nowhere").string()));
  EXPECT_EQ(bad.code, 2) << bad.out << bad.err;
}

TEST_F(PmmCli, CheckReportsBrokenLinksAndIndices) {
  using namespace mmdkit::pmm;
  Document d = test::sample_document(Version::v2, 1);
  d.models[0].bone_keys[0].next = 999;       // names no key
  d.models[0].ik_bones[0] = 7;               // 3 bones
  d.accessories[0].parent = OutsideParent{4, 0};  // 1 model
  auto bytes = write(d);
  ASSERT_TRUE(bytes.has_value());
  fs::path p = file("broken.pmm", *bytes);
  Outcome chk = run("check " + quote(p.string()));
  EXPECT_EQ(chk.code, 1) << chk.out;
  EXPECT_NE(chk.out.find("section 'model 0 bone keyframes'"), std::string::npos) << chk.out;
  EXPECT_NE(chk.out.find("links to next key 999, which no key has"), std::string::npos) << chk.out;
  EXPECT_NE(chk.out.find("IK bone index 7 is out of range (3 bones)"), std::string::npos) << chk.out;
  EXPECT_NE(chk.out.find("model index 4 is out of range (1 models)"), std::string::npos) << chk.out;
  // The model file UserFile\Model\m0.pmd is not below the temporary folder.
  EXPECT_NE(chk.out.find("model file 'UserFile\\Model\\m0.pmd' is not found"), std::string::npos) << chk.out;
  // The unbroken project has no error.
  auto good = write(test::sample_document(Version::v2, 1));
  ASSERT_TRUE(good.has_value());
  fs::create_directories(dir / "userfile" / "MODEL");
  Outcome gen = run("generate pmd -o " + quote((dir / "userfile" / "MODEL" / "M0.PMD").string()));
  ASSERT_EQ(gen.code, 0) << gen.err;
  fs::path q = file("good.pmm", *good);
  chk = run("check " + quote(q.string()));
  EXPECT_EQ(chk.code, 0) << chk.out;
  EXPECT_EQ(chk.out.find("model file"), std::string::npos) << chk.out;  // found case-insensitively
}

// Version 1 stores no bone / morph counts: the command reads them from the model files.
TEST_F(PmmCli, VersionOneReadsItsModelFilesCounts) {
  using namespace mmdkit::pmm;
  fs::create_directories(dir / "UserFile" / "Model");
  for (const char* name : {"m0.pmd", "m1.pmd"}) {
    Outcome gen = run("generate pmd -o " + quote((dir / "UserFile" / "Model" / name).string()));
    ASSERT_EQ(gen.code, 0) << gen.err;
  }
  auto model = mmdkit::pmd::read_file(dir / "UserFile" / "Model" / "m0.pmd");
  ASSERT_TRUE(model.has_value());
  const ModelCounts counts{model->model.bones.size(), model->model.morphs.size(), model->model.ik_chains.size()};
  ASSERT_GE(counts.bones, 2u);
  ASSERT_GE(counts.morphs, 1u);
  auto bytes = write(test::sample_document(Version::v1, 2, counts));
  ASSERT_TRUE(bytes.has_value());
  fs::path p = file("v1.pmm", *bytes);
  Outcome info = run("info " + quote(p.string()));
  ASSERT_EQ(info.code, 0) << info.err;
  EXPECT_NE(info.out.find("version: 1 (\"Polygon Movie maker 0001\")"), std::string::npos) << info.out;
  EXPECT_NE(info.out.find(std::to_string(counts.bones) + " bones, " + std::to_string(counts.morphs) +
                          " morphs; keys: 2 bone, 1 morph, 1 model"),
            std::string::npos)
      << info.out;
  const fs::path json = dir / "v1.json", back = dir / "v1-back.pmm";
  ASSERT_EQ(run("convert " + quote(p.string()) + " " + quote(json.string())).code, 0);
  Outcome c = run("convert " + quote(json.string()) + " " + quote(back.string()));
  ASSERT_EQ(c.code, 0) << c.err;
  EXPECT_TRUE(slurp(back) == slurp(p));
  // From stdin there is no folder to find the models in; without the files, neither.
  Outcome in = run("info - < " + quote(p.string()));
  EXPECT_EQ(in.code, 1);
  EXPECT_NE(in.err.find("unsupported: version 1 project"), std::string::npos) << in.err;
  EXPECT_NE(in.err.find("not read from a file (standard input"), std::string::npos) << in.err;
  fs::remove(dir / "UserFile" / "Model" / "m1.pmd");
  Outcome missing = run("info " + quote(p.string()));
  EXPECT_EQ(missing.code, 1);
  EXPECT_NE(missing.err.find("model 1 'モデル1' (UserFile\\Model\\m1.pmd)"), std::string::npos) << missing.err;
}

}  // namespace
