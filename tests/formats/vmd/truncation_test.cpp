// Robustness: every prefix of small real and generated VMDs gives a clean error or the parse the
// cut position implies; single-byte corruptions never crash and, when they parse, still write
// back byte-identically.
#include <gtest/gtest.h>

#include "mmdkit/formats/vmd.hpp"
#include "mmdkit/formats/vmd_generate.hpp"
#include "support/corpus.hpp"

namespace mmdkit::vmd {
namespace {

// Section end offsets of a file that parses completely (no trailing): computed from its counts.
struct Layout {
  std::size_t header = 0;
  std::size_t bone_count_end = 0, bone_end = 0, morph_count_end = 0, morph_end = 0;
  std::vector<std::size_t> optional_ends;  // end of camera, light, self-shadow, property (as present)
  std::size_t bone_count = 0, morph_count = 0;
};

Layout layout_of(const Motion& m) {
  Layout l;
  l.header = header_size(m.version);
  l.bone_count = m.bone_keys.size();
  l.morph_count = m.morph_keys.size();
  l.bone_count_end = l.header + 4;
  l.bone_end = l.bone_count_end + m.bone_keys.size() * kBoneKeySize;
  l.morph_count_end = l.bone_end + 4;
  l.morph_end = l.morph_count_end + m.morph_keys.size() * kMorphKeySize;
  std::size_t at = l.morph_end;
  const std::size_t sizes[3] = {m.camera_keys.size() * kCameraKeySize, m.light_keys.size() * kLightKeySize,
                                m.self_shadow_keys.size() * kSelfShadowKeySize};
  for (int s = 2; s < m.sections_present; ++s) {
    if (s < 5) {
      at += 4 + sizes[s - 2];
    } else {
      at += 4;
      for (const auto& p : m.property_keys) at += kPropertyKeyMinSize + p.ik.size() * kIkStateSize;
    }
    l.optional_ends.push_back(at);
  }
  return l;
}

// Checks read(prefix of length c) against what the cut position implies.
void check_prefix(const std::vector<std::uint8_t>& full, const Motion& whole, const Layout& l, std::size_t c) {
  SCOPED_TRACE("cut at " + std::to_string(c));
  std::vector<std::uint8_t> cut(full.begin(), full.begin() + static_cast<std::ptrdiff_t>(c));
  auto r = read(cut);
  if (c == 0) {
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().code, ErrorCode::empty_input);
    return;
  }
  if (c < l.header) {
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().code, ErrorCode::truncated);
    EXPECT_EQ(r.error().section, "header");
    return;
  }
  auto mandatory = [&](std::size_t count_end, std::size_t end, std::size_t count, std::size_t size,
                       const char* section) {
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().section, section);
    if (c < count_end) {
      EXPECT_EQ(r.error().code, ErrorCode::truncated);
      EXPECT_EQ(r.error().offset, static_cast<std::int64_t>(count_end - 4));
      return;
    }
    ASSERT_GT(count, 0u);
    ASSERT_LT(c, end);
    const std::size_t whole_records = (c - count_end) / size;
    if (whole_records == 0) {
      EXPECT_EQ(r.error().code, ErrorCode::count_too_large);
      EXPECT_EQ(r.error().offset, static_cast<std::int64_t>(count_end - 4));
    } else {
      EXPECT_EQ(r.error().code, ErrorCode::truncated);
      EXPECT_EQ(r.error().record, static_cast<std::int64_t>(whole_records));
      EXPECT_EQ(r.error().offset, static_cast<std::int64_t>(count_end + whole_records * size));
    }
  };
  if (c < l.bone_end || c < l.bone_count_end) return mandatory(l.bone_count_end, l.bone_end, l.bone_count, 111, "bone keyframes");
  if (c < l.morph_end || c < l.morph_count_end)
    return mandatory(l.morph_count_end, l.morph_end, l.morph_count, 23, "morph keyframes");
  ASSERT_TRUE(r) << r.error().to_string();
  const Motion& m = r->motion;
  EXPECT_EQ(m.bone_keys.size(), whole.bone_keys.size());
  EXPECT_EQ(m.morph_keys.size(), whole.morph_keys.size());
  std::size_t complete = l.morph_end;
  int present = 2;
  for (std::size_t end : l.optional_ends) {
    if (end > c) break;
    complete = end;
    ++present;
  }
  EXPECT_EQ(m.sections_present, present);
  EXPECT_EQ(m.trailing.size(), c - complete);
  EXPECT_EQ(r->warnings.size(), c > complete ? 1u : 0u);
  if (c > complete) {
    EXPECT_EQ(m.trailing_offset, static_cast<std::int64_t>(complete));
  }
  if (present > 2) {
    EXPECT_EQ(m.camera_keys.size(), whole.camera_keys.size());
  }
  if (present > 5) {
    EXPECT_EQ(m.property_keys.size(), whole.property_keys.size());
  }
  auto w = write(m);
  ASSERT_TRUE(w);
  EXPECT_TRUE(*w == cut);
}

void check_all_prefixes(const std::vector<std::uint8_t>& full) {
  auto whole = read(full);
  ASSERT_TRUE(whole) << whole.error().to_string();
  ASSERT_TRUE(whole->motion.trailing.empty());
  Layout l = layout_of(whole->motion);
  ASSERT_EQ(l.optional_ends.empty() ? l.morph_end : l.optional_ends.back(), full.size());
  for (std::size_t c = 0; c <= full.size(); ++c) {
    check_prefix(full, whole->motion, l, c);
    if (::testing::Test::HasFailure()) return;  // one cut's details are enough
  }
}

TEST(VmdTruncation, EveryPrefixOfSmallCorpusFiles) {
  MMDKIT_REQUIRE_CORPUS();
  std::size_t files = 0;
  for (const auto& f : mmdkit::test::corpus_files("vmd")) {
    if (f.bytes > 12000 || f.local_path.ends_with("/result.vmd")) continue;
    SCOPED_TRACE(f.local_path);
    check_all_prefixes(mmdkit::test::read_bytes(f.path));
    ++files;
    if (HasFailure()) return;
  }
  EXPECT_EQ(files, 42u);  // MANIFEST: 42 VMDs of at most 12,000 bytes besides result.vmd
}

TEST(VmdTruncation, EveryPrefixOfGeneratedFiles) {
  for (Version v : {Version::v2, Version::v1}) {
    GenerateOptions o;
    o.seed = 7;
    o.version = v;
    o.bone_keys = 5;
    o.morph_keys = 3;
    o.camera_keys = 2;
    o.light_keys = 2;
    o.self_shadow_keys = 2;
    o.property_keys = 3;
    auto bytes = write(generate(o));
    ASSERT_TRUE(bytes);
    check_all_prefixes(*bytes);
    o.property_keys = 0;
    o.sections_present = 4;
    o.self_shadow_keys = 0;
    bytes = write(generate(o));
    ASSERT_TRUE(bytes);
    check_all_prefixes(*bytes);
  }
}

// Flips each byte (every `stride`-th for big files) to a few values; never crashes, and any
// parse writes back the corrupted bytes exactly.
void corrupt_each_byte(const std::vector<std::uint8_t>& bytes, std::size_t stride) {
  std::vector<std::uint8_t> b = bytes;
  for (std::size_t i = 0; i < b.size(); i += stride) {
    const std::uint8_t orig = b[i];
    for (std::uint8_t v : {std::uint8_t{0x00}, std::uint8_t{0xFF}, static_cast<std::uint8_t>(orig ^ 0x80),
                           static_cast<std::uint8_t>(orig + 1)}) {
      b[i] = v;
      auto r = read(b);
      if (r) {
        auto w = write(r->motion);
        ASSERT_TRUE(w);
        ASSERT_TRUE(*w == b) << "byte " << i << " = " << int(v);
      } else {
        EXPECT_GE(r.error().offset, 0) << r.error().to_string();
        EXPECT_FALSE(r.error().section.empty());
      }
    }
    b[i] = orig;
  }
}

TEST(VmdTruncation, SingleByteCorruptionsOfRealFiles) {
  MMDKIT_REQUIRE_CORPUS();
  const char* names[] = {
      "olyutorskii__Vmd2XML/src/test/resources/testdata/vmd130609/flag/flag.vmd",
      "olyutorskii__Vmd2XML/src/test/resources/testdata/vmd110820/camera/camera.vmd",
      "olyutorskii__Vmd2XML/src/test/resources/testdata/vmd110820/motion/motion.vmd",
      "noname0310__babylon-mmd/res/motion/physics_toggle_test_v2_yyb10th.vmd",
      "mmdagent__mmdagent-mirror/MMDAgent_Example/Motion/sd_mei_guts/sd_mei_guts.vmd",
  };
  for (const char* n : names) {
    SCOPED_TRACE(n);
    auto f = mmdkit::test::corpus_file(n);
    ASSERT_TRUE(f);
    auto bytes = mmdkit::test::read_bytes(f->path);
    corrupt_each_byte(bytes, bytes.size() > 4096 ? 97 : 1);
    if (HasFailure()) return;
  }
}

}  // namespace
}  // namespace mmdkit::vmd
