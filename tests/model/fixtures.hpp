// Small PMX / PMD models built in code for the model tests: valid (no findings) bases that each
// test breaks in one place.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "mmdkit/formats/pmd.hpp"
#include "mmdkit/formats/pmx.hpp"
#include "mmdkit/model/model.hpp"

namespace mmdkit::model::test {

inline pmx::Text ptext(const std::string& s) {
  pmx::Text t;
  t.text = s;
  return t;
}

/// 4 vertices (BDEF1, BDEF2, BDEF4, SDEF), 1 triangle, 1 texture, 1 material, bones
/// 0 root → 1 → 2 and 3 = IK bone (parent 0, effector 2, link 1), morphs 0 vertex, 1 group [0],
/// 2 bone; one display frame (bone 0, morph 0); 2 rigid bodies (bones 0, 1), 1 joint.
inline pmx::Model base_pmx() {
  pmx::Model m;
  m.header.encoding = Encoding::utf16le;
  m.name = ptext("テスト");
  pmx::Vertex v;
  v.normal = {0, 1, 0};
  v.deform = pmx::DeformType::bdef1;
  v.bones = {0, 0, 0, 0};
  v.weights = {1, 0, 0, 0};
  m.vertices.push_back(v);
  v.position = {1, 0, 0};
  v.deform = pmx::DeformType::bdef2;
  v.bones = {0, 1, 0, 0};
  v.weights = {0.5f, 0, 0, 0};
  m.vertices.push_back(v);
  v.position = {0, 1, 0};
  v.deform = pmx::DeformType::bdef4;
  v.bones = {0, 1, 2, 3};
  v.weights = {0.25f, 0.25f, 0.25f, 0.25f};
  m.vertices.push_back(v);
  v.position = {0, 0, 1};
  v.deform = pmx::DeformType::sdef;
  v.bones = {1, 2, 0, 0};
  v.weights = {0.75f, 0, 0, 0};
  v.sdef = 0;
  m.vertices.push_back(v);
  m.sdef_params.push_back({{0, 1, 0}, {0, 0.5f, 0}, {0, 1.5f, 0}});
  m.faces = {0, 1, 2};
  m.textures.push_back(ptext("tex.png"));
  pmx::Material mat;
  mat.name = ptext("材質1");
  mat.diffuse = {1, 1, 1, 1};
  mat.texture = 0;
  mat.shared_toon = 1;
  mat.toon = 2;
  mat.face_index_count = 3;
  m.materials.push_back(mat);
  const char* names[] = {"センター", "上半身", "首", "首ＩＫ"};
  for (int i = 0; i < 4; ++i) {
    pmx::Bone b;
    b.name = ptext(names[i]);
    b.position = {0, float(i), 0};
    b.parent = i == 0 ? -1 : (i == 3 ? 0 : i - 1);
    b.flags = pmx::kRotatable | pmx::kVisible | pmx::kOperable;
    m.bones.push_back(b);
  }
  pmx::Bone& ik = m.bones[3];
  ik.flags |= pmx::kIk | pmx::kMovable;
  ik.ik_target = 2;
  ik.ik_iterations = 10;
  ik.ik_limit_angle = 1.0f;
  ik.ik_links.push_back(pmx::IkLink{1, 0, {}, {}});
  pmx::Morph vm;
  vm.name = ptext("あ");
  vm.type = pmx::MorphType::vertex;
  vm.vertex_offsets.push_back({1, {0, 0.5f, 0}});
  pmx::Morph gm;
  gm.name = ptext("グループ");
  gm.type = pmx::MorphType::group;
  gm.group_offsets.push_back({0, 1.0f});
  pmx::Morph bm;
  bm.name = ptext("ボーン");
  bm.type = pmx::MorphType::bone;
  bm.bone_offsets.push_back({1, {0, 1, 0}, {0, 0, 0, 1}});
  m.morphs = {vm, gm, bm};
  pmx::DisplayFrame f;
  f.name = ptext("Root");
  f.special = 1;
  f.elements = {{0, 0}, {1, 0}};
  m.display_frames.push_back(f);
  pmx::RigidBody r;
  r.name = ptext("剛体");
  r.bone = 0;
  r.size = {1, 1, 1};
  m.rigid_bodies = {r, r};
  m.rigid_bodies[1].bone = 1;
  pmx::Joint j;
  j.name = ptext("J");
  j.rigid_body_a = 0;
  j.rigid_body_b = 1;
  m.joints.push_back(j);
  return m;
}

template <std::size_t N>
inline pmd::FixedText<N> dtext(const std::string& utf8) {
  pmd::FixedText<N> t;
  EXPECT_TRUE(pmd::set_text(t, utf8, Encoding::cp932)) << utf8;
  return t;
}

/// PMD: 3 vertices, 1 triangle, 1 material ("tex.bmp*env.sph", toon 0 = toon01.bmp), bones
/// 0 センター (rotate+move), 1 左足 (parent 0), 2 左ひざ (parent 1), 3 左足首 (parent 2), 4 左足ＩＫ
/// (IK, parent 0), 5 両目 (parent 0), 6 左目 (type 5 following 両目), 7 左腕捩 (twist, tail 8),
/// 8 左腕捩先 (parent 7), 9 左腕捩1 (type 9: tail 7, ratio 25); IK chain 4 → effector 3, links
/// 2, 1, unit 0.5; morphs base (vertices 0, 2), "あ" (base entry 1); frames; 1 rigid body on
/// bone 2 at offset (0, 1, 0); 1 joint.
inline pmd::Model base_pmd() {
  pmd::Model m;
  m.name = dtext<pmd::kNameSize>("テスト");
  for (int i = 0; i < 3; ++i) {
    pmd::Vertex v;
    v.position = {float(i), 0, 0};
    v.normal = {0, 1, 0};
    v.bones = {std::uint16_t(i), std::uint16_t(i + 1)};
    v.weight = std::uint8_t(i == 1 ? 60 : 100);
    m.vertices.push_back(v);
  }
  m.indices = {0, 1, 2};
  pmd::Material mat;
  mat.diffuse = {1, 1, 1, 1};
  mat.toon_index = 0;
  mat.edge_flag = 1;
  mat.index_count = 3;
  mat.texture = dtext<pmd::kTextureNameSize>("tex.bmp*env.sph");
  m.materials.push_back(mat);
  struct B {
    const char* name;
    std::uint16_t parent, tail;
    std::uint8_t type;
    std::uint16_t ik_parent;
    float y;
  };
  const B bones[] = {
      {"センター", pmd::kNoBone, 1, 1, 0, 8},  {"左足", 0, 2, 0, 0, 10},  {"左ひざ", 1, 3, 4, 4, 6},
      {"左足首", 2, 0, 4, 4, 2},                {"左足ＩＫ", 0, 0, 2, 0, 2}, {"両目", 0, 0, 0, 0, 18},
      {"左目", 5, 0, 5, 5, 18},                 {"左腕捩", 0, 8, 8, 0, 15}, {"左腕捩先", 7, 0, 7, 0, 15},
      {"左腕捩1", 0, 7, 9, 25, 15},
  };
  for (const B& b : bones) {
    pmd::Bone x;
    x.name = dtext<pmd::kNameSize>(b.name);
    x.parent = b.parent;
    x.tail = b.tail;
    x.type = b.type;
    x.ik_parent = b.ik_parent;
    x.position = {b.type == 7 ? 3.0f : 0.5f, b.y, 0};
    m.bones.push_back(x);
  }
  m.bones[7].position = {1, 15, 0};
  m.bones[8].position = {3, 15, 0};
  pmd::IkChain k;
  k.target = 4;
  k.effector = 3;
  k.iterations = 40;
  k.unit_angle = 0.5f;
  k.links = {2, 1};
  m.ik_chains.push_back(k);
  pmd::Morph base;
  base.name = dtext<pmd::kNameSize>("base");
  base.type = 0;
  base.offsets = {{0, {0, 0, 0}}, {2, {2, 0, 0}}};
  pmd::Morph a;
  a.name = dtext<pmd::kNameSize>("あ");
  a.type = 3;
  a.offsets = {{1, {0, 0.5f, 0}}};
  m.morphs = {base, a};
  m.morph_display = {1};
  m.bone_frames = {dtext<pmd::kFrameNameSize>("足\n")};
  m.bone_display = {{1, 1}, {2, 1}};
  for (std::size_t i = 0; i < pmd::kToonCount; ++i) {
    char buf[16];
    std::snprintf(buf, sizeof buf, "toon%02zu.bmp", i + 1);
    m.toon_textures[i] = dtext<pmd::kToonNameSize>(buf);
  }
  pmd::RigidBody r;
  r.name = dtext<pmd::kNameSize>("ひざ");
  r.bone = 2;
  r.size = {1, 1, 1};
  r.position = {0, 1, 0};
  m.rigid_bodies = {r, r};
  m.rigid_bodies[1].bone = 1;
  pmd::Joint j;
  j.name = dtext<pmd::kNameSize>("J");
  j.rigid_a = 0;
  j.rigid_b = 1;
  m.joints.push_back(j);
  return m;
}

}  // namespace mmdkit::model::test
