// mirror (motion/mirror.hpp): names, values, twice = identity bit for bit, and the mirrored motion
// on the symmetric humanoid poses it as the mirror image (anim::Character).
#include <gtest/gtest.h>

#include "mmdkit/anim/camera.hpp"
#include "mmdkit/motion/mirror.hpp"
#include "motion/motion_test_util.hpp"
#include "support/corpus.hpp"

namespace mmdkit::motion {
namespace {

TEST(Mirror, Names) {
  EXPECT_EQ(mirror_name("左腕", false), "右腕");
  EXPECT_EQ(mirror_name("右足ＩＫ", false), "左足ＩＫ");
  EXPECT_EQ(mirror_name("左右", false), "右左");
  EXPECT_EQ(mirror_name("スカートＬ", false), "スカートＲ");
  EXPECT_EQ(mirror_name("Hair_L", false), "Hair_R");
  EXPECT_EQ(mirror_name("R.Hand", false), "L.Hand");
  EXPECT_EQ(mirror_name("LEFT", false), "LEFT");
  EXPECT_EQ(mirror_name("センター", false), "センター");
  EXPECT_EQ(mirror_name("ウィンク", true), "ウィンク右");
  EXPECT_EQ(mirror_name("ウィンク右", true), "ウィンク");
  EXPECT_EQ(mirror_name("ウィンク２", true), "ｳｨﾝｸ２右");
  EXPECT_EQ(mirror_name("ウィンク左", true), "ウィンク左");  // would become a wink pair name: kept
  EXPECT_EQ(mirror_name("ウィンク右", false), "ウィンク左");  // bones: no wink rule
}

TEST(Mirror, Cp932BytesInPlace) {
  // 左腕 + NUL + garbage: the garbage stays, 左 becomes 右.
  std::vector<std::uint8_t> raw = *encode_text("左腕", Encoding::cp932);
  raw.push_back(0);
  raw.push_back(0x8D);
  raw.push_back(0xB6);  // a 左 after the NUL: not part of the name, untouched
  const auto m = mirror_name_cp932(ByteSpan(raw.data(), raw.size()), false);
  std::vector<std::uint8_t> want = *encode_text("右腕", Encoding::cp932);
  want.push_back(0);
  want.push_back(0x8D);
  want.push_back(0xB6);
  EXPECT_EQ(m, want);
  // "ポL": ポ = 0x83 0x7C; its trail byte is not an ASCII separator, and an L after a kana is not alone.
  const auto p = *encode_text("ポL", Encoding::cp932);
  EXPECT_EQ(mirror_name_cp932(ByteSpan(p.data(), p.size()), false), p);
}

TEST(Mirror, Values) {
  vmd::Motion m;
  m.bone_names = {test::name("左腕")};
  m.bone_keys = {test::key(0, 0, {1, 2, 3}, {0.1f, 0.2f, 0.3f, 0.9f})};
  vmd::CameraKey c;
  c.target = {1, 2, 3};
  c.rotation = {0.1f, 0.2f, 0.3f};
  c.distance = -30;
  m.camera_keys = {c};
  m.light_keys = {{0, {0.5f, 0.5f, 0.5f}, {-0.5f, -1, 0.5f}}};
  auto r = mirror(m);
  ASSERT_TRUE(r);
  EXPECT_EQ(r->bone_names[0].text, "右腕");
  EXPECT_EQ(r->bone_keys[0].position, (std::array<float, 3>{-1, 2, 3}));
  EXPECT_EQ(r->bone_keys[0].rotation, (std::array<float, 4>{0.1f, -0.2f, -0.3f, 0.9f}));
  EXPECT_EQ(r->light_keys[0].direction, (std::array<float, 3>{0.5f, -1, 0.5f}));
  // The camera's eye and view direction are the mirror images (anim::sample_camera).
  std::uint32_t cur = 0;
  const auto a = anim::sample_camera(anim::build_camera_track(m.camera_keys), 0, cur);
  cur = 0;
  const auto b = anim::sample_camera(anim::build_camera_track(r->camera_keys), 0, cur);
  EXPECT_NEAR(b.position[0], -a.position[0], 1e-5);
  EXPECT_NEAR(b.position[1], a.position[1], 1e-5);
  EXPECT_NEAR(b.position[2], a.position[2], 1e-5);
  // Forward = third row of the view matrix (column-major: elements 2, 6, 10).
  EXPECT_NEAR(b.view[6], a.view[6], 1e-5);
  EXPECT_NEAR(b.view[10], a.view[10], 1e-5);
  EXPECT_NEAR(b.view[2], -a.view[2], 1e-5);
}

TEST(Mirror, TwiceIsIdentityBitForBit) {
  const vmd::Motion m = test::generated(9, 90, 300);
  auto once = mirror(m);
  ASSERT_TRUE(once);
  auto twice = mirror(*once);
  ASSERT_TRUE(twice);
  EXPECT_EQ(*vmd::write(*twice), *vmd::write(m));
  EXPECT_NE(*vmd::write(*once), *vmd::write(m));
  // Morph names are kept unless asked; with morph_names the wink pair is swapped (and back).
  ASSERT_EQ(once->morph_names.size(), m.morph_names.size());
  for (std::size_t i = 0; i < m.morph_names.size(); ++i) EXPECT_EQ(once->morph_names[i].raw, m.morph_names[i].raw);
  auto with = mirror(m, {true});
  ASSERT_TRUE(with);
  bool wink = false;
  for (std::size_t i = 0; i < m.morph_names.size(); ++i)
    if (m.morph_names[i].text == "ウィンク") {
      EXPECT_EQ(with->morph_names[i].text, "ウィンク右");
      wink = true;
    }
  EXPECT_TRUE(wink);
  EXPECT_EQ(*vmd::write(*mirror(*with, {true})), *vmd::write(m));  // generated names are NUL-padded
}

TEST(Mirror, CorpusTwiceIsIdentityBitForBit) {
  MMDKIT_REQUIRE_CORPUS();
  std::size_t n = 0;
  for (const auto& f : ::mmdkit::test::corpus_files("vmd")) {
    const auto bytes = ::mmdkit::test::read_bytes(f.path);
    auto m = vmd::read(bytes);
    if (!m) continue;
    auto once = mirror(m->motion);
    ASSERT_TRUE(once) << f.local_path;
    auto twice = mirror(*once);
    ASSERT_TRUE(twice) << f.local_path;
    EXPECT_EQ(*vmd::write(*twice), bytes) << f.local_path;
    ++n;
  }
  EXPECT_GT(n, 5u);
}

// The humanoid is symmetric (x → −x swaps 左 and 右): the mirrored motion puts every bone at
// the mirror image of its counterpart (IK off: the CCD solver's float path is not symmetric;
// no morph keys: the generated model's bone morphs are not symmetric).
TEST(Mirror, PosesTheMirrorImage) {
  vmd::Motion m = test::generated(21, 60, 300);
  m.morph_keys.clear();  // the generated model's bone morphs move bones asymmetrically
  auto r = mirror(m);
  ASSERT_TRUE(r);
  const auto model = test::humanoid();
  const auto a = test::evaluate(model, m, 0, 60, false), b = test::evaluate(model, *r, 0, 60, false);
  std::vector<std::size_t> partner(model->bones.size());
  for (std::size_t i = 0; i < model->bones.size(); ++i) {
    const std::string want = mirror_name(model->bones[i].name, false);
    for (std::size_t j = 0; j < model->bones.size(); ++j)
      if (model->bones[j].name == want) partner[i] = j;
  }
  double worst = 0;
  for (std::size_t f = 0; f < a.size(); ++f)
    for (std::size_t i = 0; i < partner.size(); ++i) {
      const Vec3 p = a[f].positions[i], q = b[f].positions[partner[i]];
      worst = std::max({worst, double(std::abs(p[0] + q[0])), double(std::abs(p[1] - q[1])), double(std::abs(p[2] - q[2]))});
    }
  EXPECT_LT(worst, 1e-4);
}

}  // namespace
}  // namespace mmdkit::motion
