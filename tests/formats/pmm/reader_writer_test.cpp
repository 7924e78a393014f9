// Projects built in code (both versions): sizes summed from the documented layout, round trips
// through bytes and JSON, version 1's model counts, truncations and bad counts with their offsets,
// the writer's refusals; and values of the corpus sample project from PMM-NOTES.md.
#include <gtest/gtest.h>

#include <cstring>

#include "formats/pmm/fixture.hpp"
#include "mmdkit/formats/pmm.hpp"
#include "support/corpus.hpp"

namespace mmdkit::pmm {
namespace {

using test::sample_counts;
using test::sample_document;
using test::sample_size;

ReadOptions v1_options() {
  ReadOptions o;
  o.model_counts = [](const ModelRef&) { return std::optional<ModelCounts>(sample_counts()); };
  return o;
}

// "モデル0" is 7 bytes in CP932 (3 double-byte characters + 1 digit); "model0" 6.
constexpr std::size_t kNameBytes = 7, kNameEnBytes = 6;

TEST(PmmWrite, V2SizeIsTheDocumentedLayoutsSum) {
  auto w = write(sample_document(Version::v2));
  ASSERT_TRUE(w.has_value()) << w.error().to_string();
  EXPECT_EQ(w->size(), sample_size(Version::v2, 2, kNameBytes, kNameEnBytes));
  EXPECT_EQ(std::memcmp(w->data(), "Polygon Movie maker 0002\0\0\0\0\0\0", 30), 0);
}

TEST(PmmWrite, V1SizeIsTheDocumentedLayoutsSum) {
  auto w = write(sample_document(Version::v1));
  ASSERT_TRUE(w.has_value()) << w.error().to_string();
  EXPECT_EQ(w->size(), sample_size(Version::v1, 2, kNameBytes, 0));
  EXPECT_EQ(std::memcmp(w->data(), "Polygon Movie maker 0001", 24), 0);
}

TEST(PmmRead, V2RoundTripsAndKeepsTheValues) {
  auto w = write(sample_document(Version::v2));
  ASSERT_TRUE(w.has_value());
  auto r = read(*w);
  ASSERT_TRUE(r.has_value()) << r.error().to_string();
  const Document& d = r->document;
  EXPECT_TRUE(r->warnings.empty());
  ASSERT_EQ(d.models.size(), 2u);
  EXPECT_EQ(d.models[1].name.text, "モデル1");
  EXPECT_EQ(d.models[1].name_en.text, "model1");
  EXPECT_EQ(d.models[0].path.text, "UserFile\\Model\\m0.pmd");
  EXPECT_EQ(d.models[0].bone_names[1].text, "左足ＩＫ");
  ASSERT_EQ(d.models[0].bone_keys.size(), 2u);
  EXPECT_EQ(d.models[0].bone_keys[1].frame, 20);
  EXPECT_EQ(d.models[0].bone_keys[1].physics_disabled, 1);
  EXPECT_EQ(d.models[0].bone_keys[0].translation, (std::array<float, 3>{1, 2, 3}));
  EXPECT_EQ(d.models[1].transform_order, 1);
  EXPECT_EQ(d.camera.keys[1].frame, 45);
  EXPECT_EQ(d.accessories[0].name.text, "stage01.x");
  EXPECT_FLOAT_EQ(accessory_opacity(d.accessories[0].keys[0].opacity_visible), 0.8f);
  EXPECT_TRUE(accessory_visible(d.accessories[0].keys[0].opacity_visible));
  EXPECT_EQ(d.end_frame, 733);
  EXPECT_EQ(d.preferred_fps, 60.0f);
  EXPECT_EQ(d.gravity.keys[0].frame, 90);
  EXPECT_EQ(d.self_shadow.keys[0].frame, 7);
  ASSERT_EQ(d.selections.size(), 2u);
  auto again = write(d);
  ASSERT_TRUE(again.has_value());
  EXPECT_TRUE(*again == *w);
  auto j = from_json(to_json(d));
  ASSERT_TRUE(j.has_value()) << j.error().to_string();
  auto w2 = write(*j);
  ASSERT_TRUE(w2.has_value());
  EXPECT_TRUE(*w2 == *w);
}

TEST(PmmRead, V1NeedsTheModelCountsAndRoundTripsWithThem) {
  auto w = write(sample_document(Version::v1));
  ASSERT_TRUE(w.has_value());
  auto refused = read(*w);
  ASSERT_FALSE(refused.has_value());
  EXPECT_EQ(refused.error().code, ErrorCode::unsupported);
  // The keys of model 0 start after: signature, header (16 + 6), selected model, model count,
  // 2 names x 20, then model 0's index, name[20], path[256], draw order, visible, selected bone,
  // 4 selected morphs, 3 expansion bytes + their count, scroll, last frame.
  const std::size_t keys_at = 30 + 22 + 2 + 40 + 1 + 20 + 256 + 1 + 1 + 4 + 16 + 1 + 3 + 4 + 4;
  EXPECT_EQ(refused.error().offset, static_cast<std::int64_t>(keys_at));
  EXPECT_NE(refused.error().message.find("m0.pmd"), std::string::npos) << refused.error().message;

  std::vector<std::string> asked;
  ReadOptions o;
  o.model_counts = [&](const ModelRef& m) {
    asked.push_back(std::to_string(m.index) + ":" + m.path->text);
    return std::optional<ModelCounts>(sample_counts());
  };
  auto r = read(*w, o);
  ASSERT_TRUE(r.has_value()) << r.error().to_string();
  EXPECT_EQ(asked, (std::vector<std::string>{"0:UserFile\\Model\\m0.pmd", "1:UserFile\\Model\\m1.pmd"}));
  const Document& d = r->document;
  EXPECT_EQ(d.version, Version::v1);
  EXPECT_EQ(d.models[1].name.text, "モデル1");
  EXPECT_EQ(d.models[0].initial_bone_keys.size(), 3u);
  EXPECT_EQ(d.models[0].bone_keys[1].frame, 20);
  EXPECT_EQ(d.models[0].bone_states.size(), 3u);
  EXPECT_EQ(d.v1_tail, (std::vector<std::uint8_t>{1, 2, 3, 4, 5}));
  auto again = write(d);
  ASSERT_TRUE(again.has_value());
  EXPECT_TRUE(*again == *w);
  auto j = from_json(to_json(d));
  ASSERT_TRUE(j.has_value()) << j.error().to_string();
  auto w2 = write(*j);
  ASSERT_TRUE(w2.has_value()) << w2.error().to_string();
  EXPECT_TRUE(*w2 == *w);
}

TEST(PmmRead, V1WithWrongCountsFailsCleanly) {
  auto w = write(sample_document(Version::v1));
  ASSERT_TRUE(w.has_value());
  for (std::size_t bones : {0u, 1u, 2u, 4u, 100u, 1000000u}) {
    ReadOptions o;
    o.model_counts = [&](const ModelRef&) { return std::optional<ModelCounts>(ModelCounts{bones, 2, 1}); };
    auto r = read(*w, o);
    if (r) {
      // A wrong count may still parse by accident; it can never write different bytes.
      auto again = write(r->document);
      ASSERT_TRUE(again.has_value());
      EXPECT_TRUE(*again == *w);
    }
  }
}

TEST(PmmRead, EveryPrefixIsATruncationAtOrBeforeTheCut) {
  for (Version v : {Version::v1, Version::v2}) {
    auto w = write(sample_document(v, 1));
    ASSERT_TRUE(w.has_value());
    // The last mandatory field ends before the selection section (v2: 1 + 5 bytes) / the v1 tail.
    const std::size_t mandatory = w->size() - (v == Version::v2 ? 6 : 5);
    for (std::size_t n = 0; n <= w->size(); ++n) {
      SCOPED_TRACE(n);
      auto r = read(ByteSpan(w->data(), n), v1_options());
      if (n < mandatory) {
        ASSERT_FALSE(r.has_value());
        EXPECT_LE(r.error().offset, static_cast<std::int64_t>(n));
        EXPECT_TRUE(r.error().code == ErrorCode::truncated || r.error().code == ErrorCode::count_too_large ||
                    r.error().code == ErrorCode::empty_input)
            << r.error().to_string();
      } else {
        ASSERT_TRUE(r.has_value()) << r.error().to_string();
        auto again = write(r->document);
        ASSERT_TRUE(again.has_value());
        EXPECT_TRUE(std::equal(again->begin(), again->end(), w->begin(), w->begin() + static_cast<std::ptrdiff_t>(n)) &&
                    again->size() == n);
      }
    }
  }
}

TEST(PmmRead, AHugeKeyCountIsCountTooLargeAtTheCount) {
  auto w = write(sample_document(Version::v2, 1));
  ASSERT_TRUE(w.has_value());
  // The regular bone key count follows the 3 initial bone keys of model 0.
  const std::size_t count_at = 30 + 23 + 2 + 1 + (1 + kNameBytes) + (1 + kNameEnBytes) + 256 + 1 +
                               (4 + 9 + 9 + 3) + (4 + 9 + 3) + 8 + 8 + 1 + 1 + 4 + 16 + 1 + 3 + 4 + 4 + 3 * 58;
  std::int32_t was = 0;
  std::memcpy(&was, w->data() + count_at, 4);
  ASSERT_EQ(was, 2);  // the fixture's two regular keys: the offset is right
  const std::int32_t huge = 0x7fffffff;
  std::memcpy(w->data() + count_at, &huge, 4);
  auto r = read(*w);
  ASSERT_FALSE(r.has_value());
  EXPECT_EQ(r.error().code, ErrorCode::count_too_large);
  EXPECT_EQ(r.error().offset, static_cast<std::int64_t>(count_at));
  EXPECT_EQ(r.error().section, "model 0 bone keyframes");
  const std::int32_t negative = -1;
  std::memcpy(w->data() + count_at, &negative, 4);
  r = read(*w);
  ASSERT_FALSE(r.has_value());
  EXPECT_EQ(r.error().code, ErrorCode::invalid_value);
}

TEST(PmmRead, SignatureAndEmptyInput) {
  EXPECT_EQ(read(ByteSpan{}).error().code, ErrorCode::empty_input);
  const std::string vmd = "Vocaloid Motion Data 0002";
  auto r = read(ByteSpan(reinterpret_cast<const std::uint8_t*>(vmd.data()), vmd.size()));
  EXPECT_EQ(r.error().code, ErrorCode::bad_signature);
  const std::string cut = "Polygon Movie";
  r = read(ByteSpan(reinterpret_cast<const std::uint8_t*>(cut.data()), cut.size()));
  EXPECT_EQ(r.error().code, ErrorCode::truncated);
}

TEST(PmmRead, TrailingBytesAreKeptWithAWarningOrRefusedWhenStrict) {
  auto w = write(sample_document(Version::v2, 1));
  ASSERT_TRUE(w.has_value());
  const std::size_t end = w->size();
  w->insert(w->end(), {0xAA, 0xBB, 0xCC});
  auto r = read(*w);
  ASSERT_TRUE(r.has_value());
  ASSERT_EQ(r->warnings.size(), 1u);
  EXPECT_EQ(r->warnings[0].offset, static_cast<std::int64_t>(end));
  EXPECT_EQ(r->document.trailing.size(), 3u);
  EXPECT_TRUE(*write(r->document) == *w);
  ReadOptions strict;
  strict.strict = true;
  EXPECT_EQ(read(*w, strict).error().code, ErrorCode::trailing_data);
}

TEST(PmmWrite, ListsThatMustAgreeAreChecked) {
  Document d = sample_document(Version::v2, 1);
  d.models[0].bone_states.pop_back();
  auto w = write(d);
  ASSERT_FALSE(w.has_value());
  EXPECT_EQ(w.error().code, ErrorCode::invalid_argument);
  d = sample_document(Version::v2, 1);
  d.models[0].model_keys[0].ik_enabled.push_back(1);
  EXPECT_EQ(write(d).error().code, ErrorCode::invalid_argument);
  d = sample_document(Version::v2, 1);
  d.accessory_names.clear();
  EXPECT_EQ(write(d).error().code, ErrorCode::invalid_argument);
  d = sample_document(Version::v1, 1);
  d.model_names_v1.clear();
  EXPECT_EQ(write(d).error().code, ErrorCode::invalid_argument);
  d = sample_document(Version::v2, 1);
  d.models[0].path.assign(std::string(300, 'a'));
  EXPECT_EQ(write(d).error().code, ErrorCode::encoding_error);
}

TEST(PmmJson, NamesWithGarbageKeepTheirBytesAndEditedTextWins) {
  Document d = sample_document(Version::v2, 1);
  auto w = write(d);
  ASSERT_TRUE(w.has_value());
  auto r = read(*w);
  ASSERT_TRUE(r.has_value());
  Document& doc = r->document;
  doc.models[0].path.raw[100] = 0x41;  // garbage after the NUL
  const std::string j = to_json(doc);
  EXPECT_NE(j.find("\"raw\""), std::string::npos);
  auto back = from_json(j);
  ASSERT_TRUE(back.has_value()) << back.error().to_string();
  EXPECT_EQ(back->models[0].path.raw, doc.models[0].path.raw);
  // An edited text replaces the stored bytes.
  std::string edited = j;
  const std::string needle = "UserFile\\\\Model\\\\m0.pmd";  // as JSON escapes it
  const auto at = edited.find(needle);
  ASSERT_NE(at, std::string::npos);
  edited.replace(at, needle.size(), "UserFile\\\\Model\\\\x0.pmd");
  back = from_json(edited);
  ASSERT_TRUE(back.has_value()) << back.error().to_string();
  EXPECT_EQ(back->models[0].path.text, "UserFile\\Model\\x0.pmd");
  auto w2 = write(*back);
  ASSERT_TRUE(w2.has_value());
  auto again = read(*w2);
  ASSERT_TRUE(again.has_value());
  EXPECT_EQ(again->document.models[0].path.text, "UserFile\\Model\\x0.pmd");
}

TEST(PmmJson, SchemaErrorsNameThePath) {
  const std::string j = to_json(sample_document(Version::v2, 1));
  std::string bad = j;
  const auto at = bad.find("\"output_width\": 512");
  ASSERT_NE(at, std::string::npos);
  bad.replace(at, 19, "\"output_width\": \"x\"");
  auto r = from_json(bad);
  ASSERT_FALSE(r.has_value());
  EXPECT_EQ(r.error().code, ErrorCode::json_schema);
  EXPECT_NE(r.error().message.find("output_width"), std::string::npos);
  EXPECT_EQ(from_json("{").error().code, ErrorCode::json_syntax);
}

// Values of MMD's sample project that ../shared/reference/PMM-NOTES.md records.
TEST(PmmCorpusValues, TheSampleProjectHasTheNotedSettings) {
  MMDKIT_REQUIRE_CORPUS();
  auto f = mmdkit::test::corpus_file("oigami__PMMEditor/UserFile/サンプル（きしめんAllStar).pmm");
  ASSERT_TRUE(f.has_value());
  auto r = read_file(f->path);
  ASSERT_TRUE(r.has_value()) << r.error().to_string();
  const Document& d = r->document;
  EXPECT_EQ(d.version, Version::v2);
  EXPECT_EQ(d.output_width, 512);
  EXPECT_EQ(d.output_height, 288);
  EXPECT_EQ(d.preferred_fps, 60.0f);
  EXPECT_EQ(d.begin_frame, 0);
  EXPECT_EQ(d.end_frame, 733);
  ASSERT_EQ(d.models.size(), 11u);
  EXPECT_EQ(d.models[0].name.text, "ダミーボーン");
  EXPECT_EQ(d.models[1].name.text, "ダミーボーン");
  EXPECT_EQ(d.accessories.size(), 29u);
  EXPECT_EQ(d.camera.keys.size(), 14u);
  EXPECT_EQ(d.light.keys.size(), 18u);
  bool stage = false, negi = false;
  for (const auto& a : d.accessories) {
    stage |= a.path.text.ends_with("stage01.x");
    negi |= a.path.text.ends_with("ネギ(右手).vac");
  }
  EXPECT_TRUE(stage);
  EXPECT_TRUE(negi);
}

}  // namespace
}  // namespace mmdkit::pmm
