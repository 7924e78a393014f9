// mmdkit (internal) — model operations shared by the PMD and PMX format ops: check (structure, indices,
// values, textures in the model's folder), PMD conversion (to .pmd or .pmx) and PMD generation.
// Built on the model view (mmdkit/model/*.hpp).
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "mmdkit/formats/registry.hpp"
#include "mmdkit/model/model.hpp"

namespace mmdkit::formats {

/// A model finding as a registry finding, section and record as found (byte offset -1: the view has no
/// offsets). Texture findings get their own codes, texture_missing / texture_escapes (still
/// warnings; message "field <field>: <why>"); every other kind is code invalid_value with message
/// "<kind>: field <field>: <why>".
Finding to_format_finding(const model::Finding& f);

/// Reads a PMD: reader warnings (as warnings), then pmd::check's findings (indices, counts,
/// cycles, PMD codes; with byte offsets), then the model view's findings pmd::check does not
/// cover: ik_link_not_ancestor, ik_invalid, non_finite, texture_missing, texture_escapes.
/// With `folder`, texture references are resolved there (missing / escaping = warnings).
/// Fails only when the file cannot be read.
Result<std::vector<Finding>> check_pmd(ByteSpan bytes, const ReadFlags& flags,
                                       std::optional<std::filesystem::path> folder);

/// Same for PMX.
Result<std::vector<Finding>> check_pmx(ByteSpan bytes, const ReadFlags& flags,
                                       std::optional<std::filesystem::path> folder);

/// FormatOps::check signatures. The folder is taken from ReadFlags when it has an `input_folder`
/// member (std::optional<std::filesystem::path>, set by `check` to the input's folder); without
/// it, textures are not checked.
Result<std::vector<Finding>> check_pmd_ops(ByteSpan bytes, const ReadFlags& flags);
Result<std::vector<Finding>> check_pmx_ops(ByteSpan bytes, const ReadFlags& flags);

/// PMD to `target`: "pmd" (read + write: identical bytes for an unmodified file) or "pmx"
/// (model::pmd_to_pmx, written as PMX 2.0 UTF-16). Reader warnings and conversion warnings
/// (repaired indices, dropped second IK chains) go to `warnings`. Other targets: unsupported.
Result<std::vector<std::uint8_t>> convert_pmd(ByteSpan bytes, std::string_view target, const ReadFlags& flags,
                                              std::vector<Warning>& warnings);

/// A synthetic humanoid PMD (pmd::generate): flags.seed, flags.vertices (≤ 65535), flags.morphs.
/// flags.bones must be 0 (the humanoid set) or 29; others are invalid_argument.
Result<std::vector<std::uint8_t>> generate_pmd(const GenerateFlags& flags);

/// A file written beside a generated model.
struct CompanionFile {
  std::string path;                 ///< relative to the model's folder ('/' separators, no "..")
  std::vector<std::uint8_t> bytes;  ///< the whole file
};

/// The files a model generated as `format` ("pmd", "pmx") refers to: its textures
/// (pmd::generate_textures, pmx::generate_textures); none for other formats. `generate` writes
/// them beside the model, under the same --force rule.
Result<std::vector<CompanionFile>> generated_companions(std::string_view format);

/// Warnings for a model written to another folder than its input's (`convert a/m.pmd b/m.pmx`):
/// texture references (texture, sphere, toon; MMD's shared toon01..10.bmp excepted) of the
/// written model `output_bytes` (PMD or PMX) that do not resolve from `output_folder`, one per
/// distinct reference (case-insensitive), code texture_missing (texture_escapes for a reference
/// leaving the folder), section "materials", record = first material using it, file empty (the
/// caller names the output). The message says whether the file is found beside the input (copy
/// it, keeping its relative path) or is missing there too. No warnings when both folders are the
/// same folder, or when `output_bytes` is not a model.
std::vector<Warning> texture_warnings_for_output(ByteSpan output_bytes, const std::filesystem::path& input_folder,
                                                 const std::filesystem::path& output_folder);

/// The texture files to copy with `convert --copy-textures` (a model written to another folder):
/// every distinct reference (texture, sphere, toon; MMD's shared toon01..10.bmp excepted) of the
/// written model `output_bytes` (PMD or PMX) found inside `input_folder` (model/textures.hpp),
/// with its bytes, `path` the reference normalised ('/' separators) so that it resolves from the
/// output's folder as written. References missing beside the input or leaving its folder get a
/// warning each (code texture_missing / texture_escapes, section "materials", record = first
/// material using it) and are not copied. None when both folders are the same folder or the bytes
/// are not a model. Errors: io_error reading a texture.
Result<std::vector<CompanionFile>> texture_files_for_output(ByteSpan output_bytes,
                                                            const std::filesystem::path& input_folder,
                                                            const std::filesystem::path& output_folder,
                                                            std::vector<Warning>& warnings);

/// The `info` line of a model's faces, the same for PMD and PMX: "face indices: N (T triangles)"
/// where N is the stored index count (the length of the JSON dump's "indices" / "faces" array)
/// and T = N / 3. `info --json` gives both as "face_indices" and "triangles".
std::string face_line(std::uint64_t face_indices);

}  // namespace mmdkit::formats
