#include <gtest/gtest.h>

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

}  // namespace
}  // namespace mmdkit
