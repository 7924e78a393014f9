// VMD writing: the exact inverse of reader.cpp for an unmodified motion (identical bytes), and
// canonical MMD fields (NUL-padded names, canonical signature) for motions built in code.
#include <algorithm>
#include <cstring>
#include <string>

#include "core/huge_pages.hpp"
#include "mmdkit/formats/vmd.hpp"
#include "core/try.hpp"

namespace mmdkit::vmd {
namespace {

// The bytes of a fixed-size name field: raw bytes when present, else the text encoded, cut to the
// field size (MMD cuts at the byte limit too) and NUL-padded.
template <std::size_t N>
Result<void> name_field(const FixedName<N>& name, std::size_t size, Encoding enc, std::uint8_t* out,
                        std::string_view section, std::int64_t record) {
  std::memset(out, 0, size);
  if (!name.raw.empty()) {
    std::memcpy(out, name.raw.data(), std::min(size, name.raw.size()));
    return {};
  }
  auto bytes = encode_text(name.text, enc);
  if (!bytes) {
    Error e = bytes.error();
    e.section = std::string(section);
    e.record = record;
    e.message = "name \"" + name.text + "\" cannot be encoded in " + std::string(encoding_name(enc)) +
                (e.message.empty() ? "" : ": " + e.message);
    return std::unexpected(std::move(e));
  }
  if (!bytes->empty()) std::memcpy(out, bytes->data(), std::min(size, bytes->size()));
  return {};
}

// All distinct track names as 15-byte fields.
Result<std::vector<std::array<std::uint8_t, kTrackNameSize>>> name_fields(const std::vector<TrackName>& names,
                                                                         Encoding enc, Section s) {
  std::vector<std::array<std::uint8_t, kTrackNameSize>> out(names.size());
  for (std::size_t i = 0; i < names.size(); ++i) {
    MMDKIT_TRY(name_field(names[i], kTrackNameSize, enc, out[i].data(),
                        std::string(section_name(s)) + " names", static_cast<std::int64_t>(i)));
  }
  return out;
}

Result<void> bad_index(Section s, std::size_t record, std::uint32_t index, std::size_t names) {
  return make_error(ErrorCode::invalid_argument,
                    "name index " + std::to_string(index) + " is out of range (" + std::to_string(names) +
                        " names)",
                    std::string(section_name(s)), static_cast<std::int64_t>(record), -1);
}

}  // namespace

Result<std::vector<std::uint8_t>> write(const Motion& motion) {
  const Encoding enc = motion.encoding;
  const std::size_t name_size = motion.version == Version::v2 ? kModelNameSizeV2 : kModelNameSizeV1;

  // Which section counts to write.
  int sections = std::clamp(motion.sections_present, 2, kSectionCount);
  if (!motion.camera_keys.empty()) sections = std::max(sections, 3);
  if (!motion.light_keys.empty()) sections = std::max(sections, 4);
  if (!motion.self_shadow_keys.empty()) sections = std::max(sections, 5);
  if (!motion.property_keys.empty()) sections = std::max(sections, 6);

  // Validate name indices and encode names before allocating the output.
  const std::size_t nb = motion.bone_names.size(), nm = motion.morph_names.size();
  for (std::size_t i = 0; i < motion.bone_keys.size(); ++i)
    if (motion.bone_keys[i].name >= nb) return std::unexpected(bad_index(Section::bone, i, motion.bone_keys[i].name, nb).error());
  for (std::size_t i = 0; i < motion.morph_keys.size(); ++i)
    if (motion.morph_keys[i].name >= nm)
      return std::unexpected(bad_index(Section::morph, i, motion.morph_keys[i].name, nm).error());
  MMDKIT_TRY_ASSIGN(auto bone_fields, name_fields(motion.bone_names, enc, Section::bone));
  MMDKIT_TRY_ASSIGN(auto morph_fields, name_fields(motion.morph_names, enc, Section::morph));

  std::size_t total = kSignatureSize + name_size + 8 + motion.bone_keys.size() * kBoneKeySize +
                      motion.morph_keys.size() * kMorphKeySize;
  if (sections >= 3) total += 4 + motion.camera_keys.size() * kCameraKeySize;
  if (sections >= 4) total += 4 + motion.light_keys.size() * kLightKeySize;
  if (sections >= 5) total += 4 + motion.self_shadow_keys.size() * kSelfShadowKeySize;
  if (sections >= 6) {
    total += 4;
    for (const PropertyKey& k : motion.property_keys) total += kPropertyKeyMinSize + k.ik.size() * kIkStateSize;
  }
  total += motion.trailing.size();

  std::vector<std::uint8_t> out;
  out.reserve(total);
  mmdkit::detail::advise_huge_pages(out);
  out.resize(total);
  std::uint8_t* p = out.data();

  // Signature: the stored bytes when they carry this version's text, else the canonical text.
  const std::string_view sig = signature_text(motion.version);
  ByteSpan stored_text = until_nul(motion.signature);
  if (std::string_view(reinterpret_cast<const char*>(stored_text.data()), stored_text.size()) == sig) {
    std::memcpy(p, motion.signature.data(), kSignatureSize);
  } else {
    std::memcpy(p, sig.data(), sig.size());  // rest stays NUL
  }
  p += kSignatureSize;
  MMDKIT_TRY(name_field(motion.model_name, name_size, enc, p, "header", -1));
  p += name_size;

  auto count = [&](std::size_t n) {
    store_le(p, static_cast<std::uint32_t>(n));
    p += 4;
  };

  count(motion.bone_keys.size());
  for (const BoneKey& k : motion.bone_keys) {
    std::memcpy(p, (bone_fields)[k.name].data(), kTrackNameSize);
    std::memcpy(p + 15, &k.frame, 4);
    std::memcpy(p + 19, k.position.data(), 12);
    std::memcpy(p + 31, k.rotation.data(), 16);
    std::memcpy(p + 47, k.interpolation.data(), 64);
    p += kBoneKeySize;
  }
  count(motion.morph_keys.size());
  for (const MorphKey& k : motion.morph_keys) {
    std::memcpy(p, (morph_fields)[k.name].data(), kTrackNameSize);
    std::memcpy(p + 15, &k.frame, 4);
    std::memcpy(p + 19, &k.weight, 4);
    p += kMorphKeySize;
  }
  if (sections >= 3) {
    count(motion.camera_keys.size());
    for (const CameraKey& k : motion.camera_keys) {
      std::memcpy(p, &k.frame, 4);
      std::memcpy(p + 4, &k.distance, 4);
      std::memcpy(p + 8, k.target.data(), 12);
      std::memcpy(p + 20, k.rotation.data(), 12);
      std::memcpy(p + 32, k.interpolation.data(), 24);
      std::memcpy(p + 56, &k.view_angle, 4);
      p[60] = k.perspective;
      p += kCameraKeySize;
    }
  }
  if (sections >= 4) {
    count(motion.light_keys.size());
    for (const LightKey& k : motion.light_keys) {
      std::memcpy(p, &k.frame, 4);
      std::memcpy(p + 4, k.color.data(), 12);
      std::memcpy(p + 16, k.direction.data(), 12);
      p += kLightKeySize;
    }
  }
  if (sections >= 5) {
    count(motion.self_shadow_keys.size());
    for (const SelfShadowKey& k : motion.self_shadow_keys) {
      std::memcpy(p, &k.frame, 4);
      p[4] = k.mode;
      std::memcpy(p + 5, &k.distance, 4);
      p += kSelfShadowKeySize;
    }
  }
  if (sections >= 6) {
    count(motion.property_keys.size());
    for (std::size_t i = 0; i < motion.property_keys.size(); ++i) {
      const PropertyKey& k = motion.property_keys[i];
      std::memcpy(p, &k.frame, 4);
      p[4] = k.visible;
      store_le(p + 5, static_cast<std::uint32_t>(k.ik.size()));
      p += kPropertyKeyMinSize;
      for (const IkState& s : k.ik) {
        if (auto r = name_field(s.name, kIkNameSize, enc, p, section_name(Section::property),
                                static_cast<std::int64_t>(i));
            !r)
          return std::unexpected(r.error());
        p[kIkNameSize] = s.enabled;
        p += kIkStateSize;
      }
    }
  }
  if (!motion.trailing.empty()) {
    std::memcpy(p, motion.trailing.data(), motion.trailing.size());
    p += motion.trailing.size();
  }
  return out;
}

}  // namespace mmdkit::vmd
