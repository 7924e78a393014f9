// core/json.hpp: the one JSON string escaper and line/column of a byte offset.
#include "core/json.hpp"

#include <gtest/gtest.h>

#include <string>

namespace mmdkit::json {
namespace {

TEST(Json, StringEscapesQuotesBackslashAndControlBytesOnly) {
  EXPECT_EQ(string("a\"b\\c"), "\"a\\\"b\\\\c\"");
  EXPECT_EQ(string("\n\r\t"), "\"\\n\\r\\t\"");
  EXPECT_EQ(string(std::string("\x01\x1f\0", 3)), "\"\\u0001\\u001f\\u0000\"");
  EXPECT_EQ(string("センター/\x7f"), "\"センター/\x7f\"");  // UTF-8, '/' and DEL as they are
  EXPECT_EQ(string(""), "\"\"");
  std::string out = "x";
  append_string(out, "y");
  EXPECT_EQ(out, "x\"y\"");
}

TEST(Json, PositionCountsLinesAndUtf8Characters) {
  const std::string_view t = "{\n  \"a\": 1,\r\n  \"名前\": x\n}";
  EXPECT_EQ(position(t, 0).line, 1);
  EXPECT_EQ(position(t, 0).column, 1);
  EXPECT_EQ(position(t, 1).column, 2);  // the '\n' itself is on line 1
  const std::size_t x = t.find('x');
  const Position p = position(t, x);
  EXPECT_EQ(p.line, 3);   // "\r\n" ends line 2 once
  EXPECT_EQ(p.column, 9);  // 2 spaces, quote, 2 characters (6 bytes), quote, colon, space, then x
  EXPECT_EQ(position(t, t.size() + 100).line, 4);  // past the end = the end
}

TEST(Json, SyntaxErrorCarriesLineColumnAndOffset) {
  const std::string_view t = "{\n  \"a\": ]\n}";
  const Error e = syntax_error(t, 9, "Invalid value.").error();
  EXPECT_EQ(e.code, ErrorCode::json_syntax);
  EXPECT_EQ(e.offset, 9);
  EXPECT_EQ(e.line, 2);
  EXPECT_EQ(e.column, 8);
  EXPECT_EQ(e.to_string(), "section 'json', line 2, column 8, byte 9: json_syntax: Invalid value.");
}

}  // namespace
}  // namespace mmdkit::json
