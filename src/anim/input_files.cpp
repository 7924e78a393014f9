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

namespace mmdkit::anim {

std::string_view file_format_name(FileFormat f) noexcept {
  switch (f) {
    case FileFormat::vmd: return "vmd";
    case FileFormat::vpd: return "vpd";
    case FileFormat::pmd: return "pmd";
    case FileFormat::pmx: return "pmx";
    case FileFormat::unknown: break;
  }
  return "unknown";
}

namespace {

// `bytes` start with the first min(size, sig.size()) bytes of `sig`, and hold at least `min` bytes.
bool starts_like(ByteSpan bytes, std::string_view sig, std::size_t min) {
  if (bytes.size() < min) return false;
  const std::size_t n = std::min(bytes.size(), sig.size());
  return std::memcmp(bytes.data(), sig.data(), n) == 0;
}

FileFormat binary_format(ByteSpan b) {
  if (b.size() >= 4 && std::memcmp(b.data(), "PMX ", 4) == 0) return FileFormat::pmx;
  if (b.size() >= 3 && std::memcmp(b.data(), "Pmd", 3) == 0) {
    if (b.size() < 7) return FileFormat::pmd;  // cut inside the version: the reader says so
    float version;
    std::memcpy(&version, b.data() + 3, 4);
    if (std::isfinite(version) && version > 0.0f && version < 100.0f) return FileFormat::pmd;
    return FileFormat::unknown;
  }
  // "Vocaloid " starts both VMD and VPD; 10 bytes tell them apart.
  for (vmd::Version v : {vmd::Version::v2, vmd::Version::v1})
    if (starts_like(b, vmd::signature_text(v).substr(0, std::min<std::size_t>(25, vmd::signature_text(v).size())), 10))
      return FileFormat::vmd;
  if (starts_like(b, vpd::kSignature, 10)) return FileFormat::vpd;
  return FileFormat::unknown;
}

FileFormat json_format(ByteSpan b) {
  std::size_t i = 0;
  if (b.size() >= 3 && b[0] == 0xEF && b[1] == 0xBB && b[2] == 0xBF) i = 3;  // UTF-8 BOM
  while (i < b.size() && (b[i] == ' ' || b[i] == '\t' || b[i] == '\r' || b[i] == '\n')) ++i;
  if (i >= b.size() || b[i] != '{') return FileFormat::unknown;
  const std::string_view head(reinterpret_cast<const char*>(b.data()), std::min<std::size_t>(b.size(), 4096));
  for (std::size_t at = head.find("\"format\""); at != std::string_view::npos;
       at = head.find("\"format\"", at + 1)) {
    std::size_t k = at + 8;
    auto skip = [&] {
      while (k < head.size() && (head[k] == ' ' || head[k] == '\t' || head[k] == '\r' || head[k] == '\n')) ++k;
    };
    skip();
    if (k >= head.size() || head[k] != ':') continue;
    ++k;
    skip();
    if (k >= head.size() || head[k] != '"') continue;
    const std::size_t end = head.find('"', k + 1);
    if (end == std::string_view::npos) break;
    std::string name(head.substr(k + 1, end - k - 1));
    for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    for (FileFormat f : {FileFormat::vmd, FileFormat::vpd, FileFormat::pmd, FileFormat::pmx})
      if (file_format_name(f) == name) return f;
    return FileFormat::unknown;
  }
  return FileFormat::unknown;
}

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

DetectedFormat detect_format(ByteSpan bytes) noexcept {
  if (FileFormat f = binary_format(bytes); f != FileFormat::unknown) return {f, false};
  if (FileFormat f = json_format(bytes); f != FileFormat::unknown) return {f, true};
  return {};
}

Result<model::Model> read_model(ByteSpan bytes, const InputOptions& o, std::vector<Warning>& warnings) {
  const DetectedFormat d = detect_format(bytes);
  if (d.format == FileFormat::pmx || d.format == FileFormat::pmd) {
    const model::BuildOptions build{.geometry = o.geometry};
    if (!d.json && d.format == FileFormat::pmx) {
      auto r = pmx::read(bytes, pmx::ReadOptions{.strict = false, .skip_geometry = !o.geometry});
      if (!r) return std::unexpected(r.error());
      warnings.insert(warnings.end(), r->warnings.begin(), r->warnings.end());
      return model::from_pmx(r->model, build);
    }
    if (!d.json) {
      auto r = pmd::read(bytes, pmd::ReadOptions{.encoding = o.encoding, .strict = false});
      if (!r) return std::unexpected(r.error());
      warnings.insert(warnings.end(), r->warnings.begin(), r->warnings.end());
      return model::from_pmd(r->model, build);
    }
    if (d.format == FileFormat::pmx) {
      auto p = pmx::from_json(as_text(bytes));
      if (!p) return std::unexpected(p.error());
      return model::from_pmx(*p, build);
    }
    auto p = pmd::from_json(as_text(bytes));
    if (!p) return std::unexpected(p.error());
    return model::from_pmd(*p, build);
  }
  if (bytes.empty()) return make_error(ErrorCode::empty_input, "no bytes to read a model from", "header", -1, 0);
  return not_a(d, "a PMD or PMX model");
}

Result<MotionFile> read_motion(ByteSpan bytes, const InputOptions& o, std::vector<Warning>& warnings) {
  const DetectedFormat d = detect_format(bytes);
  MotionFile out;
  if (d.format == FileFormat::vmd) {
    if (d.json) {
      auto m = vmd::from_json(as_text(bytes));
      if (!m) return std::unexpected(m.error());
      out.motion = std::move(*m);
    } else {
      auto r = vmd::read(bytes, vmd::ReadOptions{.encoding = o.encoding, .strict = false});
      if (!r) return std::unexpected(r.error());
      warnings.insert(warnings.end(), r->warnings.begin(), r->warnings.end());
      out.motion = std::move(r->motion);
    }
    return out;
  }
  if (d.format == FileFormat::vpd) {
    auto p = d.json ? vpd::from_json(as_text(bytes)) : vpd::read(bytes, vpd::ReadOptions{.encoding = o.encoding});
    if (!p) return std::unexpected(p.error());
    out.pose = std::move(*p);
    return out;
  }
  if (bytes.empty()) return make_error(ErrorCode::empty_input, "no bytes to read a motion or pose from", "header", -1, 0);
  return not_a(d, "a VMD motion or VPD pose");
}

Result<model::Model> read_model_file(const std::filesystem::path& path, const InputOptions& o,
                                     std::vector<Warning>& warnings) {
  auto bytes = read_file(path);
  if (!bytes) return with_file<model::Model>(std::unexpected(bytes.error()), path);
  const std::size_t from = warnings.size();
  auto m = with_file(read_model(*bytes, o, warnings), path);
  name_file(warnings, from, path);
  return m;
}

Result<MotionFile> read_motion_file(const std::filesystem::path& path, const InputOptions& o,
                                    std::vector<Warning>& warnings) {
  auto bytes = read_file(path);
  if (!bytes) return with_file<MotionFile>(std::unexpected(bytes.error()), path);
  const std::size_t from = warnings.size();
  auto m = with_file(read_motion(*bytes, o, warnings), path);
  name_file(warnings, from, path);
  return m;
}

Result<LoadedCharacter> load_character(const std::filesystem::path& model_path,
                                       std::span<const std::filesystem::path> motion_paths, const InputOptions& o) {
  LoadedCharacter out;
  auto view = read_model_file(model_path, o, out.warnings);
  if (!view) return std::unexpected(view.error());
  std::vector<std::optional<vmd::Motion>> motions;  // one per path (the pose's place empty)
  std::optional<vpd::Pose> pose;
  std::size_t pose_input = 0;
  for (const std::filesystem::path& p : motion_paths) {
    auto f = read_motion_file(p, o, out.warnings);
    if (!f) return std::unexpected(f.error());
    if (f->pose) {
      if (pose) {
        Error e{ErrorCode::invalid_argument, "a second VPD pose: at most one pose can be applied", "inputs", -1, -1,
                p.string()};
        return std::unexpected(std::move(e));
      }
      pose = std::move(f->pose);
      pose_input = motions.size();
      motions.emplace_back();
    } else {
      motions.push_back(std::move(f->motion));
    }
  }
  MotionInputs in;
  for (const auto& m : motions) in.motions.push_back(m ? &*m : nullptr);
  in.pose = pose ? &*pose : nullptr;
  in.pose_input = pose_input;
  auto data = CharacterData::create(std::make_shared<const model::Model>(std::move(*view)), in);
  if (!data) return with_file<LoadedCharacter>(std::unexpected(data.error()), model_path);
  out.data = std::move(*data);
  return out;
}

}  // namespace mmdkit::anim
