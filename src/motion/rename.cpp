// mmdkit — `rename` (motion/rename.hpp).
#include "mmdkit/motion/rename.hpp"

#include <algorithm>
#include <map>
#include <set>

#include "mmdkit/core/text.hpp"

namespace mmdkit::motion {

Result<NameMap> parse_name_map(std::string_view text) {
  if (text.starts_with("\xEF\xBB\xBF")) text.remove_prefix(3);
  NameMap map;
  std::set<std::string> seen;
  std::size_t line = 0;
  while (!text.empty()) {
    ++line;
    const std::size_t nl = text.find('\n');
    std::string_view l = text.substr(0, nl);
    text = nl == std::string_view::npos ? std::string_view{} : text.substr(nl + 1);
    if (!l.empty() && l.back() == '\r') l.remove_suffix(1);
    if (l.empty() || l.front() == '#') continue;
    const std::size_t tab = l.find('\t');
    auto bad = [&](const std::string& why) {
      return make_error(ErrorCode::invalid_value, why, "map", static_cast<std::int64_t>(line));
    };
    if (tab == std::string_view::npos || l.find('\t', tab + 1) != std::string_view::npos)
      return bad("line " + std::to_string(line) + ": expected OLD<TAB>NEW (exactly one tab)");
    NameMapping m{std::string(l.substr(0, tab)), std::string(l.substr(tab + 1)), line};
    if (m.from.empty() || m.to.empty()) return bad("line " + std::to_string(line) + ": an empty name");
    if (!seen.insert(m.from).second) return bad("line " + std::to_string(line) + ": '" + m.from + "' is mapped twice");
    map.push_back(std::move(m));
  }
  return map;
}

namespace {

// The mapping that renamed `n` (nullptr: kept).
template <std::size_t N>
Result<const NameMapping*> apply(vmd::FixedName<N>& n, const std::map<std::string, const NameMapping*>& by,
                                 Encoding enc, std::set<std::string>& used) {
  auto it = by.find(n.text);
  if (it == by.end()) return nullptr;
  const NameMapping& m = *it->second;
  auto raw = encode_text(m.to, enc);
  if (!raw) {
    Error e = raw.error();
    e.section = "map";
    e.record = static_cast<std::int64_t>(m.line);
    e.message = "line " + std::to_string(m.line) + ": '" + m.to + "' cannot be written in " +
                std::string(encoding_name(enc)) + ": " + e.message;
    return std::unexpected(e);
  }
  if (raw->size() > N)
    return make_error(ErrorCode::invalid_value,
                      "line " + std::to_string(m.line) + ": '" + m.to + "' takes " + std::to_string(raw->size()) +
                          " bytes in " + std::string(encoding_name(enc)) + ", more than the " + std::to_string(N) +
                          "-byte name field",
                      "map", static_cast<std::int64_t>(m.line));
  n.raw = std::move(*raw);
  n.text = m.to;
  used.insert(m.from);
  return &m;
}

// The bytes a name binds by (core/text.hpp binding_key: up to the NUL, at most `cut` bytes); a
// name built in code (no raw bytes) by its text encoded in the motion's encoding.
template <std::size_t N>
std::string key_of(const vmd::FixedName<N>& n, Encoding enc, std::size_t cut) {
  std::vector<std::uint8_t> raw = n.raw;
  if (raw.empty()) {
    if (auto e = encode_text(n.text, enc)) raw = std::move(*e);
    else raw.assign(n.text.begin(), n.text.end());
  }
  ByteSpan b = until_nul(ByteSpan(raw.data(), raw.size()));
  if (b.size() > cut) b = b.first(cut);
  return std::string(b.begin(), b.end());
}

// One name of the motion before and after the map.
struct Entry {
  std::string before, after;            // binding keys
  std::string before_text, after_text;  // UTF-8
  const NameMapping* by = nullptr;      // the mapping that renamed it
};

std::string where(const NameMapping& m) {
  return m.line ? "line " + std::to_string(m.line) : std::string("mapping");
}

// Two names of one kind that end up as one track although they were two: refused, or (merge)
// listed. `kind` is e.g. "bone track".
Result<void> collisions(const std::vector<Entry>& entries, const char* kind, bool merge, RenameReport& r) {
  std::map<std::string, std::vector<const Entry*>> by_after;
  for (const Entry& e : entries) by_after[e.after].push_back(&e);
  struct Hit {
    const Entry* renamed;
    const Entry* other;
  };
  std::vector<Hit> hits;
  for (auto& [key, group] : by_after) {
    // Kept names of the group share one binding key (their own); renamed ones in map-line order.
    const Entry* kept = nullptr;
    std::vector<const Entry*> renamed;
    for (const Entry* e : group) {
      if (!e->by) kept = kept ? kept : e;
      else renamed.push_back(e);
    }
    std::stable_sort(renamed.begin(), renamed.end(),
                     [](const Entry* x, const Entry* y) { return x->by->line < y->by->line; });
    // The first renamed name that was not already the other party's track (same bytes before:
    // one track already, e.g. names differing only after the NUL, or a name mapped to itself).
    const Entry* other = kept ? kept : (renamed.empty() ? nullptr : renamed.front());
    if (!other) continue;
    for (const Entry* e : renamed)
      if (e->before != other->before) {
        hits.push_back({e, other});
        break;
      }
  }
  std::sort(hits.begin(), hits.end(), [](const Hit& x, const Hit& y) { return x.renamed->by->line < y.renamed->by->line; });
  for (const Hit& h : hits) {
    const NameMapping& m = *h.renamed->by;
    std::string msg = where(m) + ": '" + m.from + "' -> '" + m.to + "': ";
    if (!h.other->by)
      msg += "the motion already has " + std::string(kind[0] == 'I' ? "an " : "a ") + kind + " '" + h.other->before_text +
             "' that the map does not rename";
    else
      msg += where(*h.other->by) + " renames " + kind + " '" + h.other->by->from + "' to '" + h.other->by->to + "' too";
    if (merge) {
      r.merged.push_back(std::string(kind) + " '" + m.from + "' merged into '" + h.renamed->after_text + "' (" +
                         where(m) + ")");
      continue;
    }
    msg += ": the two tracks would become one, their keys merged (to merge them: RenameOptions::merge, --merge in "
           "the CLI, merge=True in Python; or rename '" + h.other->before_text + "' too)";
    return make_error(ErrorCode::invalid_value, msg, "map", static_cast<std::int64_t>(m.line));
  }
  return {};
}

template <std::size_t N>
Entry entry(const vmd::FixedName<N>& before, const vmd::FixedName<N>& after, const NameMapping* by, Encoding enc,
            std::size_t cut) {
  return {key_of(before, enc, cut), key_of(after, enc, cut), before.text, after.text, by};
}

}  // namespace

Result<vmd::Motion> rename(const vmd::Motion& motion, const NameMap& map, RenameReport* report,
                           const RenameOptions& options) {
  std::map<std::string, const NameMapping*> by;
  for (const NameMapping& m : map) by.emplace(m.from, &m);
  std::set<std::string> used;
  RenameReport r;
  vmd::Motion out = motion;
  const Encoding enc = out.encoding;
  std::vector<Entry> bones, morphs, iks;
  for (std::size_t i = 0; i < out.bone_names.size(); ++i) {
    auto x = apply(out.bone_names[i], by, enc, used);
    if (!x) return std::unexpected(x.error());
    r.bone_names += *x != nullptr;
    bones.push_back(entry(motion.bone_names[i], out.bone_names[i], *x, enc, kBindingKeySize));
  }
  for (std::size_t i = 0; i < out.morph_names.size(); ++i) {
    auto x = apply(out.morph_names[i], by, enc, used);
    if (!x) return std::unexpected(x.error());
    r.morph_names += *x != nullptr;
    morphs.push_back(entry(motion.morph_names[i], out.morph_names[i], *x, enc, kBindingKeySize));
  }
  std::set<std::pair<std::string, std::string>> ik_seen;  // (before, after): one entry per distinct name
  for (std::size_t k = 0; k < out.property_keys.size(); ++k)
    for (std::size_t j = 0; j < out.property_keys[k].ik.size(); ++j) {
      auto& ik = out.property_keys[k].ik[j];
      auto x = apply(ik.name, by, enc, used);
      if (!x) return std::unexpected(x.error());
      r.ik_names += *x != nullptr;
      Entry e = entry(motion.property_keys[k].ik[j].name, ik.name, *x, enc, vmd::kIkNameSize);
      if (ik_seen.insert({e.before, e.after}).second) iks.push_back(std::move(e));
    }
  if (auto c = collisions(bones, "bone track", options.merge, r); !c) return std::unexpected(c.error());
  if (auto c = collisions(morphs, "morph track", options.merge, r); !c) return std::unexpected(c.error());
  if (auto c = collisions(iks, "IK switch", options.merge, r); !c) return std::unexpected(c.error());
  for (const NameMapping& m : map)
    if (!used.count(m.from)) r.unused.push_back(m.from);
  if (report) *report = std::move(r);
  return out;
}

}  // namespace mmdkit::motion
