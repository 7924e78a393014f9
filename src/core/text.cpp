#include "mmdkit/core/text.hpp"

#include <iconv.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <memory>

namespace mmdkit {
namespace {

// One iconv descriptor per direction and encoding, per thread (iconv_open is costly).
class Converter {
 public:
  Converter(const char* to, const char* from) : cd_(iconv_open(to, from)) {}
  ~Converter() {
    if (ok()) iconv_close(cd_);
  }
  Converter(const Converter&) = delete;
  Converter& operator=(const Converter&) = delete;
  bool ok() const { return cd_ != reinterpret_cast<iconv_t>(-1); }
  iconv_t get() {
    iconv(cd_, nullptr, nullptr, nullptr, nullptr);  // reset shift state
    return cd_;
  }

 private:
  iconv_t cd_;
};

// Each descriptor is opened on its first use: iconv_open loads the encoding's gconv module (a
// dlopen with its relocations), so a run that meets only CP932 names never loads GBK or UTF-16.
Converter& decoder(Encoding e) {
  switch (e) {
    case Encoding::cp932: {
      thread_local Converter c("UTF-8", "CP932");
      return c;
    }
    case Encoding::gbk: {
      thread_local Converter c("UTF-8", "GBK");
      return c;
    }
    case Encoding::utf16le: {
      thread_local Converter c("UTF-8", "UTF-16LE");
      return c;
    }
    case Encoding::utf8: break;
  }
  thread_local Converter u8("UTF-8", "UTF-8");
  return u8;
}

Converter& encoder(Encoding e) {
  switch (e) {
    case Encoding::cp932: {
      thread_local Converter c("CP932", "UTF-8");
      return c;
    }
    case Encoding::gbk: {
      thread_local Converter c("GBK", "UTF-8");
      return c;
    }
    case Encoding::utf16le: {
      thread_local Converter c("UTF-16LE", "UTF-8");
      return c;
    }
    case Encoding::utf8: break;
  }
  thread_local Converter u8("UTF-8", "UTF-8");
  return u8;
}

bool all_ascii(ByteSpan b) {
  return std::all_of(b.begin(), b.end(), [](std::uint8_t c) { return c < 0x80; });
}

// Decodes with replacement; returns the number of replaced sequences.
std::size_t decode_impl(ByteSpan bytes, Encoding enc, std::string* out) {
  if (enc != Encoding::utf16le && all_ascii(bytes)) {
    if (out) out->assign(bytes.begin(), bytes.end());
    return 0;
  }
  Converter& conv = decoder(enc);
  std::size_t invalid = 0;
  std::string result;
  result.resize(bytes.size() * 3 + 8);
  char* in = const_cast<char*>(reinterpret_cast<const char*>(bytes.data()));
  std::size_t in_left = bytes.size();
  char* dst = result.data();
  std::size_t dst_left = result.size();
  iconv_t cd = conv.get();
  const std::size_t step = enc == Encoding::utf16le ? 2 : 1;
  while (in_left > 0) {
    std::size_t r = iconv(cd, &in, &in_left, &dst, &dst_left);
    if (r != static_cast<std::size_t>(-1)) break;
    if (errno == EINVAL) {  // incomplete sequence at the end: a cut double-byte character
      if (enc == Encoding::utf8 || enc == Encoding::utf16le) ++invalid;
      break;
    }
    if (errno == E2BIG) {  // cannot happen with 3x + 8, but stay safe
      std::size_t used = static_cast<std::size_t>(dst - result.data());
      result.resize(result.size() * 2);
      dst = result.data() + used;
      dst_left = result.size() - used;
      continue;
    }
    // EILSEQ: replace one unit with U+FFFD and continue.
    ++invalid;
    std::size_t skip = std::min(step, in_left);
    in += skip;
    in_left -= skip;
    if (dst_left < 3) break;
    *dst++ = '\xEF';
    *dst++ = '\xBF';
    *dst++ = '\xBD';
    dst_left -= 3;
  }
  if (out) {
    result.resize(static_cast<std::size_t>(dst - result.data()));
    *out = std::move(result);
  }
  return invalid;
}

}  // namespace

std::string_view encoding_name(Encoding e) noexcept {
  switch (e) {
    case Encoding::cp932: return "cp932";
    case Encoding::gbk: return "gbk";
    case Encoding::utf8: return "utf-8";
    case Encoding::utf16le: return "utf-16le";
  }
  return "utf-8";
}

std::optional<Encoding> parse_encoding_name(std::string_view name) noexcept {
  std::string n;
  for (char c : name) n.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
  if (n == "cp932" || n == "shift_jis" || n == "shift-jis" || n == "sjis" || n == "windows-31j") return Encoding::cp932;
  if (n == "gbk" || n == "gb2312" || n == "cp936") return Encoding::gbk;
  if (n == "utf-8" || n == "utf8") return Encoding::utf8;
  if (n == "utf-16le" || n == "utf16le" || n == "utf-16" || n == "utf16") return Encoding::utf16le;
  return std::nullopt;
}

ByteSpan until_nul(ByteSpan field) noexcept {
  auto it = std::find(field.begin(), field.end(), std::uint8_t{0});
  return field.first(static_cast<std::size_t>(it - field.begin()));
}

std::string decode_text(ByteSpan bytes, Encoding enc) {
  std::string out;
  decode_impl(bytes, enc, &out);
  return out;
}

std::size_t count_invalid(ByteSpan bytes, Encoding enc) { return decode_impl(bytes, enc, nullptr); }

Result<std::vector<std::uint8_t>> encode_text(std::string_view utf8, Encoding enc) {
  std::vector<std::uint8_t> out;
  if (enc != Encoding::utf16le &&
      std::all_of(utf8.begin(), utf8.end(), [](char c) { return static_cast<unsigned char>(c) < 0x80; })) {
    out.assign(utf8.begin(), utf8.end());
    return out;
  }
  Converter& conv = encoder(enc);
  out.resize(utf8.size() * 2 + 8);
  char* in = const_cast<char*>(utf8.data());
  std::size_t in_left = utf8.size();
  char* dst = reinterpret_cast<char*>(out.data());
  std::size_t dst_left = out.size();
  std::size_t r = iconv(conv.get(), &in, &in_left, &dst, &dst_left);
  if (r == static_cast<std::size_t>(-1)) {
    std::size_t at = utf8.size() - in_left;
    return make_error(ErrorCode::encoding_error,
                      "cannot encode text to " + std::string(encoding_name(enc)) + " at byte " +
                          std::to_string(at) + " of \"" + std::string(utf8) + "\"");
  }
  if (r > 0) {  // iconv counted irreversible conversions: the text does not round-trip
    return make_error(ErrorCode::encoding_error,
                      "text \"" + std::string(utf8) + "\" has characters " + std::string(encoding_name(enc)) +
                          " cannot represent");
  }
  out.resize(out.size() - dst_left);
  return out;
}

namespace {

// How well a name reads in CP932 (scores doubled, so a half counts): full-width kana +4, JIS
// level-1 kanji +2, a half-width katakana run +2 per kana when it is plausible Japanese (a voicing
// mark ﾞ/ﾟ only after a kana that takes it, no small kana, ｰ or punctuation opening the run) and
// -2 to -8 per implausible character, user-defined characters (EUDC, lead 0xF0-0xF9) -20. Invalid
// sequences are scored by the caller (iconv's count). The byte ranges are CP932's (Microsoft's
// code page 932 table); MMD's own models name bones in half-width katakana (ダミーボーン.pmd: ﾎﾞｰﾝ01).
long cp932_reading(ByteSpan name) {
  long score = 0;
  bool in_run = false;  // the previous byte was a half-width katakana
  std::uint8_t prev = 0;
  for (std::size_t i = 0; i < name.size(); ++i) {
    const std::uint8_t a = name[i];
    if (a < 0x80) {
      in_run = false;
      continue;
    }
    if (a >= 0xA1 && a <= 0xDF) {  // one byte: half-width punctuation (A1-A5) or katakana
      if (a <= 0xA5) {
        score -= 2;
      } else if (a == 0xDE) {  // ﾞ after ｳ, ｶ-ﾄ, ﾊ-ﾎ
        score += in_run && (prev == 0xB3 || (prev >= 0xB6 && prev <= 0xC4) || (prev >= 0xCA && prev <= 0xCE)) ? 2 : -8;
      } else if (a == 0xDF) {  // ﾟ after ﾊ-ﾎ
        score += in_run && prev >= 0xCA && prev <= 0xCE ? 2 : -8;
      } else if (!in_run && a >= 0xA7 && a <= 0xB0) {  // small kana or ｰ opening a run
        score -= 4;
      } else {
        score += 2;
      }
      in_run = true;
      prev = a;
      continue;
    }
    in_run = false;
    if (a == 0x80 || a == 0xA0 || a >= 0xFD) continue;  // no CP932 character: iconv counts it
    const std::uint8_t b = i + 1 < name.size() ? name[i + 1] : 0;
    if (b < 0x40 || b == 0x7F || b > 0xFC) continue;  // not a pair: iconv counts it invalid
    if ((a == 0x82 && b >= 0x9F && b <= 0xF1) || (a == 0x83 && b <= 0x96)) score += 4;  // kana
    else if ((a == 0x88 && b >= 0x9F) || (a > 0x88 && a < 0x98) || (a == 0x98 && b <= 0x72)) score += 2;
    else if (a >= 0xF0 && a <= 0xF9) score -= 20;  // user-defined
    ++i;
  }
  return score;
}

// The same for GBK (doubled): GB2312 level-1 hanzi (lead 0xB0-0xD7, trail 0xA1-0xFE) +2, user-
// defined areas (leads 0xAA-0xAF and 0xF8-0xFE with trail >= 0xA1, lead 0xA1-0xA7 with trail < 0xA1)
// -20; symbols, level-2 and the GBK extensions 0. `plus` alone is the most the name can give.
struct GbkReading {
  long plus = 0, minus = 0;
};
GbkReading gbk_reading(ByteSpan name) {
  GbkReading r;
  for (std::size_t i = 0; i < name.size(); ++i) {
    const std::uint8_t a = name[i];
    if (a < 0x81 || a == 0xFF) continue;
    const std::uint8_t b = i + 1 < name.size() ? name[i + 1] : 0;
    if (b < 0x40 || b == 0x7F || b == 0xFF) continue;  // not a pair: iconv counts it invalid
    if (a >= 0xB0 && a <= 0xD7 && b >= 0xA1) r.plus += 2;
    else if (((a >= 0xAA && a <= 0xAF) || a >= 0xF8) && b >= 0xA1) r.minus += 20;
    else if (a >= 0xA1 && a <= 0xA7 && b < 0xA1) r.minus += 20;
    ++i;
  }
  return r;
}

}  // namespace

Encoding detect_legacy_encoding(std::span<const ByteSpan> names) {
  // Each reading's score over all names, with 40 (20 doubled) off per invalid sequence. CP932
  // wins ties: GBK only where its reading is better. GBK's invalid count (iconv) is taken only when
  // its score without it beats CP932, so a CP932 file never loads the GBK converter.
  long cp932 = 0, gbk = 0, gbk_minus = 0;
  for (ByteSpan name : names) {
    if (all_ascii(name)) continue;
    cp932 += cp932_reading(name) - 40 * static_cast<long>(count_invalid(name, Encoding::cp932));
    const GbkReading g = gbk_reading(name);
    gbk += g.plus;
    gbk_minus += g.minus;
  }
  gbk -= gbk_minus;
  if (gbk <= cp932) return Encoding::cp932;
  for (ByteSpan name : names)
    if (!all_ascii(name)) gbk -= 40 * static_cast<long>(count_invalid(name, Encoding::gbk));
  return gbk > cp932 ? Encoding::gbk : Encoding::cp932;
}

std::vector<std::uint8_t> binding_key(ByteSpan raw) {
  ByteSpan s = until_nul(raw);
  if (s.size() > kBindingKeySize) s = s.first(kBindingKeySize);
  return {s.begin(), s.end()};
}

Result<std::vector<std::uint8_t>> binding_key_of_text(std::string_view utf8, Encoding enc) {
  auto bytes = encode_text(utf8, enc);
  if (!bytes) return std::unexpected(bytes.error());
  return binding_key(*bytes);
}

}  // namespace mmdkit
