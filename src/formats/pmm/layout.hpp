// PMM layout, written once: the order, sizes and names of every field of a project file
// (docs/formats/pmm.md), as one template over an "Io" that either reads bytes, writes bytes,
// writes JSON or reads JSON (reader.cpp, writer.cpp, json.cpp). Internal.
//
// An Io offers:
//   u8 / i32 / f32 (key, value&); u8s / i32s / f32s (key, std::array&); text (key, EncodedText&,
//   field size; 0 = u8 length + bytes); section(name); enter_model(i) / leave_model() (errors name
//   the model); model_count(count&, document): the u8 model count; record(bytes, what): the next
//   `bytes` bytes are one record (the byte reader checks they are there, so a truncation is
//   reported at the record's start); object(key, f); list(key, vector, Count, min record size,
//   f(element)); ok(); v1_counts(model index, model, bones, morphs, iks).
// `key` nullptr = an element of an array (JSON). Counts: Count::u8 / Count::i32 are stored before
// the list; Count::given(n) is implied by an earlier field (bone names, ...): the byte writer
// refuses a list whose size is not n, the JSON reader takes the array's size.
#pragma once

#include <cstddef>
#include <cstdint>

#include "mmdkit/formats/pmm.hpp"

namespace mmdkit::pmm::detail {

/// v1_counts of the visitors that walk a project already in memory (the writer, the JSON writer,
/// the text visitor): a version-1 model's bone, morph and IK counts are its own lists' sizes.
struct CountsFromLists {
  static bool v1_counts(std::size_t, Model& m, std::size_t& bones, std::size_t& morphs, std::size_t& iks) {
    bones = m.initial_bone_keys.size();
    morphs = m.initial_morph_keys.size();
    iks = m.ik_states.size();
    return true;
  }
};

struct Count {
  enum Kind : std::uint8_t { u8, i32, given } kind = given;
  std::size_t n = 0;
  static Count byte() { return {u8, 0}; }
  static Count int32() { return {i32, 0}; }
  static Count of(std::size_t n) { return {given, n}; }
};

// Record sizes (bytes), initial keys; a regular key adds its 4-byte id.
inline constexpr std::size_t kLinkSize = 12;
inline std::size_t bone_key_size(bool v2) { return kLinkSize + 16 + 12 + 16 + 1 + (v2 ? 1 : 0); }
inline constexpr std::size_t kMorphKeySize = kLinkSize + 4 + 1;
inline std::size_t model_key_size(bool v2, std::size_t iks, std::size_t ops) {
  return kLinkSize + 1 + iks + (v2 ? 8 * ops : 0) + 1;
}
inline std::size_t camera_key_size(bool v2) { return kLinkSize + 4 + 12 + 12 + (v2 ? 8 : 0) + 24 + 1 + 4 + 1; }
inline constexpr std::size_t kLightKeySize = kLinkSize + 24 + 1;
inline constexpr std::size_t kAccessoryKeySize = kLinkSize + 1 + 8 + 12 + 12 + 4 + 1 + 1;
inline constexpr std::size_t kGravityKeySize = kLinkSize + 1 + 4 + 4 + 12 + 1;
inline constexpr std::size_t kSelfShadowKeySize = kLinkSize + 1 + 4 + 1;
inline std::size_t bone_state_size(bool v2) { return v2 ? 31 : 34; }

template <class Io>
void link(Io& io, KeyLink& k, bool regular) {
  if (regular) io.i32("index", k.index);
  io.i32("frame", k.frame);
  io.i32("previous", k.previous);
  io.i32("next", k.next);
}

template <class Io>
void outside_parent(Io& io, const char* key, OutsideParent& p) {
  io.object(key, [&] {
    io.i32("model", p.model);
    io.i32("bone", p.bone);
  });
}

template <class Io>
void bone_key(Io& io, BoneKey& k, bool v2, bool regular) {
  io.record(bone_key_size(v2) + (regular ? 4 : 0), "bone keyframe");
  link(io, k, regular);
  io.u8s("interpolation", k.interpolation);
  io.f32s("translation", k.translation);
  io.f32s("orientation", k.orientation);
  io.u8("selected", k.selected);
  if (v2) io.u8("physics_disabled", k.physics_disabled);
}

template <class Io>
void morph_key(Io& io, MorphKey& k, bool regular) {
  io.record(kMorphKeySize + (regular ? 4 : 0), "morph keyframe");
  link(io, k, regular);
  io.f32("weight", k.weight);
  io.u8("selected", k.selected);
}

template <class Io>
void model_key(Io& io, ModelKey& k, bool v2, std::size_t iks, std::size_t ops, bool regular) {
  io.record(model_key_size(v2, iks, ops) + (regular ? 4 : 0), "model keyframe");
  link(io, k, regular);
  io.u8("visible", k.visible);
  io.list("ik_enabled", k.ik_enabled, Count::of(iks), 1, [&](std::uint8_t& b) { io.u8(nullptr, b); });
  if (v2)
    io.list("outside_parents", k.outside_parents, Count::of(ops), 8,
            [&](OutsideParent& p) { outside_parent(io, nullptr, p); });
  io.u8("selected", k.selected);
}

template <class Io>
void camera_key(Io& io, CameraKey& k, bool v2, bool regular) {
  io.record(camera_key_size(v2) + (regular ? 4 : 0), "camera keyframe");
  link(io, k, regular);
  io.f32("distance", k.distance);
  io.f32s("look_at", k.look_at);
  io.f32s("angle", k.angle);
  if (v2) outside_parent(io, "follow", k.follow);
  io.u8s("interpolation", k.interpolation);
  io.u8("orthographic", k.orthographic);
  io.i32("view_angle", k.view_angle);
  io.u8("selected", k.selected);
}

template <class Io>
void light_key(Io& io, LightKey& k, bool regular) {
  io.record(kLightKeySize + (regular ? 4 : 0), "light keyframe");
  link(io, k, regular);
  io.f32s("color", k.color);
  io.f32s("direction", k.direction);
  io.u8("selected", k.selected);
}

template <class Io>
void accessory_key(Io& io, AccessoryKey& k, bool regular) {
  io.record(kAccessoryKeySize + (regular ? 4 : 0), "accessory keyframe");
  link(io, k, regular);
  io.u8("opacity_visible", k.opacity_visible);
  outside_parent(io, "parent", k.parent);
  io.f32s("translation", k.translation);
  io.f32s("rotation", k.rotation);
  io.f32("scale", k.scale);
  io.u8("shadow", k.shadow);
  io.u8("selected", k.selected);
}

template <class Io>
void gravity_key(Io& io, GravityKey& k, bool regular) {
  io.record(kGravityKeySize + (regular ? 4 : 0), "gravity keyframe");
  link(io, k, regular);
  io.u8("noise_enabled", k.noise_enabled);
  io.i32("noise", k.noise);
  io.f32("acceleration", k.acceleration);
  io.f32s("direction", k.direction);
  io.u8("selected", k.selected);
}

template <class Io>
void self_shadow_key(Io& io, SelfShadowKey& k, bool regular) {
  io.record(kSelfShadowKeySize + (regular ? 4 : 0), "self-shadow keyframe");
  link(io, k, regular);
  io.u8("mode", k.mode);
  io.f32("distance", k.distance);
  io.u8("selected", k.selected);
}

template <class Io>
void model(Io& io, Model& m, std::size_t model_index, bool v2) {
  io.u8("index", m.index);
  std::size_t bones = 0, morphs = 0, iks = 0, ops = 0;
  if (v2) {
    io.text("name", m.name, 0);
    io.text("name_en", m.name_en, 0);
    io.text("path", m.path, m.path.size);
    io.u8("fixed_tracks", m.fixed_tracks);
    io.list("bone_names", m.bone_names, Count::int32(), 1, [&](EncodedText& t) { io.text(nullptr, t, 0); });
    io.list("morph_names", m.morph_names, Count::int32(), 1, [&](EncodedText& t) { io.text(nullptr, t, 0); });
    io.list("ik_bones", m.ik_bones, Count::int32(), 4, [&](std::int32_t& b) { io.i32(nullptr, b); });
    io.list("outside_parent_bones", m.outside_parent_bones, Count::int32(), 4,
            [&](std::int32_t& b) { io.i32(nullptr, b); });
    bones = m.bone_names.size();
    morphs = m.morph_names.size();
    iks = m.ik_bones.size();
    ops = m.outside_parent_bones.size();
  } else {
    io.text("name", m.name, kModelNameSizeV1);
    io.text("path", m.path, m.path.size);
  }
  io.record(1 + 1 + 4 + 16 + 1, "model settings");
  io.u8("draw_order", m.draw_order);
  io.u8("visible", m.visible);
  io.i32("selected_bone", m.selected_bone);
  io.i32s("selected_morphs", m.selected_morphs);
  io.list("expanded_frames", m.expanded_frames, Count::byte(), 1, [&](std::uint8_t& b) { io.u8(nullptr, b); });
  io.record(8, "model settings");
  io.i32("vertical_scroll", m.vertical_scroll);
  io.i32("last_frame", m.last_frame);
  if (!v2 && !io.v1_counts(model_index, m, bones, morphs, iks)) return;
  io.section("bone keyframes");
  io.list("initial_bone_keys", m.initial_bone_keys, Count::of(bones), bone_key_size(v2),
          [&](BoneKey& k) { bone_key(io, k, v2, false); });
  io.list("bone_keys", m.bone_keys, Count::int32(), bone_key_size(v2) + 4,
          [&](BoneKey& k) { bone_key(io, k, v2, true); });
  io.section("morph keyframes");
  io.list("initial_morph_keys", m.initial_morph_keys, Count::of(morphs), kMorphKeySize,
          [&](MorphKey& k) { morph_key(io, k, false); });
  io.list("morph_keys", m.morph_keys, Count::int32(), kMorphKeySize + 4, [&](MorphKey& k) { morph_key(io, k, true); });
  io.section("model keyframes");
  io.object("initial_model_key", [&] { model_key(io, m.initial_model_key, v2, iks, ops, false); });
  io.list("model_keys", m.model_keys, Count::int32(), model_key_size(v2, iks, ops) + 4,
          [&](ModelKey& k) { model_key(io, k, v2, iks, ops, true); });
  io.section("model state");
  io.list("bone_states", m.bone_states, Count::of(bones), bone_state_size(v2), [&](BoneState& s) {
    io.record(bone_state_size(v2), "bone state");
    io.f32s("translation", s.translation);
    io.f32s("orientation", s.orientation);
    if (v2) {
      io.u8("dirty", s.dirty);
      io.u8("physics_disabled", s.physics_disabled);
    } else {
      io.i32("v1_unknown", s.v1_unknown);
      io.u8("dirty", s.dirty);
    }
    io.u8("tracks_selected", s.tracks_selected);
  });
  io.list("morph_states", m.morph_states, Count::of(morphs), 4, [&](float& w) { io.f32(nullptr, w); });
  io.list("ik_states", m.ik_states, Count::of(iks), 1, [&](std::uint8_t& b) { io.u8(nullptr, b); });
  if (v2) {
    io.list("outside_parent_states", m.outside_parent_states, Count::of(ops), 16, [&](OutsideParentState& s) {
      io.record(16, "outside parent state");
      io.i32("begin", s.begin);
      io.i32("end", s.end);
      outside_parent(io, "parent", s.parent);
    });
    io.record(7, "model settings");
    io.u8("blend", m.blend);
    io.f32("edge_width", m.edge_width);
    io.u8("self_shadow", m.self_shadow);
    io.u8("transform_order", m.transform_order);
  }
}

template <class Io>
void accessory(Io& io, Accessory& a, bool v2) {
  io.record(1 + kAccessoryNameSize + kPathSize + 1, "accessory");
  io.u8("index", a.index);
  io.text("name", a.name, a.name.size);
  io.text("path", a.path, a.path.size);
  io.u8("draw_order", a.draw_order);
  io.object("initial_key", [&] { accessory_key(io, a.initial_key, false); });
  io.list("keys", a.keys, Count::int32(), kAccessoryKeySize + 4, [&](AccessoryKey& k) { accessory_key(io, k, true); });
  io.record(1 + 8 + 12 + 4 + 12 + 1 + (v2 ? 1 : 0), "accessory state");
  io.u8("opacity_visible", a.opacity_visible);
  outside_parent(io, "parent", a.parent);
  io.f32s("translation", a.translation);
  io.f32("scale", a.scale);
  io.f32s("rotation", a.rotation);
  io.u8("shadow", a.shadow);
  if (v2) io.u8("add_blend", a.add_blend);
}

/// Everything after the signature, up to (v2) the selection section / (v1) the tail.
template <class Io>
void document(Io& io, Document& d) {
  const bool v2 = d.version == Version::v2;
  io.section("header");
  io.record(16 + 6 + (v2 ? 1 : 0) + 2, "header");
  io.i32("output_width", d.output_width);
  io.i32("output_height", d.output_height);
  io.i32("timeline_width", d.timeline_width);
  io.f32("view_angle", d.view_angle);
  io.u8("editing_camera", d.editing_camera);
  io.u8s("panels_expanded", d.panels_expanded);
  if (v2) io.u8("self_shadow_panel_expanded", d.self_shadow_panel_expanded);
  io.u8("selected_model", d.selected_model);
  io.section("models");
  std::uint8_t model_count = static_cast<std::uint8_t>(d.models.size());
  io.model_count(model_count, d);
  if (!v2)
    io.list("model_names_v1", d.model_names_v1, Count::of(model_count), kModelNameSizeV1,
            [&](ModelNameV1& n) { io.text(nullptr, n, n.size); });
  std::size_t mi = 0;
  io.list("models", d.models, Count::of(model_count), 1, [&](Model& m) {
    io.enter_model(mi);
    model(io, m, mi, v2);
    io.leave_model();
    ++mi;
  });
  io.section("camera");
  io.object("camera", [&] {
    io.object("initial_key", [&] { camera_key(io, d.camera.initial_key, v2, false); });
    io.list("keys", d.camera.keys, Count::int32(), camera_key_size(v2) + 4,
            [&](CameraKey& k) { camera_key(io, k, v2, true); });
    io.record(37, "camera state");
    io.f32s("look_at", d.camera.look_at);
    io.f32s("position", d.camera.position);
    io.f32s("angle", d.camera.angle);
    io.u8("orthographic", d.camera.orthographic);
  });
  io.section("light");
  io.object("light", [&] {
    io.object("initial_key", [&] { light_key(io, d.light.initial_key, false); });
    io.list("keys", d.light.keys, Count::int32(), kLightKeySize + 4, [&](LightKey& k) { light_key(io, k, true); });
    io.record(24, "light state");
    io.f32s("color", d.light.color);
    io.f32s("direction", d.light.direction);
  });
  io.section("accessories");
  io.record(5, "accessory settings");
  io.u8("selected_accessory", d.selected_accessory);
  io.i32("accessory_scroll", d.accessory_scroll);
  io.list("accessory_names", d.accessory_names, Count::byte(), kAccessoryNameSize,
          [&](AccessoryName& n) { io.text(nullptr, n, n.size); });
  io.list("accessories", d.accessories, Count::of(d.accessory_names.size()), 1 + kAccessoryNameSize + kPathSize,
          [&](Accessory& a) { accessory(io, a, v2); });
  io.section("settings");
  io.record(16 + 4 + 8 + 1, "settings");
  io.i32("current_frame", d.current_frame);
  io.i32("horizontal_scroll", d.horizontal_scroll);
  io.i32("horizontal_scroll_thumb", d.horizontal_scroll_thumb);
  io.i32("editing_mode", d.editing_mode);
  io.u8("camera_look_mode", d.camera_look_mode);
  io.u8("loop", d.loop);
  io.u8("begin_enabled", d.begin_enabled);
  io.u8("end_enabled", d.end_enabled);
  io.i32("begin_frame", d.begin_frame);
  io.i32("end_frame", d.end_frame);
  io.u8("audio_enabled", d.audio_enabled);
  io.text("audio_path", d.audio_path, d.audio_path.size);
  io.record(12, "settings");
  io.i32("background_video_x", d.background_video_x);
  io.i32("background_video_y", d.background_video_y);
  io.f32("background_video_scale", d.background_video_scale);
  io.text("background_video_path", d.background_video_path, d.background_video_path.size);
  io.record(16, "settings");
  io.i32("background_video_enabled", d.background_video_enabled);
  io.i32("background_image_x", d.background_image_x);
  io.i32("background_image_y", d.background_image_y);
  io.f32("background_image_scale", d.background_image_scale);
  io.text("background_image_path", d.background_image_path, d.background_image_path.size);
  io.record(4 + 4 + 4 + 4, "settings");
  io.u8("background_image_enabled", d.background_image_enabled);
  io.u8("show_information", d.show_information);
  io.u8("show_grid", d.show_grid);
  io.u8("ground_shadow", d.ground_shadow);
  io.f32("preferred_fps", d.preferred_fps);
  io.i32("screen_capture_mode", d.screen_capture_mode);
  io.i32("accessory_after_models", d.accessory_after_models);
  io.f32("ground_shadow_brightness", d.ground_shadow_brightness);
  if (!v2) return;
  io.record(2, "settings");
  io.u8("translucent_ground_shadow", d.translucent_ground_shadow);
  io.u8("physics_mode", d.physics_mode);
  io.section("gravity");
  io.object("gravity", [&] {
    io.record(21, "gravity");
    io.f32("acceleration", d.gravity.acceleration);
    io.i32("noise", d.gravity.noise);
    io.f32s("direction", d.gravity.direction);
    io.u8("noise_enabled", d.gravity.noise_enabled);
    io.object("initial_key", [&] { gravity_key(io, d.gravity.initial_key, false); });
    io.list("keys", d.gravity.keys, Count::int32(), kGravityKeySize + 4, [&](GravityKey& k) { gravity_key(io, k, true); });
  });
  io.section("self shadow");
  io.object("self_shadow", [&] {
    io.record(5, "self shadow");
    io.u8("enabled", d.self_shadow.enabled);
    io.f32("distance", d.self_shadow.distance);
    io.object("initial_key", [&] { self_shadow_key(io, d.self_shadow.initial_key, false); });
    io.list("keys", d.self_shadow.keys, Count::int32(), kSelfShadowKeySize + 4,
            [&](SelfShadowKey& k) { self_shadow_key(io, k, true); });
  });
  io.section("settings");
  io.record(12 + 1 + 8 + 64 + 3 + 4, "settings");
  io.i32s("edge_color", d.edge_color);
  io.u8("black_background", d.black_background);
  outside_parent(io, "camera_look_at", d.camera_look_at);
  io.f32s("matrix", d.matrix);
  io.u8("follow_look_at", d.follow_look_at);
  io.u8("unknown_flag", d.unknown_flag);
  io.u8("physics_ground", d.physics_ground);
  io.i32("frame_in_text_field", d.frame_in_text_field);
}

}  // namespace mmdkit::pmm::detail
