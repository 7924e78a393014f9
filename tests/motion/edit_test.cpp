// shift, merge, rename, filter (motion/shift.hpp, merge.hpp, rename.hpp, filter.hpp).
#include <gtest/gtest.h>

#include "mmdkit/motion/filter.hpp"
#include "mmdkit/motion/merge.hpp"
#include "mmdkit/motion/rename.hpp"
#include "mmdkit/motion/shift.hpp"
#include "motion/motion_test_util.hpp"

namespace mmdkit::motion {
namespace {

using test::key;
using test::name;

TEST(Shift, MovesEveryKey) {
  const vmd::Motion m = test::generated(3, 60, 100);
  auto s = shift(m, {25, false});
  ASSERT_TRUE(s);
  ASSERT_EQ(s->bone_keys.size(), m.bone_keys.size());
  for (std::size_t i = 0; i < m.bone_keys.size(); ++i) EXPECT_EQ(s->bone_keys[i].frame, m.bone_keys[i].frame + 25);
  for (std::size_t i = 0; i < m.camera_keys.size(); ++i) EXPECT_EQ(s->camera_keys[i].frame, m.camera_keys[i].frame + 25);
  for (std::size_t i = 0; i < m.property_keys.size(); ++i) EXPECT_EQ(s->property_keys[i].frame, m.property_keys[i].frame + 25);
  // Shifted back: the input again, bit for bit.
  auto back = shift(*s, {-25, false});
  ASSERT_TRUE(back);
  EXPECT_EQ(*vmd::write(*back), *vmd::write(m));
  // Evaluated: frame f + 25 of the shifted = frame f of the input.
  const auto a = test::evaluate(test::humanoid(), m, 0, 60), b = test::evaluate(test::humanoid(), *s, 25, 85);
  EXPECT_EQ(test::max_difference(a, b), 0.0);
}

TEST(Shift, NegativeBeforeZeroIsRefusedOrClamped) {
  vmd::Motion m;
  m.bone_names = {name("センター")};
  m.bone_keys = {key(0, 0, {0, 0, 0}), key(0, 20, {20, 0, 0})};
  auto s = shift(m, {-10, false});
  ASSERT_FALSE(s);
  EXPECT_EQ(s.error().code, ErrorCode::invalid_argument);
  EXPECT_EQ(s.error().record, 0);
  EXPECT_EQ(s.error().section, "bone keyframes");
  s = shift(m, {-10, true});
  ASSERT_TRUE(s);
  ASSERT_EQ(s->bone_keys.size(), 2u);
  EXPECT_EQ(s->bone_keys[0].frame, 0u);
  EXPECT_FLOAT_EQ(s->bone_keys[0].position[0], 10.0f);  // the value the input had at frame 10
  EXPECT_EQ(s->bone_keys[1].frame, 10u);
}

TEST(Merge, BWinsAtEqualFramesAndTracksUnite) {
  vmd::Motion a, b;
  a.bone_names = {name("センター"), name("頭")};
  a.bone_keys = {key(0, 0, {1, 0, 0}), key(0, 10, {2, 0, 0}), key(1, 5, {0, 0, 0})};
  b.bone_names = {name("左腕"), name("センター")};
  b.bone_keys = {key(1, 10, {7, 0, 0}), key(0, 3, {0, 0, 0})};
  a.camera_keys = {vmd::CameraKey{}, vmd::CameraKey{}};
  a.camera_keys[1].frame = 30;
  b.camera_keys = {vmd::CameraKey{}};
  b.camera_keys[0].frame = 30;
  b.camera_keys[0].distance = -99;
  MergeReport r;
  auto m = merge(a, b, &r);
  ASSERT_TRUE(m);
  ASSERT_EQ(m->bone_names.size(), 3u);  // センター, 頭, 左腕
  EXPECT_EQ(m->bone_names[2].text, "左腕");
  EXPECT_EQ(r.replaced, 2u);            // センター@10 and camera@30
  EXPECT_EQ(r.new_bone_tracks, 1u);
  ASSERT_EQ(m->bone_keys.size(), 4u);
  // センター@10 is B's (7), B's 左腕 key is remapped to name 2.
  bool found = false;
  for (const auto& k : m->bone_keys)
    if (k.name == 0 && k.frame == 10) {
      EXPECT_FLOAT_EQ(k.position[0], 7.0f);
      found = true;
    }
  EXPECT_TRUE(found);
  EXPECT_EQ(m->bone_keys.back().name, 2u);
  ASSERT_EQ(m->camera_keys.size(), 2u);
  EXPECT_FLOAT_EQ(m->camera_keys[1].distance, -99.0f);
}

TEST(Rename, MapsBonesMorphsAndIk) {
  auto map = parse_name_map("# comment\r\nセンター\tグルーブ\r\n\r\nあ\tい\n右足ＩＫ\t左足ＩＫ\n");
  ASSERT_TRUE(map);
  ASSERT_EQ(map->size(), 3u);
  vmd::Motion m;
  m.bone_names = {name("センター"), name("頭")};
  m.morph_names = {name("あ")};
  m.bone_keys = {key(0, 0, {1, 0, 0}), key(1, 0, {0, 0, 0})};
  m.morph_keys = {{0, 0, 0.5f}};
  vmd::PropertyKey p;
  vmd::IkState s;
  s.name.raw = *encode_text("右足ＩＫ", Encoding::cp932);
  s.name.text = "右足ＩＫ";
  p.ik = {s};
  m.property_keys = {p};
  RenameReport r;
  auto out = rename(m, *map, &r);
  ASSERT_TRUE(out);
  EXPECT_EQ(out->bone_names[0].text, "グルーブ");
  EXPECT_EQ(out->bone_names[0].raw, *encode_text("グルーブ", Encoding::cp932));
  EXPECT_EQ(out->bone_names[1].text, "頭");
  EXPECT_EQ(out->morph_names[0].text, "い");
  EXPECT_EQ(out->property_keys[0].ik[0].name.text, "左足ＩＫ");
  EXPECT_EQ(r.bone_names + r.morph_names + r.ik_names, 3u);
}

// A new name that is another track's (of the same kind) merges two tracks: refused naming the
// line and both names, unless merge; names renamed away free theirs (swap); morphs and IK
// switches follow the same rule; a name differing only after the NUL is the same track already.
TEST(Rename, RefusesMergingTwoTracksUnlessAsked) {
  vmd::Motion m;
  m.bone_names = {name("センター"), name("頭")};
  m.morph_names = {name("あ"), name("い")};
  m.bone_keys = {key(0, 0, {1, 0, 0}), key(1, 0, {0, 0, 0})};
  m.morph_keys = {{0, 0, 0.5f}, {1, 0, 0.25f}};
  vmd::PropertyKey p;
  for (const char* n : {"右足ＩＫ", "左足ＩＫ"}) {
    vmd::IkState s;
    s.name.raw = *encode_text(n, Encoding::cp932);
    s.name.text = n;
    p.ik.push_back(s);
  }
  m.property_keys = {p};
  auto refused = [&](const char* text, std::int64_t line, const std::string& what) {
    auto map = parse_name_map(text);
    ASSERT_TRUE(map);
    auto out = rename(m, *map);
    ASSERT_FALSE(out) << text;
    EXPECT_EQ(out.error().record, line) << text;
    EXPECT_NE(out.error().message.find(what), std::string::npos) << out.error().message;
  };
  refused("# c\nセンター\t頭\n", 2, "'センター' -> '頭': the motion already has a bone track '頭' that the map does not rename");
  refused("あ\tい\n", 1, "a morph track 'い'");
  refused("右足ＩＫ\t左足ＩＫ\n", 1, "an IK switch '左足ＩＫ'");
  refused("センター\tX\n頭\tX\n", 2, "'頭' -> 'X': line 1 renames bone track 'センター' to 'X' too");
  // A swap, a chain, a name onto itself: fine.
  for (const char* ok : {"センター\t頭\n頭\tセンター\n", "センター\t頭\n頭\t首\n", "あ\tあ\n", "右足ＩＫ\t左足ＩＫ\n左足ＩＫ\t右足ＩＫ\n"}) {
    auto map = parse_name_map(ok);
    ASSERT_TRUE(map);
    EXPECT_TRUE(rename(m, *map)) << ok;
  }
  auto map = parse_name_map("センター\t頭\n");
  RenameReport r;
  auto merged = rename(m, *map, &r, {true});
  ASSERT_TRUE(merged);
  EXPECT_EQ(merged->bone_names[0].text, "頭");
  ASSERT_EQ(r.merged.size(), 1u);
  EXPECT_EQ(r.merged[0], "bone track 'センター' merged into '頭' (line 1)");
}

TEST(Rename, BadMapsNameTheLine) {
  auto map = parse_name_map("a\tb\nno tab here\n");
  ASSERT_FALSE(map);
  EXPECT_EQ(map.error().record, 2);
  map = parse_name_map("a\tb\na\tc\n");
  ASSERT_FALSE(map);
  EXPECT_EQ(map.error().record, 2);
  // A new name longer than the 15-byte field.
  vmd::Motion m;
  m.bone_names = {name("頭")};
  m.bone_keys = {key(0, 0, {0, 0, 0})};
  auto long_map = parse_name_map("頭\tあいうえおかきくけこ\n");
  ASSERT_TRUE(long_map);
  auto out = rename(m, *long_map);
  ASSERT_FALSE(out);
  EXPECT_EQ(out.error().record, 1);
}

TEST(Filter, KeepsAndDropsTracks) {
  const vmd::Motion m = test::generated(5, 60, 200);
  FilterOptions o;
  o.bones = std::vector<std::string>{"センター", "頭", "存在しない"};
  o.morphs = std::vector<std::string>{};
  o.camera = false;
  FilterReport r;
  auto out = filter(m, o, &r);
  ASSERT_TRUE(out);
  std::size_t want = 0;
  for (const auto& k : m.bone_keys)
    if (m.bone_names[k.name].text == "センター" || m.bone_names[k.name].text == "頭") ++want;
  EXPECT_EQ(out->bone_keys.size(), want);
  EXPECT_EQ(out->bone_names.size(), 2u);
  EXPECT_TRUE(out->morph_keys.empty());
  EXPECT_TRUE(out->camera_keys.empty());
  EXPECT_EQ(out->light_keys.size(), m.light_keys.size());
  ASSERT_EQ(r.unmatched.size(), 1u);
  EXPECT_EQ(r.unmatched[0], "存在しない");
  for (const auto& k : out->bone_keys) EXPECT_LT(k.name, out->bone_names.size());
}

}  // namespace
}  // namespace mmdkit::motion
