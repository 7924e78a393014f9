// Small PMD models built in code for the pmd tests (no corpus files copied).
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "mmdkit/formats/pmd.hpp"

namespace mmdkit::pmd::test {

template <std::size_t N>
inline FixedText<N> text(const std::string& utf8, Encoding enc = Encoding::cp932) {
  FixedText<N> t;
  auto r = set_text(t, utf8, enc);
  EXPECT_TRUE(r) << utf8;
  return t;
}

/// A model with every section non-empty: 3 vertices, 1 triangle, 2 materials, 3 bones, 1 IK chain
/// with 2 links, 3 morphs (base + 2), 2 display lists, 2 bone frames, English names, toon names,
/// 2 rigid bodies and 1 joint. Names in CP932 (Japanese), one name with garbage after its NUL.
inline Model sample_model(Encoding enc = Encoding::cp932) {
  Model m;
  m.encoding = enc;
  m.name = text<kNameSize>("テストモデル", enc);
  m.comment = text<kCommentSize>("一行目\r\n二行目", enc);
  for (int i = 0; i < 3; ++i) {
    Vertex v;
    v.position = {float(i), 1.5f * float(i), -0.25f};
    v.normal = {0, 0, -1};
    v.uv = {0.5f, float(i) / 3.0f};
    v.bones = {std::uint16_t(i % 3), std::uint16_t((i + 1) % 3)};
    v.weight = std::uint8_t(100 - 25 * i);
    v.edge_off = std::uint8_t(i == 2);
    m.vertices.push_back(v);
  }
  m.indices = {0, 1, 2};
  Material a;
  a.diffuse = {1, 0.5f, 0.25f, 1};
  a.specular_power = 5;
  a.specular = {0.1f, 0.2f, 0.3f};
  a.ambient = {0.4f, 0.5f, 0.6f};
  a.toon_index = 3;
  a.edge_flag = 1;
  a.index_count = 3;
  a.texture = text<kTextureNameSize>("tex.bmp*sph.spa");
  Material b = a;
  b.toon_index = kNoToon;
  b.index_count = 0;
  b.texture = {};
  // A texture field filling all 20 bytes, no NUL.
  b.texture.raw = {'a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j', 'k', 'l', 'm', 'n', 'o', 'p', '.', 'b', 'm', 'p'};
  b.texture.text = "abcdefghijklmnop.bmp";
  m.materials = {a, b};
  const char* bone_names[] = {"センター", "左足ＩＫ", "左ひざ"};
  for (int i = 0; i < 3; ++i) {
    Bone x;
    x.name = text<kNameSize>(bone_names[i], enc);
    x.parent = i == 0 ? kNoBone : std::uint16_t(i - 1);
    x.tail = std::uint16_t(i < 2 ? i + 1 : 0);  // the last bone has no tail
    x.type = std::uint8_t(i == 1 ? 2 : 0);
    x.ik_parent = 0;
    x.position = {0, 10.0f - float(i), 0.125f};
    m.bones.push_back(x);
  }
  // Garbage after the NUL of the last bone name (as MMD leaves it).
  m.bones[2].name.raw[10] = 0xFD;
  m.bones[2].name.raw[19] = 0xFD;
  IkChain k;
  k.target = 1;
  k.effector = 2;
  k.iterations = 40;
  k.unit_angle = 0.5f;
  k.links = {2, 0};
  m.ik_chains = {k};
  Morph base;
  base.name = text<kNameSize>("base", enc);
  base.type = 0;
  base.offsets = {{0, {0, 0, -0.25f}}, {2, {2, 3, -0.25f}}};
  Morph m1;
  m1.name = text<kNameSize>("まばたき", enc);
  m1.type = 2;
  m1.offsets = {{1, {0, -0.5f, 0}}};
  Morph m2;
  m2.name = text<kNameSize>("あ", enc);
  m2.type = 3;
  m2.offsets = {{0, {0.1f, 0, 0}}, {1, {0, 0.2f, 0}}};
  m.morphs = {base, m1, m2};
  m.morph_display = {1, 2};
  m.bone_frames = {text<kFrameNameSize>("ＩＫ\n", enc), text<kFrameNameSize>("体\n", enc)};
  m.bone_display = {{1, 1}, {2, 2}};
  English e;
  e.name = text<kNameSize>("Test model");
  e.comment = text<kCommentSize>("line 1\r\nline 2");
  e.bone_names = {text<kNameSize>("center"), text<kNameSize>("leg IK_L"), text<kNameSize>("knee_L")};
  e.morph_names = {text<kNameSize>("blink"), text<kNameSize>("a")};
  e.frame_names = {text<kFrameNameSize>("IK"), text<kFrameNameSize>("Body")};
  m.english = e;
  for (std::size_t i = 0; i < kToonCount; ++i) {
    char buf[16];
    std::snprintf(buf, sizeof buf, "toon%02zu.bmp", i + 1);
    m.toon_textures[i] = text<kToonNameSize>(buf);
  }
  RigidBody r;
  r.name = text<kNameSize>("頭", enc);
  r.bone = 0;
  r.group = 1;
  r.collision_mask = 0xFFFE;
  r.shape = 0;
  r.size = {1.6f, 0.1f, 0.1f};
  r.position = {0, 1, 0};
  r.rotation = {0.1f, 0.2f, 0.3f};
  r.mass = 1;
  r.linear_damping = 0.5f;
  r.angular_damping = 0.5f;
  r.restitution = 0;
  r.friction = 0.5f;
  r.mode = 0;
  RigidBody r2 = r;
  r2.name = text<kNameSize>("髪", enc);
  r2.mode = 1;
  r2.shape = 2;
  m.rigid_bodies = {r, r2};
  Joint j;
  j.name = text<kNameSize>("右髪1", enc);
  j.rigid_a = 0;
  j.rigid_b = 1;
  j.position = {1, 2, 3};
  j.rotation = {0, 0.5f, 0};
  j.position_min = {-1, -1, -1};
  j.position_max = {1, 1, 1};
  j.rotation_min = {-0.1f, -0.2f, -0.3f};
  j.rotation_max = {0.1f, 0.2f, 0.3f};
  j.spring_position = {0, 0, 0};
  j.spring_rotation = {10, 20, 30};
  m.joints = {j};
  m.tail = Tail::joints;
  return m;
}

/// The expected file size of sample_model() up to and including tail part `t` (computed from the
/// record sizes in docs/formats/pmd.md, independently of the writer).
inline std::size_t sample_size(Tail t, bool english = true) {
  std::size_t n = 283;                 // header
  n += 4 + 3 * 38;                     // vertices
  n += 4 + 3 * 2;                      // faces
  n += 4 + 2 * 70;                     // materials
  n += 2 + 3 * 39;                     // bones
  n += 2 + (11 + 2 * 2);               // IK chains
  n += 2 + (25 + 2 * 16) + (25 + 16) + (25 + 2 * 16);  // morphs
  n += 1 + 2 * 2;                      // morph display
  n += 1 + 2 * 50;                     // bone frames
  n += 4 + 2 * 3;                      // bone display
  if (t >= Tail::english) n += 1 + (english ? 20 + 256 + 3 * 20 + 2 * 20 + 2 * 50 : 0);
  if (t >= Tail::toon_textures) n += 1000;
  if (t >= Tail::rigid_bodies) n += 4 + 2 * 83;
  if (t >= Tail::joints) n += 4 + 124;
  return n;
}

/// sample_model cut down to end with tail part `t` (later parts emptied).
inline Model sample_with_tail(Tail t, bool english = true) {
  Model m = sample_model();
  if (!english) m.english.reset();
  m.tail = t;
  if (t < Tail::english) m.english.reset();
  if (t < Tail::toon_textures) m.toon_textures = {};
  if (t < Tail::rigid_bodies) m.rigid_bodies.clear();
  if (t < Tail::joints) m.joints.clear();
  return m;
}

}  // namespace mmdkit::pmd::test
