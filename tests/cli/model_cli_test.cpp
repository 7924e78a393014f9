// The built `mmdkit` binary on the model operations: generate pmd, convert pmd → pmx, check on PMD
// and PMX (view findings with section, record and field), exit codes.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdlib>
#include <fstream>
#include <limits>
#include <sstream>
#include <string>

#include "mmdkit/formats/pmd.hpp"
#include "mmdkit/formats/pmd_generate.hpp"
#include "mmdkit/formats/pmx.hpp"
#include "mmdkit/model/convert.hpp"
#include "support/cli_run.hpp"
#include "support/corpus.hpp"

namespace {

namespace fs = std::filesystem;

using mmdkit::test::Outcome;
using mmdkit::test::quote;
using mmdkit::test::slurp;

class ModelCli : public mmdkit::test::CliTest {
 protected:
  ModelCli() : CliTest("modelcli") {}
};

TEST_F(ModelCli, GeneratePmdMatchesTheLibraryAndChecksClean) {
  fs::path p = dir / "g.pmd";
  Outcome g = run("generate pmd -o " + quote(p.string()) + " --seed 5 --vertices 200 --morphs 6");
  ASSERT_EQ(g.code, 0) << g.err;
  auto lib = mmdkit::pmd::generate({.seed = 5, .vertices = 200, .morphs = 6});
  ASSERT_TRUE(lib);
  auto bytes = mmdkit::pmd::write(*lib);
  ASSERT_TRUE(bytes);
  EXPECT_TRUE(slurp(p) == std::string(bytes->begin(), bytes->end()));
  Outcome c = run("check " + quote(p.string()));
  EXPECT_EQ(c.code, 0) << c.out << c.err;
  EXPECT_NE(c.out.find(": 0 error(s), 3 warning(s)"), std::string::npos) << c.out;
  // Only the humanoid set.
  Outcome b = run("generate pmd -o " + quote((dir / "h.pmd").string()) + " --bones 40");
  EXPECT_EQ(b.code, 1);
  EXPECT_NE(b.err.find("invalid_argument"), std::string::npos) << b.err;
  Outcome v = run("generate pmd -o " + quote((dir / "v.pmd").string()) + " --vertices 70000");
  EXPECT_EQ(v.code, 1);
  EXPECT_NE(v.err.find("limit_exceeded"), std::string::npos) << v.err;
}

TEST_F(ModelCli, ConvertPmdToPmxIsTheLibrarysConversion) {
  auto lib = mmdkit::pmd::generate({.seed = 9, .vertices = 120, .morphs = 3});
  ASSERT_TRUE(lib);
  auto pmd_bytes = mmdkit::pmd::write(*lib);
  ASSERT_TRUE(pmd_bytes);
  fs::path in = file("a.pmd", *pmd_bytes), out = dir / "a.pmx";
  Outcome r = run("convert " + quote(in.string()) + " " + quote(out.string()));
  ASSERT_EQ(r.code, 0) << r.err;
  auto p = mmdkit::model::pmd_to_pmx(*lib);
  ASSERT_TRUE(p);
  auto pmx_bytes = mmdkit::pmx::write(*p);
  ASSERT_TRUE(pmx_bytes);
  EXPECT_TRUE(slurp(out) == std::string(pmx_bytes->begin(), pmx_bytes->end()));
  Outcome i = run("info " + quote(out.string()));
  ASSERT_EQ(i.code, 0) << i.err;
  EXPECT_NE(i.out.find("vertices: 120"), std::string::npos) << i.out;
  Outcome c = run("check " + quote(out.string()));
  EXPECT_EQ(c.code, 0) << c.out;
  // pmd → pmd is read + write (identical bytes); other targets are unsupported.
  Outcome same = run("convert " + quote(in.string()) + " " + quote((dir / "b.pmd").string()));
  ASSERT_EQ(same.code, 0) << same.err;
  EXPECT_TRUE(slurp(dir / "b.pmd") == slurp(in));
  Outcome bad = run("convert " + quote(in.string()) + " " + quote((dir / "a.vmd").string()));
  EXPECT_EQ(bad.code, 1);
  EXPECT_NE(bad.err.find("unsupported"), std::string::npos) << bad.err;
}

TEST_F(ModelCli, CheckReportsViewFindingsWithLocation) {
  auto lib = mmdkit::pmd::generate({.seed = 2, .vertices = 30, .morphs = 2});
  ASSERT_TRUE(lib);
  auto p = mmdkit::model::pmd_to_pmx(*lib);
  ASSERT_TRUE(p);
  p->bones[4].position[1] = std::numeric_limits<float>::quiet_NaN();   // 頭
  p->bones[22].ik_links.push_back(mmdkit::pmx::IkLink{26, 0, {}, {}});  // 両目 under 左足ＩＫ
  auto bytes = mmdkit::pmx::write(*p);
  ASSERT_TRUE(bytes);
  fs::path f = file("bad.pmx", *bytes);
  Outcome c = run("check " + quote(f.string()));
  EXPECT_EQ(c.code, 1);
  EXPECT_NE(c.out.find("error: " + f.string() + ": section 'bones', record 4: invalid_value: non_finite: field position"),
            std::string::npos)
      << c.out;
  EXPECT_NE(c.out.find("section 'bones', record 22: invalid_value: ik_link_not_ancestor: field ik_links[2].bone"),
            std::string::npos)
      << c.out;
  EXPECT_NE(c.out.find(": 2 error(s), 3 warning(s)"), std::string::npos) << c.out;
}

TEST_F(ModelCli, CorpusPmdConvertsAndChecksClean) {
  MMDKIT_REQUIRE_CORPUS();
  auto f = mmdkit::test::corpus_file("jomin398__jomin398.github.io/docs/assets/models/mmd/miku_v2/miku_v2.pmd");
  if (!f) GTEST_SKIP() << "miku_v2.pmd not in corpus";
  fs::path out = dir / "miku.pmx";
  Outcome r = run("convert " + quote(f->path.string()) + " " + quote(out.string()));
  ASSERT_EQ(r.code, 0) << r.err;
  auto back = mmdkit::pmx::read_file(out);
  ASSERT_TRUE(back);
  EXPECT_EQ(back->model.vertices.size(), 12354u);
  EXPECT_EQ(back->model.bones.size(), 140u);
  Outcome c = run("check " + quote(out.string()));
  EXPECT_EQ(c.code, 0) << c.out;
}

}  // namespace
