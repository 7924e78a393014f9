#include <gtest/gtest.h>

#include <random>
#include <vector>

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

// detect_legacy_encoding counts GBK's invalid sequences only when GBK could still win: the same
// choice as scoring both encodings in full (the rule written out below) on random names mixing
// CP932 kana and kanji, GBK hanzi, half-width katakana, ASCII and invalid bytes.
TEST(Text, DetectionEqualsTheFullScore) {
  auto full_score = [](std::span<const ByteSpan> names) {
    long cp932 = 0, gbk = 0;
    for (ByteSpan name : names) {
      bool ascii = true;
      for (std::uint8_t c : name) ascii = ascii && c < 0x80;
      if (ascii) continue;
      cp932 -= 20 * static_cast<long>(count_invalid(name, Encoding::cp932));
      gbk -= 20 * static_cast<long>(count_invalid(name, Encoding::gbk));
      for (std::size_t i = 0; i < name.size(); ++i) {
        const std::uint8_t a = name[i];
        if (a < 0x80) continue;
        const std::uint8_t b = i + 1 < name.size() ? name[i + 1] : 0;
        if ((a >= 0x81 && a <= 0x83) || (a >= 0x88 && a <= 0x98)) {
          if (b >= 0x40 && b <= 0xFC && b != 0x7F) ++cp932;
        } else if (a >= 0xA1 && a <= 0xDF) {
          cp932 -= 1;
        }
        if (((a >= 0xA1 && a <= 0xA9) || (a >= 0xB0 && a <= 0xD7)) && b >= 0xA1 && b <= 0xFE) ++gbk;
        if (a >= 0x81 && b >= 0x40) ++i;
      }
    }
    return gbk > cp932 ? Encoding::gbk : Encoding::cp932;
  };
  std::mt19937 rng(7);
  const std::vector<std::vector<std::uint8_t>> pieces = {
      {0x82, 0xA0}, {0x83, 0x41}, {0x88, 0x9F}, {0x93, 0xAA},  // CP932 kana, kanji
      {0xB2, 0xE2}, {0xC4, 0xA3}, {0xA1, 0xA1}, {0xD6, 0xD0},  // GBK hanzi, symbols
      {0xB1},       {0xC3},       {'a'},        {0xFF, 0x30},  // half-width katakana, ASCII, invalid
      {0x81}};                                                 // a cut lead byte
  int gbk = 0, cp932 = 0;
  for (int round = 0; round < 400; ++round) {
    std::vector<std::vector<std::uint8_t>> names(1 + rng() % 6);
    for (auto& n : names)
      for (std::size_t k = rng() % 8; k > 0; --k) {
        const auto& p = pieces[rng() % pieces.size()];
        n.insert(n.end(), p.begin(), p.end());
      }
    std::vector<ByteSpan> spans(names.begin(), names.end());
    const Encoding want = full_score(spans);
    EXPECT_EQ(detect_legacy_encoding(spans), want) << "round " << round;
    (want == Encoding::gbk ? gbk : cp932) += 1;
  }
  EXPECT_GT(gbk, 20);  // both answers occur
  EXPECT_GT(cp932, 20);
}

}  // namespace
}  // namespace mmdkit
