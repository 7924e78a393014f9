// Crash regressions: every input saved by scripts/fuzz.sh in tests/regress/inputs/fuzz_<target>/
// is replayed through the check of that fuzz target (fuzz/roundtrip.hpp) and must now pass: a
// clean error, or a parse that writes back byte-identically and survives the JSON round trip.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "../../fuzz/roundtrip.hpp"
#include "mmdkit/formats/pmx_generate.hpp"
#include "mmdkit/formats/pmx_json.hpp"
#include "mmdkit/formats/vmd_generate.hpp"
#include "mmdkit/formats/vmd_json.hpp"

namespace fs = std::filesystem;

namespace {

fs::path inputs_dir() { return fs::path(MMDKIT_TESTS_DIR) / "regress/inputs"; }

std::vector<std::uint8_t> slurp(const fs::path& p) {
  std::ifstream f(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>()};
}

TEST(RegressReplay, EveryTargetIsKnown) {
  // The folders scripts/fuzz.sh fills are named after the targets; a folder of an unknown target
  // would be silently skipped below.
  if (!fs::exists(inputs_dir())) GTEST_SKIP() << "no saved inputs";
  for (const auto& d : fs::directory_iterator(inputs_dir())) {
    if (d.is_directory()) {
      EXPECT_NE(mmdkit::fuzz::find_target(d.path().filename().string()), nullptr) << d.path();
    }
  }
}

TEST(RegressReplay, SavedFuzzInputsPassTheirTargetCheck) {
  int replayed = 0;
  for (const auto& t : mmdkit::fuzz::targets()) {
    fs::path dir = inputs_dir() / ("fuzz_" + std::string(t.name));
    if (!fs::exists(dir)) continue;
    for (const auto& e : fs::directory_iterator(dir)) {
      if (!e.is_regular_file() || e.path().filename().string().starts_with(".")) continue;
      auto bytes = slurp(e.path());
      std::string finding = t.check(bytes);
      EXPECT_EQ(finding, "") << e.path();
      ++replayed;
    }
  }
  RecordProperty("replayed", replayed);
}

// The fuzz properties hold on the generators' output (the seeds every fuzz run starts from):
// byte-identical read->write, lossless JSON both ways.
TEST(RegressReplay, GeneratedFilesPassEveryTargetCheck) {
  const auto* vmd = mmdkit::fuzz::find_target("vmd");
  const auto* vmd_json = mmdkit::fuzz::find_target("fuzz_vmd_json");
  const auto* pmx = mmdkit::fuzz::find_target("pmx");
  const auto* pmx_json = mmdkit::fuzz::find_target("pmx_json");
  ASSERT_TRUE(vmd && vmd_json && pmx && pmx_json);
  for (int sections = 2; sections <= 6; ++sections) {
    auto m = mmdkit::vmd::generate({.seed = std::uint64_t(sections), .bone_keys = 5, .morph_keys = 3,
                                    .camera_keys = sections >= 3 ? 2u : 0u, .light_keys = sections >= 4 ? 2u : 0u,
                                    .self_shadow_keys = sections >= 5 ? 2u : 0u,
                                    .property_keys = sections >= 6 ? 2u : 0u, .frames = 20,
                                    .sections_present = sections});
    auto w = mmdkit::vmd::write(m);
    ASSERT_TRUE(w) << w.error().to_string();
    EXPECT_EQ(vmd->check(*w), "") << sections;
    std::string j = mmdkit::vmd::to_json(m);
    EXPECT_EQ(vmd_json->check({reinterpret_cast<const std::uint8_t*>(j.data()), j.size()}), "") << sections;
  }
  for (auto variant : {mmdkit::pmx::GenerateVariant::pmx20_utf16, mmdkit::pmx::GenerateVariant::pmx21_utf8}) {
    auto m = mmdkit::pmx::generate({.seed = 3, .vertices = 30, .bones = 40, .morphs = 11, .variant = variant});
    ASSERT_TRUE(m) << m.error().to_string();
    auto w = mmdkit::pmx::write(*m);
    ASSERT_TRUE(w) << w.error().to_string();
    EXPECT_EQ(pmx->check(*w), "");
    std::string j = mmdkit::pmx::to_json(*m);
    EXPECT_EQ(pmx_json->check({reinterpret_cast<const std::uint8_t*>(j.data()), j.size()}), "");
  }
}

}  // namespace
