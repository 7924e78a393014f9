// mmdkit — `rename` (motion/rename.hpp).
#include "mmdkit/motion/rename.hpp"

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

template <std::size_t N>
Result<bool> apply(vmd::FixedName<N>& n, const std::map<std::string, const NameMapping*>& by, Encoding enc,
                   std::set<std::string>& used) {
  auto it = by.find(n.text);
  if (it == by.end()) return false;
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
  return true;
}

}  // namespace

Result<vmd::Motion> rename(const vmd::Motion& motion, const NameMap& map, RenameReport* report) {
  std::map<std::string, const NameMapping*> by;
  for (const NameMapping& m : map) by.emplace(m.from, &m);
  std::set<std::string> used;
  RenameReport r;
  vmd::Motion out = motion;
  for (auto& n : out.bone_names) {
    auto x = apply(n, by, out.encoding, used);
    if (!x) return std::unexpected(x.error());
    r.bone_names += *x;
  }
  for (auto& n : out.morph_names) {
    auto x = apply(n, by, out.encoding, used);
    if (!x) return std::unexpected(x.error());
    r.morph_names += *x;
  }
  for (auto& k : out.property_keys)
    for (auto& ik : k.ik) {
      auto x = apply(ik.name, by, out.encoding, used);
      if (!x) return std::unexpected(x.error());
      r.ik_names += *x;
    }
  for (const NameMapping& m : map)
    if (!used.count(m.from)) r.unused.push_back(m.from);
  if (report) *report = std::move(r);
  return out;
}

}  // namespace mmdkit::motion
