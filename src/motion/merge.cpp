// mmdkit — `merge` (motion/merge.hpp).
#include "mmdkit/motion/merge.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "mmdkit/core/text.hpp"

namespace mmdkit::motion {

namespace {

// The bytes a track name binds by, in `enc` (raw bytes when the name is stored in `enc`).
Result<std::vector<std::uint8_t>> key_of(const vmd::TrackName& n, Encoding stored, Encoding enc) {
  if (!n.raw.empty() && stored == enc) return binding_key(ByteSpan(n.raw.data(), n.raw.size()));
  return binding_key_of_text(n.text, enc);
}

// Adds B's names to `out` (A's names); returns B's name index → output name index.
Result<std::vector<std::uint32_t>> merge_names(std::vector<vmd::TrackName>& out, const std::vector<vmd::TrackName>& bn,
                                               Encoding a_enc, Encoding b_enc, std::size_t& added) {
  std::map<std::vector<std::uint8_t>, std::uint32_t> index;
  for (std::size_t i = 0; i < out.size(); ++i) {
    auto k = key_of(out[i], a_enc, a_enc);
    if (!k) return std::unexpected(k.error());
    index.emplace(*k, static_cast<std::uint32_t>(i));
  }
  std::vector<std::uint32_t> map(bn.size());
  for (std::size_t i = 0; i < bn.size(); ++i) {
    auto k = key_of(bn[i], b_enc, a_enc);
    if (!k) return std::unexpected(k.error());
    auto it = index.find(*k);
    if (it != index.end()) {
      map[i] = it->second;
      continue;
    }
    vmd::TrackName n = bn[i];
    if (b_enc != a_enc) {
      auto raw = encode_text(n.text, a_enc);
      if (!raw) return std::unexpected(raw.error());
      n.raw = *raw;
    }
    map[i] = static_cast<std::uint32_t>(out.size());
    index.emplace(*k, map[i]);
    out.push_back(std::move(n));
    ++added;
  }
  return map;
}

template <class Key>
Result<void> check_names(const std::vector<Key>& keys, std::size_t names, vmd::Section s) {
  for (std::size_t i = 0; i < keys.size(); ++i)
    if (keys[i].name >= names)
      return make_error(ErrorCode::invalid_argument, "name index " + std::to_string(keys[i].name) + " out of range",
                        std::string(vmd::section_name(s)), static_cast<std::int64_t>(i));
  return {};
}

// Named tracks: A's keys not on a (track, frame) B keys, then B's keys with names remapped.
template <class Key>
void merge_named(std::vector<Key>& out, const std::vector<Key>& a, const std::vector<Key>& b,
                 const std::vector<std::uint32_t>& map, std::size_t& replaced) {
  std::set<std::pair<std::uint32_t, std::uint32_t>> taken;
  for (const Key& k : b) taken.emplace(map[k.name], k.frame);
  out.clear();
  for (const Key& k : a) {
    if (taken.count({k.name, k.frame})) {
      ++replaced;
      continue;
    }
    out.push_back(k);
  }
  for (Key k : b) {
    k.name = map[k.name];
    out.push_back(k);
  }
}

// One-track sections.
template <class Key>
void merge_single(std::vector<Key>& out, const std::vector<Key>& a, const std::vector<Key>& b, std::size_t& replaced) {
  std::set<std::uint32_t> taken;
  for (const Key& k : b) taken.insert(k.frame);
  out.clear();
  for (const Key& k : a) {
    if (taken.count(k.frame)) {
      ++replaced;
      continue;
    }
    out.push_back(k);
  }
  out.insert(out.end(), b.begin(), b.end());
}

}  // namespace

Result<vmd::Motion> merge(const vmd::Motion& a, const vmd::Motion& b, MergeReport* report) {
  for (const vmd::Motion* m : {&a, &b}) {
    if (auto r = check_names(m->bone_keys, m->bone_names.size(), vmd::Section::bone); !r)
      return std::unexpected(r.error());
    if (auto r = check_names(m->morph_keys, m->morph_names.size(), vmd::Section::morph); !r)
      return std::unexpected(r.error());
  }
  MergeReport rep;
  vmd::Motion out = a;
  auto bmap = merge_names(out.bone_names, b.bone_names, a.encoding, b.encoding, rep.new_bone_tracks);
  if (!bmap) return std::unexpected(bmap.error());
  auto mmap = merge_names(out.morph_names, b.morph_names, a.encoding, b.encoding, rep.new_morph_tracks);
  if (!mmap) return std::unexpected(mmap.error());
  merge_named(out.bone_keys, a.bone_keys, b.bone_keys, *bmap, rep.replaced);
  merge_named(out.morph_keys, a.morph_keys, b.morph_keys, *mmap, rep.replaced);
  merge_single(out.camera_keys, a.camera_keys, b.camera_keys, rep.replaced);
  merge_single(out.light_keys, a.light_keys, b.light_keys, rep.replaced);
  merge_single(out.self_shadow_keys, a.self_shadow_keys, b.self_shadow_keys, rep.replaced);
  merge_single(out.property_keys, a.property_keys, b.property_keys, rep.replaced);
  out.sections_present = std::max(a.sections_present, b.sections_present);
  if (report) *report = rep;
  return out;
}

}  // namespace mmdkit::motion
