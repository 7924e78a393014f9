// Reading a character's files (anim/input_files.hpp): the one content-detection rule (binary
// signatures, cut signatures, mmdkit JSON), readers refusing the wrong kind of file by name, and the
// one-pose rule of load_character.
#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <limits>
#include <string>

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

std::vector<std::uint8_t> pmd_header(float version) {
  std::vector<std::uint8_t> v = b("Pmd");
  std::uint8_t f[4];
  std::memcpy(f, &version, 4);
  v.insert(v.end(), f, f + 4);
  return v;
}

DetectedFormat detect(const std::vector<std::uint8_t>& v) { return detect_format(ByteSpan(v.data(), v.size())); }

TEST(InputFiles, DetectsBinarySignaturesIncludingCutOnes) {
  EXPECT_EQ(detect(b("PMX \x00\x00\x00\x40")).format, FileFormat::pmx);
  EXPECT_EQ(detect(pmd_header(1.0f)).format, FileFormat::pmd);
  EXPECT_EQ(detect(b("Pmd")).format, FileFormat::pmd);  // cut inside the version: the reader says so
  EXPECT_EQ(detect(pmd_header(std::numeric_limits<float>::quiet_NaN())).format, FileFormat::unknown);
  EXPECT_EQ(detect(pmd_header(1000.0f)).format, FileFormat::unknown);
  EXPECT_EQ(detect(b("Vocaloid Motion Data 0002")).format, FileFormat::vmd);
  EXPECT_EQ(detect(b("Vocaloid Motion Data file")).format, FileFormat::vmd);
  EXPECT_EQ(detect(b("Vocaloid M")).format, FileFormat::vmd);  // 10 bytes tell VMD from VPD
  EXPECT_EQ(detect(b("Vocaloid ")).format, FileFormat::unknown);
  EXPECT_EQ(detect(b("Vocaloid Pose Data file\r\n")).format, FileFormat::vpd);
  EXPECT_EQ(detect(b("Vocaloid P")).format, FileFormat::vpd);
  EXPECT_EQ(detect(b("PMX")).format, FileFormat::unknown);
  EXPECT_EQ(detect({}).format, FileFormat::unknown);
  for (const auto& v : {b("PMX \x00"), pmd_header(1.0f), b("Vocaloid Motion Data 0002")}) EXPECT_FALSE(detect(v).json);
}

TEST(InputFiles, DetectsMmdkitJsonByItsFormatMember) {
  DetectedFormat d = detect(b("  \n{\"format\": \"vpd\", \"bones\": []}"));
  EXPECT_EQ(d.format, FileFormat::vpd);
  EXPECT_TRUE(d.json);
  d = detect(b("\xEF\xBB\xBF{\"format\":\"PMX\"}"));  // BOM, upper case
  EXPECT_EQ(d.format, FileFormat::pmx);
  EXPECT_TRUE(d.json);
  EXPECT_EQ(detect(b("{\"name\": \"format\", \"format\" : \"vmd\"}")).format, FileFormat::vmd);
  EXPECT_EQ(detect(b("{\"format\": \"obj\"}")).format, FileFormat::unknown);
  EXPECT_EQ(detect(b("{\"bones\": []}")).format, FileFormat::unknown);
  EXPECT_EQ(detect(b("[\"format\", \"vmd\"]")).format, FileFormat::unknown);  // not an object
  // The member must be within the first 4096 bytes.
  EXPECT_EQ(detect(b("{\"pad\": \"" + std::string(5000, 'x') + "\", \"format\": \"vmd\"}")).format,
            FileFormat::unknown);
}

TEST(InputFiles, ReadersNameWhatTheyGotInstead) {
  vmd::Motion m;
  const auto vmd_bytes = *vmd::write(m);
  std::vector<Warning> w;
  auto model = read_model(ByteSpan(vmd_bytes.data(), vmd_bytes.size()), {}, w);
  ASSERT_FALSE(model);
  EXPECT_EQ(model.error().code, ErrorCode::bad_signature);
  EXPECT_NE(model.error().message.find("not a PMD or PMX model: a vmd file"), std::string::npos)
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
