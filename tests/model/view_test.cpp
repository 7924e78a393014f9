// Model view: PMD conversions (on a built-in model and on miku_v2.pmd, values from an independent
// Python reading of the file), PMX copies, transform order, binding keys.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include "fixtures.hpp"
#include "mmdkit/model/model.hpp"
#include "support/corpus.hpp"

namespace mmdkit::model {
namespace {

constexpr float kDeg = std::numbers::pi_v<float> / 180.0f;

TEST(ViewPmd, BoneTypesBecomeFlagsAndAppend) {
  auto v = from_pmd(test::base_pmd());
  ASSERT_TRUE(v) << v.error().to_string();
  EXPECT_TRUE(v->findings.empty());
  EXPECT_EQ(v->source, SourceFormat::pmd);
  EXPECT_EQ(v->transform_order, TransformOrder::pmd);
  const auto& b = v->bones;
  ASSERT_EQ(b.size(), 10u);
  EXPECT_TRUE(b[0].movable);   // type 1
  EXPECT_FALSE(b[1].movable);  // type 0
  EXPECT_TRUE(b[4].is_ik);
  EXPECT_TRUE(b[4].movable);
  EXPECT_EQ(b[4].ik_chain, 0);
  // type 5: rotation of ik_parent (両目), ratio 1.
  EXPECT_TRUE(b[6].append_rotation);
  EXPECT_EQ(b[6].append_parent, 5);
  EXPECT_FLOAT_EQ(b[6].append_ratio, 1.0f);
  // type 9: source = tail (左腕捩), ratio = ik_parent × 0.01.
  EXPECT_TRUE(b[9].append_rotation);
  EXPECT_EQ(b[9].append_parent, 7);
  EXPECT_FLOAT_EQ(b[9].append_ratio, 0.25f);
  EXPECT_EQ(b[9].tail_bone, -1);
  // type 8 twist: fixed axis along head → tail bone = (1, 0, 0).
  EXPECT_TRUE(b[7].has_fixed_axis);
  EXPECT_FLOAT_EQ(b[7].fixed_axis[0], 1.0f);
  EXPECT_FLOAT_EQ(b[7].fixed_axis[1], 0.0f);
  // type 7 invisible.
  EXPECT_FALSE(b[8].visible);
  for (const Bone& x : b) EXPECT_EQ(x.deform_layer, 0);
  EXPECT_EQ(b[0].tail_bone, 1);
  EXPECT_EQ(b[3].tail_bone, -1);  // tail 0 = none
}

TEST(ViewPmd, IkUnitAngleTimesFourAndKneeLimit) {
  auto v = from_pmd(test::base_pmd());
  ASSERT_TRUE(v);
  ASSERT_EQ(v->ik_chains.size(), 1u);
  const IkChain& c = v->ik_chains[0];
  EXPECT_EQ(c.ik_bone, 4);
  EXPECT_EQ(c.effector, 3);
  EXPECT_EQ(c.iterations, 40);
  EXPECT_FLOAT_EQ(c.unit_angle, 2.0f);
  ASSERT_EQ(c.links.size(), 2u);
  EXPECT_EQ(c.links[0].bone, 2);
  EXPECT_TRUE(c.links[0].has_limits);  // 左ひざ
  EXPECT_FLOAT_EQ(c.links[0].lower[0], -180.0f * kDeg);
  EXPECT_FLOAT_EQ(c.links[0].upper[0], -0.5f * kDeg);
  for (int k = 1; k < 3; ++k) {
    EXPECT_EQ(c.links[0].lower[static_cast<std::size_t>(k)], 0.0f);
    EXPECT_EQ(c.links[0].upper[static_cast<std::size_t>(k)], 0.0f);
  }
  EXPECT_FALSE(c.links[1].has_limits);  // 左足
}

TEST(ViewPmd, VerticesMaterialsMorphsFramesBodies) {
  auto v = from_pmd(test::base_pmd());
  ASSERT_TRUE(v);
  // Weight 100 → BDEF1, else BDEF2 with both weights.
  EXPECT_EQ(v->vertices[0].deform, DeformType::bdef1);
  EXPECT_EQ(v->vertices[0].bones[0], 0);
  EXPECT_EQ(v->vertices[1].deform, DeformType::bdef2);
  EXPECT_EQ(v->vertices[1].bones[0], 1);
  EXPECT_EQ(v->vertices[1].bones[1], 2);
  EXPECT_FLOAT_EQ(v->vertices[1].weights[0], 0.6f);
  EXPECT_FLOAT_EQ(v->vertices[1].weights[1], 0.4f);
  EXPECT_EQ(v->vertices[0].edge_scale, 1.0f);
  // Material: texture field split, toon01.bmp → shared toon 0, flags from edge flag and alpha 1.
  const Material& mat = v->materials[0];
  EXPECT_EQ(mat.texture, "tex.bmp");
  EXPECT_EQ(mat.sphere, "env.sph");
  EXPECT_EQ(mat.sphere_mode, SphereMode::multiply);
  EXPECT_EQ(mat.shared_toon, 0);
  EXPECT_EQ(mat.flags, kDrawEdge | kGroundShadow | kDrawShadowMap | kReceiveShadow);
  EXPECT_EQ(mat.first_index, 0u);
  EXPECT_EQ(mat.index_count, 3u);
  // Morphs: base dropped; "あ" entry 1 of the base = vertex 2.
  ASSERT_EQ(v->morphs.size(), 1u);
  EXPECT_TRUE(v->pmd_base_morph);
  EXPECT_EQ(v->pmd_base_morph_key, (std::vector<std::uint8_t>{'b', 'a', 's', 'e'}));  // its name's binding key
  EXPECT_EQ(v->morphs[0].name, "あ");
  EXPECT_EQ(v->morphs[0].panel, 3);
  ASSERT_EQ(v->morphs[0].vertex_offsets.size(), 1u);
  EXPECT_EQ(v->morphs[0].vertex_offsets[0].vertex, 2u);
  EXPECT_FLOAT_EQ(v->morphs[0].vertex_offsets[0].offset[1], 0.5f);
  // Display frames: Root (bone 0), 表情 (morph 0), 足 (bones 1, 2), name without "\n".
  ASSERT_EQ(v->display_frames.size(), 3u);
  EXPECT_TRUE(v->display_frames[0].special);
  EXPECT_EQ(v->display_frames[1].name, "表情");
  ASSERT_EQ(v->display_frames[1].elements.size(), 1u);
  EXPECT_TRUE(v->display_frames[1].elements[0].morph);
  EXPECT_EQ(v->display_frames[1].elements[0].index, 0);
  EXPECT_EQ(v->display_frames[2].name, "足");
  ASSERT_EQ(v->display_frames[2].elements.size(), 2u);
  EXPECT_EQ(v->display_frames[2].elements[1].index, 2);
  // Rigid body on bone 2 (0.5, 6, 0) at offset (0, 1, 0) → (0.5, 7, 0).
  EXPECT_FLOAT_EQ(v->rigid_bodies[0].position[0], 0.5f);
  EXPECT_FLOAT_EQ(v->rigid_bodies[0].position[1], 7.0f);
  // Stages: ordinary bones, then the IK bone 4, then the follow bones 6 (type 5) and 9 (type 9).
  EXPECT_EQ(v->bone_order, (std::vector<std::int32_t>{0, 1, 2, 3, 5, 7, 8, 4, 6, 9}));
}

TEST(ViewPmd, AlphaBelowOneIsDoubleSidedAndPoint98HasNoSelfShadow) {
  auto m = test::base_pmd();
  m.materials[0].diffuse[3] = 0.98f;
  m.materials[0].edge_flag = 0;
  auto v = from_pmd(m);
  EXPECT_EQ(v->materials[0].flags, kDoubleSided);
}

TEST(ViewPmd, BindingKeyIsRawCp932CutTo15Bytes) {
  auto m = test::base_pmd();
  // 8 double-byte characters = 16 bytes: the key keeps 15 (a lone lead byte at the end).
  m.bones[1].name = test::dtext<pmd::kNameSize>("左足左足左足左足");
  auto v = from_pmd(m);
  ASSERT_EQ(v->bones[1].binding_key.size(), 15u);
  EXPECT_EQ(v->bones[1].binding_key[0], 0x8D);  // 左 = 8D B6
  EXPECT_EQ(v->bones[1].binding_key[1], 0xB6);
  EXPECT_EQ(v->bones[0].binding_key.size(), 8u);  // センター
}

TEST(ViewPmx, TransformOrderSortsByPhysicsThenLayer) {
  auto m = test::base_pmx();
  m.bones[0].deform_layer = 2;
  m.bones[2].flags |= pmx::kAfterPhysics;
  auto v = from_pmx(m);
  ASSERT_TRUE(v);
  EXPECT_EQ(v->bone_order, (std::vector<std::int32_t>{1, 3, 0, 2}));
  EXPECT_TRUE(v->bones[2].after_physics);
}

TEST(ViewPmx, WeightsAndSdefFilledIn) {
  auto v = from_pmx(test::base_pmx());
  ASSERT_TRUE(v);
  EXPECT_EQ(v->vertices[0].bones, (std::array<std::int32_t, 4>{0, -1, -1, -1}));
  EXPECT_FLOAT_EQ(v->vertices[1].weights[1], 0.5f);
  EXPECT_EQ(v->vertices[3].deform, DeformType::sdef);
  EXPECT_FLOAT_EQ(v->vertices[3].weights[1], 0.25f);
  EXPECT_FLOAT_EQ(v->vertices[3].sdef_r1[1], 1.5f);
  EXPECT_EQ(v->materials[0].texture, "tex.png");
  EXPECT_EQ(v->materials[0].shared_toon, 2);
  ASSERT_EQ(v->ik_chains.size(), 1u);
  EXPECT_EQ(v->ik_chains[0].ik_bone, 3);
  EXPECT_EQ(v->bones[3].ik_chain, 0);
  // センター in CP932: 83 5A 83 93 83 5E 81 5B.
  EXPECT_EQ(v->bones[0].binding_key,
            (std::vector<std::uint8_t>{0x83, 0x5A, 0x83, 0x93, 0x83, 0x5E, 0x81, 0x5B}));
}

TEST(ViewLoad, SniffsFormatsAndRejectsOthers) {
  auto pmd_bytes = pmd::write(test::base_pmd());
  ASSERT_TRUE(pmd_bytes);
  auto a = load(*pmd_bytes);
  ASSERT_TRUE(a) << a.error().to_string();
  EXPECT_EQ(a->source, SourceFormat::pmd);
  EXPECT_EQ(a->bones.size(), 10u);
  auto pmx_model = test::base_pmx();
  pmx::fit_index_sizes(pmx_model);
  auto pmx_bytes = pmx::write(pmx_model);
  ASSERT_TRUE(pmx_bytes) << pmx_bytes.error().to_string();
  auto b = load(*pmx_bytes);
  ASSERT_TRUE(b) << b.error().to_string();
  EXPECT_EQ(b->source, SourceFormat::pmx);
  EXPECT_EQ(b->morphs.size(), 3u);
  std::vector<std::uint8_t> junk{'V', 'o', 'c', 'a'};
  auto c = load(junk);
  ASSERT_FALSE(c);
  EXPECT_EQ(c.error().code, ErrorCode::bad_signature);
  auto d = load(std::vector<std::uint8_t>{});
  ASSERT_FALSE(d);
  EXPECT_EQ(d.error().code, ErrorCode::empty_input);
  // Trailing bytes: a reader warning becomes a finding.
  pmd_bytes->push_back(0x42);
  auto e = load(*pmd_bytes);
  ASSERT_TRUE(e);
  ASSERT_EQ(e->findings.size(), 1u);
  EXPECT_EQ(e->findings[0].kind, FindingKind::reader_warning);
  EXPECT_EQ(e->findings[0].severity, Severity::warning);
}

TEST(ViewCorpus, MikuV2MatchesAnIndependentReading) {
  MMDKIT_REQUIRE_CORPUS();
  auto f = mmdkit::test::corpus_file("jomin398__jomin398.github.io/docs/assets/models/mmd/miku_v2/miku_v2.pmd");
  ASSERT_TRUE(f);
  auto v = load_file(f->path);
  ASSERT_TRUE(v) << v.error().to_string();
  EXPECT_TRUE(v->findings.empty());
  // Counts (tests/model/README: Python struct reading of the file).
  EXPECT_EQ(v->vertices.size(), 12354u);
  EXPECT_EQ(v->faces.size(), 68883u);
  EXPECT_EQ(v->materials.size(), 17u);
  EXPECT_EQ(v->bones.size(), 140u);
  EXPECT_EQ(v->ik_chains.size(), 7u);
  EXPECT_EQ(v->morphs.size(), 30u);  // 31 minus base
  EXPECT_EQ(v->rigid_bodies.size(), 45u);
  EXPECT_EQ(v->joints.size(), 27u);
  EXPECT_EQ(v->display_frames.size(), 2u + 7u);
  std::size_t shown = 0;
  for (const auto& df : v->display_frames) shown += df.elements.size();
  EXPECT_EQ(shown, 1u + 30u + 87u);
  // Morph 1 (真面目): 78 offsets, the first at base entry 0 = vertex 11245.
  ASSERT_EQ(v->morphs[0].vertex_offsets.size(), 78u);
  EXPECT_EQ(v->morphs[0].vertex_offsets[0].vertex, 11245u);
  EXPECT_FLOAT_EQ(v->morphs[0].vertex_offsets[0].offset[0], -0.0123f);
  EXPECT_EQ(v->morphs.back().vertex_offsets.back().vertex, 12320u);
  // Rigid bodies: bone 3 (0, 16.7985, 0) + (0.1, 1.6, 0.2); bone 43 + (-0.2, -0.9, 0.2).
  EXPECT_NEAR(v->rigid_bodies[0].position[1], 18.3985039, 1e-5);
  EXPECT_NEAR(v->rigid_bodies[1].position[0], -1.84820004, 1e-5);
  EXPECT_NEAR(v->rigid_bodies[1].position[2], 1.65436096, 1e-5);
  // IK: 左足ＩＫ (chain 3) 40 iterations, 0.5 × 4 rad, knee first; つま先 1.0 × 4.
  const IkChain& leg = v->ik_chains[3];
  EXPECT_EQ(v->bones[static_cast<std::size_t>(leg.ik_bone)].name, "左足ＩＫ");
  EXPECT_EQ(v->bones[static_cast<std::size_t>(leg.effector)].name, "左足首");
  EXPECT_FLOAT_EQ(leg.unit_angle, 2.0f);
  ASSERT_EQ(leg.links.size(), 2u);
  EXPECT_EQ(v->bones[static_cast<std::size_t>(leg.links[0].bone)].name, "左ひざ");
  EXPECT_TRUE(leg.links[0].has_limits);
  EXPECT_FALSE(leg.links[1].has_limits);
  EXPECT_FLOAT_EQ(v->ik_chains[5].unit_angle, 4.0f);
  for (const IkChain& c : {v->ik_chains[0], v->ik_chains[1], v->ik_chains[2]})
    for (const IkLink& l : c.links) EXPECT_FALSE(l.has_limits);
  // Eyes (type 5) follow 両目 (75); twist followers (type 9) follow 腕捩 by 0.25 / 0.5 / 0.75.
  EXPECT_EQ(v->bones[4].append_parent, 75);
  EXPECT_FLOAT_EQ(v->bones[4].append_ratio, 1.0f);
  for (int k = 0; k < 3; ++k) {
    const Bone& b = v->bones[static_cast<std::size_t>(134 + k)];
    EXPECT_TRUE(b.append_rotation);
    EXPECT_EQ(b.append_parent, 19);
    EXPECT_FLOAT_EQ(b.append_ratio, 0.25f * float(k + 1));
  }
  EXPECT_TRUE(v->bones[19].has_fixed_axis);  // 左腕捩, type 8
}

}  // namespace
}  // namespace mmdkit::model
