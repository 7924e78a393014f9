// Binding by CP932 bytes cut to 15: long names, names cut mid double-byte character, merges.
#include <gtest/gtest.h>

#include "anim/anim_test_util.hpp"
#include "mmdkit/anim/binding.hpp"

namespace mmdkit::anim {
namespace {

using test::bone_key;
using test::bytes;
using test::track_name;
using Bytes = std::vector<std::uint8_t>;

TEST(Binding, MatchKeyCutsAtNulAnd15Bytes) {
  EXPECT_EQ(binding_key(bytes("abcdefghijklmnop")), bytes("abcdefghijklmno"));
  Bytes with_garbage = {'a', 'b', 'c', 0, 0xFD, 0xFD, 'x'};
  EXPECT_EQ(binding_key(with_garbage), bytes("abc"));
}

TEST(Binding, Utf8NameIsEncodedToCp932ThenCut) {
  // "ab" + あいうえおかき = 2 + 7×2 = 16 CP932 bytes; the cut at 15 leaves the lead byte of き.
  Bytes want = {'a', 'b', 0x82, 0xA0, 0x82, 0xA2, 0x82, 0xA4, 0x82, 0xA6, 0x82, 0xA8, 0x82, 0xA9, 0x82};
  auto k = binding_key_of_text("abあいうえおかき");
  ASSERT_TRUE(k) << k.error().to_string();
  EXPECT_EQ(*k, want);
  EXPECT_FALSE(binding_key_of_text("\xff"));  // invalid UTF-8
}

TEST(Binding, BindsByBytesIncludingCutDoubleByteCharacter) {
  vmd::Motion m;
  // VMD names as MMD writes them: 15-byte fields.
  Bytes cut = {'a', 'b', 0x82, 0xA0, 0x82, 0xA2, 0x82, 0xA4, 0x82, 0xA6, 0x82, 0xA8, 0x82, 0xA9, 0x82};
  m.bone_names = {track_name(bytes("abcdefghijklmno")), track_name(cut), track_name(bytes("nobody"))};
  m.bone_keys = {bone_key(0, 0, {1, 0, 0}), bone_key(1, 0, {2, 0, 0}), bone_key(2, 0, {3, 0, 0})};
  // Model: 16-byte ASCII name, a PMX-style UTF-8 name whose CP932 form is cut mid character,
  // another name that shares the first 15 bytes of the first, and an unrelated bone.
  std::vector<Bytes> model = {binding_key(bytes("abcdefghijklmnop")), *binding_key_of_text("abあいうえおかき"),
                              binding_key(bytes("abcdefghijklmnoZ")), binding_key(bytes("center"))};
  const vmd::Motion* list[] = {&m};
  auto b = bind_motions(list, model, {});
  ASSERT_TRUE(b) << b.error().to_string();
  ASSERT_EQ(b->bone_tracks.size(), 4u);
  ASSERT_EQ(b->bone_track(0).size(), 1u);
  EXPECT_EQ(b->bone_track(0)[0].translation[0], 1.0f);
  ASSERT_EQ(b->bone_track(1).size(), 1u);
  EXPECT_EQ(b->bone_track(1)[0].translation[0], 2.0f);
  ASSERT_EQ(b->bone_track(2).size(), 1u);  // same first 15 bytes: bound too
  EXPECT_TRUE(b->bone_track(3).empty());
  ASSERT_EQ(b->unmatched.size(), 1u);
  EXPECT_EQ(b->unmatched[0].name, 2u);
  EXPECT_FALSE(b->unmatched[0].morph);
}

TEST(Binding, BodyAndFaceMotionsMerge) {
  vmd::Motion body, face;
  body.bone_names = {track_name(bytes("center"))};
  body.bone_keys = {bone_key(0, 0, {0, 0, 0}), bone_key(0, 10, {10, 0, 0})};
  body.morph_names = {track_name(bytes("blink"))};
  body.morph_keys = {{0, 5, 0.25f}};
  face.morph_names = {track_name({'b', 'l', 'i', 'n', 'k', 0, 0xFD})};  // garbage after NUL
  face.morph_keys = {{0, 0, 0.0f}, {0, 10, 1.0f}, {0, 5, 0.75f}};
  face.bone_names = {track_name(bytes("center"))};
  face.bone_keys = {bone_key(0, 10, {20, 0, 0})};  // same bone and frame: the later motion wins
  std::vector<Bytes> bones = {binding_key(bytes("center"))};
  std::vector<Bytes> morphs = {binding_key(bytes("smile")), binding_key(bytes("blink"))};
  const vmd::Motion* list[] = {&body, nullptr, &face};
  auto b = bind_motions(list, bones, morphs);
  ASSERT_TRUE(b) << b.error().to_string();
  ASSERT_EQ(b->bone_track(0).size(), 2u);
  EXPECT_EQ(b->bone_track(0)[1].translation[0], 20.0f);
  EXPECT_TRUE(b->morph_track(0).empty());
  ASSERT_EQ(b->morph_track(1).size(), 3u);
  EXPECT_EQ(b->morph_track(1)[1].weight, 0.75f);  // face's key at frame 5 beats body's

  std::vector<BonePose> poses(1);
  std::vector<std::uint32_t> bc(1, 0);
  sample_bones(*b, 5.0, poses, bc);
  EXPECT_FLOAT_EQ(poses[0].translation[0], 10.0f);
  std::vector<float> w(2, -1.0f);
  std::vector<std::uint32_t> mc(2, 0);
  sample_morphs(*b, 7.5, w, mc);
  EXPECT_EQ(w[0], 0.0f);
  EXPECT_FLOAT_EQ(w[1], 0.875f);
}

TEST(Binding, TextOnlyNamesAreEncodedInTheMotionEncoding) {
  vmd::Motion m;
  vmd::TrackName n;
  n.text = "センター";
  m.bone_names = {n};
  m.bone_keys = {bone_key(0, 0, {1, 2, 3})};
  std::vector<Bytes> bones = {{0x83, 0x5A, 0x83, 0x93, 0x83, 0x5E, 0x81, 0x5B}};  // センター in CP932
  const vmd::Motion* list[] = {&m};
  auto b = bind_motions(list, bones, {});
  ASSERT_TRUE(b);
  EXPECT_EQ(b->bone_track(0).size(), 1u);
}

TEST(Binding, BadNameIndexIsAnError) {
  vmd::Motion m;
  m.bone_names = {track_name(bytes("a"))};
  m.bone_keys = {bone_key(0, 0, {}), bone_key(5, 0, {})};
  const vmd::Motion* list[] = {&m};
  auto b = bind_motions(list, {}, {});
  ASSERT_FALSE(b);
  EXPECT_EQ(b.error().code, ErrorCode::invalid_argument);
  EXPECT_EQ(b.error().record, 1);
}

// The per-key physics toggle (bytes 63 0F) is stepped: the key at or before the frame decides.
TEST(Binding, PhysicsOffIsSteppedPerBone) {
  vmd::Motion m;
  m.bone_names = {track_name(bytes("hair")), track_name(bytes("skirt"))};
  const vmd::Curve l = vmd::kLinearCurve;
  m.bone_keys = {bone_key(0, 10, {0, 0, 0}, {0, 0, 0, 1}, l, l, l, l, true), bone_key(0, 20, {0, 0, 0}),
                 bone_key(0, 30, {0, 0, 0}, {0, 0, 0, 1}, l, l, l, l, true), bone_key(1, 0, {0, 0, 0})};
  std::vector<Bytes> model = {bytes("hair"), bytes("skirt"), bytes("none")};
  const vmd::Motion* list[] = {&m};
  auto b = bind_motions(list, model, {});
  ASSERT_TRUE(b) << b.error().to_string();
  auto at = [&](double frame) {
    std::vector<std::uint8_t> out(3, 9);
    sample_physics_off(*b, frame, out);
    return out;
  };
  EXPECT_EQ(at(0), (std::vector<std::uint8_t>{1, 0, 0}));  // before the first key: the first key's
  EXPECT_EQ(at(10), (std::vector<std::uint8_t>{1, 0, 0}));
  EXPECT_EQ(at(19.5), (std::vector<std::uint8_t>{1, 0, 0}));
  EXPECT_EQ(at(20), (std::vector<std::uint8_t>{0, 0, 0}));
  EXPECT_EQ(at(29.9), (std::vector<std::uint8_t>{0, 0, 0}));
  EXPECT_EQ(at(30), (std::vector<std::uint8_t>{1, 0, 0}));
  EXPECT_EQ(at(1000), (std::vector<std::uint8_t>{1, 0, 0}));
}

}  // namespace
}  // namespace mmdkit::anim
