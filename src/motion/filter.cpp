// mmdkit — `filter` (motion/filter.hpp).
#include "mmdkit/motion/filter.hpp"

#include <algorithm>
#include <set>
#include <string>

namespace mmdkit::motion {

namespace {

bool keep(const std::string& name, const std::optional<std::vector<std::string>>& only, const std::vector<std::string>& drop) {
  if (only && std::find(only->begin(), only->end(), name) == only->end()) return false;
  return std::find(drop.begin(), drop.end(), name) == drop.end();
}

template <class Key>
Result<void> filter_named(std::vector<vmd::TrackName>& names, std::vector<Key>& keys,
                          const std::optional<std::vector<std::string>>& only, const std::vector<std::string>& drop,
                          vmd::Section section, std::size_t& tracks, std::size_t& dropped,
                          std::vector<std::string>& unmatched) {
  std::vector<std::int64_t> map(names.size(), -1);
  std::vector<vmd::TrackName> kept;
  std::vector<Key> out;
  for (std::size_t i = 0; i < keys.size(); ++i) {
    const Key& k = keys[i];
    if (k.name >= names.size())
      return make_error(ErrorCode::invalid_argument, "name index " + std::to_string(k.name) + " out of range",
                        std::string(vmd::section_name(section)), static_cast<std::int64_t>(i));
    if (!keep(names[k.name].text, only, drop)) {
      ++dropped;
      continue;
    }
    if (map[k.name] < 0) {
      map[k.name] = static_cast<std::int64_t>(kept.size());
      kept.push_back(names[k.name]);
    }
    Key c = k;
    c.name = static_cast<std::uint32_t>(map[k.name]);
    out.push_back(c);
  }
  if (only) {
    std::set<std::string> have;
    for (const auto& n : names) have.insert(n.text);
    for (const auto& n : *only)
      if (!have.count(n)) unmatched.push_back(n);
  }
  tracks += kept.size();
  names = std::move(kept);
  keys = std::move(out);
  return {};
}

template <class Key>
void drop_section(std::vector<Key>& keys, bool keep_it, std::size_t& dropped) {
  if (keep_it) return;
  dropped += keys.size();
  keys.clear();
}

}  // namespace

Result<vmd::Motion> filter(const vmd::Motion& motion, const FilterOptions& o, FilterReport* report) {
  FilterReport r;
  vmd::Motion out = motion;
  if (auto x = filter_named(out.bone_names, out.bone_keys, o.bones, o.drop_bones, vmd::Section::bone, r.bone_tracks,
                            r.keys_dropped, r.unmatched);
      !x)
    return std::unexpected(x.error());
  if (auto x = filter_named(out.morph_names, out.morph_keys, o.morphs, o.drop_morphs, vmd::Section::morph,
                            r.morph_tracks, r.keys_dropped, r.unmatched);
      !x)
    return std::unexpected(x.error());
  drop_section(out.camera_keys, o.camera, r.keys_dropped);
  drop_section(out.light_keys, o.light, r.keys_dropped);
  drop_section(out.self_shadow_keys, o.self_shadow, r.keys_dropped);
  drop_section(out.property_keys, o.property, r.keys_dropped);
  if (report) *report = std::move(r);
  return out;
}

}  // namespace mmdkit::motion
