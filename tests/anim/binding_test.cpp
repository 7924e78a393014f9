// Binding by CP932 bytes cut to 15: long names, names cut mid double-byte character, merges.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <random>

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

// A second implementation of the merge rule, written as the rule reads: every (bone, key) pair in
// motion then file order, stable-sorted by (bone, frame), the last of each (bone, frame) kept.
// bind_motions (a counting sort by bone, then per-bone sorts) must give the same keys, in the same
// order, and the same ranges, on shuffled frames, duplicate frames, several motions, names bound
// to two bones (the same first 15 bytes), unmatched names, bones without keys and long reversed tracks.
TEST(Binding, MergedKeysEqualAStableSortOfAllPairs) {
  std::mt19937 rng(1234);
  for (int round = 0; round < 40; ++round) {
    const std::size_t n_bones = 1 + rng() % 9, n_motions = 1 + rng() % 3;
    std::vector<Bytes> model(n_bones);
    for (std::size_t b = 0; b < n_bones; ++b) model[b] = bytes("bone" + std::to_string(rng() % 6));  // repeats: one name, two bones
    if (n_bones > 2) model[1].clear();  // an empty key matches nothing
    std::vector<vmd::Motion> motions(n_motions);
    for (auto& m : motions) {
      const std::size_t names = 1 + rng() % 7;
      for (std::size_t j = 0; j < names; ++j) m.bone_names.push_back(track_name(bytes("bone" + std::to_string(rng() % 8))));
      // Every fifth round a long track in reverse frame order (with repeats): more moves than the
      // insertion sort's budget, so the stable_sort fallback runs.
      const bool reversed = round % 5 == 0;
      const std::size_t keys = reversed ? 600 : rng() % 60;
      for (std::size_t i = 0; i < keys; ++i) {
        const auto name = static_cast<std::uint32_t>(reversed ? 0 : rng() % names);
        const auto frame = static_cast<std::uint32_t>(reversed ? (keys - i) / 3 : rng() % 25);
        m.bone_keys.push_back(bone_key(name, frame, {static_cast<float>(rng() % 1000), 0, static_cast<float>(i)}));
      }
      for (std::size_t j = 0; j < names; ++j) m.morph_names.push_back(track_name(bytes("bone" + std::to_string(rng() % 8))));
      for (std::size_t i = 0; i < keys / 2; ++i)
        m.morph_keys.push_back({static_cast<std::uint32_t>(rng() % names), static_cast<std::uint32_t>(rng() % 25),
                                static_cast<float>(i)});
    }
    std::vector<const vmd::Motion*> list;
    for (const auto& m : motions) list.push_back(&m);
    auto b = bind_motions(list, model, model);
    ASSERT_TRUE(b) << b.error().to_string();
    // The reference.
    struct Pair {
      std::size_t bone;
      std::uint32_t frame;
      float a, c;  // translation x and z (the key's index in its motion): which key it is
    };
    std::vector<Pair> bone_pairs, morph_pairs;
    for (const auto& m : motions) {
      for (const auto& k : m.bone_keys)
        for (std::size_t t = 0; t < n_bones; ++t)
          if (!model[t].empty() && model[t] == m.bone_names[k.name].raw) bone_pairs.push_back({t, k.frame, k.position[0], k.position[2]});
      for (const auto& k : m.morph_keys)
        for (std::size_t t = 0; t < n_bones; ++t)
          if (!model[t].empty() && model[t] == m.morph_names[k.name].raw) morph_pairs.push_back({t, k.frame, k.weight, 0});
    }
    auto reference = [&](std::vector<Pair> pairs, std::vector<KeyRange>& ranges) {
      std::stable_sort(pairs.begin(), pairs.end(),
                       [](const Pair& x, const Pair& y) { return x.bone != y.bone ? x.bone < y.bone : x.frame < y.frame; });
      std::vector<Pair> kept;
      ranges.assign(n_bones, KeyRange{});
      for (std::size_t i = 0; i < pairs.size(); ++i) {
        if (i + 1 < pairs.size() && pairs[i + 1].bone == pairs[i].bone && pairs[i + 1].frame == pairs[i].frame) continue;
        KeyRange& r = ranges[pairs[i].bone];
        if (r.empty()) r.begin = r.end = static_cast<std::uint32_t>(kept.size());
        kept.push_back(pairs[i]);
        r.end = static_cast<std::uint32_t>(kept.size());
      }
      return kept;
    };
    std::vector<KeyRange> bone_ranges, morph_ranges;
    const auto bones_want = reference(bone_pairs, bone_ranges), morphs_want = reference(morph_pairs, morph_ranges);
    ASSERT_EQ(b->bone_keys.size(), bones_want.size()) << "round " << round;
    for (std::size_t i = 0; i < bones_want.size(); ++i) {
      EXPECT_EQ(b->bone_keys[i].frame, bones_want[i].frame) << "round " << round << " key " << i;
      EXPECT_EQ(b->bone_keys[i].translation[0], bones_want[i].a) << "round " << round << " key " << i;
      EXPECT_EQ(b->bone_keys[i].translation[2], bones_want[i].c) << "round " << round << " key " << i;
    }
    ASSERT_EQ(b->morph_keys.size(), morphs_want.size()) << "round " << round;
    for (std::size_t i = 0; i < morphs_want.size(); ++i) {
      EXPECT_EQ(b->morph_keys[i].frame, morphs_want[i].frame) << "round " << round << " key " << i;
      EXPECT_EQ(b->morph_keys[i].weight, morphs_want[i].a) << "round " << round << " key " << i;
    }
    ASSERT_EQ(b->bone_tracks.size(), n_bones);
    ASSERT_EQ(b->morph_tracks.size(), n_bones);
    for (std::size_t t = 0; t < n_bones; ++t) {
      EXPECT_EQ(b->bone_tracks[t].begin, bone_ranges[t].begin) << "round " << round << " bone " << t;
      EXPECT_EQ(b->bone_tracks[t].end, bone_ranges[t].end) << "round " << round << " bone " << t;
      EXPECT_EQ(b->morph_tracks[t].begin, morph_ranges[t].begin) << "round " << round << " morph " << t;
      EXPECT_EQ(b->morph_tracks[t].end, morph_ranges[t].end) << "round " << round << " morph " << t;
    }
  }
}

// Without model bones (the morph-only binding of anim::Character) toggles bind nothing; with
// bones that match no track, every bone gets an empty toggle range.
TEST(Binding, PhysicsTogglesWithoutBones) {
  vmd::Motion m;
  m.bone_names = {track_name(bytes("hair"))};
  const vmd::Curve l = vmd::kLinearCurve;
  m.bone_keys = {bone_key(0, 10, {0, 0, 0}, {0, 0, 0, 1}, l, l, l, l, true)};
  const vmd::Motion* list[] = {&m};
  auto none = bind_motions(list, {}, {});
  ASSERT_TRUE(none) << none.error().to_string();
  EXPECT_TRUE(none->physics_tracks.empty());
  EXPECT_TRUE(none->physics_toggles.empty());
  std::vector<Bytes> model = {bytes("skirt"), bytes("arm")};
  auto unmatched = bind_motions(list, model, {});
  ASSERT_TRUE(unmatched) << unmatched.error().to_string();
  ASSERT_EQ(unmatched->physics_tracks.size(), 2u);
  EXPECT_TRUE(unmatched->physics_tracks[0].empty());
  EXPECT_TRUE(unmatched->physics_toggles.empty());
}

}  // namespace
}  // namespace mmdkit::anim
