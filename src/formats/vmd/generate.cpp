// Synthetic VMD motions (see vmd_generate.hpp): splitmix64, standard MMD names, canonical blocks.
#include "mmdkit/formats/vmd_generate.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <numbers>
#include <string_view>
#include <vector>

namespace mmdkit::vmd {
namespace {

class SplitMix64 {
 public:
  explicit SplitMix64(std::uint64_t seed) : s_(seed) {}
  std::uint64_t next() noexcept {
    std::uint64_t z = (s_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  /// Uniform in [0, 1) with 24 bits (exact in binary32).
  float unit() noexcept { return static_cast<float>(next() >> 40) * (1.0f / 16777216.0f); }
  float range(float lo, float hi) noexcept { return lo + (hi - lo) * unit(); }
  /// Uniform integer in [0, n) (n > 0); the tiny modulo bias is irrelevant here.
  std::uint32_t below(std::uint32_t n) noexcept { return static_cast<std::uint32_t>(next() % n); }

 private:
  std::uint64_t s_;
};

constexpr std::string_view kBoneNames[] = {
    "センター", "全ての親", "グルーブ", "下半身",   "上半身",   "上半身2",  "首",       "頭",
    "両目",     "左目",     "右目",     "左肩",     "左腕",     "左ひじ",   "左手首",   "右肩",
    "右腕",     "右ひじ",   "右手首",   "左足",     "左ひざ",   "左足首",   "右足",     "右ひざ",
    "右足首",   "左足ＩＫ", "右足ＩＫ", "左つま先ＩＫ", "右つま先ＩＫ", "腰", "左親指１", "右親指１"};
constexpr std::string_view kMorphNames[] = {"あ",   "い",     "う",       "え",     "お",   "まばたき",
                                            "笑い", "ウィンク", "ウィンク右", "にやり", "困る", "怒り",
                                            "真面目", "びっくり", "じと目", "なごみ"};
constexpr std::string_view kIkNames[] = {"左足ＩＫ", "右足ＩＫ", "左つま先ＩＫ", "右つま先ＩＫ"};

bool movable(std::string_view name) {
  return name == "センター" || name == "全ての親" || name == "グルーブ" || name.find("ＩＫ") != std::string_view::npos;
}

// BoneStyle::dance: how far one bone turns and moves (vmd_generate.hpp lists the ranges).
struct DanceRange {
  float degrees = 20;        // rotation angle in [-degrees, degrees] about the track's axis
  bool yaw_only = false;     // the axis is +Y (the root, センター, グルーブ, leg IK)
  std::array<float, 3> lo{}, hi{};  // position (MMD units), per axis
};

DanceRange dance_range(std::string_view n, bool leg_ik) {
  auto has = [&](std::string_view part) { return n.find(part) != std::string_view::npos; };
  DanceRange r;
  if (n == "全ての親") {
    r.degrees = 30, r.yaw_only = true;
  } else if (n == "センター") {
    // Down by up to 1 unit (knees bend: the leg IK keeps the feet on their keys) or, with no leg
    // IK to hold the feet, only up.
    r.degrees = 20, r.yaw_only = true;
    r.lo = {-2, leg_ik ? -1.0f : 0.0f, -2}, r.hi = {2, leg_ik ? 0.5f : 1.0f, 2};
  } else if (n == "グルーブ") {
    r.degrees = 10, r.yaw_only = true;
    r.lo = {0, leg_ik ? -0.5f : 0.0f, 0}, r.hi = {0, 0.5f, 0};
  } else if (has("つま先ＩＫ")) {
    r.degrees = 0;
    r.lo = {-0.3f, 0, -0.3f}, r.hi = {0.3f, 0.3f, 0.3f};
  } else if (has("足ＩＫ")) {
    r.degrees = 15, r.yaw_only = true;  // a tilt would swing the toe (its つま先ＩＫ child) under the floor
    r.lo = {-0.5f, 0, -1}, r.hi = {0.5f, 1.5f, 1};
  } else if (has("ＩＫ")) {
    r.degrees = 15;
    r.lo = {-1, -1, -1}, r.hi = {1, 1, 1};
  } else if (has("頭")) {
    r.degrees = 30;
  } else if (has("目") || has("腰")) {
    r.degrees = 10;
  } else if (has("肩")) {
    r.degrees = 15;
  } else if (has("捩") || has("手首") || has("指")) {
    r.degrees = 30;
  } else if (has("腕") || has("ひじ")) {
    r.degrees = 60;
  }  // else 20: 上半身, 上半身2, 下半身, 首, the legs (turned by the IK), hair, skirt, others
  return r;
}

// A uniform direction (x, y, z).
std::array<float, 3> random_axis(SplitMix64& rng) {
  for (;;) {
    double v[3];
    double n2 = 0;
    for (double& c : v) {
      c = static_cast<double>(rng.range(-1.0f, 1.0f));
      n2 += c * c;
    }
    if (n2 < 1e-4 || n2 > 1.0) continue;
    const double inv = 1.0 / std::sqrt(n2);
    return {static_cast<float>(v[0] * inv), static_cast<float>(v[1] * inv), static_cast<float>(v[2] * inv)};
  }
}

template <std::size_t N>
FixedName<N> make_name(std::string_view text, std::size_t field) {
  FixedName<N> n;
  n.text = std::string(text);
  auto enc = encode_text(text, Encoding::cp932);
  n.raw.assign(field, 0);
  if (enc) std::memcpy(n.raw.data(), enc->data(), std::min(field, enc->size()));
  n.text = decode_text(until_nul(n.raw), Encoding::cp932);  // what a reader sees if the field cut it
  return n;
}

Curve random_curve(SplitMix64& rng) {
  return Curve{static_cast<std::uint8_t>(rng.below(128)), static_cast<std::uint8_t>(rng.below(128)),
               static_cast<std::uint8_t>(rng.below(128)), static_cast<std::uint8_t>(rng.below(128))};
}

std::array<float, 4> random_quaternion(SplitMix64& rng) {
  for (;;) {
    double q[4];
    double n2 = 0;
    for (double& c : q) {
      c = static_cast<double>(rng.range(-1.0f, 1.0f));
      n2 += c * c;
    }
    if (n2 < 1e-4 || n2 > 1.0) continue;  // inside the unit ball, away from 0: uniform directions
    const double inv = 1.0 / std::sqrt(n2);
    return {static_cast<float>(q[0] * inv), static_cast<float>(q[1] * inv), static_cast<float>(q[2] * inv),
            static_cast<float>(q[3] * inv)};
  }
}

// Frame of key j of k on a track, strictly increasing from 0 to max(span, k - 1).
std::uint32_t track_frame(std::uint64_t j, std::uint64_t k, std::uint32_t span) {
  if (k <= 1) return 0;
  const std::uint64_t s = std::max<std::uint64_t>(span, k - 1);
  return static_cast<std::uint32_t>(j * s / (k - 1));
}

// Keys of n spread over t tracks: track i gets n / t (+1 for the first n % t).
std::uint64_t keys_on_track(std::uint64_t n, std::uint64_t t, std::uint64_t i) { return n / t + (i < n % t ? 1 : 0); }

// The track names: `given` (those CP932 can hold), or the standard list.
template <std::size_t N>
std::vector<std::string_view> track_names(const std::vector<std::string>& given, const std::string_view (&standard)[N]) {
  if (given.empty()) return {std::begin(standard), std::end(standard)};
  std::vector<std::string_view> out;
  for (const std::string& n : given)
    if (!n.empty() && encode_text(n, Encoding::cp932)) out.push_back(n);
  return out;
}

}  // namespace

Motion generate(const GenerateOptions& o) {
  SplitMix64 rng(o.seed);
  Motion m;
  m.version = o.version;
  m.encoding = Encoding::cp932;
  const std::string_view sig = signature_text(o.version);
  std::memcpy(m.signature.data(), sig.data(), sig.size());
  const std::size_t name_size = o.version == Version::v2 ? kModelNameSizeV2 : kModelNameSizeV1;
  const std::vector<std::string_view> bone_names = track_names(o.bone_names, kBoneNames);
  const std::vector<std::string_view> morph_names = track_names(o.morph_names, kMorphNames);
  const std::uint64_t bone_tracks = std::min<std::uint64_t>(o.bone_keys, bone_names.size());
  const std::uint64_t morph_tracks = std::min<std::uint64_t>(o.morph_keys, morph_names.size());
  const bool camera_only = bone_tracks == 0 && morph_tracks == 0;
  m.model_name = make_name<kModelNameSizeV2>(camera_only ? "カメラ・照明" : "mmdkit generated", name_size);

  // Bone keys, grouped by track.
  for (std::uint64_t t = 0; t < bone_tracks; ++t)
    m.bone_names.push_back(make_name<kTrackNameSize>(bone_names[t], kTrackNameSize));
  m.bone_keys.reserve(o.bone_keys);
  const bool dance = o.bone_style == BoneStyle::dance;
  bool leg_ik = false;
  for (std::string_view n : bone_names) leg_ik = leg_ik || n == "左足ＩＫ" || n == "右足ＩＫ";
  for (std::uint64_t t = 0; t < bone_tracks; ++t) {
    const std::uint64_t k = keys_on_track(o.bone_keys, bone_tracks, t);
    const bool moves = movable(bone_names[t]);
    const DanceRange range = dance ? dance_range(bone_names[t], leg_ik) : DanceRange{};
    const std::array<float, 3> axis = !dance ? std::array<float, 3>{} : range.yaw_only ? std::array<float, 3>{0, 1, 0} : random_axis(rng);
    for (std::uint64_t j = 0; j < k; ++j) {
      BoneKey key;
      key.name = static_cast<std::uint32_t>(t);
      key.frame = track_frame(j, k, o.frames);
      if (dance) {
        if (moves)
          for (std::size_t a = 0; a < 3; ++a) key.position[a] = rng.range(range.lo[a], range.hi[a]);
        const double half = 0.5 * static_cast<double>(rng.range(-range.degrees, range.degrees)) * std::numbers::pi / 180.0;
        const double sh = std::sin(half);
        key.rotation = {static_cast<float>(static_cast<double>(axis[0]) * sh), static_cast<float>(static_cast<double>(axis[1]) * sh),
                        static_cast<float>(static_cast<double>(axis[2]) * sh), static_cast<float>(std::cos(half))};
      } else {
        if (moves)
          for (float& c : key.position) c = rng.range(-10.0f, 10.0f);
        key.rotation = random_quaternion(rng);
      }
      const Curve x = random_curve(rng), y = random_curve(rng), z = random_curve(rng), r = random_curve(rng);
      key.interpolation = encode_bone_interpolation(x, y, z, r);
      m.bone_keys.push_back(key);
    }
  }

  // Morph keys, grouped by track.
  for (std::uint64_t t = 0; t < morph_tracks; ++t)
    m.morph_names.push_back(make_name<kTrackNameSize>(morph_names[t], kTrackNameSize));
  m.morph_keys.reserve(o.morph_keys);
  for (std::uint64_t t = 0; t < morph_tracks; ++t) {
    const std::uint64_t k = keys_on_track(o.morph_keys, morph_tracks, t);
    for (std::uint64_t j = 0; j < k; ++j)
      m.morph_keys.push_back(MorphKey{static_cast<std::uint32_t>(t), track_frame(j, k, o.frames), rng.unit()});
  }

  const float pi = std::numbers::pi_v<float>;
  m.camera_keys.reserve(o.camera_keys);
  for (std::uint64_t j = 0; j < o.camera_keys; ++j) {
    CameraKey c;
    c.frame = track_frame(j, o.camera_keys, o.frames);
    c.distance = rng.range(-100.0f, -10.0f);
    for (float& v : c.target) v = rng.range(-10.0f, 10.0f);
    for (float& v : c.rotation) v = rng.range(-pi, pi);
    CameraInterpolation ci{random_curve(rng), random_curve(rng), random_curve(rng),
                           random_curve(rng), random_curve(rng), random_curve(rng)};
    c.interpolation = encode_camera_interpolation(ci);
    c.view_angle = 10 + rng.below(51);
    c.perspective = 0;
    m.camera_keys.push_back(c);
  }
  m.light_keys.reserve(o.light_keys);
  for (std::uint64_t j = 0; j < o.light_keys; ++j) {
    LightKey l;
    l.frame = track_frame(j, o.light_keys, o.frames);
    for (float& v : l.color) v = static_cast<float>(rng.below(256)) / 256.0f;
    auto q = random_quaternion(rng);  // a unit 4-vector; its first three components, renormalized
    double n2 = 0;
    for (std::size_t i = 0; i < 3; ++i) n2 += static_cast<double>(q[i]) * static_cast<double>(q[i]);
    const double n = std::sqrt(n2);
    for (std::size_t i = 0; i < 3; ++i)
      l.direction[i] = n > 1e-6 ? static_cast<float>(static_cast<double>(q[i]) / n) : (i == 1 ? -1.0f : 0.0f);
    m.light_keys.push_back(l);
  }
  m.self_shadow_keys.reserve(o.self_shadow_keys);
  for (std::uint64_t j = 0; j < o.self_shadow_keys; ++j) {
    SelfShadowKey s;
    s.frame = track_frame(j, o.self_shadow_keys, o.frames);
    s.mode = static_cast<std::uint8_t>(rng.below(3));
    s.distance = static_cast<float>((10000.0 - rng.below(10001)) / 100000.0);
    m.self_shadow_keys.push_back(s);
  }
  m.property_keys.reserve(o.property_keys);
  for (std::uint64_t j = 0; j < o.property_keys; ++j) {
    PropertyKey p;
    p.frame = track_frame(j, o.property_keys, o.frames);
    p.visible = static_cast<std::uint8_t>(rng.below(2));
    for (std::string_view ik : kIkNames)
      p.ik.push_back(IkState{make_name<kIkNameSize>(ik, kIkNameSize), static_cast<std::uint8_t>(rng.below(2))});
    m.property_keys.push_back(std::move(p));
  }

  int sections = std::clamp(o.sections_present, 2, kSectionCount);
  if (o.camera_keys) sections = std::max(sections, 3);
  if (o.light_keys) sections = std::max(sections, 4);
  if (o.self_shadow_keys) sections = std::max(sections, 5);
  if (o.property_keys) sections = std::max(sections, 6);
  m.sections_present = sections;
  return m;
}

}  // namespace mmdkit::vmd
