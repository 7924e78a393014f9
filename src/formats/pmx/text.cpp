// PMX text: fast UTF-16LE / UTF-8 to UTF-8 decoding (invalid → U+FFFD) and encoding.
#include <cmath>

#include "formats/pmx/common.hpp"

namespace mmdkit::pmx {
namespace detail {
namespace {

void put_utf8(std::uint32_t cp, std::string& out) {
  if (cp < 0x80) {
    out.push_back(static_cast<char>(cp));
  } else if (cp < 0x800) {
    out.push_back(static_cast<char>(0xC0 | (cp >> 6)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else if (cp < 0x10000) {
    out.push_back(static_cast<char>(0xE0 | (cp >> 12)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else {
    out.push_back(static_cast<char>(0xF0 | (cp >> 18)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  }
}

constexpr std::uint32_t kReplacement = 0xFFFD;

// Length of a valid UTF-8 sequence at p (max n bytes), 0 if invalid; sets cp.
std::size_t utf8_seq(const std::uint8_t* p, std::size_t n, std::uint32_t& cp) {
  std::uint8_t c = p[0];
  if (c < 0x80) {
    cp = c;
    return 1;
  }
  std::size_t len;
  std::uint32_t min;
  if ((c & 0xE0) == 0xC0) {
    len = 2, cp = c & 0x1F, min = 0x80;
  } else if ((c & 0xF0) == 0xE0) {
    len = 3, cp = c & 0x0F, min = 0x800;
  } else if ((c & 0xF8) == 0xF0) {
    len = 4, cp = c & 0x07, min = 0x10000;
  } else {
    return 0;
  }
  if (len > n) return 0;
  for (std::size_t i = 1; i < len; ++i) {
    if ((p[i] & 0xC0) != 0x80) return 0;
    cp = (cp << 6) | (p[i] & 0x3F);
  }
  if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
  return len;
}

}  // namespace

void decode_append(ByteSpan bytes, Encoding enc, std::string& out) {
  const std::uint8_t* p = bytes.data();
  std::size_t n = bytes.size();
  if (enc == Encoding::utf16le) {
    out.reserve(out.size() + n * 3 / 2 + 1);
    std::size_t i = 0;
    for (; i + 1 < n; i += 2) {
      std::uint32_t u = static_cast<std::uint32_t>(p[i] | (p[i + 1] << 8));
      if (u < 0x80) {
        out.push_back(static_cast<char>(u));
      } else if (u >= 0xD800 && u <= 0xDBFF) {
        if (i + 3 < n) {
          std::uint32_t lo = static_cast<std::uint32_t>(p[i + 2] | (p[i + 3] << 8));
          if (lo >= 0xDC00 && lo <= 0xDFFF) {
            put_utf8(0x10000 + ((u - 0xD800) << 10) + (lo - 0xDC00), out);
            i += 2;
            continue;
          }
        }
        put_utf8(kReplacement, out);
      } else if (u >= 0xDC00 && u <= 0xDFFF) {
        put_utf8(kReplacement, out);
      } else {
        put_utf8(u, out);
      }
    }
    if (i < n) put_utf8(kReplacement, out);  // odd byte count
    return;
  }
  // UTF-8 (any other encoding is treated as UTF-8 here; the reader rejects them earlier).
  std::size_t i = 0;
  while (i < n) {
    std::size_t start = i;
    while (i < n && p[i] < 0x80) ++i;
    out.append(reinterpret_cast<const char*>(p + start), i - start);
    if (i >= n) break;
    std::uint32_t cp;
    std::size_t len = utf8_seq(p + i, n - i, cp);
    if (len == 0) {
      put_utf8(kReplacement, out);
      ++i;
    } else {
      out.append(reinterpret_cast<const char*>(p + i), len);
      i += len;
    }
  }
}

Result<std::vector<std::uint8_t>> encode(std::string_view utf8, Encoding enc) {
  const auto* p = reinterpret_cast<const std::uint8_t*>(utf8.data());
  std::size_t n = utf8.size();
  std::vector<std::uint8_t> out;
  out.reserve(enc == Encoding::utf16le ? n * 2 : n);
  std::size_t i = 0;
  while (i < n) {
    std::uint32_t cp;
    std::size_t len = utf8_seq(p + i, n - i, cp);
    if (len == 0)
      return make_error(ErrorCode::encoding_error,
                        "invalid UTF-8 at byte " + std::to_string(i) + " of the text");
    if (enc == Encoding::utf16le) {
      if (cp >= 0x10000) {
        std::uint32_t v = cp - 0x10000;
        std::uint32_t hi = 0xD800 + (v >> 10), lo = 0xDC00 + (v & 0x3FF);
        out.push_back(static_cast<std::uint8_t>(hi & 0xFF));
        out.push_back(static_cast<std::uint8_t>(hi >> 8));
        out.push_back(static_cast<std::uint8_t>(lo & 0xFF));
        out.push_back(static_cast<std::uint8_t>(lo >> 8));
      } else {
        out.push_back(static_cast<std::uint8_t>(cp & 0xFF));
        out.push_back(static_cast<std::uint8_t>(cp >> 8));
      }
    } else {
      out.insert(out.end(), p + i, p + i + len);
    }
    i += len;
  }
  return out;
}

}  // namespace detail

std::string decode(ByteSpan bytes, Encoding encoding) {
  std::string s;
  detail::decode_append(bytes, encoding, s);
  return s;
}

std::string_view version_name(Version v) noexcept { return v == Version::v2_1 ? "2.1" : "2.0"; }

std::string_view deform_name(DeformType t) noexcept {
  switch (t) {
    case DeformType::bdef1: return "BDEF1";
    case DeformType::bdef2: return "BDEF2";
    case DeformType::bdef4: return "BDEF4";
    case DeformType::sdef: return "SDEF";
    case DeformType::qdef: return "QDEF";
  }
  return "?";
}

std::string_view morph_type_name(MorphType t) noexcept {
  switch (t) {
    case MorphType::group: return "group";
    case MorphType::vertex: return "vertex";
    case MorphType::bone: return "bone";
    case MorphType::uv: return "uv";
    case MorphType::additional_uv1: return "additional_uv1";
    case MorphType::additional_uv2: return "additional_uv2";
    case MorphType::additional_uv3: return "additional_uv3";
    case MorphType::additional_uv4: return "additional_uv4";
    case MorphType::material: return "material";
    case MorphType::flip: return "flip";
    case MorphType::impulse: return "impulse";
  }
  return "?";
}

std::size_t Morph::offset_count() const noexcept {
  switch (type) {
    case MorphType::group: return group_offsets.size();
    case MorphType::vertex: return vertex_offsets.size();
    case MorphType::bone: return bone_offsets.size();
    case MorphType::uv:
    case MorphType::additional_uv1:
    case MorphType::additional_uv2:
    case MorphType::additional_uv3:
    case MorphType::additional_uv4: return uv_offsets.size();
    case MorphType::material: return material_offsets.size();
    case MorphType::flip: return flip_offsets.size();
    case MorphType::impulse: return impulse_offsets.size();
  }
  return 0;
}

Counts counts(const Model& m) noexcept {
  Counts c;
  c.vertices = m.vertices.size();
  c.faces = m.faces.size() / 3;
  c.face_indices = m.faces.size();
  c.textures = m.textures.size();
  c.materials = m.materials.size();
  c.bones = m.bones.size();
  c.morphs = m.morphs.size();
  c.display_frames = m.display_frames.size();
  c.rigid_bodies = m.rigid_bodies.size();
  c.joints = m.joints.size();
  c.soft_bodies = m.soft_bodies.size();
  c.sdef_vertices = m.sdef_params.size();
  c.trailing_bytes = m.trailing.size();
  return c;
}

}  // namespace mmdkit::pmx
