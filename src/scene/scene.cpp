// A scene of several characters, accessories, one camera and light (scene.hpp).
#include "mmdkit/scene/scene.hpp"

#include <algorithm>
#include <map>

#include "mmdkit/anim/input_files.hpp"
#include "mmdkit/model/model.hpp"

namespace mmdkit::scene {

namespace fs = std::filesystem;

struct Scene::Impl {
  SceneDescription description;
  double frame = 0;  // the frame last evaluated (update_attachments)
  std::vector<std::unique_ptr<anim::Character>> characters;  // stable addresses (physics points at them)
  std::vector<Mat4> placements;
  std::vector<Placement> placement_values;
  std::vector<AccessoryModel> accessories;
  std::vector<std::int32_t> accessory_bones;
  std::vector<Mat4> accessory_local;  // placement · S(unit scale)
  std::vector<Mat4> accessory_world;
  std::vector<float> accessory_unit_scale;
  std::vector<std::vector<std::int32_t>> accessory_key_bones;  // per accessory with keys: each key's bone (-1: world)
  std::vector<std::int32_t> camera_parent_bones;  // per CameraParentKey: its bone (-1: none)
  std::vector<char> accessory_visible;
  std::vector<float> accessory_opacity;
  std::vector<char> accessory_shadow;
  std::vector<anim::CameraTrackKey> camera_track;
  std::vector<anim::LightTrackKey> light_track;
  std::vector<anim::SelfShadowTrackKey> self_shadow_track;
  std::uint32_t camera_cursor = 0, light_cursor = 0, self_shadow_cursor = 0;
  // Which source gives the camera / light / self-shadow: -1 = own track (or fixed / default),
  // otherwise the character whose motions do.
  std::int64_t camera_from = -1, light_from = -1, self_shadow_from = -1;
  bool fixed_light = false;
  anim::CameraState camera;
  anim::LightState light;
  anim::SelfShadowState self_shadow;
  std::uint32_t last_frame = 0;
  // Outside parents (ModelParentKey), per model: one track per subject bone, in the skeleton's
  // evaluation order (an ancestor's before its descendants').
  struct ParentTrack {
    std::uint32_t bone = 0;                 // the subject bone
    std::vector<std::uint32_t> moved;       // it and the bones below it evaluated before physics
    std::vector<std::uint32_t> frames;      // its keys' frames, increasing
    std::vector<std::int64_t> models;       // per key: parent model (-1: none)
    std::vector<std::uint32_t> bones;       // per key: parent bone
  };
  std::vector<std::vector<ParentTrack>> parent_tracks;  // per character (the stage: none)
  std::vector<std::size_t> order;                       // characters, parents first
  bool has_parents = false;
};

namespace {

Error with_field(Error e, const std::string& field, const fs::path& file) {
  e.message = field + ": " + e.message;
  if (e.file.empty()) e.file = file.string();
  return e;
}

// The field naming `file` among the entry's files (the reader error says which file failed).
std::string field_of_file(const std::string& base, const ModelEntry& m, const std::string& failed) {
  for (std::size_t j = 0; j < m.motions.size(); ++j)
    if (m.motions[j].string() == failed) return base + ".motions[" + std::to_string(j) + "]";
  return base + ".file";
}

Result<vmd::Motion> read_vmd(const fs::path& path, const std::string& field, const LoadOptions& options,
                             std::vector<Warning>& warnings) {
  auto m = anim::read_motion_file(path, anim::InputOptions{.encoding = options.encoding, .geometry = false}, warnings);
  if (!m) return std::unexpected(with_field(m.error(), field, path));
  if (!m->motion) {
    Error e = make_error(ErrorCode::invalid_argument, field + ": needs a VMD motion, not a VPD pose", "scene").error();
    e.file = path.string();
    return std::unexpected(e);
  }
  return std::move(*m->motion);
}

// The parent bone named by an accessory, one of its keys or a camera parent key (-1: none, the
// world); `at` is the field for messages.
Result<std::int32_t> find_parent_bone(const Scene::Impl& s, const std::optional<std::size_t>& model,
                                      const std::string& name, const std::string& at) {
  if (!model) return -1;
  const SceneDescription& d = s.description;
  if (*model >= d.models.size())
    return make_error(ErrorCode::json_schema, at + ".model: model " + std::to_string(*model) + " does not exist", "scene");
  const std::int32_t b = s.characters[*model]->data().skeleton().find(name);
  if (b < 0) {
    // invalid_value, not json_schema: the short form (--accessory FILE@BONE) names bones too.
    Error e = make_error(ErrorCode::invalid_value,
                         at + ".bone: model " + std::to_string(*model) + " has no bone '" + name + "'", "scene").error();
    e.file = d.models[*model].file.string();
    return std::unexpected(e);
  }
  return b;
}

// Depth-first visit for the evaluation order (parents first); a model met again on the current
// path is a cycle.
Result<void> visit_model(Scene::Impl& s, std::size_t i, std::vector<std::uint8_t>& state, std::vector<std::size_t>& path) {
  if (state[i] == 2) return {};
  path.push_back(i);
  if (state[i] == 1) {
    std::string cycle;
    const auto first = std::find(path.begin(), path.end(), i);
    for (auto it = first; it != path.end(); ++it) cycle += (cycle.empty() ? "" : " -> ") + std::string("models[") + std::to_string(*it) + "]";
    return make_error(ErrorCode::json_schema,
                      "models[" + std::to_string(i) + "].parents: outside parents form a cycle (" + cycle +
                          "): a model cannot follow a model that follows it",
                      "scene");
  }
  state[i] = 1;
  for (const ModelParentKey& k : s.description.models[i].parents)
    if (k.model)
      if (auto r = visit_model(s, *k.model, state, path); !r) return r;
  state[i] = 2;
  path.pop_back();
  s.order.push_back(i);
  return {};
}

// The models' outside parents bound to bones, the evaluation order (description.hpp ModelParentKey).
Result<void> resolve_outside_parents(Scene::Impl& s, std::vector<Warning>& warnings) {
  const SceneDescription& d = s.description;
  s.parent_tracks.assign(s.characters.size(), {});
  std::vector<std::uint8_t> state(d.models.size(), 0);
  std::vector<std::size_t> path;
  for (std::size_t i = 0; i < d.models.size(); ++i) {
    const ModelEntry& m = d.models[i];
    const std::string field = "models[" + std::to_string(i) + "].parents";
    if (!m.parents.empty()) s.has_parents = true;
    const anim::Skeleton& sk = s.characters[i]->data().skeleton();
    std::vector<Scene::Impl::ParentTrack>& tracks = s.parent_tracks[i];
    for (std::size_t k = 0; k < m.parents.size(); ++k) {
      const ModelParentKey& key = m.parents[k];
      const std::string at = field + "[" + std::to_string(k) + "]";
      const std::int32_t b = sk.find(key.bone);
      if (b < 0) {
        Error e = make_error(ErrorCode::invalid_value, at + ".bone: model " + std::to_string(i) + " has no bone '" + key.bone + "'", "scene").error();
        e.file = m.file.string();
        return std::unexpected(e);
      }
      std::int64_t pm = -1;
      std::uint32_t pb = 0;
      if (key.model) {
        const std::size_t j = *key.model;
        if (m.placement.scale != 1.0f || d.models[j].placement.scale != 1.0f)
          return make_error(ErrorCode::json_schema, at + ": a model and its outside parent's model must have scale 1 (bones stay rigid)", "scene");
        auto r = find_parent_bone(s, key.model, key.parent_bone, at);
        if (!r) {
          Error e = r.error();
          const std::string from = at + ".bone:";
          if (e.message.rfind(from, 0) == 0) e.message = at + ".parent_bone:" + e.message.substr(from.size());
          return std::unexpected(e);
        }
        pm = static_cast<std::int64_t>(j);
        pb = static_cast<std::uint32_t>(*r);
      }
      auto t = std::find_if(tracks.begin(), tracks.end(), [b](const auto& x) { return x.bone == std::uint32_t(b); });
      if (t == tracks.end()) {
        if (sk.desc(static_cast<std::size_t>(b)).after_physics)
        {
          Warning w = make_error(ErrorCode::invalid_value,
                                 at + ".bone: '" + key.bone + "' is deformed after physics: its outside parent is not applied",
                                 "scene").error();
          w.file = m.file.string();
          warnings.push_back(std::move(w));
        }
        tracks.emplace_back();
        tracks.back().bone = static_cast<std::uint32_t>(b);
        t = tracks.end() - 1;
      }
      t->frames.push_back(key.frame);
      t->models.push_back(pm);
      t->bones.push_back(pb);
    }
    // The bones each subject bone moves: itself and every bone below it, before physics.
    const auto parents = sk.parents();
    for (Scene::Impl::ParentTrack& t : tracks) {
      if (sk.desc(t.bone).after_physics) continue;
      for (std::uint32_t b : sk.order()) {
        if (sk.desc(b).after_physics) continue;
        for (std::int32_t a = static_cast<std::int32_t>(b); a >= 0; a = parents[static_cast<std::size_t>(a)])
          if (a == static_cast<std::int32_t>(t.bone)) {
            t.moved.push_back(b);
            break;
          }
      }
    }
    const auto order = sk.order();
    auto rank = [&](std::uint32_t bone) { return std::find(order.begin(), order.end(), bone) - order.begin(); };
    std::stable_sort(tracks.begin(), tracks.end(), [&](const auto& x, const auto& y) { return rank(x.bone) < rank(y.bone); });
  }
  for (std::size_t i = 0; i < d.models.size(); ++i)
    if (auto r = visit_model(s, i, state, path); !r) return r;
  for (std::size_t i = d.models.size(); i < s.characters.size(); ++i) s.order.push_back(i);
  return {};
}

}  // namespace

Scene::Scene(std::unique_ptr<Impl> impl) noexcept : impl_(std::move(impl)) {}
Scene::Scene(Scene&&) noexcept = default;
Scene& Scene::operator=(Scene&&) noexcept = default;
Scene::~Scene() = default;

Result<Scene> Scene::load(const SceneDescription& description, const LoadOptions& options, std::vector<Warning>& warnings) {
  auto impl = std::make_unique<Impl>();
  Impl& s = *impl;
  s.description = description;
  // .vac accessories → their .x and placement; a .x stage → an accessory in the world.
  if (auto r = resolve_accessory_files(s.description); !r) return std::unexpected(r.error());
  const SceneDescription& d = s.description;
  const anim::InputOptions in{.encoding = options.encoding, .geometry = options.geometry};
  // Characters; a model given twice with the same motions shares its CharacterData.
  std::map<std::vector<std::string>, std::shared_ptr<const anim::CharacterData>> shared;
  auto add_character = [&](const fs::path& file, const std::vector<fs::path>& motions, const Placement& placement,
                           const std::string& field, const ModelEntry* entry) -> Result<void> {
    std::vector<std::string> key{file.string()};
    for (const fs::path& m : motions) key.push_back(m.string());
    std::shared_ptr<const anim::CharacterData> data;
    if (auto it = shared.find(key); it != shared.end()) {
      data = it->second;
    } else {
      auto loaded = anim::load_character(file, motions, in);
      if (!loaded) {
        const Error& e = loaded.error();
        return std::unexpected(with_field(e, entry ? field_of_file(field, *entry, e.file) : field + ".file", file));
      }
      for (Warning& w : loaded->warnings) warnings.push_back(std::move(w));
      data = loaded->data;
      shared.emplace(key, data);
    }
    s.characters.push_back(std::make_unique<anim::Character>(data));
    s.placements.push_back(placement_matrix(placement));
    s.placement_values.push_back(placement);
    s.last_frame = std::max(s.last_frame, data->last_frame());
    return {};
  };
  for (std::size_t i = 0; i < d.models.size(); ++i) {
    const ModelEntry& m = d.models[i];
    if (auto r = add_character(m.file, m.motions, m.placement, "models[" + std::to_string(i) + "]", &m); !r)
      return std::unexpected(r.error());
  }
  if (d.stage)
    if (auto r = add_character(d.stage->file, {}, d.stage->placement, "stage", nullptr); !r)
      return std::unexpected(r.error());

  // Accessories.
  const AccessoryLoader& loader = options.accessory_loader ? options.accessory_loader : AccessoryLoader(load_accessory);
  for (std::size_t i = 0; i < d.accessories.size(); ++i) {
    const AccessoryEntry& a = d.accessories[i];
    const std::string field = a.stage ? std::string("stage") : "accessories[" + std::to_string(i) + "]";
    auto acc = loader(a.file, warnings);
    if (!acc) return std::unexpected(with_field(acc.error(), field + ".file", a.file));
    if (!acc->model || !acc->model->has_geometry) {
      Error e = make_error(ErrorCode::invalid_value, field + ".file: the accessory has no geometry", "scene").error();
      e.file = a.file.string();
      return std::unexpected(e);
    }
    auto parent_bone = [&](const std::optional<std::size_t>& model, const std::string& name, const std::string& at) {
      return find_parent_bone(s, model, name, at);
    };
    auto bone = parent_bone(a.model, a.bone, field);
    if (!bone) return std::unexpected(bone.error());
    std::vector<std::int32_t> key_bones;
    for (std::size_t k = 0; k < a.keys.size(); ++k) {
      auto kb = parent_bone(a.keys[k].model, a.keys[k].bone, field + ".keys[" + std::to_string(k) + "]");
      if (!kb) return std::unexpected(kb.error());
      key_bones.push_back(*kb);
      s.last_frame = std::max(s.last_frame, a.keys[k].frame);
    }
    s.accessory_local.push_back(multiply(placement_matrix(a.placement), scale_matrix(acc->unit_scale)));
    s.accessory_world.push_back(scale_matrix(1.0f));
    s.accessory_bones.push_back(*bone);
    s.accessory_unit_scale.push_back(acc->unit_scale);
    s.accessory_key_bones.push_back(std::move(key_bones));
    s.accessory_visible.push_back(a.keys.empty() ? a.visible : a.keys.front().visible);
    s.accessory_opacity.push_back(a.keys.empty() ? a.opacity : a.keys.front().opacity);
    s.accessory_shadow.push_back(a.keys.empty() ? a.shadow : a.keys.front().shadow);
    s.accessories.push_back(std::move(*acc));
  }

  // The bones the camera follows.
  for (std::size_t k = 0; k < d.camera_parents.size(); ++k) {
    const CameraParentKey& c = d.camera_parents[k];
    auto b = find_parent_bone(s, c.model, c.bone, "camera_parents[" + std::to_string(k) + "]");
    if (!b) return std::unexpected(b.error());
    s.camera_parent_bones.push_back(*b);
  }

  if (auto r = resolve_outside_parents(s, warnings); !r) return std::unexpected(r.error());

  // Camera, light, self-shadow.
  std::optional<vmd::Motion> camera_motion, light_motion;
  if (!d.camera.empty()) {
    auto m = read_vmd(d.camera, "camera", options, warnings);
    if (!m) return std::unexpected(m.error());
    camera_motion = std::move(*m);
  }
  if (!d.light_motion.empty()) {
    auto m = read_vmd(d.light_motion, "light", options, warnings);
    if (!m) return std::unexpected(m.error());
    light_motion = std::move(*m);
  }
  if (camera_motion) s.camera_track = anim::build_camera_track(camera_motion->camera_keys);
  if (d.fixed_light) {
    s.fixed_light = true;
    s.light = *d.fixed_light;
  } else {
    if (light_motion) s.light_track = anim::build_light_track(light_motion->light_keys);
    if (s.light_track.empty() && camera_motion) s.light_track = anim::build_light_track(camera_motion->light_keys);
  }
  if (camera_motion) s.self_shadow_track = anim::build_self_shadow_track(camera_motion->self_shadow_keys);
  if (s.self_shadow_track.empty() && light_motion)
    s.self_shadow_track = anim::build_self_shadow_track(light_motion->self_shadow_keys);
  const std::size_t nm = d.models.size();
  for (std::size_t i = 0; i < nm; ++i) {
    const anim::CharacterData& cd = s.characters[i]->data();
    // A camera VMD given is the camera, even without camera keys (MMD's default camera then).
    if (d.camera.empty() && s.camera_from < 0 && !cd.camera_track().empty()) s.camera_from = std::int64_t(i);
    if (!s.fixed_light && s.light_track.empty() && s.light_from < 0 && !cd.light_track().empty())
      s.light_from = std::int64_t(i);
    if (s.self_shadow_track.empty() && s.self_shadow_from < 0 && !cd.self_shadow_track().empty())
      s.self_shadow_from = std::int64_t(i);
  }
  for (const auto& k : s.camera_track) s.last_frame = std::max(s.last_frame, k.frame);
  for (const auto& k : s.light_track) s.last_frame = std::max(s.last_frame, k.frame);
  for (const auto& k : s.self_shadow_track) s.last_frame = std::max(s.last_frame, k.frame);
  s.camera = anim::sample_camera({}, 0.0, s.camera_cursor);
  return Scene(std::move(impl));
}

const SceneDescription& Scene::description() const noexcept { return impl_->description; }
std::size_t Scene::character_count() const noexcept { return impl_->characters.size(); }
std::size_t Scene::model_count() const noexcept { return impl_->description.models.size(); }
bool Scene::has_stage() const noexcept { return impl_->description.stage.has_value(); }
anim::Character& Scene::character(std::size_t i) noexcept { return *impl_->characters[i]; }
const anim::Character& Scene::character(std::size_t i) const noexcept { return *impl_->characters[i]; }
const Mat4& Scene::character_placement(std::size_t i) const noexcept { return impl_->placements[i]; }
const Placement& Scene::character_placement_values(std::size_t i) const noexcept {
  return impl_->placement_values[i];
}
std::string Scene::character_field(std::size_t i) const {
  return i < model_count() ? "models[" + std::to_string(i) + "]" : std::string("stage");
}
std::size_t Scene::accessory_count() const noexcept { return impl_->accessories.size(); }
const AccessoryModel& Scene::accessory(std::size_t i) const noexcept { return impl_->accessories[i]; }
std::int32_t Scene::accessory_bone(std::size_t i) const noexcept { return impl_->accessory_bones[i]; }
const Mat4& Scene::accessory_transform(std::size_t i) const noexcept { return impl_->accessory_world[i]; }
bool Scene::accessory_visible(std::size_t i) const noexcept { return impl_->accessory_visible[i] != 0; }
float Scene::accessory_opacity(std::size_t i) const noexcept { return impl_->accessory_opacity[i]; }
bool Scene::accessory_shadow(std::size_t i) const noexcept { return impl_->accessory_shadow[i] != 0; }
bool Scene::accessory_ever_visible(std::size_t i) const noexcept {
  const AccessoryEntry& a = impl_->description.accessories[i];
  if (a.keys.empty()) return a.visible;
  return std::any_of(a.keys.begin(), a.keys.end(), [](const AccessoryKey& k) { return k.visible; });
}
const anim::CameraState& Scene::camera() const noexcept { return impl_->camera; }
double Scene::frame() const noexcept { return impl_->frame; }
CameraSource Scene::camera_source() const noexcept {
  if (impl_->camera_from >= 0) return CameraSource::model_motion;
  return impl_->camera_track.empty() ? CameraSource::mmd_default : CameraSource::camera_file;
}
const anim::LightState& Scene::light() const noexcept { return impl_->light; }
const anim::SelfShadowState& Scene::self_shadow() const noexcept { return impl_->self_shadow; }
std::uint32_t Scene::last_frame() const noexcept { return impl_->last_frame; }

std::span<const std::size_t> Scene::evaluation_order() const noexcept { return impl_->order; }
bool Scene::has_outside_parents() const noexcept { return impl_->has_parents; }

Vec3 Scene::gravity(double frame) const noexcept {
  const std::vector<GravityKey>& keys = impl_->description.gravity;
  if (keys.empty()) return {0.0f, -98.0f, 0.0f};
  auto next = std::upper_bound(keys.begin(), keys.end(), frame, [](double f, const GravityKey& k) { return f < double(k.frame); });
  return (next == keys.begin() ? keys.front() : *(next - 1)).gravity;
}

Result<void> Scene::evaluate(double frame) {
  auto failed = [this](std::size_t i, Error e) -> Result<void> {
    e.message = character_field(i) + ": " + e.message;
    return std::unexpected(e);
  };
  if (!impl_->has_parents) {
    for (std::size_t i = 0; i < impl_->characters.size(); ++i)
      if (auto r = impl_->characters[i]->evaluate(frame); !r) return failed(i, r.error());
  } else {
    // Parents first; a model's outside parents between its two halves (evaluate = both halves).
    for (const std::size_t i : impl_->order) {
      anim::Character& c = *impl_->characters[i];
      if (auto r = c.evaluate_before_physics(frame); !r) return failed(i, r.error());
      apply_outside_parents(i, frame);
      if (auto r = c.evaluate_after_physics(); !r) return failed(i, r.error());
    }
  }
  update_attachments(frame);
  return {};
}

void Scene::apply_outside_parents(std::size_t i, double frame) noexcept {
  Impl& s = *impl_;
  if (i >= s.parent_tracks.size()) return;
  for (const Impl::ParentTrack& t : s.parent_tracks[i]) {
    if (t.moved.empty()) continue;
    auto next = std::upper_bound(t.frames.begin(), t.frames.end(), frame, [](double f, std::uint32_t k) { return f < double(k); });
    if (next == t.frames.begin()) continue;
    const auto k = static_cast<std::size_t>(next - t.frames.begin()) - 1;
    if (t.models[k] < 0) continue;
    const auto j = static_cast<std::size_t>(t.models[k]);
    // P: the parent bone's model transform, taken to this model's space through the placements.
    const anim::PoseWorkspace& pw = s.characters[j]->pose();
    Quat pr = pw.model_rotations()[t.bones[k]];
    Vec3 pp = pw.model_positions()[t.bones[k]];
    const Placement& pa = s.placement_values[i];
    const Placement& pb = s.placement_values[j];
    if (!pa.is_identity() || !pb.is_identity()) {
      const Quat qb = placement_rotation(pb);
      const Vec3 wp = quat_rotate(qb, pp);
      const Quat qa_inv = quat_conjugate(placement_rotation(pa));
      pr = quat_multiply(qa_inv, quat_multiply(qb, pr));
      pp = quat_rotate(qa_inv, {wp[0] + pb.position[0] - pa.position[0], wp[1] + pb.position[1] - pa.position[1],
                                wp[2] + pb.position[2] - pa.position[2]});
    }
    // W' = W · T(−head) · P (nanoem Bone::applyOutsideParentTransform); C = W' · W⁻¹ moves the rest.
    anim::PoseWorkspace& ws = s.characters[i]->physics_pose();
    const Quat r = ws.model_rotations()[t.bone];
    const Vec3 p = ws.model_positions()[t.bone];
    const Vec3 head = s.characters[i]->data().skeleton().bind_positions()[t.bone];
    const Vec3 rp = quat_rotate(r, pp), rh = quat_rotate(r, head);
    const Quat r2 = quat_multiply(r, pr);
    const Vec3 p2{rp[0] + p[0] - rh[0], rp[1] + p[1] - rh[1], rp[2] + p[2] - rh[2]};
    const Quat cr = quat_multiply(r2, quat_conjugate(r));
    const Vec3 cp = quat_rotate(cr, p);
    const Vec3 ct{p2[0] - cp[0], p2[1] - cp[1], p2[2] - cp[2]};
    for (const std::uint32_t b : t.moved) {
      if (b == t.bone) {
        ws.set_model_transform(b, r2, p2);
        continue;
      }
      const Vec3 q = quat_rotate(cr, ws.model_positions()[b]);
      ws.set_model_transform(b, quat_multiply(cr, ws.model_rotations()[b]), {q[0] + ct[0], q[1] + ct[1], q[2] + ct[2]});
    }
  }
}

namespace {

// An accessory with keys at `frame` (description.hpp AccessoryEntry::keys: linear, as nanoem's
// Accessory::synchronizeMotion; at a key's frame exactly that key's placement matrix).
void update_keyed_accessory(Scene::Impl& s, std::size_t i, double frame) noexcept {
  const std::vector<AccessoryKey>& keys = s.description.accessories[i].keys;
  // The key at or before the frame (the first before it), and the one after.
  auto next = std::upper_bound(keys.begin(), keys.end(), frame,
                               [](double f, const AccessoryKey& k) { return f < double(k.frame); });
  const std::size_t ia = next == keys.begin() ? 0 : static_cast<std::size_t>(next - keys.begin()) - 1;
  const AccessoryKey& a = keys[ia];
  Mat4 local;
  float opacity = a.opacity;
  if (next == keys.begin() || next == keys.end() || frame == double(a.frame)) {
    local = placement_matrix(a.placement);
  } else {
    const AccessoryKey& b = *next;
    const float t = static_cast<float>((frame - double(a.frame)) / double(b.frame - a.frame));
    auto lerp = [t](float x, float y) { return x + t * (y - x); };
    const Vec3 position{lerp(a.placement.position[0], b.placement.position[0]),
                        lerp(a.placement.position[1], b.placement.position[1]),
                        lerp(a.placement.position[2], b.placement.position[2])};
    const Quat rotation = quat_slerp(placement_rotation(a.placement), placement_rotation(b.placement), t);
    local = placement_matrix(position, rotation, lerp(a.placement.scale, b.placement.scale));
    opacity = lerp(a.opacity, b.opacity);
  }
  local = multiply(local, scale_matrix(s.accessory_unit_scale[i]));
  s.accessory_visible[i] = a.visible ? 1 : 0;
  s.accessory_opacity[i] = opacity;
  s.accessory_shadow[i] = a.shadow ? 1 : 0;
  const std::int32_t bone = s.accessory_key_bones[i][ia];
  if (bone < 0) {
    s.accessory_world[i] = local;
    return;
  }
  const std::size_t m = *a.model;
  const Mat4& bone_model = s.characters[m]->pose().model_matrices()[static_cast<std::size_t>(bone)];
  s.accessory_world[i] = multiply(multiply(s.placements[m], bone_model), local);
}

// The camera following a bone at `frame` (description.hpp CameraParentKey): look-at + the bone's
// world origin, then the view again.
void follow_camera_parent(Scene::Impl& s, double frame) noexcept {
  const std::vector<CameraParentKey>& keys = s.description.camera_parents;
  auto next = std::upper_bound(keys.begin(), keys.end(), frame,
                               [](double f, const CameraParentKey& k) { return f < double(k.frame); });
  if (next == keys.begin()) return;
  const std::size_t k = static_cast<std::size_t>(next - keys.begin()) - 1;
  const std::int32_t bone = s.camera_parent_bones[k];
  if (bone < 0) return;
  const std::size_t m = *keys[k].model;
  const Mat4& bm = s.characters[m]->pose().model_matrices()[static_cast<std::size_t>(bone)];
  const Vec3 origin = transform_point(s.placements[m], {bm[12], bm[13], bm[14]});
  for (std::size_t i = 0; i < 3; ++i) s.camera.target[i] += origin[i];
  anim::update_camera_view(s.camera);
}

}  // namespace

void Scene::update_attachments(double frame) noexcept {
  Impl& s = *impl_;
  s.frame = frame;
  for (std::size_t i = 0; i < s.accessories.size(); ++i) {
    const AccessoryEntry& a = s.description.accessories[i];
    if (!a.keys.empty()) {
      update_keyed_accessory(s, i, frame);
      continue;
    }
    const std::int32_t bone = s.accessory_bones[i];
    if (bone < 0) {
      s.accessory_world[i] = s.accessory_local[i];
      continue;
    }
    const std::size_t m = *a.model;
    const Mat4& bone_model = s.characters[m]->pose().model_matrices()[static_cast<std::size_t>(bone)];
    s.accessory_world[i] = multiply(multiply(s.placements[m], bone_model), s.accessory_local[i]);
  }
  if (s.camera_from >= 0)
    s.camera = s.characters[static_cast<std::size_t>(s.camera_from)]->camera();
  else
    s.camera = anim::sample_camera(s.camera_track, frame, s.camera_cursor);
  follow_camera_parent(s, frame);
  if (s.light_from >= 0)
    s.light = s.characters[static_cast<std::size_t>(s.light_from)]->light();
  else if (!s.fixed_light)
    s.light = anim::sample_light(s.light_track, frame, s.light_cursor);
  if (s.self_shadow_from >= 0)
    s.self_shadow = s.characters[static_cast<std::size_t>(s.self_shadow_from)]->self_shadow();
  else
    s.self_shadow = anim::sample_self_shadow(s.self_shadow_track, frame, s.self_shadow_cursor);
}

}  // namespace mmdkit::scene
