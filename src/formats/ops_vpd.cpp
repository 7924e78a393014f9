// mmdkit format registry — VPD poses: thin wiring of the library (vpd.hpp, vpd_json.hpp) into the generic
// commands (info, dump, convert, generate, check).
#include <cmath>
#include <cstdio>
#include <map>
#include <random>
#include <string>

#include "mmdkit/formats/registry.hpp"
#include "core/json.hpp"
#include "mmdkit/core/number.hpp"
#include "mmdkit/formats/vpd.hpp"
#include "mmdkit/formats/vpd_json.hpp"
#include "core/try.hpp"

namespace mmdkit::formats {
namespace {

vpd::ReadOptions read_options(const ReadFlags& f) { return vpd::ReadOptions{f.encoding}; }

Result<std::string> info(ByteSpan bytes, const ReadFlags& flags, std::vector<Warning>&) {
  MMDKIT_TRY_ASSIGN(auto p, vpd::read(bytes, read_options(flags)));
  const std::string le = p.line_ending == vpd::LineEnding::crlf ? "crlf" : "lf";
  std::size_t moved = 0;
  for (const vpd::Bone& b : p.bones)
    if (b.translation != std::array<float, 3>{0, 0, 0}) ++moved;
  if (flags.json) {
    return "{\n  \"format\": \"vpd\",\n  \"model_file\": " + json::string(p.model_file.text) +
           ",\n  \"encoding\": " + json::string(encoding_name(p.encoding)) + ",\n  \"line_ending\": \"" + le +
           "\",\n  \"file_bytes\": " + std::to_string(bytes.size()) + ",\n  \"bones\": " +
           std::to_string(p.bones.size()) + ",\n  \"translated_bones\": " + std::to_string(moved) +
           ",\n  \"morphs\": " + std::to_string(p.morphs.size()) + "\n}\n";
  }
  std::string out;
  out += "format: vpd (pose)\n";
  out += "model file: " + p.model_file.text + "\n";
  out += "encoding: " + std::string(encoding_name(p.encoding)) + "\n";
  out += "line ending: " + le + "\n";
  out += "file bytes: " + std::to_string(bytes.size()) + "\n";
  out += "bones: " + std::to_string(p.bones.size()) + " (" + std::to_string(moved) + " translated)\n";
  out += "morphs: " + std::to_string(p.morphs.size()) + "\n";
  return out;
}

Result<std::string> to_json(ByteSpan bytes, const ReadFlags& flags, std::vector<Warning>&) {
  MMDKIT_TRY_ASSIGN(auto p, vpd::read(bytes, read_options(flags)));
  vpd::JsonWriteOptions o;
  o.euler = flags.euler;
  return vpd::to_json(p, o);
}

Result<std::vector<std::uint8_t>> from_json(std::string_view json, const ReadFlags&) {
  MMDKIT_TRY_ASSIGN(auto p, vpd::from_json(json));
  return vpd::write(p);
}

Result<std::vector<std::uint8_t>> convert(ByteSpan bytes, std::string_view target, const ReadFlags& flags,
                                          std::vector<Warning>&) {
  if (target != "vpd") {
    std::string why = converts_only_to(kVpdOutput, target);
    if (target == "vmd") why += "; 'mmdkit motion vpd IN.vpd -o OUT.vmd' makes a one-key motion of a pose";
    return make_error(ErrorCode::unsupported, why);
  }
  MMDKIT_TRY_ASSIGN(auto p, vpd::read(bytes, read_options(flags)));
  return vpd::write(p);
}

Result<std::vector<std::uint8_t>> generate(const GenerateFlags& f) {
  static const char* const kNames[] = {"センター", "上半身", "上半身2", "下半身", "首",     "頭",
                                       "左肩",     "左腕",   "左ひじ",  "左手首", "右肩",   "右腕",
                                       "右ひじ",   "右手首", "左足",    "左ひざ", "左足首", "右足",
                                       "右ひざ",   "右足首"};
  static const char* const kMorphs[] = {"まばたき", "笑い", "あ", "い", "う", "え", "お", "にやり"};
  constexpr std::uint64_t kMax = 100000;
  const std::uint64_t nb = f.bones == 0 ? std::size(kNames) : f.bones;
  if (nb > kMax || f.morphs > kMax) return make_error(ErrorCode::limit_exceeded, "VPD generate: at most 100000 bones / morphs");
  std::mt19937_64 rng(f.seed);
  std::uniform_real_distribution<float> angle(-0.5f, 0.5f), offset(-1.0f, 1.0f);
  vpd::Pose p;
  p.model_file.text = "generated.pmx";
  for (std::uint64_t i = 0; i < nb; ++i) {
    vpd::Bone b;
    b.name.text = i < std::size(kNames) ? kNames[i] : "bone" + std::to_string(i);
    if (i == 0) b.translation = {offset(rng), offset(rng), offset(rng)};
    // A rotation of up to ±0.5 rad about a random axis, unit length.
    float ax = offset(rng), ay = offset(rng), az = offset(rng);
    const float len = std::sqrt(ax * ax + ay * ay + az * az);
    if (len > 1e-6f) ax /= len, ay /= len, az /= len; else ax = 1, ay = 0, az = 0;
    const float h = angle(rng) / 2;
    b.rotation = {ax * std::sin(h), ay * std::sin(h), az * std::sin(h), std::cos(h)};
    p.bones.push_back(std::move(b));
  }
  for (std::uint64_t i = 0; i < f.morphs; ++i) {
    vpd::Morph m;
    m.name.text = i < std::size(kMorphs) ? kMorphs[i] : "morph" + std::to_string(i);
    m.weight = static_cast<float>(i % 5) / 4.0f;
    p.morphs.push_back(std::move(m));
  }
  return vpd::write(p);
}

Result<std::vector<Finding>> check(ByteSpan bytes, const ReadFlags& flags) {
  MMDKIT_TRY_ASSIGN(auto p, vpd::read(bytes, read_options(flags)));
  std::vector<Finding> out;
  auto add = [&](bool error, std::string section, std::size_t record, std::string message) {
    out.push_back(Finding{error, Error{ErrorCode::invalid_value, std::move(message),
                                       std::move(section), static_cast<std::int64_t>(record), -1, {}}});
  };
  std::map<std::vector<std::uint8_t>, std::size_t> seen;
  for (std::size_t i = 0; i < p.bones.size(); ++i) {
    const vpd::Bone& b = p.bones[i];
    bool finite = true;
    for (float v : b.translation) finite = finite && std::isfinite(v);
    for (float v : b.rotation) finite = finite && std::isfinite(v);
    if (!finite) {
      add(true, "bones", i, "bone '" + b.name.text + "' has a non-finite number");
      continue;
    }
    double len2 = 0;
    for (float v : b.rotation) len2 += static_cast<double>(v) * static_cast<double>(v);
    const double len = std::sqrt(len2);
    if (len == 0)
      add(false, "bones", i, "bone '" + b.name.text + "' has an all-zero quaternion (evaluated as no rotation)");
    else if (std::fabs(len - 1.0) > 1e-3)
      add(false, "bones", i, "bone '" + b.name.text + "' quaternion length " + std::to_string(len) + " (normalized when evaluated)");
    if (auto [it, inserted] = seen.emplace(b.name.raw, i); !inserted)
      add(false, "bones", i, "bone '" + b.name.text + "' also posed by block " + std::to_string(it->second) + " (the later one wins)");
    if (!b.layout.index.empty() && b.layout.index != std::to_string(i))
      add(false, "bones", i, "block is numbered Bone" + b.layout.index + " at position " + std::to_string(i));
    if (count_invalid(b.name.raw, p.encoding) != 0)
      add(false, "bones", i, "bone name is not valid " + std::string(encoding_name(p.encoding)));
  }
  seen.clear();
  for (std::size_t i = 0; i < p.morphs.size(); ++i) {
    const vpd::Morph& m = p.morphs[i];
    if (!std::isfinite(m.weight)) add(true, "morphs", i, "morph '" + m.name.text + "' has a non-finite weight");
    if (auto [it, inserted] = seen.emplace(m.name.raw, i); !inserted)
      add(false, "morphs", i, "morph '" + m.name.text + "' also set by block " + std::to_string(it->second) + " (the later one wins)");
    if (!m.layout.index.empty() && m.layout.index != std::to_string(i))
      add(false, "morphs", i, "block is numbered Morph" + m.layout.index + " at position " + std::to_string(i));
  }
  return out;
}

}  // namespace

const FormatOps& vpd_ops() {
  static const FormatOps ops{.name = "vpd", .extension = ".vpd", .info = info, .to_json = to_json,
                             .from_json = from_json, .convert = convert, .generate = generate, .check = check};
  return ops;
}

}  // namespace mmdkit::formats
