// Hostile counts (docs/LIMITS.md): for every count field of every reader, a small valid file whose
// count is replaced by the largest value its field holds must fail fast with count_too_large or
// truncated (or, for VMD's optional sections, end the parse with a warning and keep the bytes as
// trailing data), and the process's peak RSS must stay small: nothing is reserved from a count
// before it is checked against the bytes left.
//
// The offsets of the count fields are computed here from the format layouts (docs/formats/*.md), and the
// total sizes of the files built in code are asserted first, so that a wrong offset fails loudly.
#include <gtest/gtest.h>
#include <sys/resource.h>

#include <chrono>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "mmdkit/formats/pmd.hpp"
#include "mmdkit/formats/pmd_json.hpp"
#include "mmdkit/formats/pmm.hpp"
#include "formats/pmm/fixture.hpp"
#include "mmdkit/formats/pmx.hpp"
#include "mmdkit/formats/pmx_json.hpp"
#include "mmdkit/formats/vmd.hpp"
#include "mmdkit/formats/vmd_json.hpp"
#include "mmdkit/formats/vpd.hpp"
#include "mmdkit/formats/vpd_json.hpp"

namespace {

using Bytes = std::vector<std::uint8_t>;
using mmdkit::ErrorCode;

long peak_rss_kib() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return u.ru_maxrss;
}

/// Peak RSS may grow by at most this much over a whole test (ASan's own bookkeeping included).
constexpr long kMaxGrowthKiB = 64 * 1024;

struct Field {
  const char* what;
  std::size_t offset;
  int width;  // 1, 2 or 4 bytes
};

Bytes with_max(Bytes b, const Field& f) {
  for (int i = 0; i < f.width; ++i) b.at(f.offset + static_cast<std::size_t>(i)) = 0xFF;
  return b;
}
Bytes with_value(Bytes b, std::size_t offset, std::uint32_t v) {
  std::memcpy(b.data() + offset, &v, 4);
  return b;
}

bool fails_on_size(ErrorCode c) { return c == ErrorCode::count_too_large || c == ErrorCode::truncated; }

// ------------------------------------------------------------------------------------------- VMD

Bytes small_vmd() {
  mmdkit::vmd::Motion m;
  m.signature = {};
  auto sig = mmdkit::vmd::signature_text(mmdkit::vmd::Version::v2);
  std::memcpy(m.signature.data(), sig.data(), sig.size());
  m.model_name.raw.assign(20, 0);
  m.sections_present = 6;
  mmdkit::vmd::PropertyKey p;  // one property key without IK states
  p.frame = 0;
  m.property_keys = {p};
  auto w = mmdkit::vmd::write(m);
  EXPECT_TRUE(w) << w.error().to_string();
  return w ? *w : Bytes{};
}

TEST(Limits, VmdHugeCountsFailFastOrEndAsTrailingData) {
  const Bytes base = small_vmd();
  // 50 header bytes, six u32 counts, one property key: frame u32, visible u8, IK count u32.
  ASSERT_EQ(base.size(), 50u + 6 * 4 + 9);
  const long before = peak_rss_kib();
  const auto t0 = std::chrono::steady_clock::now();
  const Field mandatory[] = {{"bone count", 50, 4}, {"morph count", 54, 4}};
  for (const Field& f : mandatory) {
    auto r = mmdkit::vmd::read(with_max(base, f));
    ASSERT_FALSE(r) << f.what;
    EXPECT_TRUE(fails_on_size(r.error().code)) << f.what << ": " << r.error().to_string();
    EXPECT_GE(r.error().offset, static_cast<std::int64_t>(f.offset)) << f.what;
    auto s = mmdkit::vmd::summarize(with_max(base, f));
    ASSERT_FALSE(s) << f.what;
    EXPECT_EQ(s.error().code, r.error().code) << f.what;
  }
  // Optional sections: a count that cannot be right ends the parse; the bytes from that count on
  // are kept as trailing data with a warning naming the offset (an error when strict).
  const Field optional[] = {{"camera count", 58, 4}, {"light count", 62, 4}, {"self-shadow count", 66, 4},
                            {"property count", 70, 4}, {"IK state count", 79, 4}};
  for (const Field& f : optional) {
    Bytes in = with_max(base, f);
    auto r = mmdkit::vmd::read(in);
    if (r) {
      EXPECT_FALSE(r->warnings.empty()) << f.what;
      EXPECT_FALSE(r->motion.trailing.empty()) << f.what;
      EXPECT_LE(r->motion.trailing_offset, static_cast<std::int64_t>(f.offset)) << f.what;
      auto strict = mmdkit::vmd::read(in, mmdkit::vmd::ReadOptions{.encoding = std::nullopt, .strict = true});
      ASSERT_FALSE(strict) << f.what;
      EXPECT_EQ(strict.error().code, ErrorCode::trailing_data) << f.what;
    } else {
      EXPECT_TRUE(fails_on_size(r.error().code)) << f.what << ": " << r.error().to_string();
    }
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_LT(seconds, 2.0);
  EXPECT_LT(peak_rss_kib() - before, kMaxGrowthKiB);
}

// ------------------------------------------------------------------------------------------- PMD

template <std::size_t N>
mmdkit::pmd::FixedText<N> zero_text() {
  mmdkit::pmd::FixedText<N> t;
  t.raw.assign(N, 0);
  return t;
}

Bytes small_pmd() {
  using namespace mmdkit::pmd;
  Model m;
  m.name = zero_text<kNameSize>();
  m.comment = zero_text<kCommentSize>();
  Bone b;
  b.name = zero_text<kNameSize>();
  m.bones = {b};
  IkChain ik;  // no links
  m.ik_chains = {ik};
  Morph mo;  // no offsets
  mo.name = zero_text<kNameSize>();
  m.morphs = {mo};
  for (auto& t : m.toon_textures) t = zero_text<kToonNameSize>();
  m.tail = Tail::joints;
  auto w = write(m);
  EXPECT_TRUE(w) << w.error().to_string();
  return w ? *w : Bytes{};
}

TEST(Limits, PmdHugeCountsFailFast) {
  const Bytes base = small_pmd();
  // 283 header; vertex, face, material counts (u32); bone count u16 + 39; IK count u16 + 11;
  // morph count u16 + 25; morph display u8, bone frames u8, bone display u32; English flag u8;
  // 10 toon names × 100; rigid body count u32; joint count u32.
  ASSERT_EQ(base.size(), 283u + 12 + 2 + 39 + 2 + 11 + 2 + 25 + 1 + 1 + 4 + 1 + 1000 + 4 + 4);
  const long before = peak_rss_kib();
  const Field mandatory[] = {
      {"vertex count", 283, 4},   {"face index count", 287, 4}, {"material count", 291, 4},
      {"bone count", 295, 2},     {"IK chain count", 336, 2},
      {"morph count", 349, 2},    {"morph offset count", 371, 4}, {"bone display count", 378, 4},
  };
  for (const Field& f : mandatory) {
    auto r = mmdkit::pmd::read(with_max(base, f));
    ASSERT_FALSE(r) << f.what;
    EXPECT_TRUE(fails_on_size(r.error().code)) << f.what << ": " << r.error().to_string();
    EXPECT_GE(r.error().offset, static_cast<std::int64_t>(f.offset)) << f.what;
  }
  // u8 counts of 255 (× 2 bytes per link / display entry) can fit in the 1000 toon bytes that follow: they must not crash or grow
  // memory, whatever they parse to.
  const Field small[] = {{"IK link count", 342, 1}, {"morph display count", 376, 1}, {"bone frame count", 377, 1}};
  for (const Field& f : small) (void)mmdkit::pmd::read(with_max(base, f));
  // Optional tail: a rigid body / joint count beyond the bytes ends the parse as trailing data.
  const Field tail[] = {{"rigid body count", 1383, 4}, {"joint count", 1387, 4}};
  for (const Field& f : tail) {
    auto r = mmdkit::pmd::read(with_max(base, f));
    if (r) {
      EXPECT_FALSE(r->warnings.empty()) << f.what;
      EXPECT_EQ(r->model.trailing_offset, static_cast<std::int64_t>(f.offset)) << f.what;
    } else {
      EXPECT_TRUE(fails_on_size(r.error().code)) << f.what << ": " << r.error().to_string();
    }
  }
  EXPECT_LT(peak_rss_kib() - before, kMaxGrowthKiB);
}

// ------------------------------------------------------------------------------------------- PMX

Bytes small_pmx() {
  using namespace mmdkit::pmx;
  Model m;
  m.header.encoding = mmdkit::Encoding::utf8;
  m.header.vertex_index_size = m.header.texture_index_size = m.header.material_index_size = 1;
  m.header.bone_index_size = m.header.morph_index_size = m.header.rigid_body_index_size = 1;
  m.textures = {Text{}};
  Bone b;
  b.flags = kIk;  // tail as offset, IK with no links
  m.bones = {b};
  Morph mo;
  mo.type = MorphType::vertex;
  m.morphs = {mo};
  m.display_frames = {DisplayFrame{}};
  auto w = write(m);
  EXPECT_TRUE(w) << w.error().to_string();
  return w ? *w : Bytes{};
}

TEST(Limits, PmxHugeCountsAndLengthsFailFast) {
  const Bytes base = small_pmx();
  // 17 header; 4 empty strings; vertex, face, texture counts; 1 empty texture string; material
  // count; bone count + bone (2 strings, pos, parent, layer, flags, tail offset, IK target,
  // iterations, angle, link count); morph count + morph (2 strings, panel, type, offset count);
  // frame count + frame (2 strings, special, element count); rigid body and joint counts.
  ASSERT_EQ(base.size(), 17u + 16 + 12 + 4 + 4 + 4 + (8 + 12 + 1 + 4 + 2 + 12 + 1 + 4 + 4 + 4) + 4 + (8 + 1 + 1 + 4) +
                             4 + (8 + 1 + 4) + 4 + 4);
  const long before = peak_rss_kib();
  const Field fields[] = {
      {"model name length", 17, 4},   {"comment length", 25, 4},     {"vertex count", 33, 4},
      {"face count", 37, 4},          {"texture count", 41, 4},      {"texture path length", 45, 4},
      {"material count", 49, 4},      {"bone count", 53, 4},         {"bone name length", 57, 4},
      {"IK link count", 105, 4},      {"morph count", 109, 4},       {"morph offset count", 123, 4},
      {"display frame count", 127, 4}, {"frame element count", 140, 4}, {"rigid body count", 144, 4},
      {"joint count", 148, 4},
  };
  for (const Field& f : fields) {
    for (std::uint32_t v : {0xFFFFFFFFu, 0x7FFFFFFFu, 0x10000000u}) {
      auto r = mmdkit::pmx::read(with_value(base, f.offset, v));
      ASSERT_FALSE(r) << f.what << " = " << v;
      // 0xFFFFFFFF is -1 for the signed counts: invalid_value ("negative count") is right there.
      const bool ok = fails_on_size(r.error().code) || (v == 0xFFFFFFFFu && r.error().code == ErrorCode::invalid_value);
      EXPECT_TRUE(ok) << f.what << " = " << v << ": " << r.error().to_string();
      EXPECT_GE(r.error().offset, static_cast<std::int64_t>(f.offset)) << f.what;
    }
  }
  EXPECT_LT(peak_rss_kib() - before, kMaxGrowthKiB);
}

// ------------------------------------------------------------------------------------------- PMM

TEST(Limits, PmmHugeCountsFailFast) {
  // The PMM tests' version-2 project with one model (tests/formats/pmm/fixture.hpp); offsets from
  // docs/formats/pmm.md: signature 30, header 23, selected model and model count at 53 and 54,
  // model index, name (1 + 7), English name (1 + 6), path 256, fixed tracks, then the bone names
  // count at 328 (3 names of 9, 9, 3 bytes), morph names (2: 9, 3), IK bones (1), outside-parent
  // bones (1), 22 bytes of settings, the expanded-frames u8 count at 407 (3), scroll, last frame,
  // 3 initial bone keys of 58 bytes, the regular bone key count at 593 (2 keys of 62), 2 initial
  // morph keys of 17, the morph key count at 755 (1 of 21), the initial model key (23), the model
  // key count at 803 (1 of 27), bone states 3 × 31, morph states 2 × 4, IK state 1, outside-parent
  // state 16, 7 bytes, the initial camera key (78), the camera key count at 1037 (2 of 82), 37
  // bytes, the initial light key (37), the light key count at 1279 (1 of 41), 24 + 5 bytes, the
  // accessory u8 count at 1353 (1), its name (100), the accessory (358 + initial key 51), its key
  // count at 1863 (1).
  auto w = mmdkit::pmm::write(mmdkit::pmm::test::sample_document(mmdkit::pmm::Version::v2, 1));
  ASSERT_TRUE(w) << w.error().to_string();
  const Bytes base = *w;
  struct Count {
    const char* what;
    std::size_t offset;
    int width;
    std::uint32_t stored;
  };
  const Count counts[] = {
      {"model count", 54, 1, 1},          {"bone names", 328, 4, 3},     {"morph names", 353, 4, 2},
      {"IK bones", 369, 4, 1},            {"outside-parent bones", 377, 4, 1}, {"expanded frames", 407, 1, 3},
      {"bone keys", 593, 4, 2},           {"morph keys", 755, 4, 1},     {"model keys", 803, 4, 1},
      {"camera keys", 1037, 4, 2},        {"light keys", 1279, 4, 1},    {"accessories", 1353, 1, 1},
      {"accessory keys", 1863, 4, 1},
  };
  const long before = peak_rss_kib();
  for (const Count& c : counts) {
    std::uint32_t v = 0;
    std::memcpy(&v, base.data() + c.offset, static_cast<std::size_t>(c.width));
    ASSERT_EQ(v, c.stored) << c.what << ": the offset is wrong";
    if (c.width == 1) {
      // 255 may fit in what follows: whatever it parses to, no crash and no growth.
      (void)mmdkit::pmm::read(with_max(base, Field{c.what, c.offset, 1}));
      continue;
    }
    for (std::uint32_t huge : {0x7FFFFFFFu, 0x10000000u}) {
      auto r = mmdkit::pmm::read(with_value(base, c.offset, huge));
      ASSERT_FALSE(r) << c.what;
      EXPECT_EQ(r.error().code, ErrorCode::count_too_large) << c.what << ": " << r.error().to_string();
      EXPECT_EQ(r.error().offset, static_cast<std::int64_t>(c.offset)) << c.what;
    }
    auto negative = mmdkit::pmm::read(with_value(base, c.offset, 0xFFFFFFFFu));
    ASSERT_FALSE(negative) << c.what;
    EXPECT_EQ(negative.error().code, ErrorCode::invalid_value) << c.what;
  }
  // Version 1: counts from the caller (a model file) that the bytes cannot hold fail the same way.
  auto v1 = mmdkit::pmm::write(mmdkit::pmm::test::sample_document(mmdkit::pmm::Version::v1, 1));
  ASSERT_TRUE(v1);
  mmdkit::pmm::ReadOptions o;
  o.model_counts = [](const mmdkit::pmm::ModelRef&) {
    return std::optional<mmdkit::pmm::ModelCounts>(mmdkit::pmm::ModelCounts{1u << 30, 1u << 30, 1u << 30});
  };
  auto r = mmdkit::pmm::read(*v1, o);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, ErrorCode::count_too_large) << r.error().to_string();
  EXPECT_LT(peak_rss_kib() - before, kMaxGrowthKiB);
}

// ------------------------------------------------------------------------------------------- VPD

TEST(Limits, VpdHugeBoneCountFailsFast) {
  const std::string text = "Vocaloid Pose Data file\r\n\r\nmodel.osm;\r\n999999999;\r\n\r\n";
  const long before = peak_rss_kib();
  auto r = mmdkit::vpd::read(mmdkit::ByteSpan(reinterpret_cast<const std::uint8_t*>(text.data()), text.size()));
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, ErrorCode::count_too_large) << r.error().to_string();
  EXPECT_EQ(r.error().offset, static_cast<std::int64_t>(text.find("999999999")));
  // 10 digits or more: invalid, whatever the value.
  const std::string ten = "Vocaloid Pose Data file\r\n\r\nmodel.osm;\r\n1000000000;\r\n";
  auto r10 = mmdkit::vpd::read(mmdkit::ByteSpan(reinterpret_cast<const std::uint8_t*>(ten.data()), ten.size()));
  ASSERT_FALSE(r10);
  EXPECT_EQ(r10.error().code, ErrorCode::invalid_value);
  EXPECT_LT(peak_rss_kib() - before, kMaxGrowthKiB);
}

// ------------------------------------------------------------------------------------------ JSON

// JSON documents nest; a reader that recurses once per level (RapidJSON's default Parse) overflows
// the stack on a few hundred KiB of '['. Finding of fuzz_pmd_json / fuzz_pmx_json / fuzz_vpd_json
// (ASan: stack-overflow in rapidjson::GenericReader::ParseArray): each importer must answer with an
// error instead (the documents are well-formed JSON but not valid schema). Fix: parse with
// rapidjson::kParseIterativeFlag, as vmd::from_json does.
std::string nested(const char* format, const char* member, std::size_t depth) {
  return std::string("{\"format\": \"") + format + "\", \"" + member + "\": " + std::string(depth, '[') +
         std::string(depth, ']') + "}";
}
constexpr std::size_t kDeep = 200000;

TEST(Limits, VmdJsonDeepNestingIsAnErrorNotAStackOverflow) {
  EXPECT_FALSE(mmdkit::vmd::from_json(nested("vmd", "bone_keys", kDeep)));
}
TEST(Limits, PmdJsonDeepNestingIsAnErrorNotAStackOverflow) {
  EXPECT_FALSE(mmdkit::pmd::from_json(nested("pmd", "vertices", kDeep)));
}
TEST(Limits, PmxJsonDeepNestingIsAnErrorNotAStackOverflow) {
  EXPECT_FALSE(mmdkit::pmx::from_json(nested("pmx", "vertices", kDeep)));
}
TEST(Limits, VpdJsonDeepNestingIsAnErrorNotAStackOverflow) {
  EXPECT_FALSE(mmdkit::vpd::from_json(nested("vpd", "bones", kDeep)));
}

}  // namespace
