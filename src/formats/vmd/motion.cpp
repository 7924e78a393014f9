// VMD motion helpers: names of versions and sections, frame range, semantic checks.
#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <string>
#include <vector>

#include "mmdkit/formats/vmd.hpp"

namespace mmdkit::vmd {

std::string_view signature_text(Version v) noexcept {
  return v == Version::v2 ? "Vocaloid Motion Data 0002" : "Vocaloid Motion Data file";
}

std::string_view section_name(Section s) noexcept {
  switch (s) {
    case Section::bone: return "bone keyframes";
    case Section::morph: return "morph keyframes";
    case Section::camera: return "camera keyframes";
    case Section::light: return "light keyframes";
    case Section::self_shadow: return "self-shadow keyframes";
    case Section::property: return "property keyframes";
  }
  return "unknown";
}

std::size_t header_size(Version v) noexcept {
  return kSignatureSize + (v == Version::v2 ? kModelNameSizeV2 : kModelNameSizeV1);
}

std::optional<std::array<std::uint32_t, 2>> frame_range(const Motion& m) noexcept {
  std::uint32_t lo = std::numeric_limits<std::uint32_t>::max(), hi = 0;
  bool any = false;
  auto add = [&](const auto& keys) {
    for (const auto& k : keys) {
      lo = std::min(lo, k.frame);
      hi = std::max(hi, k.frame);
      any = true;
    }
  };
  add(m.bone_keys);
  add(m.morph_keys);
  add(m.camera_keys);
  add(m.light_keys);
  add(m.self_shadow_keys);
  add(m.property_keys);
  if (!any) return std::nullopt;
  return std::array<std::uint32_t, 2>{lo, hi};
}

namespace {

// Collects findings of one kind, keeping at most `max` and counting the rest.
struct Kind {
  bool error;
  std::string label;  // e.g. "duplicate keys"
  std::size_t max;
  std::vector<CheckFinding> kept;
  std::size_t dropped = 0;
  Section section;

  // False when the finding is only counted (more than `max` of the kind).
  bool add(std::int64_t record, std::int64_t offset, std::string message) {
    if (kept.size() >= max) {
      ++dropped;
      return false;
    }
    kept.push_back({error, Error{ErrorCode::invalid_value, std::move(message), std::string(section_name(section)),
                                 record, offset, {}}});
    return true;
  }
};

bool finite_all(const float* v, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i)
    if (!std::isfinite(v[i])) return false;
  return true;
}

// For each entry of a name table: the first entry with its binding key (core/text.hpp
// binding_key: the bytes up to the NUL, what evaluation binds a track by; a name built in code by
// its text encoded in `enc`). Entries that differ only after the NUL map to one track.
std::vector<std::uint32_t> tracks_as_bound(const std::vector<TrackName>& names, Encoding enc) {
  std::map<std::vector<std::uint8_t>, std::uint32_t> first;
  std::vector<std::uint32_t> out(names.size());
  for (std::size_t i = 0; i < names.size(); ++i) {
    std::vector<std::uint8_t> key;
    if (!names[i].raw.empty()) key = binding_key(names[i].raw);
    else if (auto k = binding_key_of_text(names[i].text, enc)) key = std::move(*k);
    else key.assign(names[i].text.begin(), names[i].text.end());
    out[i] = first.emplace(std::move(key), static_cast<std::uint32_t>(i)).first->second;
  }
  return out;
}

// Reports keys that repeat an earlier key's (track, frame), one finding per track: the track's
// name (`track_name(t)`, empty for the sections without tracks), how many keys repeat a frame
// and the first kDuplicateFramesListed of those frames; record and offset of the first repeating
// key in file order. `track(i)` gives key i's track as evaluation binds it, `entry(i)` its entry
// of the name table: two keys of one track whose entries differ (names that differ only after the
// NUL) are named in the message with both records.
template <class Keys, class Track, class TrackName, class NameEntry>
void duplicates(const Keys& keys, Track track, TrackName track_name, NameEntry entry, Kind& kind, std::size_t base,
                std::size_t size, const std::vector<std::size_t>* offsets = nullptr) {
  std::vector<std::pair<std::uint64_t, std::uint32_t>> order(keys.size());
  for (std::size_t i = 0; i < keys.size(); ++i)
    order[i] = {(std::uint64_t{track(i)} << 32) | keys[i].frame, static_cast<std::uint32_t>(i)};
  std::sort(order.begin(), order.end());
  struct Group {
    std::uint32_t track = 0;
    std::uint32_t first_key = 0;         // smallest file index among the repeating keys
    std::size_t keys = 0;                // keys that repeat an earlier key's frame
    std::vector<std::uint32_t> frames;   // distinct frames, ascending (sorted order)
    // The first pair of same-frame keys whose names are different entries of the name table.
    std::int64_t split_a = -1, split_b = -1;
    std::uint32_t split_frame = 0;
  };
  std::vector<Group> groups;
  for (std::size_t i = 1; i < order.size(); ++i) {
    if (order[i].first != order[i - 1].first) continue;
    const auto t = static_cast<std::uint32_t>(order[i].first >> 32);
    const auto frame = static_cast<std::uint32_t>(order[i].first);
    if (groups.empty() || groups.back().track != t) groups.push_back({t, order[i].second, 0, {}});
    Group& g = groups.back();
    ++g.keys;
    g.first_key = std::min(g.first_key, order[i].second);
    if (g.frames.empty() || g.frames.back() != frame) g.frames.push_back(frame);
    const std::uint32_t ka = order[i - 1].second, kb = order[i].second;
    if (g.split_a < 0 && entry(ka) != entry(kb)) {
      g.split_a = std::min(ka, kb);
      g.split_b = std::max(ka, kb);
      g.split_frame = frame;
    }
  }
  // File order of each track's first repeating key, as the other findings.
  std::sort(groups.begin(), groups.end(), [](const Group& a, const Group& b) { return a.first_key < b.first_key; });
  for (Group& g : groups) {
    const std::size_t off = offsets ? (*offsets)[g.first_key] : base + std::size_t{g.first_key} * size;
    const std::string name = track_name(g.track);
    std::string msg = name.empty() ? std::string() : "track '" + name + "': ";
    msg += std::to_string(g.keys) + (g.keys == 1 ? " key repeats" : " keys repeat") + " the frame of an earlier key (" +
           (g.frames.size() == 1 ? "frame " : std::to_string(g.frames.size()) + " frames: ");
    for (std::size_t k = 0; k < g.frames.size() && k < kDuplicateFramesListed; ++k)
      msg += (k ? ", " : "") + std::to_string(g.frames[k]);
    if (g.frames.size() > kDuplicateFramesListed) msg += ", ...";
    msg += "); MMD uses the last one read";
    if (g.split_a >= 0)
      msg += "; records " + std::to_string(g.split_a) + " and " + std::to_string(g.split_b) + " (frame " +
             std::to_string(g.split_frame) + ") name the track differently only after the NUL terminator, which MMD "
             "and the evaluator ignore (two entries of the name table, one track)";
    if (g.frames.size() > kDuplicateFramesListed) g.frames.resize(kDuplicateFramesListed);
    if (kind.add(g.first_key, static_cast<std::int64_t>(off), std::move(msg))) {
      CheckFinding& f = kind.kept.back();
      f.track = name;
      f.keys = g.keys;
      f.frames = std::move(g.frames);
    }
  }
}

}  // namespace

std::vector<CheckFinding> check(const Motion& m, std::size_t max_per_kind) {
  // Byte offsets of each section's first record, in the layout `write` produces.
  std::size_t bone_base = header_size(m.version) + 4;
  std::size_t morph_base = bone_base + m.bone_keys.size() * kBoneKeySize + 4;
  std::size_t camera_base = morph_base + m.morph_keys.size() * kMorphKeySize + 4;
  std::size_t light_base = camera_base + m.camera_keys.size() * kCameraKeySize + 4;
  std::size_t shadow_base = light_base + m.light_keys.size() * kLightKeySize + 4;
  std::size_t property_base = shadow_base + m.self_shadow_keys.size() * kSelfShadowKeySize + 4;
  std::vector<std::size_t> property_offsets(m.property_keys.size());
  for (std::size_t i = 0, off = property_base; i < m.property_keys.size(); ++i) {
    property_offsets[i] = off;
    off += kPropertyKeyMinSize + m.property_keys[i].ik.size() * kIkStateSize;
  }

  std::vector<CheckFinding> out;
  auto flush = [&](std::vector<Kind>& kinds) {
    std::vector<CheckFinding> section;
    for (Kind& k : kinds) section.insert(section.end(), k.kept.begin(), k.kept.end());
    std::stable_sort(section.begin(), section.end(),
                     [](const CheckFinding& a, const CheckFinding& b) { return a.where.record < b.where.record; });
    out.insert(out.end(), section.begin(), section.end());
    for (Kind& k : kinds)
      if (k.dropped)
        out.push_back({k.error,
                       Error{ErrorCode::invalid_value, std::to_string(k.dropped) + " more " + k.label + " not listed",
                             std::string(section_name(k.section)), -1, -1, {}},
                       k.dropped});
  };

  {  // bones
    std::vector<Kind> kinds{{true, "non-finite values", max_per_kind, {}, 0, Section::bone},
                            {false, "tracks with duplicate keys", max_per_kind, {}, 0, Section::bone},
                            {false, "zero quaternions", max_per_kind, {}, 0, Section::bone},
                            {false, "unnormalized quaternions", max_per_kind, {}, 0, Section::bone}};
    for (std::size_t i = 0; i < m.bone_keys.size(); ++i) {
      const BoneKey& k = m.bone_keys[i];
      const auto off = static_cast<std::int64_t>(bone_base + i * kBoneKeySize);
      const auto rec = static_cast<std::int64_t>(i);
      if (!finite_all(k.position.data(), 3) || !finite_all(k.rotation.data(), 4)) {
        kinds[0].add(rec, off, "position or rotation is not a finite number");
        continue;
      }
      double n2 = 0;
      for (float c : k.rotation) n2 += static_cast<double>(c) * static_cast<double>(c);
      if (n2 == 0) {
        kinds[2].add(rec, off, "rotation quaternion is all zero (MMD treats it as identity)");
      } else if (std::abs(std::sqrt(n2) - 1.0) > 1e-3) {
        kinds[3].add(rec, off, "rotation quaternion has length " + std::to_string(std::sqrt(n2)) +
                                   " (normalized on evaluation)");
      }
    }
    const std::vector<std::uint32_t> bound = tracks_as_bound(m.bone_names, m.encoding);
    duplicates(
        m.bone_keys, [&](std::size_t i) { return m.bone_keys[i].name < bound.size() ? bound[m.bone_keys[i].name] : m.bone_keys[i].name; },
        [&](std::uint32_t t) { return t < m.bone_names.size() ? m.bone_names[t].text : std::to_string(t); },
        [&](std::size_t i) { return m.bone_keys[i].name; }, kinds[1], bone_base, kBoneKeySize);
    flush(kinds);
  }
  {  // morphs
    std::vector<Kind> kinds{{true, "non-finite values", max_per_kind, {}, 0, Section::morph},
                            {false, "tracks with duplicate keys", max_per_kind, {}, 0, Section::morph}};
    for (std::size_t i = 0; i < m.morph_keys.size(); ++i)
      if (!std::isfinite(m.morph_keys[i].weight))
        kinds[0].add(static_cast<std::int64_t>(i), static_cast<std::int64_t>(morph_base + i * kMorphKeySize),
                     "weight is not a finite number");
    const std::vector<std::uint32_t> bound = tracks_as_bound(m.morph_names, m.encoding);
    duplicates(
        m.morph_keys, [&](std::size_t i) { return m.morph_keys[i].name < bound.size() ? bound[m.morph_keys[i].name] : m.morph_keys[i].name; },
        [&](std::uint32_t t) { return t < m.morph_names.size() ? m.morph_names[t].text : std::to_string(t); },
        [&](std::size_t i) { return m.morph_keys[i].name; }, kinds[1], morph_base, kMorphKeySize);
    flush(kinds);
  }
  auto simple = [&](Section s, const auto& keys, std::size_t base, std::size_t size, auto finite,
                    const std::vector<std::size_t>* offsets) {
    std::vector<Kind> kinds{{true, "non-finite values", max_per_kind, {}, 0, s},
                            {false, "tracks with duplicate keys", max_per_kind, {}, 0, s}};
    for (std::size_t i = 0; i < keys.size(); ++i)
      if (!finite(keys[i]))
        kinds[0].add(static_cast<std::int64_t>(i), static_cast<std::int64_t>(offsets ? (*offsets)[i] : base + i * size),
                     "a value is not a finite number");
    duplicates(keys, [](std::size_t) { return std::uint32_t{0}; }, [](std::uint32_t) { return std::string(); },
               [](std::size_t) { return std::uint32_t{0}; }, kinds[1], base, size, offsets);
    flush(kinds);
  };
  simple(Section::camera, m.camera_keys, camera_base, kCameraKeySize,
         [](const CameraKey& k) {
           return std::isfinite(k.distance) && finite_all(k.target.data(), 3) && finite_all(k.rotation.data(), 3);
         },
         nullptr);
  simple(Section::light, m.light_keys, light_base, kLightKeySize,
         [](const LightKey& k) { return finite_all(k.color.data(), 3) && finite_all(k.direction.data(), 3); },
         nullptr);
  simple(Section::self_shadow, m.self_shadow_keys, shadow_base, kSelfShadowKeySize,
         [](const SelfShadowKey& k) { return std::isfinite(k.distance); }, nullptr);
  simple(Section::property, m.property_keys, property_base, kPropertyKeyMinSize,
         [](const PropertyKey&) { return true; }, &property_offsets);
  return out;
}

}  // namespace mmdkit::vmd
