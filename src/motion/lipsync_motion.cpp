// Mouth morphs of a model and the VMD keying them (motion/lipsync.hpp find_mouth_morphs,
// parse_mouth_map, lipsync_motion).
#include <algorithm>
#include <cctype>
#include <cmath>
#include <string>

#include "mmdkit/core/text.hpp"
#include "mmdkit/motion/lipsync.hpp"
#include "mmdkit/motion/reduce.hpp"

namespace mmdkit::motion {

namespace {

std::string lower(std::string_view s) {
  std::string r;
  for (char c : s) r.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
  return r;
}

constexpr const char* kKana[5] = {"あ", "い", "う", "え", "お"};
constexpr const char* kLatin[5] = {"a", "i", "u", "e", "o"};

vmd::Motion empty_motion(const model::Model& model) {
  vmd::Motion m;
  m.version = vmd::Version::v2;
  const std::string_view sig = vmd::signature_text(vmd::Version::v2);
  std::copy(sig.begin(), sig.end(), m.signature.begin());
  m.encoding = Encoding::cp932;
  if (auto raw = encode_text(model.name, Encoding::cp932); raw) {
    // Cut at a character boundary: decode what fits and keep only whole characters.
    std::size_t n = std::min<std::size_t>(raw->size(), vmd::kModelNameSizeV2);
    while (n > 0 && count_invalid(ByteSpan(raw->data(), n), Encoding::cp932) > 0) --n;
    raw->resize(n);
    m.model_name.raw = *raw;
    m.model_name.text = decode_text(ByteSpan(raw->data(), raw->size()), Encoding::cp932);
  }
  m.sections_present = vmd::kSectionCount;
  return m;
}

// Morph track names for the mapped channels; -1 where a channel is not keyed.
std::array<int, kMouthChannels> add_names(vmd::Motion& m, const model::Model& model, const MouthMorphs& morphs) {
  std::array<int, kMouthChannels> idx;
  idx.fill(-1);
  for (std::size_t c = 0; c < kMouthChannels; ++c) {
    if (!morphs.morph[c] || *morphs.morph[c] >= model.morphs.size()) continue;
    const model::Morph& mo = model.morphs[*morphs.morph[c]];
    // Two channels on one morph key one track.
    for (std::size_t d = 0; d < c; ++d)
      if (idx[d] >= 0 && morphs.morph[d] == morphs.morph[c]) idx[c] = idx[d];
    if (idx[c] >= 0) continue;
    idx[c] = static_cast<int>(m.morph_names.size());
    m.morph_names.emplace_back(mo.binding_key, mo.name);
  }
  return idx;
}

}  // namespace

Result<MouthMorphs> find_mouth_morphs(const model::Model& model) {
  MouthMorphs r;
  bool any = false;
  for (std::size_t v = 0; v < 5; ++v) {
    for (std::size_t k = 0; k < model.morphs.size() && !r.morph[v]; ++k)
      if (model.morphs[k].name == kKana[v]) r.morph[v] = k;
    for (std::size_t k = 0; k < model.morphs.size() && !r.morph[v]; ++k)
      if (lower(model.morphs[k].name) == kLatin[v] || lower(model.morphs[k].name_en) == kLatin[v]) r.morph[v] = k;
    any = any || r.morph[v].has_value();
  }
  if (!any)
    return make_error(ErrorCode::invalid_value,
                      "the model has no vowel morph: looked for morphs named あ い う え お, or a i u e o (Japanese or "
                      "English name); give a map (SHAPE<TAB>MORPH lines) to name them",
                      "morphs");
  return r;
}

Result<MouthMorphs> parse_mouth_map(std::string_view text, const model::Model& model) {
  if (text.starts_with("\xEF\xBB\xBF")) text.remove_prefix(3);
  MouthMorphs r;
  std::int64_t line_no = 0;
  for (std::size_t pos = 0; pos < text.size();) {
    std::size_t nl = text.find('\n', pos);
    if (nl == std::string_view::npos) nl = text.size();
    std::string_view line = text.substr(pos, nl - pos);
    pos = nl + 1;
    ++line_no;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line.empty() || line.front() == '#') continue;
    const std::size_t tab = line.find('\t');
    if (tab == std::string_view::npos)
      return make_error(ErrorCode::invalid_value, "expected SHAPE<TAB>MORPH, got '" + std::string(line) + "'", "map", line_no);
    const std::string shape = lower(line.substr(0, tab));
    const std::string_view morph = line.substr(tab + 1);
    int c = -1;
    for (int v = 0; v < 5; ++v)
      if (shape == kLatin[v] || shape == kKana[v]) c = v;
    if (shape == "closed" || shape == "ん" || shape == "n") c = 5;
    if (c < 0)
      return make_error(ErrorCode::invalid_value, "'" + std::string(line.substr(0, tab)) + "' is not a shape (a i u e o closed, or あ い う え お ん)",
                        "map", line_no);
    if (r.morph[static_cast<std::size_t>(c)])
      return make_error(ErrorCode::invalid_value, "shape '" + shape + "' is mapped twice", "map", line_no);
    std::optional<std::size_t> found;
    for (std::size_t k = 0; k < model.morphs.size() && !found; ++k)
      if (model.morphs[k].name == morph) found = k;
    for (std::size_t k = 0; k < model.morphs.size() && !found; ++k)
      if (model.morphs[k].name_en == morph) found = k;
    if (!found)
      return make_error(ErrorCode::invalid_value, "the model has no morph named '" + std::string(morph) + "'", "map", line_no);
    r.morph[static_cast<std::size_t>(c)] = found;
  }
  if (std::none_of(r.morph.begin(), r.morph.end(), [](const auto& x) { return x.has_value(); }))
    return make_error(ErrorCode::invalid_value, "the map names no morph", "map");
  return r;
}

Result<vmd::Motion> lipsync_motion(const MouthTrack& track, const model::Model& model, const MouthMorphs& morphs,
                                   const LipMotionOptions& options, LipMotionReport* report) {
  if (!(std::isfinite(options.tol_weight) && options.tol_weight >= 0))
    return make_error(ErrorCode::invalid_argument, "tol_weight must be a number >= 0");
  if (!(std::isfinite(track.fps) && track.fps > 0)) return make_error(ErrorCode::invalid_argument, "the track's fps must be > 0");
  vmd::Motion dense = empty_motion(model);
  const auto idx = add_names(dense, model, morphs);
  for (std::size_t c = 0; c < kMouthChannels; ++c) {
    if (idx[c] < 0) continue;
    bool shared = false;  // a second channel on the same morph: summed into the first's keys
    for (std::size_t d = 0; d < c; ++d) shared = shared || idx[d] == idx[c];
    if (shared) continue;
    for (std::size_t g = 0; g < track.frames.size(); ++g) {
      float w = 0;
      for (std::size_t d = c; d < kMouthChannels; ++d)
        if (idx[d] == idx[c]) w += track.frames[g][d];
      dense.morph_keys.push_back({static_cast<std::uint32_t>(idx[c]), static_cast<std::uint32_t>(g), std::min(w, 1.0f)});
    }
  }
  ReduceOptions ro;
  ro.tol_weight = options.tol_weight;
  ReduceReport rr;
  auto out = reduce(dense, ro, &rr);
  if (!out) return out;
  if (report) {
    report->dense_keys = dense.morph_keys.size();
    report->keys = out->morph_keys.size();
    report->max_weight_error = rr.max_weight_error;
  }
  return out;
}

Result<vmd::Motion> lipsync_motion(const ScoreKeys& keys, const model::Model& model, const MouthMorphs& morphs,
                                   LipMotionReport* report) {
  if (!(std::isfinite(keys.fps) && keys.fps > 0)) return make_error(ErrorCode::invalid_argument, "the keys' fps must be > 0");
  vmd::Motion m = empty_motion(model);
  const auto idx = add_names(m, model, morphs);
  // Two channels on one morph (a map giving it twice, --closed-morph naming a vowel's morph): their
  // keys would collide on one track, so the track is their per-frame sum, keyed through reduce with
  // no tolerance (exact on every whole frame).
  for (std::size_t c = 0; c < kMouthChannels; ++c)
    for (std::size_t d = 0; d < c; ++d)
      if (idx[c] >= 0 && idx[c] == idx[d]) {
        LipMotionOptions exact;
        exact.tol_weight = 0;
        return lipsync_motion(score_track(keys), model, morphs, exact, report);
      }
  for (std::size_t c = 0; c < kMouthChannels; ++c) {
    if (idx[c] < 0) continue;
    for (const auto& [f, w] : keys.keys[c]) {
      m.morph_keys.push_back({static_cast<std::uint32_t>(idx[c]), f, w});
    }
  }
  if (report) {
    report->dense_keys = report->keys = m.morph_keys.size();
    report->max_weight_error = 0;
  }
  return m;
}

}  // namespace mmdkit::motion
