// PMD → PMX: the converted model reads back, and its view equals the PMD's view.
#include <gtest/gtest.h>

#include <algorithm>

#include "fixtures.hpp"
#include "mmdkit/model/convert.hpp"
#include "support/corpus.hpp"

namespace mmdkit::model {
namespace {

// Field-by-field equality of two views, except what only says where the view came from
// (source, transform_order, deform_layer, pmd_type, pmd_base_morph, IK source_index) and the
// IK chain order (PMD: file order; PMX: IK bone order).
void expect_same_view(const Model& a, const Model& b) {
  EXPECT_EQ(a.name, b.name);
  EXPECT_EQ(a.name_en, b.name_en);
  EXPECT_EQ(a.comment, b.comment);
  ASSERT_EQ(a.vertices.size(), b.vertices.size());
  for (std::size_t i = 0; i < a.vertices.size(); ++i) {
    const Vertex &x = a.vertices[i], &y = b.vertices[i];
    ASSERT_EQ(x.position, y.position) << i;
    ASSERT_EQ(x.normal, y.normal) << i;
    ASSERT_EQ(x.uv, y.uv) << i;
    ASSERT_EQ(x.deform, y.deform) << i;
    ASSERT_EQ(x.bones, y.bones) << i;
    ASSERT_EQ(x.weights, y.weights) << i;
    ASSERT_EQ(x.edge_scale, y.edge_scale) << i;
  }
  EXPECT_EQ(a.faces, b.faces);
  ASSERT_EQ(a.materials.size(), b.materials.size());
  for (std::size_t i = 0; i < a.materials.size(); ++i) {
    const Material &x = a.materials[i], &y = b.materials[i];
    EXPECT_EQ(x.name, y.name);
    EXPECT_EQ(x.diffuse, y.diffuse);
    EXPECT_EQ(x.specular, y.specular);
    EXPECT_EQ(x.ambient, y.ambient);
    EXPECT_EQ(x.specular_power, y.specular_power);
    EXPECT_EQ(x.flags, y.flags);
    EXPECT_EQ(x.texture, y.texture);
    EXPECT_EQ(x.sphere, y.sphere);
    EXPECT_EQ(x.sphere_mode, y.sphere_mode);
    EXPECT_EQ(x.shared_toon, y.shared_toon);
    EXPECT_EQ(x.toon, y.toon);
    EXPECT_EQ(x.first_index, y.first_index);
    EXPECT_EQ(x.index_count, y.index_count);
  }
  ASSERT_EQ(a.bones.size(), b.bones.size());
  for (std::size_t i = 0; i < a.bones.size(); ++i) {
    const Bone &x = a.bones[i], &y = b.bones[i];
    EXPECT_EQ(x.name, y.name) << i;
    EXPECT_EQ(x.name_en, y.name_en) << i;
    EXPECT_EQ(x.binding_key, y.binding_key) << i;
    EXPECT_EQ(x.parent, y.parent) << i;
    EXPECT_EQ(x.position, y.position) << i;
    EXPECT_EQ(x.tail_bone, y.tail_bone) << i;
    EXPECT_EQ(x.rotatable, y.rotatable) << i;
    EXPECT_EQ(x.movable, y.movable) << i;
    EXPECT_EQ(x.visible, y.visible) << i;
    EXPECT_EQ(x.operable, y.operable) << i;
    EXPECT_EQ(x.is_ik, y.is_ik) << i;
    EXPECT_EQ(x.append_rotation, y.append_rotation) << i;
    EXPECT_EQ(x.append_parent, y.append_parent) << i;
    EXPECT_EQ(x.append_ratio, y.append_ratio) << i;
    EXPECT_EQ(x.has_fixed_axis, y.has_fixed_axis) << i;
    EXPECT_EQ(x.fixed_axis, y.fixed_axis) << i;
  }
  EXPECT_EQ(a.bone_order, b.bone_order);
  ASSERT_EQ(a.ik_chains.size(), b.ik_chains.size());
  auto by_bone = [](std::vector<IkChain> v) {
    std::stable_sort(v.begin(), v.end(), [](const IkChain& p, const IkChain& q) { return p.ik_bone < q.ik_bone; });
    return v;
  };
  auto ca = by_bone(a.ik_chains), cb = by_bone(b.ik_chains);
  for (std::size_t i = 0; i < ca.size(); ++i) {
    EXPECT_EQ(ca[i].ik_bone, cb[i].ik_bone);
    EXPECT_EQ(ca[i].effector, cb[i].effector);
    EXPECT_EQ(ca[i].iterations, cb[i].iterations);
    EXPECT_EQ(ca[i].unit_angle, cb[i].unit_angle);
    ASSERT_EQ(ca[i].links.size(), cb[i].links.size());
    for (std::size_t k = 0; k < ca[i].links.size(); ++k) {
      EXPECT_EQ(ca[i].links[k].bone, cb[i].links[k].bone);
      EXPECT_EQ(ca[i].links[k].has_limits, cb[i].links[k].has_limits);
      EXPECT_EQ(ca[i].links[k].lower, cb[i].links[k].lower);
      EXPECT_EQ(ca[i].links[k].upper, cb[i].links[k].upper);
    }
  }
  ASSERT_EQ(a.morphs.size(), b.morphs.size());
  for (std::size_t i = 0; i < a.morphs.size(); ++i) {
    EXPECT_EQ(a.morphs[i].name, b.morphs[i].name);
    EXPECT_EQ(a.morphs[i].name_en, b.morphs[i].name_en);
    EXPECT_EQ(a.morphs[i].panel, b.morphs[i].panel);
    EXPECT_EQ(a.morphs[i].binding_key, b.morphs[i].binding_key);
    ASSERT_EQ(a.morphs[i].vertex_offsets.size(), b.morphs[i].vertex_offsets.size());
    for (std::size_t k = 0; k < a.morphs[i].vertex_offsets.size(); ++k) {
      EXPECT_EQ(a.morphs[i].vertex_offsets[k].vertex, b.morphs[i].vertex_offsets[k].vertex);
      EXPECT_EQ(a.morphs[i].vertex_offsets[k].offset, b.morphs[i].vertex_offsets[k].offset);
    }
  }
  ASSERT_EQ(a.display_frames.size(), b.display_frames.size());
  for (std::size_t i = 0; i < a.display_frames.size(); ++i) {
    EXPECT_EQ(a.display_frames[i].name, b.display_frames[i].name);
    EXPECT_EQ(a.display_frames[i].special, b.display_frames[i].special);
    ASSERT_EQ(a.display_frames[i].elements.size(), b.display_frames[i].elements.size());
    for (std::size_t k = 0; k < a.display_frames[i].elements.size(); ++k) {
      EXPECT_EQ(a.display_frames[i].elements[k].morph, b.display_frames[i].elements[k].morph);
      EXPECT_EQ(a.display_frames[i].elements[k].index, b.display_frames[i].elements[k].index);
    }
  }
  ASSERT_EQ(a.rigid_bodies.size(), b.rigid_bodies.size());
  for (std::size_t i = 0; i < a.rigid_bodies.size(); ++i) {
    EXPECT_EQ(a.rigid_bodies[i].bone, b.rigid_bodies[i].bone);
    EXPECT_EQ(a.rigid_bodies[i].position, b.rigid_bodies[i].position);
    EXPECT_EQ(a.rigid_bodies[i].collision_mask, b.rigid_bodies[i].collision_mask);
    EXPECT_EQ(a.rigid_bodies[i].mass, b.rigid_bodies[i].mass);
  }
  ASSERT_EQ(a.joints.size(), b.joints.size());
  for (std::size_t i = 0; i < a.joints.size(); ++i) {
    EXPECT_EQ(a.joints[i].rigid_body_a, b.joints[i].rigid_body_a);
    EXPECT_EQ(a.joints[i].rigid_body_b, b.joints[i].rigid_body_b);
    EXPECT_EQ(a.joints[i].angular_upper, b.joints[i].angular_upper);
  }
}

// Converts, writes, reads back; returns the view of what was read.
Model round_trip(const pmd::Model& pmd, pmx::Model* out = nullptr) {
  std::vector<Warning> warnings;
  auto p = pmd_to_pmx(pmd, &warnings);
  EXPECT_TRUE(p) << p.error().to_string();
  EXPECT_TRUE(warnings.empty());
  auto bytes = pmx::write(*p);
  EXPECT_TRUE(bytes) << bytes.error().to_string();
  auto r = pmx::read(*bytes, pmx::ReadOptions{.strict = true});
  EXPECT_TRUE(r) << r.error().to_string();
  if (out) *out = r->model;
  auto v = from_pmx(r->model);
  EXPECT_TRUE(v);
  EXPECT_TRUE(v->findings.empty());
  return *v;
}

TEST(ConvertPmd, BuiltModelViewSurvives) {
  const pmd::Model pmd = test::base_pmd();
  pmx::Model p;
  Model back = round_trip(pmd, &p);
  auto view = from_pmd(pmd);
  ASSERT_TRUE(view);
  expect_same_view(*view, back);
  // PMX specifics: UTF-16, minimal index sizes, 2 textures (tex.bmp, env.sph), shared toon 0,
  // knee limit, IK ×4 and the PMD stages as deform layers.
  EXPECT_EQ(p.header.encoding, Encoding::utf16le);
  EXPECT_EQ(p.header.vertex_index_size, 1);
  EXPECT_EQ(p.header.bone_index_size, 1);
  ASSERT_EQ(p.textures.size(), 2u);
  EXPECT_EQ(p.textures[0].text, "tex.bmp");
  EXPECT_EQ(p.textures[1].text, "env.sph");
  EXPECT_EQ(p.materials[0].sphere_mode, 1);
  EXPECT_EQ(p.materials[0].shared_toon, 1);
  EXPECT_EQ(p.materials[0].toon, 0);
  EXPECT_TRUE(p.bones[4].has(pmx::kIk));
  EXPECT_FLOAT_EQ(p.bones[4].ik_limit_angle, 2.0f);
  EXPECT_EQ(p.bones[4].ik_links[0].has_limits, 1);
  EXPECT_EQ(p.bones[0].deform_layer, 0);
  EXPECT_EQ(p.bones[4].deform_layer, 1);
  EXPECT_EQ(p.bones[9].deform_layer, 2);
  EXPECT_TRUE(p.bones[9].has(pmx::kAppendRotation));
  EXPECT_EQ(p.vertices[1].deform, pmx::DeformType::bdef2);
}

TEST(ConvertPmd, SecondChainOnOneIkBoneIsAWarning) {
  auto pmd = test::base_pmd();
  pmd.ik_chains.push_back(pmd.ik_chains[0]);
  std::vector<Warning> w;
  auto p = pmd_to_pmx(pmd, &w);
  ASSERT_TRUE(p);
  ASSERT_EQ(w.size(), 1u);
  EXPECT_EQ(w[0].section, "ik chains");
  EXPECT_EQ(w[0].record, 1);
}

TEST(ConvertPmd, MikuV2ViewEqualsAfterConversion) {
  MMDKIT_REQUIRE_CORPUS();
  auto f = mmdkit::test::corpus_file("jomin398__jomin398.github.io/docs/assets/models/mmd/miku_v2/miku_v2.pmd");
  ASSERT_TRUE(f);
  auto r = pmd::read_file(f->path);
  ASSERT_TRUE(r);
  auto view = from_pmd(r->model);
  ASSERT_TRUE(view);
  pmx::Model p;
  Model back = round_trip(r->model, &p);
  expect_same_view(*view, back);
  // Independent figures (Python reading of the PMD): 12354 vertices, 140 bones, 30 morphs.
  EXPECT_EQ(p.vertices.size(), 12354u);
  EXPECT_EQ(p.header.vertex_index_size, 2);
  EXPECT_EQ(p.bones.size(), 140u);
  EXPECT_EQ(p.morphs.size(), 30u);
  EXPECT_EQ(p.header.bone_index_size, 2);  // 140 > 127
  EXPECT_EQ(p.header.morph_index_size, 1);
}

TEST(ConvertPmd, EveryCorpusPmdConvertsAndReadsBack) {
  MMDKIT_REQUIRE_CORPUS();
  for (const auto& f : mmdkit::test::corpus_files("pmd")) {
    auto r = pmd::read_file(f.path);
    ASSERT_TRUE(r) << f.local_path;
    auto view = from_pmd(r->model);
    ASSERT_TRUE(view);
    auto p = pmd_to_pmx(r->model);
    ASSERT_TRUE(p) << f.local_path << ": " << p.error().to_string();
    auto bytes = pmx::write(*p);
    ASSERT_TRUE(bytes) << f.local_path << ": " << bytes.error().to_string();
    auto back = pmx::read(*bytes, pmx::ReadOptions{.strict = true});
    ASSERT_TRUE(back) << f.local_path;
    auto v2 = from_pmx(back->model);
    ASSERT_TRUE(v2);
    SCOPED_TRACE(f.local_path);
    expect_same_view(*view, *v2);
  }
}

}  // namespace
}  // namespace mmdkit::model
