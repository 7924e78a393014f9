// mmdkit — which format a file's bytes are in, by content (never by the file name): the one
// detection rule of every command, loader and the Python module. A new file format adds its
// FileFormat value, its name and its signature here (docs/DEVELOPING.md "A new file format").
//
// Rules (detect_format):
// - binary signatures: "PMX " (PMX); "Pmd" + a plausible version float, finite and in (0, 100)
//   (PMD); "Vocaloid Motion Data 0002" or "Vocaloid Motion Data file" (VMD); "Vocaloid Pose Data
//   file" (VPD); "xof " (DirectX .x: accessories and stages, read-only; formats/x.hpp); "Polygon Movie maker 000" (PMM
//   project, formats/pmm.hpp; 10 bytes as for VMD). A .vac has
//   no signature (commands take it by its extension). The first 10 bytes decide ("Vocaloid " starts both VMD and VPD); a file cut inside
//   its signature still counts as that format, so that its reader names the truncation.
// - else mmdkit's JSON: the first non-space byte (after an optional UTF-8 BOM) is '{' and a
//   "format" member ("vmd", "vpd", "pmd", "pmx", "pmm", any case) appears in the first 4096 bytes
//   (mmdkit's JSON writers put it first).
#pragma once

#include <cstdint>
#include <string_view>

#include "mmdkit/core/bytes.hpp"

namespace mmdkit {

/// The file formats mmdkit reads.
enum class FileFormat : std::uint8_t { unknown, vmd, vpd, pmd, pmx, x, pmm };

/// What detect_format found.
struct DetectedFormat {
  FileFormat format = FileFormat::unknown;
  bool json = false;  ///< mmdkit's JSON of that format
};

/// Lower-case name of a format ("vmd", "vpd", "pmd", "pmx", "x", "pmm"; "unknown").
std::string_view file_format_name(FileFormat format) noexcept;

/// The format of a file's bytes by content (rules in the file comment). Never fails: unknown
/// when nothing matches. Reads at most the first 4096 bytes.
DetectedFormat detect_format(ByteSpan bytes) noexcept;

}  // namespace mmdkit
