// mmdkit — template part of build_internal.hpp (not installed).
#pragma once

#include <functional>

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
  // reach(a, b): morph b reachable from a via group/flip edges (iterative DFS).
  auto reaches = [&](std::int32_t from, std::int32_t to) {
    std::vector<std::uint8_t> seen(n, 0);
    std::vector<std::int32_t> stack{from};
    while (!stack.empty()) {
      std::int32_t c = stack.back();
      stack.pop_back();
      if (c == to) return true;
      if (seen[static_cast<std::size_t>(c)]) continue;
      seen[static_cast<std::size_t>(c)] = 1;
      if (!is_group(c)) continue;
      for (const GroupOffset& g : children(static_cast<std::size_t>(c)))
        if (g.morph >= 0 && is_group(g.morph)) stack.push_back(g.morph);
    }
    return false;
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
