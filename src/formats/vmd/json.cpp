// mmdkit — VMD <-> lossless JSON text. Schema: docs/formats/vmd-json.md.
//
// Writing streams straight into one std::string (no DOM). Reading uses RapidJSON with numbers kept
// as text (kParseNumbersAsStringsFlag): floats are parsed by mmdkit::parse_float directly as
// binary32, integers with range checks, so nothing goes through double.
#include "mmdkit/formats/vmd_json.hpp"

#include <rapidjson/document.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstring>
#include <initializer_list>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/json.hpp"
#include "core/json_writer.hpp"
#include "core/json_marked.hpp"
#include "mmdkit/core/euler.hpp"
#include "mmdkit/core/number.hpp"
#include "mmdkit/core/text.hpp"
#include "core/try.hpp"

namespace mmdkit::vmd {
namespace {

// ============================================================================================
// Shared rules: what is "canonical" (and therefore needs no raw bytes in the JSON).
// ============================================================================================

std::size_t model_name_size(Version v) { return v == Version::v1 ? kModelNameSizeV1 : kModelNameSizeV2; }

std::array<std::uint8_t, kSignatureSize> canonical_signature(Version v) {
  std::array<std::uint8_t, kSignatureSize> s{};
  std::string_view t = signature_text(v);
  std::memcpy(s.data(), t.data(), std::min(t.size(), s.size()));
  return s;
}

/// The field bytes for a name given only as text: encoded, then NUL-padded to `field` bytes.
Result<std::vector<std::uint8_t>> canonical_name(std::string_view text, Encoding enc, std::size_t field) {
  MMDKIT_TRY_ASSIGN(auto bytes, encode_text(text, enc));
  if (bytes.size() > field)
    return make_error(ErrorCode::json_schema, "name \"" + std::string(text) + "\" takes " +
                                                  std::to_string(bytes.size()) + " bytes in " +
                                                  std::string(encoding_name(enc)) + ", the field holds " +
                                                  std::to_string(field));
  bytes.resize(field, 0);
  return bytes;
}

/// True when the JSON's text is what the reader decodes `raw` to (up to its first NUL): the raw
/// bytes are kept as given. Otherwise the text was edited and wins (see docs/formats/vmd-json.md).
bool text_matches_raw(const std::vector<std::uint8_t>& raw, std::string_view text, Encoding enc) {
  return decode_text(until_nul(ByteSpan(raw.data(), raw.size())), enc) == text;
}

/// True when `raw` is exactly what canonical_name(text) gives (so the JSON needs no hex).
bool name_is_canonical(const std::vector<std::uint8_t>& raw, const std::string& text, Encoding enc,
                       std::size_t field) {
  if (raw.size() != field) return false;
  auto c = canonical_name(text, enc, field);
  return c && *c == raw;
}

/// The 3 bytes shifted into rows 1-3 (row r ends with the first r of them): every row of a bone
/// block is a 16-byte window of one 19-byte sequence, row 0 + these 3 bytes. MMD's notes and
/// encode_bone_interpolation use 01 00 00; newer MMD writes 00 00 00, some files leftovers.
using Pad = std::array<std::uint8_t, 3>;
constexpr Pad kCanonicalPad{1, 0, 0};

Pad block_pad(const std::array<std::uint8_t, 64>& raw) { return {raw[31], raw[47], raw[63]}; }

/// The block to_json needs no raw bytes for: rows from the curves, the given toggle bytes in bytes
/// 2-3 and the given pad bytes at the ends of rows 1-3.
std::array<std::uint8_t, 64> bone_block(const BoneInterpolation& b, std::array<std::uint8_t, 2> toggle, Pad pad) {
  auto block = encode_bone_interpolation(b.x, b.y, b.z, b.rotation, false);
  block[2] = toggle[0];
  block[3] = toggle[1];
  for (std::size_t r = 1; r < 4; ++r)
    for (std::size_t i = 0; i < r; ++i) block[16 * r + 16 - r + i] = pad[i];
  return block;
}

// ============================================================================================
// Writer
// ============================================================================================

class Out : public json::Writer {
 public:
  void hex(ByteSpan b) {  // a string of lower-case hex digits
    ch('"');
    json::append_hex(out, b);
    ch('"');
  }
  void curve(const Curve& c) {
    ch('[');
    integer(c.x1), ch(','), integer(c.y1), ch(','), integer(c.x2), ch(','), integer(c.y2);
    ch(']');
  }
};

/// `"name":"text"`, or `"name":{"text":...,"raw":"hex"}` when `with_raw` (json::append_name).
template <std::size_t N>
std::string name_members(const FixedName<N>& n, bool with_raw) {
  std::string s = "\"name\":";
  json::append_name(s, n.text, with_raw ? std::optional(ByteSpan(n.raw.data(), n.raw.size())) : std::nullopt, true);
  return s;
}

/// How the names of one track section are written. A key names its track by text; the raw bytes
/// come from the name table ("bone_names" / "morph_names"), which is written only when the keys
/// alone do not give the motion's table back: a name whose raw bytes are not its canonical
/// encoding, an unused name, or an order other than first appearance. A key repeats the raw hex
/// only when its text is shared by several raw names (then the text alone is ambiguous); a key of
/// a name whose raw bytes repeat an earlier table entry uses "name_index".
struct NameTable {
  std::vector<std::string> key_members;    ///< per name index: members written in each key
  std::vector<std::string> table_members;  ///< per name index: members written in the table
  bool write_table = false;
};

template <class Key>
NameTable prepare_names(const std::vector<TrackName>& names, const std::vector<Key>& keys, Encoding enc) {
  NameTable t;
  std::unordered_map<std::string_view, std::uint32_t> text_count;
  for (const auto& n : names) ++text_count[n.text];
  // A table built in code may list the same raw bytes twice; keys of a later copy can only be
  // told apart by index.
  std::unordered_map<std::string_view, std::uint32_t> first_raw;
  t.key_members.reserve(names.size());
  t.table_members.reserve(names.size());
  for (std::uint32_t i = 0; i < names.size(); ++i) {
    const auto& n = names[i];
    const bool canonical = name_is_canonical(n.raw, n.text, enc, kTrackNameSize);
    if (!canonical) t.write_table = true;
    t.table_members.push_back(name_members(n, !canonical));
    auto [it, fresh] = first_raw.try_emplace(
        std::string_view(reinterpret_cast<const char*>(n.raw.data()), n.raw.size()), i);
    if (!fresh) {
      t.write_table = true;
      t.key_members.push_back("\"name_index\":" + std::to_string(i));
    } else {
      t.key_members.push_back(name_members(n, text_count[n.text] > 1));
    }
  }
  // The reader's table lists each distinct raw name once, in order of first appearance.
  std::vector<char> seen(names.size(), 0);
  std::uint32_t next = 0;
  for (const auto& k : keys) {
    if (k.name >= names.size()) continue;  // written as name_index; from_json rejects it
    if (!seen[k.name]) {
      seen[k.name] = 1;
      if (k.name != next) t.write_table = true;
      ++next;
    }
  }
  if (next != names.size()) t.write_table = true;  // unused names
  return t;
}

struct Writer {
  const Motion& m;
  const JsonWriteOptions& opt;
  Out o;

  // Layout helpers: in pretty mode each top-level member and each record starts a new line.
  void member_sep() { o.raw(opt.pretty ? ",\n  " : ","); }
  void record_open(bool first) {
    if (!first) o.ch(',');
    if (opt.pretty) o.raw("\n    ");
  }
  void array_close(bool empty) {
    if (opt.pretty && !empty) o.raw("\n  ");
    o.ch(']');
  }

  void name_table(const char* member, const std::vector<TrackName>& names, const NameTable& t) {
    member_sep();
    o.ch('"'), o.raw(member), o.raw("\":[");
    for (std::size_t i = 0; i < names.size(); ++i) {
      record_open(i == 0);
      o.ch('{'), o.raw(t.table_members[i]), o.ch('}');
    }
    array_close(names.empty());
  }

  void key_name(std::uint32_t index, const NameTable& t) {
    if (index < t.key_members.size()) {
      o.raw(t.key_members[index]);
    } else {
      o.raw("\"name_index\":");
      o.integer(index);
    }
  }

  void bone_key(const BoneKey& k, const NameTable& names) {
    o.raw("{\"frame\":");
    o.integer(k.frame);
    o.ch(',');
    key_name(k.name, names);
    o.raw(",\"position\":");
    o.numbers(k.position.data(), 3, true);
    o.raw(",\"rotation\":");
    o.numbers(k.rotation.data(), 4, true);
    if (opt.euler) {
      auto e = quaternion_to_euler_degrees(k.rotation);
      o.raw(",\"euler\":");
      o.numbers(e.data(), 3, true);
    }
    const BoneInterpolation b = decode_bone_interpolation(k.interpolation);
    const Curve* curves[4] = {&b.x, &b.y, &b.z, &b.rotation};
    static constexpr const char* names4[4] = {"x", "y", "z", "rotation"};
    bool any = false;
    for (int c = 0; c < 4; ++c) {
      if (*curves[c] == kLinearCurve) continue;
      o.raw(any ? ",\"" : ",\"interpolation\":{\"");
      any = true;
      o.raw(names4[c]);
      o.raw("\":");
      o.curve(*curves[c]);
    }
    if (any) o.ch('}');
    const std::array<std::uint8_t, 2> canonical_toggle{b.z.x1, b.rotation.x1};
    if (b.physics_off()) {
      o.raw(",\"physics_off\":true");
    } else if (b.toggle_bytes == std::array<std::uint8_t, 2>{0, 0}) {
      if (canonical_toggle != b.toggle_bytes) o.raw(",\"physics_off\":false");
    } else if (b.toggle_bytes != canonical_toggle) {
      o.raw(",\"toggle\":[");
      o.integer(b.toggle_bytes[0]), o.ch(','), o.integer(b.toggle_bytes[1]);
      o.ch(']');
    }
    const Pad pad = block_pad(k.interpolation);
    if (pad != kCanonicalPad) {
      o.raw(",\"pad\":[");
      o.integer(pad[0]), o.ch(','), o.integer(pad[1]), o.ch(','), o.integer(pad[2]);
      o.ch(']');
    }
    if (bone_block(b, b.toggle_bytes, pad) != k.interpolation) {
      o.raw(",\"interpolation_hex\":");
      o.hex(k.interpolation);
    }
    o.ch('}');
  }

  void morph_key(const MorphKey& k, const NameTable& names) {
    o.raw("{\"frame\":");
    o.integer(k.frame);
    o.ch(',');
    key_name(k.name, names);
    o.raw(",\"weight\":");
    o.number(k.weight);
    o.ch('}');
  }

  void camera_key(const CameraKey& k) {
    o.raw("{\"frame\":");
    o.integer(k.frame);
    o.raw(",\"distance\":");
    o.number(k.distance);
    o.raw(",\"target\":");
    o.numbers(k.target.data(), 3, true);
    o.raw(",\"rotation\":");
    o.numbers(k.rotation.data(), 3, true);
    o.raw(",\"view_angle\":");
    o.integer(k.view_angle);
    o.raw(",\"perspective\":");
    o.integer(k.perspective);
    const CameraInterpolation c = decode_camera_interpolation(k.interpolation);
    const Curve* curves[6] = {&c.x, &c.y, &c.z, &c.rotation, &c.distance, &c.view_angle};
    static constexpr const char* names6[6] = {"x", "y", "z", "rotation", "distance", "view_angle"};
    bool any = false;
    for (int i = 0; i < 6; ++i) {
      if (*curves[i] == kLinearCurve) continue;
      o.raw(any ? ",\"" : ",\"interpolation\":{\"");
      any = true;
      o.raw(names6[i]);
      o.raw("\":");
      o.curve(*curves[i]);
    }
    if (any) o.ch('}');
    // The camera layout is a bijection (every byte belongs to one curve), so this never fires for
    // blocks read from files; kept so the rule is the same as for bones.
    if (encode_camera_interpolation(c) != k.interpolation) {
      o.raw(",\"interpolation_hex\":");
      o.hex(k.interpolation);
    }
    o.ch('}');
  }

  void light_key(const LightKey& k) {
    o.raw("{\"frame\":");
    o.integer(k.frame);
    o.raw(",\"color\":");
    o.numbers(k.color.data(), 3, true);
    o.raw(",\"direction\":");
    o.numbers(k.direction.data(), 3, true);
    o.ch('}');
  }

  void self_shadow_key(const SelfShadowKey& k) {
    o.raw("{\"frame\":");
    o.integer(k.frame);
    o.raw(",\"mode\":");
    o.integer(k.mode);
    o.raw(",\"distance\":");
    o.number(k.distance);
    o.ch('}');
  }

  void property_key(const PropertyKey& k) {
    o.raw("{\"frame\":");
    o.integer(k.frame);
    o.raw(",\"visible\":");
    o.integer(k.visible);
    o.raw(",\"ik\":[");
    for (std::size_t i = 0; i < k.ik.size(); ++i) {
      if (i) o.ch(',');
      o.ch('{');
      const auto& n = k.ik[i].name;
      o.raw(name_members(n, !name_is_canonical(n.raw, n.text, m.encoding, kIkNameSize)));
      o.raw(",\"enabled\":");
      o.integer(k.ik[i].enabled);
      o.ch('}');
    }
    o.raw("]}");
  }

  template <class Key, class Fn>
  void section(const char* member, const std::vector<Key>& keys, Fn&& fn) {
    member_sep();
    o.ch('"'), o.raw(member), o.raw("\":[");
    for (std::size_t i = 0; i < keys.size(); ++i) {
      record_open(i == 0);
      fn(keys[i]);
    }
    array_close(keys.empty());
  }

  void run() {
    // Rough size: ~170 bytes per bone key, ~60 per morph key; avoids most reallocation.
    o.out.reserve(512 + m.bone_keys.size() * 170 + m.morph_keys.size() * 64 + m.camera_keys.size() * 160 +
                  m.trailing.size() * 2);
    o.raw("{\"format\": \"vmd\"");
    member_sep();
    o.raw("\"version\":");
    o.integer(m.version == Version::v1 ? 1 : 2);
    if (m.signature != canonical_signature(m.version)) {
      member_sep();
      o.raw("\"signature_hex\":");
      o.hex(m.signature);
    }
    member_sep();
    o.raw("\"encoding\":");
    o.string(encoding_name(m.encoding));
    member_sep();
    o.raw("\"model_name\":");
    const bool canonical = name_is_canonical(m.model_name.raw, m.model_name.text, m.encoding, model_name_size(m.version));
    json::append_name(o.out, m.model_name.text,
                      canonical ? std::nullopt : std::optional(ByteSpan(m.model_name.raw.data(), m.model_name.raw.size())),
                      true);
    member_sep();
    o.raw("\"sections_present\":");
    o.integer(m.sections_present);

    const NameTable bones = prepare_names(m.bone_names, m.bone_keys, m.encoding);
    const NameTable morphs = prepare_names(m.morph_names, m.morph_keys, m.encoding);
    if (bones.write_table) name_table("bone_names", m.bone_names, bones);
    if (morphs.write_table) name_table("morph_names", m.morph_names, morphs);

    section("bone_keys", m.bone_keys, [&](const BoneKey& k) { bone_key(k, bones); });
    section("morph_keys", m.morph_keys, [&](const MorphKey& k) { morph_key(k, morphs); });
    section("camera_keys", m.camera_keys, [&](const CameraKey& k) { camera_key(k); });
    section("light_keys", m.light_keys, [&](const LightKey& k) { light_key(k); });
    section("self_shadow_keys", m.self_shadow_keys, [&](const SelfShadowKey& k) { self_shadow_key(k); });
    section("property_keys", m.property_keys, [&](const PropertyKey& k) { property_key(k); });

    if (m.trailing_offset != -1) {
      member_sep();
      o.raw("\"trailing_offset\":");
      o.integer(m.trailing_offset);
    }
    if (!m.trailing.empty()) {
      member_sep();
      o.raw("\"trailing_hex\":");
      o.hex(m.trailing);
    }
    o.raw(opt.pretty ? "\n}\n" : "}");
  }
};

// ============================================================================================
// Reader
// ============================================================================================

using Value = rapidjson::Value;
using Document = rapidjson::Document;

// Numbers arrive as marked text (core/json_marked.hpp).
using json::is_number;
std::string_view number_text(const Value& v) { return {v.GetString() + 1, v.GetStringLength() - 1}; }
std::string_view string_text(const Value& v) { return {v.GetString(), v.GetStringLength()}; }
bool is_text(const Value& v) { return v.IsString() && !is_number(v); }

const char* type_name(const Value& v) {
  if (v.IsNull()) return "null";
  if (v.IsBool()) return "a boolean";
  if (v.IsObject()) return "an object";
  if (v.IsArray()) return "an array";
  if (is_number(v)) return "a number";
  if (v.IsString()) return "a string";
  return "a number";
}

/// Walks the DOM; `path` is the JSON path of the value being read (e.g. "bone_keys[12]").
class Parser {
 public:
  Motion m;

  Result<void> run(const Value& root) {
    if (!root.IsObject()) return fail("", std::string("the document must be an object, found ") + type_name(root));
    if (auto r = allowed(root, "",
                         {"format", "version", "signature_hex", "encoding", "model_name", "model_name_hex",
                          "sections_present", "bone_names", "morph_names", "bone_keys", "morph_keys",
                          "camera_keys", "light_keys", "self_shadow_keys", "property_keys", "trailing_offset",
                          "trailing_hex"});
        !r)
      return r;
    // format
    auto fmt = root.FindMember("format");
    if (fmt == root.MemberEnd()) return fail("format", "missing member (must be \"vmd\")");
    if (!is_text(fmt->value) || string_text(fmt->value) != "vmd")
      return fail("format", "must be the string \"vmd\"");
    // version
    if (const Value* v = find(root, "version")) {
      MMDKIT_TRY_ASSIGN(auto n, integer(*v, "version", 1, 2));
      m.version = n == 1 ? Version::v1 : Version::v2;
    }
    m.signature = canonical_signature(m.version);
    if (const Value* v = find(root, "signature_hex")) {
      MMDKIT_TRY_ASSIGN(auto b, hex(*v, "signature_hex", kSignatureSize, true));
      std::copy(b.begin(), b.end(), m.signature.begin());
    }
    if (const Value* v = find(root, "encoding")) {
      if (!is_text(*v)) return fail("encoding", std::string("must be a string, found ") + type_name(*v));
      auto e = parse_encoding_name(string_text(*v));
      if (!e) return fail("encoding", "unknown encoding \"" + std::string(string_text(*v)) + "\" (cp932, gbk, utf-8, utf-16le)");
      m.encoding = *e;
    }
    enc_ = m.encoding;
    // model name
    {
      const std::size_t field = model_name_size(m.version);
      MMDKIT_TRY_ASSIGN(auto parts, name_parts(root, "", "model_name"));
      const Value* text = parts.text;
      if (text && !is_text(*text))
        return fail(parts.text_path, std::string("must be a string, found ") + type_name(*text));
      m.model_name.text = text ? std::string(string_text(*text)) : std::string();
      if (const Value* h = parts.raw) {
        // Up to the type's 20 bytes even for version 1 (a motion built in code may hold more
        // than the 10 bytes the file field has; vmd::write decides what to do with them).
        MMDKIT_TRY_ASSIGN(auto b, hex(*h, parts.raw_path, kModelNameSizeV2, false));
        m.model_name.raw = std::move(b);
      }
      if (text && !text_matches_raw(m.model_name.raw, m.model_name.text, enc_)) {
        auto b = canonical_name(m.model_name.text, enc_, field);
        if (!b) return fail_with(b.error(), parts.text_path);
        m.model_name.raw = std::move(*b);
      } else if (!parts.raw) {
        auto b = canonical_name(m.model_name.text, enc_, field);
        if (!b) return fail_with(b.error(), "model_name");
        m.model_name.raw = std::move(*b);
      }
    }
    if (const Value* v = find(root, "sections_present")) {
      MMDKIT_TRY_ASSIGN(auto n, integer(*v, "sections_present", 0, kSectionCount));
      m.sections_present = static_cast<int>(n);
    }
    if (const Value* v = find(root, "bone_names")) {
      if (auto r = name_table(*v, "bone_names", m.bone_names, bone_index_, bone_text_); !r) return r;
    }
    if (const Value* v = find(root, "morph_names")) {
      if (auto r = name_table(*v, "morph_names", m.morph_names, morph_index_, morph_text_); !r) return r;
    }
    if (auto r = keys(root, "bone_keys", m.bone_keys, &Parser::bone_key); !r) return r;
    if (auto r = keys(root, "morph_keys", m.morph_keys, &Parser::morph_key); !r) return r;
    if (auto r = keys(root, "camera_keys", m.camera_keys, &Parser::camera_key); !r) return r;
    if (auto r = keys(root, "light_keys", m.light_keys, &Parser::light_key); !r) return r;
    if (auto r = keys(root, "self_shadow_keys", m.self_shadow_keys, &Parser::self_shadow_key); !r) return r;
    if (auto r = keys(root, "property_keys", m.property_keys, &Parser::property_key); !r) return r;
    if (const Value* v = find(root, "trailing_offset")) {
      MMDKIT_TRY_ASSIGN(auto n, integer(*v, "trailing_offset", -1, INT64_MAX));
      m.trailing_offset = n;
    }
    if (const Value* v = find(root, "trailing_hex")) {
      MMDKIT_TRY_ASSIGN(auto b, hex(*v, "trailing_hex", 0, false));
      m.trailing = std::move(b);
    }
    return {};
  }

 private:
  Encoding enc_ = Encoding::cp932;
  // Raw 15-byte name (as a string) -> index in the name table; and text -> index for names given
  // as text only (saves encoding the same text for every key).
  std::unordered_map<std::string, std::uint32_t> bone_index_, morph_index_;
  std::unordered_map<std::string, std::uint32_t> bone_text_, morph_text_;
  std::int64_t record_ = -1;

  std::unexpected<Error> fail(const std::string& path, std::string message) const {
    return std::unexpected(Error{ErrorCode::json_schema, std::move(message), path, record_, -1, {}});
  }
  std::unexpected<Error> fail_with(Error e, const std::string& path) const {
    e.section = path;
    e.record = record_;
    return std::unexpected(std::move(e));
  }

  static const Value* find(const Value& obj, const char* name) {
    auto it = obj.FindMember(name);
    return it == obj.MemberEnd() ? nullptr : &it->value;
  }

  static std::string join(const std::string& path, std::string_view member) {
    if (path.empty()) return std::string(member);
    std::string s;
    s.reserve(path.size() + 1 + member.size());
    s += path;
    s += '.';
    s += member;
    return s;
  }

  Result<void> allowed(const Value& obj, const std::string& path, std::initializer_list<std::string_view> names) {
    for (auto it = obj.MemberBegin(); it != obj.MemberEnd(); ++it) {
      std::string_view key(it->name.GetString(), it->name.GetStringLength());
      if (std::find(names.begin(), names.end(), key) == names.end()) {
        std::string list;
        for (auto n : names) list += (list.empty() ? "" : ", ") + std::string(n);
        return fail(join(path, key), "unknown member (allowed here: " + list + ")");
      }
    }
    return {};
  }

  Result<std::int64_t> integer(const Value& v, const std::string& path, std::int64_t lo, std::int64_t hi) const {
    if (!is_number(v)) return fail(path, std::string("must be an integer, found ") + type_name(v));
    std::string_view t = number_text(v);
    std::int64_t n = 0;
    auto r = std::from_chars(t.data(), t.data() + t.size(), n);
    if (r.ec == std::errc::result_out_of_range)
      return fail(path, "integer " + std::string(t) + " out of range [" + std::to_string(lo) + ", " +
                            std::to_string(hi) + "]");
    if (r.ec != std::errc{} || r.ptr != t.data() + t.size())
      return fail(path, "must be an integer, found " + std::string(t));
    if (n < lo || n > hi)
      return fail(path, "integer " + std::string(t) + " out of range [" + std::to_string(lo) + ", " +
                            std::to_string(hi) + "]");
    return n;
  }

  Result<float> real(const Value& v, const std::string& path) const {
    if (is_number(v)) {
      if (auto f = parse_float(number_text(v))) return *f;
      return fail(path, "number " + std::string(number_text(v)) + " is not a binary32 value");
    }
    if (v.IsString()) {
      // Exactly the forms of format_float_json (parse_float alone would also take "NaN", "infinity").
      const std::string_view t = string_text(v);
      auto f = (t == "inf" || t == "-inf" || t.starts_with("nan:")) ? parse_float(t) : std::nullopt;
      if (f && !std::isfinite(*f)) return *f;
      return fail(path, "must be a number, or \"inf\", \"-inf\", \"nan:XXXXXXXX\"; found \"" +
                            std::string(string_text(v)) + "\"");
    }
    return fail(path, std::string("must be a number, found ") + type_name(v));
  }

  template <std::size_t N>
  Result<void> reals(const Value& v, const std::string& path, std::array<float, N>& out) const {
    if (!v.IsArray()) return fail(path, "must be an array of " + std::to_string(N) + " numbers, found " + type_name(v));
    if (v.Size() != N)
      return fail(path, "must have " + std::to_string(N) + " elements, found " + std::to_string(v.Size()));
    for (std::size_t i = 0; i < N; ++i) {
      MMDKIT_TRY_ASSIGN(auto f, real(v[static_cast<rapidjson::SizeType>(i)], path + "[" + std::to_string(i) + "]"));
      out[i] = f;
    }
    return {};
  }

  /// Hex bytes; exact size when `exact`, else at most `max` bytes (max 0 = any).
  Result<std::vector<std::uint8_t>> hex(const Value& v, const std::string& path, std::size_t max, bool exact) const {
    if (!is_text(v)) return fail(path, std::string("must be a string of hex digits, found ") + type_name(v));
    auto b = from_hex(string_text(v));
    if (!b) return fail(path, "not a string of hex digits (two per byte)");
    if (exact && b->size() != max)
      return fail(path, "must hold " + std::to_string(max) + " bytes, found " + std::to_string(b->size()));
    if (!exact && max != 0 && b->size() > max)
      return fail(path, "holds " + std::to_string(b->size()) + " bytes, the field has " + std::to_string(max));
    return std::move(*b);
  }

  Result<std::uint8_t> byte(const Value& v, const std::string& path) const {
    MMDKIT_TRY_ASSIGN(auto n, integer(v, path, 0, 255));
    return static_cast<std::uint8_t>(n);
  }

  Result<Curve> curve(const Value& v, const std::string& path) const {
    if (!v.IsArray() || v.Size() != 4)
      return fail(path, std::string("must be an array [x1, y1, x2, y2] of integers 0..255, found ") +
                            (v.IsArray() ? std::to_string(v.Size()) + " elements" : type_name(v)));
    std::uint8_t b[4];
    for (rapidjson::SizeType i = 0; i < 4; ++i) {
      MMDKIT_TRY_ASSIGN(auto n, byte(v[i], path + "[" + std::to_string(i) + "]"));
      b[i] = n;
    }
    return Curve{b[0], b[1], b[2], b[3]};
  }

  /// Where a stored name's text and raw bytes are: member `key` as a string or as the one name
  /// form {"text": ..., "raw": "hex"}; files dumped before it give the raw bytes in a sibling
  /// "<key>_hex" (still read). Missing parts are null.
  struct NameParts {
    const Value* text = nullptr;
    const Value* raw = nullptr;
    std::string text_path, raw_path;
  };
  Result<NameParts> name_parts(const Value& obj, const std::string& path, const char* key) {
    NameParts p;
    const Value* v = find(obj, key);
    const std::string hex_key = std::string(key) + "_hex";
    if (v && v->IsObject()) {
      if (find(obj, hex_key.c_str())) return fail(join(path, hex_key), "give the raw bytes once, in the name object");
      MMDKIT_TRY(allowed(*v, join(path, key), {"text", "raw"}));
      p.text = find(*v, "text");
      p.raw = find(*v, "raw");
      if (!p.text || !p.raw) return fail(join(path, key), "a name object needs \"text\" and \"raw\"");
      p.text_path = join(join(path, key), "text");
      p.raw_path = join(join(path, key), "raw");
      return p;
    }
    p.text = v;
    p.raw = find(obj, hex_key.c_str());
    p.text_path = join(path, key);
    p.raw_path = join(path, hex_key);
    return p;
  }

  /// Reads the raw bytes of a name: the raw hex if given and the text is what it decodes to, else
  /// the text encoded and NUL-padded (an edited text wins over stale raw bytes).
  template <std::size_t N>
  Result<FixedName<N>> fixed_name(const Value& obj, const std::string& path, std::size_t field) {
    FixedName<N> n;
    MMDKIT_TRY_ASSIGN(auto parts, name_parts(obj, path, "name"));
    const Value* text = parts.text;
    if (!text) return fail(join(path, "name"), "missing member");
    if (!is_text(*text)) return fail(parts.text_path, std::string("must be a string, found ") + type_name(*text));
    n.text.assign(text->GetString(), text->GetStringLength());
    const Value* h = parts.raw;
    if (h) {
      MMDKIT_TRY_ASSIGN(auto b, hex(*h, parts.raw_path, field, false));
      n.raw = std::move(b);
    }
    if (!h || !text_matches_raw(n.raw, n.text, enc_)) {
      auto b = canonical_name(n.text, enc_, field);
      if (!b) return fail_with(b.error(), parts.text_path);
      n.raw = std::move(*b);
    }
    return n;
  }

  Result<void> name_table(const Value& v, const std::string& path, std::vector<TrackName>& names,
                          std::unordered_map<std::string, std::uint32_t>& index,
                          std::unordered_map<std::string, std::uint32_t>& by_text) {
    if (!v.IsArray()) return fail(path, std::string("must be an array, found ") + type_name(v));
    names.reserve(v.Size());
    for (rapidjson::SizeType i = 0; i < v.Size(); ++i) {
      std::string p = path + "[" + std::to_string(i) + "]";
      const Value& e = v[i];
      if (!e.IsObject()) return fail(p, std::string("must be an object, found ") + type_name(e));
      if (auto r = allowed(e, p, {"name", "name_hex"}); !r) return r;
      MMDKIT_TRY_ASSIGN(auto n, fixed_name<kTrackNameSize>(e, p, kTrackNameSize));
      const auto idx = static_cast<std::uint32_t>(names.size());
      index.try_emplace(std::string(n.raw.begin(), n.raw.end()), idx);
      by_text.try_emplace(n.text, idx);  // a text shared by several names means the first
      names.push_back(std::move(n));
    }
    return {};
  }

  /// The name index of a bone or morph key: by "name_index", or by raw name (added on first use).
  Result<std::uint32_t> track_name(const Value& obj, const std::string& path, std::vector<TrackName>& names,
                                   std::unordered_map<std::string, std::uint32_t>& index,
                                   std::unordered_map<std::string, std::uint32_t>& by_text) {
    if (const Value* ni = find(obj, "name_index")) {
      if (find(obj, "name")) return fail(join(path, "name_index"), "give either name or name_index, not both");
      auto n = integer(*ni, join(path, "name_index"), 0, static_cast<std::int64_t>(names.size()) - 1);
      if (!n) {
        if (names.empty()) return fail(join(path, "name_index"), "no name table (bone_names / morph_names) to index");
        return std::unexpected(n.error());
      }
      return static_cast<std::uint32_t>(*n);
    }
    const Value* text = find(obj, "name");
    const bool h = find(obj, "name_hex") || (text && text->IsObject());  // raw bytes given
    if (text && is_text(*text) && !h) {
      std::string_view t(text->GetString(), text->GetStringLength());
      auto it = by_text.find(std::string(t));
      if (it != by_text.end()) return it->second;
    }
    MMDKIT_TRY_ASSIGN(auto n, fixed_name<kTrackNameSize>(obj, path, kTrackNameSize));
    std::string key(n.raw.begin(), n.raw.end());
    std::uint32_t idx;
    if (auto it = index.find(key); it != index.end()) {
      idx = it->second;
    } else {
      idx = static_cast<std::uint32_t>(names.size());
      index.emplace(std::move(key), idx);
      names.push_back(n);
    }
    if (!h) by_text.emplace(n.text, idx);
    return idx;
  }

  template <class Key>
  Result<void> keys(const Value& root, const char* member, std::vector<Key>& out,
                    Result<void> (Parser::*fn)(const Value&, const std::string&, Key&)) {
    const Value* v = find(root, member);
    if (!v) return {};
    if (!v->IsArray()) return fail(member, std::string("must be an array, found ") + type_name(*v));
    out.resize(v->Size());
    for (rapidjson::SizeType i = 0; i < v->Size(); ++i) {
      std::string p = std::string(member) + "[" + std::to_string(i) + "]";
      record_ = i;
      const Value& e = (*v)[i];
      if (!e.IsObject()) return fail(p, std::string("must be an object, found ") + type_name(e));
      if (auto r = (this->*fn)(e, p, out[i]); !r) return r;
    }
    record_ = -1;
    return {};
  }

  Result<void> frame(const Value& obj, const std::string& path, std::uint32_t& out) const {
    const Value* f = find(obj, "frame");
    if (!f) return fail(join(path, "frame"), "missing member");
    MMDKIT_TRY_ASSIGN(auto n, integer(*f, join(path, "frame"), 0, UINT32_MAX));
    out = static_cast<std::uint32_t>(n);
    return {};
  }

  Result<void> bone_key(const Value& obj, const std::string& path, BoneKey& k) {
    if (auto r = allowed(obj, path,
                         {"frame", "name", "name_hex", "name_index", "position", "rotation", "euler",
                          "interpolation", "physics_off", "toggle", "pad", "interpolation_hex"});
        !r)
      return r;
    if (auto r = frame(obj, path, k.frame); !r) return r;
    MMDKIT_TRY_ASSIGN(auto idx, track_name(obj, path, m.bone_names, bone_index_, bone_text_));
    k.name = idx;
    if (const Value* v = find(obj, "position"))
      if (auto r = reals(*v, join(path, "position"), k.position); !r) return r;
    if (const Value* v = find(obj, "rotation")) {
      if (auto r = reals(*v, join(path, "rotation"), k.rotation); !r) return r;
      if (const Value* e = find(obj, "euler")) {  // wins over the quaternion only when edited
        std::array<float, 3> deg{};
        if (auto r = reals(*e, join(path, "euler"), deg); !r) return r;
        if (euler_edited(deg, k.rotation)) k.rotation = euler_degrees_to_quaternion(deg);
      }
    } else if (const Value* e = find(obj, "euler")) {
      std::array<float, 3> deg{};
      if (auto r = reals(*e, join(path, "euler"), deg); !r) return r;
      k.rotation = euler_degrees_to_quaternion(deg);
    }
    BoneInterpolation b;  // curves default to linear
    if (const Value* v = find(obj, "interpolation")) {
      std::string p = join(path, "interpolation");
      if (!v->IsObject()) return fail(p, std::string("must be an object, found ") + type_name(*v));
      if (auto r = allowed(*v, p, {"x", "y", "z", "rotation"}); !r) return r;
      Curve* cs[4] = {&b.x, &b.y, &b.z, &b.rotation};
      static constexpr const char* names4[4] = {"x", "y", "z", "rotation"};
      for (int c = 0; c < 4; ++c) {
        if (const Value* cv = find(*v, names4[c])) {
          MMDKIT_TRY_ASSIGN(auto cr, curve(*cv, join(p, names4[c])));
          *cs[c] = cr;
        }
      }
    }
    std::array<std::uint8_t, 2> toggle{b.z.x1, b.rotation.x1};
    const Value* po = find(obj, "physics_off");
    const Value* tg = find(obj, "toggle");
    if (po && tg) return fail(join(path, "toggle"), "give either physics_off or toggle, not both");
    if (po) {
      if (!po->IsBool()) return fail(join(path, "physics_off"), std::string("must be true or false, found ") + type_name(*po));
      toggle = po->GetBool() ? std::array<std::uint8_t, 2>{0x63, 0x0F} : std::array<std::uint8_t, 2>{0, 0};
    } else if (tg) {
      std::string p = join(path, "toggle");
      if (!tg->IsArray() || tg->Size() != 2) return fail(p, "must be an array of 2 integers 0..255");
      for (rapidjson::SizeType i = 0; i < 2; ++i) {
        MMDKIT_TRY_ASSIGN(auto n, byte((*tg)[i], p + "[" + std::to_string(i) + "]"));
        toggle[i] = n;
      }
    }
    Pad pad = kCanonicalPad;
    if (const Value* pv = find(obj, "pad")) {
      std::string p = join(path, "pad");
      if (!pv->IsArray() || pv->Size() != 3) return fail(p, "must be an array of 3 integers 0..255");
      for (rapidjson::SizeType i = 0; i < 3; ++i) {
        MMDKIT_TRY_ASSIGN(auto n, byte((*pv)[i], p + "[" + std::to_string(i) + "]"));
        pad[i] = n;
      }
    }
    if (const Value* h = find(obj, "interpolation_hex")) {
      MMDKIT_TRY_ASSIGN(auto bytes, hex(*h, join(path, "interpolation_hex"), 64, true));
      std::copy(bytes.begin(), bytes.end(), k.interpolation.begin());
    } else {
      k.interpolation = bone_block(b, toggle, pad);
    }
    return {};
  }

  Result<void> morph_key(const Value& obj, const std::string& path, MorphKey& k) {
    if (auto r = allowed(obj, path, {"frame", "name", "name_hex", "name_index", "weight"}); !r) return r;
    if (auto r = frame(obj, path, k.frame); !r) return r;
    MMDKIT_TRY_ASSIGN(auto idx, track_name(obj, path, m.morph_names, morph_index_, morph_text_));
    k.name = idx;
    if (const Value* v = find(obj, "weight")) {
      MMDKIT_TRY_ASSIGN(auto f, real(*v, join(path, "weight")));
      k.weight = f;
    }
    return {};
  }

  Result<void> camera_key(const Value& obj, const std::string& path, CameraKey& k) {
    if (auto r = allowed(obj, path,
                         {"frame", "distance", "target", "rotation", "view_angle", "perspective", "interpolation",
                          "interpolation_hex"});
        !r)
      return r;
    if (auto r = frame(obj, path, k.frame); !r) return r;
    if (const Value* v = find(obj, "distance")) {
      MMDKIT_TRY_ASSIGN(auto f, real(*v, join(path, "distance")));
      k.distance = f;
    }
    if (const Value* v = find(obj, "target"))
      if (auto r = reals(*v, join(path, "target"), k.target); !r) return r;
    if (const Value* v = find(obj, "rotation"))
      if (auto r = reals(*v, join(path, "rotation"), k.rotation); !r) return r;
    if (const Value* v = find(obj, "view_angle")) {
      MMDKIT_TRY_ASSIGN(auto n, integer(*v, join(path, "view_angle"), 0, UINT32_MAX));
      k.view_angle = static_cast<std::uint32_t>(n);
    }
    if (const Value* v = find(obj, "perspective")) {
      MMDKIT_TRY_ASSIGN(auto n, byte(*v, join(path, "perspective")));
      k.perspective = n;
    }
    CameraInterpolation c;
    if (const Value* v = find(obj, "interpolation")) {
      std::string p = join(path, "interpolation");
      if (!v->IsObject()) return fail(p, std::string("must be an object, found ") + type_name(*v));
      if (auto r = allowed(*v, p, {"x", "y", "z", "rotation", "distance", "view_angle"}); !r) return r;
      Curve* cs[6] = {&c.x, &c.y, &c.z, &c.rotation, &c.distance, &c.view_angle};
      static constexpr const char* names6[6] = {"x", "y", "z", "rotation", "distance", "view_angle"};
      for (int i = 0; i < 6; ++i) {
        if (const Value* cv = find(*v, names6[i])) {
          MMDKIT_TRY_ASSIGN(auto cr, curve(*cv, join(p, names6[i])));
          *cs[i] = cr;
        }
      }
    }
    if (const Value* h = find(obj, "interpolation_hex")) {
      MMDKIT_TRY_ASSIGN(auto bytes, hex(*h, join(path, "interpolation_hex"), 24, true));
      std::copy(bytes.begin(), bytes.end(), k.interpolation.begin());
    } else {
      k.interpolation = encode_camera_interpolation(c);
    }
    return {};
  }

  Result<void> light_key(const Value& obj, const std::string& path, LightKey& k) {
    if (auto r = allowed(obj, path, {"frame", "color", "direction"}); !r) return r;
    if (auto r = frame(obj, path, k.frame); !r) return r;
    if (const Value* v = find(obj, "color"))
      if (auto r = reals(*v, join(path, "color"), k.color); !r) return r;
    if (const Value* v = find(obj, "direction"))
      if (auto r = reals(*v, join(path, "direction"), k.direction); !r) return r;
    return {};
  }

  Result<void> self_shadow_key(const Value& obj, const std::string& path, SelfShadowKey& k) {
    if (auto r = allowed(obj, path, {"frame", "mode", "distance"}); !r) return r;
    if (auto r = frame(obj, path, k.frame); !r) return r;
    if (const Value* v = find(obj, "mode")) {
      MMDKIT_TRY_ASSIGN(auto n, byte(*v, join(path, "mode")));
      k.mode = n;
    }
    if (const Value* v = find(obj, "distance")) {
      MMDKIT_TRY_ASSIGN(auto f, real(*v, join(path, "distance")));
      k.distance = f;
    }
    return {};
  }

  Result<void> property_key(const Value& obj, const std::string& path, PropertyKey& k) {
    if (auto r = allowed(obj, path, {"frame", "visible", "ik"}); !r) return r;
    if (auto r = frame(obj, path, k.frame); !r) return r;
    if (const Value* v = find(obj, "visible")) {
      MMDKIT_TRY_ASSIGN(auto n, byte(*v, join(path, "visible")));
      k.visible = n;
    }
    if (const Value* v = find(obj, "ik")) {
      std::string p = join(path, "ik");
      if (!v->IsArray()) return fail(p, std::string("must be an array, found ") + type_name(*v));
      k.ik.resize(v->Size());
      for (rapidjson::SizeType i = 0; i < v->Size(); ++i) {
        std::string pi = p + "[" + std::to_string(i) + "]";
        const Value& e = (*v)[i];
        if (!e.IsObject()) return fail(pi, std::string("must be an object, found ") + type_name(e));
        if (auto r = allowed(e, pi, {"name", "name_hex", "enabled"}); !r) return r;
        MMDKIT_TRY_ASSIGN(auto n, fixed_name<kIkNameSize>(e, pi, kIkNameSize));
        k.ik[i].name = std::move(n);
        if (const Value* en = find(e, "enabled")) {
          MMDKIT_TRY_ASSIGN(auto b, byte(*en, join(pi, "enabled")));
          k.ik[i].enabled = b;
        }
      }
    }
    return {};
  }
};

}  // namespace

std::string to_json(const Motion& motion, const JsonWriteOptions& options) {
  Writer w{motion, options, Out{}};
  w.run();
  return std::move(w.o.out);
}

Result<Motion> from_json(std::string_view text) {
  Document doc;
  MMDKIT_TRY(json::parse_marked(text, doc));
  Parser p;
  MMDKIT_TRY(p.run(doc));
  return std::move(p.m);
}

}  // namespace mmdkit::vmd
