// Format detection by content (core/file_format.hpp): binary signatures, cut signatures, mmdkit
// JSON by its "format" member.
#include "mmdkit/core/file_format.hpp"

#include <gtest/gtest.h>

#include <cstring>
#include <limits>
#include <string>
#include <vector>

namespace mmdkit {
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

TEST(FileFormat, DetectsBinarySignaturesIncludingCutOnes) {
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
  EXPECT_EQ(detect(b("Polygon Movie maker 0002")).format, FileFormat::pmm);
  EXPECT_EQ(detect(b("Polygon Movie maker 0001")).format, FileFormat::pmm);
  EXPECT_EQ(detect(b("Polygon Mo")).format, FileFormat::pmm);  // cut: the reader says where
  EXPECT_EQ(detect(b("Polygon M")).format, FileFormat::unknown);
  EXPECT_EQ(detect({}).format, FileFormat::unknown);
  for (const auto& v : {b("PMX \x00"), pmd_header(1.0f), b("Vocaloid Motion Data 0002")}) EXPECT_FALSE(detect(v).json);
}

TEST(FileFormat, DetectsMmdkitJsonByItsFormatMember) {
  DetectedFormat d = detect(b("  \n{\"format\": \"vpd\", \"bones\": []}"));
  EXPECT_EQ(d.format, FileFormat::vpd);
  EXPECT_TRUE(d.json);
  d = detect(b("\xEF\xBB\xBF{\"format\":\"PMX\"}"));  // BOM, upper case
  EXPECT_EQ(d.format, FileFormat::pmx);
  EXPECT_TRUE(d.json);
  EXPECT_EQ(detect(b("{\"name\": \"format\", \"format\" : \"vmd\"}")).format, FileFormat::vmd);
  EXPECT_EQ(detect(b("{\"format\": \"pmm\", \"version\": 2}")).format, FileFormat::pmm);
  EXPECT_EQ(detect(b("{\"format\": \"obj\"}")).format, FileFormat::unknown);
  EXPECT_EQ(detect(b("{\"bones\": []}")).format, FileFormat::unknown);
  EXPECT_EQ(detect(b("[\"format\", \"vmd\"]")).format, FileFormat::unknown);  // not an object
  // The member must be within the first 4096 bytes.
  EXPECT_EQ(detect(b("{\"pad\": \"" + std::string(5000, 'x') + "\", \"format\": \"vmd\"}")).format,
            FileFormat::unknown);
}

TEST(FileFormat, NamesEveryFormat) {
  EXPECT_EQ(file_format_name(FileFormat::vmd), "vmd");
  EXPECT_EQ(file_format_name(FileFormat::vpd), "vpd");
  EXPECT_EQ(file_format_name(FileFormat::pmd), "pmd");
  EXPECT_EQ(file_format_name(FileFormat::pmx), "pmx");
  EXPECT_EQ(file_format_name(FileFormat::x), "x");
  EXPECT_EQ(file_format_name(FileFormat::pmm), "pmm");
  EXPECT_EQ(file_format_name(FileFormat::unknown), "unknown");
}

}  // namespace
}  // namespace mmdkit
