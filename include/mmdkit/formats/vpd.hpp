// mmdkit — VPD (Vocaloid Pose Data) poses: data model, reading and writing.
//
// A VPD is CP932 text (docs/formats/NOTES.md "VPD", docs/formats/vpd.md):
//
//     Vocaloid Pose Data file
//
//     初音ミク.osm;		// 親ファイル名
//     93;				// 総ポーズボーン数
//
//     Bone0{センター
//       -1.994186,-0.241098,0.050083;				// trans x,y,z
//       -0.008508,0.417201,0.003480,0.908765;		// Quaternion x,y,z,w
//     }
//
//     Morph0{まばたき                      (MikuMikuMoving and newer MMD, after the bones)
//       1.000000;				// weight
//     }
//
// CRLF or LF line ends, `//` comments to the end of a line, numbers as integers, decimals or with
// exponents. Units: translation in MMD units in the bone's parent space (an offset from the bind
// pose, like a VMD bone key); rotation a quaternion (x, y, z, w) in MMD's left-handed space, as
// stored (may be unnormalized; evaluation normalizes, zero = identity); morph weight usually 0..1.
//
// Byte-exact writing: reading keeps every token's text and the bytes between tokens (whitespace,
// comments, line ends) in each record's `layout`. Writing reuses a number's stored token while it
// still parses to the record's current value (bit for bit), a name's raw bytes (EncodedText::raw) while they are set,
// and the stored gaps; anything edited or built in code is written in MMD's canonical layout. So an
// unmodified pose is written back identical, and an edited one changes only the edited tokens.
#pragma once

#include <array>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "mmdkit/core/bytes.hpp"
#include "mmdkit/core/error.hpp"
#include "mmdkit/core/text.hpp"

namespace mmdkit::vpd {

/// The first line of every VPD.
inline constexpr std::string_view kSignature = "Vocaloid Pose Data file";
/// Fewest bytes a Bone block can take ("Bone0{" + LF + 7 one-digit numbers, 5 commas, 2
/// semicolons, "}"): a count line beyond bytes-left / this is count_too_large.
inline constexpr std::size_t kMinBoneBlockSize = 22;
/// Largest count line accepted (a count of 10 digits or more is invalid_value).
inline constexpr std::uint64_t kMaxBoneCount = 999'999'999;

/// Line ending used for text written canonically.
enum class LineEnding : std::uint8_t { crlf, lf };

/// Stored text of one bone block (all empty for a bone built in code = canonical layout).
/// Gaps are raw file bytes (CP932, may hold comments), written back as is when `present`.
struct BoneLayout {
  bool present = false;  ///< true when read from a file: `lead` and `gaps` are used when writing
  std::string lead;      ///< bytes before "Bone": blank lines, comments (canonical: one line end)
  std::string index;     ///< the digits after "Bone" as stored; empty = the bone's position
  /// Bytes between the name and the first number (gaps[0]), between the numbers (gaps[1..6],
  /// e.g. "," and ";\t\t\t\t// trans x,y,z\r\n  "), and from the last number through "}" and the
  /// rest of that line (gaps[7]).
  std::array<std::string, 8> gaps;
  /// Number tokens as stored: translation x, y, z, then rotation x, y, z, w. A token is written
  /// only while it parses (parse_number) to the current value bit for bit.
  std::array<std::string, 7> numbers;
};

/// A posed bone.
struct Bone {
  /// The name (core/text.hpp's one name type): `raw` = the bytes as stored (after "{" up to the
  /// line end, no CR), `text` = decoded, UTF-8 (written, encoded, only when `raw` is empty).
  EncodedText name;
  std::array<float, 3> translation{};  ///< MMD units, parent space, offset from the bind pose
  std::array<float, 4> rotation{0, 0, 0, 1};  ///< quaternion x, y, z, w as stored
  BoneLayout layout;
};

/// Stored text of one morph block (see BoneLayout).
struct MorphLayout {
  bool present = false;
  std::string lead;
  std::string index;
  std::array<std::string, 2> gaps;  ///< name → number, number → "}" and the rest of that line
  std::string number;               ///< the weight token as stored
};

/// A morph weight (MikuMikuMoving / newer MMD extension).
struct Morph {
  EncodedText name;  ///< as Bone::name
  float weight = 0;  ///< usually 0..1; other values kept
  MorphLayout layout;
};

/// Stored text of the header and the end of the file.
struct HeaderLayout {
  bool present = false;
  std::string after_signature;   ///< from the end of the signature to the model file name
  std::string after_model_file;  ///< from ";" after the model file name to the count
  std::string count;             ///< the count token as stored (written while it equals bones.size())
  std::string after_count;       ///< from the end of the count through the end of its line
  std::string tail;              ///< bytes after the last block (canonical: one line end)
};

/// A whole pose file.
struct Pose {
  Encoding encoding = Encoding::cp932;  ///< encoding of names (and of text written canonically)
  LineEnding line_ending = LineEnding::crlf;  ///< line end of canonically written text (detected on read)
  /// Parent model file name: `raw` = the bytes before ";", `text` = decoded, UTF-8 (written,
  /// encoded, only when `raw` is empty).
  EncodedText model_file;
  std::vector<Bone> bones;                    ///< file order
  std::vector<Morph> morphs;                  ///< file order (after the bones)
  HeaderLayout layout;
};

/// Options for reading.
struct ReadOptions {
  /// Force an encoding for names; nullopt = detect per file (CP932 unless GBK scores higher).
  std::optional<Encoding> encoding;
};

/// Parses a VPD from memory. Every error names the place: Error::section is "header",
/// "bone N" or "morph N" (N = 0-based block index), Error::record is the 1-BASED LINE NUMBER and
/// Error::offset the byte offset of the problem; the message says what was expected.
/// Errors: empty_input; bad_signature (does not start with kSignature); invalid_value (a missing
/// ";", "," "{" or "}", a token that is not a number, a count line that is not a decimal integer,
/// more Bone blocks than the count line, Bone after Morph, unknown text between blocks);
/// count_too_large (a count beyond what the bytes left can hold, checked before reserving);
/// truncated (the input ends inside a block, or before the counted bones).
Result<Pose> read(ByteSpan bytes, const ReadOptions& options = {});

/// Reads a file (thin wrapper: read_file + read). Errors carry the path in Error::file.
Result<Pose> read_file(const std::filesystem::path& path, const ReadOptions& options = {});

/// Serializes a pose (see the byte-exact rules above). Canonical text: MMD's layout with the
/// pose's line ending; numbers as "%.6f" when that reads back to the same float, else the
/// shortest fixed-point form that does. Errors: encoding_error (a name needs characters the
/// encoding lacks); invalid_argument (a name or model file name holding a line break, or a model
/// file name holding ";", which would not read back).
Result<std::vector<std::uint8_t>> write(const Pose& pose);

/// The number syntax of VPD tokens: optional sign ("+" or "-"), digits with at most one ".",
/// optional exponent ("e" or "E", optional sign, digits); at least one digit before the exponent.
/// nullopt for anything else. Values beyond float range become ±inf (as strtof).
std::optional<float> parse_number(std::string_view token);

/// The token write() uses for a value with no stored token ("%.6f" or shortest fixed form).
std::string format_number(float value);

/// The canonical text between tokens for `pose.line_ending` (used when a layout is absent and by
/// the JSON writer to omit canonical gaps).
BoneLayout canonical_bone_layout(LineEnding le);
MorphLayout canonical_morph_layout(LineEnding le);
HeaderLayout canonical_header_layout(LineEnding le);

/// True if `bytes` start with kSignature.
bool sniff(ByteSpan bytes) noexcept;

}  // namespace mmdkit::vpd
