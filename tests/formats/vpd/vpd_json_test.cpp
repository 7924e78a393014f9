// VPD JSON: corpus round trip vpd → json → vpd byte-exactly, non-JSON tokens, hex names, layout,
// schema and syntax errors.
#include <gtest/gtest.h>

#include <cmath>

#include <rapidjson/document.h>

#include "mmdkit/formats/vpd.hpp"
#include "mmdkit/formats/vpd_json.hpp"
#include "support/corpus.hpp"

namespace mmdkit::vpd {
namespace {

ByteSpan as_bytes(std::string_view s) { return {reinterpret_cast<const std::uint8_t*>(s.data()), s.size()}; }
std::string as_string(const std::vector<std::uint8_t>& v) { return {v.begin(), v.end()}; }

std::string round_trip(std::string_view file, std::string* json_out = nullptr) {
  auto pose = read(as_bytes(file));
  EXPECT_TRUE(pose) << pose.error().to_string();
  if (!pose) return {};
  std::string json = to_json(*pose);
  if (json_out) *json_out = json;
  auto back = from_json(json);
  EXPECT_TRUE(back) << back.error().to_string() << "\n" << json;
  if (!back) return {};
  auto out = write(*back);
  EXPECT_TRUE(out) << out.error().to_string();
  return out ? as_string(*out) : std::string();
}

TEST(VpdJsonCorpus, RoundTripsByteExactly) {
  MMDKIT_REQUIRE_CORPUS();
  auto files = test::corpus_files("vpd");
  ASSERT_EQ(files.size(), 8u);
  for (const auto& f : files) {
    std::string bytes = as_string(test::read_bytes(f.path));
    std::string json;
    EXPECT_TRUE(round_trip(bytes, &json) == bytes) << f.local_path;
    EXPECT_TRUE(json.starts_with("{\"format\": \"vpd\",")) << json.substr(0, 40);
    // Valid JSON for a standard parser, with the bone count of the file.
    rapidjson::Document d;
    d.Parse(json.c_str());
    ASSERT_FALSE(d.HasParseError()) << f.local_path;
    auto pose = read(as_bytes(bytes));
    ASSERT_TRUE(pose);
    EXPECT_EQ(d["bones"].Size(), pose->bones.size());
    // The corpus files follow MMD's layout (LF): no layout members needed.
    EXPECT_EQ(json.find("\"gaps\""), std::string::npos) << f.local_path;
    EXPECT_EQ(json.find("\"header\""), std::string::npos) << f.local_path;
  }
}

TEST(VpdJson, TokensLayoutAndHexSurvive) {
  const std::string text = "Vocaloid Pose Data file\r\n"
                           "// comment\r\n"
                           "m \x82\xA0.pmx;\r\n"
                           "02;\r\n"
                           "Bone7{a\"b\\c\r\n"
                           "  +1,.5,2.;\r\n"
                           "  1e-3,0,0,1E+0;\r\n"
                           "}\r\n"
                           "Bone1{\x82\r\n"  // a lone lead byte: not decodable, kept as hex
                           "  0,0,0;0,0,0,1;}\r\n"
                           "Morph0{m\r\n"
                           "  -0.000;\r\n"
                           "}";
  std::string json;
  EXPECT_EQ(round_trip(text, &json), text);
  EXPECT_NE(json.find("[\"+1\", \".5\", \"2.\"]"), std::string::npos) << json;  // not JSON numbers
  EXPECT_NE(json.find("[1e-3, 0, 0, 1E+0]"), std::string::npos) << json;       // as written
  EXPECT_NE(json.find("\"name\": {\"text\": \"\", \"raw\": \"82\"}"), std::string::npos) << json;
  EXPECT_NE(json.find("\"index\": \"7\""), std::string::npos) << json;
  EXPECT_NE(json.find("\"count\": \"02\""), std::string::npos) << json;
  EXPECT_NE(json.find("\"model_file\": \"m あ.pmx\""), std::string::npos) << json;
  EXPECT_NE(json.find("\"name\": \"a\\\"b\\\\c\""), std::string::npos) << json;
  EXPECT_NE(json.find("\"weight\": -0.000"), std::string::npos) << json;
}

TEST(VpdJson, TokensBeyondDoubleRangeBecomeStrings) {
  // RapidJSON refuses numbers beyond double range (even as strings): "0.0e06657" (value 0),
  // "1e999" (inf as float) and a 400-digit integer are written as JSON strings instead.
  for (const std::string& token : {std::string("0.0e06657"), std::string("1e999"), std::string("-2.5E+400"),
                                   "1" + std::string(400, '0'), std::string("1e-300")}) {
    const std::string text = "Vocaloid Pose Data file\r\n\r\nm.osm;\r\n1;\r\n\r\nBone0{a\r\n  " + token +
                             ",0,0;\r\n  0,0,0,1;\r\n}\r\n";
    std::string json;
    EXPECT_EQ(round_trip(text, &json), text) << token;
  }
}

TEST(VpdJson, HandWrittenJsonUsesCanonicalLayoutAndEditedValues) {
  const std::string json = R"({"format": "vpd", "line_ending": "lf", "model_file": "x.pmx",
    "bones": [{"name": "センター", "translation": [0, 1.5, 0], "rotation": [0, 0, 0, 1]}],
    "morphs": [{"name": "まばたき", "weight": 0.25}]})";
  auto pose = from_json(json);
  ASSERT_TRUE(pose) << pose.error().to_string();
  EXPECT_EQ(pose->bones[0].translation[1], 1.5f);
  auto out = write(*pose);
  ASSERT_TRUE(out);
  EXPECT_EQ(as_string(*out), "Vocaloid Pose Data file\n\nx.pmx;\t\t// \x90\x65\x83\x74\x83\x40\x83\x43\x83\x8b\x96\xbc\n"
                             "1;\t\t\t\t// \x91\x8d\x83\x7c\x81\x5b\x83\x59\x83\x7b\x81\x5b\x83\x93\x90\x94\n\n"
                             "Bone0{\x83\x5A\x83\x93\x83\x5E\x81\x5B\n  0,1.5,0;\t\t\t\t// trans x,y,z\n"
                             "  0,0,0,1;\t\t// Quaternion x,y,z,w\n}\n\n"
                             "Morph0{\x82\xDC\x82\xCE\x82\xBD\x82\xAB\n  0.25;\t\t\t\t// weight\n}\n\n");
}

TEST(VpdJson, EditedEulerWinsOverTheQuaternion) {
  // Issue 13.4: as in VMD JSON, edited Euler angles win; unedited ones keep the stored numbers.
  auto pose = from_json(R"({"format": "vpd", "model_file": "x.pmx", "bones": [
    {"name": "a", "translation": [0, 0, 0], "rotation": [0, 0, 0, 1], "euler": [0, 0, 0]},
    {"name": "b", "translation": [0, 0, 0], "rotation": [0, 0, 0, 1], "euler": [0, 90, 0]}]})");
  ASSERT_TRUE(pose) << pose.error().to_string();
  EXPECT_EQ(pose->bones[0].rotation, (std::array<float, 4>{0, 0, 0, 1}));
  const std::array<float, 4> q = pose->bones[1].rotation;  // 90 degrees on MMD's Y dial = -90 about +Y
  EXPECT_NEAR(std::fabs(q[1]), std::sqrt(0.5f), 1e-6);
  EXPECT_NEAR(std::fabs(q[3]), std::sqrt(0.5f), 1e-6);
  EXPECT_LT(q[1] * q[3], 0.0f);
  auto out = write(*pose);
  ASSERT_TRUE(out);
  EXPECT_NE(as_string(*out).find("Bone1{b\r\n  0,0,0;"), std::string::npos) << as_string(*out);
}

TEST(VpdJson, Errors) {
  auto syntax = from_json("{\"format\": \"vpd\",");
  ASSERT_FALSE(syntax);
  EXPECT_EQ(syntax.error().code, ErrorCode::json_syntax);
  EXPECT_GE(syntax.error().offset, 17);

  struct Case {
    std::string json, section;
    ErrorCode code = ErrorCode::json_schema;
  };
  const std::string ok_bone = R"({"name": "a", "translation": [0, 0, 0], "rotation": [0, 0, 0, 1]})";
  std::vector<Case> cases = {
      {R"({"format": "vmd", "model_file": "m", "bones": []})", ".format"},
      {R"({"format": "vpd", "bones": []})", ".model_file"},
      {R"({"format": "vpd", "model_file": "m"})", ".bones"},
      {R"({"format": "vpd", "model_file": "m", "bones": [)" + ok_bone +
           R"(, {"name": "b", "translation": [0, 0], "rotation": [0, 0, 0, 1]}]})",
       ".bones[1].translation"},
      {R"({"format": "vpd", "model_file": "m", "bones": [{"name": "b", "translation": [0, 0, 0], "rotation": [0, "x", 0, 1]}]})",
       ".bones[0].rotation[1]"},
      {R"({"format": "vpd", "model_file": "m", "bones": [{"translation": [0, 0, 0], "rotation": [0, 0, 0, 1]}]})",
       ".bones[0].name"},
      {R"({"format": "vpd", "model_file": "m", "bones": [], "morphs": [{"name": "w"}]})", ".morphs[0].weight"},
      {R"({"format": "vpd", "model_file": "m", "bones": [], "morphs": [{"name": "w", "weight": 1, "gaps": ["a"]}]})",
       ".morphs[0].gaps"},
      {R"({"format": "vpd", "model_file": "m", "bones": [{"name": "😀", "translation": [0, 0, 0], "rotation": [0, 0, 0, 1]}]})",
       ".bones[0].name", ErrorCode::encoding_error},
      {R"({"format": "vpd", "model_file": "m", "line_ending": "cr", "bones": []})", ".line_ending"},
  };
  for (const auto& c : cases) {
    auto r = from_json(c.json);
    ASSERT_FALSE(r) << c.json;
    EXPECT_EQ(r.error().code, c.code) << c.json << "\n" << r.error().to_string();
    EXPECT_EQ(r.error().section, c.section) << c.json << "\n" << r.error().to_string();
  }
}

// Names written as text plus hex: the hex is kept while the text is what it decodes to; an edited
// text wins and is encoded.
TEST(VpdJson, EditedNameTextWinsOverStaleHex) {
  const std::string text = "Vocaloid Pose Data file\r\n"
                           "\r\n"
                           "m.pmx\x82;\r\n"
                           "1;\r\n"
                           "Bone0{\x83\x5A\x82\r\n"  // セ + a lone lead byte: kept as hex
                           "  0,0,0;0,0,0,1;}\r\n";
  std::string json;
  EXPECT_EQ(round_trip(text, &json), text);
  ASSERT_NE(json.find("\"name\": {\"text\": \"セ\", \"raw\": \"835a82\"}"), std::string::npos) << json;
  ASSERT_NE(json.find("\"model_file\": {\"text\": \"m.pmx\", \"raw\": \"6d2e706d7882\"}"), std::string::npos) << json;
  {
    // Files dumped before the one name form give "<key>_hex" beside the text: still read.
    std::string old = json;
    auto to_old = [&](std::string_view from, std::string_view to) {
      auto at = old.find(from);
      ASSERT_NE(at, std::string::npos) << from;
      old.replace(at, from.size(), to);
    };
    to_old("{\"text\": \"セ\", \"raw\": \"835a82\"}", "\"セ\", \"name_hex\": \"835a82\"");
    to_old("{\"text\": \"m.pmx\", \"raw\": \"6d2e706d7882\"}", "\"m.pmx\", \"model_file_hex\": \"6d2e706d7882\"");
    auto back = from_json(old);
    ASSERT_TRUE(back) << back.error().to_string();
    auto bytes = write(*back);
    ASSERT_TRUE(bytes);
    EXPECT_EQ(as_string(*bytes), text);
    to_old("\"セ\", \"name_hex\"", "\"センター\", \"name_hex\"");  // an edited text still wins
    auto edited_old = from_json(old);
    ASSERT_TRUE(edited_old) << edited_old.error().to_string();
    EXPECT_EQ(edited_old->bones[0].name.text, "センター");
  }
  std::string edited = json;
  auto edit = [&](std::string_view from, std::string_view to) {
    auto at = edited.find(from);
    ASSERT_NE(at, std::string::npos) << from;
    edited.replace(at, from.size(), to);
  };
  edit("{\"text\": \"セ\"", "{\"text\": \"センター\"");
  edit("{\"text\": \"m.pmx\"", "{\"text\": \"あ.pmx\"");
  auto pose = from_json(edited);
  ASSERT_TRUE(pose) << pose.error().to_string();
  ASSERT_EQ(pose->bones.size(), 1u);
  EXPECT_EQ(as_string(pose->bones[0].name.raw), "\x83\x5A\x83\x93\x83\x5E\x81\x5B");
  EXPECT_EQ(pose->bones[0].name.text, "センター");
  EXPECT_EQ(as_string(pose->model_file.raw), "\x82\xA0.pmx");
  auto out = write(*pose);
  ASSERT_TRUE(out) << out.error().to_string();
  EXPECT_NE(as_string(*out).find("Bone0{\x83\x5A\x83\x93\x83\x5E\x81\x5B\r\n"), std::string::npos);
  // An edited text the encoding cannot hold is an error at its path.
  edited = json;
  edit("{\"text\": \"セ\"", "{\"text\": \"😀\"");
  auto bad = from_json(edited);
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error().section, ".bones[0].name.text");
}

}  // namespace
}  // namespace mmdkit::vpd
