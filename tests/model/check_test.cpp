// check: one small model per finding, broken in exactly one place, gives exactly that finding.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <limits>

#include "fixtures.hpp"
#include "mmdkit/model/check.hpp"
#include "support/corpus.hpp"

namespace mmdkit::model {
namespace {

using test::base_pmd;
using test::base_pmx;
using test::ptext;

struct Want {
  FindingKind kind;
  std::string section;
  std::int64_t record;
  std::string field;
  Severity severity = Severity::error;
};

std::string dump(const std::vector<Finding>& fs) {
  std::string s;
  for (const auto& f : fs) s += "  " + f.to_string() + "\n";
  return s;
}

void expect_exactly(const std::vector<Finding>& got, const std::vector<Want>& want) {
  ASSERT_EQ(got.size(), want.size()) << dump(got);
  for (std::size_t i = 0; i < want.size(); ++i) {
    EXPECT_EQ(got[i].kind, want[i].kind) << dump(got);
    EXPECT_EQ(got[i].section, want[i].section) << dump(got);
    EXPECT_EQ(got[i].record, want[i].record) << dump(got);
    EXPECT_EQ(got[i].field, want[i].field) << dump(got);
    EXPECT_EQ(got[i].severity, want[i].severity) << dump(got);
    EXPECT_FALSE(got[i].message.empty());
  }
}

TEST(CheckPmx, BaseModelHasNoFindings) { expect_exactly(model::check(base_pmx()), {}); }
TEST(CheckPmd, BaseModelHasNoFindings) { expect_exactly(model::check(base_pmd()), {}); }

// ---- PMX: indices -------------------------------------------------------------------------------

TEST(CheckPmx, VertexBoneOutOfRange) {
  auto m = base_pmx();
  m.vertices[1].bones[1] = 4;
  expect_exactly(model::check(m), {{FindingKind::index_out_of_range, "vertices", 1, "bones[1]"}});
  auto v = from_pmx(m);
  ASSERT_TRUE(v);
  EXPECT_EQ(v->vertices[1].bones[1], -1);
}

TEST(CheckPmx, FaceVertexOutOfRangeDropsTheTriangle) {
  auto m = base_pmx();
  m.faces = {0, 1, 2, 1, 2, 9};
  m.materials[0].face_index_count = 6;
  expect_exactly(model::check(m), {{FindingKind::index_out_of_range, "faces", 1, "vertex 2"}});
  auto v = from_pmx(m);
  EXPECT_EQ(v->faces, (std::vector<std::uint32_t>{0, 1, 2}));
  EXPECT_EQ(v->materials[0].index_count, 3u);
}

TEST(CheckPmx, NegativeFourByteVertexIndexIsOutOfRange) {
  auto m = base_pmx();
  m.faces[1] = 0xFFFFFFFFu;  // -1 as a 4-byte signed index
  expect_exactly(model::check(m), {{FindingKind::index_out_of_range, "faces", 0, "vertex 1"}});
}

TEST(CheckPmx, MaterialTextureOutOfRange) {
  auto m = base_pmx();
  m.materials[0].texture = 1;
  expect_exactly(model::check(m), {{FindingKind::index_out_of_range, "materials", 0, "texture"}});
  EXPECT_EQ(from_pmx(m)->materials[0].texture, "");
}

TEST(CheckPmx, SharedToonOutOfRange) {
  auto m = base_pmx();
  m.materials[0].toon = 10;
  expect_exactly(model::check(m), {{FindingKind::index_out_of_range, "materials", 0, "toon"}});
}

TEST(CheckPmx, BoneParentOutOfRange) {
  auto m = base_pmx();
  m.bones[1].parent = 7;
  // Bone 1 becomes a root: the IK link 1 is still an ancestor of effector 2.
  expect_exactly(model::check(m), {{FindingKind::index_out_of_range, "bones", 1, "parent"}});
}

TEST(CheckPmx, AppendParentOutOfRange) {
  auto m = base_pmx();
  m.bones[2].flags |= pmx::kAppendRotation;
  m.bones[2].append_parent = -5;
  m.bones[2].append_ratio = 1;
  expect_exactly(model::check(m), {{FindingKind::index_out_of_range, "bones", 2, "append_parent"}});
  EXPECT_FALSE(from_pmx(m)->bones[2].append_rotation);
}

TEST(CheckPmx, MorphVertexOutOfRange) {
  auto m = base_pmx();
  m.morphs[0].vertex_offsets[0].vertex = 4;
  expect_exactly(model::check(m), {{FindingKind::index_out_of_range, "morphs", 0, "offsets[0].vertex"}});
  EXPECT_TRUE(from_pmx(m)->morphs[0].vertex_offsets.empty());
}

TEST(CheckPmx, MorphBoneAndMaterialAndMorphOutOfRange) {
  auto m = base_pmx();
  m.morphs[2].bone_offsets[0].bone = 4;
  expect_exactly(model::check(m), {{FindingKind::index_out_of_range, "morphs", 2, "offsets[0].bone"}});
  m = base_pmx();
  m.morphs[1].group_offsets[0].morph = 3;
  expect_exactly(model::check(m), {{FindingKind::index_out_of_range, "morphs", 1, "offsets[0].morph"}});
  m = base_pmx();
  pmx::Morph mm;
  mm.type = pmx::MorphType::material;
  mm.material_offsets.push_back({});
  mm.material_offsets[0].material = -1;  // all materials: valid
  mm.material_offsets.push_back({});
  mm.material_offsets[1].material = 1;
  m.morphs.push_back(mm);
  expect_exactly(model::check(m), {{FindingKind::index_out_of_range, "morphs", 3, "offsets[1].material"}});
}

TEST(CheckPmx, RigidBodyAndJointOutOfRange) {
  auto m = base_pmx();
  m.rigid_bodies[1].bone = 4;
  expect_exactly(model::check(m), {{FindingKind::index_out_of_range, "rigid bodies", 1, "bone"}});
  m = base_pmx();
  m.joints[0].rigid_body_b = 2;
  expect_exactly(model::check(m), {{FindingKind::index_out_of_range, "joints", 0, "rigid_body_b"}});
}

// What physics repairs or ignores (physics/describe.cpp) is a warning of check too, one per record
// and problem, naming the field.
TEST(CheckPmx, PhysicsRecordsThatPhysicsRepairsOrIgnores) {
  const Severity w = Severity::warning;
  auto m = base_pmx();
  m.joints[0].rigid_body_b = 0;  // joins body 0 to itself
  expect_exactly(model::check(m), {{FindingKind::physics_record, "joints", 0, "rigid_body_b", w}});
  m = base_pmx();
  m.joints[0].linear_lower = {0, 1, 0};
  m.joints[0].linear_upper = {0, -1, 0};
  m.joints[0].angular_lower = {0.5f, 0, 0};
  expect_exactly(model::check(m), {{FindingKind::physics_record, "joints", 0, "angular_lower", w},   // axis x
                                   {FindingKind::physics_record, "joints", 0, "linear_lower", w}});  // axis y
  m = base_pmx();
  m.rigid_bodies[1].size = {0, 0, 0};  // sphere of radius 0
  m.rigid_bodies[0].shape = 1;         // box
  m.rigid_bodies[0].size = {1, -2, 1};
  expect_exactly(model::check(m), {{FindingKind::physics_record, "rigid bodies", 0, "size", w},
                                   {FindingKind::physics_record, "rigid bodies", 1, "size", w}});
  m = base_pmx();
  m.rigid_bodies[1].mode = 1;  // simulated, mass 0
  m.rigid_bodies[0].mass = -1; // follows its bone: its mass is not used
  expect_exactly(model::check(m), {{FindingKind::physics_record, "rigid bodies", 1, "mass", w}});
  m = base_pmx();
  m.rigid_bodies[1].shape = 2;  // capsule of height 0: a sphere, fine
  m.rigid_bodies[1].size = {0.5f, 0, 0};
  expect_exactly(model::check(m), {});
}

TEST(CheckPmx, DisplayElementOutOfRange) {
  auto m = base_pmx();
  m.display_frames[0].elements.push_back({1, 3});
  expect_exactly(model::check(m), {{FindingKind::index_out_of_range, "display frames", 0, "elements[2].index"}});
}

TEST(CheckPmx, SdefWithoutParameters) {
  auto m = base_pmx();
  m.vertices[3].sdef = 1;
  expect_exactly(model::check(m), {{FindingKind::index_out_of_range, "vertices", 3, "sdef"}});
}

// ---- PMX: structure -----------------------------------------------------------------------------

TEST(CheckPmx, BoneIsItsOwnParent) {
  auto m = base_pmx();
  m.bones[0].parent = 0;
  expect_exactly(model::check(m), {{FindingKind::bone_parent_loop, "bones", 0, "parent"}});
  EXPECT_EQ(from_pmx(m)->bones[0].parent, -1);
}

TEST(CheckPmx, BoneParentLoop) {
  auto m = base_pmx();
  m.bones[0].parent = 1;  // 0 → 1 → 0; the walk from 0 cuts at bone 1
  expect_exactly(model::check(m), {{FindingKind::bone_parent_loop, "bones", 1, "parent"}});
  auto v = from_pmx(m);
  EXPECT_EQ(v->bones[0].parent, 1);
  EXPECT_EQ(v->bones[1].parent, -1);
}

TEST(CheckPmx, IkLinkNotAncestor) {
  auto m = base_pmx();
  m.bones[3].ik_links.push_back(pmx::IkLink{3, 0, {}, {}});
  expect_exactly(model::check(m), {{FindingKind::ik_link_not_ancestor, "bones", 3, "ik_links[1].bone", Severity::warning}});
}

TEST(CheckPmx, IkLinkThatIsTheEffectorIsAWarning) {
  auto m = base_pmx();
  m.bones[3].ik_links[0].bone = 2;  // the effector itself (instead of its parent 1)
  expect_exactly(model::check(m), {{FindingKind::ik_link_not_ancestor, "bones", 3, "ik_links[0].bone", Severity::warning}});
}

TEST(CheckPmx, AdditionalUvMorphBeyondTheModelsCount) {
  auto m = base_pmx();
  pmx::Morph u;
  u.type = pmx::MorphType::additional_uv2;
  u.uv_offsets.push_back({0, {0.1f, 0, 0, 0}});
  m.morphs.push_back(u);
  m.header.additional_uv_count = 1;
  m.additional_uvs.assign(m.vertices.size(), pmx::Vec4{});
  expect_exactly(model::check(m), {{FindingKind::index_out_of_range, "morphs", 3, "type"}});
  EXPECT_TRUE(from_pmx(m)->morphs[3].uv_offsets.empty());
}

TEST(CheckPmx, IkEffectorIsTheIkBone) {
  auto m = base_pmx();
  m.bones[3].ik_target = 3;
  expect_exactly(model::check(m), {{FindingKind::ik_invalid, "bones", 3, "ik_target"}});
  EXPECT_TRUE(from_pmx(m)->ik_chains.empty());
}

TEST(CheckPmx, GroupMorphLoop) {
  auto m = base_pmx();
  m.morphs[1].group_offsets.push_back({1, 0.5f});
  expect_exactly(model::check(m), {{FindingKind::group_morph_loop, "morphs", 1, "offsets[1].morph"}});
  EXPECT_EQ(from_pmx(m)->morphs[1].group_offsets.size(), 1u);
}

TEST(CheckPmx, GroupMorphNested) {
  auto m = base_pmx();
  pmx::Morph g;
  g.type = pmx::MorphType::group;
  g.group_offsets = {{2, 1.0f}, {1, 1.0f}};
  m.morphs.push_back(g);
  expect_exactly(model::check(m), {{FindingKind::group_morph_nested, "morphs", 3, "offsets[1].morph"}});
}

TEST(CheckPmx, GroupMorphLoopThroughTwo) {
  auto m = base_pmx();
  pmx::Morph g;
  g.type = pmx::MorphType::group;
  g.group_offsets = {{1, 1.0f}};
  m.morphs.push_back(g);
  m.morphs[1].group_offsets.push_back({3, 1.0f});
  expect_exactly(model::check(m), {{FindingKind::group_morph_loop, "morphs", 1, "offsets[1].morph"},
                            {FindingKind::group_morph_loop, "morphs", 3, "offsets[0].morph"}});
}

TEST(CheckPmx, NonFinite) {
  auto m = base_pmx();
  m.vertices[2].position[1] = std::numeric_limits<float>::quiet_NaN();
  expect_exactly(model::check(m), {{FindingKind::non_finite, "vertices", 2, "position"}});
  m = base_pmx();
  m.bones[1].position[0] = std::numeric_limits<float>::infinity();
  expect_exactly(model::check(m), {{FindingKind::non_finite, "bones", 1, "position"}});
  m = base_pmx();
  m.rigid_bodies[0].mass = std::numeric_limits<float>::quiet_NaN();
  expect_exactly(model::check(m), {{FindingKind::non_finite, "rigid bodies", 0, "mass"}});
  m = base_pmx();
  m.morphs[0].vertex_offsets[0].offset[2] = -std::numeric_limits<float>::infinity();
  expect_exactly(model::check(m), {{FindingKind::non_finite, "morphs", 0, "offsets.offset"}});
}

TEST(CheckPmx, FaceCountNotTriangles) {
  auto m = base_pmx();
  m.faces.push_back(0);
  m.materials[0].face_index_count = 4;
  expect_exactly(model::check(m), {{FindingKind::face_count_not_triangles, "faces", -1, "count"},
                            {FindingKind::face_count_not_triangles, "materials", 0, "face_count"}});
  EXPECT_EQ(from_pmx(m)->faces.size(), 3u);
}

TEST(CheckPmx, MaterialFaceSum) {
  auto m = base_pmx();
  m.faces = {0, 1, 2, 2, 1, 0};
  expect_exactly(model::check(m), {{FindingKind::material_face_sum, "materials", -1, "face_count"}});
  m.materials[0].face_index_count = 9;
  expect_exactly(model::check(m), {{FindingKind::material_face_sum, "materials", -1, "face_count"}});
  auto v = from_pmx(m);
  EXPECT_EQ(v->materials[0].index_count, 6u);  // clamped to the faces there are
}

TEST(CheckPmx, WeightsNotNormalized) {
  auto m = base_pmx();
  m.vertices[2].weights = {0.25f, 0.25f, 0.25f, 0.2f};
  expect_exactly(model::check(m), {{FindingKind::weights_not_normalized, "vertices", 2, "weights", Severity::warning}});
  m.vertices[2].weights = {0.25f, 0.25f, 0.25f, 0.255f};  // within 0.01
  expect_exactly(model::check(m), {});
  m = base_pmx();
  m.vertices[1].weights[0] = 1.5f;
  expect_exactly(model::check(m), {{FindingKind::weights_not_normalized, "vertices", 1, "weights[0]", Severity::warning}});
}

TEST(CheckPmx, NameWithoutCp932Form) {
  auto m = base_pmx();
  m.bones[2].name = ptext("首\xF0\x9F\x98\x80");  // U+1F600
  expect_exactly(model::check(m), {{FindingKind::name_not_cp932, "bones", 2, "name", Severity::warning}});
  EXPECT_TRUE(from_pmx(m)->bones[2].binding_key.empty());
}

TEST(CheckPmx, LargeAdversarialModelStaysLinear) {
  // 60,000 bones in one chain with 3,000 IK bones whose single link is the root (an ancestor of
  // every effector), and 2,000 group morphs each listing the next 20 (wrapping: one big cycle).
  pmx::Model m;
  const std::int32_t nb = 60000;
  m.bones.resize(nb);
  for (std::int32_t i = 0; i < nb; ++i) {
    m.bones[static_cast<std::size_t>(i)].parent = i - 1;
    m.bones[static_cast<std::size_t>(i)].flags = pmx::kRotatable;
  }
  for (std::int32_t k = 0; k < 3000; ++k) {
    pmx::Bone& b = m.bones[static_cast<std::size_t>(nb - 1 - k)];
    b.flags |= pmx::kIk;
    b.ik_target = nb - 3001;
    b.ik_links = {pmx::IkLink{0, 0, {}, {}}};
  }
  const std::int32_t nm = 2000;
  m.morphs.resize(nm);
  for (std::int32_t i = 0; i < nm; ++i) {
    auto& mo = m.morphs[static_cast<std::size_t>(i)];
    mo.type = pmx::MorphType::group;
    for (std::int32_t k = 1; k <= 20; ++k) mo.group_offsets.push_back({(i + k) % nm, 1.0f});
  }
  auto fs = model::check(m);
  ASSERT_EQ(fs.size(), 2000u * 20u);
  for (const auto& f : fs) ASSERT_EQ(f.kind, FindingKind::group_morph_loop);
  auto v = from_pmx(m);
  ASSERT_TRUE(v);
  EXPECT_EQ(v->ik_chains.size(), 3000u);
  for (const auto& mo : v->morphs) EXPECT_TRUE(mo.group_offsets.empty());
}

// ---- textures -----------------------------------------------------------------------------------

void touch(const std::filesystem::path& p) { std::ofstream(p) << "x"; }

TEST(CheckPmx, TextureMissingEscapingAndCaseInsensitive) {
  auto dir = mmdkit::test::temp_dir("model_check_tex");
  auto m = base_pmx();
  CheckOptions o{.folder = dir};
  expect_exactly(model::check(m, o), {{FindingKind::texture_missing, "materials", 0, "texture", Severity::warning}});
  touch(dir / "TEX.PNG");  // case differs: still found
  expect_exactly(model::check(m, o), {});
  m.textures[0] = ptext("..\\tex.png");
  expect_exactly(model::check(m, o), {{FindingKind::texture_escapes, "materials", 0, "texture", Severity::warning}});
  m.textures[0] = ptext("sub\\..\\Tex.png");  // stays inside
  expect_exactly(model::check(m, o), {});
  // Without a folder no texture is looked at.
  m.textures[0] = ptext("nothere.png");
  expect_exactly(model::check(m), {});
}

// ---- PMD ----------------------------------------------------------------------------------------

TEST(CheckPmd, IndicesOutOfRange) {
  auto m = base_pmd();
  m.vertices[1].bones[1] = 10;
  expect_exactly(model::check(m), {{FindingKind::index_out_of_range, "vertices", 1, "bones[1]"}});
  m = base_pmd();
  m.indices[2] = 3;
  expect_exactly(model::check(m), {{FindingKind::index_out_of_range, "faces", 0, "vertex 2"}});
  m = base_pmd();
  m.bones[3].parent = 10;
  expect_exactly(model::check(m), {{FindingKind::index_out_of_range, "bones", 3, "parent"},
                            {FindingKind::ik_link_not_ancestor, "ik chains", 0, "links[0]", Severity::warning},
                            {FindingKind::ik_link_not_ancestor, "ik chains", 0, "links[1]", Severity::warning}});
  m = base_pmd();
  m.ik_chains[0].links.push_back(20);
  expect_exactly(model::check(m), {{FindingKind::index_out_of_range, "ik chains", 0, "links[2]"}});
  m = base_pmd();
  m.ik_chains[0].effector = 20;
  expect_exactly(model::check(m), {{FindingKind::index_out_of_range, "ik chains", 0, "effector"}});
  m = base_pmd();
  m.morphs[1].offsets[0].vertex = 2;  // base has 2 entries
  expect_exactly(model::check(m), {{FindingKind::index_out_of_range, "morphs", 1, "offsets[0].vertex"}});
  m = base_pmd();
  m.morphs[0].offsets[1].vertex = 3;  // base entry → vertex 3 of 3
  expect_exactly(model::check(m), {{FindingKind::index_out_of_range, "morphs", 0, "offsets[1].vertex"}});
  m = base_pmd();
  m.morph_display.push_back(0);  // the base morph
  expect_exactly(model::check(m), {{FindingKind::index_out_of_range, "morph display", 1, "morph"}});
  m = base_pmd();
  m.bone_display.push_back({3, 2});  // frame 2 of 1
  expect_exactly(model::check(m), {{FindingKind::index_out_of_range, "bone display", 2, "frame"}});
  m = base_pmd();
  m.rigid_bodies[0].bone = 10;
  expect_exactly(model::check(m), {{FindingKind::index_out_of_range, "rigid bodies", 0, "bone"}});
  m = base_pmd();
  m.joints[0].rigid_b = 2;
  expect_exactly(model::check(m), {{FindingKind::index_out_of_range, "joints", 0, "rigid_b"}});
  m = base_pmd();
  m.materials[0].toon_index = 10;
  expect_exactly(model::check(m), {{FindingKind::index_out_of_range, "materials", 0, "toon_index"}});
  m = base_pmd();
  m.bones[5].tail = 30;  // display only: a warning
  expect_exactly(model::check(m), {{FindingKind::index_out_of_range, "bones", 5, "tail", Severity::warning}});
}

TEST(CheckPmd, StructureAndValues) {
  auto m = base_pmd();
  m.bones[1].parent = 2;  // 1 → 2 → 1
  auto fs = model::check(m);
  ASSERT_GE(fs.size(), 1u) << dump(fs);
  EXPECT_EQ(fs[0].kind, FindingKind::bone_parent_loop);
  EXPECT_EQ(fs[0].record, 2);
  m = base_pmd();
  m.ik_chains[0].links.push_back(5);  // 両目 is no ancestor of 左足首: a warning (MMD uses such models)
  expect_exactly(model::check(m), {{FindingKind::ik_link_not_ancestor, "ik chains", 0, "links[2]", Severity::warning}});
  m = base_pmd();
  m.ik_chains[0].effector = 4;
  expect_exactly(model::check(m), {{FindingKind::ik_invalid, "ik chains", 0, "effector"}});
  m = base_pmd();
  m.indices.push_back(0);
  expect_exactly(model::check(m), {{FindingKind::face_count_not_triangles, "faces", -1, "count"},
                            {FindingKind::material_face_sum, "materials", -1, "face_count"}});
  m = base_pmd();
  m.materials[0].index_count = 6;
  expect_exactly(model::check(m), {{FindingKind::material_face_sum, "materials", -1, "face_count"}});
  m = base_pmd();
  m.vertices[1].weight = 150;
  expect_exactly(model::check(m), {{FindingKind::weights_not_normalized, "vertices", 1, "weight", Severity::warning}});
  m = base_pmd();
  m.morphs[1].offsets[0].offset[0] = std::numeric_limits<float>::quiet_NaN();
  expect_exactly(model::check(m), {{FindingKind::non_finite, "morphs", 1, "offsets.offset"}});
  m = base_pmd();
  m.joints[0].spring_rotation[2] = std::numeric_limits<float>::infinity();
  expect_exactly(model::check(m), {{FindingKind::non_finite, "joints", 0, "angular_spring"}});
}

TEST(CheckPmd, TexturesOfTheSplitField) {
  auto dir = mmdkit::test::temp_dir("model_check_pmd_tex");
  auto m = base_pmd();
  CheckOptions o{.folder = dir};
  touch(dir / "tex.bmp");
  // env.sph is missing; toon01.bmp is MMD's shared toon, never missing.
  expect_exactly(model::check(m, o), {{FindingKind::texture_missing, "materials", 0, "texture", Severity::warning}});
  touch(dir / "Env.SPH");
  expect_exactly(model::check(m, o), {});
  m.toon_textures[0] = test::dtext<pmd::kToonNameSize>("myToon.bmp");
  expect_exactly(model::check(m, o), {{FindingKind::texture_missing, "materials", 0, "toon_index", Severity::warning}});
}

}  // namespace
}  // namespace mmdkit::model
