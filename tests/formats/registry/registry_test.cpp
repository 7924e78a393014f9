// The format registry (mmdkit/formats/registry.hpp): lookups by name, extension, content and JSON
// "format" member; what each format offers; the output-extension rule; a VMD through its ops (the
// generated file's bytes back from its JSON). The CLI's and Python's own tests run the formats end
// to end; this is the library's side, without either front end.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "mmdkit/formats/registry.hpp"

namespace mmdkit::formats {
namespace {

ByteSpan bytes_of(std::string_view s) { return {reinterpret_cast<const std::uint8_t*>(s.data()), s.size()}; }

TEST(Registry, ListsEveryFormatOnceInAFixedOrder) {
  const std::vector<const FormatOps*> all = all_formats();
  std::vector<std::string> names;
  for (const FormatOps* f : all) names.emplace_back(f->name);
  EXPECT_EQ(names, (std::vector<std::string>{"vmd", "vpd", "pmd", "pmx", "x", "vac", "pmm"}));
  for (const FormatOps* f : all) {
    EXPECT_EQ(f->extension, "." + std::string(f->name)) << f->name;
    EXPECT_NE(f->info, nullptr) << f->name;
    EXPECT_NE(f->to_json, nullptr) << f->name;
    EXPECT_NE(f->check, nullptr) << f->name;
  }
  // JSON back to the file: every format but the read-only .x and .vac.
  for (const FormatOps* f : {&vmd_ops(), &vpd_ops(), &pmd_ops(), &pmx_ops(), &pmm_ops()})
    EXPECT_NE(f->from_json, nullptr) << f->name;
  EXPECT_EQ(x_ops().from_json, nullptr);
  EXPECT_EQ(vac_ops().from_json, nullptr);
}

TEST(Registry, FindsByNameOrExtensionInAnyCase) {
  EXPECT_EQ(format_by_name("vmd"), &vmd_ops());
  EXPECT_EQ(format_by_name(".PMX"), &pmx_ops());
  EXPECT_EQ(format_by_name("Vac"), &vac_ops());
  EXPECT_EQ(format_by_name(".json"), nullptr);
  EXPECT_EQ(format_by_name(""), nullptr);
}

TEST(Registry, FindsByContentAndByJsonFormatMember) {
  // The signatures of docs/formats: "Vocaloid Motion Data 0002", "PMX ", "Pmd".
  const std::string vmd = std::string("Vocaloid Motion Data 0002") + std::string(55, '\0');
  EXPECT_EQ(format_by_content(bytes_of(vmd)), &vmd_ops());
  EXPECT_EQ(format_by_content(bytes_of(std::string("PMX \0\0\0\x40", 8))), &pmx_ops());
  EXPECT_EQ(format_by_content(bytes_of("not a model")), nullptr);
  EXPECT_EQ(format_by_content(bytes_of(R"({"format": "vmd"})")), nullptr);  // JSON is not a binary format
  EXPECT_EQ(format_of_json(R"({"format": "pmd", "bones": []})"), &pmd_ops());
  EXPECT_EQ(format_of_json(R"({"bones": []})"), nullptr);
  EXPECT_EQ(format_of_json("Vocaloid Motion Data 0002"), nullptr);
}

TEST(Registry, OutputExtensionRuleInConvertsWords) {
  EXPECT_EQ(output_extension_problem("out.pmx", kVmdOutput), "a VMD motion converts only to .vmd or .json, not .pmx");
  EXPECT_EQ(output_extension_problem("OUT.VMD", kVmdOutput), "");
  EXPECT_EQ(output_extension_problem("out.Json", kPmxOutput), "");
  EXPECT_EQ(output_extension_problem("-", kPmdOutput), "");
  EXPECT_EQ(output_extension_problem("no_extension", kVpdOutput), "");
  EXPECT_EQ(converts_only_to(kPmdOutput, "vmd"), "a PMD model converts only to .pmd or .json, not .vmd");
  EXPECT_EQ(lower_extension("a/B.GlB"), ".glb");
  EXPECT_EQ(lower_extension("a.d/b"), "");
}

TEST(Registry, GeneratedMotionComesBackFromItsJson) {
  GenerateFlags g;
  g.bone_keys = 40;
  g.morph_keys = 5;
  auto bytes = vmd_ops().generate(g);
  ASSERT_TRUE(bytes) << bytes.error().to_string();
  const ByteSpan span(bytes->data(), bytes->size());
  ASSERT_EQ(format_by_content(span), &vmd_ops());
  std::vector<Warning> warnings;
  auto json = vmd_ops().to_json(span, ReadFlags{}, warnings);
  ASSERT_TRUE(json) << json.error().to_string();
  EXPECT_TRUE(warnings.empty());
  EXPECT_EQ(format_of_json(*json), &vmd_ops());
  auto back = vmd_ops().from_json(*json, ReadFlags{});
  ASSERT_TRUE(back) << back.error().to_string();
  EXPECT_EQ(*back, *bytes);
  auto findings = vmd_ops().check(span, ReadFlags{});
  ASSERT_TRUE(findings) << findings.error().to_string();
  EXPECT_TRUE(findings->empty());
}

TEST(Registry, UnreadableBytesAreAnErrorNotACrash) {
  std::vector<Warning> warnings;
  const std::string truncated = "Vocaloid Motion Data 0002";
  auto r = vmd_ops().to_json(bytes_of(truncated), ReadFlags{}, warnings);
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().to_string().find("truncated"), std::string::npos) << r.error().to_string();
}

}  // namespace
}  // namespace mmdkit::formats
