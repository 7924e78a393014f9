// `mmdkit bake` through the binary, on generated files (the generated PMD has rigid bodies and
// joints; its head body is made simulated): exit codes, options, the baked motion.
#include <gtest/gtest.h>

#include "mmdkit/version.hpp"
#if MMDKIT_HAS_PHYSICS

#include <filesystem>
#include <sstream>

#include "mmdkit/anim/binding.hpp"
#include "mmdkit/core/file.hpp"
#include "mmdkit/formats/pmd.hpp"
#include "mmdkit/formats/vmd.hpp"
#include "support/cli_run.hpp"

namespace mmdkit::cli {
namespace {

class PhysicsCli : public test::CliTest {
 protected:
  PhysicsCli() : CliTest("physics_cli") {}
  /// run() with every word ending in .pmd .vmd .json .obj made a path in `dir`.
  test::Outcome go(const std::string& args) const {
    std::string out, word;
    std::istringstream in(args);
    while (in >> word) {
      for (const char* ext : {".pmd", ".vmd", ".json", ".obj"})
        if (word.size() > 4 && word.ends_with(ext)) {
          word = test::quote((dir / word).string());
          break;
        }
      out += (out.empty() ? "" : " ") + word;
    }
    return run(out);
  }
  void SetUp() override {
    ASSERT_EQ(go("generate pmd -o m.pmd --force").code, 0);
    ASSERT_EQ(go("generate vmd --frames 60 -o a.vmd --force").code, 0);
    // The generated head body follows its bone; make it simulated (jointed to the upper body).
    auto m = pmd::read_file(dir / "m.pmd");
    ASSERT_TRUE(m) << m.error().to_string();
    ASSERT_FALSE(m->model.rigid_bodies.empty());
    m->model.rigid_bodies[0].mode = 1;
    auto bytes = pmd::write(m->model);
    ASSERT_TRUE(bytes);
    file("m.pmd", *bytes);
  }
};

TEST_F(PhysicsCli, BakeWritesPhysicsOffKeysOnEveryFrame) {
  auto r = go("bake m.pmd a.vmd -o b.vmd --frames 0-30");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.err.find("baked"), std::string::npos);
  auto in = vmd::read_file(dir / "a.vmd");
  auto out = vmd::read_file(dir / "b.vmd");
  ASSERT_TRUE(in && out);
  std::size_t off = 0;
  for (const vmd::BoneKey& k : out->motion.bone_keys) off += vmd::decode_bone_interpolation(k.interpolation).physics_off() ? 1 : 0;
  EXPECT_GT(off, 0u);
  EXPECT_EQ(off % 31, 0u);  // every baked bone keyed on each of the 31 frames
  EXPECT_EQ(out->motion.bone_keys.size() - off <= in->motion.bone_keys.size(), true);
  EXPECT_EQ(go("bake m.pmd a.vmd -o b.vmd").code, 1);           // exists, no --force
  EXPECT_EQ(go("bake m.pmd a.vmd -o c.vmd --frames 9-3").code, 2);
  EXPECT_EQ(go("bake m.pmd m.pmd -o c.vmd").code, 2);           // not a VMD
  EXPECT_EQ(go("bake m.pmd a.vmd -o c.vmd --physics-fps 90").code, 2);
}

}  // namespace
}  // namespace mmdkit::cli

#endif  // MMDKIT_HAS_PHYSICS
