// Reading a character's files (anim/input_files.hpp): the one content-detection rule (binary
// signatures, cut signatures, mmdkit JSON), readers refusing the wrong kind of file by name, and the
// one-pose rule of load_character.
#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <limits>
#include <string>
#include <type_traits>

#include "mmdkit/anim/input_files.hpp"
#include "mmdkit/core/file.hpp"
#include "mmdkit/formats/pmx.hpp"
#include "mmdkit/formats/pmx_generate.hpp"
#include "mmdkit/formats/vmd.hpp"
#include "mmdkit/formats/vpd.hpp"
#include "support/corpus.hpp"

namespace mmdkit::anim {
namespace {

std::vector<std::uint8_t> b(const std::string& s) { return {s.begin(), s.end()}; }

// Detection itself is core's (core/file_format.hpp, tests/core/file_format_test.cpp); here: the
// signatures it knows are the formats' own, and what each format's writer produces is detected
// as that format (a new format that forgets core/file_format.cpp fails here).
TEST(InputFiles, DetectionKnowsEachFormatsOwnSignature) {
  for (vmd::Version v : {vmd::Version::v2, vmd::Version::v1}) {
    const std::string_view sig = vmd::signature_text(v);
    EXPECT_EQ(detect_format(ByteSpan(reinterpret_cast<const std::uint8_t*>(sig.data()), sig.size())).format,
              FileFormat::vmd) << sig;
  }
  EXPECT_EQ(detect_format(ByteSpan(reinterpret_cast<const std::uint8_t*>(vpd::kSignature.data()), vpd::kSignature.size()))
                .format,
            FileFormat::vpd);
  EXPECT_EQ(detect_format(ByteSpan(pmx::kSignature.data(), pmx::kSignature.size())).format, FileFormat::pmx);
  auto motion = vmd::write(vmd::Motion{});
  ASSERT_TRUE(motion);
  EXPECT_EQ(detect_format(*motion).format, FileFormat::vmd);
  auto pose = vpd::write(vpd::Pose{});
  ASSERT_TRUE(pose);
  EXPECT_EQ(detect_format(*pose).format, FileFormat::vpd);
}


TEST(InputFiles, ReadersNameWhatTheyGotInstead) {
  vmd::Motion m;
  const auto vmd_bytes = *vmd::write(m);
  std::vector<Warning> w;
  auto model = read_model(ByteSpan(vmd_bytes.data(), vmd_bytes.size()), {}, w);
  ASSERT_FALSE(model);
  EXPECT_EQ(model.error().code, ErrorCode::bad_signature);
  EXPECT_NE(model.error().message.find("not a PMD, PMX or .x model: a vmd file"), std::string::npos)
      << model.error().message;
  pmx::GenerateOptions o;
  o.vertices = 10;
  const auto pmx_bytes = *pmx::write(*pmx::generate(o));
  auto motion = read_motion(ByteSpan(pmx_bytes.data(), pmx_bytes.size()), {}, w);
  ASSERT_FALSE(motion);
  EXPECT_NE(motion.error().message.find("not a VMD motion or VPD pose: a pmx file"), std::string::npos)
      << motion.error().message;
  const auto junk = b("hello");
  motion = read_motion(ByteSpan(junk.data(), junk.size()), {}, w);
  ASSERT_FALSE(motion);
  EXPECT_NE(motion.error().message.find("neither binary nor mmdkit JSON"), std::string::npos);
  // The right kinds read, with or without geometry.
  auto full = read_model(ByteSpan(pmx_bytes.data(), pmx_bytes.size()), {}, w);
  auto lite = read_model(ByteSpan(pmx_bytes.data(), pmx_bytes.size()), InputOptions{.encoding = {}, .geometry = false}, w);
  ASSERT_TRUE(full && lite);
  EXPECT_EQ(full->vertices.size(), 10u);
  EXPECT_TRUE(lite->vertices.empty());
  EXPECT_EQ(full->bones.size(), lite->bones.size());
}

TEST(InputFiles, LoadCharacterTakesOnePoseAnywhereAndNamesTheSecond) {
  const auto dir = test::temp_dir("input_files");
  pmx::GenerateOptions o;
  o.vertices = 10;
  const auto model = dir / "m.pmx", p1 = dir / "a.vpd", p2 = dir / "b.vpd", mo = dir / "c.vmd";
  ASSERT_TRUE(write_file_atomic(model, *pmx::write(*pmx::generate(o))).has_value());
  vpd::Pose pose;
  ASSERT_TRUE(write_file_atomic(p1, *vpd::write(pose)).has_value());
  ASSERT_TRUE(write_file_atomic(p2, *vpd::write(pose)).has_value());
  ASSERT_TRUE(write_file_atomic(mo, *vmd::write(vmd::Motion{})).has_value());
  const std::filesystem::path ok[] = {p1, mo};
  auto r = load_character(model, ok, {});
  ASSERT_TRUE(r) << r.error().to_string();
  EXPECT_TRUE(r->data->has_pose());
  const std::filesystem::path two[] = {p1, mo, p2};
  r = load_character(model, two, {});
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, ErrorCode::invalid_argument);
  EXPECT_EQ(r.error().section, "inputs");
  EXPECT_EQ(r.error().file, p2.string());
}

}  // namespace
}  // namespace mmdkit::anim
