// The built `mmdkit` on DirectX .x and .vac files: detection by content ("xof ") and by the .vac
// extension, info (text and JSON), dump JSON (parsed back; counts equal the file's), check
// findings (indices, counts, missing / escaping textures), errors with line and column; every
// corpus .x reads.
#include <gtest/gtest.h>

#include <rapidjson/document.h>

#include <fstream>
#include <string>

#include "support/cli_run.hpp"
#include "support/corpus.hpp"

namespace {

namespace fs = std::filesystem;

using mmdkit::test::Outcome;
using mmdkit::test::quote;

class XCli : public mmdkit::test::CliTest {
 protected:
  XCli() : CliTest("xcli") {}
  fs::path write(const std::string& name, const std::string& text) const {
    const fs::path p = dir / name;
    std::ofstream(p, std::ios::binary) << text;
    return p;
  }
};

constexpr const char* kGood = R"(xof 0303txt 0032
Material M { 1;1;1;1;; 5; 0;0;0;; 0.2;0.2;0.2;; TextureFilename { "tex.png"; } }
Frame F {
  FrameTransformMatrix { 1,0,0,0, 0,1,0,0, 0,0,1,0, 0,0,0,1;; }
  Mesh Q { 4; 0;0;0;, 1;0;0;, 1;1;0;, 0;1;0;; 2; 4;0,3,2,1;, 3;0,2,1;;
    MeshNormals { 1; 0;0;-1;; 2; 4;0,0,0,0;, 3;0,0,0;; }
    MeshMaterialList { 1; 2; 0,0;; { M } } }
}
)";

TEST_F(XCli, InfoDumpAndCheckOfAGeneratedFile) {
  const fs::path x = write("acc.x", kGood);
  Outcome info = run("info " + quote(x.string()));
  ASSERT_EQ(info.code, 0) << info.err;
  EXPECT_NE(info.out.find("format: x (DirectX mesh, txt, version 0303"), std::string::npos) << info.out;
  EXPECT_NE(info.out.find("faces: 2 (3 triangles)"), std::string::npos) << info.out;
  Outcome ij = run("info --json " + quote(x.string()));
  ASSERT_EQ(ij.code, 0) << ij.err;
  rapidjson::Document id;
  ASSERT_FALSE(id.Parse(ij.out.c_str()).HasParseError()) << ij.out;
  EXPECT_EQ(id["vertices"].GetInt(), 4);
  EXPECT_EQ(id["triangles"].GetInt(), 3);
  Outcome dump = run("dump " + quote(x.string()));
  ASSERT_EQ(dump.code, 0) << dump.err;
  rapidjson::Document d;
  ASSERT_FALSE(d.Parse(dump.out.c_str()).HasParseError()) << dump.out;
  EXPECT_STREQ(d["format"].GetString(), "x");
  const auto& mesh = d["meshes"][0];
  EXPECT_EQ(mesh["positions"].Size(), 4u);
  EXPECT_EQ(mesh["faces"].Size(), 2u);
  EXPECT_EQ(mesh["faces"][0].Size(), 4u);
  EXPECT_EQ(mesh["material_list"]["materials"][0].GetInt(), 0);
  EXPECT_STREQ(d["materials"][0]["texture"].GetString(), "tex.png");
  EXPECT_EQ(static_cast<float>(d["materials"][0]["emissive"][0].GetDouble()), 0.2f);  // the float, printed shortest
  // check: the texture is missing (a warning, exit 0); present, no finding.
  Outcome c = run("check " + quote(x.string()));
  EXPECT_EQ(c.code, 0) << c.out << c.err;
  EXPECT_NE(c.out.find("texture_missing"), std::string::npos) << c.out;
  write("TEX.PNG", "not really a png");
  Outcome c2 = run("check " + quote(x.string()));
  EXPECT_EQ(c2.code, 0);
  EXPECT_NE(c2.out.find("0 error(s), 0 warning(s)"), std::string::npos) << c2.out;
}

TEST_F(XCli, CheckFindsIndicesCountsAndEscapingTextures) {
  const fs::path x = write("bad.x", R"(xof 0303txt 0032
Mesh B { 3; 0;0;0;, 1;0;0;, 0;1;0;; 2; 3;0,1,7;, 3;0,1,2;;
  MeshNormals { 1; 0;0;-1;; 1; 3;0,0,4;; }
  MeshMaterialList { 2; 2; 0,3;;
    Material { 1;1;1;1;; 0; 0;0;0;; 0;0;0;; TextureFilename { "..\\up.png"; } }
    { Nothing } } }
Material Abs { 1;1;1;1;; 0; 0;0;0;; 0;0;0;; TextureFilename { "C:\\tex.png*/etc/x.sph"; } }
)");
  Outcome c = run("check " + quote(x.string()));
  EXPECT_EQ(c.code, 1) << c.out << c.err;
  for (const char* want : {"face 0 uses vertex 7 of 3", "1 normal faces for 2 faces", "uses normal 4 of 1",
                           "face 1 uses material 3 of 2", "'{Nothing}' names no Material", "texture_escapes: texture '..",
                           "texture 'C:", "texture '/etc/x.sph' refused"})
    EXPECT_NE(c.out.find(want), std::string::npos) << want << "\n" << c.out;
}

TEST_F(XCli, SyntaxErrorsGiveLineAndColumn) {
  const fs::path x = write("broken.x", "xof 0303txt 0032\nMesh {\n 3;\n 0;0;0;,\n 1;oops;0;,\n");
  Outcome r = run("info " + quote(x.string()));
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("line 5, column 4"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("expected a number (vertex position)"), std::string::npos) << r.err;
}

TEST_F(XCli, VacInfoDumpAndCheckByExtension) {
  write("acc.x", kGood);
  const fs::path v = write("acc.vac", "Acc\r\nacc.x\r\n2\r\n0,1,0\r\n0,90,0\r\n\x89\x45\x8E\xE8\x8E\xF1\r\n");
  Outcome info = run("info " + quote(v.string()));
  ASSERT_EQ(info.code, 0) << info.err;
  EXPECT_NE(info.out.find("format: vac"), std::string::npos);
  EXPECT_NE(info.out.find("bone: 右手首"), std::string::npos) << info.out;
  EXPECT_NE(info.out.find("drawn at 20 × the .x size"), std::string::npos) << info.out;
  Outcome dump = run("dump " + quote(v.string()));
  ASSERT_EQ(dump.code, 0) << dump.err;
  rapidjson::Document d;
  ASSERT_FALSE(d.Parse(dump.out.c_str()).HasParseError()) << dump.out;
  EXPECT_EQ(d["rotation_degrees"][1].GetDouble(), 90.0);
  // Placement: Ry(90°) · S(2): column 2 (the image of z) is (2, 0, 0), translation (0, 1, 0).
  EXPECT_NEAR(d["placement_matrix"][8].GetDouble(), 2.0, 1e-6);
  EXPECT_NEAR(d["placement_matrix"][13].GetDouble(), 1.0, 1e-6);
  EXPECT_EQ(run("check " + quote(v.string())).code, 0);
  const fs::path missing = write("missing.vac", "A\nnone.x\n1\n0,0,0\n0,0,0\n");
  Outcome c = run("check " + quote(missing.string()));
  EXPECT_EQ(c.code, 1) << c.out;
  EXPECT_NE(c.out.find("none.x"), std::string::npos) << c.out;
  // Without the extension, the text is no known format.
  const fs::path plain = write("acc.txt", "Acc\nacc.x\n1\n0,0,0\n0,0,0\n\n");
  EXPECT_EQ(run("info " + quote(plain.string())).code, 1);
  EXPECT_EQ(run("info --format vac " + quote(plain.string())).code, 0);
}

TEST_F(XCli, EveryCorpusFileInfosAndDumps) {
  MMDKIT_REQUIRE_CORPUS();
  const auto files = mmdkit::test::corpus_files("x");
  ASSERT_GE(files.size(), 10u);
  for (const auto& f : files) {
    Outcome info = run("info --json " + quote(f.path.string()));
    ASSERT_EQ(info.code, 0) << f.local_path << ": " << info.err;
    Outcome dump = run("dump " + quote(f.path.string()));
    ASSERT_EQ(dump.code, 0) << f.local_path << ": " << dump.err;
    rapidjson::Document d;
    ASSERT_FALSE(d.Parse(dump.out.c_str()).HasParseError()) << f.local_path;
    EXPECT_STREQ(d["format"].GetString(), "x");
    EXPECT_NE(run("check " + quote(f.path.string())).code, 2) << f.local_path;
  }
}

}  // namespace
