// mmdkit — the joint names of a written BVH (motion/bvh.hpp, BvhNames; docs/BVH.md "Joint names").
#include <array>
#include <cstdint>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "mmdkit/model/model.hpp"
#include "mmdkit/motion/bvh.hpp"

namespace mmdkit::motion {
namespace {

// Characters BVH's grammar does not allow in a name: white space and braces.
std::string sanitized(std::string n) {
  for (char& c : n)
    if (c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '{' || c == '}') c = '_';
  return n;
}

bool printable_ascii(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s)
    if (static_cast<unsigned char>(c) < 0x21 || static_cast<unsigned char>(c) > 0x7E) return false;
  return true;
}

// MMD's standard bones (the semi-standard set included) in English, one side: the names PMX
// Editor's "standard bone" plug-in and mmd_tools use, in snake case. A 左/右 prefix is taken off
// first and becomes "_L" / "_R" after the English name.
constexpr std::pair<std::string_view, std::string_view> kStandard[] = {
    {"全ての親", "master"}, {"センター", "center"}, {"グルーブ", "groove"}, {"腰", "waist"},
    {"上半身", "upper_body"}, {"上半身2", "upper_body2"}, {"上半身３", "upper_body3"}, {"上半身２", "upper_body2"},
    {"下半身", "lower_body"}, {"首", "neck"}, {"頭", "head"}, {"両目", "eyes"}, {"目", "eye"},
    {"操作中心", "view_center"}, {"肩P", "shoulderP"}, {"肩", "shoulder"}, {"肩C", "shoulderC"},
    {"腕", "arm"}, {"腕捩", "arm_twist"}, {"腕捩1", "arm_twist1"}, {"腕捩2", "arm_twist2"}, {"腕捩3", "arm_twist3"},
    {"ひじ", "elbow"}, {"手捩", "wrist_twist"}, {"手捩1", "wrist_twist1"}, {"手捩2", "wrist_twist2"},
    {"手捩3", "wrist_twist3"}, {"手首", "wrist"}, {"ダミー", "dummy"},
    {"親指０", "thumb0"}, {"親指１", "thumb1"}, {"親指２", "thumb2"}, {"親指先", "thumb_tip"},
    {"人指１", "index1"}, {"人指２", "index2"}, {"人指３", "index3"}, {"人指先", "index_tip"},
    {"中指１", "middle1"}, {"中指２", "middle2"}, {"中指３", "middle3"}, {"中指先", "middle_tip"},
    {"薬指１", "ring1"}, {"薬指２", "ring2"}, {"薬指３", "ring3"}, {"薬指先", "ring_tip"},
    {"小指１", "little1"}, {"小指２", "little2"}, {"小指３", "little3"}, {"小指先", "little_tip"},
    {"足", "leg"}, {"ひざ", "knee"}, {"足首", "ankle"}, {"つま先", "toe"}, {"足ＩＫ", "leg_IK"},
    {"つま先ＩＫ", "toe_IK"}, {"足IK親", "leg_IK_parent"}, {"足ＩＫ親", "leg_IK_parent"}, {"足D", "leg_D"},
    {"ひざD", "knee_D"}, {"足首D", "ankle_D"}, {"足先EX", "toe_EX"}, {"腰キャンセル", "waist_cancel"},
    {"足IK", "leg_IK"}, {"つま先IK", "toe_IK"}};

// Kana in Hepburn romaji (hiragana; katakana and half-width katakana are folded to it): small
// kana after a kana replace its vowel (キャ → kya, ファ → fa, ウィ → wi), っ doubles the next
// consonant, ー repeats the previous vowel.

// One code point of UTF-8 at `i` (advances `i`); U+FFFD for a malformed sequence.
char32_t next_code_point(std::string_view s, std::size_t& i) {
  const auto c = static_cast<unsigned char>(s[i]);
  int n = c < 0x80 ? 0 : (c >> 5) == 6 ? 1 : (c >> 4) == 14 ? 2 : (c >> 3) == 30 ? 3 : -1;
  if (n < 0 || i + static_cast<std::size_t>(n) >= s.size()) {
    ++i;
    return 0xFFFD;
  }
  char32_t cp = n == 0 ? c : n == 1 ? (c & 0x1F) : n == 2 ? (c & 0x0F) : (c & 0x07);
  ++i;
  for (int k = 0; k < n; ++k) {
    if (i >= s.size() || (static_cast<unsigned char>(s[i]) >> 6) != 2) return 0xFFFD;
    cp = (cp << 6) | (static_cast<unsigned char>(s[i]) & 0x3F);
    ++i;
  }
  return cp;
}

// The romaji of one kana (hiragana code point; katakana are mapped to it first), or nullptr.
const char* romaji(char32_t h) {
  static constexpr const char* kTable[] = {
      // U+3041 .. U+3096
      "a", "a", "i", "i", "u", "u", "e", "e", "o", "o", "ka", "ga", "ki", "gi", "ku", "gu", "ke", "ge", "ko", "go",
      "sa", "za", "shi", "ji", "su", "zu", "se", "ze", "so", "zo", "ta", "da", "chi", "ji", "tsu", "tsu", "zu", "te",
      "de", "to", "do", "na", "ni", "nu", "ne", "no", "ha", "ba", "pa", "hi", "bi", "pi", "fu", "bu", "pu", "he", "be",
      "pe", "ho", "bo", "po", "ma", "mi", "mu", "me", "mo", "ya", "ya", "yu", "yu", "yo", "yo", "ra", "ri", "ru", "re",
      "ro", "wa", "wa", "i", "e", "o", "n", "vu", "ka", "ke"};
  if (h < 0x3041 || h > 0x3096) return nullptr;
  return kTable[h - 0x3041];
}

// Half-width katakana U+FF66..U+FF9D → full-width katakana (U+30A0 block); voicing marks apart.
char32_t from_half_width(char32_t c) {
  static constexpr char16_t kFull[] = {
      u'ヲ', u'ァ', u'ィ', u'ゥ', u'ェ', u'ォ', u'ャ', u'ュ', u'ョ', u'ッ', u'ー', u'ア', u'イ', u'ウ', u'エ', u'オ',
      u'カ', u'キ', u'ク', u'ケ', u'コ', u'サ', u'シ', u'ス', u'セ', u'ソ', u'タ', u'チ', u'ツ', u'テ', u'ト', u'ナ',
      u'ニ', u'ヌ', u'ネ', u'ノ', u'ハ', u'ヒ', u'フ', u'ヘ', u'ホ', u'マ', u'ミ', u'ム', u'メ', u'モ', u'ヤ', u'ユ',
      u'ヨ', u'ラ', u'リ', u'ル', u'レ', u'ロ', u'ワ', u'ン'};
  if (c >= 0xFF66 && c <= 0xFF9D) return kFull[c - 0xFF66];
  return c;
}

bool is_small(char32_t h) {  // ぁぃぅぇぉゃゅょゎ
  return h == U'ぁ' || h == U'ぃ' || h == U'ぅ' || h == U'ぇ' || h == U'ぉ' || h == U'ゃ' || h == U'ゅ' ||
         h == U'ょ' || h == U'ゎ';
}

// `name` in ASCII: ASCII kept, full-width ASCII folded, kana in romaji, 左/右 as L/R, other
// characters dropped (`dropped` says so).
std::string transliterated(std::string_view name, bool& dropped) {
  std::vector<char32_t> cps;
  for (std::size_t i = 0; i < name.size();) {
    char32_t c = next_code_point(name, i);
    if (c == 0xFF9E || c == 0xFF9F) {  // half-width voicing marks: voice the previous kana
      if (!cps.empty() && cps.back() >= 0x304B && cps.back() <= 0x307D) cps.back() += c == 0xFF9E ? 1 : 2;  // か..ほ (folded)
      continue;
    }
    c = from_half_width(c);
    if (c >= 0x30A1 && c <= 0x30F6) c -= 0x60;  // katakana → hiragana
    cps.push_back(c);
  }
  std::string out;
  bool double_next = false;
  for (std::size_t k = 0; k < cps.size(); ++k) {
    const char32_t c = cps[k];
    if (c < 0x80) {
      out += static_cast<char>(c);
    } else if (c >= 0xFF01 && c <= 0xFF5E) {
      out += static_cast<char>(c - 0xFF01 + 0x21);
    } else if (c == U'左' || c == U'右') {
      out += (out.empty() || out.back() == '_') ? "" : "_";
      out += c == U'左' ? "L_" : "R_";
    } else if (c == U'っ') {
      double_next = true;
    } else if (c == U'ー' || c == 0xFF70) {
      if (!out.empty() && std::string_view("aeiou").find(out.back()) != std::string_view::npos) out += out.back();
    } else if (const char* r = romaji(c)) {
      std::string s = r;
      if (is_small(c) && k > 0 && cps[k - 1] == U'う' && !out.empty() && out.back() == 'u') {
        out.back() = 'w';  // ウィ, ウェ, ウォ: wi, we, wo
        s = s.substr(s.size() - 1);
      } else if (is_small(c) && !out.empty()) {
        // キャ: "ki" + "ya" → "kya"; ファ: "fu" + "a" → "fa"; シェ: "shi" + "e" → "she".
        if (out.back() == 'i' && (c == U'ゃ' || c == U'ゅ' || c == U'ょ')) {
          out.pop_back();
          if (!out.empty() && (out.back() == 'h' || out.back() == 'j')) s = s.substr(1);  // sha, ja
        } else if (out.back() == 'u' || out.back() == 'i' || out.back() == 'o') {
          out.pop_back();
        }
      }
      if (double_next) {
        out += s[0] == 'c' ? 't' : s[0];  // っち → tchi
        double_next = false;
      }
      out += s;
    } else {
      dropped = true;
    }
  }
  // Tidy: no leading, trailing or doubled '_'.
  std::string t;
  for (char c : out)
    if (c != '_' || (!t.empty() && t.back() != '_')) t += c;
  while (!t.empty() && t.back() == '_') t.pop_back();
  return sanitized(t);
}

// The English name of a standard bone ("左腕" → "arm_L"), or "".
std::string standard_english(std::string_view name) {
  std::string_view side;
  if (name.starts_with("左")) side = "_L", name.remove_prefix(std::string_view("左").size());
  else if (name.starts_with("右")) side = "_R", name.remove_prefix(std::string_view("右").size());
  for (const auto& [ja, en] : kStandard)
    if (name == ja) return std::string(en) + std::string(side);
  return {};
}

std::string english_name(const model::Bone& b, std::size_t index) {
  if (std::string en = sanitized(b.name_en); printable_ascii(en)) return en;
  if (std::string s = standard_english(b.name); !s.empty()) return s;
  bool dropped = false;
  std::string t = transliterated(b.name, dropped);
  if (!dropped && printable_ascii(t)) return t;
  return "bone" + std::to_string(index) + (t.empty() ? "" : "_" + t);
}

}  // namespace

std::vector<std::string> bvh_joint_names(const model::Model& model, BvhNames names) {
  std::vector<std::string> out;
  out.reserve(model.bones.size());
  std::set<std::string> used;
  for (std::size_t b = 0; b < model.bones.size(); ++b) {
    std::string n = names == BvhNames::english ? english_name(model.bones[b], b) : sanitized(model.bones[b].name);
    if (n.empty()) n = "bone_" + std::to_string(b);
    std::string u = n;
    for (int k = 2; used.count(u); ++k) u = n + "_" + std::to_string(k);
    used.insert(u);
    out.push_back(std::move(u));
  }
  return out;
}

}  // namespace mmdkit::motion
