// Reading models and motions by content, binary or JSON, into a character (input_files.hpp).
#include "mmdkit/anim/input_files.hpp"

#include <cmath>
#include <cstring>
#include <string>

#include "mmdkit/core/file.hpp"
#include "mmdkit/formats/pmd.hpp"
#include "mmdkit/formats/pmd_json.hpp"
#include "mmdkit/formats/pmx.hpp"
#include "mmdkit/formats/pmx_json.hpp"
#include "mmdkit/formats/vmd_json.hpp"
#include "mmdkit/formats/vpd_json.hpp"
#include "mmdkit/formats/x.hpp"
#include "mmdkit/model/accessory.hpp"
#include "core/try.hpp"

namespace mmdkit::anim {

namespace {

std::string_view as_text(ByteSpan b) { return {reinterpret_cast<const char*>(b.data()), b.size()}; }

std::unexpected<Error> not_a(const DetectedFormat& d, const char* wanted) {
  std::string what = d.format == FileFormat::unknown
                         ? std::string("neither binary nor mmdkit JSON of a known format")
                         : std::string("a ") + std::string(file_format_name(d.format)) + (d.json ? " (JSON)" : "") + " file";
  return make_error(ErrorCode::bad_signature, std::string("not ") + wanted + ": " + what, "header", -1, 0);
}

template <class T>
Result<T> with_file(Result<T> r, const std::filesystem::path& path) {
  if (!r && r.error().file.empty()) r.error().file = path.string();
  return r;
}

void name_file(std::vector<Warning>& warnings, std::size_t from, const std::filesystem::path& path) {
  for (std::size_t i = from; i < warnings.size(); ++i)
    if (warnings[i].file.empty()) warnings[i].file = path.string();
}

}  // namespace


Result<model::Model> read_model(ByteSpan bytes, const InputOptions& o, std::vector<Warning>& warnings) {
  const DetectedFormat d = detect_format(bytes);
  if (d.format == FileFormat::pmx || d.format == FileFormat::pmd) {
    const model::BuildOptions build{.geometry = o.geometry};
    if (!d.json && d.format == FileFormat::pmx) {
      MMDKIT_TRY_ASSIGN(auto r, pmx::read(bytes, pmx::ReadOptions{.strict = false, .skip_geometry = !o.geometry}));
      warnings.insert(warnings.end(), r.warnings.begin(), r.warnings.end());
      return model::from_pmx(r.model, build);
    }
    if (!d.json) {
      MMDKIT_TRY_ASSIGN(auto r, pmd::read(bytes, pmd::ReadOptions{.encoding = o.encoding, .strict = false, .skip_geometry = !o.geometry}));
      warnings.insert(warnings.end(), r.warnings.begin(), r.warnings.end());
      return model::from_pmd(r.model, build);
    }
    if (d.format == FileFormat::pmx) {
      MMDKIT_TRY_ASSIGN(auto p, pmx::from_json(as_text(bytes)));
      return model::from_pmx(p, build);
    }
    MMDKIT_TRY_ASSIGN(auto p, pmd::from_json(as_text(bytes)));
    return model::from_pmd(p, build);
  }
  if (d.format == FileFormat::x && !d.json) {
    // A DirectX .x accessory or stage: MMD's ×10 and accessory shading (model/accessory.hpp).
    MMDKIT_TRY_ASSIGN(auto doc, x::read(bytes));
    warnings.insert(warnings.end(), doc.warnings.begin(), doc.warnings.end());
    return model::from_x(doc);
  }
  if (bytes.empty()) return make_error(ErrorCode::empty_input, "no bytes to read a model from", "header", -1, 0);
  return not_a(d, "a PMD, PMX or .x model");
}

Result<MotionFile> read_motion(ByteSpan bytes, const InputOptions& o, std::vector<Warning>& warnings) {
  const DetectedFormat d = detect_format(bytes);
  MotionFile out;
  if (d.format == FileFormat::vmd) {
    if (d.json) {
      MMDKIT_TRY_ASSIGN(auto m, vmd::from_json(as_text(bytes)));
      out.motion = std::move(m);
    } else {
      MMDKIT_TRY_ASSIGN(auto r, vmd::read(bytes, vmd::ReadOptions{.encoding = o.encoding, .strict = false}));
      warnings.insert(warnings.end(), r.warnings.begin(), r.warnings.end());
      out.motion = std::move(r.motion);
    }
    return out;
  }
  if (d.format == FileFormat::vpd) {
    MMDKIT_TRY_ASSIGN(auto p, d.json ? vpd::from_json(as_text(bytes)) : vpd::read(bytes, vpd::ReadOptions{.encoding = o.encoding}));
    out.pose = std::move(p);
    return out;
  }
  if (bytes.empty()) return make_error(ErrorCode::empty_input, "no bytes to read a motion or pose from", "header", -1, 0);
  return not_a(d, "a VMD motion or VPD pose");
}

Result<model::Model> read_model_file(const std::filesystem::path& path, const InputOptions& o,
                                     std::vector<Warning>& warnings) {
  auto bytes = map_file(path);
  if (!bytes) return with_file<model::Model>(std::unexpected(bytes.error()), path);
  const std::size_t from = warnings.size();
  auto m = with_file(read_model(*bytes, o, warnings), path);
  MMDKIT_TRY(bytes->verify_unchanged(path));
  name_file(warnings, from, path);
  return m;
}

Result<MotionFile> read_motion_file(const std::filesystem::path& path, const InputOptions& o,
                                    std::vector<Warning>& warnings) {
  auto bytes = map_file(path);
  if (!bytes) return with_file<MotionFile>(std::unexpected(bytes.error()), path);
  const std::size_t from = warnings.size();
  auto m = with_file(read_motion(*bytes, o, warnings), path);
  MMDKIT_TRY(bytes->verify_unchanged(path));
  name_file(warnings, from, path);
  return m;
}

Result<LoadedCharacter> load_character(const std::filesystem::path& model_path,
                                       std::span<const std::filesystem::path> motion_paths, const InputOptions& o) {
  std::vector<Warning> warnings;
  MMDKIT_TRY_ASSIGN(auto view, read_model_file(model_path, o, warnings));
  auto loaded = load_character(std::make_shared<const model::Model>(std::move(view)), model_path, motion_paths, o);
  if (loaded) loaded->warnings.insert(loaded->warnings.begin(), warnings.begin(), warnings.end());
  return loaded;
}

Result<LoadedCharacter> load_character(std::shared_ptr<const model::Model> model,
                                       const std::filesystem::path& model_path,
                                       std::span<const std::filesystem::path> motion_paths, const InputOptions& o) {
  LoadedCharacter out;
  std::vector<std::optional<vmd::Motion>> motions;  // one per path (the pose's place empty)
  std::optional<vpd::Pose> pose;
  std::size_t pose_input = 0;
  for (const std::filesystem::path& p : motion_paths) {
    MMDKIT_TRY_ASSIGN(auto f, read_motion_file(p, o, out.warnings));
    if (f.pose) {
      if (pose) {
        Error e{ErrorCode::invalid_argument, "a second VPD pose: at most one pose can be applied", "inputs", -1, -1,
                p.string()};
        return std::unexpected(std::move(e));
      }
      pose = std::move(f.pose);
      pose_input = motions.size();
      motions.emplace_back();
    } else {
      motions.push_back(std::move(f.motion));
    }
  }
  MotionInputs in;
  for (const auto& m : motions) in.motions.push_back(m ? &*m : nullptr);
  in.pose = pose ? &*pose : nullptr;
  in.pose_input = pose_input;
  auto data = CharacterData::create(std::move(model), in);
  if (!data) return with_file<LoadedCharacter>(std::unexpected(data.error()), model_path);
  out.data = std::move(*data);
  return out;
}

}  // namespace mmdkit::anim
