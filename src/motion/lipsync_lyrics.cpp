// Lyric (kana, romaji, phoneme) → mouth shape, written once (motion/lipsync.hpp lyric_shape).
#include <cctype>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "mmdkit/motion/lipsync.hpp"

namespace mmdkit::motion {

std::string_view shape_name(MouthShape s) noexcept {
  switch (s) {
    case MouthShape::a: return "a";
    case MouthShape::i: return "i";
    case MouthShape::u: return "u";
    case MouthShape::e: return "e";
    case MouthShape::o: return "o";
    case MouthShape::closed: return "closed";
    case MouthShape::rest: return "rest";
  }
  return "?";
}

namespace {

// Hiragana by vowel (katakana are these + 0x60). Small kana carry the vowel they are read with
// (きゃ = kya → a).
constexpr std::u32string_view kRows[5] = {
    U"あかがさざただなはばぱまやらわぁゃゎ",  // a
    U"いきぎしじちぢにひびぴみりゐぃ",        // i
    U"うくぐすずつづぬふぶぷむゆるぅゅゔ",    // u
    U"えけげせぜてでねへべぺめれゑぇ",        // e
    U"おこごそぞとどのほぼぽもよろをぉょ",    // o
};
constexpr char32_t kN = U'ん', kSmallTsu = U'っ', kLong = U'ー';

// UTF-8 → code points (invalid bytes become U+FFFD).
std::u32string decode_utf8(std::string_view s) {
  std::u32string out;
  for (std::size_t i = 0; i < s.size();) {
    const auto c = static_cast<unsigned char>(s[i]);
    int len = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 0;
    if (len == 0 || i + len > s.size()) {
      out.push_back(U'\uFFFD');
      ++i;
      continue;
    }
    char32_t cp = len == 1 ? c : len == 2 ? (c & 0x1F) : len == 3 ? (c & 0x0F) : (c & 0x07);
    bool ok = true;
    for (int k = 1; k < len; ++k) {
      const auto d = static_cast<unsigned char>(s[i + k]);
      if ((d & 0xC0) != 0x80) ok = false;
      cp = (cp << 6) | (d & 0x3F);
    }
    out.push_back(ok ? cp : U'\uFFFD');
    i += ok ? len : 1;
  }
  return out;
}

// Katakana → hiragana (ァ..ヶ); others unchanged.
char32_t to_hiragana(char32_t c) { return (c >= U'\u30A1' && c <= U'\u30F6') ? c - 0x60 : c; }

bool is_kana(char32_t c) {
  c = to_hiragana(c);
  return (c >= U'\u3041' && c <= U'\u3096') || c == kLong;
}

std::optional<MouthShape> kana_vowel(char32_t c) {
  c = to_hiragana(c);
  if (c == kN) return MouthShape::closed;
  for (int v = 0; v < 5; ++v)
    if (kRows[v].find(c) != std::u32string_view::npos) return static_cast<MouthShape>(v);
  return std::nullopt;
}

std::optional<MouthShape> vowel_letter(char c) {
  switch (std::tolower(static_cast<unsigned char>(c))) {
    case 'a': return MouthShape::a;
    case 'i': return MouthShape::i;
    case 'u': return MouthShape::u;
    case 'e': return MouthShape::e;
    case 'o': return MouthShape::o;
    default: return std::nullopt;
  }
}

}  // namespace

std::optional<MouthShape> lyric_shape(std::string_view lyric, MouthShape previous) {
  // Trim spaces; an UTAU VCV lyric "a か" is decided by its part after the last space.
  std::u32string cps = decode_utf8(lyric);
  auto is_space = [](char32_t c) { return c == U' ' || c == U'\t' || c == U'\u3000' || c == U'\r' || c == U'\n'; };
  while (!cps.empty() && is_space(cps.back())) cps.pop_back();
  if (const auto sp = cps.find_last_of(U" \t\u3000"); sp != std::u32string::npos) cps = cps.substr(sp + 1);

  // Kana: the last kana decides.
  std::vector<char32_t> kana;
  for (char32_t c : cps)
    if (is_kana(c)) kana.push_back(to_hiragana(c));
  if (!kana.empty()) {
    // Walk back over ー and っ to the kana whose vowel is sung.
    for (std::size_t k = kana.size(); k-- > 0;) {
      const char32_t c = kana[k];
      if (c == kLong || c == kSmallTsu) {
        if (k == 0) return c == kLong ? previous : MouthShape::closed;
        continue;
      }
      return kana_vowel(c);  // nullopt for kana outside the table (ゕ ゖ)
    }
    return std::nullopt;
  }

  // ASCII: romaji or a phoneme. Letters only (trailing digits, ↑ and the like dropped).
  std::string ascii;
  bool other = false;
  for (char32_t c : cps) {
    if (c < 0x80 && std::isalpha(static_cast<int>(c)))
      ascii.push_back(static_cast<char>(c));
    else if (c == U'-' && ascii.empty())
      ascii.push_back('-');
    else if (c >= 0x80)
      other = true;
  }
  if (ascii == "-") return previous;
  // Nothing at all is a rest; signs alone ("@@", "1") name nothing: unknown, warned per note.
  if (ascii.empty()) return other || !cps.empty() ? std::nullopt : std::optional<MouthShape>(MouthShape::rest);
  std::string low;
  for (char c : ascii) low.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
  if (ascii == "R" || low == "r" || low == "pau" || low == "sil" || low == "silb" || low == "sile" || low == "br" ||
      low == "sp")
    return MouthShape::rest;
  if (low == "n" || low == "m" || low == "cl" || low == "q" || low == "nn") return MouthShape::closed;
  if (const auto v = vowel_letter(low.back())) return v;
  if (low.back() == 'n' && low.find_first_of("aiueo") != std::string::npos) return MouthShape::closed;  // "kan"
  return std::nullopt;
}

}  // namespace mmdkit::motion
