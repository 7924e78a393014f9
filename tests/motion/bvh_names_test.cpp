// BVH joint names (motion/bvh.hpp, BvhNames; docs/BVH.md "Joint names"): Japanese as the bones
// are named, English in ASCII — the model's English name, MMD's standard bone in English, or the
// name transliterated — each name unique; and the automatic map finds a file written either way.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "mmdkit/model/model.hpp"
#include "mmdkit/motion/bvh.hpp"

namespace mmdkit::motion {
namespace {

model::Model model_named(const std::vector<std::pair<std::string, std::string>>& names) {
  model::Model m;
  for (const auto& [ja, en] : names) {
    model::Bone b;
    b.name = ja;
    b.name_en = en;
    b.parent = m.bones.empty() ? -1 : 0;
    m.bones.push_back(b);
  }
  return m;
}

TEST(BvhNames, EnglishNamesAreAsciiByTheDocumentedRule) {
  const model::Model m = model_named({{"センター", ""},        // standard: center
                                      {"左腕", ""},            // standard with side: arm_L
                                      {"右ひじ", "elbow R"},   // the model's own English name (space → _)
                                      {"ﾎﾞｰﾝ01", ""},          // half-width katakana: boon01
                                      {"ネクタイ", ""},        // nekutai
                                      {"ウィンク", ""},        // winku
                                      {"チェック", ""},        // chekku (small kana, っ)
                                      {"前髪1", ""},           // kanji: bone7_1
                                      {"髪", ""},              // nothing transliterable: bone8
                                      {"左ネクタイ", "ネクタイ"},  // a non-ASCII English name is not used: L_nekutai
                                      {"ｾﾝﾀｰ", ""},            // sentaa
                                      {"ネクタイ", ""}});      // repeated: nekutai_2
  const std::vector<std::string> en = bvh_joint_names(m, BvhNames::english);
  const std::vector<std::string> want = {"center", "arm_L",  "elbow_R", "boon01", "nekutai",   "winku",
                                         "chekku", "bone7_1", "bone8",  "L_nekutai", "sentaa", "nekutai_2"};
  EXPECT_EQ(en, want);
  for (const std::string& n : en)
    for (char c : n) EXPECT_TRUE(c > 0x20 && c < 0x7F && c != '{' && c != '}') << n;
  const std::vector<std::string> ja = bvh_joint_names(m, BvhNames::japanese);
  EXPECT_EQ(ja[0], "センター");
  EXPECT_EQ(ja[11], "ネクタイ_2");
  EXPECT_EQ(ja[2], "右ひじ");
}

TEST(BvhNames, TheAutomaticMapFindsEitherNaming) {
  const model::Model m = model_named({{"センター", ""}, {"左腕", ""}, {"前髪1", ""}});
  for (BvhNames names : {BvhNames::japanese, BvhNames::english}) {
    Bvh bvh;
    const std::vector<std::string> joints = bvh_joint_names(m, names);
    for (std::size_t i = 0; i < joints.size(); ++i) {
      BvhJoint j;
      j.name = joints[i];
      j.parent = i == 0 ? -1 : 0;
      bvh.joints.push_back(j);
    }
    auto map = automatic_bvh_bone_map(bvh, m);
    ASSERT_TRUE(map) << map.error().to_string();
    EXPECT_EQ(map->source, "identity");
    ASSERT_EQ(map->pairs.size(), 3u);
    for (std::size_t i = 0; i < 3; ++i) {
      EXPECT_EQ(map->pairs[i].first, joints[i]);
      EXPECT_EQ(map->pairs[i].second, m.bones[i].name);
    }
  }
}

}  // namespace
}  // namespace mmdkit::motion
