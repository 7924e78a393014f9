// mmdkit — text encodings of MMD files.
//
// PMD, VMD and VPD store text as Shift-JIS the way Windows writes it (code page 932); files made
// on Chinese systems use GBK instead (see docs/CONVENTIONS.md). PMX declares UTF-16LE or UTF-8.
// mmdkit keeps raw bytes for writing and decodes to UTF-8 for people. Conversion uses glibc iconv.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>
#include <utility>

#include "mmdkit/core/bytes.hpp"
#include "mmdkit/core/error.hpp"

namespace mmdkit {

/// Text as a file stores it: the bytes (kept for byte-exact writing) and their decoding.
/// The one name type of mmdkit: PMX strings (pmx::Text), the fixed-size name and text fields of
/// PMD, VMD (FixedText<N>: pmd::Name, vmd::TrackName, ...), VPD bone, morph and model file names.
/// - `raw`: the stored bytes, in the file's encoding (CP932 or GBK for PMD/VMD/VPD, the PMX
///   header's UTF-16LE or UTF-8). Writers write `raw` when it is non-empty, as is; a fixed-size
///   field keeps everything the field held, garbage after the NUL included.
/// - `text`: the decoding, UTF-8 (for a fixed-size field: `raw` up to its first NUL; a
///   double-byte character cut by the field end is dropped, invalid sequences become U+FFFD).
///   With `raw` empty (text built in code, or assign()ed), writers encode `text` in the file's
///   encoding (an encoding_error when it cannot hold it) and pad fixed fields with NUL.
/// In every JSON schema it is one form (docs/CONVENTIONS.md "Names in JSON"): a string, or
/// {"text", "raw"} when the text does not re-encode to the stored bytes.
struct EncodedText {
  std::vector<std::uint8_t> raw;  ///< bytes as stored; empty = encode `text` when writing
  std::string text;               ///< UTF-8
  /// Sets new UTF-8 text and drops the stored bytes (so the writer encodes the new text).
  void assign(std::string utf8) {
    text = std::move(utf8);
    raw.clear();
  }
};

/// An EncodedText stored in a fixed field of N bytes (PMD names and comments, VMD names).
/// `raw` holds at most N bytes (fewer or none for text built in code: the writer pads with NUL).
/// Converts to `EncodedText&`, so code taking any name takes these too.
template <std::size_t N>
struct FixedText : EncodedText {
  static constexpr std::size_t size = N;  ///< the field's size in bytes
  FixedText() = default;
  FixedText(std::vector<std::uint8_t> raw_bytes, std::string utf8)
      : EncodedText{std::move(raw_bytes), std::move(utf8)} {}
};

/// Text encodings found in MMD files.
enum class Encoding : std::uint8_t {
  cp932,    ///< Shift-JIS, Windows code page 932 (NEC/IBM extensions); MMD's own
  gbk,      ///< GBK (superset of GB2312), written by MMD running on Chinese Windows
  utf8,     ///< PMX encoding byte 1
  utf16le,  ///< PMX encoding byte 0
};

/// "cp932", "gbk", "utf-8", "utf-16le".
std::string_view encoding_name(Encoding e) noexcept;

/// Accepts cp932, shift_jis, shift-jis, sjis, gbk, gb2312, cp936, utf-8, utf8, utf-16le, utf16le
/// (case-insensitive). nullopt for anything else.
std::optional<Encoding> parse_encoding_name(std::string_view name) noexcept;

/// The bytes of a fixed-size text field up to (not including) its first NUL; the whole field
/// when it has none.
ByteSpan until_nul(ByteSpan field) noexcept;

/// Decodes `bytes` to UTF-8. Never fails: a lone lead byte at the end (a double-byte character
/// cut by a field limit) is dropped, and any other invalid sequence becomes U+FFFD.
std::string decode_text(ByteSpan bytes, Encoding enc);

/// Number of invalid sequences `decode_text` would replace (a trailing lone lead byte does not
/// count). 0 means the bytes are valid in `enc`.
std::size_t count_invalid(ByteSpan bytes, Encoding enc);

/// Encodes UTF-8 text. Characters the target cannot represent are an `encoding_error`;
/// invalid UTF-8 input is an `encoding_error`.
Result<std::vector<std::uint8_t>> encode_text(std::string_view utf8, Encoding enc);

/// Chooses CP932 or GBK for a file's legacy-encoded names. MMD is a Japanese program, so CP932
/// is the answer unless the names read clearly better as GBK: each name is read in both encodings
/// and scored (invalid sequences and user-defined characters weigh heavily against a reading;
/// full-width kana, JIS level-1 kanji and plausible half-width katakana runs — ﾎﾞｰﾝ01, as MMD's own
/// ダミーボーン.pmd names its bones — count for CP932; GB2312 level-1 hanzi for GBK); GBK must score
/// strictly higher. ASCII-only input gives CP932. Measured on the corpus and on synthetic names:
/// docs/CONVENTIONS.md "Text".
Encoding detect_legacy_encoding(std::span<const ByteSpan> names);

/// Bytes MMD compares when it binds a VMD track to a model bone or morph: the VMD track name
/// field size. Source and rules: docs/CONVENTIONS.md "Text" (last item).
inline constexpr std::size_t kBindingKeySize = 15;

/// The binding key of stored name bytes (a VMD track name, a PMD or VPD name): `raw` up to its
/// first NUL, cut to kBindingKeySize bytes. A cut may leave a lone lead byte of a double-byte
/// character; it is kept (MMD wrote the VMD name with the same cut). This is the one binding-key
/// function: the model view (model::Bone::binding_key) and anim/binding.hpp use it.
std::vector<std::uint8_t> binding_key(ByteSpan raw);

/// The binding key of UTF-8 text (PMX names, names typed by a user): encoded in `enc` (CP932 by
/// default, as MMD on Japanese Windows), then binding_key(). Errors: encoding_error when `enc`
/// cannot represent the text (MMD could not match such a name either).
Result<std::vector<std::uint8_t>> binding_key_of_text(std::string_view utf8, Encoding enc = Encoding::cp932);

}  // namespace mmdkit
