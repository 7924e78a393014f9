// Lossless JSON: PMX → JSON → PMX gives identical bytes (corpus, generated, every variant);
// schema errors carry the JSON path.
#include <gtest/gtest.h>

#include "mmdkit/core/text.hpp"
#include "mmdkit/formats/pmx.hpp"
#include "mmdkit/formats/pmx_generate.hpp"
#include "mmdkit/formats/pmx_json.hpp"
#include "support/corpus.hpp"

namespace mmdkit::pmx {
namespace {

void expect_json_round_trip(const std::vector<std::uint8_t>& bytes) {
  auto r = read(bytes);
  ASSERT_TRUE(r.has_value()) << r.error().to_string();
  std::string json = to_json(r->model);
  ASSERT_EQ(json.rfind("{\"format\": \"pmx\",", 0), 0u);
  auto m = from_json(json);
  ASSERT_TRUE(m.has_value()) << m.error().to_string();
  auto w = write(*m);
  ASSERT_TRUE(w.has_value()) << w.error().to_string();
  EXPECT_TRUE(*w == bytes) << "JSON round trip differs";
  // And the JSON of the re-read model is the same text.
  EXPECT_EQ(to_json(*m), json);
}

TEST(PmxJson, EveryCorpusFileRoundTripsThroughJson) {
  MMDKIT_REQUIRE_CORPUS();
  int n = 0;
  for (const auto& f : test::corpus_files("pmx")) {
    SCOPED_TRACE(f.local_path);
    expect_json_round_trip(test::read_bytes(f.path));
    ++n;
  }
  EXPECT_EQ(n, 43);
}

TEST(PmxJson, GeneratedVariantsRoundTrip) {
  for (auto variant : {GenerateVariant::pmx20_utf16, GenerateVariant::pmx21_utf8}) {
    GenerateOptions o;
    o.vertices = 500;
    o.bones = 60;
    o.morphs = 14;
    o.variant = variant;
    auto bytes = write(*generate(o));
    ASSERT_TRUE(bytes);
    expect_json_round_trip(*bytes);
  }
}

TEST(PmxJson, OneVertexPerLineAndSpecialFloats) {
  GenerateOptions o;
  o.vertices = 4;
  o.morphs = 0;
  auto m = *generate(o);
  m.vertices[1].position[0] = std::numeric_limits<float>::quiet_NaN();
  m.vertices[2].position[1] = -std::numeric_limits<float>::infinity();
  m.vertices[3].position[2] = -0.0f;
  std::string json = to_json(m);
  // 4 vertex lines, each starting with {"position".
  std::size_t lines = 0;
  for (std::size_t p = json.find("\n    {\"position\""); p != std::string::npos; p = json.find("\n    {\"position\"", p + 1))
    ++lines;
  EXPECT_EQ(lines, 4u);
  EXPECT_NE(json.find("\"nan:7fc00000\""), std::string::npos);
  EXPECT_NE(json.find("\"-inf\""), std::string::npos);
  auto back = from_json(json);
  ASSERT_TRUE(back.has_value()) << back.error().to_string();
  EXPECT_EQ(*write(*back), *write(m));
}

TEST(PmxJson, InvalidRawTextKeepsBytes) {
  GenerateOptions o;
  o.vertices = 3;
  auto m = *generate(o);
  m.name.raw = {0x41, 0x00, 0x00, 0xD8};  // "A" + lone high surrogate (UTF-16LE)
  m.name.text = decode(m.name.raw, Encoding::utf16le);
  auto bytes = *write(m);
  auto rr = read(bytes);
  ASSERT_TRUE(rr.has_value());
  EXPECT_EQ(rr->model.name.raw, m.name.raw);
  std::string json = to_json(rr->model);
  EXPECT_NE(json.find("\"raw\": \"410000d8\""), std::string::npos);
  auto back = from_json(json);
  ASSERT_TRUE(back.has_value());
  EXPECT_EQ(*write(*back), bytes);
}

// A text given as {"text", "raw"}: the raw bytes are kept while the text is what they decode to;
// an edited text wins and is encoded in the model's encoding.
TEST(PmxJson, EditedTextWinsOverStaleRaw) {
  GenerateOptions o;
  o.vertices = 3;
  auto m = *generate(o);
  const Encoding enc = m.header.encoding;
  auto name = encode_text("モデル", enc);
  ASSERT_TRUE(name);
  m.name.raw = *name;
  m.name.raw.push_back(0x00), m.name.raw.push_back(0x00);              // a NUL ...
  m.name.raw.push_back(0x00), m.name.raw.push_back(0xD8);              // ... then garbage
  if (enc == Encoding::utf8) m.name.raw = {0xE3, 0x83, 0xA2, 0x00, 0xFF};
  m.name.text = decode(m.name.raw, enc);
  auto bytes = *write(m);
  auto rr = read(bytes);
  ASSERT_TRUE(rr.has_value()) << rr.error().to_string();
  std::string json = to_json(rr->model);
  const std::string open = "\"name\": {\"text\": \"";
  const auto at = json.find(open);
  ASSERT_NE(at, std::string::npos) << json.substr(0, 600);
  // Unedited: identical bytes.
  auto same = from_json(json);
  ASSERT_TRUE(same.has_value()) << same.error().to_string();
  EXPECT_EQ(same->name.raw, m.name.raw);
  EXPECT_EQ(*write(*same), bytes);
  // Edited text: encoded anew.
  const auto end = json.find("\", \"raw\"", at);
  ASSERT_NE(end, std::string::npos);
  std::string edited = json;
  edited.replace(at + open.size(), end - at - open.size(), "新しい名前");
  auto e = from_json(edited);
  ASSERT_TRUE(e.has_value()) << e.error().to_string();
  auto want = encode_text("新しい名前", enc);
  ASSERT_TRUE(want);
  EXPECT_EQ(e->name.text, "新しい名前");
  EXPECT_EQ(e->name.raw, *want);
  auto w = write(*e);
  ASSERT_TRUE(w.has_value());
  auto back = read(*w);
  ASSERT_TRUE(back.has_value());
  EXPECT_EQ(back->model.name.text, "新しい名前");
}

TEST(PmxJson, SchemaErrorsNameThePath) {
  GenerateOptions o;
  o.vertices = 20;
  std::string json = to_json(*generate(o));
  {
    std::string bad = json;
    auto p = bad.find("\"deform\": \"", bad.find("\"vertices\""));
    // Vertex 0's deform type becomes unknown.
    bad.replace(p, 16, "\"deform\": \"XDEF");
    auto r = from_json(bad);
    ASSERT_FALSE(r.has_value());
    EXPECT_EQ(r.error().code, ErrorCode::json_schema);
    EXPECT_EQ(r.error().section, "vertices[0].deform");
  }
  {
    std::string bad = json;
    auto p = bad.find("\"edge_size\": ");
    bad.replace(p, 13, "\"edge_size\": \"x\", \"q\": ");
    auto r = from_json(bad);
    ASSERT_FALSE(r.has_value());
    EXPECT_EQ(r.error().section, "materials[0].edge_size");
  }
  {
    auto r = from_json("{\"format\": \"pmx\", \"vertices\": [{\"position\": [1, 2]}]}");
    ASSERT_FALSE(r.has_value());
    EXPECT_EQ(r.error().section, "vertices[0].position");
  }
  {
    auto r = from_json("{\"format\": \"pmx\", ");
    ASSERT_FALSE(r.has_value());
    EXPECT_EQ(r.error().code, ErrorCode::json_syntax);
    EXPECT_GE(r.error().offset, 17);
  }
  EXPECT_EQ(from_json("{\"format\": \"vmd\"}").error().section, "format");
}

TEST(PmxJson, HandWrittenMinimalDocument) {
  auto m = from_json(R"({"format": "pmx", "version": "2.1", "encoding": "utf-8",
    "index_sizes": {"vertex": 1, "texture": 1, "material": 1, "bone": 1, "morph": 1, "rigid_body": 1},
    "name": "三角",
    "vertices": [
      {"position": [0, 0, 0], "deform": "BDEF1", "bones": [0]},
      {"position": [1, 0, 0], "deform": "BDEF2", "bones": [0, -1], "weights": [0.5]},
      {"position": [0, 1, 0], "deform": "QDEF", "bones": [0, 0, 0, 0], "weights": [1, 0, 0, 0]}],
    "faces": [0, 1, 2],
    "bones": [{"name": "センター", "flags": 30}]})");
  ASSERT_TRUE(m.has_value()) << m.error().to_string();
  auto bytes = write(*m);
  ASSERT_TRUE(bytes.has_value());
  auto r = read(*bytes);
  ASSERT_TRUE(r.has_value()) << r.error().to_string();
  EXPECT_EQ(r->model.name.text, "三角");
  EXPECT_EQ(r->model.name.raw.size(), 6u);
  EXPECT_EQ(r->model.vertices[1].bones[1], -1);
  EXPECT_EQ(r->model.vertices[2].deform, DeformType::qdef);
  EXPECT_EQ(r->model.soft_bodies.size(), 0u);
  EXPECT_EQ(r->model.bones[0].flags, 30);
}

}  // namespace
}  // namespace mmdkit::pmx
