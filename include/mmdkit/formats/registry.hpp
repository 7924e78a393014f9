// mmdkit — the format registry: which format a file is, and what each format offers (info,
// lossless JSON both ways, convert, generate, check). One FormatOps per format, defined in
// src/formats/ops_<format>.cpp (library `mmdkit_formats`, above model and anim: the model formats'
// check and convert use the model view). Both front ends sit on it: the CLI's generic file commands
// (info, dump, convert, generate, check) and the Python module (sniff, check, to_json, write).
//
// Errors: every function returning Result fails with the reader's error (section, record, byte
// offset, why) when the bytes do not parse, `unsupported` for a conversion the format does not
// offer, `invalid_argument` for GenerateFlags out of range. Texts are UTF-8.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "mmdkit/core/bytes.hpp"
#include "mmdkit/core/error.hpp"
#include "mmdkit/core/text.hpp"

namespace mmdkit::formats {

/// Options shared by the commands that read files.
struct ReadFlags {
  std::optional<Encoding> encoding;  ///< --encoding: force the legacy text encoding
  bool strict = false;               ///< --strict: trailing bytes are an error
  bool euler = false;                ///< --euler: add Euler angles (degrees) to JSON output
  bool json = false;                 ///< info --json: machine-readable summary
  bool lossy = false;                ///< convert --lossy: PMX → PMD converts what PMD cannot hold (model::ToPmdOptions)
  /// Folder of the input file (set by commands that read a path): `check` resolves texture
  /// references inside it. Unset for in-memory input.
  std::optional<std::filesystem::path> input_folder;
  /// Folder of the input file for every file command (unset for stdin): a project (.pmm) finds
  /// its model files there (version 1 needs their bone and morph counts; `check` looks for them).
  std::optional<std::filesystem::path> project_folder;
  /// --search-dir: further folders a project's files are looked for in, after project_folder, by
  /// the same rule (docs/PMM.md "Paths"); `check` and a version-1 project's model counts use them.
  std::vector<std::filesystem::path> search_folders;
};

/// Sizes for `generate`; each format uses the ones that apply.
struct GenerateFlags {
  std::uint64_t seed = 1;
  std::uint64_t bone_keys = 1000;
  std::uint64_t morph_keys = 100;
  std::uint64_t camera_keys = 0;
  std::uint64_t light_keys = 0;
  std::uint64_t vertices = 1000;
  std::uint64_t bones = 0;    ///< 0 = the format's default humanoid set
  std::uint64_t morphs = 8;
  std::uint64_t frames = 300; ///< frame span of generated motions
  std::string format_variant; ///< e.g. "pmx2.1-utf8"; empty = default
  std::string model{};        ///< VMD: key the bones and morphs of this model file; empty = standard names
  std::string shape{};        ///< PMX: "scatter" (default) or "figure" (pmx::GenerateShape)
};

/// A finding of `check`: `severity_error` false = warning.
struct Finding {
  bool severity_error = true;
  Error where;
  /// > 0: not a finding itself but a note that this many more findings of this severity (of the
  /// kind `where.message` names) were left out of the list; they count in the summary.
  std::size_t omitted = 0;
  /// Motions' duplicate keys (vmd::CheckFinding): one finding per track with its name (empty for
  /// sections without tracks), the number of keys that repeat a frame and the first few frames.
  /// `keys` 0 = not such a finding.
  std::string track{};
  std::size_t keys = 0;
  std::vector<std::uint32_t> frames{};
};

struct FormatOps {
  std::string_view name;       ///< "vmd", "pmd", "pmx", "vpd", "x", "vac"
  std::string_view extension;  ///< ".vmd" ...
  /// Text summary (JSON when flags.json). Warnings go to `warnings`.
  Result<std::string> (*info)(ByteSpan bytes, const ReadFlags& flags, std::vector<Warning>& warnings) = nullptr;
  /// Lossless JSON text.
  Result<std::string> (*to_json)(ByteSpan bytes, const ReadFlags& flags, std::vector<Warning>& warnings) = nullptr;
  /// File bytes from lossless JSON text.
  Result<std::vector<std::uint8_t>> (*from_json)(std::string_view json, const ReadFlags& flags) = nullptr;
  /// Binary to binary: parse and write as `target` ("vmd", "pmx", ...). Null = only same format
  /// via parse + write.
  Result<std::vector<std::uint8_t>> (*convert)(ByteSpan bytes, std::string_view target, const ReadFlags& flags,
                                               std::vector<Warning>& warnings) = nullptr;
  /// A synthetic file.
  Result<std::vector<std::uint8_t>> (*generate)(const GenerateFlags& flags) = nullptr;
  /// Structural findings (errors and warnings). The Result fails only when the file cannot be read.
  Result<std::vector<Finding>> (*check)(ByteSpan bytes, const ReadFlags& flags) = nullptr;
};

// One per format (ops_<format>.cpp).
const FormatOps& vmd_ops();
const FormatOps& vpd_ops();
const FormatOps& pmd_ops();
const FormatOps& pmx_ops();
const FormatOps& x_ops();    ///< DirectX .x (info, dump, check)
const FormatOps& vac_ops();  ///< .vac accessory settings (info, dump, check; by extension: no signature)
const FormatOps& pmm_ops();  ///< MMD projects (info, dump, convert to .pmm / .json, check)

/// All formats, in a fixed order.
std::vector<const FormatOps*> all_formats();
/// By name ("vmd") or extension (".vmd", case-insensitive); nullptr if none.
const FormatOps* format_by_name(std::string_view name_or_extension);
/// By the binary content (detect_format, the one detection rule of every command);
/// nullptr if no format's signature matches.
const FormatOps* format_by_content(ByteSpan bytes);
/// The "format" member of a JSON document written by mmdkit ("vmd", ...), found by
/// detect_format in the first 4 KiB; nullptr if absent or unknown.
const FormatOps* format_of_json(std::string_view json);

/// The extension of `path` in ASCII lower case, with its dot (".glb"); empty when none.
std::string lower_extension(std::string_view path);

/// The extensions a kind of file is written to, and its words: "a VMD motion" to .vmd, .json.
struct OutputKind {
  std::string_view what;                      ///< "a VMD motion"
  std::span<const std::string_view> allowed;  ///< lower case, with the dot: ".vmd", ".json"
};
inline constexpr std::string_view kVmdOutputs[] = {".vmd", ".json"};
inline constexpr std::string_view kVpdOutputs[] = {".vpd", ".json"};
inline constexpr OutputKind kVmdOutput{"a VMD motion", kVmdOutputs};
inline constexpr OutputKind kVpdOutput{"a VPD pose", kVpdOutputs};
inline constexpr std::string_view kPmdOutputs[] = {".pmd", ".json"};
inline constexpr std::string_view kPmxOutputs[] = {".pmx", ".json"};
inline constexpr OutputKind kPmdOutput{"a PMD model", kPmdOutputs};  ///< written as is (convert turns it into PMX)
inline constexpr OutputKind kPmxOutput{"a PMX model", kPmxOutputs};
inline constexpr std::string_view kPmmOutputs[] = {".pmm", ".json"};
inline constexpr OutputKind kPmmOutput{"an MMD project", kPmmOutputs};

/// The message that refuses writing `kind` to `output`, in convert's words ("a VMD motion converts
/// only to .vmd or .json, not .pmx"); empty when `output` is "-" (stdout), has no extension (a
/// device, a pipe, a bare name) or ends in one of kind.allowed (any case).
std::string output_extension_problem(std::string_view output, const OutputKind& kind);

/// "a VMD motion converts only to .vmd or .json, not .EXT" for the extension `ext` (with or
/// without its dot): convert's message, written once.
std::string converts_only_to(const OutputKind& kind, std::string_view ext);

}  // namespace mmdkit::formats
