// Findings of fuzz_vmd in vmd::to_json / vmd::from_json, reduced to the smallest input.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "mmdkit/formats/vmd.hpp"
#include "mmdkit/formats/vmd_json.hpp"

namespace {

// fuzz_vmd, input tests/regress/inputs/fuzz_vmd/crash-bd8e2e0d...: a bone name whose text starts
// with U+0001 (raw bytes 01 00 14 ...) is written by to_json as the JSON string "\u0001", and
// from_json rejects it: "bone_names[78].name: must be a string, found a number". Cause:
// src/formats/vmd/json.cpp marks JSON numbers (kept as text) with the in-band prefix
// kNumberMark = '\x01', so a real string starting with U+0001 reads as a number. Expected: the
// JSON round trip is lossless for every name (write(from_json(to_json(m))) == write(m)).
TEST(RegressVmdJson, NameStartingWithU0001RoundTrips) {
  mmdkit::vmd::Motion m;
  auto sig = mmdkit::vmd::signature_text(mmdkit::vmd::Version::v2);
  std::copy(sig.begin(), sig.end(), m.signature.begin());
  m.model_name.raw.assign(20, 0);
  mmdkit::vmd::TrackName name;
  name.raw = {0x01, 0x00, 0x14, 0x14, 0x14, 0x14, 0x14, 0x6b, 0x6b, 0x6b, 0x6b, 0x6b, 0x6b, 0x6b, 0x6b};
  name.text = "\x01";
  m.bone_names = {name};
  mmdkit::vmd::BoneKey k;
  k.name = 0;
  k.interpolation = mmdkit::vmd::encode_bone_interpolation(mmdkit::vmd::kLinearCurve, mmdkit::vmd::kLinearCurve,
                                                           mmdkit::vmd::kLinearCurve, mmdkit::vmd::kLinearCurve);
  m.bone_keys = {k};
  m.sections_present = 2;
  auto bytes = mmdkit::vmd::write(m);
  ASSERT_TRUE(bytes) << bytes.error().to_string();
  auto read = mmdkit::vmd::read(*bytes);
  ASSERT_TRUE(read) << read.error().to_string();
  ASSERT_EQ(read->motion.bone_names.size(), 1u);
  EXPECT_EQ(read->motion.bone_names[0].text, "\x01");  // the name decodes to U+0001 (NUL ends it)
  auto back = mmdkit::vmd::from_json(mmdkit::vmd::to_json(read->motion));
  ASSERT_TRUE(back) << back.error().to_string();
  auto again = mmdkit::vmd::write(*back);
  ASSERT_TRUE(again) << again.error().to_string();
  EXPECT_EQ(*again, *bytes);
}

}  // namespace
