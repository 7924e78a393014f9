// Findings of fuzz_vpd in vpd::to_json / vpd::from_json.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "mmdkit/formats/vpd.hpp"
#include "mmdkit/formats/vpd_json.hpp"

namespace {

mmdkit::ByteSpan span(const std::string& s) { return {reinterpret_cast<const std::uint8_t*>(s.data()), s.size()}; }

// fuzz_vpd, input tests/regress/inputs/fuzz_vpd/crash-51cc9381...: a number token "0.0e06657"
// (valid VPD syntax, value 0) is copied verbatim into the JSON as a number; RapidJSON rejects
// exponents beyond double range even with kParseNumbersAsStringsFlag ("Number too big to be stored
// in double"), so from_json(to_json(pose)) fails. Expected: the JSON round trip is lossless; e.g.
// write such tokens as JSON strings, like the tokens that are not JSON number syntax.
TEST(RegressVpdJson, HugeExponentTokenRoundTrips) {
  for (const char* token : {"0.0e06657", "1e999", "-2.5E+400"}) {
    const std::string text = std::string("Vocaloid Pose Data file\r\n\r\nm.osm;\r\n1;\r\n\r\nBone0{a\r\n  ") + token +
                             ",0,0;\r\n  0,0,0,1;\r\n}\r\n";
    auto pose = mmdkit::vpd::read(span(text));
    ASSERT_TRUE(pose) << token << ": " << pose.error().to_string();
    auto back = mmdkit::vpd::from_json(mmdkit::vpd::to_json(*pose));
    ASSERT_TRUE(back) << token << ": " << back.error().to_string();
    auto bytes = mmdkit::vpd::write(*back);
    ASSERT_TRUE(bytes) << token;
    EXPECT_EQ(std::string(bytes->begin(), bytes->end()), text) << token;
  }
}

// fuzz_vpd_json, input tests/regress/inputs/fuzz_vpd_json/crash-bfbcc2ca...: a model file name
// "//" written as "//;" reads back as a comment, so the written file could not be read ("input ends
// where the bone count was expected"). A name VPD cannot hold is refused by write; the names it can
// hold still round-trip.
TEST(RegressVpdJson, ModelFileNameVpdReadsAsACommentIsRefused) {
  for (const char* name : {"//", "//x.pmx", " m.pmx", "\\tm.pmx"}) {
    const std::string json = std::string(R"({"format": "vpd", "encoding": "cp932", "line_ending": "crlf", "model_file": ")") +
                             name + R"(", "bones": [], "morphs": []})";
    auto pose = mmdkit::vpd::from_json(json);
    ASSERT_TRUE(pose) << name << ": " << pose.error().to_string();
    auto bytes = mmdkit::vpd::write(*pose);
    ASSERT_FALSE(bytes) << name;
    EXPECT_EQ(bytes.error().code, mmdkit::ErrorCode::invalid_argument) << name;
  }
  for (const char* name : {"m.pmx", "a//b.pmx", "m.pmx "}) {
    const std::string json = std::string(R"({"format": "vpd", "encoding": "cp932", "line_ending": "crlf", "model_file": ")") +
                             name + R"(", "bones": [], "morphs": []})";
    auto pose = mmdkit::vpd::from_json(json);
    ASSERT_TRUE(pose) << name;
    auto bytes = mmdkit::vpd::write(*pose);
    ASSERT_TRUE(bytes) << name << ": " << bytes.error().to_string();
    auto back = mmdkit::vpd::read(mmdkit::ByteSpan(bytes->data(), bytes->size()));
    ASSERT_TRUE(back) << name << ": " << back.error().to_string();
    EXPECT_EQ(back->model_file.text, name);
  }
}

}  // namespace
