// An MMD project (.pmm) made from models, motions, accessories and a camera
// (scene/project_create.hpp, docs/PMM.md "Creating a project").
#include "mmdkit/scene/project_create.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>
#include <numbers>

#include "mmdkit/anim/input_files.hpp"
#include "mmdkit/formats/vac.hpp"
#include "mmdkit/model/model.hpp"

#include "core/try.hpp"

namespace mmdkit::scene {

namespace fs = std::filesystem;

namespace {

constexpr pmm::OutsideParent kNoParent{-1, 0};  // MMD's files store "none" as model −1, bone 0

Warning warning(std::string message) {
  Warning w;
  w.code = ErrorCode::invalid_value;
  w.message = std::move(message);
  w.section = "project";
  return w;
}

std::vector<std::uint8_t> name_bytes(const EncodedText& t, Encoding enc) {
  if (!t.raw.empty()) return binding_key(ByteSpan(t.raw.data(), t.raw.size()));
  auto k = binding_key_of_text(t.text, enc);
  return k ? *k : std::vector<std::uint8_t>{};
}

// The bytes MMD compares for an IK switch: the name encoded, cut to the 20-byte field.
std::vector<std::uint8_t> ik_key(const std::string& text) {
  auto e = encode_text(text, Encoding::cp932);
  if (!e) return {};
  std::vector<std::uint8_t> b = std::move(*e);
  if (b.size() > vmd::kIkNameSize) b.resize(vmd::kIkNameSize);
  return b;
}

std::array<std::uint8_t, 4> curve4(const vmd::Curve& c) { return {c.x1, c.y1, c.x2, c.y2}; }

std::array<std::uint8_t, 16> bone_curves(const std::array<std::uint8_t, 64>& raw, bool& physics_off) {
  const vmd::BoneInterpolation b = vmd::decode_bone_interpolation(raw);
  physics_off = b.physics_off();
  std::array<std::uint8_t, 16> out{};
  const vmd::Curve* cs[4] = {&b.x, &b.y, &b.z, &b.rotation};
  for (std::size_t c = 0; c < 4; ++c) {
    const auto v = curve4(*cs[c]);
    std::copy(v.begin(), v.end(), out.begin() + static_cast<std::ptrdiff_t>(4 * c));
  }
  return out;
}

std::array<std::uint8_t, 24> camera_curves(const std::array<std::uint8_t, 24>& raw) {
  const vmd::CameraInterpolation ci = vmd::decode_camera_interpolation(raw);
  std::array<std::uint8_t, 24> out{};
  const vmd::Curve* cs[6] = {&ci.x, &ci.y, &ci.z, &ci.rotation, &ci.distance, &ci.view_angle};
  for (std::size_t c = 0; c < 6; ++c) {
    const auto v = curve4(*cs[c]);
    std::copy(v.begin(), v.end(), out.begin() + static_cast<std::ptrdiff_t>(4 * c));
  }
  return out;
}

// Keys of one track by frame (a later key of the same frame wins).
template <class Key>
using Track = std::map<std::uint32_t, Key>;

// Chains one track: the initial key (id `initial_id`) and its regular keys, ids from `next_id`
// on, as MMD links them (previous / next; 0 = none).
template <class PmmKey>
void chain(PmmKey& initial, std::int32_t initial_id, std::vector<PmmKey>& regular, std::vector<PmmKey> keys,
           std::int32_t& next_id) {
  std::int32_t prev = initial_id;
  pmm::KeyLink* last = &initial;
  const std::size_t first = regular.size();
  for (PmmKey& k : keys) {
    k.index = next_id++;
    k.previous = prev;
    k.next = 0;
    regular.push_back(std::move(k));
    prev = regular.back().index;
  }
  // Link forward (after the pushes: the vector may have moved).
  for (std::size_t i = first; i < regular.size(); ++i) {
    last->next = regular[i].index;
    last = &regular[i];
  }
}

// Splits a track into its initial key and the regular keys after frame 0. A track whose first
// key is after frame 0 gets that key's value at frame 0 (the motion holds it before).
template <class Key, class Make>
void split_track(const Track<Key>& track, Make make, auto& initial, auto& regular_out) {
  if (track.empty()) return;
  auto it = track.begin();
  initial = make(it->second);
  initial.frame = 0;
  initial.previous = initial.next = 0;
  for (it = track.begin(); it != track.end(); ++it) {
    if (it->first == 0) continue;
    auto k = make(it->second);
    k.frame = static_cast<std::int32_t>(it->first);
    regular_out.push_back(std::move(k));
  }
}

// One document-level track (camera, light, self-shadow) from a motion's keys: by frame, initial
// key + regular keys chained with ids from 1.
template <class VmdKey, class PmmKey, class Make>
void add_track(const std::vector<VmdKey>& keys, Make make, PmmKey& initial, std::vector<PmmKey>& out) {
  Track<VmdKey> t;
  for (const VmdKey& k : keys) t[k.frame] = k;
  std::vector<PmmKey> regular;
  split_track(t, make, initial, regular);
  std::int32_t id = 1;
  chain(initial, 0, out, std::move(regular), id);
}

std::string stem_name(const fs::path& p) { return p.stem().string(); }

struct ModelLists {
  pmm::Model model;
  std::vector<std::vector<std::uint8_t>> bone_keys, morph_keys;  // binding keys (15 bytes)
  std::vector<std::uint8_t> base_morph_key;  // PMD's base morph: its keys drive nothing (MMD ignores them)
  std::vector<std::string> bone_text;
};

Result<ModelLists> model_lists(const fs::path& file, std::vector<Warning>& warnings) {
  anim::InputOptions io;
  io.geometry = false;
  auto view = anim::read_model_file(file, io, warnings);
  if (!view) return std::unexpected(view.error());
  const model::Model& v = *view;
  ModelLists out;
  pmm::Model& m = out.model;
  m.name.assign(v.name);
  m.name_en.assign(v.name_en);
  for (const model::Bone& b : v.bones) {
    m.bone_names.push_back(EncodedText{{}, b.name});
    out.bone_keys.push_back(b.binding_key);
    out.bone_text.push_back(b.name);
  }
  if (v.pmd_base_morph) {  // MMD lists PMD's base morph first
    m.morph_names.push_back(EncodedText{{}, decode_text(ByteSpan(v.pmd_base_morph_key.data(), v.pmd_base_morph_key.size()),
                                                         Encoding::cp932)});
    out.morph_keys.push_back({});  // never bound: a base morph key drives nothing
    out.base_morph_key = v.pmd_base_morph_key;
  }
  const std::size_t morph_offset = m.morph_names.size();
  for (const model::Morph& mo : v.morphs) {
    m.morph_names.push_back(EncodedText{{}, mo.name});
    out.morph_keys.push_back(mo.binding_key);
  }
  // IK bones in model order; outside-parent bones: −1, then every movable or IK bone (MMD's
  // files: PMD types 1 and 2; e.g. 初音ミク.pmd -1, 0, 21, 51, 80..86 in t.pmm).
  m.outside_parent_bones.push_back(-1);
  for (std::size_t b = 0; b < v.bones.size(); ++b) {
    const model::Bone& bone = v.bones[b];
    if (bone.is_ik) m.ik_bones.push_back(static_cast<std::int32_t>(b));
    const bool movable = bone.pmd_type >= 0 ? (bone.pmd_type == 1 || bone.pmd_type == 2) : (bone.movable || bone.is_ik);
    if (movable) m.outside_parent_bones.push_back(static_cast<std::int32_t>(b));
  }
  // Timeline rows: the model's bone frames, Root, one more, and 表情 when it has morphs (the rule
  // MMD's saved files follow: 初音ミク.pmd's 7 frames → 10, ダミーボーン.pmd's 1 frame, no morph → 3).
  std::size_t frames = 0;
  for (const model::DisplayFrame& f : v.display_frames) frames += f.special ? 0 : 1;
  const std::size_t rows = frames + 2 + (v.morphs.empty() ? 0 : 1);
  m.fixed_tracks = static_cast<std::uint8_t>(std::min<std::size_t>(rows, 255));
  m.expanded_frames.assign(m.fixed_tracks, 0);
  // The first morph of each facial panel (brow, eye, lip, other), −1 = none (t.pmm: 1, 5, 9, -1).
  m.selected_morphs = {-1, -1, -1, -1};
  for (std::size_t i = 0; i < v.morphs.size(); ++i) {
    const std::uint8_t panel = v.morphs[i].panel;
    if (panel >= 1 && panel <= 4 && m.selected_morphs[panel - 1] < 0)
      m.selected_morphs[panel - 1] = static_cast<std::int32_t>(i + morph_offset);
  }
  return out;
}

// One outside-parent change of a model: from `frame` on, slot `slot` of its outside-parent bones
// follows `parent` (kNoParent: none).
struct ParentChange {
  std::uint32_t frame;
  std::size_t slot;
  pmm::OutsideParent parent;
};

// The model keys' outside parents (CreateModel::parents): a key at every change (a copy of the key
// in effect there, or of the first key before it), each key holding every slot's state.
void add_outside_parents(Track<pmm::ModelKey>& track, std::size_t iks, std::size_t slots,
                         const std::vector<ParentChange>& changes) {
  if (changes.empty()) return;
  pmm::ModelKey rest;
  rest.ik_enabled.assign(iks, 1);
  auto in_effect = [&](std::uint32_t frame) {
    auto it = track.upper_bound(frame);
    if (it != track.begin()) return std::prev(it)->second;
    return track.empty() ? rest : track.begin()->second;  // a motion holds its first key before it
  };
  for (const ParentChange& c : changes)
    if (!track.contains(c.frame)) track[c.frame] = in_effect(c.frame);
  if (!track.contains(0)) track[0] = in_effect(0);
  std::vector<pmm::OutsideParent> state(slots, kNoParent);
  std::size_t next = 0;
  for (auto& [frame, key] : track) {
    for (; next < changes.size() && changes[next].frame <= frame; ++next) state[changes[next].slot] = changes[next].parent;
    key.outside_parents = state;
  }
}

Result<void> fill_model(pmm::Model& m, const ModelLists& lists, const std::vector<vmd::Motion>& motions,
                        const std::string& what, const std::vector<ParentChange>& parents, std::vector<Warning>& warnings) {
  const std::size_t bones = m.bone_names.size(), morphs = m.morph_names.size(), iks = m.ik_bones.size();
  std::vector<Track<pmm::BoneKey>> bone_tracks(bones);
  std::vector<Track<pmm::MorphKey>> morph_tracks(morphs);
  Track<pmm::ModelKey> model_track;
  std::map<std::vector<std::uint8_t>, std::vector<std::size_t>> bone_by_key, morph_by_key;
  for (std::size_t b = 0; b < bones; ++b)
    if (!lists.bone_keys[b].empty()) bone_by_key[lists.bone_keys[b]].push_back(b);
  for (std::size_t i = 0; i < morphs; ++i)
    if (!lists.morph_keys[i].empty()) morph_by_key[lists.morph_keys[i]].push_back(i);
  std::vector<std::vector<std::uint8_t>> ik_names;
  for (std::int32_t b : m.ik_bones) ik_names.push_back(ik_key(lists.bone_text[static_cast<std::size_t>(b)]));
  std::size_t unmatched_bones = 0, unmatched_morphs = 0;
  for (const vmd::Motion& mo : motions) {
    std::vector<const std::vector<std::size_t>*> bone_of(mo.bone_names.size(), nullptr);
    for (std::size_t n = 0; n < mo.bone_names.size(); ++n) {
      auto it = bone_by_key.find(name_bytes(mo.bone_names[n], mo.encoding));
      if (it != bone_by_key.end()) bone_of[n] = &it->second;
      else ++unmatched_bones;
    }
    for (const vmd::BoneKey& k : mo.bone_keys) {
      if (k.name >= bone_of.size() || !bone_of[k.name]) continue;
      pmm::BoneKey p;
      bool physics_off = false;
      p.interpolation = bone_curves(k.interpolation, physics_off);
      p.physics_disabled = physics_off ? 1 : 0;
      p.translation = k.position;
      p.orientation = k.rotation;
      for (std::size_t b : *bone_of[k.name]) bone_tracks[b][k.frame] = p;
    }
    std::vector<const std::vector<std::size_t>*> morph_of(mo.morph_names.size(), nullptr);
    for (std::size_t n = 0; n < mo.morph_names.size(); ++n) {
      auto it = morph_by_key.find(name_bytes(mo.morph_names[n], mo.encoding));
      if (it != morph_by_key.end()) morph_of[n] = &it->second;
      else if (lists.base_morph_key.empty() || name_bytes(mo.morph_names[n], mo.encoding) != lists.base_morph_key)
        ++unmatched_morphs;
    }
    for (const vmd::MorphKey& k : mo.morph_keys) {
      if (k.name >= morph_of.size() || !morph_of[k.name]) continue;
      pmm::MorphKey p;
      p.weight = k.weight;
      for (std::size_t i : *morph_of[k.name]) morph_tracks[i][k.frame] = p;
    }
    for (const vmd::PropertyKey& k : mo.property_keys) {
      pmm::ModelKey p;
      p.visible = k.visible;
      p.ik_enabled.assign(iks, 1);
      for (const vmd::IkState& s : k.ik) {
        std::vector<std::uint8_t> key = s.name.raw.empty() ? ik_key(s.name.text)
                                                           : std::vector<std::uint8_t>(s.name.raw.begin(), s.name.raw.end());
        if (auto nul = std::find(key.begin(), key.end(), 0); nul != key.end()) key.erase(nul, key.end());
        for (std::size_t j = 0; j < iks; ++j)
          if (ik_names[j] == key) p.ik_enabled[j] = s.enabled;
      }
      model_track[k.frame] = std::move(p);
    }
  }
  if (unmatched_bones + unmatched_morphs > 0)
    warnings.push_back(warning(what + ": " + std::to_string(unmatched_bones) + " bone and " +
                               std::to_string(unmatched_morphs) +
                               " morph tracks of the motions match no bone or morph of the model; left out"));
  const pmm::BoneKey rest_bone{};
  std::int32_t last = 0;
  // Bones: initial keys, then every track's regular keys (ids from the bone count on, track by track).
  std::int32_t next_id = static_cast<std::int32_t>(bones);
  m.initial_bone_keys.assign(bones, rest_bone);
  for (std::size_t b = 0; b < bones; ++b) {
    std::vector<pmm::BoneKey> regular;
    split_track(bone_tracks[b], [](const pmm::BoneKey& k) { return k; }, m.initial_bone_keys[b], regular);
    if (!regular.empty()) last = std::max(last, regular.back().frame);
    chain(m.initial_bone_keys[b], static_cast<std::int32_t>(b), m.bone_keys, std::move(regular), next_id);
  }
  next_id = static_cast<std::int32_t>(morphs);
  m.initial_morph_keys.assign(morphs, pmm::MorphKey{});
  for (std::size_t i = 0; i < morphs; ++i) {
    std::vector<pmm::MorphKey> regular;
    split_track(morph_tracks[i], [](const pmm::MorphKey& k) { return k; }, m.initial_morph_keys[i], regular);
    if (!regular.empty()) last = std::max(last, regular.back().frame);
    chain(m.initial_morph_keys[i], static_cast<std::int32_t>(i), m.morph_keys, std::move(regular), next_id);
  }
  m.initial_model_key.ik_enabled.assign(iks, 1);
  m.initial_model_key.outside_parents.assign(m.outside_parent_bones.size(), kNoParent);
  add_outside_parents(model_track, iks, m.outside_parent_bones.size(), parents);
  {
    std::vector<pmm::ModelKey> regular;
    split_track(model_track, [](const pmm::ModelKey& k) { return k; }, m.initial_model_key, regular);
    m.initial_model_key.outside_parents.resize(m.outside_parent_bones.size(), kNoParent);
    for (pmm::ModelKey& k : regular) k.outside_parents.resize(m.outside_parent_bones.size(), kNoParent);
    if (!regular.empty()) last = std::max(last, regular.back().frame);
    next_id = 1;
    chain(m.initial_model_key, 0, m.model_keys, std::move(regular), next_id);
  }
  m.last_frame = last;
  // The current (unkeyed) state: the frame-0 pose, as MMD saves a project at frame 0.
  m.bone_states.resize(bones);
  for (std::size_t b = 0; b < bones; ++b) {
    m.bone_states[b].translation = m.initial_bone_keys[b].translation;
    m.bone_states[b].orientation = m.initial_bone_keys[b].orientation;
    m.bone_states[b].tracks_selected = b == 0 ? 1 : 0;  // the selected bone (0), as t.pmm
  }
  m.morph_states.resize(morphs);
  for (std::size_t i = 0; i < morphs; ++i) m.morph_states[i] = m.initial_morph_keys[i].weight;
  m.ik_states = m.initial_model_key.ik_enabled;
  m.outside_parent_states.assign(m.outside_parent_bones.size(), pmm::OutsideParentState{0, 0, kNoParent});
  return {};
}

pmm::CameraKey camera_key(const vmd::CameraKey& k) {
  pmm::CameraKey c;
  c.distance = k.distance;
  c.look_at = k.target;
  c.angle = k.rotation;
  c.follow = kNoParent;
  c.interpolation = camera_curves(k.interpolation);
  c.orthographic = k.perspective;  // both: 0 = perspective
  c.view_angle = static_cast<std::int32_t>(std::min<std::uint32_t>(k.view_angle, 180));
  return c;
}

pmm::LightKey light_key(const vmd::LightKey& k) {
  pmm::LightKey l;
  l.color = k.color;
  l.direction = k.direction;
  return l;
}

pmm::SelfShadowKey self_shadow_key(const vmd::SelfShadowKey& k) {
  pmm::SelfShadowKey ss;
  ss.mode = k.mode;
  ss.distance = k.distance;
  return ss;
}

void fill_camera(pmm::Document& d, const CreateInput& in) {
  d.camera.initial_key.follow = kNoParent;
  if (in.camera) add_track(in.camera->camera_keys, camera_key, d.camera.initial_key, d.camera.keys);
  // State as MMD 9.26's t.pmm: the look-at point, the eye at the key's distance along Z from it.
  d.camera.look_at = d.camera.initial_key.look_at;
  d.camera.position = {d.camera.initial_key.look_at[0], d.camera.initial_key.look_at[1],
                       d.camera.initial_key.look_at[2] + d.camera.initial_key.distance};
  d.camera.angle = d.camera.initial_key.angle;
  d.camera.orthographic = d.camera.initial_key.orthographic;

  const vmd::Motion* light = in.light ? &*in.light : (in.camera ? &*in.camera : nullptr);
  if (in.fixed_light) {
    d.light.initial_key.color = in.fixed_light->color;
    d.light.initial_key.direction = in.fixed_light->direction;
  } else if (light) {
    add_track(light->light_keys, light_key, d.light.initial_key, d.light.keys);
  }
  d.light.color = d.light.initial_key.color;
  d.light.direction = d.light.initial_key.direction;

  if (light) {
    add_track(light->self_shadow_keys, self_shadow_key, d.self_shadow.initial_key, d.self_shadow.keys);
  }
  d.self_shadow.distance = d.self_shadow.initial_key.distance;
}

bool ends_with_vac(const fs::path& p) {
  std::string e = p.extension().string();
  std::transform(e.begin(), e.end(), e.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return e == ".vac";
}

std::int32_t find_bone_text(const pmm::Model& m, const std::string& name) {
  for (std::size_t b = 0; b < m.bone_names.size(); ++b)
    if (m.bone_names[b].text == name) return static_cast<std::int32_t>(b);
  return -1;
}

// Model i's outside parents as slot changes (the subject bone added to `slots` when MMD's list
// lacks it). Errors: invalid_argument naming the key for a bone a model does not have.
Result<std::vector<ParentChange>> parent_changes(const CreateInput& in, std::size_t i, const std::vector<ModelLists>& lists,
                                                 std::vector<std::int32_t>& slots) {
  std::vector<ParentChange> out;
  const std::vector<ModelParentKey>& keys = in.models[i].parents;
  auto bone_index = [&](std::size_t model, const std::string& name) -> std::int32_t {
    const auto& text = lists[model].bone_text;
    const auto it = std::find(text.begin(), text.end(), name);
    return it == text.end() ? -1 : static_cast<std::int32_t>(it - text.begin());
  };
  for (std::size_t k = 0; k < keys.size(); ++k) {
    const ModelParentKey& key = keys[k];
    const std::string at = "models[" + std::to_string(i) + "].parents[" + std::to_string(k) + "]";
    const std::int32_t subject = bone_index(i, key.bone);
    if (subject < 0)
      return make_error(ErrorCode::invalid_argument, at + ".bone: model " + std::to_string(i) + " has no bone '" + key.bone + "'", "models");
    auto slot = std::find(slots.begin(), slots.end(), subject);
    if (slot == slots.end()) slot = slots.insert(slots.end(), subject);
    pmm::OutsideParent parent = kNoParent;
    if (key.model) {
      if (*key.model >= in.models.size() || *key.model == i)
        return make_error(ErrorCode::invalid_argument, at + ".model: " + std::to_string(*key.model) + " is not another model of the project", "models");
      const std::int32_t b = bone_index(*key.model, key.parent_bone);
      if (b < 0)
        return make_error(ErrorCode::invalid_argument,
                          at + ".parent_bone: model " + std::to_string(*key.model) + " has no bone '" + key.parent_bone + "'", "models");
      parent = {static_cast<std::int32_t>(*key.model), b};
    }
    out.push_back({key.frame, static_cast<std::size_t>(slot - slots.begin()), parent});
  }
  std::stable_sort(out.begin(), out.end(), [](const ParentChange& a, const ParentChange& b) { return a.frame < b.frame; });
  return out;
}

// Gravity keys, physics mode and ground (CreateInput).
void fill_physics(pmm::Document& d, const CreateInput& in) {
  d.physics_mode = in.physics_mode == PhysicsMode::off      ? 0
                   : in.physics_mode == PhysicsMode::always ? 1
                   : in.physics_mode == PhysicsMode::trace  ? 3
                                                            : 2;
  d.physics_ground = in.physics_ground ? 1 : 0;
  if (in.gravity.empty()) return;
  auto key = [](const GravityKey& g) {
    pmm::GravityKey k;
    const float a = std::sqrt(g.gravity[0] * g.gravity[0] + g.gravity[1] * g.gravity[1] + g.gravity[2] * g.gravity[2]);
    k.noise = 10;
    k.acceleration = a / 10.0f;
    k.direction = a > 0 ? std::array<float, 3>{g.gravity[0] / a, g.gravity[1] / a, g.gravity[2] / a}
                        : std::array<float, 3>{0, -1, 0};
    return k;
  };
  Track<pmm::GravityKey> t;
  for (const GravityKey& g : in.gravity) t[g.frame] = key(g);
  std::vector<pmm::GravityKey> regular;
  split_track(t, [](const pmm::GravityKey& k) { return k; }, d.gravity.initial_key, regular);
  std::int32_t next_id = 1;
  chain(d.gravity.initial_key, 0, d.gravity.keys, std::move(regular), next_id);
  d.gravity.acceleration = d.gravity.initial_key.acceleration;
  d.gravity.direction = d.gravity.initial_key.direction;
}

// The view settings of a fresh project, as MMD 9.26 saved t.pmm (docs/PMM.md lists them).
void fresh_settings(pmm::Document& d) {
  d.version = pmm::Version::v2;
  const auto sig = pmm::signature_text(pmm::Version::v2);
  d.signature.fill(0);
  std::copy(sig.begin(), sig.end(), d.signature.begin());
  d.encoding = Encoding::cp932;
  d.timeline_width = 250;
  d.view_angle = 30;
  d.panels_expanded = {1, 1, 1, 1, 1};
  d.self_shadow_panel_expanded = 1;
  d.show_information = 0;
  d.show_grid = 1;
  d.ground_shadow = 1;
  d.preferred_fps = 60;
  d.background_video_scale = 0;
  d.background_image_scale = 0;
  d.accessory_after_models = 1;
  d.ground_shadow_brightness = 1;
  d.translucent_ground_shadow = 1;
  d.physics_mode = 2;
  d.gravity.noise = 10;
  d.gravity.initial_key.noise = 10;
  d.self_shadow.enabled = 1;
  d.camera_look_at = kNoParent;
  d.matrix = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
  d.physics_ground = 1;
  d.selection_flag = 1;
  d.light.initial_key.color = {0.602f, 0.602f, 0.602f};  // MMD writes 0.602, not VMD's 154 / 256
}

}  // namespace

Result<vmd::Motion> read_project_motion(const fs::path& path, std::vector<Warning>& warnings) {
  auto m = anim::read_motion_file(path, {}, warnings);
  if (!m) return std::unexpected(m.error());
  if (!m->motion) {
    Error e{ErrorCode::unsupported, "a VPD pose cannot be stored in a project; give a VMD motion", "motion", -1, -1, {}};
    e.file = path.string();
    return std::unexpected(e);
  }
  return std::move(*m->motion);
}

std::string project_stored_path(const fs::path& file, const fs::path& project_folder) {
  std::error_code ec;
  fs::path abs = fs::weakly_canonical(fs::absolute(file, ec), ec);
  if (ec) abs = fs::absolute(file);
  std::string s;
  if (!project_folder.empty()) {
    const fs::path folder = fs::weakly_canonical(fs::absolute(project_folder, ec), ec);
    const fs::path rel = abs.lexically_relative(folder);
    if (!ec && !rel.empty() && *rel.begin() != ".." && rel.is_relative()) s = rel.generic_string();
  }
  if (s.empty()) s = abs.generic_string();
  std::replace(s.begin(), s.end(), '/', '\\');
  return s;
}

Result<pmm::Document> create_project(const CreateInput& in, std::vector<Warning>& warnings) {
  if (in.models.size() > 255) return make_error(ErrorCode::invalid_argument, "a project holds at most 255 models", "models");
  if (in.accessories.size() > 255)
    return make_error(ErrorCode::invalid_argument, "a project holds at most 255 accessories", "accessories");
  if (in.width <= 0 || in.height <= 0)
    return make_error(ErrorCode::invalid_argument, "the output size must be positive", "header");
  pmm::Document d;
  fresh_settings(d);
  d.output_width = in.width;
  d.output_height = in.height;
  if (in.view) {
    d.preferred_fps = static_cast<float>(in.view->fps.value_or(30));
    d.ground_shadow = in.view->ground_shadow ? 1 : 0;
    d.translucent_ground_shadow = in.view->ground_shadow_translucent ? 1 : 0;
    d.black_background = in.view->background == std::array<float, 3>{0, 0, 0} ? 1 : 0;
    if (in.view->edge_color)
      for (std::size_t k = 0; k < 3; ++k)
        d.edge_color[k] = static_cast<std::int32_t>(std::lround(std::clamp((*in.view->edge_color)[k], 0.0f, 1.0f) * 255.0f));
    if (const auto& b = in.view->background_image) {
      d.background_image_enabled = 1;
      d.background_image_path.assign(project_stored_path(b->file, in.project_folder));
      d.background_image_x = b->offset[0];
      d.background_image_y = b->offset[1];
      d.background_image_scale = b->scale;
    }
    if (const auto& b = in.view->background_video) {
      d.background_video_enabled = 1;
      d.background_video_path.assign(project_stored_path(b->file, in.project_folder));
      d.background_video_x = b->offset[0];
      d.background_video_y = b->offset[1];
      d.background_video_scale = b->scale;
    }
  }
  d.editing_camera = in.models.empty() ? 1 : 0;
  std::int32_t last = 0;
  std::vector<ModelLists> all_lists;
  for (const CreateModel& cm : in.models) {
    auto lists = model_lists(cm.file, warnings);
    if (!lists) return std::unexpected(lists.error());
    all_lists.push_back(std::move(*lists));
  }
  for (std::size_t i = 0; i < in.models.size(); ++i) {
    const CreateModel& cm = in.models[i];
    const std::string what = "models[" + std::to_string(i) + "] '" + cm.file.string() + "'";
    ModelLists* lists = &all_lists[i];
    pmm::Model m = lists->model;
    auto changes = parent_changes(in, i, all_lists, m.outside_parent_bones);
    if (!changes) return std::unexpected(changes.error());
    m.index = static_cast<std::uint8_t>(i);
    m.path.assign(project_stored_path(cm.file, in.project_folder));
    m.draw_order = static_cast<std::uint8_t>(i + 1);       // 1-based, as MMD's files
    m.transform_order = static_cast<std::uint8_t>(i + 1);  // the sample: equal to the draw order
    if (auto r = fill_model(m, *lists, cm.motions, what, *changes, warnings); !r) return std::unexpected(r.error());
    m.self_shadow = cm.self_shadow ? 1 : 0;
    m.blend = cm.add_blend ? 1 : 0;
    last = std::max(last, m.last_frame);
    d.selections.push_back(pmm::ModelSelection{static_cast<std::uint8_t>(i), 3});  // as t.pmm
    d.models.push_back(std::move(m));
  }
  fill_camera(d, in);
  fill_physics(d, in);
  if (!d.camera.keys.empty()) last = std::max(last, d.camera.keys.back().frame);

  for (std::size_t i = 0; i < in.accessories.size(); ++i) {
    const CreateAccessory& ca = in.accessories[i];
    const std::string what = "accessories[" + std::to_string(i) + "]";
    Placement pl = ca.placement;
    std::string name = ca.name;
    std::string bone = ca.bone;
    std::optional<std::size_t> model = ca.model;
    if (ends_with_vac(ca.file)) {
      auto v = vac::read_file(ca.file);
      if (!v) return std::unexpected(v.error());
      if (name.empty()) name = v->name;
      if (!ca.placement_given) {
        pl.position = v->position;
        pl.rotation = v->rotation_degrees;
        pl.scale = v->scale;
        if (bone.empty() && !v->bone.empty()) {
          bone = v->bone;
          if (!model) model = 0;  // MMD attaches a .vac to the selected model: the first here
        }
      }
    }
    if (name.empty()) name = stem_name(ca.file);
    pmm::Accessory a;
    a.index = static_cast<std::uint8_t>(i);
    a.name.assign(name);
    a.path.assign(project_stored_path(ca.file, in.project_folder));
    a.draw_order = static_cast<std::uint8_t>(i);  // 0-based, as the sample's accessories
    // A parent (model index, bone name) as the project stores it: model and bone indices.
    auto parent_of = [&](const std::optional<std::size_t>& pm, const std::string& pb) -> Result<pmm::OutsideParent> {
      if (!pm) return kNoParent;
      if (*pm >= d.models.size())
        return make_error(ErrorCode::invalid_argument,
                          what + ": model " + std::to_string(*pm) + " is not one of the project's " +
                              std::to_string(d.models.size()) + " models",
                          "accessories");
      const std::int32_t b = find_bone_text(d.models[*pm], pb);
      if (b < 0)
        return make_error(ErrorCode::invalid_argument, what + ": model " + std::to_string(*pm) + " has no bone '" + pb + "'",
                          "accessories");
      return pmm::OutsideParent{static_cast<std::int32_t>(*pm), b};
    };
    // One key's values: opacity in whole percent below bit 0 (visible), rotation in radians.
    auto key_of = [&](const Placement& kp, bool visible, float opacity, bool shadow, const std::optional<std::size_t>& pm,
                      const std::string& pb) -> Result<pmm::AccessoryKey> {
      pmm::AccessoryKey k;
      k.shadow = shadow ? 1 : 0;
      const int percent = static_cast<int>(std::lround(std::clamp(opacity, 0.0f, 1.0f) * 100.0f));
      k.opacity_visible = static_cast<std::uint8_t>(((100 - percent) << 1) | (visible ? 1 : 0));
      MMDKIT_TRY_ASSIGN(k.parent, parent_of(pm, pb));
      constexpr float kRad = std::numbers::pi_v<float> / 180.0f;
      k.translation = kp.position;
      k.rotation = {kp.rotation[0] * kRad, kp.rotation[1] * kRad, kp.rotation[2] * kRad};
      k.scale = kp.scale;
      return k;
    };
    if (ca.keys.empty()) {
      MMDKIT_TRY_ASSIGN(a.initial_key, key_of(pl, ca.visible, ca.opacity, ca.shadow, model, bone));
    } else {
      std::vector<pmm::AccessoryKey> regular;
      for (std::size_t j = 0; j < ca.keys.size(); ++j) {
        const AccessoryKey& sk = ca.keys[j];
        MMDKIT_TRY_ASSIGN(pmm::AccessoryKey k, key_of(sk.placement, sk.visible, sk.opacity, sk.shadow, sk.model, sk.bone));
        if (j == 0) a.initial_key = k;  // the first key holds from frame 0
        if (sk.frame == 0) continue;
        k.frame = static_cast<std::int32_t>(sk.frame);
        regular.push_back(k);
      }
      std::int32_t id = 1;
      chain(a.initial_key, 0, a.keys, std::move(regular), id);
    }
    a.add_blend = ca.add_blend ? 1 : 0;
    const pmm::AccessoryKey& k = a.initial_key;
    // The state: MMD's sample stores the rotation first and the position last (its ネギ(右手).vac:
    // key position (-0.5, -1, 0), state (0, 0, 0) · 1 · (-0.5, -1, 0)); mirrored here.
    a.opacity_visible = k.opacity_visible;
    a.shadow = k.shadow;
    a.parent = k.parent;
    a.translation = k.rotation;
    a.scale = k.scale;
    a.rotation = k.translation;
    d.accessory_names.push_back(a.name);
    d.accessories.push_back(std::move(a));
  }

  // MMD's 描画順: draw_order = position, so accessories from accessory_after_models on are drawn
  // after the models (nanoem PMM::Context::loadAllAccessories); a fresh project's 1 without any.
  if (!d.accessories.empty()) d.accessory_after_models = static_cast<std::int32_t>(in.accessories_after_models);
  if (!in.audio.empty()) {
    d.audio_enabled = 1;
    d.audio_path.assign(project_stored_path(in.audio, in.project_folder));
  }
  if (in.first_frame) {
    d.begin_enabled = 1;
    d.begin_frame = *in.first_frame;
  }
  d.end_frame = last;
  if (in.last_frame) {
    d.end_enabled = 1;
    d.end_frame = *in.last_frame;
  }
  return d;
}

Result<CreateInput> create_input_from_scene(const SceneDescription& scene, const fs::path& project_folder,
                                            std::vector<Warning>& warnings) {
  CreateInput in;
  in.project_folder = project_folder;
  for (std::size_t i = 0; i < scene.models.size(); ++i) {
    const ModelEntry& e = scene.models[i];
    CreateModel cm;
    cm.file = e.file;
    for (const fs::path& p : e.motions) {
      auto m = read_project_motion(p, warnings);
      if (!m) return std::unexpected(m.error());
      cm.motions.push_back(std::move(*m));
    }
    const Placement none;
    if (e.placement.position != none.position || e.placement.rotation != none.rotation || e.placement.scale != none.scale)
      warnings.push_back(warning("models[" + std::to_string(i) +
                                 "]: a project has no model placement (MMD moves a model by its keys); ignored"));
    cm.parents = e.parents;
    cm.self_shadow = e.self_shadow;
    cm.add_blend = e.add_blend;
    in.models.push_back(std::move(cm));
  }
  in.gravity = scene.gravity;
  in.physics_mode = scene.physics_mode;
  in.physics_ground = scene.physics_ground;
  if (scene.stage) {
    const fs::path& f = scene.stage->file;
    std::string ext = f.extension().string();
    std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    if (ext == ".x") {
      CreateAccessory a;
      a.file = f;
      a.placement = scene.stage->placement;
      a.placement_given = true;
      in.accessories.push_back(std::move(a));
    } else {
      in.models.push_back(CreateModel{f, {}});
    }
  }
  for (const AccessoryEntry& e : scene.accessories) {
    CreateAccessory a;
    a.file = e.vac.empty() ? e.file : e.vac;
    a.model = e.model;
    a.bone = e.bone;
    a.placement = e.placement;
    a.placement_given = true;
    a.visible = e.visible;
    a.opacity = e.opacity;
    a.add_blend = e.add_blend;
    a.shadow = e.shadow;
    a.keys = e.keys;
    in.accessories.push_back(std::move(a));
  }
  // The draw order: a .x stage is the project's first accessory, so counted among those before
  // the models when some are.
  const std::size_t before = in.accessories.size() - scene.accessories.size();
  in.accessories_after_models = scene.accessories_after_models == 0 ? 0 : scene.accessories_after_models + before;
  if (!scene.camera.empty()) {
    auto m = read_project_motion(scene.camera, warnings);
    if (!m) return std::unexpected(m.error());
    in.camera = std::move(*m);
  }
  if (!scene.light_motion.empty()) {
    auto m = read_project_motion(scene.light_motion, warnings);
    if (!m) return std::unexpected(m.error());
    in.light = std::move(*m);
  }
  in.fixed_light = scene.fixed_light;
  in.audio = scene.audio;
  if (scene.view.background && *scene.view.background != std::array<float, 3>{0, 0, 0} &&
      *scene.view.background != std::array<float, 3>{1, 1, 1})
    return make_error(ErrorCode::invalid_argument,
                      "view.background: a project's background is white or MMD's black background (0, 0, 0)", "view");
  in.view = scene.view;
  if (scene.view.size) {
    in.width = (*scene.view.size)[0];
    in.height = (*scene.view.size)[1];
  }
  return in;
}

}  // namespace mmdkit::scene
