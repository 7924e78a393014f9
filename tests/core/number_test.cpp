#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <random>

#include "mmdkit/core/number.hpp"

namespace mmdkit {
namespace {

TEST(Number, FloatTextRoundTripsBitExactly) {
  std::mt19937 rng(42);
  for (int i = 0; i < 200000; ++i) {
    std::uint32_t bits = rng();
    float v = std::bit_cast<float>(bits);
    if (!std::isfinite(v)) continue;
    auto back = parse_float(format_float(v));
    ASSERT_TRUE(back) << format_float(v);
    ASSERT_EQ(std::bit_cast<std::uint32_t>(*back), bits) << format_float(v);
  }
}

TEST(Number, ShortestForms) {
  EXPECT_EQ(format_float(0.1f), "0.1");
  EXPECT_EQ(format_float(-0.0f), "-0");
  EXPECT_EQ(format_float(1.0f), "1");
}

TEST(Number, NonFiniteAsStrings) {
  float nan = std::bit_cast<float>(0x7fc00001u);
  std::string t = format_float_json(nan);
  EXPECT_EQ(t, "\"nan:7fc00001\"");
  auto back = parse_float(t.substr(1, t.size() - 2));
  ASSERT_TRUE(back);
  EXPECT_EQ(std::bit_cast<std::uint32_t>(*back), 0x7fc00001u);
  EXPECT_EQ(format_float_json(-INFINITY), "\"-inf\"");
  EXPECT_FALSE(parse_float("1.0x"));
  EXPECT_FALSE(parse_float(""));
  // Only "inf", "-inf" and "nan:XXXXXXXX" stand for non-finite values; from_chars' own spellings
  // and decimal overflow are rejected.
  EXPECT_FALSE(parse_float("nan"));
  EXPECT_FALSE(parse_float("NaN"));
  EXPECT_FALSE(parse_float("infinity"));
  EXPECT_FALSE(parse_float("nan(123)"));
  EXPECT_FALSE(parse_float("1e39"));
}

TEST(Number, Hex) {
  std::uint8_t b[] = {0x00, 0xAB, 0xFF};
  EXPECT_EQ(to_hex(b), "00abff");
  auto back = from_hex("00ABff");
  ASSERT_TRUE(back);
  EXPECT_EQ(back->size(), 3u);
  EXPECT_EQ((*back)[1], 0xAB);
  EXPECT_FALSE(from_hex("0"));
  EXPECT_FALSE(from_hex("zz"));
}

}  // namespace
}  // namespace mmdkit
