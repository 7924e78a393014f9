// Texture references: PMD field split, shared toons, path normalization, safe case-insensitive
// resolution inside a folder.
#include <gtest/gtest.h>

#include <fstream>

#include "mmdkit/model/textures.hpp"
#include "support/corpus.hpp"

namespace mmdkit::model {
namespace {

namespace fs = std::filesystem;

TEST(Textures, SplitField) {
  auto a = split_texture_field("face.bmp*face.sph");
  EXPECT_EQ(a.texture, "face.bmp");
  EXPECT_EQ(a.sphere, "face.sph");
  EXPECT_EQ(a.sphere_mode, 1);
  auto b = split_texture_field("hair.png*HAIR.SPA");
  EXPECT_EQ(b.sphere_mode, 2);
  auto c = split_texture_field("metal.spa");
  EXPECT_EQ(c.texture, "");
  EXPECT_EQ(c.sphere, "metal.spa");
  EXPECT_EQ(c.sphere_mode, 2);
  auto d = split_texture_field("body.bmp");
  EXPECT_EQ(d.texture, "body.bmp");
  EXPECT_EQ(d.sphere_mode, 0);
  auto e = split_texture_field("tex.bmp*env.bmp");  // any other extension after '*' multiplies
  EXPECT_EQ(e.sphere_mode, 1);
  EXPECT_EQ(split_texture_field("").sphere_mode, 0);
}

TEST(Textures, SharedToons) {
  EXPECT_EQ(shared_toon_name(0), "toon01.bmp");
  EXPECT_EQ(shared_toon_name(9), "toon10.bmp");
  EXPECT_EQ(shared_toon_name(10), "");
  EXPECT_EQ(shared_toon_name(-1), "");
  EXPECT_EQ(shared_toon_index("toon01.bmp"), 0);
  EXPECT_EQ(shared_toon_index("TOON10.BMP"), 9);
  EXPECT_EQ(shared_toon_index("toon00.bmp"), -1);
  EXPECT_EQ(shared_toon_index("toon11.bmp"), -1);
  EXPECT_EQ(shared_toon_index("toon1.bmp"), -1);
  EXPECT_EQ(shared_toon_index("tex\\toon01.bmp"), -1);
}

TEST(Textures, Normalize) {
  EXPECT_EQ(normalize_texture_path("tex\\\\a.png"), "tex/a.png");
  EXPECT_EQ(normalize_texture_path(".\\tex\\.\\a.png"), "tex/a.png");
  EXPECT_EQ(normalize_texture_path("..\\a.png"), "../a.png");
  EXPECT_EQ(normalize_texture_path("/abs/a.png"), "/abs/a.png");
}

void touch(const fs::path& p) { std::ofstream(p) << "x"; }

TEST(Textures, ResolveInsideTheFolderOnly) {
  fs::path root = mmdkit::test::temp_dir("textures_resolve");
  fs::path model = root / "model";
  fs::create_directories(model / "Tex");
  touch(model / "Tex" / "Face.PNG");
  touch(root / "outside.png");
  auto a = resolve_texture(model, "tex\\face.png");  // both components differ in case
  ASSERT_EQ(a.status, TextureStatus::found) << a.message;
  EXPECT_EQ(a.path, model / "Tex" / "Face.PNG");
  EXPECT_EQ(resolve_texture(model, "Tex/Face.PNG").status, TextureStatus::found);
  EXPECT_EQ(resolve_texture(model, "tex\\nothere.png").status, TextureStatus::missing);
  EXPECT_EQ(resolve_texture(model, "tex").status, TextureStatus::missing);  // a folder, not a file
  EXPECT_EQ(resolve_texture(model, "..\\outside.png").status, TextureStatus::escapes);
  EXPECT_EQ(resolve_texture(model, "tex\\..\\..\\outside.png").status, TextureStatus::escapes);
  EXPECT_EQ(resolve_texture(model, "tex\\..\\tex\\face.png").status, TextureStatus::found);
  EXPECT_EQ(resolve_texture(model, "C:\\textures\\a.png").status, TextureStatus::escapes);
  EXPECT_EQ(resolve_texture(model, "/etc/passwd").status, TextureStatus::escapes);
  EXPECT_EQ(resolve_texture(model, "\\\\server\\share\\a.png").status, TextureStatus::escapes);
  EXPECT_EQ(resolve_texture(model, "").status, TextureStatus::empty);
  // A symbolic link inside the folder that points outside is refused.
  std::error_code ec;
  fs::create_symlink(root / "outside.png", model / "link.png", ec);
  if (!ec) {
    EXPECT_EQ(resolve_texture(model, "link.png").status, TextureStatus::escapes);
  }
}

}  // namespace
}  // namespace mmdkit::model
