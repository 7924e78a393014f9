// OBJ / MTL text (export/obj.hpp).
#include <gtest/gtest.h>

#include <limits>
#include <string>

#include "mmdkit/export/obj.hpp"

namespace mmdkit::exporter {
namespace {

// The lines of material `name` in an MTL text, from "newmtl" to the next blank line.
std::string block(const std::string& mtl, const std::string& name) {
  const std::size_t b = mtl.find("newmtl " + name + "\n");
  if (b == std::string::npos) return {};
  const std::size_t e = mtl.find("\n\n", b);
  return mtl.substr(b, e == std::string::npos ? std::string::npos : e + 1 - b);
}

TEST(Mtl, ColoursInRangeAreWrittenAsEvaluated) {
  ObjMaterial m;
  m.name = "m0_body";
  m.values.diffuse = {0.8f, 0.5f, 0.25f, 0.98f};
  m.values.specular = {0.1f, 0.2f, 0.3f};
  m.values.specular_power = 12.5f;
  m.values.ambient = {0.4f, 0.4f, 0.5f};
  m.texture = "tex/body.png";
  const ObjMaterial list[] = {m};
  EXPECT_EQ(block(write_mtl(list), "m0_body"),
            "newmtl m0_body\nKd 0.8 0.5 0.25\nd 0.98\nKs 0.1 0.2 0.3\nNs 12.5\nKa 0.4 0.4 0.5\nmap_Kd tex/body.png\n");
}

// An additive material morph at weight 1 on diffuse (0.8, 0.5, 0.25, 1) with offsets
// (+0.5, -0.75, 0, +0.5) gives (1.3, -0.25, 0.25, 1.5); specular (0.5, 0.5, 0.5) + (1, -1, 0)
// gives (1.5, -0.5, 0.5); ambient (0.5, 0.5, 0.5) + (0.75, 0, -0.6) gives (1.25, 0.5, -0.1); the
// power 5 + (-10) gives -5. MTL gets each fraction clamped to [0, 1] and Ns to >= 0.
TEST(Mtl, AdditiveMorphOverflowIsClampedToTheUnitRange) {
  ObjMaterial m;
  m.name = "m1_face";
  m.values.diffuse = {1.3f, -0.25f, 0.25f, 1.5f};
  m.values.specular = {1.5f, -0.5f, 0.5f};
  m.values.specular_power = -5.0f;
  m.values.ambient = {1.25f, 0.5f, -0.1f};
  const ObjMaterial list[] = {m};
  EXPECT_EQ(block(write_mtl(list), "m1_face"), "newmtl m1_face\nKd 1 0 0.25\nd 1\nKs 1 0 0.5\nNs 0\nKa 1 0.5 0\n");
  // The values handed in are not changed (write_mtl takes them const): the caller keeps them.
  EXPECT_FLOAT_EQ(list[0].values.diffuse[0], 1.3f);
}

TEST(Mtl, NonFiniteValuesBecomeNumbersMtlReadersAccept) {
  ObjMaterial m;
  m.name = "m2_x";
  const float nan = std::numeric_limits<float>::quiet_NaN(), inf = std::numeric_limits<float>::infinity();
  m.values.diffuse = {nan, inf, -inf, nan};
  m.values.specular = {0, 0, 0};
  m.values.specular_power = nan;
  m.values.ambient = {inf, 0, 0};
  const ObjMaterial list[] = {m};
  EXPECT_EQ(block(write_mtl(list), "m2_x"), "newmtl m2_x\nKd 0 1 0\nd 0\nKs 0 0 0\nNs 0\nKa 1 0 0\n");
}

}  // namespace
}  // namespace mmdkit::exporter
