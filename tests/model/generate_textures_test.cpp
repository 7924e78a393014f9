// The texture files of generated models (pmd::generate_textures, pmx::generate_textures): exactly
// the files the models reference, valid images with the documented pixels, deterministic, and a
// model written with them checks clean (no finding at all).
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdlib>
#include <fstream>
#include <set>
#include <string>

#include "mmdkit/formats/pmd_generate.hpp"
#include "mmdkit/formats/pmx_generate.hpp"
#include "mmdkit/model/check.hpp"
#include "mmdkit/model/textures.hpp"
#include "support/corpus.hpp"

namespace mmdkit::model {
namespace {

namespace fs = std::filesystem;

std::uint32_t le32(const std::vector<std::uint8_t>& b, std::size_t at) {
  return b[at] | (b[at + 1] << 8) | (b[at + 2] << 16) | (static_cast<std::uint32_t>(b[at + 3]) << 24);
}
std::uint32_t be32(const std::vector<std::uint8_t>& b, std::size_t at) {
  return (static_cast<std::uint32_t>(b[at]) << 24) | (b[at + 1] << 16) | (b[at + 2] << 8) | b[at + 3];
}

// A 24-bit BMP's pixel (x, y), y counted from the top, as RGB. Checks the header on the way.
std::array<int, 3> bmp_pixel(const std::vector<std::uint8_t>& b, int x, int y) {
  EXPECT_GE(b.size(), 54u);
  if (b.size() < 54) return {-1, -1, -1};
  EXPECT_EQ(b[0], 'B');
  EXPECT_EQ(b[1], 'M');
  const std::uint32_t data = le32(b, 10), w = le32(b, 18);
  const auto h = static_cast<std::int32_t>(le32(b, 22));
  EXPECT_EQ(b[28] | (b[29] << 8), 24);  // bits per pixel
  const std::size_t stride = (w * 3 + 3) / 4 * 4;
  const std::size_t row = h > 0 ? static_cast<std::size_t>(h - 1 - y) : static_cast<std::size_t>(y);  // bottom-up if h > 0
  const std::size_t at = data + row * stride + static_cast<std::size_t>(x) * 3;
  EXPECT_LE(at + 3, b.size());
  if (at + 3 > b.size()) return {-1, -1, -1};
  return {b[at + 2], b[at + 1], b[at]};  // stored B, G, R
}

void expect_bmp_64(const std::vector<std::uint8_t>& b) {
  ASSERT_GE(b.size(), 54u);
  EXPECT_EQ(le32(b, 18), 64u);
  EXPECT_EQ(std::abs(static_cast<std::int32_t>(le32(b, 22))), 64);
  EXPECT_EQ(le32(b, 2), b.size());                 // file size field
  EXPECT_EQ(b.size(), le32(b, 10) + 64u * 64u * 3u);  // no padding: 192-byte rows
}

TEST(GenerateTextures, PmxFilesAreTheModelsTextureTable) {
  auto model = pmx::generate({.seed = 4, .vertices = 50});
  ASSERT_TRUE(model);
  auto files = pmx::generate_textures();
  ASSERT_TRUE(files) << files.error().to_string();
  ASSERT_EQ(files->size(), model->textures.size());
  for (std::size_t i = 0; i < files->size(); ++i) {
    EXPECT_EQ((*files)[i].path, model->textures[i].text);
    EXPECT_FALSE((*files)[i].bytes.empty());
  }
  // Same for the 2.1 variant and another seed; identical bytes on every call.
  auto v21 = pmx::generate({.seed = 99, .vertices = 50, .variant = pmx::GenerateVariant::pmx21_utf8});
  ASSERT_TRUE(v21);
  ASSERT_EQ(v21->textures.size(), files->size());
  for (std::size_t i = 0; i < files->size(); ++i) EXPECT_EQ(v21->textures[i].text, (*files)[i].path);
  auto again = pmx::generate_textures();
  ASSERT_TRUE(again);
  for (std::size_t i = 0; i < files->size(); ++i) EXPECT_EQ((*again)[i].bytes, (*files)[i].bytes);
}

TEST(GenerateTextures, PmxImagesArePngAndBmpWithTheDocumentedPixels) {
  auto files = pmx::generate_textures();
  ASSERT_TRUE(files);
  ASSERT_EQ(files->size(), 3u);
  for (int k : {0, 1}) {
    const auto& b = (*files)[static_cast<std::size_t>(k)].bytes;
    ASSERT_GE(b.size(), 8u + 25u + 12u);
    const std::uint8_t sig[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};
    EXPECT_TRUE(std::equal(sig, sig + 8, b.begin()));
    EXPECT_EQ(be32(b, 8), 13u);  // IHDR length
    EXPECT_EQ(std::string(b.begin() + 12, b.begin() + 16), "IHDR");
    EXPECT_EQ(be32(b, 16), 64u);  // width
    EXPECT_EQ(be32(b, 20), 64u);  // height
    EXPECT_EQ(b[24], 8);          // bit depth
    EXPECT_EQ(b[25], 2);          // colour type RGB
    EXPECT_EQ(std::string(b.end() - 8, b.end() - 4), "IEND");
  }
  // hair_s.spa: BMP, additive (black outside the highlight), brightest at (24, 20):
  // i = 255 there → (255·3/5, 255·7/10, 255·4/5) = (153, 178, 204); at distance 14 (x = 38)
  // i = 255 − 196·255/784 = 192 → (115, 134, 153).
  const auto& spa = (*files)[2].bytes;
  expect_bmp_64(spa);
  EXPECT_EQ(bmp_pixel(spa, 24, 20), (std::array<int, 3>{153, 178, 204}));
  EXPECT_EQ(bmp_pixel(spa, 38, 20), (std::array<int, 3>{115, 134, 153}));
  EXPECT_EQ(bmp_pixel(spa, 63, 63), (std::array<int, 3>{0, 0, 0}));
}

TEST(GenerateTextures, PmdFilesAreWhatTheMaterialsReference) {
  auto model = pmd::generate({.seed = 4, .vertices = 50, .morphs = 1});
  ASSERT_TRUE(model);
  std::set<std::string> referenced;
  for (const pmd::Material& m : model->materials) {
    const TextureField f = split_texture_field(m.texture.text);
    if (!f.texture.empty()) referenced.insert(f.texture);
    if (!f.sphere.empty()) referenced.insert(f.sphere);
  }
  auto files = pmd::generate_textures();
  ASSERT_TRUE(files) << files.error().to_string();
  std::set<std::string> written;
  for (const auto& f : *files) written.insert(f.path);
  EXPECT_EQ(written, referenced);
  EXPECT_EQ(written, (std::set<std::string>{"body.bmp", "face.bmp", "face.sph"}));
  // Pixels (formulas in pmd_generate.hpp): body checker cells (246, 214, 196) / (236, 203, 184);
  // face skin (250, 226, 212), eye (58, 40, 48) at (20, 26); sphere 255 − d²·95/64² with
  // d = (2x − 63, 2y − 63): centre pixel (32, 32) d² = 2 → 255; corner d² ≥ 64² → 160.
  for (const auto& f : *files) {
    SCOPED_TRACE(f.path);
    expect_bmp_64(f.bytes);
    if (f.path == "body.bmp") {
      EXPECT_EQ(bmp_pixel(f.bytes, 0, 0), (std::array<int, 3>{246, 214, 196}));
      EXPECT_EQ(bmp_pixel(f.bytes, 8, 0), (std::array<int, 3>{236, 203, 184}));
      EXPECT_EQ(bmp_pixel(f.bytes, 8, 8), (std::array<int, 3>{246, 214, 196}));
    } else if (f.path == "face.bmp") {
      EXPECT_EQ(bmp_pixel(f.bytes, 0, 0), (std::array<int, 3>{250, 226, 212}));
      EXPECT_EQ(bmp_pixel(f.bytes, 20, 26), (std::array<int, 3>{58, 40, 48}));
      EXPECT_EQ(bmp_pixel(f.bytes, 44, 20), (std::array<int, 3>{58, 40, 48}));  // 6 above the centre: inside (7)
      EXPECT_EQ(bmp_pixel(f.bytes, 26, 26), (std::array<int, 3>{250, 226, 212}));  // 6 right: outside (5)
    } else {
      EXPECT_EQ(bmp_pixel(f.bytes, 32, 32), (std::array<int, 3>{255, 255, 255}));
      EXPECT_EQ(bmp_pixel(f.bytes, 0, 0), (std::array<int, 3>{160, 160, 160}));
    }
  }
}

void write(const fs::path& p, const std::vector<std::uint8_t>& bytes) {
  fs::create_directories(p.parent_path());
  std::ofstream(p, std::ios::binary).write(reinterpret_cast<const char*>(bytes.data()),
                                           static_cast<std::streamsize>(bytes.size()));
}

TEST(GenerateTextures, ModelsWithTheirTexturesCheckClean) {
  const fs::path dir = test::temp_dir("gentex");
  {
    auto model = pmx::generate({.seed = 2, .vertices = 300});
    ASSERT_TRUE(model);
    auto files = pmx::generate_textures();
    ASSERT_TRUE(files);
    const CheckOptions o{.folder = dir};
    // Before the textures are there: one texture_missing per file.
    EXPECT_EQ(count(check(*model, o), Severity::warning), files->size());
    for (const auto& f : *files) write(dir / f.path, f.bytes);
    const auto findings = check(*model, o);
    EXPECT_TRUE(findings.empty()) << findings.front().to_string();
  }
  {
    auto model = pmd::generate({.seed = 2, .vertices = 300, .morphs = 4});
    ASSERT_TRUE(model);
    auto files = pmd::generate_textures();
    ASSERT_TRUE(files);
    for (const auto& f : *files) write(dir / f.path, f.bytes);
    const auto findings = check(*model, CheckOptions{.folder = dir});
    EXPECT_TRUE(findings.empty()) << findings.front().to_string();
  }
}

}  // namespace
}  // namespace mmdkit::model
