// PMM structural checks (pmm::check) and the resolution of stored Windows paths (resolve_path).
#include <algorithm>
#include <cctype>
#include <string>
#include <system_error>
#include <unordered_map>
#include <vector>

#include "mmdkit/formats/pmm.hpp"

namespace mmdkit::pmm {
namespace {

void add(std::vector<CheckFinding>& out, bool error, ErrorCode code, std::string section, std::int64_t record,
         std::string message) {
  out.push_back(CheckFinding{error, Error{code, std::move(message), std::move(section), record, -1, {}}});
}

/// Checks one set of tracks: `initials` (ids 0..n-1), `keys` (regular keys with their own ids).
/// Every chain runs from an initial key through `next` (0 = end).
template <class Key>
void check_links(const std::vector<const KeyLink*>& initials, const std::vector<Key>& keys, const std::string& section,
                 std::vector<CheckFinding>& out) {
  std::unordered_map<std::int32_t, std::size_t> by_id;
  for (std::size_t i = 0; i < keys.size(); ++i) {
    const std::int32_t id = keys[i].index;
    if (id >= 0 && static_cast<std::size_t>(id) < initials.size()) {
      add(out, true, ErrorCode::invalid_value, section, static_cast<std::int64_t>(i),
          "key id " + std::to_string(id) + " is the id of an initial key (ids below " + std::to_string(initials.size()) +
              " are the tracks' initial keys)");
      continue;
    }
    auto [it, fresh] = by_id.emplace(id, i);
    if (!fresh)
      add(out, true, ErrorCode::invalid_value, section, static_cast<std::int64_t>(i),
          "key id " + std::to_string(id) + " is also the id of key " + std::to_string(it->second));
  }
  std::vector<std::uint8_t> reached(keys.size(), 0);
  for (std::size_t t = 0; t < initials.size(); ++t) {
    const KeyLink* cur = initials[t];
    std::int32_t cur_id = static_cast<std::int32_t>(t);
    while (cur->next != 0) {
      auto it = by_id.find(cur->next);
      if (it == by_id.end()) {
        add(out, true, ErrorCode::invalid_value, section, -1,
            "track " + std::to_string(t) + ": key id " + std::to_string(cur_id) + " links to next key " +
                std::to_string(cur->next) + ", which no key has");
        break;
      }
      const std::size_t i = it->second;
      const Key& k = keys[i];
      if (reached[i]) {
        add(out, true, ErrorCode::invalid_value, section, static_cast<std::int64_t>(i),
            "track " + std::to_string(t) + ": key id " + std::to_string(k.index) +
                " is reached twice (the next links make a loop or join another track)");
        break;
      }
      reached[i] = 1;
      if (k.previous != cur_id)
        add(out, false, ErrorCode::invalid_value, section, static_cast<std::int64_t>(i),
            "track " + std::to_string(t) + ": key id " + std::to_string(k.index) + " follows key " +
                std::to_string(cur_id) + " but its previous link is " + std::to_string(k.previous));
      if (k.frame <= cur->frame)
        add(out, false, ErrorCode::invalid_value, section, static_cast<std::int64_t>(i),
            "track " + std::to_string(t) + ": key id " + std::to_string(k.index) + " at frame " +
                std::to_string(k.frame) + " follows a key at frame " + std::to_string(cur->frame) +
                " (frames must increase along a track)");
      cur = &k;
      cur_id = k.index;
    }
  }
  for (std::size_t i = 0; i < keys.size(); ++i)
    if (!reached[i])
      add(out, false, ErrorCode::invalid_value, section, static_cast<std::int64_t>(i),
          "key id " + std::to_string(keys[i].index) + " at frame " + std::to_string(keys[i].frame) +
              " is reached from no track's initial key (MMD does not play it)");
}

template <class Key>
std::vector<const KeyLink*> pointers(const std::vector<Key>& v) {
  std::vector<const KeyLink*> out;
  out.reserve(v.size());
  for (const auto& k : v) out.push_back(&k);
  return out;
}

std::string name_of(const Model& m, std::size_t i) { return "model " + std::to_string(i) + " '" + m.name.text + "'"; }

}  // namespace

std::vector<CheckFinding> check(const Document& d) {
  std::vector<CheckFinding> out;
  const bool v2 = d.version == Version::v2;
  const auto models = static_cast<std::int64_t>(d.models.size());
  // An (model, bone) pair: -1 is "none"; a bone is checked when the model's bones are known (v2).
  auto check_parent = [&](const OutsideParent& p, const std::string& section, std::int64_t record, const std::string& what) {
    if (p.model < -1 || p.model >= models) {
      add(out, true, ErrorCode::invalid_value, section, record,
          what + ": model index " + std::to_string(p.model) + " is out of range (" + std::to_string(models) + " models)");
      return;
    }
    if (p.model >= 0 && v2) {
      const auto bones = static_cast<std::int64_t>(d.models[static_cast<std::size_t>(p.model)].bone_names.size());
      if (p.bone < -1 || p.bone >= bones)
        add(out, true, ErrorCode::invalid_value, section, record,
            what + ": bone index " + std::to_string(p.bone) + " is out of range (model " + std::to_string(p.model) +
                " has " + std::to_string(bones) + " bones)");
    }
  };
  for (std::size_t mi = 0; mi < d.models.size(); ++mi) {
    const Model& m = d.models[mi];
    const std::string prefix = "model " + std::to_string(mi) + " ";
    if (m.index != mi)
      add(out, false, ErrorCode::invalid_value, "models", static_cast<std::int64_t>(mi),
          name_of(m, mi) + " stores index " + std::to_string(m.index) + " (MMD stores its position)");
    if (v2) {
      const auto bones = static_cast<std::int64_t>(m.bone_names.size());
      for (std::size_t i = 0; i < m.ik_bones.size(); ++i)
        if (m.ik_bones[i] < 0 || m.ik_bones[i] >= bones)
          add(out, true, ErrorCode::invalid_value, prefix + "IK bones", static_cast<std::int64_t>(i),
              name_of(m, mi) + ": IK bone index " + std::to_string(m.ik_bones[i]) + " is out of range (" +
                  std::to_string(bones) + " bones)");
      for (std::size_t i = 0; i < m.outside_parent_bones.size(); ++i)
        if (m.outside_parent_bones[i] < -1 || m.outside_parent_bones[i] >= bones)  // -1: the whole model
          add(out, true, ErrorCode::invalid_value, prefix + "outside parent bones", static_cast<std::int64_t>(i),
              name_of(m, mi) + ": outside-parent bone index " + std::to_string(m.outside_parent_bones[i]) +
                  " is out of range (" + std::to_string(bones) + " bones)");
      for (std::size_t i = 0; i < m.model_keys.size(); ++i)
        for (const auto& p : m.model_keys[i].outside_parents)
          check_parent(p, prefix + "model keyframes", static_cast<std::int64_t>(i), name_of(m, mi) + " outside parent");
      for (std::size_t i = 0; i < m.outside_parent_states.size(); ++i)
        check_parent(m.outside_parent_states[i].parent, prefix + "model state", static_cast<std::int64_t>(i),
                     name_of(m, mi) + " outside parent");
    }
    check_links(pointers(m.initial_bone_keys), m.bone_keys, prefix + "bone keyframes", out);
    check_links(pointers(m.initial_morph_keys), m.morph_keys, prefix + "morph keyframes", out);
    check_links({&m.initial_model_key}, m.model_keys, prefix + "model keyframes", out);
  }
  check_links({&d.camera.initial_key}, d.camera.keys, "camera keyframes", out);
  if (v2)
    for (std::size_t i = 0; i < d.camera.keys.size(); ++i)
      check_parent(d.camera.keys[i].follow, "camera keyframes", static_cast<std::int64_t>(i), "camera follow");
  check_links({&d.light.initial_key}, d.light.keys, "light keyframes", out);
  for (std::size_t ai = 0; ai < d.accessories.size(); ++ai) {
    const Accessory& a = d.accessories[ai];
    if (a.index != ai)
      add(out, false, ErrorCode::invalid_value, "accessories", static_cast<std::int64_t>(ai),
          "accessory '" + a.name.text + "' stores index " + std::to_string(a.index) + " (MMD stores its position)");
    const std::string section = "accessory " + std::to_string(ai) + " keyframes";
    check_links({&a.initial_key}, a.keys, section, out);
    check_parent(a.parent, "accessories", static_cast<std::int64_t>(ai), "accessory '" + a.name.text + "' parent");
    for (std::size_t i = 0; i < a.keys.size(); ++i)
      check_parent(a.keys[i].parent, section, static_cast<std::int64_t>(i), "accessory '" + a.name.text + "' parent");
  }
  if (v2) {
    check_links({&d.gravity.initial_key}, d.gravity.keys, "gravity keyframes", out);
    check_links({&d.self_shadow.initial_key}, d.self_shadow.keys, "self-shadow keyframes", out);
    check_parent(d.camera_look_at, "settings", -1, "camera look-at");
  }
  if (!d.models.empty() && d.selected_model >= d.models.size())
    add(out, false, ErrorCode::invalid_value, "header", -1,
        "selected model " + std::to_string(d.selected_model) + " is out of range (" + std::to_string(models) + " models)");
  return out;
}

namespace {

std::string lower_ascii(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

/// `dir / name`, or the one entry of `dir` whose name equals `name` ignoring ASCII case.
std::optional<std::filesystem::path> child_ci(const std::filesystem::path& dir, const std::string& name) {
  std::error_code ec;
  if (name == "." || name == "..") return std::nullopt;
  std::filesystem::path exact = dir / name;
  if (std::filesystem::exists(exact, ec)) return exact;
  const std::string want = lower_ascii(name);
  for (std::filesystem::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec))
    if (lower_ascii(it->path().filename().string()) == want) return it->path();
  return std::nullopt;
}

}  // namespace

std::vector<std::string> split_stored_path(const std::string& stored, bool& drive) {
  std::string s = stored;
  std::replace(s.begin(), s.end(), '\\', '/');
  drive = s.size() >= 2 && s[1] == ':';
  std::vector<std::string> parts;
  for (std::size_t at = 0; at <= s.size();) {
    std::size_t end = s.find('/', at);
    if (end == std::string::npos) end = s.size();
    if (end > at) parts.push_back(s.substr(at, end - at));
    at = end + 1;
  }
  return parts;
}

std::optional<std::filesystem::path> resolve_path(const std::string& stored, const std::filesystem::path& project_folder) {
  if (stored.empty()) return std::nullopt;
  bool drive = false;
  const std::vector<std::string> parts = split_stored_path(stored, drive);
  if (parts.empty()) return std::nullopt;
  std::string s = stored;
  std::replace(s.begin(), s.end(), '\\', '/');
  std::error_code ec;
  if (!drive) {
    const std::filesystem::path as_is = s.front() == '/' ? std::filesystem::path(s) : project_folder / s;
    if (std::filesystem::is_regular_file(as_is, ec)) return as_is;
  }
  const std::size_t first = drive ? 1 : 0;  // a drive letter is never a folder below the project
  for (std::size_t from = first; from < parts.size(); ++from) {
    std::optional<std::filesystem::path> at = project_folder;
    for (std::size_t i = from; i < parts.size() && at; ++i) at = child_ci(*at, parts[i]);
    if (at && std::filesystem::is_regular_file(*at, ec)) return at;
  }
  return std::nullopt;
}

}  // namespace mmdkit::pmm
