// mmdkit — reading what a character is made of from files: a model (PMD or PMX) and motions (VMD
// motions, VPD poses), each given as the binary file or as mmdkit's lossless JSON of it, told
// apart by CONTENT (never by the file name), then bound into a CharacterData (character.hpp).
// The CLI's `pose` and `sample` and every later command (render, bake, export, Python) load
// through here, so one file is accepted or refused the same way everywhere.
//
// Detection: mmdkit::detect_format (core/file_format.hpp, the one rule; binary signatures, else
// mmdkit's JSON by its "format" member).
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "mmdkit/anim/character.hpp"
#include "mmdkit/core/bytes.hpp"
#include "mmdkit/core/error.hpp"
#include "mmdkit/core/file_format.hpp"
#include "mmdkit/core/text.hpp"
#include "mmdkit/formats/vmd.hpp"
#include "mmdkit/formats/vpd.hpp"
#include "mmdkit/model/model.hpp"

namespace mmdkit::anim {

/// Options of the readers below.
struct InputOptions {
  /// Force the legacy text encoding of PMD / VMD / VPD names (nullopt = detect per file).
  std::optional<Encoding> encoding;
  /// Keep the model's geometry (vertices, faces; needed to skin). False: a geometry-free view
  /// (model::LoadOptions::geometry), much faster for bones and morph weights only.
  bool geometry = true;
};

/// A model view from bytes: PMD or PMX, binary or JSON (model::from_pmd / from_pmx). Reader
/// warnings (trailing bytes, ...) are appended to `warnings`; the view's findings are its own.
/// Errors: bad_signature (section "header") when the bytes are not a model (a VMD or VPD is named
/// as such), the reader's or JSON parser's error otherwise.
Result<model::Model> read_model(ByteSpan bytes, const InputOptions& options, std::vector<Warning>& warnings);

/// One motion input: exactly one of the two is set.
struct MotionFile {
  std::optional<vmd::Motion> motion;
  std::optional<vpd::Pose> pose;
};

/// A VMD motion or a VPD pose from bytes, binary or JSON. Errors: bad_signature when the bytes
/// are neither (a model is named as such), the reader's otherwise.
Result<MotionFile> read_motion(ByteSpan bytes, const InputOptions& options, std::vector<Warning>& warnings);

/// The file forms: read the file, then as above. Errors and warnings carry the path in
/// Error::file / Warning::file.
Result<model::Model> read_model_file(const std::filesystem::path& path, const InputOptions& options,
                                     std::vector<Warning>& warnings);
Result<MotionFile> read_motion_file(const std::filesystem::path& path, const InputOptions& options,
                                    std::vector<Warning>& warnings);

/// A character loaded from files.
struct LoadedCharacter {
  /// BindingReport input numbers are indices into the motion paths given to load_character.
  std::shared_ptr<const CharacterData> data;
  std::vector<Warning> warnings;  ///< readers' warnings, each with its file
};

/// Reads the model and the motion files (VMDs in order, merged; at most one VPD anywhere in the
/// list, applied over them) and binds them (CharacterData::create). Each file's bytes are dropped
/// once parsed and the parsed motions once bound: what stays is the model and the bound tracks.
/// Errors: invalid_argument (section "inputs") for a second VPD pose; every reader error with its
/// file; CharacterData::create's errors with the model's path.
Result<LoadedCharacter> load_character(const std::filesystem::path& model,
                                       std::span<const std::filesystem::path> motions, const InputOptions& options);

/// The same with the model already read (read_model_file): many motions on one model pay its
/// parse once (`sample --each`). `model_path` names the model in CharacterData::create's errors.
/// The result is the same as load_character(model_path, motions, options) gives.
Result<LoadedCharacter> load_character(std::shared_ptr<const model::Model> model, const std::filesystem::path& model_path,
                                       std::span<const std::filesystem::path> motions, const InputOptions& options);

}  // namespace mmdkit::anim
