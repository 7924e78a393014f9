// Issue 13.5: every JSON importer (vmd, vpd, pmd, pmx) gives the line and column of a syntax error
// as well as its byte offset.
#include <gtest/gtest.h>

#include <functional>
#include <string>

#include "mmdkit/formats/pmd_json.hpp"
#include "mmdkit/formats/pmx_json.hpp"
#include "mmdkit/formats/vmd_json.hpp"
#include "mmdkit/formats/vpd_json.hpp"

namespace mmdkit {
namespace {

Error error_of(const std::string& format, const std::string& text) {
  if (format == "vmd") return vmd::from_json(text).error();
  if (format == "vpd") return vpd::from_json(text).error();
  if (format == "pmd") return pmd::from_json(text).error();
  return pmx::from_json(text).error();
}

TEST(JsonSyntaxPosition, EveryImporterGivesLineAndColumn) {
  for (const std::string format : {"vmd", "vpd", "pmd", "pmx"}) {
    SCOPED_TRACE(format);
    // Line 3 holds the stray comma after a two-character (6-byte) Japanese name.
    const std::string text = "{\n  \"format\": \"" + format + "\",\r\n  \"名前\" ,\n}\n";
    const Error e = error_of(format, text);
    EXPECT_EQ(e.code, ErrorCode::json_syntax) << e.to_string();
    EXPECT_EQ(e.offset, static_cast<std::int64_t>(text.find(" ,") + 1)) << e.to_string();
    EXPECT_EQ(e.line, 3) << e.to_string();
    EXPECT_EQ(e.column, 8) << e.to_string();  // 2 spaces, quote, 2 characters, quote, space, ','
    EXPECT_NE(e.to_string().find("line 3, column 8, byte "), std::string::npos) << e.to_string();
  }
}

}  // namespace
}  // namespace mmdkit
