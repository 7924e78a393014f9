// Small projects built in code (version 1 and 2) for the PMM tests, and their sizes computed
// from the layout in docs/formats/pmm.md (field sizes summed by hand, not by the writer).
#pragma once

#include <string>

#include "mmdkit/formats/pmm.hpp"

namespace mmdkit::pmm::test {

inline EncodedText text(const std::string& s) {
  EncodedText t;
  t.text = s;
  return t;
}

template <std::size_t N>
inline FixedText<N> fixed(const std::string& s) {
  FixedText<N> t;
  t.text = s;
  return t;
}

/// A project with `models` models of `counts` bones, morphs and IK bones (default 3, 2, 1; at
/// least 2 bones and 1 morph), 1 outside-parent bone (v2), two regular bone keys on bone 1 linked
/// from its initial key, one morph key on morph 0, one model key; 2 camera keys, 1 light key, one
/// accessory with one key; v2: one gravity and one self-shadow key.
inline Document sample_document(Version v, std::size_t models = 2, ModelCounts counts = {3, 2, 1}) {
  Document d;
  d.version = v;
  const bool v2 = v == Version::v2;
  for (std::size_t i = 0; i < models; ++i) {
    Model m;
    m.index = static_cast<std::uint8_t>(i);
    m.name = text("モデル" + std::to_string(i));
    if (v2) m.name_en = text("model" + std::to_string(i));
    m.path = fixed<kPathSize>("UserFile\\Model\\m" + std::to_string(i) + ".pmd");
    if (!v2) d.model_names_v1.push_back(fixed<kModelNameSizeV1>("モデル" + std::to_string(i)));
    if (v2) {
      m.bone_names = {text("センター"), text("左足ＩＫ"), text("頭")};
      m.morph_names = {text("まばたき"), text("あ")};
      m.bone_names.resize(counts.bones);
      for (std::size_t b = 3; b < counts.bones; ++b) m.bone_names[b] = text("bone" + std::to_string(b));
      m.morph_names.resize(counts.morphs);
      for (std::size_t b = 2; b < counts.morphs; ++b) m.morph_names[b] = text("morph" + std::to_string(b));
      for (std::size_t b = 0; b < counts.iks; ++b) m.ik_bones.push_back(static_cast<std::int32_t>(b % counts.bones));
      m.outside_parent_bones = {0};
    }
    m.expanded_frames = {1, 0, 1};
    m.draw_order = static_cast<std::uint8_t>(i);
    m.transform_order = static_cast<std::uint8_t>(i);
    const auto nb = static_cast<std::int32_t>(counts.bones);
    m.initial_bone_keys.resize(counts.bones);
    m.initial_bone_keys[1].next = nb;  // ids 0..bones-1 are the initial keys
    BoneKey a;
    a.index = nb;
    a.frame = 10;
    a.previous = 1;
    a.next = nb + 1;
    a.translation = {1, 2, 3};
    BoneKey b;
    b.index = nb + 1;
    b.frame = 20;
    b.previous = nb;
    b.orientation = {0, 0.70710677f, 0, 0.70710677f};
    if (v2) b.physics_disabled = 1;
    m.bone_keys = {a, b};
    m.initial_morph_keys.resize(counts.morphs);
    m.initial_morph_keys[0].next = static_cast<std::int32_t>(counts.morphs);
    MorphKey mk;
    mk.index = static_cast<std::int32_t>(counts.morphs);
    mk.frame = 5;
    mk.previous = 0;
    mk.weight = 1;
    m.morph_keys = {mk};
    m.initial_model_key.ik_enabled.assign(counts.iks, 1);
    if (v2) m.initial_model_key.outside_parents = {OutsideParent{}};
    ModelKey k = m.initial_model_key;
    k.index = 1;
    k.frame = 30;
    k.ik_enabled.assign(counts.iks, 0);
    m.model_keys = {k};
    m.initial_model_key.next = 1;
    m.bone_states.resize(counts.bones);
    m.morph_states.assign(counts.morphs, 0.5f);
    m.ik_states.assign(counts.iks, 1);
    if (v2) m.outside_parent_states = {OutsideParentState{0, 100, OutsideParent{}}};
    d.models.push_back(std::move(m));
  }
  CameraKey c1;
  c1.index = 1;
  c1.frame = 15;
  c1.previous = 0;
  c1.next = 2;
  CameraKey c2 = c1;
  c2.index = 2;
  c2.frame = 45;
  c2.previous = 1;
  c2.next = 0;
  d.camera.keys = {c1, c2};
  d.camera.initial_key.next = 1;
  LightKey l;
  l.index = 1;
  l.frame = 60;
  d.light.keys = {l};
  d.light.initial_key.next = 1;
  Accessory acc;
  acc.name = fixed<kAccessoryNameSize>("stage01.x");
  acc.path = fixed<kPathSize>("UserFile\\Accessory\\stage01.x");
  AccessoryKey ak;
  ak.index = 1;
  ak.frame = 12;
  ak.opacity_visible = 1 | (20 << 1);  // visible, 80 %
  acc.keys = {ak};
  acc.initial_key.next = 1;
  d.accessory_names = {acc.name};
  d.accessories = {acc};
  d.begin_frame = 0;
  d.end_frame = 733;
  d.preferred_fps = 60;
  d.audio_path = fixed<kPathSize>("UserFile\\Wave\\song.wav");
  if (v2) {
    GravityKey g;
    g.index = 1;
    g.frame = 90;
    d.gravity.keys = {g};
    d.gravity.initial_key.next = 1;
    SelfShadowKey s;
    s.index = 1;
    s.frame = 7;
    d.self_shadow.keys = {s};
    d.self_shadow.initial_key.next = 1;
    d.edge_color = {0, 0, 0};
    d.selection_flag = 1;
    for (std::size_t i = 0; i < models; ++i) d.selections.push_back({static_cast<std::uint8_t>(i), 0});
  } else {
    d.v1_tail = {1, 2, 3, 4, 5};
  }
  return d;
}

/// The counts of sample_document's models (what a v1 reader must be told).
inline ModelCounts sample_counts() { return ModelCounts{3, 2, 1}; }

/// Byte size of sample_document(v, models), summed from docs/formats/pmm.md's field table.
inline std::size_t sample_size(Version v, std::size_t models, std::size_t name_bytes, std::size_t name_en_bytes) {
  const bool v2 = v == Version::v2;
  std::size_t n = 30 + 16 + 6 + (v2 ? 1 : 0) + 1 + 1;  // signature, header, selected model, count
  if (!v2) n += 20 * models;
  const std::size_t bone_key = 12 + 16 + 12 + 16 + 1 + (v2 ? 1 : 0);
  const std::size_t model_key = 12 + 1 + 1 + (v2 ? 8 : 0) + 1;
  for (std::size_t i = 0; i < models; ++i) {
    n += 1;  // index
    if (v2) {
      n += 1 + name_bytes + 1 + name_en_bytes + 256 + 1;
      n += 4 + (1 + 8) + (1 + 8) + (1 + 2);  // bone names センター 左足ＩＫ 頭 (CP932: 8, 8, 2 bytes)
      n += 4 + (1 + 8) + (1 + 2);            // morph names まばたき, あ
      n += 4 + 4 + 4 + 4;                    // IK bones, outside-parent bones
    } else {
      n += 20 + 256;
    }
    n += 1 + 1 + 4 + 16 + 1 + 3 + 4 + 4;
    n += 3 * bone_key + 4 + 2 * (bone_key + 4);
    n += 2 * 17 + 4 + 21;
    n += model_key + 4 + (model_key + 4);
    n += 3 * (v2 ? 31 : 34) + 2 * 4 + 1;
    if (v2) n += 16 + 7;
  }
  const std::size_t camera_key = 70 + (v2 ? 8 : 0);
  n += camera_key + 4 + 2 * (camera_key + 4) + 37;
  n += 37 + 4 + 41 + 24;
  n += 1 + 4 + 1 + 100;
  n += 1 + 100 + 256 + 1 + 51 + 4 + 55 + 38 + (v2 ? 1 : 0);
  n += 16 + 4 + 8 + 1 + 256 + 12 + 256 + 4 + 12 + 256 + 4 + 4 + 4 + 4 + 4;  // ... fps, capture mode, accessory index, ground shadow brightness
  if (v2) {
    n += 2 + 21 + 34 + 4 + 38 + 5 + 18 + 4 + 22 + 12 + 1 + 8 + 64 + 3 + 4;
    n += 1 + 5 * models;
  } else {
    n += 5;
  }
  return n;
}

}  // namespace mmdkit::pmm::test
