#include <gtest/gtest.h>

#include <cstdio>
#include <vector>

#include "mmdkit/core/error.hpp"
#include "mmdkit/core/printable.hpp"
#include "mmdkit/core/text.hpp"

namespace mmdkit {
namespace {

ByteSpan span(const std::string& s) { return {reinterpret_cast<const std::uint8_t*>(s.data()), s.size()}; }

TEST(Text, DecodesCp932) {
  // "センター" in CP932.
  std::string raw = "\x83\x5A\x83\x93\x83\x5E\x81\x5B";
  EXPECT_EQ(decode_text(span(raw), Encoding::cp932), "センター");
  EXPECT_EQ(count_invalid(span(raw), Encoding::cp932), 0u);
}

TEST(Text, DropsCutDoubleByteCharacterAtEnd) {
  std::string raw = "\x83\x5A\x83";  // セ + lone lead byte
  EXPECT_EQ(decode_text(span(raw), Encoding::cp932), "セ");
  EXPECT_EQ(count_invalid(span(raw), Encoding::cp932), 0u);
}

TEST(Text, ReplacesInvalidBytes) {
  std::string raw = "a\x80z";  // 0x80 is not a CP932 character
  std::string out = decode_text(span(raw), Encoding::cp932);
  EXPECT_EQ(out, "a\xEF\xBF\xBDz");
  EXPECT_EQ(count_invalid(span(raw), Encoding::cp932), 1u);
}

TEST(Text, EncodesRoundTrip) {
  auto r = encode_text("左ひざ", Encoding::cp932);
  ASSERT_TRUE(r);
  EXPECT_EQ(decode_text(*r, Encoding::cp932), "左ひざ");
  auto u16 = encode_text("左ひざ", Encoding::utf16le);
  ASSERT_TRUE(u16);
  EXPECT_EQ(u16->size(), 6u);
  EXPECT_EQ(decode_text(*u16, Encoding::utf16le), "左ひざ");
}

TEST(Text, EncodeRejectsUnrepresentable) {
  auto r = encode_text("😀", Encoding::cp932);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, ErrorCode::encoding_error);
}

TEST(Text, UntilNul) {
  std::string raw("ab\0cd", 5);
  EXPECT_EQ(until_nul(span(raw)).size(), 2u);
  std::string full = "abcd";
  EXPECT_EQ(until_nul(span(full)).size(), 4u);
}

TEST(Text, DetectsGbkAndCp932) {
  auto gbk = encode_text("头部骨骼左手腕", Encoding::gbk);
  ASSERT_TRUE(gbk);
  ByteSpan g[] = {*gbk};
  EXPECT_EQ(detect_legacy_encoding(g), Encoding::gbk);
  auto sj = encode_text("センター左ひざ上半身", Encoding::cp932);
  ASSERT_TRUE(sj);
  ByteSpan s[] = {*sj};
  EXPECT_EQ(detect_legacy_encoding(s), Encoding::cp932);
}

TEST(Text, ParsesEncodingNames) {
  EXPECT_EQ(parse_encoding_name("Shift_JIS"), Encoding::cp932);
  EXPECT_EQ(parse_encoding_name("GB2312"), Encoding::gbk);
  EXPECT_FALSE(parse_encoding_name("latin1"));
}

// Synthetic names of both kinds: the Japanese names MMD models and motions use (full-width kana
// and kanji, and the half-width katakana MMD's own ダミーボーン.pmd names its bones with), and the
// Chinese (GB2312) names of models saved on Chinese Windows. Each list as one file is read in its
// own encoding; name by name, every Japanese name stays CP932 (MMD is a Japanese program: CP932
// unless GBK reads clearly better) and the Chinese names are counted (a two-hanzi name whose bytes
// all fall in CP932's half-width range reads as plausible katakana too, and then CP932 wins).
constexpr const char* kJapaneseNames[] = {
    "センター", "上半身", "下半身", "首", "頭", "左肩", "左腕", "左ひじ", "左手首", "右足", "右ひざ", "右足首",
    "左足ＩＫ", "右つま先ＩＫ", "両目", "まばたき", "笑い", "あ", "い", "う", "え", "お", "ウィンク", "はぅ",
    "眉", "髪", "スカート", "ネクタイ", "全ての親", "グルーブ", "左親指１", "右中指２", "ダミーボーン",
    "ﾎﾞｰﾝ01", "ﾎﾞｰﾝ30", "ｾﾝﾀｰ", "ﾀﾞﾐｰ", "ﾈｸﾀｲ", "ﾘﾎﾞﾝ", "ﾎﾟﾆｰﾃｰﾙ", "ｽｶｰﾄ前", "髪ﾎﾞｰﾝ１"};
constexpr const char* kChineseNames[] = {
    "头部", "左手腕", "上半身", "下半身", "眨眼", "微笑", "左肩", "右肩", "左腿", "右腿", "头发", "身体",
    "中心", "左脚", "右脚", "左手", "右手", "眼睛", "嘴", "笑", "闭眼", "惊讶", "生气", "裙子", "领带",
    "腰", "胸", "头", "颈", "左臂", "右臂", "左膝", "右膝", "左脚踝", "右脚踝", "眉毛", "测试模型", "头发左"};

constexpr std::size_t kGbkNamesFoundAlone = 14;  // of 38: measured, see the test
constexpr std::size_t kGbkFilesFound[] = {135, 161, 191, 199};  // of 200 files of 3, 5, 10, 20 names: measured

std::vector<std::vector<std::uint8_t>> encode_all(std::span<const char* const> names, Encoding enc) {
  std::vector<std::vector<std::uint8_t>> out;
  for (const char* n : names) {
    auto e = encode_text(n, enc);
    EXPECT_TRUE(e) << n;
    if (e) out.push_back(*e);
  }
  return out;
}

TEST(Text, DetectionPrefersCp932AndFindsGbkFiles) {
  const auto ja = encode_all(kJapaneseNames, Encoding::cp932);
  const auto zh = encode_all(kChineseNames, Encoding::gbk);
  const std::vector<ByteSpan> ja_spans(ja.begin(), ja.end()), zh_spans(zh.begin(), zh.end());
  EXPECT_EQ(detect_legacy_encoding(ja_spans), Encoding::cp932);
  EXPECT_EQ(detect_legacy_encoding(zh_spans), Encoding::gbk);
  for (std::size_t i = 0; i < ja.size(); ++i) {
    const ByteSpan one[] = {ja[i]};
    EXPECT_EQ(detect_legacy_encoding(one), Encoding::cp932) << kJapaneseNames[i];
  }
  std::size_t gbk = 0;
  for (std::size_t i = 0; i < zh.size(); ++i) {
    const ByteSpan one[] = {zh[i]};
    gbk += detect_legacy_encoding(one) == Encoding::gbk;
  }
  std::printf("Chinese names read as GBK one at a time: %zu of %zu\n", gbk, zh.size());
  EXPECT_GE(gbk, kGbkNamesFoundAlone) << "of " << zh.size();
  // Files of k names drawn from each list (deterministic draws): Japanese files stay CP932 always;
  // Chinese files are found more often the more names they have.
  std::uint32_t seed = 12345;
  auto next = [&seed] { return seed = seed * 1664525u + 1013904223u, seed >> 8; };
  for (std::size_t k : {3u, 5u, 10u, 20u}) {
    std::size_t found = 0, japanese_ok = 0;
    for (int round = 0; round < 200; ++round) {
      std::vector<ByteSpan> zf, jf;
      for (std::size_t i = 0; i < k; ++i) {
        zf.push_back(zh[next() % zh.size()]);
        jf.push_back(ja[next() % ja.size()]);
      }
      found += detect_legacy_encoding(zf) == Encoding::gbk;
      japanese_ok += detect_legacy_encoding(jf) == Encoding::cp932;
    }
    std::printf("files of %zu names: Chinese read as GBK %zu of 200, Japanese as CP932 %zu of 200\n", k, found, japanese_ok);
    EXPECT_EQ(japanese_ok, 200u) << k;
    EXPECT_GE(found, kGbkFilesFound[k == 3 ? 0 : k == 5 ? 1 : k == 10 ? 2 : 3]) << k;
  }
}

// MMD's own ダミーボーン.pmd (bundled with MMD): the model name in full-width katakana, 30 bones
// ﾎﾞｰﾝ01..ﾎﾞｰﾝ30 in half-width katakana (ce de b0 dd 30 31: GBK would read 无拜01).
TEST(Text, MmdDummyBoneModelIsCp932) {
  std::vector<std::vector<std::uint8_t>> names = {*encode_text("ダミーボーン", Encoding::cp932)};
  for (int i = 1; i <= 30; ++i) {
    std::vector<std::uint8_t> b = {0xCE, 0xDE, 0xB0, 0xDD};
    b.push_back(std::uint8_t('0' + i / 10));
    b.push_back(std::uint8_t('0' + i % 10));
    names.push_back(b);
  }
  const std::vector<ByteSpan> spans(names.begin(), names.end());
  EXPECT_EQ(detect_legacy_encoding(spans), Encoding::cp932);
  EXPECT_EQ(decode_text(names[1], Encoding::cp932), "ﾎﾞｰﾝ01");
  // Bytes invalid in CP932 and valid in GBK still read as GBK, one name at a time: 上半身 (the
  // second hanzi's eb c9 is no CP932 pair) and 左手腕 (f3 ca: a CP932 user-defined character).
  const auto body = *encode_text("上半身", Encoding::gbk), wrist = *encode_text("左手腕", Encoding::gbk);
  const ByteSpan one[] = {body}, other[] = {wrist};
  EXPECT_EQ(detect_legacy_encoding(one), Encoding::gbk);
  EXPECT_EQ(detect_legacy_encoding(other), Encoding::gbk);
}

// Diagnostics stay one line whatever a name holds: control characters escaped, UTF-8 untouched.
TEST(Text, PrintableEscapesControlCharacters) {
  EXPECT_EQ(printable("\nネクタイJ1"), "\\nネクタイJ1");
  EXPECT_EQ(printable("a\rb\tc\x01" "d\x7f"), "a\\rb\\tc\\x01d\\x7f");
  EXPECT_EQ(printable("左ひざ 'x'"), "左ひざ 'x'");
  Error e{ErrorCode::invalid_value, "joint '\nネクタイJ1' is inverted", "joints", 44, -1, "m.pmd"};
  EXPECT_EQ(e.to_string(), "m.pmd: section 'joints', record 44: invalid_value: joint '\\nネクタイJ1' is inverted");
}

}  // namespace
}  // namespace mmdkit
