// The scene file (description.hpp, docs/SCENE.md): JSON → SceneDescription, file checks.
#include <rapidjson/document.h>
#include <rapidjson/error/en.h>

#include <cctype>
#include <cmath>
#include <initializer_list>
#include <system_error>

#include "core/json.hpp"
#include "mmdkit/core/file.hpp"
#include "mmdkit/scene/description.hpp"

namespace mmdkit::scene {

namespace fs = std::filesystem;

namespace {

using Value = rapidjson::Value;

std::unexpected<Error> schema(const std::string& field, const std::string& why) {
  return make_error(ErrorCode::json_schema, field + ": " + why, "scene");
}

const char* type_name(const Value& v) {
  if (v.IsNull()) return "null";
  if (v.IsBool()) return "a boolean";
  if (v.IsNumber()) return "a number";
  if (v.IsString()) return "a string";
  if (v.IsArray()) return "an array";
  return "an object";
}

std::string quoted(std::string_view s) {
  std::string out = "'";
  out.append(s.substr(0, 200));
  return out + (s.size() > 200 ? "...'" : "'");
}

// Refuses members other than `allowed` (typos would otherwise be ignored silently).
Result<void> known_members(const Value& obj, const std::string& field, std::initializer_list<const char*> allowed) {
  for (auto it = obj.MemberBegin(); it != obj.MemberEnd(); ++it) {
    const std::string_view name(it->name.GetString(), it->name.GetStringLength());
    bool ok = false;
    std::string list;
    for (const char* a : allowed) {
      ok = ok || name == a;
      list += (list.empty() ? "" : ", ") + std::string(a);
    }
    if (!ok) return schema(field.empty() ? std::string(name) : field + "." + std::string(name),
                           "unknown field (expected one of: " + list + ")");
  }
  return {};
}

// A .vac by its extension (it has no signature; formats/vac.hpp).
bool is_vac_path(const fs::path& p) {
  std::string e = p.extension().string();
  for (char& c : e) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return e == ".vac";
}

std::string join(const std::string& field, const char* member) {
  return field.empty() ? std::string(member) : field + "." + member;
}

Result<float> number(const Value& v, const std::string& field) {
  if (!v.IsNumber()) return schema(field, std::string("must be a number, not ") + type_name(v));
  const double d = v.GetDouble();
  if (!std::isfinite(d) || std::abs(d) > 1e30) return schema(field, "must be a finite number of float range");
  return static_cast<float>(d);
}

Result<Vec3> vec3(const Value& v, const std::string& field) {
  if (!v.IsArray() || v.Size() != 3)
    return schema(field, std::string("must be an array of 3 numbers, not ") +
                             (v.IsArray() ? "an array of " + std::to_string(v.Size()) : type_name(v)));
  Vec3 out{};
  for (rapidjson::SizeType i = 0; i < 3; ++i) {
    auto n = number(v[i], field + "[" + std::to_string(i) + "]");
    if (!n) return std::unexpected(n.error());
    out[i] = *n;
  }
  return out;
}

// A path member: relative paths against `folder`, never out of it.
Result<fs::path> path_value(const Value& v, const std::string& field, const fs::path& folder) {
  if (!v.IsString()) return schema(field, std::string("must be a path (a string), not ") + type_name(v));
  const std::string_view s(v.GetString(), v.GetStringLength());
  if (s.empty()) return schema(field, "must not be empty");
  if (s.find('\0') != std::string_view::npos) return schema(field, "contains a NUL character");
  const fs::path p{std::string(s)};
  if (p.is_absolute() || folder.empty()) return p;
  const fs::path norm = p.lexically_normal();
  if (norm.empty() || *norm.begin() == "..")
    return make_error(ErrorCode::invalid_value,
                      field + ": " + quoted(s) +
                          " leaves the scene's folder (relative paths stay inside it; give an absolute path to read a file elsewhere)",
                      "scene");
  return folder / norm;
}

Result<void> placement(const Value& obj, const std::string& field, Placement& out) {
  if (auto it = obj.FindMember("position"); it != obj.MemberEnd()) {
    auto v = vec3(it->value, join(field, "position"));
    if (!v) return std::unexpected(v.error());
    out.position = *v;
  }
  if (auto it = obj.FindMember("rotation"); it != obj.MemberEnd()) {
    auto v = vec3(it->value, join(field, "rotation"));
    if (!v) return std::unexpected(v.error());
    out.rotation = *v;
  }
  if (auto it = obj.FindMember("scale"); it != obj.MemberEnd()) {
    auto v = number(it->value, join(field, "scale"));
    if (!v) return std::unexpected(v.error());
    if (!(*v > 0.0f)) return schema(join(field, "scale"), "must be > 0");
    out.scale = *v;
  }
  return {};
}

Result<bool> bool_value(const Value& v, const std::string& field) {
  if (!v.IsBool()) return schema(field, std::string("must be true or false, not ") + type_name(v));
  return v.GetBool();
}

// An optional boolean member `name` of `obj` into `out` (left as it is when absent).
Result<void> bool_member(const Value& obj, const std::string& field, const char* name, bool& out) {
  const auto it = obj.FindMember(name);
  if (it == obj.MemberEnd()) return {};
  auto b = bool_value(it->value, join(field, name));
  if (!b) return std::unexpected(b.error());
  out = *b;
  return {};
}

Result<const Value*> array_member(const Value& obj, const char* name, const std::string& field) {
  auto it = obj.FindMember(name);
  if (it == obj.MemberEnd()) return nullptr;
  if (!it->value.IsArray()) return schema(field, std::string("must be an array, not ") + type_name(it->value));
  if (it->value.Size() > kMaxSceneItems)
    return make_error(ErrorCode::limit_exceeded,
                      field + ": " + std::to_string(it->value.Size()) + " items, more than the limit " +
                          std::to_string(kMaxSceneItems),
                      "scene");
  return &it->value;
}

Result<const Value*> object_at(const Value& v, const std::string& field) {
  if (!v.IsObject()) return schema(field, std::string("must be an object, not ") + type_name(v));
  return &v;
}

Result<fs::path> required_file(const Value& obj, const std::string& field, const fs::path& folder) {
  auto it = obj.FindMember("file");
  if (it == obj.MemberEnd()) return schema(join(field, "file"), "required");
  return path_value(it->value, join(field, "file"), folder);
}

#define SCENE_TRY(var, expr)                        \
  auto var##_r = (expr);                            \
  if (!var##_r) return std::unexpected(var##_r.error()); \
  auto& var = *var##_r

Result<std::uint32_t> key_frame(const Value& obj, const std::string& field, std::optional<std::uint32_t> previous);

// A string member that must be a non-empty name.
Result<std::string> name_member(const Value& obj, const std::string& field, const char* member) {
  const auto it = obj.FindMember(member);
  if (it == obj.MemberEnd()) return schema(join(field, member), "required");
  if (!it->value.IsString() || it->value.GetStringLength() == 0)
    return schema(join(field, member), "must be a bone name (a non-empty string)");
  return std::string(it->value.GetString(), it->value.GetStringLength());
}

// A model's outside parents (ModelParentKey): frames strictly increasing per bone.
Result<void> model_parents(const Value& obj, const std::string& field, std::size_t self, std::size_t model_count,
                           std::vector<ModelParentKey>& out) {
  SCENE_TRY(keys, array_member(obj, "parents", join(field, "parents")));
  if (!keys) return {};
  if (keys->Size() > kMaxSceneItems)
    return schema(join(field, "parents"), "at most " + std::to_string(kMaxSceneItems) + " keys");
  for (rapidjson::SizeType k = 0; k < keys->Size(); ++k) {
    const std::string at = join(field, "parents") + "[" + std::to_string(k) + "]";
    SCENE_TRY(o, object_at((*keys)[k], at));
    if (auto r = known_members(*o, at, {"frame", "bone", "model", "parent_bone"}); !r) return std::unexpected(r.error());
    ModelParentKey key;
    SCENE_TRY(bone, name_member(*o, at, "bone"));
    key.bone = bone;
    std::optional<std::uint32_t> previous;
    for (const ModelParentKey& e : out)
      if (e.bone == key.bone) previous = e.frame;
    SCENE_TRY(frame, key_frame(*o, at, previous));
    key.frame = frame;
    if (const auto m = o->FindMember("model"); m != o->MemberEnd()) {
      if (!m->value.IsUint() || m->value.GetUint() >= model_count)
        return schema(join(at, "model"), "must be the index of a model of the scene (0.." + std::to_string(model_count - 1) + ")");
      key.model = m->value.GetUint();
      if (*key.model == self) return schema(join(at, "model"), "a model cannot be its own outside parent");
      SCENE_TRY(pb, name_member(*o, at, "parent_bone"));
      key.parent_bone = pb;
    } else if (o->HasMember("parent_bone")) {
      return schema(join(at, "model"), "required with 'parent_bone'");
    }
    out.push_back(std::move(key));
  }
  return {};
}

Result<ModelEntry> model_entry(const Value& v, const std::string& field, const fs::path& folder, std::size_t self,
                               std::size_t model_count) {
  SCENE_TRY(obj, object_at(v, field));
  if (auto r = known_members(*obj, field, {"file", "motions", "position", "rotation", "scale", "edge_width", "parents", "self_shadow", "add_blend"});
      !r)
    return std::unexpected(r.error());
  ModelEntry m;
  SCENE_TRY(file, required_file(*obj, field, folder));
  m.file = file;
  SCENE_TRY(motions, array_member(*obj, "motions", join(field, "motions")));
  if (motions)
    for (rapidjson::SizeType j = 0; j < motions->Size(); ++j) {
      SCENE_TRY(p, path_value((*motions)[j], field + ".motions[" + std::to_string(j) + "]", folder));
      m.motions.push_back(p);
    }
  if (auto r = placement(*obj, field, m.placement); !r) return std::unexpected(r.error());
  if (auto it = obj->FindMember("edge_width"); it != obj->MemberEnd()) {
    SCENE_TRY(e, number(it->value, join(field, "edge_width")));
    if (!(e >= 0.0f)) return schema(join(field, "edge_width"), "must be >= 0");
    m.edge_width = e;
  }
  if (auto r = model_parents(*obj, field, self, model_count, m.parents); !r) return std::unexpected(r.error());
  if (auto r = bool_member(*obj, field, "self_shadow", m.self_shadow); !r) return std::unexpected(r.error());
  if (auto r = bool_member(*obj, field, "add_blend", m.add_blend); !r) return std::unexpected(r.error());
  return m;
}

Result<float> opacity_value(const Value& v, const std::string& field) {
  auto o = number(v, field);
  if (!o) return std::unexpected(o.error());
  if (*o < 0.0f || *o > 1.0f) return schema(field, "must be 0..1");
  return *o;
}

// A parent: `model` (index) and `bone` (name), both or neither.
Result<void> parent_of(const Value& obj, const std::string& field, std::size_t model_count,
                       std::optional<std::size_t>& model, std::string& bone, bool bone_optional) {
  const auto m = obj.FindMember("model");
  const auto b = obj.FindMember("bone");
  if (m != obj.MemberEnd()) {
    if (!m->value.IsUint())
      return schema(join(field, "model"), std::string("must be a model index (a whole number >= 0), not ") +
                                              (m->value.IsNumber() ? "that number" : type_name(m->value)));
    const unsigned i = m->value.GetUint();
    if (i >= model_count)
      return schema(join(field, "model"), "model " + std::to_string(i) + " does not exist (the scene has " +
                                              std::to_string(model_count) + " model" + (model_count == 1 ? "" : "s") + ")");
    model = i;
    if (b == obj.MemberEnd() && !bone_optional) return schema(join(field, "bone"), "required with 'model'");
  }
  if (b != obj.MemberEnd()) {
    if (m == obj.MemberEnd() && !bone_optional) return schema(join(field, "model"), "required with 'bone'");
    if (!b->value.IsString() || b->value.GetStringLength() == 0)
      return schema(join(field, "bone"), "must be a bone name (a non-empty string)");
    bone.assign(b->value.GetString(), b->value.GetStringLength());
  }
  return {};
}

// A key's `frame`: required, a whole number, after the previous key's (when there is one).
Result<std::uint32_t> key_frame(const Value& obj, const std::string& field, std::optional<std::uint32_t> previous) {
  auto f = obj.FindMember("frame");
  if (f == obj.MemberEnd()) return schema(join(field, "frame"), "required");
  if (!f->value.IsUint()) return schema(join(field, "frame"), "must be a frame number (a whole number >= 0)");
  const std::uint32_t frame = f->value.GetUint();
  if (previous && frame <= *previous)
    return schema(join(field, "frame"), "must be after the previous key's frame " + std::to_string(*previous));
  return frame;
}

Result<AccessoryKey> accessory_key(const Value& v, const std::string& field, std::size_t model_count,
                                   std::optional<std::uint32_t> previous) {
  SCENE_TRY(obj, object_at(v, field));
  if (auto r = known_members(*obj, field, {"frame", "position", "rotation", "scale", "opacity", "visible", "shadow", "model", "bone"}); !r)
    return std::unexpected(r.error());
  AccessoryKey k;
  SCENE_TRY(frame, key_frame(*obj, field, previous));
  k.frame = frame;
  // Scale 0 is allowed in a key (MMD's projects hold it; nanoem clamps the scale to >= 0).
  Placement p;
  if (auto s = obj->FindMember("scale"); s != obj->MemberEnd()) {
    SCENE_TRY(n, number(s->value, join(field, "scale")));
    if (!(n >= 0.0f)) return schema(join(field, "scale"), "must be >= 0");
    p.scale = n;
  }
  for (const char* m : {"position", "rotation"})
    if (auto it = obj->FindMember(m); it != obj->MemberEnd()) {
      SCENE_TRY(vv, vec3(it->value, join(field, m)));
      (std::string_view(m) == "position" ? p.position : p.rotation) = vv;
    }
  k.placement = p;
  if (auto it = obj->FindMember("opacity"); it != obj->MemberEnd()) {
    SCENE_TRY(o, opacity_value(it->value, join(field, "opacity")));
    k.opacity = o;
  }
  if (auto r = bool_member(*obj, field, "visible", k.visible); !r) return std::unexpected(r.error());
  if (auto r = bool_member(*obj, field, "shadow", k.shadow); !r) return std::unexpected(r.error());
  if (auto r = parent_of(*obj, field, model_count, k.model, k.bone, false); !r) return std::unexpected(r.error());
  return k;
}

Result<AccessoryEntry> accessory_entry(const Value& v, const std::string& field, const fs::path& folder,
                                       std::size_t model_count) {
  SCENE_TRY(obj, object_at(v, field));
  if (auto r = known_members(*obj, field,
                             {"file", "model", "bone", "position", "rotation", "scale", "visible", "opacity", "add_blend", "shadow", "keys"});
      !r)
    return std::unexpected(r.error());
  AccessoryEntry a;
  SCENE_TRY(file, required_file(*obj, field, folder));
  a.file = file;
  // A .vac gives the placement and (line 6) the bone: no placement here; `model` and `bone` are
  // each optional (resolve_accessory_files: model 0 by default, the .vac's bone unless `bone`).
  const bool vac = is_vac_path(a.file);
  if (vac)
    for (const char* m : {"position", "rotation", "scale"})
      if (obj->HasMember(m))
        return schema(join(field, m), "a .vac gives the placement (give its .x file to place the accessory yourself)");
  if (auto r = parent_of(*obj, field, model_count, a.model, a.bone, vac); !r) return std::unexpected(r.error());
  if (auto r = bool_member(*obj, field, "visible", a.visible); !r) return std::unexpected(r.error());
  if (auto r = bool_member(*obj, field, "shadow", a.shadow); !r) return std::unexpected(r.error());
  if (auto r = placement(*obj, field, a.placement); !r) return std::unexpected(r.error());
  if (auto it = obj->FindMember("opacity"); it != obj->MemberEnd()) {
    SCENE_TRY(o, opacity_value(it->value, join(field, "opacity")));
    a.opacity = o;
  }
  if (auto r = bool_member(*obj, field, "add_blend", a.add_blend); !r) return std::unexpected(r.error());
  SCENE_TRY(keys, array_member(*obj, "keys", join(field, "keys")));
  if (keys) {
    if (vac) return schema(join(field, "keys"), "a .vac gives the placement (give its .x file to move the accessory)");
    // The keys give the placement, parent, visibility and opacity.
    for (const char* m : {"model", "bone", "position", "rotation", "scale", "visible", "opacity", "shadow"})
      if (obj->HasMember(m)) return schema(join(field, m), "the keys give it (no field beside 'keys' but file and add_blend)");
    if (keys->Empty()) return schema(join(field, "keys"), "must hold at least one key");
    for (rapidjson::SizeType k = 0; k < keys->Size(); ++k) {
      SCENE_TRY(key, accessory_key((*keys)[k], join(field, "keys") + "[" + std::to_string(k) + "]", model_count,
                                   a.keys.empty() ? std::nullopt : std::optional<std::uint32_t>(a.keys.back().frame)));
      a.keys.push_back(std::move(key));
    }
  }
  return a;
}

// `gravity` (a vector, or keys {"frame", "gravity"}), `physics_mode`, `physics_ground`.
Result<void> physics_fields(const Value& doc, SceneDescription& s) {
  if (auto it = doc.FindMember("gravity"); it != doc.MemberEnd()) {
    const Value& g = it->value;
    if (g.IsArray() && (g.Empty() || g[0].IsNumber())) {
      SCENE_TRY(v, vec3(g, "gravity"));
      s.gravity.push_back({0, v});
    } else {
      SCENE_TRY(keys, array_member(doc, "gravity", "gravity"));
      if (keys->Empty()) return schema("gravity", "must be a vector [x, y, z] or at least one key");
      if (keys->Size() > kMaxSceneItems) return schema("gravity", "at most " + std::to_string(kMaxSceneItems) + " keys");
      for (rapidjson::SizeType k = 0; k < keys->Size(); ++k) {
        const std::string at = "gravity[" + std::to_string(k) + "]";
        SCENE_TRY(o, object_at((*keys)[k], at));
        if (auto r = known_members(*o, at, {"frame", "gravity"}); !r) return std::unexpected(r.error());
        SCENE_TRY(frame, key_frame(*o, at, s.gravity.empty() ? std::nullopt : std::optional(s.gravity.back().frame)));
        const auto v = o->FindMember("gravity");
        if (v == o->MemberEnd()) return schema(join(at, "gravity"), "required");
        SCENE_TRY(vec, vec3(v->value, join(at, "gravity")));
        s.gravity.push_back({frame, vec});
      }
    }
  }
  if (auto it = doc.FindMember("physics_mode"); it != doc.MemberEnd()) {
    const std::string_view m = it->value.IsString() ? std::string_view(it->value.GetString(), it->value.GetStringLength())
                                                    : std::string_view();
    if (m == "off") s.physics_mode = PhysicsMode::off;
    else if (m == "always") s.physics_mode = PhysicsMode::always;
    else if (m == "playing") s.physics_mode = PhysicsMode::playing;
    else if (m == "trace") s.physics_mode = PhysicsMode::trace;
    else return schema("physics_mode", "must be one of \"off\", \"always\", \"playing\", \"trace\"");
  }
  if (auto it = doc.FindMember("physics_ground"); it != doc.MemberEnd()) {
    if (!it->value.IsBool()) return schema("physics_ground", std::string("must be true or false, not ") + type_name(it->value));
    s.physics_ground = it->value.GetBool();
  }
  return {};
}

}  // namespace

namespace {

// An RGB colour, each channel 0..1.
Result<std::array<float, 3>> color01(const Value& v, const std::string& field) {
  SCENE_TRY(c, vec3(v, field));
  for (std::size_t k = 0; k < 3; ++k)
    if (c[k] < 0.0f || c[k] > 1.0f) return schema(field + "[" + std::to_string(k) + "]", "must be 0..1");
  return std::array<float, 3>{c[0], c[1], c[2]};
}

// A background picture {"file", "offset": [x, y], "scale"} (BackgroundPicture, docs/SCENE.md).
Result<BackgroundPicture> background_picture(const Value& v, const std::string& field, const fs::path& folder) {
  SCENE_TRY(obj, object_at(v, field));
  if (auto r = known_members(*obj, field, {"file", "offset", "scale"}); !r) return std::unexpected(r.error());
  BackgroundPicture b;
  SCENE_TRY(p, required_file(*obj, field, folder));
  b.file = p;
  if (auto it = obj->FindMember("offset"); it != obj->MemberEnd()) {
    const Value& a = it->value;
    if (!a.IsArray() || a.Size() != 2 || !a[0].IsInt() || !a[1].IsInt() || std::abs(a[0].GetInt()) > 1000000 ||
        std::abs(a[1].GetInt()) > 1000000)
      return schema(field + ".offset", "must be [x, y], two whole numbers of pixels (|n| <= 1000000)");
    b.offset = {a[0].GetInt(), a[1].GetInt()};
  }
  if (auto it = obj->FindMember("scale"); it != obj->MemberEnd()) {
    SCENE_TRY(x, number(it->value, field + ".scale"));
    if (!(x > 0.0f) || !(x <= 1000.0f)) return schema(field + ".scale", "must be > 0 and <= 1000");
    b.scale = x;
  }
  return b;
}

// The "view" object (ViewSettings, docs/SCENE.md "View").
Result<void> view_settings(const Value& v, const fs::path& folder, ViewSettings& out) {
  SCENE_TRY(obj, object_at(v, "view"));
  if (auto r = known_members(*obj, "view",
                             {"background", "ground_shadow", "ground_shadow_translucent", "size", "fps", "edge_color",
                              "background_image", "background_video"});
      !r)
    return r;
  if (auto it = obj->FindMember("background"); it != obj->MemberEnd()) {
    SCENE_TRY(c, color01(it->value, "view.background"));
    out.background = c;
  }
  if (auto it = obj->FindMember("edge_color"); it != obj->MemberEnd()) {
    SCENE_TRY(c, color01(it->value, "view.edge_color"));
    out.edge_color = c;
  }
  if (auto it = obj->FindMember("background_image"); it != obj->MemberEnd()) {
    SCENE_TRY(b, background_picture(it->value, "view.background_image", folder));
    out.background_image = b;
  }
  if (auto it = obj->FindMember("background_video"); it != obj->MemberEnd()) {
    SCENE_TRY(b, background_picture(it->value, "view.background_video", folder));
    out.background_video = b;
  }
  if (auto it = obj->FindMember("ground_shadow"); it != obj->MemberEnd()) {
    SCENE_TRY(b, bool_value(it->value, "view.ground_shadow"));
    out.ground_shadow = b;
  }
  if (auto it = obj->FindMember("ground_shadow_translucent"); it != obj->MemberEnd()) {
    SCENE_TRY(b, bool_value(it->value, "view.ground_shadow_translucent"));
    out.ground_shadow_translucent = b;
  }
  if (auto it = obj->FindMember("size"); it != obj->MemberEnd()) {
    const Value& a = it->value;
    if (!a.IsArray() || a.Size() != 2 || !a[0].IsInt() || !a[1].IsInt())
      return schema("view.size", "must be [width, height], two whole numbers");
    for (rapidjson::SizeType k = 0; k < 2; ++k)
      if (a[k].GetInt() < 1 || a[k].GetInt() > 16384)
        return schema("view.size[" + std::to_string(k) + "]", "must be 1..16384 pixels");
    out.size = std::array<std::int32_t, 2>{a[0].GetInt(), a[1].GetInt()};
  }
  if (auto it = obj->FindMember("fps"); it != obj->MemberEnd()) {
    if (!it->value.IsInt() || (it->value.GetInt() != 30 && it->value.GetInt() != 60))
      return schema("view.fps", "must be 30 or 60");
    out.fps = it->value.GetInt();
  }
  return {};
}

}  // namespace

Result<SceneDescription> parse_scene(std::string_view text, const fs::path& folder) {
  rapidjson::Document doc;
  doc.Parse<rapidjson::kParseValidateEncodingFlag | rapidjson::kParseIterativeFlag>(text.data(), text.size());
  if (doc.HasParseError())
    return json::syntax_error(text, doc.GetErrorOffset(), rapidjson::GetParseError_En(doc.GetParseError()), "scene");
  if (!doc.IsObject()) return schema("(top level)", std::string("must be an object, not ") + type_name(doc));
  if (auto r = known_members(doc, "", {"format", "version", "models", "stage", "accessories", "camera", "camera_parents",
                                      "light", "audio", "gravity", "physics_mode", "physics_ground", "view",
                                      "accessories_after_models"});
      !r)
    return std::unexpected(r.error());
  if (auto it = doc.FindMember("format"); it != doc.MemberEnd())
    if (!it->value.IsString() || std::string_view(it->value.GetString(), it->value.GetStringLength()) != "mmdkit-scene")
      return schema("format", "must be \"mmdkit-scene\"");
  if (auto it = doc.FindMember("version"); it != doc.MemberEnd())
    if (!it->value.IsUint() || it->value.GetUint() != 1) return schema("version", "must be 1 (the only version)");
  SceneDescription s;
  s.folder = folder;
  SCENE_TRY(models, array_member(doc, "models", "models"));
  if (!models || models->Empty()) return schema("models", "required: at least one model");
  for (rapidjson::SizeType i = 0; i < models->Size(); ++i) {
    SCENE_TRY(m, model_entry((*models)[i], "models[" + std::to_string(i) + "]", folder, i, models->Size()));
    s.models.push_back(std::move(m));
  }
  if (auto it = doc.FindMember("stage"); it != doc.MemberEnd()) {
    StageEntry st;
    if (it->value.IsString()) {
      SCENE_TRY(p, path_value(it->value, "stage", folder));
      st.file = p;
    } else {
      SCENE_TRY(obj, object_at(it->value, "stage"));
      if (auto r = known_members(*obj, "stage", {"file", "position", "rotation", "scale"}); !r) return std::unexpected(r.error());
      SCENE_TRY(p, required_file(*obj, "stage", folder));
      st.file = p;
      if (auto r = placement(*obj, "stage", st.placement); !r) return std::unexpected(r.error());
    }
    if (is_vac_path(st.file))
      return schema("stage", "a .vac is an accessory: give it in 'accessories' (a stage is a PMX / PMD model or a .x file)");
    s.stage = std::move(st);
  }
  SCENE_TRY(accs, array_member(doc, "accessories", "accessories"));
  if (accs)
    for (rapidjson::SizeType i = 0; i < accs->Size(); ++i) {
      SCENE_TRY(a, accessory_entry((*accs)[i], "accessories[" + std::to_string(i) + "]", folder, s.models.size()));
      s.accessories.push_back(std::move(a));
    }
  if (auto it = doc.FindMember("accessories_after_models"); it != doc.MemberEnd()) {
    if (!it->value.IsUint() || it->value.GetUint() > s.accessories.size())
      return schema("accessories_after_models", "must be an accessory index 0.." + std::to_string(s.accessories.size()) +
                                                    " (the accessories from it on are drawn after the models)");
    s.accessories_after_models = it->value.GetUint();
  }
  if (auto it = doc.FindMember("camera"); it != doc.MemberEnd()) {
    SCENE_TRY(p, path_value(it->value, "camera", folder));
    s.camera = p;
  }
  SCENE_TRY(parents, array_member(doc, "camera_parents", "camera_parents"));
  if (parents)
    for (rapidjson::SizeType k = 0; k < parents->Size(); ++k) {
      const std::string field = "camera_parents[" + std::to_string(k) + "]";
      SCENE_TRY(obj, object_at((*parents)[k], field));
      if (auto r = known_members(*obj, field, {"frame", "model", "bone"}); !r) return std::unexpected(r.error());
      CameraParentKey key;
      SCENE_TRY(frame, key_frame(*obj, field,
                                 s.camera_parents.empty() ? std::nullopt
                                                          : std::optional<std::uint32_t>(s.camera_parents.back().frame)));
      key.frame = frame;
      if (auto r = parent_of(*obj, field, s.models.size(), key.model, key.bone, false); !r) return std::unexpected(r.error());
      s.camera_parents.push_back(std::move(key));
    }
  if (auto it = doc.FindMember("light"); it != doc.MemberEnd()) {
    if (it->value.IsObject()) {
      const Value& l = it->value;
      if (auto r = known_members(l, "light", {"color", "direction"}); !r) return std::unexpected(r.error());
      anim::LightState ls;
      if (auto c = l.FindMember("color"); c != l.MemberEnd()) {
        SCENE_TRY(v, color01(c->value, "light.color"));
        ls.color = {v[0], v[1], v[2]};
      }
      if (auto d = l.FindMember("direction"); d != l.MemberEnd()) {
        SCENE_TRY(v, vec3(d->value, "light.direction"));
        if (v == Vec3{}) return schema("light.direction", "must not be (0, 0, 0)");
        ls.direction = v;
      }
      s.fixed_light = ls;
    } else {
      SCENE_TRY(p, path_value(it->value, "light", folder));
      s.light_motion = p;
    }
  }
  if (auto it = doc.FindMember("audio"); it != doc.MemberEnd()) {
    SCENE_TRY(p, path_value(it->value, "audio", folder));
    s.audio = p;
  }
  if (auto r = physics_fields(doc, s); !r) return std::unexpected(r.error());
  if (auto it = doc.FindMember("view"); it != doc.MemberEnd())
    if (auto r = view_settings(it->value, folder, s.view); !r) return std::unexpected(r.error());
  return s;
}

std::vector<SceneFile> scene_files(const SceneDescription& s) {
  std::vector<SceneFile> out;
  for (std::size_t i = 0; i < s.models.size(); ++i) {
    const std::string f = "models[" + std::to_string(i) + "]";
    out.push_back({f + ".file", s.models[i].file});
    for (std::size_t j = 0; j < s.models[i].motions.size(); ++j)
      out.push_back({f + ".motions[" + std::to_string(j) + "]", s.models[i].motions[j]});
  }
  if (s.stage) out.push_back({"stage.file", s.stage->file});
  for (std::size_t i = 0; i < s.accessories.size(); ++i) {
    const AccessoryEntry& a = s.accessories[i];
    const std::string f = a.stage ? std::string("stage.file") : "accessories[" + std::to_string(i) + "].file";
    if (!a.vac.empty()) out.push_back({f, a.vac});
    out.push_back({f, a.file});
  }
  if (!s.camera.empty()) out.push_back({"camera", s.camera});
  if (!s.light_motion.empty()) out.push_back({"light", s.light_motion});
  if (!s.audio.empty()) out.push_back({"audio", s.audio});
  if (s.view.background_image) out.push_back({"view.background_image.file", s.view.background_image->file});
  if (s.view.background_video) out.push_back({"view.background_video.file", s.view.background_video->file});
  return out;
}

namespace {
bool is_under(const fs::path& p, const fs::path& dir) {
  auto pi = p.begin();
  for (auto di = dir.begin(); di != dir.end(); ++di, ++pi) {
    if (di->empty()) continue;  // a trailing separator
    if (pi == p.end() || *pi != *di) return false;
  }
  return true;
}
}  // namespace

Result<void> check_scene_files(const SceneDescription& s) {
  std::error_code ec;
  const fs::path folder = s.folder.empty() ? fs::path() : fs::weakly_canonical(fs::absolute(s.folder, ec), ec);
  for (const SceneFile& f : scene_files(s)) {
    auto fail = [&](ErrorCode code, const std::string& why) {
      Error e = make_error(code, f.field + ": " + why + " ('" + f.path.string() + "')", "scene").error();
      e.file = f.path.string();
      return std::unexpected(e);
    };
    const fs::file_status st = fs::status(f.path, ec);
    if (!fs::exists(st)) return fail(ErrorCode::io_error, "file not found");
    if (fs::is_directory(st)) return fail(ErrorCode::io_error, "is a directory, not a file");  // as core/mapped_file.cpp
    if (!fs::is_regular_file(st)) return fail(ErrorCode::io_error, "is not a regular file");
    if (!folder.empty() &&
        is_under(fs::absolute(f.path, ec).lexically_normal(), fs::absolute(s.folder, ec).lexically_normal())) {
      const fs::path real = fs::weakly_canonical(fs::absolute(f.path, ec), ec);
      if (!is_under(real, folder)) return fail(ErrorCode::invalid_value, "leaves the scene's folder through a link");
    }
  }
  return {};
}

Result<SceneDescription> read_scene_file(const fs::path& path) {
  auto bytes = read_file(path, std::uint64_t{16} << 20);
  if (!bytes) {
    Error e = bytes.error();
    e.file = path.string();
    return std::unexpected(e);
  }
  const std::string_view text(reinterpret_cast<const char*>(bytes->data()), bytes->size());
  const fs::path folder = path.has_parent_path() ? path.parent_path() : fs::path(".");
  auto s = parse_scene(text, folder);
  if (!s) {
    Error e = s.error();
    e.file = path.string();
    return std::unexpected(e);
  }
  if (auto r = check_scene_files(*s); !r) return std::unexpected(r.error());
  return s;
}

}  // namespace mmdkit::scene
