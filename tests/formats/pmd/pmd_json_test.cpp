// PMD lossless JSON: layout, raw fields only where needed, exact floats, schema errors with paths.
#include <gtest/gtest.h>

#include <bit>
#include <cstring>
#include <string>

#include "fixture.hpp"
#include "mmdkit/formats/pmd.hpp"
#include "mmdkit/formats/pmd_json.hpp"

namespace mmdkit::pmd {
namespace {

std::size_t count(const std::string& s, const std::string& what) {
  std::size_t n = 0;
  for (std::size_t at = s.find(what); at != std::string::npos; at = s.find(what, at + 1)) ++n;
  return n;
}

Model read_back(const Model& m) {
  auto b = write(m);
  EXPECT_TRUE(b);
  auto r = read(*b);
  EXPECT_TRUE(r);
  return r->model;
}

TEST(PmdJson, RoundTripsSampleByteIdentically) {
  Model m = read_back(test::sample_model());
  std::string json = to_json(m);
  EXPECT_EQ(json.rfind("{\"format\": \"pmd\",", 0), 0u);
  auto back = from_json(json);
  ASSERT_TRUE(back) << back.error().to_string();
  EXPECT_EQ(*write(*back), *write(m));
  // Raw hex only for the fields whose text does not re-encode to the stored bytes: bone 2 (garbage
  // after the NUL). The 20-byte texture without NUL re-encodes exactly (padding is NUL-free).
  EXPECT_EQ(count(json, "\"raw\": "), 1u) << json;
  EXPECT_EQ(count(json, "_raw\""), 0u) << json;
  EXPECT_NE(json.find("\"name\": {\"text\": \"左ひざ\", \"raw\": \""), std::string::npos);
  // One vertex per line: 12 values each.
  EXPECT_NE(json.find("\n    [1, 1.5, -0.25, 0, 0, -1, 0.5, 0.33333334, 1, 2, 75, 0],\n"), std::string::npos) << json;
  EXPECT_NE(json.find("\"tail\": \"joints\""), std::string::npos);
  EXPECT_NE(json.find("\"comment\": \"一行目\\r\\n二行目\""), std::string::npos);
}

TEST(PmdJson, NonFiniteFloatsRoundTripBitExactly) {
  Model m = read_back(test::sample_model());
  m.vertices[0].position[0] = std::bit_cast<float>(0x7FC01234u);  // NaN with payload
  m.vertices[0].position[1] = std::numeric_limits<float>::infinity();
  m.vertices[0].position[2] = -0.0f;
  m.joints[0].rotation[0] = 1e-45f;  // denormal
  std::string json = to_json(m);
  EXPECT_NE(json.find("\"nan:7fc01234\""), std::string::npos);
  auto back = from_json(json);
  ASSERT_TRUE(back) << back.error().to_string();
  EXPECT_EQ(std::bit_cast<std::uint32_t>(back->vertices[0].position[0]), 0x7FC01234u);
  EXPECT_EQ(std::bit_cast<std::uint32_t>(back->vertices[0].position[2]), 0x80000000u);
  EXPECT_EQ(*write(*back), *write(m));
}

TEST(PmdJson, EveryTailVariantRoundTrips) {
  for (Tail t : {Tail::none, Tail::english, Tail::toon_textures, Tail::rigid_bodies, Tail::joints}) {
    Model m = read_back(test::sample_with_tail(t, t != Tail::english));
    auto back = from_json(to_json(m));
    ASSERT_TRUE(back) << back.error().to_string();
    EXPECT_EQ(*write(*back), *write(m)) << tail_name(t);
  }
}

TEST(PmdJson, TrailingBytesKept) {
  Model m = read_back(test::sample_model());
  m.trailing = {1, 2, 0xFF};
  std::string json = to_json(m);
  EXPECT_NE(json.find("\"trailing\": \"0102ff\""), std::string::npos);
  auto back = from_json(json);
  ASSERT_TRUE(back);
  EXPECT_EQ(back->trailing, m.trailing);
}

TEST(PmdJson, SchemaErrorsNameTheJsonPath) {
  std::string json = to_json(read_back(test::sample_model()));
  auto replace = [&](const std::string& from, const std::string& to) {
    std::string s = json;
    auto at = s.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    if (at != std::string::npos) s.replace(at, from.size(), to);
    return s;
  };
  struct Case {
    std::string from, to, path;
  } cases[] = {
      {"\"parent\": 65535", "\"parent\": 65536", "bones[0].parent"},
      {"\"parent\": 0", "\"parent\": -1", "bones[1].parent"},
      {"\"iterations\": 40", "\"iterations\": \"x\"", "ik_chains[0].iterations"},
      {"\"format\": \"pmd\"", "\"format\": \"pmx\"", "format"},
      {"\"tail\": \"joints\"", "\"tail\": \"all\"", "tail"},
      {"\"mass\": 1", "\"mass\": true", "rigid_bodies[0].mass"},
      {"[1, 1.5, -0.25, 0, 0, -1, 0.5, 0.33333334, 1, 2, 75, 0]", "[1, 1.5]", "vertices[1]"},
      {"\"name\": \"センター\"", "\"nome\": \"センター\"", "bones[0].name"},
      {"\"bone_names\": [\n    {\"name\": \"center\"},", "\"bone_names\": [", "english.bone_names"},
  };
  for (const Case& c : cases) {
    auto r = from_json(replace(c.from, c.to));
    ASSERT_FALSE(r) << c.from;
    EXPECT_EQ(r.error().code, ErrorCode::json_schema) << r.error().to_string();
    EXPECT_EQ(r.error().section, c.path) << r.error().to_string();
  }
}

TEST(PmdJson, UnencodableTextNamesThePath) {
  std::string json = to_json(read_back(test::sample_model()));
  auto at = json.find("\"name\": \"センター\"");
  ASSERT_NE(at, std::string::npos);
  json.replace(at, std::string("\"name\": \"センター\"").size(), "\"name\": \"😀\"");
  auto r = from_json(json);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, ErrorCode::encoding_error);
  EXPECT_EQ(r.error().section, "bones[0].name");
}

TEST(PmdJson, SyntaxErrorHasOffset) {
  auto r = from_json("{\"format\": \"pmd\", \"version\": 1,, }");
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, ErrorCode::json_syntax);
  EXPECT_EQ(r.error().offset, 31);  // the second comma
}

TEST(PmdJson, HandWrittenMinimalModel) {
  const char* json = R"({"format": "pmd", "version": 1, "name": "箱", "comment": "",
    "vertices": [[0,0,0, 0,1,0, 0,0, 0,0, 100, 0], [1,0,0, 0,1,0, 1,0, 0,0, 100, 0], [0,0,1, 0,1,0, 0,1, 0,0, 100, 1]],
    "indices": [0, 1, 2],
    "materials": [{"diffuse": [1,1,1,1], "specular_power": 0, "specular": [0,0,0], "ambient": [0.5,0.5,0.5],
                   "toon_index": 255, "edge_flag": 0, "index_count": 3, "texture": ""}],
    "bones": [{"name": "センター", "parent": 65535, "tail": 0, "type": 1, "ik_parent": 0, "position": [0, 8, 0]}],
    "ik_chains": [], "morphs": [], "morph_display": [], "bone_frames": [], "bone_display": []})";
  auto m = from_json(json);
  ASSERT_TRUE(m) << m.error().to_string();
  EXPECT_EQ(m->tail, Tail::joints);
  auto b = write(*m);
  ASSERT_TRUE(b);
  // Mandatory part + English flag 0 + toon 1000 + 2 empty counts.
  const std::size_t mandatory = 283 + 4 + 3 * 38 + 4 + 6 + 4 + 70 + 2 + 39 + 2 + 2 + 1 + 1 + 4;
  EXPECT_EQ(b->size(), mandatory + 1 + 1000 + 4 + 4);
  auto r = read(*b);
  ASSERT_TRUE(r);
  EXPECT_EQ(r->model.name.text, "箱");
  EXPECT_EQ(r->model.bones[0].name.text, "センター");
  EXPECT_EQ(r->model.bones[0].position[1], 8.0f);
  EXPECT_EQ(r->model.vertices[2].edge_off, 1);
}

}  // namespace
}  // namespace mmdkit::pmd

namespace mmdkit::pmd {
namespace {

// A read forced to an unusual encoding (--encoding utf-8) still round-trips through JSON.
TEST(PmdJson, ForcedUtf8ReadRoundTrips) {
  auto b = write(test::sample_model());
  ASSERT_TRUE(b);
  auto r = read(*b, ReadOptions{.encoding = Encoding::utf8, .strict = false});
  ASSERT_TRUE(r);
  std::string json = to_json(r->model);
  EXPECT_NE(json.find("\"encoding\": \"utf-8\""), std::string::npos);
  auto back = from_json(json);
  ASSERT_TRUE(back) << back.error().to_string();
  EXPECT_EQ(*write(*back), *b);
}

}  // namespace
}  // namespace mmdkit::pmd

namespace mmdkit::pmd {
namespace {

// Deep nesting must not exhaust the stack (iterative parsing): a clean error, no crash.
TEST(PmdJson, DeeplyNestedInputIsAnErrorNotACrash) {
  std::string json = "{\"format\": \"pmd\", \"vertices\": " + std::string(200000, '[') + std::string(200000, ']') + "}";
  auto r = from_json(json);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, ErrorCode::json_schema);
  std::string bad = std::string(200000, '[');
  auto s = from_json(bad);
  ASSERT_FALSE(s);
  EXPECT_EQ(s.error().code, ErrorCode::json_syntax);
}

// Both text and raw bytes in the JSON: the raw bytes are kept while the text is what they decode
// to; an edited text wins, encoded and NUL-padded to the field.
TEST(PmdJson, EditedTextWinsOverStaleRaw) {
  Model m = read_back(test::sample_model());
  m.name.raw.resize(kNameSize, 0);
  m.name.raw[kNameSize - 2] = 0xAB;  // garbage after the NUL
  std::string json = to_json(m);
  ASSERT_NE(json.find("\"name\": {\"text\": \"テストモデル\", \"raw\": \""), std::string::npos) << json;
  ASSERT_NE(json.find("\"name\": {\"text\": \"左ひざ\", \"raw\": \""), std::string::npos) << json;
  // Unedited: identical bytes, garbage included.
  auto same = from_json(json);
  ASSERT_TRUE(same) << same.error().to_string();
  EXPECT_EQ(same->name.raw, m.name.raw);
  EXPECT_EQ(same->bones[2].name.raw, m.bones[2].name.raw);
  EXPECT_EQ(*write(*same), *write(m));
  // Edited texts.
  std::string edited = json;
  auto edit = [&](std::string_view from, std::string_view to) {
    auto at = edited.find(from);
    ASSERT_NE(at, std::string::npos) << from;
    edited.replace(at, from.size(), to);
  };
  edit("{\"text\": \"テストモデル\"", "{\"text\": \"新モデル\"");
  edit("{\"text\": \"左ひざ\"", "{\"text\": \"右ひざ\"");
  auto e = from_json(edited);
  ASSERT_TRUE(e) << e.error().to_string();
  auto padded = [](std::string_view text, std::size_t n) {
    auto b = encode_text(text, Encoding::cp932);
    EXPECT_TRUE(b);
    b->resize(n, 0);
    return *b;
  };
  EXPECT_EQ(e->name.text, "新モデル");
  EXPECT_EQ(e->name.raw, padded("新モデル", kNameSize));
  EXPECT_EQ(e->bones[2].name.text, "右ひざ");
  EXPECT_EQ(e->bones[2].name.raw, padded("右ひざ", kNameSize));
  Model back = read_back(*e);
  EXPECT_EQ(back.name.text, "新モデル");
  EXPECT_EQ(back.bones[2].name.text, "右ひざ");
  // An edited text that does not fit is an error at its JSON path.
  edited = json;
  edit("{\"text\": \"左ひざ\"", "{\"text\": \"あいうえおかきくけこさ\"");
  auto bad = from_json(edited);
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error().section, "bones[2].name");
}

// Files dumped before the one name form wrote the raw bytes as a sibling "<key>_raw": they still
// import to the same bytes, and an edited text still wins there.
TEST(PmdJson, OldRawSiblingFormStillImports) {
  Model m = read_back(test::sample_model());
  m.name.raw.resize(kNameSize, 0);
  m.name.raw[kNameSize - 2] = 0xAB;  // garbage after the NUL
  std::string json = to_json(m);
  // Rewrite every {"text": T, "raw": H} as the old T, "<key>_raw": H.
  std::string old;
  std::size_t at = 0;
  const std::string open = "\": {\"text\": ";
  for (std::size_t hit; (hit = json.find(open, at)) != std::string::npos;) {
    const std::size_t key_start = json.rfind('"', hit - 1) + 1;
    const std::string key = json.substr(key_start, hit - key_start);
    const std::size_t raw_at = json.find(", \"raw\": \"", hit);
    const std::size_t close = json.find("\"}", raw_at + 9);
    old += json.substr(at, hit - at) + "\": " + json.substr(hit + open.size(), raw_at - hit - open.size()) + ", \"" +
           key + "_raw\": " + json.substr(raw_at + 9, close + 1 - (raw_at + 9));
    at = close + 2;
  }
  old += json.substr(at);
  ASSERT_EQ(old.find("{\"text\""), std::string::npos) << old;
  ASSERT_NE(old.find("\"name\": \"左ひざ\", \"name_raw\": \""), std::string::npos) << old;
  auto back = from_json(old);
  ASSERT_TRUE(back) << back.error().to_string();
  EXPECT_EQ(*write(*back), *write(m));
  const std::size_t t = old.find("\"name\": \"左ひざ\"");
  old.replace(t, std::string("\"name\": \"左ひざ\"").size(), "\"name\": \"右ひざ\"");
  auto edited = from_json(old);
  ASSERT_TRUE(edited) << edited.error().to_string();
  EXPECT_EQ(edited->bones[2].name.text, "右ひざ");
  auto want = encode_text("右ひざ", Encoding::cp932);
  want->resize(kNameSize, 0);
  EXPECT_EQ(edited->bones[2].name.raw, *want);
}

TEST(PmdJson, NameObjectNeedsTextAndRaw) {
  Model m = read_back(test::sample_model());
  m.name.raw.resize(kNameSize, 0);
  m.name.raw[kNameSize - 2] = 0xAB;  // garbage after the NUL: the name is written as an object
  std::string json = to_json(m);
  const std::size_t at = json.find("\"name\": {\"text\": \"テストモデル\", \"raw\": \"");
  ASSERT_NE(at, std::string::npos) << json;
  const std::size_t end = json.find('}', at);
  json.replace(at, end + 1 - at, "\"name\": {\"text\": \"テストモデル\"}");
  auto r = from_json(json);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, ErrorCode::json_schema);
  EXPECT_EQ(r.error().section, "name");
}

}  // namespace
}  // namespace mmdkit::pmd
