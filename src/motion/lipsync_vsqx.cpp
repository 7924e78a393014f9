// VOCALOID3/4 .vsq3 / .vsqx → Score (motion/lipsync.hpp parse_vsqx). A small XML reader of our own:
// elements, attributes skipped, text with CDATA and the five predefined entities; enough for the
// files the VOCALOID editors write.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "mmdkit/motion/lipsync.hpp"

namespace mmdkit::motion {

namespace {

constexpr std::size_t kMaxDepth = 64;

struct Element {
  std::string name, text;
  std::vector<std::unique_ptr<Element>> children;

  const Element* child(std::string_view n) const {
    for (const auto& c : children)
      if (c->name == n) return c.get();
    return nullptr;
  }
  std::string child_text(std::string_view n) const {
    const Element* c = child(n);
    return c ? c->text : std::string();
  }
  // Every descendant named n, document order.
  void find_all(std::string_view n, std::vector<const Element*>& out) const {
    for (const auto& c : children) {
      if (c->name == n) out.push_back(c.get());
      c->find_all(n, out);
    }
  }
};

void append_text(std::string& out, std::string_view s) {
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] != '&') {
      out.push_back(s[i]);
      continue;
    }
    static constexpr std::pair<std::string_view, char> kEntities[] = {
        {"&amp;", '&'}, {"&lt;", '<'}, {"&gt;", '>'}, {"&quot;", '"'}, {"&apos;", '\''}};
    bool done = false;
    for (const auto& [e, c] : kEntities)
      if (s.substr(i).starts_with(e)) {
        out.push_back(c);
        i += e.size() - 1;
        done = true;
        break;
      }
    if (!done) out.push_back('&');
  }
}

// Parses the document; nullptr + `why` on malformed input. Depth is bounded by the input (an
// explicit stack, no recursion while parsing).
std::unique_ptr<Element> parse_xml(std::string_view s, std::string& why, std::size_t& where) {
  auto root = std::make_unique<Element>();
  std::vector<Element*> stack{root.get()};
  std::size_t i = 0;
  while (i < s.size()) {
    if (s[i] != '<') {
      const std::size_t lt = s.find('<', i);
      const std::size_t end = lt == std::string_view::npos ? s.size() : lt;
      append_text(stack.back()->text, s.substr(i, end - i));
      i = end;
      continue;
    }
    where = i;
    auto skip_to = [&](std::string_view close) {
      const std::size_t e = s.find(close, i);
      if (e == std::string_view::npos) return false;
      i = e + close.size();
      return true;
    };
    if (s.substr(i).starts_with("<![CDATA[")) {
      const std::size_t e = s.find("]]>", i + 9);
      if (e == std::string_view::npos) return why = "unterminated CDATA", nullptr;
      stack.back()->text.append(s.substr(i + 9, e - i - 9));
      i = e + 3;
    } else if (s.substr(i).starts_with("<!--")) {
      if (!skip_to("-->")) return why = "unterminated comment", nullptr;
    } else if (s.substr(i).starts_with("<?") || s.substr(i).starts_with("<!")) {
      if (!skip_to(">")) return why = "unterminated declaration", nullptr;
    } else if (s.substr(i).starts_with("</")) {
      const std::size_t e = s.find('>', i);
      if (e == std::string_view::npos) return why = "unterminated end tag", nullptr;
      std::string_view name = s.substr(i + 2, e - i - 2);
      while (!name.empty() && (name.back() == ' ' || name.back() == '\t' || name.back() == '\n' || name.back() == '\r'))
        name.remove_suffix(1);
      if (stack.size() < 2 || stack.back()->name != name)
        return why = "end tag </" + std::string(name) + "> does not close the open element", nullptr;
      stack.pop_back();
      i = e + 1;
    } else {
      const std::size_t e = s.find('>', i);
      if (e == std::string_view::npos) return why = "unterminated tag", nullptr;
      std::string_view tag = s.substr(i + 1, e - i - 1);
      const bool empty = !tag.empty() && tag.back() == '/';
      if (empty) tag.remove_suffix(1);
      const std::size_t ne = tag.find_first_of(" \t\r\n");
      auto el = std::make_unique<Element>();
      el->name = std::string(tag.substr(0, ne));
      if (el->name.empty()) return why = "a tag without a name", nullptr;
      Element* raw = el.get();
      stack.back()->children.push_back(std::move(el));
      if (!empty) {
        // VOCALOID's files nest about 6 deep; the bound keeps find_all's recursion and the tree's
        // destruction shallow whatever the input.
        if (stack.size() > kMaxDepth) return why = "elements nested deeper than " + std::to_string(kMaxDepth), nullptr;
        stack.push_back(raw);
      }
      i = e + 1;
    }
  }
  if (stack.size() != 1) return why = "element <" + stack.back()->name + "> is not closed", nullptr;
  return root;
}

bool to_number(const std::string& text, double& out) {
  std::string t = text;
  t.erase(std::remove_if(t.begin(), t.end(), [](char c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; }),
          t.end());
  char* end = nullptr;
  out = std::strtod(t.c_str(), &end);
  return !t.empty() && end == t.c_str() + t.size() && std::isfinite(out);
}

}  // namespace

Result<Score> parse_vsqx(ByteSpan bytes) {
  std::string_view s(reinterpret_cast<const char*>(bytes.data()), bytes.size());
  if (s.starts_with("\xEF\xBB\xBF")) s.remove_prefix(3);
  std::string why;
  std::size_t where = 0;
  const auto root = parse_xml(s, why, where);
  if (!root) return make_error(ErrorCode::invalid_value, "not XML mmdkit can read: " + why, "vsqx", -1, static_cast<std::int64_t>(where));
  std::vector<const Element*> masters;
  root->find_all("masterTrack", masters);
  double resolution = 480, pre_ticks = 0;
  if (!masters.empty()) {
    double v = 0;
    if (to_number(masters[0]->child_text("resolution"), v) && v > 0) resolution = v;
    double pre = 0, nu = 4, de = 4;
    to_number(masters[0]->child_text("preMeasure"), pre);
    std::vector<const Element*> sigs;
    masters[0]->find_all("timeSig", sigs);
    if (!sigs.empty()) {
      double x = 0;
      if (to_number(sigs[0]->child_text("nu"), x) || to_number(sigs[0]->child_text("nume"), x)) nu = x;
      if (to_number(sigs[0]->child_text("de"), x) || to_number(sigs[0]->child_text("denomi"), x)) de = x;
    }
    if (pre > 0 && nu > 0 && de > 0) pre_ticks = pre * nu * resolution * 4 / de;
  }
  // Tempo map: (tick, BPM), sorted.
  std::vector<std::pair<double, double>> tempos;
  std::vector<const Element*> tempo_elements;
  root->find_all("tempo", tempo_elements);
  for (const Element* t : tempo_elements) {
    double tick = 0, v = 0;
    if (to_number(t->child_text("t"), tick) && to_number(t->child_text("v"), v) && v > 0)
      tempos.emplace_back(tick, v / 100.0);
    else if (to_number(t->child_text("posTick"), tick) && to_number(t->child_text("bpm"), v) && v > 0)
      tempos.emplace_back(tick, v / 100.0);
  }
  std::sort(tempos.begin(), tempos.end());
  if (tempos.empty() || tempos[0].first > 0) tempos.insert(tempos.begin(), {0.0, tempos.empty() ? 120.0 : tempos[0].second});
  auto seconds = [&](double tick) {
    double t = 0;
    for (std::size_t k = 0; k < tempos.size(); ++k) {
      const double a = tempos[k].first, b = k + 1 < tempos.size() ? tempos[k + 1].first : tick;
      if (tick <= a) break;
      t += (std::min(tick, b) - a) / resolution * 60.0 / tempos[k].second;
    }
    return t;
  };
  const double t0 = seconds(pre_ticks);

  Score score;
  std::vector<const Element*> parts;
  root->find_all("vsPart", parts);
  root->find_all("musicalPart", parts);
  struct Raw {
    double start, end;
    std::string lyric, phonemes;
  };
  std::vector<Raw> raw;
  for (const Element* p : parts) {
    double part_t = 0;
    if (!to_number(p->child_text("t"), part_t)) to_number(p->child_text("posTick"), part_t);
    for (const auto& n : p->children) {
      if (n->name != "note") continue;
      double t = 0, dur = 0;
      const bool ok = (to_number(n->child_text("t"), t) || to_number(n->child_text("posTick"), t)) &&
                      (to_number(n->child_text("dur"), dur) || to_number(n->child_text("durTick"), dur));
      if (!ok || dur <= 0) {
        score.warnings.push_back("note " + std::to_string(raw.size()) + ": no position or duration: skipped");
        continue;
      }
      const Element* y = n->child("y") ? n->child("y") : n->child("lyric");
      const Element* ph = n->child("p") ? n->child("p") : n->child("phnms");
      raw.push_back({seconds(part_t + t) - t0, seconds(part_t + t + dur) - t0, y ? y->text : "", ph ? ph->text : ""});
    }
  }
  if (raw.empty()) return make_error(ErrorCode::invalid_value, "no note in the file (vsPart / musicalPart <note>)", "vsqx");
  std::stable_sort(raw.begin(), raw.end(), [](const Raw& a, const Raw& b) { return a.start < b.start; });
  MouthShape previous = MouthShape::rest;
  for (std::size_t k = 0; k < raw.size(); ++k) {
    Raw& r = raw[k];
    if (k + 1 < raw.size() && raw[k + 1].start < r.end) {
      score.warnings.push_back("note " + std::to_string(k) + " ('" + r.lyric + "'): overlaps the next note by " +
                               std::to_string(static_cast<int>(std::lround((r.end - raw[k + 1].start) * 1000))) +
                               " ms: cut where it starts");
      r.end = raw[k + 1].start;
    }
    if (r.end <= r.start) continue;
    if (r.end <= 0) continue;  // inside the pre-measures
    ScoreNote n;
    n.start = std::max(0.0, r.start);
    n.end = r.end;
    n.lyric = r.lyric;
    auto shape = lyric_shape(r.lyric, previous);
    if (!shape && !r.phonemes.empty()) {
      // The phonemes' last vowel ("k a" → a).
      std::string last;
      std::size_t q = 0;
      while (q < r.phonemes.size()) {
        const std::size_t sp = r.phonemes.find(' ', q);
        const std::string tok = r.phonemes.substr(q, sp == std::string::npos ? std::string::npos : sp - q);
        if (!tok.empty()) last = tok;
        if (sp == std::string::npos) break;
        q = sp + 1;
      }
      shape = lyric_shape(last, previous);
    }
    if (!shape) {
      score.warnings.push_back("note " + std::to_string(k) + ": lyric '" + r.lyric + "' (phonemes '" + r.phonemes +
                               "') names no vowel: the mouth is closed over it");
      shape = MouthShape::closed;
    }
    n.shape = *shape;
    previous = n.shape;
    score.notes.push_back(std::move(n));
  }
  return score;
}

}  // namespace mmdkit::motion
