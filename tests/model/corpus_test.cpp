// Model view and check on every corpus PMD / PMX: only real findings, and the view's safety
// contract (every index in range) holds.
#include <gtest/gtest.h>

#include <map>

#include "mmdkit/formats/pmd.hpp"
#include "mmdkit/formats/pmx.hpp"
#include "mmdkit/model/check.hpp"
#include "mmdkit/model/model.hpp"
#include "support/corpus.hpp"

namespace mmdkit::model {
namespace {

using mmdkit::test::corpus_files;

// Every index of the view is in range (what evaluation relies on).
void expect_safe(const Model& m, const std::string& file) {
  const auto nv = m.vertices.size(), nb = m.bones.size(), nmo = m.morphs.size(), nr = m.rigid_bodies.size();
  auto bone_ok = [&](std::int32_t b, bool none_ok) { return (none_ok && b == -1) || (b >= 0 && std::size_t(b) < nb); };
  for (const Vertex& v : m.vertices)
    for (auto b : v.bones) ASSERT_TRUE(bone_ok(b, true)) << file;
  ASSERT_EQ(m.faces.size() % 3, 0u) << file;
  for (auto f : m.faces) ASSERT_LT(f, nv) << file;
  for (const Material& x : m.materials) ASSERT_LE(std::size_t(x.first_index) + x.index_count, m.faces.size()) << file;
  for (const Bone& b : m.bones) {
    ASSERT_TRUE(bone_ok(b.parent, true)) << file;
    ASSERT_TRUE(bone_ok(b.append_parent, true)) << file;
    ASSERT_TRUE(bone_ok(b.tail_bone, true)) << file;
    if (b.append_rotation || b.append_translation) { ASSERT_GE(b.append_parent, 0) << file; }
    if (b.is_ik) { ASSERT_LT(std::size_t(b.ik_chain), m.ik_chains.size()) << file; }
  }
  for (const IkChain& c : m.ik_chains) {
    ASSERT_TRUE(bone_ok(c.ik_bone, false) && bone_ok(c.effector, false)) << file;
    for (const IkLink& l : c.links) ASSERT_TRUE(bone_ok(l.bone, false)) << file;
  }
  for (const Morph& x : m.morphs) {
    for (const auto& o : x.vertex_offsets) ASSERT_LT(o.vertex, nv) << file;
    for (const auto& o : x.uv_offsets) ASSERT_LT(o.vertex, nv) << file;
    for (const auto& o : x.bone_offsets) ASSERT_TRUE(bone_ok(o.bone, false)) << file;
    for (const auto& o : x.group_offsets) ASSERT_LT(std::size_t(o.morph), nmo) << file;
    for (const auto& o : x.material_offsets) ASSERT_TRUE(o.material == -1 || std::size_t(o.material) < m.materials.size());
  }
  for (const RigidBody& r : m.rigid_bodies) ASSERT_TRUE(bone_ok(r.bone, true)) << file;
  for (const Joint& j : m.joints) {
    ASSERT_TRUE(j.rigid_body_a == -1 || std::size_t(j.rigid_body_a) < nr) << file;
    ASSERT_TRUE(j.rigid_body_b == -1 || std::size_t(j.rigid_body_b) < nr) << file;
  }
  ASSERT_EQ(m.bone_order.size(), nb) << file;
}

TEST(ModelCorpus, OnlyRealFindings) {
  MMDKIT_REQUIRE_CORPUS();
  // No corpus model has an error. Warnings found by inspection (printed below): ray-mmd's
  // GroundFog controller lists its IK effector (bone 3) as its own first link (no effect in MMD).
  const std::map<std::string, std::vector<std::string>> known_errors = {};
  const std::map<std::string, std::vector<std::string>> known_warnings = {
      {"ray-cast__ray-mmd/Fog/GroundFog.pmx", {"ik_link_not_ancestor bones 4 ik_links[0].bone"}},
      // Ten joints joining a body to itself (the physics layer ignores them and warns the same:
      // `mmdkit bake` on this model lists joints 28, 30, ..., 46).
      {"miu200521358__mlib_go/resources/test/サンプルモデル.pmx", {"physics_record joints 28 rigid_body_b", "physics_record joints 30 rigid_body_b", "physics_record joints 32 rigid_body_b", "physics_record joints 34 rigid_body_b", "physics_record joints 36 rigid_body_b", "physics_record joints 38 rigid_body_b", "physics_record joints 40 rigid_body_b", "physics_record joints 42 rigid_body_b", "physics_record joints 44 rigid_body_b", "physics_record joints 46 rigid_body_b"}},
      {"miu200521358__mmd_base/test/resources/サンプルモデル.pmx", {"physics_record joints 28 rigid_body_b", "physics_record joints 30 rigid_body_b", "physics_record joints 32 rigid_body_b", "physics_record joints 34 rigid_body_b", "physics_record joints 36 rigid_body_b", "physics_record joints 38 rigid_body_b", "physics_record joints 40 rigid_body_b", "physics_record joints 42 rigid_body_b", "physics_record joints 44 rigid_body_b", "physics_record joints 46 rigid_body_b"}},
  };
  // Texture files the source repositories do not ship (warnings), per file.
  const std::map<std::string, std::size_t> known_missing = {
      {"mmdagent__mmdagent-mirror/MMDAgent_Example/Accessory/map/map_library.pmd", 1},
      {"mmdagent__mmdagent-mirror/MMDAgent_Example/Model/mei/mei.pmd", 1},  // blouse.png
      {"olyutorskii__Pmd2XML/src/test/resources/testdata/pmd101009/material/material.pmd", 4},
      {"hkrn__nanoem/emapp/test/fixtures/effects/main.pmx", 1},  // eyeM2.bmp
      {"miu200521358__mlib_go/resources/test/サンプルモデル.pmx", 33},
      {"miu200521358__mlib_go/test_resources/サンプルモデル.pmx", 33},
      {"miu200521358__mmd_base/test/resources/サンプルモデル.pmx", 34},
      {"miu200521358__mmd_base/test/resources/曲げ柱tex.pmx", 1},  // grid.png
      {"miu200521358__mmd_base/test/resources/柱tex.pmx", 1},
  };
  std::size_t files = 0;
  for (const char* kind : {"pmd", "pmx"}) {
    for (const auto& f : corpus_files(kind)) {
      ++files;
      auto bytes = mmdkit::test::read_bytes(f.path);
      std::vector<Finding> fs;
      Result<Model> view = make_error(ErrorCode::invalid_value, "unset");
      CheckOptions o{.folder = f.path.parent_path()};
      if (std::string(kind) == "pmd") {
        auto r = pmd::read(bytes);
        ASSERT_TRUE(r) << f.local_path;
        fs = model::check(r->model, o);
        view = from_pmd(r->model);
      } else {
        auto r = pmx::read(bytes);
        ASSERT_TRUE(r) << f.local_path;
        fs = model::check(r->model, o);
        view = from_pmx(r->model);
      }
      ASSERT_TRUE(view) << f.local_path;
      expect_safe(*view, f.local_path);
      std::vector<std::string> errors, other_warnings;
      std::size_t missing = 0;
      for (const auto& x : fs) {
        if (!fs.empty()) std::printf("%s: %s\n", f.local_path.c_str(), x.to_string().c_str());
        if (x.severity == Severity::error) {
          errors.push_back(std::string(finding_kind_name(x.kind)) + " " + x.section + " " + std::to_string(x.record) +
                           " " + x.field);
        } else if (x.kind == FindingKind::texture_missing) {
          ++missing;
        } else {
          other_warnings.push_back(std::string(finding_kind_name(x.kind)) + " " + x.section + " " +
                                   std::to_string(x.record) + " " + x.field);
        }
      }
      auto ke = known_errors.find(f.local_path);
      EXPECT_EQ(errors, ke == known_errors.end() ? std::vector<std::string>{} : ke->second) << f.local_path;
      auto kw = known_warnings.find(f.local_path);
      EXPECT_EQ(other_warnings, kw == known_warnings.end() ? std::vector<std::string>{} : kw->second) << f.local_path;
      auto km = known_missing.find(f.local_path);
      EXPECT_EQ(missing, km == known_missing.end() ? 0u : km->second) << f.local_path;
    }
  }
  EXPECT_GT(files, 50u);
}

}  // namespace
}  // namespace mmdkit::model
