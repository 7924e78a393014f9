// Binding VMD tracks to model bones / morphs by CP932 bytes cut to 15 (binding.hpp).
#include "mmdkit/anim/binding.hpp"
#include "core/try.hpp"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <map>
#include <string>

namespace mmdkit::anim {

std::span<const BoneTrackKey> BoundMotion::bone_track(std::size_t bone) const noexcept {
  if (bone >= bone_tracks.size()) return {};
  const KeyRange r = bone_tracks[bone];
  return std::span<const BoneTrackKey>(bone_keys).subspan(r.begin, r.end - r.begin);
}

std::span<const MorphTrackKey> BoundMotion::morph_track(std::size_t morph) const noexcept {
  if (morph >= morph_tracks.size()) return {};
  const KeyRange r = morph_tracks[morph];
  return std::span<const MorphTrackKey>(morph_keys).subspan(r.begin, r.end - r.begin);
}

namespace {

using KeyMap = std::multimap<std::string, std::size_t>;

KeyMap make_map(std::span<const std::vector<std::uint8_t>> keys) {
  KeyMap m;
  for (std::size_t i = 0; i < keys.size(); ++i)
    if (!keys[i].empty()) m.emplace(std::string(keys[i].begin(), keys[i].end()), i);
  return m;
}

Result<std::string> vmd_key(const vmd::TrackName& name, Encoding enc) {
  if (!name.raw.empty()) {
    auto k = binding_key(name.raw);
    return std::string(k.begin(), k.end());
  }
  MMDKIT_TRY_ASSIGN(auto k, binding_key_of_text(name.text, enc));
  return std::string(k.begin(), k.end());
}

// For each name of a motion: the model indices it binds to.
Result<std::vector<std::vector<std::size_t>>> resolve(const std::vector<vmd::TrackName>& names, Encoding enc,
                                                      const KeyMap& map, std::size_t motion_index, bool morph,
                                                      std::vector<UnmatchedTrack>& unmatched) {
  std::vector<std::vector<std::size_t>> out(names.size());
  for (std::size_t j = 0; j < names.size(); ++j) {
    MMDKIT_TRY_ASSIGN(auto k, vmd_key(names[j], enc));
    auto [lo, hi] = map.equal_range(k);
    for (auto it = lo; it != hi; ++it) out[j].push_back(it->second);
    if (out[j].empty()) unmatched.push_back({motion_index, j, morph});
  }
  return out;
}

// A stable sort for keys that are nearly in order (a VMD's keys of one bone mostly are: wavefile_v2
// has 82 of 140 tracks in order, the rest a few keys out of place): an insertion sort while it
// moves at most 8 keys per key on average, then std::stable_sort of the range (insertion sort is
// stable, so the range is then sorted as if stable_sort had had it all along): never quadratic.
template <class It, class Less>
void sort_mostly_sorted(It first, It last, Less less) {
  std::size_t budget = 8 * static_cast<std::size_t>(last - first) + 64;
  for (It i = first; i != last; ++i) {
    if (i == first || !less(*i, *(i - 1))) continue;
    auto v = std::move(*i);
    It j = i;
    do {
      *j = std::move(*(j - 1));
      --j;
    } while (j != first && less(v, *(j - 1)) && --budget != 0);
    *j = std::move(v);
    if (budget == 0) {
      std::stable_sort(first, last, less);
      return;
    }
  }
}

// Keys gathered per target (counted first, then placed in (motion, file) order at their target's
// offset: a stable counting sort by target, no (target, key) pairs and no merge sort of them), then
// per target sorted stably by frame (sort_mostly_sorted), the last key of
// each frame kept, compacted in place. The result is the stable sort by (target, frame) with the
// last of each (target, frame) kept: the same keys in the same order.
template <class TrackKey>
void finish(std::vector<TrackKey>& keys, const std::vector<std::uint32_t>& starts, std::vector<KeyRange>& ranges) {
  const std::size_t targets = starts.empty() ? 0 : starts.size() - 1;
  ranges.assign(targets, KeyRange{});
  std::size_t out = 0;
  const auto by_frame = [](const TrackKey& a, const TrackKey& b) { return a.frame < b.frame; };
  for (std::size_t t = 0; t < targets; ++t) {
    const auto first = keys.begin() + starts[t], last = keys.begin() + starts[t + 1];
    if (first == last) continue;
    sort_mostly_sorted(first, last, by_frame);
    KeyRange& r = ranges[t];
    r.begin = static_cast<std::uint32_t>(out);
    for (auto it = first; it != last; ++it) {
      if (it + 1 != last && (it + 1)->frame == it->frame) continue;  // a later key at the same frame wins
      keys[out++] = *it;
    }
    r.end = static_cast<std::uint32_t>(out);
  }
  keys.resize(out);
}

// Exclusive prefix sums of per-target counts: starts[t] = first slot of target t, starts[n] = total.
std::vector<std::uint32_t> starts_of(const std::vector<std::uint32_t>& counts) {
  std::vector<std::uint32_t> starts(counts.size() + 1, 0);
  for (std::size_t t = 0; t < counts.size(); ++t) starts[t + 1] = starts[t] + counts[t];
  return starts;
}

// MMD's physics-off toggle (vmd::BoneInterpolation::physics_off) read straight from bytes 2 and 3
// of the block, without decoding the curves.
bool physics_off(const vmd::BoneKey& k) noexcept { return k.interpolation[2] == 0x63 && k.interpolation[3] == 0x0F; }

// The physics toggles (binding.hpp PhysicsToggle): keys merged like bone keys (the later motion,
// then the later key, wins at equal frames), only changes kept. Nothing is gathered when no key
// of any motion switches physics off.
void bind_physics_toggles(std::span<const vmd::Motion* const> motions,
                          const std::vector<std::vector<std::vector<std::size_t>>>& bone_targets, std::size_t bones,
                          BoundMotion& out) {
  if (bones == 0) return;  // nothing can bind (the morph-only call)
  bool any = false;
  for (const vmd::Motion* mo : motions)
    if (mo)
      for (const vmd::BoneKey& k : mo->bone_keys)
        if (physics_off(k)) any = true;
  if (!any) return;
  struct Toggle {
    std::uint32_t target, frame;
    bool off;
  };
  std::vector<Toggle> all;
  for (std::size_t m = 0; m < motions.size(); ++m) {
    const vmd::Motion* mo = motions[m];
    if (!mo) continue;
    const auto& targets = bone_targets[m];  // resolved by bind_motions
    for (const vmd::BoneKey& k : mo->bone_keys) {
      if (k.name >= targets.size()) continue;
      const bool off = physics_off(k);
      for (std::size_t t : targets[k.name]) all.push_back({static_cast<std::uint32_t>(t), k.frame, off});
    }
  }
  std::stable_sort(all.begin(), all.end(),
                   [](const Toggle& a, const Toggle& b) { return a.target != b.target ? a.target < b.target : a.frame < b.frame; });
  out.physics_tracks.assign(bones, KeyRange{});
  std::size_t target = SIZE_MAX;
  bool state = false;  // physics on before a bone's first change
  for (std::size_t i = 0; i < all.size(); ++i) {
    const Toggle& e = all[i];
    if (i + 1 < all.size() && all[i + 1].target == e.target && all[i + 1].frame == e.frame) continue;
    KeyRange& r = out.physics_tracks[e.target];
    const bool first = e.target != target;
    if (first) {
      target = e.target;
      state = false;
      r.begin = r.end = static_cast<std::uint32_t>(out.physics_toggles.size());
    }
    if (e.off == state) continue;
    state = e.off;
    out.physics_toggles.push_back({first ? 0u : e.frame, e.off});  // the first key's state holds from frame 0
    r.end = static_cast<std::uint32_t>(out.physics_toggles.size());
  }
}

}  // namespace

std::vector<std::uint8_t> vpd_match_key(std::span<const std::uint8_t> raw, std::string_view text, Encoding enc) {
  if (!raw.empty()) return {raw.begin(), raw.end()};
  if (auto e = encode_text(text, enc)) return std::move(*e);
  return {};
}

Result<BoundMotion> bind_motions(std::span<const vmd::Motion* const> motions,
                                 std::span<const std::vector<std::uint8_t>> bone_keys,
                                 std::span<const std::vector<std::uint8_t>> morph_keys) {
  const KeyMap bone_map = make_map(bone_keys);
  const KeyMap morph_map = make_map(morph_keys);
  BoundMotion out;
  // Pass 1: names resolved, key name indices checked, keys counted per model bone / morph (errors
  // in the order of the motions, bone keys before morph keys).
  std::vector<std::vector<std::vector<std::size_t>>> bone_targets(motions.size()), morph_targets(motions.size());
  std::vector<std::uint32_t> bone_count(bone_keys.size(), 0), morph_count(morph_keys.size(), 0);
  std::uint64_t bones = 0, morphs = 0;
  constexpr std::uint64_t kMaxKeys = std::numeric_limits<std::uint32_t>::max();
  for (std::size_t m = 0; m < motions.size(); ++m) {
    const vmd::Motion* mo = motions[m];
    if (!mo) continue;
    MMDKIT_TRY_ASSIGN(auto bt, resolve(mo->bone_names, mo->encoding, bone_map, m, false, out.unmatched));
    bone_targets[m] = std::move(bt);
    MMDKIT_TRY_ASSIGN(auto mt, resolve(mo->morph_names, mo->encoding, morph_map, m, true, out.unmatched));
    morph_targets[m] = std::move(mt);
    const auto& btm = bone_targets[m];
    for (std::size_t i = 0; i < mo->bone_keys.size(); ++i) {
      const vmd::BoneKey& k = mo->bone_keys[i];
      if (k.name >= btm.size())
        return make_error(ErrorCode::invalid_argument,
                          "bone key names entry " + std::to_string(k.name) + " of " + std::to_string(btm.size()) +
                              " (motion " + std::to_string(m) + ")",
                          "bone keys", static_cast<std::int64_t>(i));
      const auto& targets = btm[k.name];
      if (targets.empty()) continue;
      for (std::size_t t : targets) ++bone_count[t];
      bones += targets.size();
      if (bones > kMaxKeys)
        return make_error(ErrorCode::invalid_argument, "more than 2^32-1 bound bone keys", "bone keys",
                          static_cast<std::int64_t>(i));
    }
    const auto& mtm = morph_targets[m];
    for (std::size_t i = 0; i < mo->morph_keys.size(); ++i) {
      const vmd::MorphKey& k = mo->morph_keys[i];
      if (k.name >= mtm.size())
        return make_error(ErrorCode::invalid_argument,
                          "morph key names entry " + std::to_string(k.name) + " of " + std::to_string(mtm.size()) +
                              " (motion " + std::to_string(m) + ")",
                          "morph keys", static_cast<std::int64_t>(i));
      for (std::size_t t : mtm[k.name]) ++morph_count[t];
      morphs += mtm[k.name].size();
      if (morphs > kMaxKeys)
        return make_error(ErrorCode::invalid_argument, "more than 2^32-1 bound morph keys", "morph keys",
                          static_cast<std::int64_t>(i));
    }
  }
  // Pass 2: every key prepared once and placed at its targets' next slots (motion, then file order).
  const std::vector<std::uint32_t> bone_start = starts_of(bone_count), morph_start = starts_of(morph_count);
  out.bone_keys.resize(bones);
  out.morph_keys.resize(morphs);
  std::vector<std::uint32_t> bone_at(bone_start.begin(), bone_start.end() - 1),
      morph_at(morph_start.begin(), morph_start.end() - 1);
  for (std::size_t m = 0; m < motions.size(); ++m) {
    const vmd::Motion* mo = motions[m];
    if (!mo) continue;
    if (bones)
      for (const vmd::BoneKey& k : mo->bone_keys) {
        const auto& targets = bone_targets[m][k.name];
        if (targets.empty()) continue;
        const BoneTrackKey prepared = prepare_bone_key(k);
        for (std::size_t t : targets) out.bone_keys[bone_at[t]++] = prepared;
      }
    if (morphs)
      for (const vmd::MorphKey& k : mo->morph_keys)
        for (std::size_t t : morph_targets[m][k.name]) out.morph_keys[morph_at[t]++] = MorphTrackKey{k.frame, k.weight};
  }
  finish(out.bone_keys, bone_start, out.bone_tracks);
  bind_physics_toggles(motions, bone_targets, bone_keys.size(), out);
  finish(out.morph_keys, morph_start, out.morph_tracks);
  return out;
}

void sample_bones(const BoundMotion& motion, double frame, std::span<BonePose> out,
                  std::span<std::uint32_t> cursors) noexcept {
  const std::size_t n = std::min({out.size(), cursors.size(), motion.bone_tracks.size()});
  for (std::size_t i = 0; i < n; ++i) out[i] = sample_bone(motion.bone_track(i), frame, cursors[i]);
}

// sample_bones with segment caches: sampler.cpp (the per-bone sampling inlines there).

void sample_physics_off(const BoundMotion& motion, double frame, std::span<std::uint8_t> out) noexcept {
  const std::size_t n = std::min(out.size(), motion.bone_tracks.size());
  for (std::size_t i = 0; i < n; ++i) {
    out[i] = 0;
    if (i >= motion.physics_tracks.size()) continue;
    const KeyRange r = motion.physics_tracks[i];
    const auto toggles = std::span<const PhysicsToggle>(motion.physics_toggles).subspan(r.begin, r.end - r.begin);
    // The last change at or before `frame` decides; none = on.
    const auto after = std::upper_bound(toggles.begin(), toggles.end(), frame,
                                        [](double f, const PhysicsToggle& t) { return f < static_cast<double>(t.frame); });
    if (after != toggles.begin() && (after - 1)->off) out[i] = 1;
  }
}

// sample_morphs: sampler.cpp (the per-morph sampling inlines there).

}  // namespace mmdkit::anim
