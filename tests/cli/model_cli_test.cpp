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
#include "mmdkit/formats/pmx_generate.hpp"
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
  // The textures the model references are written beside it: check finds nothing.
  auto textures = mmdkit::pmd::generate_textures();
  ASSERT_TRUE(textures);
  for (const auto& t : *textures) EXPECT_TRUE(slurp(dir / t.path) == std::string(t.bytes.begin(), t.bytes.end())) << t.path;
  Outcome c = run("check " + quote(p.string()));
  EXPECT_EQ(c.code, 0) << c.out << c.err;
  EXPECT_NE(c.out.find(": 0 error(s), 0 warning(s)"), std::string::npos) << c.out;
  // Only the humanoid set.
  Outcome b = run("generate pmd -o " + quote((dir / "h.pmd").string()) + " --bones 40");
  EXPECT_EQ(b.code, 2);  // a value the generator cannot take is a usage error
  EXPECT_NE(b.err.find("invalid_argument"), std::string::npos) << b.err;
  Outcome v = run("generate pmd -o " + quote((dir / "v.pmd").string()) + " --vertices 70000");
  EXPECT_EQ(v.code, 2);
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

TEST_F(ModelCli, IkLinkNotAncestorIsAWarningInCheckAndPose) {
  // Issue 13.8: one severity, the one MMD's use implies: check exits 0 and pose does not warn
  // that the model fails check.
  auto lib = mmdkit::pmd::generate({.seed = 2, .vertices = 30, .morphs = 2});
  ASSERT_TRUE(lib);
  auto p = mmdkit::model::pmd_to_pmx(*lib);
  ASSERT_TRUE(p);
  p->bones[22].ik_links.push_back(mmdkit::pmx::IkLink{26, 0, {}, {}});  // 両目 under 左足ＩＫ
  auto bytes = mmdkit::pmx::write(*p);
  ASSERT_TRUE(bytes);
  fs::path f = file("ik.pmx", *bytes);
  Outcome c = run("check " + quote(f.string()));
  EXPECT_EQ(c.code, 0) << c.out;
  EXPECT_NE(c.out.find("mmdkit: warning: " + f.string() + ": section 'bones', record 22: invalid_value: ik_link_not_ancestor"),
            std::string::npos)
      << c.out;
  EXPECT_NE(c.out.find(": 0 error(s), "), std::string::npos) << c.out;
  Outcome j = run("check --json " + quote(f.string()));
  EXPECT_NE(j.out.find("{\"severity\": \"warning\", \"code\": \"invalid_value\", \"section\": \"bones\", \"record\": 22, "
                       "\"offset\": null,"),
            std::string::npos)
      << j.out;  // a view finding has no byte offset: null, not -1
  EXPECT_EQ(j.out.find(": -1"), std::string::npos) << j.out;
  Outcome pose = run("pose " + quote(f.string()) + " -o " + quote((dir / "ik.obj").string()));
  EXPECT_EQ(pose.code, 0) << pose.err;
  EXPECT_EQ(pose.err.find("fails 'mmdkit check'"), std::string::npos) << pose.err;
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
  EXPECT_NE(c.out.find("mmdkit: error: " + f.string() + ": section 'bones', record 4: invalid_value: non_finite: field position"),
            std::string::npos)
      << c.out;
  // A link that is not an ancestor of the effector is a warning (MMD uses such models).
  EXPECT_NE(c.out.find("mmdkit: warning: " + f.string() +
                       ": section 'bones', record 22: invalid_value: ik_link_not_ancestor: field ik_links[2].bone"),
            std::string::npos)
      << c.out;
  EXPECT_NE(c.out.find(": 1 error(s), 4 warning(s)"), std::string::npos) << c.out;
  // The three missing textures (body.bmp, face.bmp, face.sph) have their own code.
  EXPECT_NE(c.out.find("mmdkit: warning: " + f.string() +
                       ": section 'materials', record 0: texture_missing: field texture: 'body.bmp' not found in "),
            std::string::npos)
      << c.out;
  EXPECT_NE(c.out.find("record 1: texture_missing: field sphere_texture: 'face.sph' not found"), std::string::npos)
      << c.out;
  Outcome j = run("check --json " + quote(f.string()));
  EXPECT_NE(j.out.find("\"severity\": \"warning\", \"code\": \"texture_missing\", \"section\": \"materials\", "
                       "\"record\": 0"),
            std::string::npos)
      << j.out;
}

TEST_F(ModelCli, GeneratePmxWritesItsTexturesUnderTheForceRule) {
  auto textures = mmdkit::pmx::generate_textures();
  ASSERT_TRUE(textures);
  auto same_as_library = [&] {
    for (const auto& t : *textures)
      if (slurp(dir / t.path) != std::string(t.bytes.begin(), t.bytes.end())) return false;
    return true;
  };
  const fs::path a = dir / "a.pmx";
  Outcome g = run("generate pmx -o " + quote(a.string()) + " --vertices 100");
  ASSERT_EQ(g.code, 0) << g.err;
  EXPECT_TRUE(fs::is_regular_file(dir / "tex" / "body.png"));
  EXPECT_TRUE(same_as_library());
  Outcome c = run("check " + quote(a.string()));
  EXPECT_EQ(c.code, 0) << c.out;
  EXPECT_NE(c.out.find(": 0 error(s), 0 warning(s)"), std::string::npos) << c.out;
  // A second model in the same folder: the identical textures are no conflict.
  Outcome b = run("generate pmx -o " + quote((dir / "b.pmx").string()) + " --seed 9 --variant pmx2.1-utf8");
  EXPECT_EQ(b.code, 0) << b.err;
  // A texture with other contents is not replaced without --force, and nothing is written.
  std::ofstream(dir / "tex" / "face.png", std::ios::binary) << "mine";
  Outcome refused = run("generate pmx -o " + quote((dir / "c.pmx").string()));
  EXPECT_EQ(refused.code, 1);
  EXPECT_NE(refused.err.find("face.png: exists with other contents (use --force to replace it)"), std::string::npos)
      << refused.err;
  EXPECT_FALSE(fs::exists(dir / "c.pmx"));
  EXPECT_EQ(slurp(dir / "tex" / "face.png"), "mine");
  Outcome forced = run("generate pmx -o " + quote((dir / "c.pmx").string()) + " --force");
  EXPECT_EQ(forced.code, 0) << forced.err;
  EXPECT_TRUE(same_as_library());
  // Never outside the output's folder: a tex/ that links elsewhere is refused before writing.
  const fs::path inner = dir / "inner", outside = dir / "outside";
  fs::create_directories(inner);
  fs::create_directories(outside);
  fs::create_directory_symlink(outside, inner / "tex");
  Outcome link = run("generate pmx -o " + quote((inner / "m.pmx").string()) + " --force");
  EXPECT_EQ(link.code, 1);
  EXPECT_NE(link.err.find("refused: leads outside the output's folder"), std::string::npos) << link.err;
  EXPECT_TRUE(fs::is_empty(outside));
  EXPECT_FALSE(fs::exists(inner / "m.pmx"));
}

TEST_F(ModelCli, ConvertToAnotherFolderWarnsAboutTexturesLeftBehind) {
  const fs::path src = dir / "src", other = dir / "other";
  fs::create_directories(src);
  fs::create_directories(other);
  ASSERT_EQ(run("generate pmd -o " + quote((src / "m.pmd").string()) + " --vertices 60").code, 0);
  fs::remove(src / "face.sph");  // missing beside the input too
  // Same folder: nothing to say (check reports the missing sphere map).
  Outcome same = run("convert " + quote((src / "m.pmd").string()) + " " + quote((src / "m.pmx").string()));
  EXPECT_EQ(same.code, 0) << same.err;
  EXPECT_EQ(same.err, "");
  // Another folder: one warning per texture that will not resolve there (toon01.bmp .. are MMD's).
  const fs::path out = other / "m.pmx";
  Outcome moved = run("convert " + quote((src / "m.pmd").string()) + " " + quote(out.string()));
  EXPECT_EQ(moved.code, 0) << moved.err;
  EXPECT_NE(moved.err.find("mmdkit: warning: " + out.string() +
                           ": section 'materials', record 0: texture_missing: field texture: will not resolve from "
                           "the output's folder: 'body.bmp' not found in "),
            std::string::npos)
      << moved.err;
  EXPECT_NE(moved.err.find("'face.bmp' not found in " + other.string() + "; it is beside the input"),
            std::string::npos)
      << moved.err;
  EXPECT_NE(moved.err.find("field sphere_texture: will not resolve from the output's folder: 'face.sph' not found in " +
                           other.string() + "; it is missing beside the input too"),
            std::string::npos)
      << moved.err;
  std::size_t warnings = 0;
  for (std::size_t at = 0; (at = moved.err.find("mmdkit: warning: ", at)) != std::string::npos; ++at) ++warnings;
  EXPECT_EQ(warnings, 3u) << moved.err;
  // Copied over, they resolve: no warning.
  for (const char* t : {"body.bmp", "face.bmp"}) fs::copy_file(src / t, other / t);
  fs::copy_file(dir / "src" / "face.bmp", other / "face.sph");
  Outcome again = run("convert --force " + quote((src / "m.pmd").string()) + " " + quote(out.string()));
  EXPECT_EQ(again.code, 0) << again.err;
  EXPECT_EQ(again.err, "");
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
