// .vac accessory settings: CP932 lines, CRLF / LF, a missing final line, errors by line; MMD's
// placement T · Rz · Ry · Rx · S checked on points against rotations written out by hand.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>

#include "mmdkit/formats/vac.hpp"
#include "support/corpus.hpp"

namespace mmdkit::vac {
namespace {

ByteSpan as_bytes(std::string_view s) { return {reinterpret_cast<const std::uint8_t*>(s.data()), s.size()}; }

Vec3 apply(const Mat4& m, const Vec3& p) {
  return {m[0] * p[0] + m[4] * p[1] + m[8] * p[2] + m[12], m[1] * p[0] + m[5] * p[1] + m[9] * p[2] + m[13],
          m[2] * p[0] + m[6] * p[1] + m[10] * p[2] + m[14]};
}

void expect_near(const Vec3& a, const Vec3& b) {
  for (int i = 0; i < 3; ++i) EXPECT_NEAR(a[std::size_t(i)], b[std::size_t(i)], 1e-5f) << "component " << i;
}

TEST(Vac, ReadsSixCp932LinesWithCrlf) {
  // "ネギ" = 83 6C 83 4D, "右手首" = 89 45 8E E8 8E F1.
  const std::string text =
      "\x83\x6C\x83\x4D\r\nnegi\\negi.x\r\n1.5\r\n0.0,1.5,-2\r\n10,20,30\r\n\x89\x45\x8E\xE8\x8E\xF1\r\n";
  auto a = read(as_bytes(text));
  ASSERT_TRUE(a) << a.error().to_string();
  EXPECT_EQ(a->name, "ネギ");
  EXPECT_EQ(a->x_file, "negi\\negi.x");
  EXPECT_EQ(a->scale, 1.5f);
  EXPECT_EQ(a->position, (Vec3{0, 1.5f, -2}));
  EXPECT_EQ(a->rotation_degrees, (Vec3{10, 20, 30}));
  EXPECT_EQ(a->bone, "右手首");
  EXPECT_TRUE(a->crlf);
  EXPECT_TRUE(a->has_bone_line);
  EXPECT_TRUE(a->warnings.empty());
}

TEST(Vac, ToleratesAMissingFinalLineAndLineEnd) {
  auto a = read(as_bytes("cube\ncube.x\n1\n0,0,0\n0,0,0"));
  ASSERT_TRUE(a) << a.error().to_string();
  EXPECT_FALSE(a->crlf);
  EXPECT_FALSE(a->has_bone_line);
  EXPECT_TRUE(a->bone.empty());  // placed in the world
  EXPECT_EQ(a->warnings.size(), 1u);
  // An empty bone line: the world, no warning.
  auto b = read(as_bytes("cube\ncube.x\n1\n0,0,0\n0,0,0\n\n"));
  ASSERT_TRUE(b);
  EXPECT_TRUE(b->has_bone_line);
  EXPECT_TRUE(b->bone.empty());
  EXPECT_TRUE(b->warnings.empty());
}

// MMD's stock ネギ(右手).vac: six lines, a blank pair, then the format described in comment lines
// ("// MikuMikuDance用アクセサリファイル", "1行目：..."). MMD ignores them: no warning (info of
// the file printed one trailing_data warning per line); they are kept.
TEST(Vac, LinesAfterTheBoneLineAreQuiet) {
  const std::string text =
      "\x83\x6C\x83\x4D\r\nnegi.x\r\n1.0\r\n-0.5,-1.0,0.00\r\n0.0,0.0,0.0\r\n\x89\x45\x8E\xE8\r\n\r\n\r\n"
      "// MikuMikuDance\r\n1\x8D\x73\x96\xDA\r\n";
  auto a = read(as_bytes(text));
  ASSERT_TRUE(a) << a.error().to_string();
  EXPECT_TRUE(a->warnings.empty());
  ASSERT_EQ(a->extra_lines.size(), 2u);
  EXPECT_EQ(a->extra_lines[0], "// MikuMikuDance");
  EXPECT_EQ(a->extra_lines[1], "1行目");
  EXPECT_EQ(a->bone, "右手");
}

TEST(Vac, ErrorsNameTheLine) {
  auto few = read(as_bytes("a\nb.x\n1\n"));
  ASSERT_FALSE(few);
  EXPECT_EQ(few.error().code, ErrorCode::truncated);
  auto scale = read(as_bytes("a\nb.x\nbig\n0,0,0\n0,0,0\nx\n"));
  ASSERT_FALSE(scale);
  EXPECT_EQ(scale.error().line, 3);
  auto pos = read(as_bytes("a\nb.x\n1\n0,0\n0,0,0\nx\n"));
  ASSERT_FALSE(pos);
  EXPECT_EQ(pos.error().line, 4);
  EXPECT_EQ(pos.error().offset, 8);
  auto rot = read(as_bytes("a\nb.x\n1\n0,0,0\n0,zero,0\nx\n"));
  ASSERT_FALSE(rot);
  EXPECT_EQ(rot.error().line, 5);
  auto noname = read(as_bytes("a\n  \n1\n0,0,0\n0,0,0\nx\n"));
  ASSERT_FALSE(noname);
  EXPECT_EQ(noname.error().line, 2);
  EXPECT_EQ(read(as_bytes("")).error().code, ErrorCode::empty_input);
}

TEST(Vac, PlacementIsTranslateRotateZyxScale) {
  // 90° about X alone: y → z.
  expect_near(apply(placement_matrix(1, {0, 0, 0}, {90, 0, 0}), {0, 1, 0}), {0, 0, 1});
  // 90° about Y alone: z → x.
  expect_near(apply(placement_matrix(1, {0, 0, 0}, {0, 90, 0}), {0, 0, 1}), {1, 0, 0});
  // 90° about Z alone: x → y.
  expect_near(apply(placement_matrix(1, {0, 0, 0}, {0, 0, 90}), {1, 0, 0}), {0, 1, 0});
  // X first, then Y (fixed axes): (0,1,0) –Rx 90→ (0,0,1) –Ry 90→ (1,0,0). The other order
  // would give (0,0,1) (Ry leaves y, Rx sends it to z).
  expect_near(apply(placement_matrix(1, {0, 0, 0}, {90, 90, 0}), {0, 1, 0}), {1, 0, 0});
  // Y, then Z: (0,0,1) –Ry→ (1,0,0) –Rz→ (0,1,0).
  expect_near(apply(placement_matrix(1, {0, 0, 0}, {0, 90, 90}), {0, 0, 1}), {0, 1, 0});
  // Scale first, translation last: (1,0,0) ×2 → (2,0,0), Rz 90 → (0,2,0), + (1,2,3).
  expect_near(apply(placement_matrix(2, {1, 2, 3}, {0, 0, 90}), {1, 0, 0}), {1, 4, 3});
  Accessory a;
  a.scale = 2;
  a.position = {1, 2, 3};
  a.rotation_degrees = {0, 0, 90};
  EXPECT_EQ(placement_matrix(a), placement_matrix(2, {1, 2, 3}, {0, 0, 90}));
}

TEST(Vac, ResolvesItsXFileInsideItsFolderOnly) {
  const auto dir = mmdkit::test::temp_dir("vac_resolve");
  std::filesystem::create_directories(dir / "sub");
  std::ofstream(dir / "sub" / "Cube.x") << "xof 0303txt 0032\n";
  Accessory a;
  a.x_file = "SUB\\cube.x";  // Windows separators and case, as MMD files have them
  auto p = resolve_x_file(dir, a);
  ASSERT_TRUE(p) << p.error().to_string();
  EXPECT_EQ(p->filename(), "Cube.x");
  a.x_file = "..\\outside.x";
  auto up = resolve_x_file(dir / "sub", a);
  ASSERT_FALSE(up);
  EXPECT_EQ(up.error().code, ErrorCode::invalid_value);
  a.x_file = "/etc/passwd";
  EXPECT_FALSE(resolve_x_file(dir, a));
  a.x_file = "none.x";
  auto none = resolve_x_file(dir, a);
  ASSERT_FALSE(none);
  EXPECT_EQ(none.error().code, ErrorCode::io_error);
}

}  // namespace
}  // namespace mmdkit::vac
