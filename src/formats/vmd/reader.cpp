// VMD reading: header, the mandatory bone and morph sections, the optional camera, light,
// self-shadow and property sections, and trailing bytes. Layout: docs/formats/vmd.md.
//
// Speed: each fixed-size section checks count × record size once, reserves exactly, then runs a
// tight loop of memcpy loads. Names are interned by their 15 raw bytes (a last-name cache, then
// an open-addressing hash table), so each distinct name is decoded once.
#include <algorithm>
#include <cstring>
#include <limits>
#include <string>
#include <string_view>
#include <unordered_map>

#include "mmdkit/core/file.hpp"
#include "core/huge_pages.hpp"
#include "mmdkit/formats/vmd.hpp"
#include "core/try.hpp"

namespace mmdkit::vmd {
namespace {

constexpr std::string_view kSigV2 = "Vocaloid Motion Data 0002";
constexpr std::string_view kSigV1 = "Vocaloid Motion Data file";

constexpr std::size_t kRecordSize[kSectionCount] = {kBoneKeySize,  kMorphKeySize,      kCameraKeySize,
                                                    kLightKeySize, kSelfShadowKeySize, kPropertyKeyMinSize};

std::string sname(Section s) { return std::string(section_name(s)); }

// Distinct 15-byte names → index, in first-appearance order.
class NameTable {
 public:
  std::uint32_t intern(const std::uint8_t* p) {
    if (last_ != kNone && std::memcmp(p, keys_[last_].data(), kTrackNameSize) == 0) return last_;
    last_ = lookup(p);
    return last_;
  }
  std::size_t size() const noexcept { return keys_.size(); }
  const std::array<std::uint8_t, 16>& key(std::size_t i) const noexcept { return keys_[i]; }

 private:
  static constexpr std::uint32_t kNone = std::numeric_limits<std::uint32_t>::max();

  static std::uint64_t hash(const std::uint8_t* p) noexcept {
    std::uint64_t a = load_le<std::uint64_t>(p);
    std::uint64_t b = load_le<std::uint64_t>(p + 7);  // bytes 7..14
    std::uint64_t h = a * 0x9E3779B97F4A7C15ull ^ (b + 0x632BE59BD9B4E019ull);
    h ^= h >> 29;
    h *= 0xBF58476D1CE4E5B9ull;
    h ^= h >> 32;
    return h;
  }

  std::uint32_t lookup(const std::uint8_t* p) {
    if ((keys_.size() + 1) * 2 > slots_.size()) grow();
    std::size_t mask = slots_.size() - 1;
    for (std::size_t i = hash(p) & mask;; i = (i + 1) & mask) {
      std::uint32_t s = slots_[i];
      if (s == 0) {
        std::array<std::uint8_t, 16> k{};
        std::memcpy(k.data(), p, kTrackNameSize);
        keys_.push_back(k);
        slots_[i] = static_cast<std::uint32_t>(keys_.size());
        return static_cast<std::uint32_t>(keys_.size() - 1);
      }
      if (std::memcmp(keys_[s - 1].data(), p, kTrackNameSize) == 0) return s - 1;
    }
  }

  void grow() {
    std::size_t n = slots_.empty() ? 64 : slots_.size() * 2;
    slots_.assign(n, 0);
    std::size_t mask = n - 1;
    for (std::size_t k = 0; k < keys_.size(); ++k) {
      std::size_t i = hash(keys_[k].data()) & mask;
      while (slots_[i] != 0) i = (i + 1) & mask;
      slots_[i] = static_cast<std::uint32_t>(k + 1);
    }
  }

  std::vector<std::array<std::uint8_t, 16>> keys_;
  std::vector<std::uint32_t> slots_;
  std::uint32_t last_ = kNone;
};

struct FrameRange {
  std::uint32_t lo = std::numeric_limits<std::uint32_t>::max();
  std::uint32_t hi = 0;
  void add(std::uint32_t f) noexcept {
    lo = std::min(lo, f);
    hi = std::max(hi, f);
  }
};

// Why an optional section did not parse.
struct SectionFailure {
  std::int64_t record = -1;
  std::string why;
};

// The parse shared by read (Full = true: keys kept) and summarize (Full = false: counted only).
template <bool Full>
class Parser {
 public:
  Parser(ByteSpan in, const ReadOptions& options) : in_(in), r_(in), options_(options) {}

  Result<void> run() {
    if (auto h = header(); !h) return h;
    if (auto b = bones(); !b) return b;
    if (auto m = morphs(); !m) return m;
    motion.sections_present = 2;
    for (int s = 2; s < kSectionCount; ++s) {
      if (r_.at_end()) break;
      const std::size_t start = r_.offset();
      SectionFailure fail;
      bool ok = false;
      switch (static_cast<Section>(s)) {
        case Section::camera: ok = cameras(fail); break;
        case Section::light: ok = lights(fail); break;
        case Section::self_shadow: ok = self_shadows(fail); break;
        case Section::property: ok = properties(fail); break;
        default: break;
      }
      if (!ok) {
        r_.seek(start);
        if (auto t = keep_trailing(static_cast<Section>(s), fail); !t) return t;
        break;
      }
      motion.sections_present = s + 1;
    }
    if (!r_.at_end()) {  // bytes after the property section
      SectionFailure fail{-1, "bytes after the property keyframes, the last section"};
      if (auto t = keep_trailing(Section::property, fail); !t) return t;
    }
    decode_names();
    return {};
  }

  Motion motion;
  std::array<std::uint64_t, kSectionCount> counts{};
  std::uint64_t ik_states = 0;
  FrameRange frames;
  NameTable bone_names, morph_names;
  std::vector<Warning> warnings;
  std::size_t trailing_bytes = 0;

 private:
  Result<void> header() {
    if (in_.empty()) return make_error(ErrorCode::empty_input, "file is empty", "header", -1, 0);
    const std::size_t avail = std::min(in_.size(), kSignatureSize);
    ByteSpan text = until_nul(in_.first(avail));
    std::string_view t(reinterpret_cast<const char*>(text.data()), text.size());
    const bool has_nul = text.size() < avail;
    if (t == kSigV2) {
      motion.version = Version::v2;
    } else if (t == kSigV1) {
      motion.version = Version::v1;
    } else if (!has_nul && in_.size() < kSignatureSize && (kSigV2.starts_with(t) || kSigV1.starts_with(t))) {
      return make_error(ErrorCode::truncated,
                        "signature needs 30 bytes, " + std::to_string(in_.size()) + " in the file", "header",
                        -1, 0);
    } else {
      std::string shown;
      for (std::uint8_t c : text.first(std::min<std::size_t>(text.size(), 30)))
        shown += (c >= 0x20 && c < 0x7F) ? static_cast<char>(c) : '?';
      return make_error(ErrorCode::bad_signature,
                        "signature \"" + shown +
                            "\" is not \"Vocaloid Motion Data 0002\" or \"Vocaloid Motion Data file\"",
                        "header", -1, 0);
    }
    if (auto q = r_.require(kSignatureSize, "header", -1, "signature"); !q) return q;
    std::memcpy(motion.signature.data(), r_.bytes(kSignatureSize).data(), kSignatureSize);
    const std::size_t name_size = motion.version == Version::v2 ? kModelNameSizeV2 : kModelNameSizeV1;
    if (auto q = r_.require(name_size, "header", -1, "model name"); !q) return q;
    ByteSpan name = r_.bytes(name_size);
    motion.model_name.raw.assign(name.begin(), name.end());
    return {};
  }

  // Count of a mandatory section: the file must hold all its records.
  Result<std::uint32_t> mandatory_count(Section s) {
    const std::string what = s == Section::bone ? "bone keyframe count" : "morph keyframe count";
    MMDKIT_TRY(r_.require(4, section_name(s), -1, what));
    const std::size_t count_offset = r_.offset();
    const std::uint32_t n = r_.u32();
    const std::size_t size = kRecordSize[static_cast<int>(s)];
    const std::size_t whole = r_.remaining() / size;
    if (n <= whole) return n;
    if (whole == 0) {
      return make_error(ErrorCode::count_too_large,
                        "count " + std::to_string(n) + " of " + std::to_string(size) + "-byte records needs " +
                            std::to_string(std::uint64_t{n} * size) + " bytes, " + std::to_string(r_.remaining()) +
                            " left (corrupt count or truncated file)",
                        sname(s), -1, static_cast<std::int64_t>(count_offset));
    }
    const std::size_t at = r_.offset() + whole * size;
    return make_error(ErrorCode::truncated,
                      "file ends inside record " + std::to_string(whole) + " of " + std::to_string(n) + ": needs " +
                          std::to_string(size) + " bytes, " + std::to_string(r_.remaining() - whole * size) +
                          " left",
                      sname(s), static_cast<std::int64_t>(whole), static_cast<std::int64_t>(at));
  }

  Result<void> bones() {
    MMDKIT_TRY_ASSIGN(auto n, mandatory_count(Section::bone));
    counts[0] = n;
    const std::uint8_t* p = r_.cursor();
    if constexpr (Full) {
      auto& keys = motion.bone_keys;
      keys.reserve(n);  // exact; constructing in place lets the compiler drop the default stores
      mmdkit::detail::advise_huge_pages(keys);
      for (std::uint32_t i = 0; i < n; ++i, p += kBoneKeySize) {
        BoneKey& k = keys.emplace_back();
        k.name = bone_names.intern(p);
        std::memcpy(&k.frame, p + 15, 4);
        std::memcpy(k.position.data(), p + 19, 12);
        std::memcpy(k.rotation.data(), p + 31, 16);
        std::memcpy(k.interpolation.data(), p + 47, 64);
      }
    } else {
      for (std::uint32_t i = 0; i < n; ++i, p += kBoneKeySize) {
        bone_names.intern(p);
        frames.add(load_le<std::uint32_t>(p + 15));
      }
    }
    r_.skip(std::size_t{n} * kBoneKeySize);
    return {};
  }

  Result<void> morphs() {
    MMDKIT_TRY_ASSIGN(auto n, mandatory_count(Section::morph));
    counts[1] = n;
    const std::uint8_t* p = r_.cursor();
    if constexpr (Full) {
      auto& keys = motion.morph_keys;
      keys.reserve(n);
      for (std::uint32_t i = 0; i < n; ++i, p += kMorphKeySize) {
        MorphKey& k = keys.emplace_back();
        k.name = morph_names.intern(p);
        std::memcpy(&k.frame, p + 15, 4);
        std::memcpy(&k.weight, p + 19, 4);
      }
    } else {
      for (std::uint32_t i = 0; i < n; ++i, p += kMorphKeySize) {
        morph_names.intern(p);
        frames.add(load_le<std::uint32_t>(p + 15));
      }
    }
    r_.skip(std::size_t{n} * kMorphKeySize);
    return {};
  }

  // Count of an optional fixed-size section; nullopt (with the reason) when it does not fit.
  std::optional<std::uint32_t> optional_count(Section s, SectionFailure& fail) {
    const std::size_t size = kRecordSize[static_cast<int>(s)];
    if (r_.remaining() < 4) {
      fail.why = "count needs 4 bytes, " + std::to_string(r_.remaining()) + " left";
      return std::nullopt;
    }
    const std::uint32_t n = r_.u32();
    if (n > r_.remaining() / size) {
      fail.why = "count " + std::to_string(n) + " of " + std::to_string(size) + "-byte records needs " +
                 std::to_string(std::uint64_t{n} * size) + " bytes, " + std::to_string(r_.remaining()) + " left";
      return std::nullopt;
    }
    return n;
  }

  bool cameras(SectionFailure& fail) {
    auto n = optional_count(Section::camera, fail);
    if (!n) return false;
    counts[2] = *n;
    const std::uint8_t* p = r_.cursor();
    if constexpr (Full) {
      motion.camera_keys.resize(*n);
      CameraKey* k = motion.camera_keys.data();
      for (std::uint32_t i = 0; i < *n; ++i, p += kCameraKeySize, ++k) {
        std::memcpy(&k->frame, p, 4);
        std::memcpy(&k->distance, p + 4, 4);
        std::memcpy(k->target.data(), p + 8, 12);
        std::memcpy(k->rotation.data(), p + 20, 12);
        std::memcpy(k->interpolation.data(), p + 32, 24);
        std::memcpy(&k->view_angle, p + 56, 4);
        k->perspective = p[60];
      }
    } else {
      for (std::uint32_t i = 0; i < *n; ++i, p += kCameraKeySize) frames.add(load_le<std::uint32_t>(p));
    }
    r_.skip(std::size_t{*n} * kCameraKeySize);
    return true;
  }

  bool lights(SectionFailure& fail) {
    auto n = optional_count(Section::light, fail);
    if (!n) return false;
    counts[3] = *n;
    const std::uint8_t* p = r_.cursor();
    if constexpr (Full) {
      motion.light_keys.resize(*n);
      LightKey* k = motion.light_keys.data();
      for (std::uint32_t i = 0; i < *n; ++i, p += kLightKeySize, ++k) {
        std::memcpy(&k->frame, p, 4);
        std::memcpy(k->color.data(), p + 4, 12);
        std::memcpy(k->direction.data(), p + 16, 12);
      }
    } else {
      for (std::uint32_t i = 0; i < *n; ++i, p += kLightKeySize) frames.add(load_le<std::uint32_t>(p));
    }
    r_.skip(std::size_t{*n} * kLightKeySize);
    return true;
  }

  bool self_shadows(SectionFailure& fail) {
    auto n = optional_count(Section::self_shadow, fail);
    if (!n) return false;
    counts[4] = *n;
    const std::uint8_t* p = r_.cursor();
    if constexpr (Full) {
      motion.self_shadow_keys.resize(*n);
      SelfShadowKey* k = motion.self_shadow_keys.data();
      for (std::uint32_t i = 0; i < *n; ++i, p += kSelfShadowKeySize, ++k) {
        std::memcpy(&k->frame, p, 4);
        k->mode = p[4];
        std::memcpy(&k->distance, p + 5, 4);
      }
    } else {
      for (std::uint32_t i = 0; i < *n; ++i, p += kSelfShadowKeySize) frames.add(load_le<std::uint32_t>(p));
    }
    r_.skip(std::size_t{*n} * kSelfShadowKeySize);
    return true;
  }

  std::uint32_t intern_ik(ByteSpan raw) {
    std::string key(reinterpret_cast<const char*>(raw.data()), raw.size());
    auto [it, inserted] = ik_index_.try_emplace(std::move(key), static_cast<std::uint32_t>(ik_raw_.size()));
    if (inserted) ik_raw_.push_back(raw);
    return it->second;
  }

  bool properties(SectionFailure& fail) {
    auto n = optional_count(Section::property, fail);
    if (!n) return false;
    std::vector<PropertyKey> keys;
    if constexpr (Full) keys.reserve(*n);
    std::uint64_t states = 0;
    FrameRange range;
    const std::size_t ik_names_before = ik_raw_.size();
    auto undo = [&] {  // the section does not parse: forget the IK names it added
      for (std::size_t k = ik_names_before; k < ik_raw_.size(); ++k)
        ik_index_.erase(std::string(reinterpret_cast<const char*>(ik_raw_[k].data()), ik_raw_[k].size()));
      ik_raw_.resize(ik_names_before);
      ik_used_.clear();
    };
    for (std::uint32_t i = 0; i < *n; ++i) {
      if (r_.remaining() < kPropertyKeyMinSize) {
        fail.record = i;
        fail.why = "record needs 9 bytes, " + std::to_string(r_.remaining()) + " left";
        undo();
        return false;
      }
      PropertyKey key;
      key.frame = r_.u32();
      key.visible = r_.u8();
      const std::uint32_t c = r_.u32();
      if (c > r_.remaining() / kIkStateSize) {
        fail.record = i;
        fail.why = "IK count " + std::to_string(c) + " of 21-byte entries needs " +
                   std::to_string(std::uint64_t{c} * kIkStateSize) + " bytes, " + std::to_string(r_.remaining()) +
                   " left";
        undo();
        return false;
      }
      if constexpr (Full) key.ik.resize(c);
      for (std::uint32_t j = 0; j < c; ++j) {
        ByteSpan name = r_.bytes(kIkNameSize);
        const std::uint8_t enabled = r_.u8();
        const std::uint32_t idx = intern_ik(name);
        if constexpr (Full) {
          key.ik[j].name.raw.assign(name.begin(), name.end());
          key.ik[j].enabled = enabled;
          ik_used_.push_back({i, j, idx});
        }
      }
      states += c;
      range.add(key.frame);
      if constexpr (Full) keys.push_back(std::move(key));
    }
    counts[5] = *n;
    ik_states = states;
    if (*n > 0) {
      frames.add(range.lo);
      frames.add(range.hi);
    }
    if constexpr (Full) motion.property_keys = std::move(keys);
    return true;
  }

  Result<void> keep_trailing(Section s, const SectionFailure& fail) {
    const std::size_t at = r_.offset();
    ByteSpan rest = r_.bytes(r_.remaining());
    trailing_bytes = rest.size();
    motion.trailing_offset = static_cast<std::int64_t>(at);
    if constexpr (Full) motion.trailing.assign(rest.begin(), rest.end());
    Error e{ErrorCode::trailing_data,
            std::to_string(rest.size()) + " bytes from here do not parse as " + sname(s) + " (" + fail.why +
                "); kept as trailing data",
            sname(s), fail.record, static_cast<std::int64_t>(at), {}};
    if (options_.strict) {
      e.message = std::to_string(rest.size()) + " bytes from here do not parse as " + sname(s) + " (" + fail.why +
                  "); --strict rejects trailing data";
      return std::unexpected(std::move(e));
    }
    warnings.push_back(std::move(e));
    return {};
  }

  void decode_names() {
    std::vector<ByteSpan> spans;
    spans.reserve(1 + bone_names.size() + morph_names.size() + ik_raw_.size());
    spans.push_back(until_nul(motion.model_name.raw));
    for (std::size_t i = 0; i < bone_names.size(); ++i)
      spans.push_back(until_nul(ByteSpan(bone_names.key(i).data(), kTrackNameSize)));
    for (std::size_t i = 0; i < morph_names.size(); ++i)
      spans.push_back(until_nul(ByteSpan(morph_names.key(i).data(), kTrackNameSize)));
    for (ByteSpan s : ik_raw_) spans.push_back(until_nul(s));
    const Encoding enc = options_.encoding ? *options_.encoding : detect_legacy_encoding(spans);
    motion.encoding = enc;
    motion.model_name.text = decode_text(spans[0], enc);
    if constexpr (Full) {
      auto fill = [&](const NameTable& table, std::vector<TrackName>& out, std::size_t first) {
        out.resize(table.size());
        for (std::size_t i = 0; i < table.size(); ++i) {
          out[i].raw.assign(table.key(i).begin(), table.key(i).begin() + kTrackNameSize);
          out[i].text = decode_text(spans[first + i], enc);
        }
      };
      fill(bone_names, motion.bone_names, 1);
      fill(morph_names, motion.morph_names, 1 + bone_names.size());
      std::vector<std::string> ik_text(ik_raw_.size());
      const std::size_t first = 1 + bone_names.size() + morph_names.size();
      for (std::size_t i = 0; i < ik_raw_.size(); ++i) ik_text[i] = decode_text(spans[first + i], enc);
      for (const IkUse& u : ik_used_) motion.property_keys[u.key].ik[u.state].name.text = ik_text[u.name];
    }
  }

  struct IkUse {
    std::uint32_t key, state, name;
  };

  ByteSpan in_;
  ByteReader r_;
  const ReadOptions& options_;
  std::unordered_map<std::string, std::uint32_t> ik_index_;
  std::vector<ByteSpan> ik_raw_;  // distinct IK names, views into the input
  std::vector<IkUse> ik_used_;
};

}  // namespace

Result<ReadResult> read(ByteSpan bytes, const ReadOptions& options) {
  Parser<true> p(bytes, options);
  MMDKIT_TRY(p.run());
  return ReadResult{std::move(p.motion), std::move(p.warnings)};
}

Result<Summary> summarize(ByteSpan bytes, const ReadOptions& options) {
  Parser<false> p(bytes, options);
  MMDKIT_TRY(p.run());
  Summary s;
  s.version = p.motion.version;
  s.signature = p.motion.signature;
  s.model_name = std::move(p.motion.model_name);
  s.encoding = p.motion.encoding;
  s.counts = p.counts;
  s.ik_states = p.ik_states;
  s.sections_present = p.motion.sections_present;
  s.bone_tracks = p.bone_names.size();
  s.morph_tracks = p.morph_names.size();
  if (p.frames.lo <= p.frames.hi) s.frame_range = std::array<std::uint32_t, 2>{p.frames.lo, p.frames.hi};
  s.file_bytes = bytes.size();
  s.trailing_bytes = p.trailing_bytes;
  s.trailing_offset = p.motion.trailing_offset;
  s.warnings = std::move(p.warnings);
  return s;
}

Result<ReadResult> read_file(const std::filesystem::path& path, const ReadOptions& options) {
  return parse_file(path, [&](ByteSpan bytes) { return read(bytes, options); });
}

}  // namespace mmdkit::vmd
