// motion/lipsync.hpp, the score path: lyric → shape rules, UST / VSQX / lab readers, the keys of
// known notes at the frames computed here from ticks and tempos, the morph map, errors.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "mmdkit/core/text.hpp"
#include "mmdkit/motion/lipsync.hpp"
#include "motion_test_util.hpp"

namespace mmdkit::motion {
namespace {

using S = MouthShape;

ByteSpan bytes_of(const std::string& s) { return ByteSpan(reinterpret_cast<const std::uint8_t*>(s.data()), s.size()); }

TEST(LipsyncLyrics, KanaRomajiAndPhonemes) {
  EXPECT_EQ(lyric_shape("あ"), S::a);
  EXPECT_EQ(lyric_shape("か"), S::a);
  EXPECT_EQ(lyric_shape("きゃ"), S::a);
  EXPECT_EQ(lyric_shape("シ"), S::i);
  EXPECT_EQ(lyric_shape("ツ"), S::u);
  EXPECT_EQ(lyric_shape("ね"), S::e);
  EXPECT_EQ(lyric_shape("ヨ"), S::o);
  EXPECT_EQ(lyric_shape("ヴ"), S::u);
  EXPECT_EQ(lyric_shape("ん"), S::closed);
  EXPECT_EQ(lyric_shape("ン"), S::closed);
  EXPECT_EQ(lyric_shape("っ"), S::closed);
  EXPECT_EQ(lyric_shape("かっ"), S::a);   // the vowel is sung, then cut
  EXPECT_EQ(lyric_shape("そー"), S::o);   // long vowel inside the lyric
  EXPECT_EQ(lyric_shape("ー", S::e), S::e);  // a long-vowel note continues the previous one
  EXPECT_EQ(lyric_shape("-", S::i), S::i);
  EXPECT_EQ(lyric_shape("a か"), S::a);   // UTAU VCV: the part after the space
  EXPECT_EQ(lyric_shape("u て"), S::e);
  EXPECT_EQ(lyric_shape("R"), S::rest);
  EXPECT_EQ(lyric_shape(""), S::rest);
  EXPECT_EQ(lyric_shape("@@"), std::nullopt);  // signs alone name nothing (warned per note)
  EXPECT_EQ(lyric_shape("1"), std::nullopt);
  EXPECT_EQ(lyric_shape("pau"), S::rest);
  EXPECT_EQ(lyric_shape("ka"), S::a);
  EXPECT_EQ(lyric_shape("kyo"), S::o);
  EXPECT_EQ(lyric_shape("shi"), S::i);
  EXPECT_EQ(lyric_shape("n"), S::closed);
  EXPECT_EQ(lyric_shape("N"), S::closed);
  EXPECT_EQ(lyric_shape("cl"), S::closed);
  EXPECT_EQ(lyric_shape("A"), S::a);  // Open JTalk's devoiced vowel
  EXPECT_EQ(lyric_shape("k"), std::nullopt);
  EXPECT_EQ(lyric_shape("xyz"), std::nullopt);
  EXPECT_EQ(lyric_shape("★"), std::nullopt);
}

// The frame a note's shape is full from: round((t - lead) * 30), clamped at 0 (header rule).
std::uint32_t full_frame(double t, double lead_s) {
  return static_cast<std::uint32_t>(std::max(0.0, std::round((t - lead_s) * 30)));
}

// The weight channel c keys at frame f, or -1 when it has no key there.
float key_at(const ScoreKeys& k, std::size_t c, std::uint32_t f) {
  for (const auto& [frame, w] : k.keys[c])
    if (frame == f) return w;
  return -1;
}

constexpr double kLead = 0.1;  // 100 ms = 3 frames: the frames below are whole numbers

ScoreLipOptions options() {
  ScoreLipOptions o;
  o.lead_ms = kLead * 1000;
  return o;
}

const char* kUst =
    "[#VERSION]\r\nUST Version1.2\r\n[#SETTING]\r\nTempo=120.00\r\nTracks=1\r\n"
    "[#0000]\r\nLength=480\r\nLyric=あ\r\nNoteNum=60\r\n"
    "[#0001]\r\nLength=480\r\nLyric=き\r\nNoteNum=62\r\n"
    "[#0002]\r\nLength=480\r\nLyric=R\r\nNoteNum=60\r\n"
    "[#0003]\r\nLength=960\r\nLyric=う\r\nNoteNum=64\r\nTempo=60\r\n"
    "[#0004]\r\nLength=240\r\nLyric=ー\r\nNoteNum=64\r\n"
    "[#0005]\r\nLength=480\r\nLyric=ん\r\nNoteNum=64\r\n"
    "[#TRACKEND]\r\n";

void check_ust_notes(const Score& s) {
  ASSERT_EQ(s.notes.size(), 6u);
  // Times from the ticks: 480 ticks = one beat; 120 BPM → 0.5 s, from note 3 on 60 BPM → 1 s.
  const double starts[] = {0, 0.5, 1.0, 1.5, 3.5, 4.0};
  const double ends[] = {0.5, 1.0, 1.5, 3.5, 4.0, 5.0};
  const S shapes[] = {S::a, S::i, S::rest, S::u, S::u, S::closed};
  for (std::size_t n = 0; n < 6; ++n) {
    EXPECT_NEAR(s.notes[n].start, starts[n], 1e-12) << n;
    EXPECT_NEAR(s.notes[n].end, ends[n], 1e-12) << n;
    EXPECT_EQ(s.notes[n].shape, shapes[n]) << n;
  }
  EXPECT_TRUE(s.warnings.empty());
}

TEST(LipsyncScore, UstUtf8AndCp932GiveTheNotes) {
  auto u = parse_ust(bytes_of(kUst));
  ASSERT_TRUE(u.has_value()) << u.error().to_string();
  check_ust_notes(*u);
  auto sj = encode_text(kUst, Encoding::cp932);
  ASSERT_TRUE(sj.has_value());
  auto c = parse_ust(ByteSpan(sj->data(), sj->size()));
  ASSERT_TRUE(c.has_value()) << c.error().to_string();
  check_ust_notes(*c);
}

TEST(LipsyncScore, UstKeysAtTheNotesFrames) {
  auto s = parse_ust(bytes_of(kUst));
  ASSERT_TRUE(s.has_value());
  auto k = score_keys(*s, options());
  ASSERT_TRUE(k.has_value());
  // Full-weight frames: note start − 3 frames; き at 0.5 s → 12, the rest at 1.0 s → 27, う at
  // 1.5 s → 42 (held through the ー note to 4.0 s → 117), ん at 4.0 s → 117, the end at 5 s → 147.
  EXPECT_EQ(key_at(*k, 0, 0), 1.0f);
  EXPECT_EQ(key_at(*k, 1, full_frame(0.5, kLead)), 1.0f);
  EXPECT_EQ(full_frame(0.5, kLead), 12u);
  EXPECT_EQ(key_at(*k, 0, 12), 0.0f);             // あ is gone when き is full
  EXPECT_EQ(key_at(*k, 0, 12 - 2), 1.0f);         // あ full until the 2-frame crossfade
  EXPECT_EQ(key_at(*k, 1, 10), 0.0f);             // き starts opening there
  EXPECT_EQ(key_at(*k, 5, full_frame(1.0, kLead)), 1.0f);  // the rest closes the mouth
  EXPECT_EQ(key_at(*k, 2, full_frame(1.5, kLead)), 1.0f);
  EXPECT_EQ(key_at(*k, 2, full_frame(4.0, kLead) - 2), 1.0f);  // う held over ー
  EXPECT_EQ(key_at(*k, 5, full_frame(4.0, kLead)), 1.0f);      // ん
  EXPECT_EQ(k->last_frame, full_frame(5.0, kLead) - 1);  // ん held to its last frame
  // The per-frame weights (linear between keys, as MMD evaluates morph keys).
  const MouthTrack t = score_track(*k);
  ASSERT_EQ(t.frames.size(), full_frame(5.0, kLead) + 0u);
  EXPECT_FLOAT_EQ(t.frames[11][0], 0.5f);
  EXPECT_FLOAT_EQ(t.frames[11][1], 0.5f);
  EXPECT_FLOAT_EQ(t.frames[60][2], 1.0f);
  for (std::size_t c = 0; c < 5; ++c) EXPECT_EQ(t.frames[30][c], 0.0f);
}

TEST(LipsyncScore, GainAndLead) {
  auto s = parse_ust(bytes_of(kUst));
  ASSERT_TRUE(s.has_value());
  ScoreLipOptions o;
  o.lead_ms = 0;
  o.gain = 0.6;
  auto k = score_keys(*s, o);
  ASSERT_TRUE(k.has_value());
  EXPECT_FLOAT_EQ(key_at(*k, 1, 15), 0.6f);  // 0.5 s, no lead
  EXPECT_FLOAT_EQ(key_at(*k, 5, 30), 1.0f);  // closed is always 1
  // 60 frames a second: the frames double (い at 0.5 s → 30).
  o.fps = 60;
  auto k60 = score_keys(*s, o);
  ASSERT_TRUE(k60.has_value());
  EXPECT_FLOAT_EQ(key_at(*k60, 1, 30), 0.6f);
  EXPECT_EQ(k60->last_frame, 299u);  // ん held to 5.0 s, the frame before 300
  o.fps = 30;
  o.lead_ms = -1;
  EXPECT_FALSE(score_keys(*s, o).has_value());
}

TEST(LipsyncScore, VsqxTempoPreMeasureAndOverlap) {
  // VSQ4: 480 ticks a beat, one pre-measure of 4/4 (1920 ticks); tempo 120 then 60 from tick
  // 5760 (2 bars into the song); a part at tick 1920 (bar 1).
  const std::string x = R"(<?xml version="1.0" encoding="UTF-8" standalone="no"?>
<vsq4 xmlns="http://www.yamaha.co.jp/vocaloid/schema/vsq4/">
  <masterTrack><seqName><![CDATA[x]]></seqName><resolution>480</resolution><preMeasure>1</preMeasure>
    <timeSig><m>0</m><nu>4</nu><de>4</de></timeSig>
    <tempo><t>0</t><v>12000</v></tempo><tempo><t>5760</t><v>6000</v></tempo>
  </masterTrack>
  <vsTrack><tNo>0</tNo>
    <vsPart><t>1920</t><playTime>9600</playTime>
      <note><t>0</t><dur>480</dur><n>60</n><v>64</v><y><![CDATA[さ]]></y><p><![CDATA[s a]]></p>
        <nStyle><v id="accent">50</v></nStyle></note>
      <note><t>480</t><dur>720</dur><n>62</n><v>64</v><y><![CDATA[え]]></y><p><![CDATA[e]]></p></note>
      <note><t>960</t><dur>480</dur><n>62</n><v>64</v><y><![CDATA[La]]></y><p><![CDATA[4 a]]></p></note>
      <note><t>3840</t><dur>480</dur><n>62</n><v>64</v><y><![CDATA[&#x3042;?]]></y><p><![CDATA[o]]></p></note>
    </vsPart>
  </vsTrack>
</vsq4>)";
  auto s = parse_vsqx(bytes_of(x));
  ASSERT_TRUE(s.has_value()) << s.error().to_string();
  ASSERT_EQ(s->notes.size(), 4u);
  // Song time 0 = tick 1920 (after the pre-measure). Note 0: 0–0.5 s; note 1 from 0.5 s, cut
  // where note 2 starts (1.0 s); note 2: 1.0–1.5 s; note 3 at tick 1920 + 3840 = 5760 = 4.0 s,
  // where the tempo becomes 60: 480 ticks = 1 s.
  EXPECT_NEAR(s->notes[0].start, 0.0, 1e-12);
  EXPECT_EQ(s->notes[0].shape, S::a);
  EXPECT_NEAR(s->notes[1].start, 0.5, 1e-12);
  EXPECT_NEAR(s->notes[1].end, 1.0, 1e-12);
  EXPECT_EQ(s->notes[1].shape, S::e);
  EXPECT_EQ(s->notes[2].shape, S::a);  // "La" → a
  EXPECT_NEAR(s->notes[3].start, 4.0, 1e-12);
  EXPECT_NEAR(s->notes[3].end, 5.0, 1e-12);
  EXPECT_EQ(s->notes[3].shape, S::o);  // lyric without a vowel ("&#x3042;?"): the phonemes' o
  ASSERT_EQ(s->warnings.size(), 1u);
  EXPECT_NE(s->warnings[0].find("note 1"), std::string::npos) << s->warnings[0];
  EXPECT_NE(s->warnings[0].find("overlaps"), std::string::npos);
  auto k = score_keys(*s, options());
  ASSERT_TRUE(k.has_value());
  EXPECT_EQ(key_at(*k, 3, full_frame(0.5, kLead)), 1.0f);
  EXPECT_EQ(key_at(*k, 4, full_frame(4.0, kLead)), 1.0f);
  EXPECT_EQ(key_at(*k, 5, full_frame(1.5, kLead)), 1.0f);  // the gap 1.5–4.0 s is closed
}

TEST(LipsyncScore, Vsq3Elements) {
  const std::string x = R"(<?xml version="1.0"?><vsq3><masterTrack><resolution>480</resolution><preMeasure>0</preMeasure>
<tempo><posTick>0</posTick><bpm>15000</bpm></tempo></masterTrack>
<vsTrack><musicalPart><posTick>0</posTick><note><posTick>960</posTick><durTick>480</durTick><lyric><![CDATA[い]]></lyric><phnms>i</phnms></note></musicalPart></vsTrack></vsq3>)";
  auto s = parse_vsqx(bytes_of(x));
  ASSERT_TRUE(s.has_value()) << s.error().to_string();
  ASSERT_EQ(s->notes.size(), 1u);
  EXPECT_NEAR(s->notes[0].start, 960 / 480.0 * 60 / 150, 1e-12);
  EXPECT_NEAR(s->notes[0].end, 1440 / 480.0 * 60 / 150, 1e-12);
  EXPECT_EQ(s->notes[0].shape, S::i);
}

TEST(LipsyncScore, LabPhonemes) {
  // 100 ns units: 5,000,000 = 0.5 s.
  const std::string lab =
      "0 5000000 sil\n5000000 6000000 k\n6000000 9000000 a\n9000000 10000000 N\n10000000 11000000 m\n"
      "11000000 15000000 o\n15000000 20000000 sil\n";
  auto s = parse_lab(bytes_of(lab));
  ASSERT_TRUE(s.has_value()) << s.error().to_string();
  ASSERT_EQ(s->notes.size(), 7u);
  EXPECT_EQ(s->notes[1].shape, S::a);  // k takes the next vowel
  EXPECT_EQ(s->notes[3].shape, S::closed);
  EXPECT_EQ(s->notes[4].shape, S::closed);  // m: lips closed
  EXPECT_EQ(s->notes[5].shape, S::o);
  EXPECT_TRUE(s->warnings.empty());
  auto k = score_keys(*s, options());
  ASSERT_TRUE(k.has_value());
  // "k a" from 0.5 s (15 − 3 = 12), closed from 0.9 s (24), o from 1.1 s (30), closed at 1.5 s.
  EXPECT_EQ(key_at(*k, 0, 12), 1.0f);
  EXPECT_EQ(key_at(*k, 5, 24), 1.0f);
  EXPECT_EQ(key_at(*k, 4, 30), 1.0f);
  EXPECT_EQ(key_at(*k, 4, 42), 0.0f);
  EXPECT_EQ(key_at(*k, 5, 42), 1.0f);
  // Seconds (Julius) and the same frames.
  auto j = parse_lab(bytes_of("0.0 0.5 silB\n0.5 0.9 a\n0.9 1.2 silE\n"));
  ASSERT_TRUE(j.has_value());
  EXPECT_NEAR(j->notes[1].start, 0.5, 1e-12);
  EXPECT_EQ(j->notes[1].shape, S::a);
  // A label that is no phoneme of the set ('zzz') is warned about with its line, not folded into
  // the next vowel as a consonant would be.
  auto z = parse_lab(bytes_of("0 5000000 zzz\n5000000 9000000 a\n"));
  ASSERT_TRUE(z.has_value());
  ASSERT_EQ(z->warnings.size(), 1u);
  EXPECT_NE(z->warnings[0].find("line 1 (label 0): 'zzz' names no mouth shape"), std::string::npos) << z->warnings[0];
  EXPECT_EQ(z->notes[0].shape, S::closed);
}

// fuzz_lipsync (UBSan): a .lab label ending at 7.4e27 x 100 ns = 7.4e20 s reached the limit
// error, whose message cast the seconds to long long (undefined beyond its range). Now a clean
// limit_exceeded naming the seconds.
TEST(LipsyncScore, AnEndFarBeyondTheLimitIsAnError) {
  auto s = parse_lab(bytes_of("1 7444444444444444444444444444 a\n"));
  ASSERT_TRUE(s.has_value()) << s.error().to_string();
  auto k = score_keys(*s, options());
  ASSERT_FALSE(k.has_value());
  EXPECT_EQ(k.error().code, ErrorCode::limit_exceeded);
  EXPECT_NE(k.error().message.find("(7.44444e+20 s)"), std::string::npos) << k.error().message;
}

TEST(LipsyncScore, Errors) {
  auto e = parse_ust(bytes_of("[#SETTING]\nTempo=120\n[#0000]\nLength=abc\nLyric=あ\n"));
  ASSERT_FALSE(e.has_value());
  EXPECT_NE(e.error().section.find("#0000"), std::string::npos);
  EXPECT_FALSE(parse_ust(bytes_of("[#SETTING]\nTempo=120\n")).has_value());
  EXPECT_FALSE(parse_ust(bytes_of("[#SETTING]\nTempo=-5\n[#0000]\nLength=480\n")).has_value());
  auto unknown = parse_ust(bytes_of("[#0000]\nLength=480\nLyric=xyz\n[#0001]\nLength=480\nLyric=あ\n"));
  ASSERT_TRUE(unknown.has_value());
  ASSERT_EQ(unknown->warnings.size(), 1u);
  EXPECT_NE(unknown->warnings[0].find("note 0"), std::string::npos);
  EXPECT_FALSE(parse_vsqx(bytes_of("<vsq4><masterTrack></vsq4>")).has_value());
  EXPECT_FALSE(parse_vsqx(bytes_of("<vsq4></vsq4>")).has_value());
  auto bad = parse_lab(bytes_of("0 100 a\n100 x b\n"));
  ASSERT_FALSE(bad.has_value());
  EXPECT_EQ(bad.error().record, 2);
  EXPECT_FALSE(parse_lab(bytes_of("200 100 a\n")).has_value());
  EXPECT_FALSE(parse_lab(bytes_of("")).has_value());
  EXPECT_EQ(read_score(bytes_of(""), ".mid").error().code, ErrorCode::unsupported);
  // Deep nesting is refused, not recursed into.
  std::string deep;
  for (int k = 0; k < 100000; ++k) deep += "<a>";
  auto d = parse_vsqx(bytes_of(deep));
  ASSERT_FALSE(d.has_value());
  EXPECT_NE(d.error().message.find("nested"), std::string::npos);
  // A tempo of 0.0001 BPM puts the note past kMaxLipFrames: refused by score_keys.
  auto slow = parse_ust(bytes_of("[#SETTING]\nTempo=0.0001\n[#0000]\nLength=480\nLyric=あ\n"));
  ASSERT_TRUE(slow.has_value());
  auto k = score_keys(*slow, {});
  ASSERT_FALSE(k.has_value());
  EXPECT_EQ(k.error().code, ErrorCode::limit_exceeded);
}

TEST(LipsyncMap, FindAndParse) {
  const auto model = test::humanoid();
  auto found = find_mouth_morphs(*model);
  ASSERT_TRUE(found.has_value());
  const char* names[] = {"あ", "い", "う", "え", "お"};
  for (std::size_t v = 0; v < 5; ++v) {
    ASSERT_TRUE(found->morph[v].has_value());
    EXPECT_EQ(model->morphs[*found->morph[v]].name, names[v]);
  }
  EXPECT_FALSE(found->morph[5].has_value());
  auto m = parse_mouth_map("# mine\n\na\tい\r\nclosed\tまばたき\nお\tあ\n", *model);
  ASSERT_TRUE(m.has_value()) << m.error().to_string();
  EXPECT_EQ(model->morphs[*m->morph[0]].name, "い");
  EXPECT_EQ(model->morphs[*m->morph[5]].name, "まばたき");
  EXPECT_EQ(model->morphs[*m->morph[4]].name, "あ");
  EXPECT_FALSE(m->morph[1].has_value());
  auto bad_shape = parse_mouth_map("a\tあ\nx\tい\n", *model);
  ASSERT_FALSE(bad_shape.has_value());
  EXPECT_EQ(bad_shape.error().record, 2);
  auto bad_morph = parse_mouth_map("a\tnot a morph\n", *model);
  ASSERT_FALSE(bad_morph.has_value());
  EXPECT_NE(bad_morph.error().message.find("not a morph"), std::string::npos);
  EXPECT_FALSE(parse_mouth_map("a あ\n", *model).has_value());
  EXPECT_FALSE(parse_mouth_map("a\tあ\na\tい\n", *model).has_value());
  EXPECT_FALSE(parse_mouth_map("# nothing\n", *model).has_value());

  model::Model none;
  none.morphs.resize(2);
  none.morphs[0].name = "まばたき";
  none.morphs[1].name = "笑い";
  auto e = find_mouth_morphs(none);
  ASSERT_FALSE(e.has_value());
  EXPECT_NE(e.error().message.find("あ い う え お"), std::string::npos);
  EXPECT_NE(e.error().message.find("a i u e o"), std::string::npos);
  none.morphs[1].name_en = "A";
  auto latin = find_mouth_morphs(none);
  ASSERT_TRUE(latin.has_value());
  EXPECT_EQ(latin->morph[0], std::optional<std::size_t>(1));
}

TEST(LipsyncMotion, ScoreMotionKeysTheModelsMorphs) {
  const auto model = test::humanoid();
  auto s = parse_ust(bytes_of(kUst));
  ASSERT_TRUE(s.has_value());
  auto k = score_keys(*s, options());
  ASSERT_TRUE(k.has_value());
  auto morphs = find_mouth_morphs(*model);
  ASSERT_TRUE(morphs.has_value());
  auto m = lipsync_motion(*k, *model, *morphs);
  ASSERT_TRUE(m.has_value());
  ASSERT_EQ(m->morph_names.size(), 5u);
  std::size_t total = 0;
  for (std::size_t c = 0; c < 5; ++c) total += k->keys[c].size();
  EXPECT_EQ(m->morph_keys.size(), total);
  // Evaluated through the pipeline: い fully on at its frame, あ off.
  const auto frames = test::evaluate(model, *m, 12, 12);
  ASSERT_EQ(frames.size(), 1u);
  EXPECT_FLOAT_EQ(frames[0].weights[*morphs->morph[1]], 1.0f);
  EXPECT_FLOAT_EQ(frames[0].weights[*morphs->morph[0]], 0.0f);
  auto bytes = vmd::write(*m);
  ASSERT_TRUE(bytes.has_value());
  auto back = vmd::read(ByteSpan(bytes->data(), bytes->size()));
  ASSERT_TRUE(back.has_value());
  EXPECT_EQ(back->motion.morph_names[0].text, "あ");

  // The closed channel on あ's morph too: that track is the sum of the two channels.
  MouthMorphs shared = *morphs;
  shared.morph[5] = shared.morph[0];
  auto ms = lipsync_motion(*k, *model, shared);
  ASSERT_TRUE(ms.has_value());
  const MouthTrack t = score_track(*k);
  const auto ev = test::evaluate(model, *ms, 0, k->last_frame);
  for (std::uint32_t f = 0; f <= k->last_frame; ++f)
    EXPECT_NEAR(ev[f].weights[*morphs->morph[0]], std::min(1.0f, t.frames[f][0] + t.frames[f][5]), 1e-6) << f;
}

}  // namespace
}  // namespace mmdkit::motion
