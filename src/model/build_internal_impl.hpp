// mmdkit — template part of build_internal.hpp (not installed).
#pragma once

#include <algorithm>
#include <utility>

namespace mmdkit::model::detail {

template <class RecordOf>
void drop_nested_groups(Model& m, const char* section, RecordOf record_of) {
  const std::size_t n = m.morphs.size();
  auto is_group = [&](std::int32_t i) {
    MorphType t = m.morphs[static_cast<std::size_t>(i)].type;
    return t == MorphType::group || t == MorphType::flip;
  };
  auto children = [&](std::size_t i) -> std::vector<GroupOffset>& {
    return m.morphs[i].type == MorphType::flip ? m.morphs[i].flip_offsets : m.morphs[i].group_offsets;
  };
  // Strongly connected components of the group/flip → group/flip graph (iterative Tarjan):
  // an edge inside one component lies on a cycle (loop), any other such edge is plain nesting.
  std::vector<std::int32_t> comp(n, -1), low(n, 0), idx(n, -1);
  {
    std::vector<std::int32_t> st;
    std::vector<std::uint8_t> on(n, 0);
    std::vector<std::pair<std::int32_t, std::size_t>> call;  // node, next child position
    std::int32_t counter = 0, comps = 0;
    for (std::size_t s0 = 0; s0 < n; ++s0) {
      if (idx[s0] >= 0 || !is_group(static_cast<std::int32_t>(s0))) continue;
      call.push_back({static_cast<std::int32_t>(s0), 0});
      while (!call.empty()) {
        auto& [v, pos] = call.back();
        auto vu = static_cast<std::size_t>(v);
        if (pos == 0 && idx[vu] < 0) {
          idx[vu] = low[vu] = counter++;
          st.push_back(v);
          on[vu] = 1;
        }
        const auto& ch = children(vu);
        bool descended = false;
        while (pos < ch.size()) {
          std::int32_t w = ch[pos].morph;
          ++pos;
          if (w < 0 || !is_group(w)) continue;
          auto wu = static_cast<std::size_t>(w);
          if (idx[wu] < 0) {
            call.push_back({w, 0});
            descended = true;
            break;
          }
          if (on[wu]) low[vu] = std::min(low[vu], idx[wu]);
        }
        if (descended) continue;
        if (low[vu] == idx[vu]) {
          for (;;) {
            std::int32_t w = st.back();
            st.pop_back();
            on[static_cast<std::size_t>(w)] = 0;
            comp[static_cast<std::size_t>(w)] = comps;
            if (w == v) break;
          }
          ++comps;
        }
        std::int32_t done = v;
        call.pop_back();
        if (!call.empty()) {
          auto pu = static_cast<std::size_t>(call.back().first);
          low[pu] = std::min(low[pu], low[static_cast<std::size_t>(done)]);
        }
      }
    }
  }
  auto reaches = [&](std::int32_t from, std::int32_t to) {  // from → ... → to, given an edge to → from
    return comp[static_cast<std::size_t>(from)] == comp[static_cast<std::size_t>(to)];
  };
  // Decide on the unmodified graph first, then drop.
  std::vector<std::vector<std::uint8_t>> drop(n);
  for (std::size_t i = 0; i < n; ++i) {
    if (!is_group(static_cast<std::int32_t>(i))) continue;
    auto& ch = children(i);
    drop[i].assign(ch.size(), 0);
    const char* list = m.morphs[i].type == MorphType::flip ? "flip_offsets" : "offsets";
    for (std::size_t k = 0; k < ch.size(); ++k) {
      std::int32_t t = ch[k].morph;
      if (t < 0 || !is_group(t)) continue;
      drop[i][k] = 1;
      bool loop = reaches(t, static_cast<std::int32_t>(i));
      std::string field = std::string(list) + "[" + std::to_string(k) + "].morph";
      if (loop)
        add(m.findings, FindingKind::group_morph_loop, section, record_of(i), field,
            "group morph refers to morph " + std::to_string(record_of(static_cast<std::size_t>(t))) +
                ", which leads back to this morph; the entry is ignored");
      else
        add(m.findings, FindingKind::group_morph_nested, section, record_of(i), field,
            "group morph lists group/flip morph " + std::to_string(record_of(static_cast<std::size_t>(t))) +
                " (MMD applies one level only); the entry is ignored");
    }
  }
  for (std::size_t i = 0; i < n; ++i) {
    if (drop[i].empty()) continue;
    auto& ch = children(i);
    std::vector<GroupOffset> kept;
    for (std::size_t k = 0; k < ch.size(); ++k)
      if (!drop[i][k]) kept.push_back(ch[k]);
    ch = std::move(kept);
  }
}

}  // namespace mmdkit::model::detail
