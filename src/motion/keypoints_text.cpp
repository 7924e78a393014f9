// mmdkit motion — keypoint arrays from JSON and CSV text, and the file reader by extension
// (motion/keypoints.hpp).
#include <rapidjson/document.h>
#include <rapidjson/error/en.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>
#include <string>

#include "mmdkit/core/file.hpp"
#include "mmdkit/motion/keypoints.hpp"

namespace mmdkit::motion {

Result<Keypoints> read_keypoints_json(std::string_view text) {
  rapidjson::Document doc;
  doc.Parse<rapidjson::kParseNanAndInfFlag>(text.data(), text.size());
  if (doc.HasParseError()) {
    const std::size_t off = doc.GetErrorOffset();
    Error e{ErrorCode::json_syntax, rapidjson::GetParseError_En(doc.GetParseError()), {}, -1, static_cast<std::int64_t>(off), {}};
    e.line = 1 + std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(std::min(off, text.size())), '\n');
    return std::unexpected(std::move(e));
  }
  const rapidjson::Value* frames = &doc;
  if (doc.IsObject()) {
    frames = nullptr;
    for (const char* key : {"frames", "keypoints"})
      if (doc.HasMember(key)) frames = &doc[key];
    if (!frames) return make_error(ErrorCode::json_schema, "an object without \"frames\" or \"keypoints\"");
  }
  if (!frames->IsArray()) return make_error(ErrorCode::json_schema, "the frames are not an array");
  const rapidjson::SizeType F = frames->Size();
  Keypoints k;
  k.frames = F;
  bool conf = false;
  for (rapidjson::SizeType f = 0; f < F; ++f) {
    const rapidjson::Value& fr = (*frames)[f];
    if (!fr.IsArray()) return make_error(ErrorCode::json_schema, "frame " + std::to_string(f) + " is not an array of joints");
    if (f == 0) k.joints = fr.Size();
    if (fr.Size() != k.joints)
      return make_error(ErrorCode::json_schema, "frame " + std::to_string(f) + " has " + std::to_string(fr.Size()) +
                                                    " joints, frame 0 has " + std::to_string(k.joints));
    if (std::uint64_t{F} * k.joints * 4 > kKeypointsMaxValues) return make_error(ErrorCode::limit_exceeded, "too many values");
    for (rapidjson::SizeType j = 0; j < fr.Size(); ++j) {
      const rapidjson::Value& p = fr[j];
      const std::string where = "frame " + std::to_string(f) + ", joint " + std::to_string(j);
      if (p.IsNull()) {
        for (int c = 0; c < 3; ++c) k.positions.push_back(std::numeric_limits<float>::quiet_NaN());
        k.confidence.push_back(0.0f);
        continue;
      }
      if (!p.IsArray() || (p.Size() != 3 && p.Size() != 4))
        return make_error(ErrorCode::json_schema,
                          where + ": " + (p.IsArray() ? std::to_string(p.Size()) + " numbers" : std::string("not an array")) +
                              ", expected [x, y, z] or [x, y, z, confidence]");
      for (rapidjson::SizeType c = 0; c < p.Size(); ++c)
        if (!p[c].IsNumber() && !p[c].IsNull())
          return make_error(ErrorCode::json_schema, where + ", value " + std::to_string(c) + ": not a number");
      auto num = [&](rapidjson::SizeType c) {
        return p[c].IsNull() ? std::numeric_limits<float>::quiet_NaN() : static_cast<float>(p[c].GetDouble());
      };
      for (rapidjson::SizeType c = 0; c < 3; ++c) k.positions.push_back(num(c));
      conf |= p.Size() == 4;
      k.confidence.push_back(p.Size() == 4 ? num(3) : 1.0f);
    }
  }
  if (!conf) {
    // nulls still count as missing: keep their zero confidence
    bool any_null = std::any_of(k.confidence.begin(), k.confidence.end(), [](float c) { return c == 0.0f; });
    if (!any_null) k.confidence.clear();
  }
  return k;
}

Result<Keypoints> read_keypoints_csv(std::string_view text, int channels) {
  if (channels != 3 && channels != 4) return make_error(ErrorCode::invalid_argument, "CSV channels must be 3 or 4");
  Keypoints k;
  std::int64_t line = 0;
  std::size_t p = 0, per_frame = 0;
  bool first = true;
  auto fail = [&](std::string m, std::int64_t column) {
    Error e{ErrorCode::invalid_value, std::move(m), "csv", -1, -1, {}};
    e.line = line;
    e.column = column;
    return std::unexpected(std::move(e));
  };
  while (p < text.size()) {
    ++line;
    std::size_t e = std::min(text.find('\n', p), text.size());
    std::string_view ln = text.substr(p, e - p);
    p = e + 1;
    if (!ln.empty() && ln.back() == '\r') ln.remove_suffix(1);
    if (ln.find_first_not_of(" \t") == std::string_view::npos) continue;
    std::vector<float> row;
    bool numeric = true;
    std::size_t q = 0;
    std::int64_t bad_col = -1;
    std::string bad;
    for (;;) {
      std::size_t c = std::min(ln.find(',', q), ln.size());
      std::string_view cell = ln.substr(q, c - q);
      while (!cell.empty() && (cell.front() == ' ' || cell.front() == '\t')) cell.remove_prefix(1);
      while (!cell.empty() && (cell.back() == ' ' || cell.back() == '\t')) cell.remove_suffix(1);
      if (cell.empty() || cell == "nan" || cell == "NaN" || cell == "NAN") {
        row.push_back(std::numeric_limits<float>::quiet_NaN());
      } else {
        if (cell.front() == '+') cell.remove_prefix(1);
        float v = 0;
        auto [ptr, ec] = std::from_chars(cell.data(), cell.data() + cell.size(), v);
        if (ec != std::errc{} || ptr != cell.data() + cell.size() || !std::isfinite(v)) {
          if (numeric) bad_col = static_cast<std::int64_t>(q + 1), bad = std::string(cell.substr(0, 30));
          numeric = false;
        }
        row.push_back(v);
      }
      if (c >= ln.size()) break;
      q = c + 1;
    }
    if (!numeric) {
      if (first) {  // a header line
        first = false;
        continue;
      }
      return fail("not a number: '" + bad + "'", bad_col);
    }
    first = false;
    if (per_frame == 0) {
      per_frame = row.size();
      if (per_frame % static_cast<std::size_t>(channels) != 0)
        return fail(std::to_string(per_frame) + " values on a line, not a multiple of " + std::to_string(channels) +
                        " (x, y, z" + (channels == 4 ? ", confidence" : "") + " per joint)",
                    -1);
      k.joints = static_cast<std::uint32_t>(per_frame / static_cast<std::size_t>(channels));
    } else if (row.size() != per_frame) {
      return fail("frame " + std::to_string(k.frames) + " has " + std::to_string(row.size()) + " values, the first frame " +
                      std::to_string(per_frame),
                  -1);
    }
    if ((std::uint64_t{k.frames} + 1) * per_frame > kKeypointsMaxValues) return fail("too many values", -1);
    for (std::size_t j = 0; j < k.joints; ++j) {
      for (int c = 0; c < 3; ++c) k.positions.push_back(row[j * static_cast<std::size_t>(channels) + static_cast<std::size_t>(c)]);
      if (channels == 4) k.confidence.push_back(row[j * 4 + 3]);
    }
    ++k.frames;
  }
  if (k.frames == 0) return make_error(ErrorCode::empty_input, "no frame lines", "csv");
  return k;
}

Result<Keypoints> read_keypoints_file(const std::filesystem::path& path, int csv_channels) {
  auto bytes = read_file(path);
  if (!bytes) return std::unexpected(bytes.error());
  std::string ext = path.extension().string();
  for (char& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  Result<Keypoints> r = make_error(ErrorCode::unsupported, "keypoints are read from .npy, .npz, .json or .csv, not '" + ext + "'");
  const std::string_view text(reinterpret_cast<const char*>(bytes->data()), bytes->size());
  if (ext == ".npy") r = read_keypoints_npy(*bytes);
  else if (ext == ".npz") r = read_keypoints_npz(*bytes);
  else if (ext == ".json") r = read_keypoints_json(text);
  else if (ext == ".csv") r = read_keypoints_csv(text, csv_channels);
  if (!r) {
    Error e = r.error();
    e.file = path.string();
    return std::unexpected(std::move(e));
  }
  return r;
}

}  // namespace mmdkit::motion
