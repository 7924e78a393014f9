// An MMD project (.pmm) converted to VMD motions and a scene description (scene/project.hpp).
#include "mmdkit/scene/project.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <numbers>
#include <set>
#include <unordered_map>

#include "core/json.hpp"
#include "core/try.hpp"
#include "mmdkit/core/number.hpp"
#include "mmdkit/formats/vac.hpp"

namespace mmdkit::scene {

namespace fs = std::filesystem;

namespace {

Warning warning(std::string message, std::string section = "project") {
  Warning w;
  w.code = ErrorCode::invalid_value;
  w.message = std::move(message);
  w.section = std::move(section);
  return w;
}

std::string tried_list(const ProjectPath& p) {
  std::string s;
  for (const fs::path& t : p.tried) s += (s.empty() ? "" : ", ") + ("'" + t.string() + "'");
  return s;
}

// The walk of one track (initial key, then `next` ids through the regular keys).
template <class Key>
std::vector<std::ptrdiff_t> track_order(const Key& initial, const std::vector<Key>& regular,
                                        const std::unordered_map<std::int32_t, std::size_t>& by_id,
                                        const std::string& what, std::vector<Warning>& warnings,
                                        std::vector<char>& used) {
  std::vector<std::ptrdiff_t> order{-1};
  std::int32_t frame = initial.frame;
  for (std::int32_t next = initial.next; next != 0;) {
    auto it = by_id.find(next);
    if (it == by_id.end()) {
      warnings.push_back(warning(what + ": a key links to key id " + std::to_string(next) +
                                 ", which does not exist; the keys after it are left out"));
      break;
    }
    const std::size_t k = it->second;
    if (used[k]) {
      warnings.push_back(warning(what + ": key id " + std::to_string(next) + " is reached twice (a loop); stopped there"));
      break;
    }
    const Key& key = regular[k];
    if (key.frame <= frame) {
      warnings.push_back(warning(what + ": key id " + std::to_string(next) + " at frame " + std::to_string(key.frame) +
                                 " does not come after frame " + std::to_string(frame) + "; the keys from it on are left out"));
      break;
    }
    used[k] = 1;
    order.push_back(static_cast<std::ptrdiff_t>(k));
    frame = key.frame;
    next = key.next;
  }
  return order;
}

template <class Key>
std::unordered_map<std::int32_t, std::size_t> ids_of(const std::vector<Key>& keys) {
  std::unordered_map<std::int32_t, std::size_t> m;
  m.reserve(keys.size());
  for (std::size_t k = 0; k < keys.size(); ++k) m.emplace(keys[k].index, k);
  return m;
}

template <class Key>
const Key& key_at(const Key& initial, const std::vector<Key>& regular, std::ptrdiff_t pos) {
  return pos < 0 ? initial : regular[static_cast<std::size_t>(pos)];
}

// The first N stored bytes of a name (the field MMD compares when it binds), decoded in `encoding`.
template <std::size_t N>
FixedText<N> fixed_name(const EncodedText& name, Encoding encoding) {
  FixedText<N> t;
  std::vector<std::uint8_t> bytes = name.raw;
  if (bytes.empty()) {  // a name known as text only (built in code, a version-1 model file's)
    auto e = encode_text(name.text, encoding);
    if (!e) {  // not encodable: the writer reports it with the name
      t.text = name.text;
      return t;
    }
    bytes = std::move(*e);
  }
  t.raw.assign(bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(std::min(bytes.size(), N)));
  t.text = bytes.size() > N ? decode_text(ByteSpan(t.raw.data(), t.raw.size()), encoding) : name.text;
  if (name.raw.empty() && bytes.size() <= N) t.raw.clear();  // the writer encodes the text (NUL-padded)
  return t;
}

vmd::Motion empty_motion(const std::string& model_name, Encoding encoding) {
  vmd::Motion m;
  m.version = vmd::Version::v2;
  const std::string_view sig = vmd::signature_text(vmd::Version::v2);
  std::copy(sig.begin(), sig.end(), m.signature.begin());
  m.model_name.assign(model_name);
  m.encoding = encoding;
  m.sections_present = vmd::kSectionCount;
  return m;
}

template <std::size_t N>
std::uint32_t name_index(std::vector<FixedText<N>>& names, std::map<std::vector<std::uint8_t>, std::uint32_t>& index,
                         const EncodedText& name, Encoding encoding) {
  FixedText<N> t = fixed_name<N>(name, encoding);
  std::vector<std::uint8_t> key = t.raw.empty() ? std::vector<std::uint8_t>(t.text.begin(), t.text.end()) : t.raw;
  auto [it, added] = index.emplace(key, static_cast<std::uint32_t>(names.size()));
  if (added) names.push_back(std::move(t));
  return it->second;
}

std::uint32_t frame_of(std::int32_t f) { return f < 0 ? 0u : static_cast<std::uint32_t>(f); }

vmd::Motion model_motion(const pmm::Model& m, Encoding encoding, const std::string& what, std::vector<Warning>& warnings) {
  vmd::Motion out = empty_motion(m.name.text, encoding);
  if (!m.name.raw.empty()) out.model_name = fixed_name<vmd::kModelNameSizeV2>(m.name, encoding);
  std::map<std::vector<std::uint8_t>, std::uint32_t> bone_index, morph_index;
  // Bones.
  {
    const auto ids = ids_of(m.bone_keys);
    std::vector<char> used(m.bone_keys.size(), 0);
    const std::size_t n = std::min(m.initial_bone_keys.size(), m.bone_names.size());
    for (std::size_t b = 0; b < n; ++b) {
      const std::uint32_t name = name_index(out.bone_names, bone_index, m.bone_names[b], encoding);
      const auto order = track_order(m.initial_bone_keys[b], m.bone_keys, ids,
                                     what + " bone '" + m.bone_names[b].text + "'", warnings, used);
      for (std::ptrdiff_t pos : order) {
        const pmm::BoneKey& k = key_at(m.initial_bone_keys[b], m.bone_keys, pos);
        vmd::BoneKey v;
        v.name = name;
        v.frame = pos < 0 ? 0u : frame_of(k.frame);
        v.position = k.translation;
        v.rotation = k.orientation;
        v.interpolation = bone_interpolation_from_pmm(k.interpolation, k.physics_disabled != 0);
        out.bone_keys.push_back(v);
      }
    }
  }
  // Morphs.
  {
    const auto ids = ids_of(m.morph_keys);
    std::vector<char> used(m.morph_keys.size(), 0);
    const std::size_t n = std::min(m.initial_morph_keys.size(), m.morph_names.size());
    for (std::size_t i = 0; i < n; ++i) {
      const std::uint32_t name = name_index(out.morph_names, morph_index, m.morph_names[i], encoding);
      const auto order = track_order(m.initial_morph_keys[i], m.morph_keys, ids,
                                     what + " morph '" + m.morph_names[i].text + "'", warnings, used);
      for (std::ptrdiff_t pos : order) {
        const pmm::MorphKey& k = key_at(m.initial_morph_keys[i], m.morph_keys, pos);
        out.morph_keys.push_back(vmd::MorphKey{name, pos < 0 ? 0u : frame_of(k.frame), k.weight});
      }
    }
  }
  // Model keys: visibility and IK switches (property keys).
  {
    const auto ids = ids_of(m.model_keys);
    std::vector<char> used(m.model_keys.size(), 0);
    const auto order = track_order(m.initial_model_key, m.model_keys, ids, what + " model keys", warnings, used);
    for (std::ptrdiff_t pos : order) {
      const pmm::ModelKey& k = key_at(m.initial_model_key, m.model_keys, pos);
      vmd::PropertyKey p;
      p.frame = pos < 0 ? 0u : frame_of(k.frame);
      p.visible = k.visible;
      for (std::size_t j = 0; j < m.ik_bones.size() && j < k.ik_enabled.size(); ++j) {
        const std::int32_t bone = m.ik_bones[j];
        if (bone < 0 || static_cast<std::size_t>(bone) >= m.bone_names.size()) continue;
        p.ik.push_back(vmd::IkState{fixed_name<vmd::kIkNameSize>(m.bone_names[static_cast<std::size_t>(bone)], encoding),
                                    k.ik_enabled[j]});
      }
      out.property_keys.push_back(std::move(p));
    }
  }
  return out;
}

vmd::Motion camera_motion(const pmm::Document& d, std::vector<Warning>& warnings) {
  vmd::Motion out = empty_motion("カメラ・照明", d.encoding);
  {
    const auto ids = ids_of(d.camera.keys);
    std::vector<char> used(d.camera.keys.size(), 0);
    for (std::ptrdiff_t pos : track_order(d.camera.initial_key, d.camera.keys, ids, "camera", warnings, used)) {
      const pmm::CameraKey& k = key_at(d.camera.initial_key, d.camera.keys, pos);
      vmd::CameraKey c;
      c.frame = pos < 0 ? 0u : frame_of(k.frame);
      c.distance = k.distance;
      c.target = k.look_at;
      c.rotation = k.angle;
      c.interpolation = camera_interpolation_from_pmm(k.interpolation);
      c.view_angle = k.view_angle < 0 ? 0u : static_cast<std::uint32_t>(k.view_angle);
      c.perspective = k.orthographic;  // both: 0 = perspective
      out.camera_keys.push_back(c);
    }
  }
  {
    const auto ids = ids_of(d.light.keys);
    std::vector<char> used(d.light.keys.size(), 0);
    for (std::ptrdiff_t pos : track_order(d.light.initial_key, d.light.keys, ids, "light", warnings, used)) {
      const pmm::LightKey& k = key_at(d.light.initial_key, d.light.keys, pos);
      out.light_keys.push_back(vmd::LightKey{pos < 0 ? 0u : frame_of(k.frame), k.color, k.direction});
    }
  }
  if (d.version == pmm::Version::v2) {
    const auto ids = ids_of(d.self_shadow.keys);
    std::vector<char> used(d.self_shadow.keys.size(), 0);
    for (std::ptrdiff_t pos :
         track_order(d.self_shadow.initial_key, d.self_shadow.keys, ids, "self-shadow", warnings, used)) {
      const pmm::SelfShadowKey& k = key_at(d.self_shadow.initial_key, d.self_shadow.keys, pos);
      out.self_shadow_keys.push_back(vmd::SelfShadowKey{pos < 0 ? 0u : frame_of(k.frame), k.mode, k.distance});
    }
  }
  return out;
}

// An accessory key's placement: translation, rotation (the PMM's radians → degrees), scale.
Placement accessory_placement(const pmm::AccessoryKey& k) {
  constexpr float kDeg = 180.0f / std::numbers::pi_v<float>;
  Placement p;
  p.position = {k.translation[0], k.translation[1], k.translation[2]};
  p.rotation = {k.rotation[0] * kDeg, k.rotation[1] * kDeg, k.rotation[2] * kDeg};
  p.scale = k.scale;
  return p;
}

bool ends_with_ci(const std::string& s, std::string_view suffix) {
  if (s.size() < suffix.size()) return false;
  for (std::size_t i = 0; i < suffix.size(); ++i)
    if (std::tolower(static_cast<unsigned char>(s[s.size() - suffix.size() + i])) != suffix[i]) return false;
  return true;
}

}  // namespace

ProjectPath resolve_project_path(const std::string& stored, const std::vector<fs::path>& folders) {
  ProjectPath p;
  p.stored = stored;
  bool drive = false;
  const std::vector<std::string> parts = pmm::split_stored_path(stored, drive);
  if (parts.empty()) return p;
  for (const fs::path& folder : folders) {
    std::string s = stored;
    std::replace(s.begin(), s.end(), '\\', '/');
    if (!drive) p.tried.push_back(s.front() == '/' ? fs::path(s) : folder / s);
    for (std::size_t from = drive ? 1 : 0; from < parts.size(); ++from) {
      fs::path t = folder;
      for (std::size_t i = from; i < parts.size(); ++i) t /= parts[i];
      if (from == 0 && !drive) continue;  // the path as stored, listed above
      p.tried.push_back(t);
    }
    if (!p.found) p.found = pmm::resolve_path(stored, folder);
    if (p.found) break;
  }
  // Unique, in order (a path with '/' first is the same place for every folder).
  std::vector<fs::path> unique;
  for (fs::path& t : p.tried)
    if (std::find(unique.begin(), unique.end(), t) == unique.end()) unique.push_back(std::move(t));
  p.tried = std::move(unique);
  return p;
}

std::array<std::uint8_t, 64> bone_interpolation_from_pmm(const std::array<std::uint8_t, 16>& pmm,
                                                         bool physics_off) noexcept {
  auto curve = [&](int c) {
    return vmd::Curve{pmm[static_cast<std::size_t>(4 * c)], pmm[static_cast<std::size_t>(4 * c + 1)],
                      pmm[static_cast<std::size_t>(4 * c + 2)], pmm[static_cast<std::size_t>(4 * c + 3)]};
  };
  return vmd::encode_bone_interpolation(curve(0), curve(1), curve(2), curve(3), physics_off);
}

std::array<std::uint8_t, 24> camera_interpolation_from_pmm(const std::array<std::uint8_t, 24>& pmm) noexcept {
  auto curve = [&](int c) {
    return vmd::Curve{pmm[static_cast<std::size_t>(4 * c)], pmm[static_cast<std::size_t>(4 * c + 1)],
                      pmm[static_cast<std::size_t>(4 * c + 2)], pmm[static_cast<std::size_t>(4 * c + 3)]};
  };
  return vmd::encode_camera_interpolation(
      vmd::CameraInterpolation{curve(0), curve(1), curve(2), curve(3), curve(4), curve(5)});
}

namespace {

// The scene entry of an accessory: its keys give placement, parent, visibility and opacity when it has any.
AccessoryEntry scene_entry(const ProjectAccessory& pa) {
  AccessoryEntry e;
  e.file = pa.x_file;
  e.model = pa.model;
  e.bone = pa.bone;
  e.placement = pa.placement;
  e.visible = pa.visible;
  e.opacity = std::clamp(pa.opacity, 0.0f, 1.0f);
  e.add_blend = pa.add_blend;
  e.shadow = pa.shadow;
  if (!pa.keys.empty()) {  // the keys give placement, parent, visibility, opacity and shadow
    e.model.reset();
    e.bone.clear();
    e.placement = Placement{};
    e.visible = true;
    e.opacity = 1.0f;
    e.shadow = true;
    e.keys = pa.keys;
  }
  return e;
}

// One conversion in steps: the document, the options, the warnings given and the project built.
struct ProjectConversion {
  const pmm::Document& d;
  const ProjectOptions& options;
  std::vector<Warning>& warnings;
  std::vector<fs::path> folders;  // the project folder, then the search folders
  Project p;
  // One warning per stored path: items naming the same missing file are added to its warning.
  std::map<std::string, std::size_t> missing_warning;

  // A file not found: an error when strict, else one warning per stored path.
  Result<void> missing(const std::string& field, const ProjectPath& path) {
    std::string msg = field + ": file not found: '" + path.stored + "' (looked for " + tried_list(path) + ")";
    if (options.strict) return make_error(ErrorCode::io_error, msg, "project");
    if (auto it = missing_warning.find(path.stored); it != missing_warning.end()) {
      warnings[it->second].message += "; also " + field;
      return {};
    }
    missing_warning.emplace(path.stored, warnings.size());
    Warning w = warning(msg + "; left out of the scene");
    w.code = ErrorCode::io_error;
    warnings.push_back(std::move(w));
    return {};
  }

  // The motion of a version-1 model, whose bone and morph names are in the model file
  // (ProjectOptions::model_names): empty with a warning when it cannot be read.
  Result<void> version1_motion(const pmm::Model& m, const std::string& field, ProjectModel& pm) {
    // The names are in the model file (ProjectOptions::model_names).
    std::optional<ModelNames> names;
    if (pm.file.found && options.model_names) names = options.model_names(*pm.file.found);
    if (!names) {
      const std::string msg = field + ": a version-1 project stores no bone or morph names and the model file " +
                              (pm.file.found ? "'" + pm.file.found->string() + "' could not be read"
                                             : "'" + m.path.text + "' was not found") +
                              "; its motion is left empty";
      if (options.strict) return make_error(ErrorCode::io_error, msg, "project");
      warnings.push_back(warning(msg));
      pm.motion = empty_motion(m.name.text, d.encoding);
    } else if (names->bones.size() != m.initial_bone_keys.size() ||
               names->morphs.size() != m.initial_morph_keys.size() ||
               names->ik_bones.size() != m.initial_model_key.ik_enabled.size()) {
      return make_error(ErrorCode::invalid_value,
                        field + ": the model file has " + std::to_string(names->bones.size()) + " bones, " +
                            std::to_string(names->morphs.size()) + " morphs and " +
                            std::to_string(names->ik_bones.size()) + " IK bones; the project's keys are for " +
                            std::to_string(m.initial_bone_keys.size()) + ", " +
                            std::to_string(m.initial_morph_keys.size()) + " and " +
                            std::to_string(m.initial_model_key.ik_enabled.size()),
                        "project");
    } else {
      pmm::Model named = m;
      for (const std::string& b : names->bones) named.bone_names.push_back(EncodedText{{}, b});
      for (const std::string& s : names->morphs) named.morph_names.push_back(EncodedText{{}, s});
      named.ik_bones = names->ik_bones;
      pm.motion = model_motion(named, d.encoding, field, warnings);
    }
    return {};
  }

  // Model i: its file, its motion and its scene entry when the file is found.
  Result<void> add_model(std::size_t i) {
    const pmm::Model& m = d.models[i];
    ProjectModel pm;
    pm.index = i;
    pm.name = m.name.text;
    const std::string field = "models[" + std::to_string(i) + "] '" + m.name.text + "'";
    pm.file = resolve_project_path(m.path.text, folders);
    if (d.version == pmm::Version::v1) {
      MMDKIT_TRY(version1_motion(m, field, pm));
    } else {
      pm.motion = model_motion(m, d.encoding, field, warnings);
    }
    if (!pm.file.found) MMDKIT_TRY(missing(field, pm.file));
    p.models.push_back(std::move(pm));
    return {};
  }

  // The scene's models: the models found, in the project's draw order (the models' draw_order,
  // ties in list order), as nanoem orders its drawables (PMM::Context::load, sortByDraw).
  void add_scene_models() {
    std::vector<std::size_t> order(p.models.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) { return d.models[a].draw_order < d.models[b].draw_order; });
    for (std::size_t i : order) {
      ProjectModel& pm = p.models[i];
      if (!pm.file.found) continue;
      const pmm::Model& m = d.models[i];
      pm.scene_model = p.scene.models.size();
      ModelEntry e;
      e.file = *pm.file.found;
      // MMD's edge width per model (version 2; version 1 stores none): a multiplier >= 0.
      e.edge_width = std::isfinite(m.edge_width) ? std::max(0.0f, m.edge_width) : 1.0f;
      // MMD's self-shadow and additive blending per model (version 2; nanoem PMM::Context::load:
      // Model::setShadowMapEnabled, setAddBlendEnabled).
      e.self_shadow = d.version != pmm::Version::v2 || m.self_shadow != 0;
      e.add_blend = d.version == pmm::Version::v2 && m.blend != 0;
      p.scene.models.push_back(std::move(e));
    }
  }

  // A camera parent key at `frame` following bone `bone` of project model `model` (-1: none), or
  // following nothing with a warning when that bone is not in the scene.
  CameraParentKey camera_parent(std::uint32_t frame, std::int32_t model, std::int32_t bone, const std::string& what) {
    CameraParentKey c;
    c.frame = frame;
    if (model < 0) return c;
    const auto mi = static_cast<std::size_t>(model);
    if (mi < p.models.size() && p.models[mi].scene_model && bone >= 0 &&
        static_cast<std::size_t>(bone) < d.models[mi].bone_names.size()) {
      c.model = p.models[mi].scene_model;
      c.bone = d.models[mi].bone_names[static_cast<std::size_t>(bone)].text;
    } else {
      warnings.push_back(warning("camera: the bone it follows " + what + " (model " + std::to_string(model) + ", bone " +
                                 std::to_string(bone) + ") is not in the scene; the camera does not follow it"));
    }
    return c;
  }

  // The bones the camera follows (v2 camera keys' parent): one scene key where the parent changes.
  void add_camera_parents() {
    const auto ids = ids_of(d.camera.keys);
    std::vector<char> used(d.camera.keys.size(), 0);
    std::vector<Warning> again;  // the chain's warnings were given by camera_motion
    std::optional<std::pair<std::int32_t, std::int32_t>> last;
    for (std::ptrdiff_t pos : track_order(d.camera.initial_key, d.camera.keys, ids, "camera", again, used)) {
      const pmm::CameraKey& k = key_at(d.camera.initial_key, d.camera.keys, pos);
      const std::pair<std::int32_t, std::int32_t> parent{k.follow.model < 0 ? -1 : k.follow.model,
                                                        k.follow.model < 0 ? -1 : k.follow.bone};
      if (last ? *last == parent : parent.first < 0) continue;
      last = parent;
      const std::uint32_t frame = pos < 0 ? 0u : frame_of(k.frame);
      p.scene.camera_parents.push_back(
          camera_parent(frame, parent.first, parent.second, "from frame " + std::to_string(frame)));
    }
    add_camera_look_at();
  }

  // The project's camera look-at bone (camera_look_at with follow_look_at on): followed from frame
  // 0 when no camera key names a bone (docs/PMM.md "What is converted"); the keys win otherwise.
  void add_camera_look_at() {
    if (!d.follow_look_at || d.camera_look_at.model < 0) return;
    if (!p.scene.camera_parents.empty()) {
      warnings.push_back(warning("camera: its look-at bone (model " + std::to_string(d.camera_look_at.model) + ", bone " +
                                 std::to_string(d.camera_look_at.bone) +
                                 ") is not followed: the camera keys name the bones it follows"));
      return;
    }
    p.scene.camera_parents.push_back(camera_parent(0, d.camera_look_at.model, d.camera_look_at.bone, "(its look-at bone)"));
  }

  // Accessory i: its file, placement and keys (with their parents), and its scene entry when its
  // .x file is found and it can be seen.
  Result<void> add_accessory(std::size_t i) {
    const pmm::Accessory& a = d.accessories[i];
    ProjectAccessory pa;
    pa.index = i;
    pa.name = a.name.text;
    const std::string field = "accessories[" + std::to_string(i) + "] '" + a.name.text + "'";
    pa.file = resolve_project_path(a.path.text, folders);
    const pmm::AccessoryKey& k = a.initial_key;
    pa.placement = accessory_placement(k);
    pa.visible = pmm::accessory_visible(k.opacity_visible);
    pa.opacity = pmm::accessory_opacity(k.opacity_visible);
    pa.add_blend = a.add_blend != 0;
    pa.shadow = k.shadow != 0;
    // A parent not in the scene is said once per accessory and per parent.
    std::set<std::pair<std::int32_t, std::int32_t>> parent_warned;
    auto parent_of = [&](const pmm::OutsideParent& parent, std::optional<std::size_t>& model, std::string& bone,
                         std::int32_t frame) {
      if (parent.model < 0) return;
      const auto mi = static_cast<std::size_t>(parent.model);
      if (mi < p.models.size() && p.models[mi].scene_model && parent.bone >= 0 &&
          static_cast<std::size_t>(parent.bone) < d.models[mi].bone_names.size()) {
        model = p.models[mi].scene_model;
        bone = d.models[mi].bone_names[static_cast<std::size_t>(parent.bone)].text;
      } else if (parent_warned.insert({parent.model, parent.bone}).second) {
        warnings.push_back(warning(field + ": its parent (model " + std::to_string(parent.model) + ", bone " +
                                   std::to_string(parent.bone) + ") at frame " + std::to_string(frame) +
                                   " is not in the scene; placed in the world"));
      }
    };
    parent_of(k.parent, pa.model, pa.bone, 0);
    if (!a.keys.empty()) {
      // Every key in frame order (initial key at 0): the accessory moves (AccessoryEntry::keys).
      const auto ids = ids_of(a.keys);
      std::vector<char> used(a.keys.size(), 0);
      for (std::ptrdiff_t pos : track_order(a.initial_key, a.keys, ids, field + " keys", warnings, used)) {
        const pmm::AccessoryKey& ak = key_at(a.initial_key, a.keys, pos);
        AccessoryKey key;
        key.frame = pos < 0 ? 0u : frame_of(ak.frame);
        key.placement = accessory_placement(ak);
        if (!(key.placement.scale >= 0.0f) || !std::isfinite(key.placement.scale)) key.placement.scale = 0.0f;
        key.visible = pmm::accessory_visible(ak.opacity_visible);
        key.opacity = std::clamp(pmm::accessory_opacity(ak.opacity_visible), 0.0f, 1.0f);
        key.shadow = ak.shadow != 0;
        parent_of(ak.parent, key.model, key.bone, static_cast<std::int32_t>(key.frame));
        pa.keys.push_back(std::move(key));
      }
    }
    MMDKIT_TRY_ASSIGN(const bool placed, resolve_accessory_x(field, pa));
    if (placed) {
      pa.scene_accessory = p.scene.accessories.size();
      p.scene.accessories.push_back(scene_entry(pa));
    }
    p.accessories.push_back(std::move(pa));
    return {};
  }

  // The .x file of an accessory (a .vac's own, resolved): false when it is left out of the scene
  // (file missing, unreadable .vac, no keys and a scale not > 0).
  Result<bool> resolve_accessory_x(const std::string& field, ProjectAccessory& pa) {
    if (!pa.file.found) {
      MMDKIT_TRY(missing(field, pa.file));
      return false;
    }
    if (ends_with_ci(pa.file.found->string(), ".vac")) {
      // MMD applied the .vac when the accessory was loaded; the project's keys hold the placement
      // since. Only its .x is taken from it.
      auto v = vac::read_file(*pa.file.found);
      Result<fs::path> x = v ? vac::resolve_x_file(pa.file.found->parent_path(), *v) : std::unexpected(v.error());
      if (!x) {
        std::string msg = field + ": " + x.error().message + " ('" + pa.file.found->string() + "')";
        if (options.strict) return make_error(ErrorCode::io_error, msg, "project");
        warnings.push_back(warning(msg + "; left out of the scene"));
        return false;
      }
      pa.x_file = *x;
    } else {
      pa.x_file = *pa.file.found;
    }
    if (pa.keys.empty() && (pa.placement.scale <= 0 || !std::isfinite(pa.placement.scale))) {
      warnings.push_back(warning(field + ": scale " + std::to_string(pa.placement.scale) + " is not > 0; left out of the scene"));
      return false;
    }
    return true;
  }

  // Model i's outside parents (v2 model keys, one per outside-parent bone): a scene key where a
  // bone's parent changes (ModelParentKey; a parent not in the scene ends it, with a warning).
  void add_model_parents(std::size_t i) {
    const pmm::Model& m = d.models[i];
    if (!p.models[i].scene_model) return;
    ModelEntry& entry = p.scene.models[*p.models[i].scene_model];
    const std::string what = "models[" + std::to_string(i) + "] '" + m.name.text + "'";
    const auto ids = ids_of(m.model_keys);
    std::vector<char> used(m.model_keys.size(), 0);
    std::vector<Warning> again;  // the chain's warnings were given by the motion
    const auto order = track_order(m.initial_model_key, m.model_keys, ids, what + " model keys", again, used);
    std::set<std::pair<std::int32_t, std::int32_t>> warned;
    for (std::size_t j = 0; j < m.outside_parent_bones.size(); ++j) {
      std::optional<std::pair<std::size_t, std::string>> last;
      for (std::ptrdiff_t pos : order) {
        const pmm::ModelKey& k = key_at(m.initial_model_key, m.model_keys, pos);
        if (j >= k.outside_parents.size()) continue;
        const pmm::OutsideParent& op = k.outside_parents[j];
        const std::uint32_t frame = pos < 0 ? 0u : frame_of(k.frame);
        std::optional<std::pair<std::size_t, std::string>> parent;
        if (op.model >= 0) {
          const auto mi = static_cast<std::size_t>(op.model);
          const std::int32_t subject = m.outside_parent_bones[j];
          if (subject >= 0 && static_cast<std::size_t>(subject) < m.bone_names.size() && mi < p.models.size() &&
              mi != i && p.models[mi].scene_model && op.bone >= 0 &&
              static_cast<std::size_t>(op.bone) < d.models[mi].bone_names.size()) {
            parent.emplace(*p.models[mi].scene_model, d.models[mi].bone_names[static_cast<std::size_t>(op.bone)].text);
          } else if (warned.insert({subject, op.model}).second) {
            warnings.push_back(warning(
                what + ": the outside parent of " +
                (subject < 0 ? std::string("the whole model (bone -1)") : "bone " + std::to_string(subject)) +
                " from frame " + std::to_string(frame) + " (model " + std::to_string(op.model) + ", bone " +
                std::to_string(op.bone) + ") " +
                (subject < 0 ? "is not converted (nanoem reads no bone for it)" : "is not in the scene") +
                "; the bone does not follow it"));
          }
        }
        if (last == parent) continue;
        last = parent;
        ModelParentKey key;
        key.frame = frame;
        key.bone = m.bone_names[static_cast<std::size_t>(m.outside_parent_bones[j])].text;
        if (parent) {
          key.model = parent->first;
          key.parent_bone = parent->second;
        }
        entry.parents.push_back(std::move(key));
      }
    }
    std::stable_sort(entry.parents.begin(), entry.parents.end(),
                     [](const ModelParentKey& a, const ModelParentKey& b) { return a.frame < b.frame; });
  }

  // Gravity (v2: initial key + keys, acceleration × 10 × direction, MMD units / s²), the physics
  // mode and ground; gravity left empty when it is MMD's (0, −98, 0) throughout.
  void add_physics() {
    p.scene.physics_mode = d.physics_mode == 0   ? PhysicsMode::off
                           : d.physics_mode == 1 ? PhysicsMode::always
                           : d.physics_mode == 3 ? PhysicsMode::trace
                                                 : PhysicsMode::playing;
    p.scene.physics_ground = d.physics_ground != 0;
    if (d.version != pmm::Version::v2) return;
    const auto ids = ids_of(d.gravity.keys);
    std::vector<char> used(d.gravity.keys.size(), 0);
    bool other = false, noise = false;
    for (std::ptrdiff_t pos : track_order(d.gravity.initial_key, d.gravity.keys, ids, "gravity", warnings, used)) {
      const pmm::GravityKey& k = key_at(d.gravity.initial_key, d.gravity.keys, pos);
      GravityKey g;
      g.frame = pos < 0 ? 0u : frame_of(k.frame);
      for (std::size_t a = 0; a < 3; ++a) g.gravity[a] = k.acceleration * 10.0f * k.direction[a];
      other = other || g.gravity != Vec3{0.0f, -98.0f, 0.0f};
      noise = noise || k.noise_enabled != 0;
      if (!p.scene.gravity.empty() && p.scene.gravity.back().gravity == g.gravity) continue;
      p.scene.gravity.push_back(g);
    }
    if (!other) p.scene.gravity.clear();
    if (noise) warnings.push_back(warning("gravity: its noise is not converted (the gravity is steady)"));
  }

  // The background image and video when enabled (ViewSettings::background_image / _video): the
  // stored offset and scale; a file not found is a warning (or an error when strict).
  Result<void> add_backgrounds() {
    auto one = [&](bool on, const std::string& stored, std::int32_t x, std::int32_t y, float scale,
                   const std::string& field, std::optional<BackgroundPicture>& out) -> Result<void> {
      if (!on || stored.empty()) return {};
      const ProjectPath path = resolve_project_path(stored, folders);
      if (!path.found) return missing(field, path);
      if (scale == 0.0f) scale = 1.0f;  // never adjusted: MMD stores 0 (t.pmm, the sample)
      if (!(scale > 0.0f) || !(scale <= 1000.0f)) {
        warnings.push_back(warning(field + ": scale " + format_float(scale) + " is not in (0, 1000]; drawn at scale 1"));
        scale = 1.0f;
      }
      constexpr std::int32_t kMax = 1000000;
      out = BackgroundPicture{*path.found, {std::clamp(x, -kMax, kMax), std::clamp(y, -kMax, kMax)}, scale};
      return {};
    };
    MMDKIT_TRY(one(d.background_image_enabled != 0, d.background_image_path.text, d.background_image_x,
                   d.background_image_y, d.background_image_scale, "background image", p.scene.view.background_image));
    return one(d.background_video_enabled != 0, d.background_video_path.text, d.background_video_x, d.background_video_y,
               d.background_video_scale, "background video", p.scene.view.background_video);
  }

  // The scene's accessories in the project's draw order (the accessories' draw_order, ties in
  // list order, as nanoem sorts its drawables) and MMD's 描画順: those whose draw_order is below
  // accessory_after_models are drawn before the models (nanoem PMM::Context::loadAllAccessories
  // shifts the others past the models, loadAllModels the models past them). A negative
  // accessory_after_models (no split stored): every accessory after the models.
  void order_scene_accessories() {
    std::vector<std::size_t> order;  // indices into p.accessories of the accessories in the scene
    for (std::size_t i = 0; i < p.accessories.size(); ++i)
      if (p.accessories[i].scene_accessory) order.push_back(i);
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
      return d.accessories[p.accessories[a].index].draw_order < d.accessories[p.accessories[b].index].draw_order;
    });
    std::vector<AccessoryEntry> sorted;
    for (const std::size_t i : order) {
      const ProjectAccessory& pa = p.accessories[i];
      if (d.accessory_after_models >= 0 && d.accessories[pa.index].draw_order < d.accessory_after_models)
        p.scene.accessories_after_models = sorted.size() + 1;
      sorted.push_back(std::move(p.scene.accessories[*pa.scene_accessory]));
      p.accessories[i].scene_accessory = sorted.size() - 1;
    }
    p.scene.accessories = std::move(sorted);
  }

  // The audio file of the project when enabled.
  Result<void> add_audio() {
    if (d.audio_enabled && !d.audio_path.text.empty()) {
      p.audio = resolve_project_path(d.audio_path.text, folders);
      if (p.audio->found)
        p.scene.audio = *p.audio->found;
      else
        MMDKIT_TRY(missing("audio", *p.audio));
    }
    return {};
  }
};

// The project's view settings as the scene's (docs/PMM.md "What is converted"): the output size
// and preferred fps, the ground shadow on/off and translucency, MMD's black background (nanoem
// PMM::Context::load: setViewportBackgroundColor(0, 0, 0) when black_background is set), the edge
// colour of PMD models when not black (black is what the models are drawn with anyway). Version 1
// keeps the translucency, black background and edge colour in its uninterpreted tail: left at the
// defaults. The background pictures are the conversion's (add_backgrounds: their files are found).
ViewSettings view_settings(const pmm::Document& d) {
  ViewSettings v;
  if (d.output_width >= 1 && d.output_width <= 16384 && d.output_height >= 1 && d.output_height <= 16384)
    v.size = std::array<std::int32_t, 2>{d.output_width, d.output_height};
  if (d.preferred_fps == 30.0f || d.preferred_fps == 60.0f) v.fps = static_cast<std::int32_t>(d.preferred_fps);
  v.ground_shadow = d.ground_shadow != 0;
  if (d.version == pmm::Version::v2) {
    v.ground_shadow_translucent = d.translucent_ground_shadow != 0;
    if (d.black_background != 0) v.background = std::array<float, 3>{0.0f, 0.0f, 0.0f};
    if (d.edge_color != std::array<std::int32_t, 3>{0, 0, 0}) {
      std::array<float, 3> c{};
      for (std::size_t k = 0; k < 3; ++k) c[k] = static_cast<float>(std::clamp(d.edge_color[k], 0, 255)) / 255.0f;
      v.edge_color = c;
    }
  }
  return v;
}

}  // namespace

Result<Project> convert_project(const pmm::Document& d, const ProjectOptions& options, std::vector<Warning>& warnings) {
  ProjectConversion c{d, options, warnings, {}, {}, {}};
  c.folders.push_back(options.project_folder.empty() ? fs::path(".") : options.project_folder);
  for (const fs::path& f : options.search_folders) c.folders.push_back(f);
  Project& p = c.p;
  p.width = d.output_width;
  p.height = d.output_height;
  p.first_frame = d.begin_enabled ? std::max(0, d.begin_frame) : 0;
  if (d.end_enabled) p.last_frame = std::max(p.first_frame, d.end_frame);
  for (std::size_t i = 0; i < d.models.size(); ++i) MMDKIT_TRY(c.add_model(i));
  c.add_scene_models();
  p.scene.view = view_settings(d);
  p.camera = camera_motion(d, warnings);
  if (d.version == pmm::Version::v2) c.add_camera_parents();
  for (std::size_t i = 0; i < d.accessories.size(); ++i) MMDKIT_TRY(c.add_accessory(i));
  c.order_scene_accessories();
  if (d.version == pmm::Version::v2)
    for (std::size_t i = 0; i < d.models.size(); ++i) c.add_model_parents(i);
  c.add_physics();
  MMDKIT_TRY(c.add_backgrounds());
  MMDKIT_TRY(c.add_audio());
  return std::move(c.p);
}

namespace {

std::string absolute_string(const fs::path& p) {
  std::error_code ec;
  fs::path a = fs::absolute(p, ec);
  return (ec ? p : a.lexically_normal()).string();
}

void append_vec3(std::string& out, const Vec3& v) {
  out += "[" + format_float(v[0]) + ", " + format_float(v[1]) + ", " + format_float(v[2]) + "]";
}

// The scene file's "view" (docs/SCENE.md "View"): the fields that differ from the defaults.
void append_view(std::string& j, const ViewSettings& v) {
  std::vector<std::string> f;
  if (v.size) f.push_back("\"size\": [" + std::to_string((*v.size)[0]) + ", " + std::to_string((*v.size)[1]) + "]");
  if (v.fps) f.push_back("\"fps\": " + std::to_string(*v.fps));
  if (v.background)
    f.push_back("\"background\": [" + format_float((*v.background)[0]) + ", " + format_float((*v.background)[1]) + ", " +
                format_float((*v.background)[2]) + "]");
  if (!v.ground_shadow) f.push_back("\"ground_shadow\": false");
  if (v.ground_shadow_translucent) f.push_back("\"ground_shadow_translucent\": true");
  if (v.edge_color)
    f.push_back("\"edge_color\": [" + format_float((*v.edge_color)[0]) + ", " + format_float((*v.edge_color)[1]) + ", " +
                format_float((*v.edge_color)[2]) + "]");
  auto picture = [&](const char* name, const std::optional<BackgroundPicture>& b) {
    if (!b) return;
    f.push_back("\"" + std::string(name) + "\": {\"file\": " + json::string(absolute_string(b->file)) + ", \"offset\": [" +
                std::to_string(b->offset[0]) + ", " + std::to_string(b->offset[1]) + "], \"scale\": " +
                format_float(b->scale) + "}");
  };
  picture("background_image", v.background_image);
  picture("background_video", v.background_video);
  if (f.empty()) return;
  j += ",\n  \"view\": {";
  for (std::size_t k = 0; k < f.size(); ++k) j += (k ? ", " : "") + f[k];
  j += "}";
}

}  // namespace

std::string project_scene_json(const Project& p, const std::vector<std::string>& motion_files,
                               const std::string& camera_file) {
  std::string j = "{\n  \"format\": \"mmdkit-scene\", \"version\": 1,\n  \"models\": [";
  // The scene's models in scene order (the project's draw order, convert_project).
  std::vector<std::size_t> by_scene(p.scene.models.size());
  for (std::size_t i = 0; i < p.models.size(); ++i)
    if (p.models[i].scene_model) by_scene[*p.models[i].scene_model] = i;
  bool first = true;
  for (const std::size_t i : by_scene) {
    j += first ? "\n    " : ",\n    ";
    first = false;
    j += "{\"file\": " + json::string(absolute_string(*p.models[i].file.found)) +
         ", \"motions\": [" + json::string(motion_files[i]) + "]";
    const ModelEntry& entry = p.scene.models[*p.models[i].scene_model];
    if (entry.edge_width != 1.0f) j += ", \"edge_width\": " + format_float(entry.edge_width);
    if (!entry.self_shadow) j += ", \"self_shadow\": false";
    if (entry.add_blend) j += ", \"add_blend\": true";
    if (!entry.parents.empty()) {
      j += ", \"parents\": [";
      for (std::size_t k = 0; k < entry.parents.size(); ++k) {
        const ModelParentKey& key = entry.parents[k];
        j += (k == 0 ? "\n      " : ",\n      ") + std::string("{\"frame\": ") + std::to_string(key.frame) +
             ", \"bone\": " + json::string(key.bone);
        if (key.model) j += ", \"model\": " + std::to_string(*key.model) + ", \"parent_bone\": " + json::string(key.parent_bone);
        j += "}";
      }
      j += "]";
    }
    j += "}";
  }
  j += "\n  ],\n  \"accessories\": [";
  first = true;
  for (const AccessoryEntry& a : p.scene.accessories) {
    j += first ? "\n    " : ",\n    ";
    first = false;
    j += "{\"file\": " + json::string(absolute_string(a.file));
    if (a.add_blend) j += ", \"add_blend\": true";
    // The placement, parent, visibility and opacity: the entry's, or per key (an accessory that moves).
    auto place = [&](const std::optional<std::size_t>& model, const std::string& bone, const Placement& pl,
                     bool visible, float opacity, bool shadow) {
      if (model) j += ", \"model\": " + std::to_string(*model) + ", \"bone\": " + json::string(bone);
      j += ", \"position\": ";
      append_vec3(j, pl.position);
      j += ", \"rotation\": ";
      append_vec3(j, pl.rotation);
      j += ", \"scale\": " + format_float(pl.scale);
      if (!visible) j += ", \"visible\": false";
      if (opacity != 1.0f) j += ", \"opacity\": " + format_float(opacity);
      if (!shadow) j += ", \"shadow\": false";
    };
    if (a.keys.empty()) {
      place(a.model, a.bone, a.placement, a.visible, a.opacity, a.shadow);
    } else {
      j += ", \"keys\": [";
      for (std::size_t k = 0; k < a.keys.size(); ++k) {
        const AccessoryKey& key = a.keys[k];
        j += (k == 0 ? "\n      " : ",\n      ") + std::string("{\"frame\": ") + std::to_string(key.frame);
        place(key.model, key.bone, key.placement, key.visible, key.opacity, key.shadow);
        j += "}";
      }
      j += "]";
    }
    j += "}";
  }
  j += "\n  ]";
  if (p.scene.accessories_after_models != 0)
    j += ",\n  \"accessories_after_models\": " + std::to_string(p.scene.accessories_after_models);
  j += ",\n  \"camera\": " + json::string(camera_file);
  if (!p.scene.camera_parents.empty()) {
    j += ",\n  \"camera_parents\": [";
    for (std::size_t k = 0; k < p.scene.camera_parents.size(); ++k) {
      const CameraParentKey& c = p.scene.camera_parents[k];
      j += (k == 0 ? "" : ", ") + std::string("{\"frame\": ") + std::to_string(c.frame);
      if (c.model) j += ", \"model\": " + std::to_string(*c.model) + ", \"bone\": " + json::string(c.bone);
      j += "}";
    }
    j += "]";
  }
  if (!p.scene.audio.empty()) j += ",\n  \"audio\": " + json::string(absolute_string(p.scene.audio));
  if (!p.scene.gravity.empty()) {
    j += ",\n  \"gravity\": [";
    for (std::size_t k = 0; k < p.scene.gravity.size(); ++k) {
      j += (k == 0 ? "" : ", ") + std::string("{\"frame\": ") + std::to_string(p.scene.gravity[k].frame) + ", \"gravity\": ";
      append_vec3(j, p.scene.gravity[k].gravity);
      j += "}";
    }
    j += "]";
  }
  static constexpr const char* kModes[] = {"playing", "always", "trace", "off"};
  if (p.scene.physics_mode != PhysicsMode::playing)
    j += ",\n  \"physics_mode\": \"" + std::string(kModes[static_cast<int>(p.scene.physics_mode)]) + "\"";
  if (p.scene.physics_ground) j += ",\n  \"physics_ground\": true";
  append_view(j, p.scene.view);
  j += "\n}\n";
  return j;
}

}  // namespace mmdkit::scene
