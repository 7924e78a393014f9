// VPD <-> lossless JSON (vpd_json.hpp). Writing streams into a std::string; reading uses RapidJSON
// with numbers kept as text (kParseNumbersAsStringsFlag) so tokens survive unchanged.
#include "mmdkit/formats/vpd_json.hpp"

#include <rapidjson/document.h>
#include <rapidjson/error/en.h>

#include <bit>
#include <cmath>
#include <cstdlib>

#include "core/json.hpp"
#include "core/json_writer.hpp"
#include "mmdkit/core/euler.hpp"
#include "mmdkit/core/number.hpp"
#include "mmdkit/core/text.hpp"
#include "core/try.hpp"

namespace mmdkit::vpd {

namespace {

// ------------------------------------------------------------------------------------------
// Writing
// ------------------------------------------------------------------------------------------

/// JSON number syntax (RFC 8259): -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
bool is_json_number(std::string_view t) {
  std::size_t i = 0;
  auto digits = [&] {
    std::size_t n = 0;
    while (i < t.size() && t[i] >= '0' && t[i] <= '9') ++i, ++n;
    return n;
  };
  if (i < t.size() && t[i] == '-') ++i;
  if (i < t.size() && t[i] == '0') {
    ++i;
  } else if (digits() == 0) {
    return false;
  }
  if (i < t.size() && t[i] == '.') {
    ++i;
    if (digits() == 0) return false;
  }
  if (i < t.size() && (t[i] == 'e' || t[i] == 'E')) {
    ++i;
    if (i < t.size() && (t[i] == '+' || t[i] == '-')) ++i;
    if (digits() == 0) return false;
  }
  return i == t.size();
}

/// True when RapidJSON can read `t` (JSON number syntax) as a number: it rejects values beyond
/// double range even with kParseNumbersAsStringsFlag ("Number too big"), and a huge exponent
/// such as "0.0e06657" (value 0) trips the same check. Such tokens are written as JSON strings.
bool json_number_readable(std::string_view t) {
  if (!is_json_number(t)) return false;
  const std::size_t e = t.find_first_of("eE");
  if (e != std::string_view::npos) {
    std::size_t i = e + 1;
    if (i < t.size() && (t[i] == '+' || t[i] == '-')) ++i;
    while (i < t.size() && t[i] == '0') ++i;  // leading zeros of the exponent
    if (t.size() - i > 3) return false;       // |exponent| >= 1000
    int v = 0;
    for (; i < t.size(); ++i) v = v * 10 + (t[i] - '0');
    if (v > 300) return false;
  }
  const std::string s(t);
  return std::isfinite(std::strtod(s.c_str(), nullptr));
}

ByteSpan span_of(const std::string& s) { return {reinterpret_cast<const std::uint8_t*>(s.data()), s.size()}; }

/// Text if the bytes decode and re-encode to themselves, else nullopt (use hex).
std::optional<std::string> as_text(ByteSpan bytes, Encoding enc) {
  if (count_invalid(bytes, enc) != 0) return std::nullopt;
  std::string t = decode_text(bytes, enc);
  auto back = encode_text(t, enc);
  if (!back || !std::equal(back->begin(), back->end(), bytes.begin(), bytes.end())) return std::nullopt;
  return t;
}

class Writer : public json::Writer {
 public:
  Writer(Encoding enc, bool pretty) : enc_(enc), pretty_(pretty) {}

  /// Separator before an element: "," if needed, then a line break + `indent` spaces (pretty,
  /// indent >= 0) or a space.
  void sep(int indent = -1) {
    if (need_comma_) out += ',';
    if (pretty_ && indent >= 0) {
      out += '\n';
      out.append(static_cast<std::size_t>(indent), ' ');
    } else if (need_comma_) {
      out += ' ';
    }
    need_comma_ = true;
  }
  void key(std::string_view k, int indent = -1) {
    sep(indent);
    string(k);
    out += ": ";
  }
  void open(char c) {
    out += c;
    need_comma_ = false;
  }
  void close(char c, int indent = -1) {
    if (pretty_ && indent >= 0) {
      out += '\n';
      out.append(static_cast<std::size_t>(indent), ' ');
    }
    out += c;
    need_comma_ = true;
  }
  void string_member(std::string_view k, std::string_view v, int indent = -1) {
    key(k, indent);
    string(v);
  }
  /// A stored text in the one name form (json::append_name): `raw` only when needed.
  void name_member(std::string_view k, std::string_view text, std::optional<ByteSpan> raw, int indent = -1) {
    key(k, indent);
    name(text, raw);
  }
  /// "k": text, or "k_hex": hex.
  void bytes_member(const std::string& k, ByteSpan b) {
    if (auto t = as_text(b, enc_)) {
      string_member(k, *t);
    } else {
      string_member(k + "_hex", to_hex(b));
    }
  }
  void bytes_array(const std::string& k, const std::string* items, std::size_t n) {
    bool text = true;
    for (std::size_t i = 0; i < n && text; ++i) text = as_text(span_of(items[i]), enc_).has_value();
    key(text ? k : k + "_hex");
    open('[');
    for (std::size_t i = 0; i < n; ++i) {
      sep();
      string(text ? *as_text(span_of(items[i]), enc_) : to_hex(span_of(items[i])));
    }
    close(']');
  }
  /// A number value: an array element (`element`, preceded by a separator) or a member's value.
  void number(const std::string& token, float v, bool element = true) {
    if (element) sep();
    std::string t = token;
    if (t.empty() || !parse_number(t) ||
        std::bit_cast<std::uint32_t>(*parse_number(t)) != std::bit_cast<std::uint32_t>(v)) {
      if (!std::isfinite(v)) {
        out += format_float_json(v);
        return;
      }
      t = format_number(v);
    }
    if (json_number_readable(t)) {
      out += t;
    } else {
      string(t);
    }
  }

 private:
  Encoding enc_;
  bool pretty_;
  bool need_comma_ = false;
};

std::string line_ending_name(LineEnding le) { return le == LineEnding::crlf ? "crlf" : "lf"; }

}  // namespace

std::string to_json(const Pose& pose, const JsonWriteOptions& options) {
  Writer w(pose.encoding, options.pretty);
  const HeaderLayout ch = canonical_header_layout(pose.line_ending);
  const BoneLayout cb = canonical_bone_layout(pose.line_ending);
  const MorphLayout cm = canonical_morph_layout(pose.line_ending);
  w.open('{');
  w.string_member("format", "vpd");  // first, on the first line: {"format": "vpd",
  w.string_member("encoding", encoding_name(pose.encoding), 2);
  w.string_member("line_ending", line_ending_name(pose.line_ending), 2);
  // Names and the model file: the text, with the stored bytes only when the text would not
  // encode to them (the one name form, docs/CONVENTIONS.md "Text").
  auto stored = [&](const std::vector<std::uint8_t>& raw) -> std::optional<ByteSpan> {
    if (raw.empty() || as_text(raw, pose.encoding)) return std::nullopt;
    return ByteSpan(raw.data(), raw.size());
  };
  w.name_member("model_file",
                pose.model_file.raw.empty() ? pose.model_file.text : decode_text(pose.model_file.raw, pose.encoding),
                stored(pose.model_file.raw), 2);
  if (pose.layout.present) {
    const HeaderLayout& h = pose.layout;
    const bool count_differs = !h.count.empty() && h.count != std::to_string(pose.bones.size());
    if (h.after_signature != ch.after_signature || h.after_model_file != ch.after_model_file ||
        h.after_count != ch.after_count || h.tail != ch.tail || count_differs) {
      w.key("header", 2);
      w.open('{');
      if (h.after_signature != ch.after_signature) w.bytes_member("after_signature", span_of(h.after_signature));
      if (h.after_model_file != ch.after_model_file) w.bytes_member("after_model_file", span_of(h.after_model_file));
      if (count_differs) w.string_member("count", h.count);
      if (h.after_count != ch.after_count) w.bytes_member("after_count", span_of(h.after_count));
      if (h.tail != ch.tail) w.bytes_member("tail", span_of(h.tail));
      w.close('}');
    }
  }
  auto name_members = [&](const EncodedText& name) {
    w.name_member("name", name.raw.empty() ? name.text : decode_text(name.raw, pose.encoding), stored(name.raw));
  };
  w.key("bones", 2);
  w.open('[');
  for (std::size_t i = 0; i < pose.bones.size(); ++i) {
    const Bone& b = pose.bones[i];
    w.sep(4);
    w.open('{');
    name_members(b.name);
    w.key("translation");
    w.open('[');
    for (std::size_t j = 0; j < 3; ++j) w.number(b.layout.numbers[j], b.translation[j]);
    w.close(']');
    w.key("rotation");
    w.open('[');
    for (std::size_t j = 0; j < 4; ++j) w.number(b.layout.numbers[3 + j], b.rotation[j]);
    w.close(']');
    if (options.euler) {
      const std::array<float, 3> e = quaternion_to_euler_degrees(b.rotation);
      w.key("euler");
      w.open('[');
      for (float v : e) w.number(format_float_json(v), v);  // shortest text, as VMD JSON writes it
      w.close(']');
    }
    if (!b.layout.index.empty() && b.layout.index != std::to_string(i)) w.string_member("index", b.layout.index);
    if (b.layout.present) {
      if (b.layout.lead != cb.lead) w.bytes_member("lead", span_of(b.layout.lead));
      if (b.layout.gaps != cb.gaps) w.bytes_array("gaps", b.layout.gaps.data(), b.layout.gaps.size());
    }
    w.close('}');
  }
  w.close(']', pose.bones.empty() ? -1 : 2);
  w.key("morphs", 2);
  w.open('[');
  for (std::size_t i = 0; i < pose.morphs.size(); ++i) {
    const Morph& m = pose.morphs[i];
    w.sep(4);
    w.open('{');
    name_members(m.name);
    w.key("weight");
    w.number(m.layout.number, m.weight, false);
    if (!m.layout.index.empty() && m.layout.index != std::to_string(i)) w.string_member("index", m.layout.index);
    if (m.layout.present) {
      if (m.layout.lead != cm.lead) w.bytes_member("lead", span_of(m.layout.lead));
      if (m.layout.gaps != cm.gaps) w.bytes_array("gaps", m.layout.gaps.data(), m.layout.gaps.size());
    }
    w.close('}');
  }
  w.close(']', pose.morphs.empty() ? -1 : 2);
  w.close('}', 0);
  w.out += '\n';
  return std::move(w.out);
}

// ------------------------------------------------------------------------------------------
// Reading
// ------------------------------------------------------------------------------------------

namespace {

using Value = rapidjson::Value;

std::unexpected<Error> schema(const std::string& path, const std::string& why) {
  return make_error(ErrorCode::json_schema, why, path);
}

const Value* member(const Value& obj, const char* name) {
  auto it = obj.FindMember(name);
  return it == obj.MemberEnd() ? nullptr : &it->value;
}

Result<std::string> get_string(const Value& obj, const char* name, const std::string& path) {
  const Value* v = member(obj, name);
  if (!v) return schema(path + "." + name, "missing");
  if (!v->IsString()) return schema(path + "." + name, "expected a string");
  return std::string(v->GetString(), v->GetStringLength());
}

/// Member "k" (text, encoded) or "k_hex"; nullopt when neither is present. With `text_wins`
/// (names, model file), "k" may also be the one name form {"text", "raw"} (files dumped before it
/// give "k" and "k_hex"): the raw bytes are used only while the text is absent or is what they
/// decode to; an edited text wins and is encoded (see docs/formats/vpd.md).
Result<std::optional<std::string>> get_bytes(const Value& obj, const std::string& k, Encoding enc,
                                             const std::string& path, bool text_wins = false) {
  std::string hk = k + "_hex";
  const Value* v = member(obj, k.c_str());
  const Value* h = member(obj, hk.c_str());
  std::string text_key = k;
  if (text_wins && v && v->IsObject()) {
    const Value* t = member(*v, "text");
    const Value* r = member(*v, "raw");
    if (!t || !r || v->MemberCount() != 2) return schema(path + "." + k, "expected a string or {\"text\", \"raw\"}");
    v = t;
    h = r;
    text_key = k + ".text";
    hk = k + ".raw";
  }
  if (h) {
    if (!h->IsString()) return schema(path + "." + hk, "expected a hex string");
    auto b = from_hex(std::string_view(h->GetString(), h->GetStringLength()));
    if (!b) return schema(path + "." + hk, "not an even-length hex string");
    if (!text_wins || !v || !v->IsString() ||
        decode_text(ByteSpan(b->data(), b->size()), enc) == std::string_view(v->GetString(), v->GetStringLength()))
      return std::optional<std::string>(std::string(b->begin(), b->end()));
  }
  if (!v) return std::optional<std::string>();
  if (!v->IsString()) return schema(path + "." + text_key, "expected a string");
  auto b = encode_text(std::string_view(v->GetString(), v->GetStringLength()), enc);
  if (!b) {
    Error e = b.error();
    e.section = path + "." + text_key;
    return std::unexpected(std::move(e));
  }
  return std::optional<std::string>(std::string(b->begin(), b->end()));
}

/// An array of n text-or-hex strings ("k" or "k_hex"); false when absent.
Result<bool> get_bytes_array(const Value& obj, const std::string& k, Encoding enc, const std::string& path,
                             std::string* out, std::size_t n) {
  const std::string hk = k + "_hex";
  const Value* v = member(obj, hk.c_str());
  const bool hex = v != nullptr;
  if (!v) v = member(obj, k.c_str());
  if (!v) return false;
  const std::string p = path + "." + (hex ? hk : k);
  if (!v->IsArray() || v->Size() != n) return schema(p, "expected an array of " + std::to_string(n) + " strings");
  for (rapidjson::SizeType i = 0; i < n; ++i) {
    const Value& e = (*v)[i];
    const std::string ep = p + "[" + std::to_string(i) + "]";
    if (!e.IsString()) return schema(ep, "expected a string");
    std::string_view s(e.GetString(), e.GetStringLength());
    if (hex) {
      auto b = from_hex(s);
      if (!b) return schema(ep, "not an even-length hex string");
      out[i].assign(b->begin(), b->end());
    } else {
      auto b = encode_text(s, enc);
      if (!b) {
        Error err = b.error();
        err.section = ep;
        return std::unexpected(std::move(err));
      }
      out[i].assign(b->begin(), b->end());
    }
  }
  return true;
}

/// A number element: token text (number or string) → token + value.
Result<void> get_number(const Value& v, const std::string& path, std::string& token, float& value) {
  if (!v.IsString()) return schema(path, "expected a number");
  std::string_view s(v.GetString(), v.GetStringLength());
  if (auto f = parse_number(s)) {
    token.assign(s);
    value = *f;
    return {};
  }
  if (auto f = parse_float(s); f && !std::isfinite(*f)) {  // "inf", "-inf", "nan:XXXXXXXX"
    token.clear();
    value = *f;
    return {};
  }
  return schema(path, "'" + std::string(s) + "' is not a VPD number");
}

Result<void> get_numbers(const Value& obj, const char* name, const std::string& path, std::string* tokens,
                         float* values, std::size_t n) {
  const Value* v = member(obj, name);
  const std::string p = path + "." + name;
  if (!v) return schema(p, "missing");
  if (!v->IsArray() || v->Size() != n) return schema(p, "expected an array of " + std::to_string(n) + " numbers");
  for (rapidjson::SizeType i = 0; i < n; ++i) {
    auto r = get_number((*v)[i], p + "[" + std::to_string(i) + "]", tokens[i], values[i]);
    if (!r) return r;
  }
  return {};
}

Result<void> get_name(const Value& obj, Encoding enc, const std::string& path, EncodedText& name) {
  auto b = get_bytes(obj, "name", enc, path, true);
  if (!b) return std::unexpected(b.error());
  if (!*b) return schema(path + ".name", "missing");
  name.raw.assign((*b)->begin(), (*b)->end());
  name.text = decode_text(name.raw, enc);
  return {};
}

Result<void> get_index(const Value& obj, const std::string& path, std::string& index) {
  const Value* v = member(obj, "index");
  if (!v) return {};
  if (!v->IsString() || v->GetStringLength() == 0 || v->GetStringLength() > 10)
    return schema(path + ".index", "expected a string of 1 to 10 digits");
  std::string s(v->GetString(), v->GetStringLength());
  for (char c : s)
    if (c < '0' || c > '9') return schema(path + ".index", "expected a string of 1 to 10 digits");
  index = std::move(s);
  return {};
}

}  // namespace

Result<Pose> from_json(std::string_view text) {
  rapidjson::Document doc;
  doc.Parse<rapidjson::kParseNumbersAsStringsFlag | rapidjson::kParseValidateEncodingFlag | rapidjson::kParseIterativeFlag>(text.data(), text.size());
  if (doc.HasParseError())
    return json::syntax_error(text, doc.GetErrorOffset(), rapidjson::GetParseError_En(doc.GetParseError()), "");
  if (!doc.IsObject()) return schema("", "the document is not an object");
  MMDKIT_TRY_ASSIGN(auto format, get_string(doc, "format", ""));
  if (format != "vpd") return schema(".format", "expected \"vpd\", found \"" + format + "\"");

  Pose pose;
  if (const Value* e = member(doc, "encoding")) {
    if (!e->IsString()) return schema(".encoding", "expected a string");
    auto enc = parse_encoding_name(e->GetString());
    if (!enc || *enc == Encoding::utf16le) return schema(".encoding", "expected cp932, gbk or utf-8");
    pose.encoding = *enc;
  }
  if (const Value* le = member(doc, "line_ending")) {
    std::string s = le->IsString() ? le->GetString() : "";
    if (s == "crlf") pose.line_ending = LineEnding::crlf;
    else if (s == "lf") pose.line_ending = LineEnding::lf;
    else return schema(".line_ending", "expected \"crlf\" or \"lf\"");
  }
  const Encoding enc = pose.encoding;
  {
    auto m = get_bytes(doc, "model_file", enc, "", true);
    if (!m) return std::unexpected(m.error());
    if (!*m) return schema(".model_file", "missing");
    pose.model_file.raw.assign((*m)->begin(), (*m)->end());
    pose.model_file.text = decode_text(pose.model_file.raw, enc);
  }
  pose.layout = canonical_header_layout(pose.line_ending);
  if (const Value* h = member(doc, "header")) {
    if (!h->IsObject()) return schema(".header", "expected an object");
    std::pair<const char*, std::string*> parts[] = {{"after_signature", &pose.layout.after_signature},
                                                    {"after_model_file", &pose.layout.after_model_file},
                                                    {"after_count", &pose.layout.after_count},
                                                    {"tail", &pose.layout.tail}};
    for (auto& [k, dst] : parts) {
      auto b = get_bytes(*h, k, enc, ".header");
      if (!b) return std::unexpected(b.error());
      if (*b) *dst = **b;
    }
    if (const Value* c = member(*h, "count")) {
      if (!c->IsString()) return schema(".header.count", "expected a string of digits");
      pose.layout.count.assign(c->GetString(), c->GetStringLength());
    }
  }
  const BoneLayout cb = canonical_bone_layout(pose.line_ending);
  const MorphLayout cm = canonical_morph_layout(pose.line_ending);

  const Value* bones = member(doc, "bones");
  if (!bones || !bones->IsArray()) return schema(".bones", "expected an array");
  pose.bones.reserve(bones->Size());
  for (rapidjson::SizeType i = 0; i < bones->Size(); ++i) {
    const Value& o = (*bones)[i];
    const std::string path = ".bones[" + std::to_string(i) + "]";
    if (!o.IsObject()) return schema(path, "expected an object");
    Bone b;
    b.layout = cb;
    MMDKIT_TRY(get_name(o, enc, path, b.name));
    float values[7];
    if (auto r = get_numbers(o, "translation", path, b.layout.numbers.data(), values, 3); !r)
      return std::unexpected(r.error());
    // "euler" builds the quaternion when "rotation" is absent, and wins over it when edited.
    const bool has_euler = member(o, "euler") != nullptr;
    float deg[3] = {0.0f, 0.0f, 0.0f};
    if (has_euler) {
      std::string tokens[3];
      MMDKIT_TRY(get_numbers(o, "euler", path, tokens, deg, 3));
      for (std::size_t j = 0; j < 3; ++j)
        if (!std::isfinite(deg[j])) return schema(path + ".euler[" + std::to_string(j) + "]", "expected a finite number");
    }
    bool from_euler = has_euler;
    if (member(o, "rotation") || !has_euler) {
      if (auto r = get_numbers(o, "rotation", path, b.layout.numbers.data() + 3, values + 3, 4); !r)
        return std::unexpected(r.error());
      from_euler = has_euler && euler_edited({deg[0], deg[1], deg[2]}, {values[3], values[4], values[5], values[6]});
    }
    if (from_euler) {  // canonical number text for the new quaternion
      const std::array<float, 4> q = euler_degrees_to_quaternion({deg[0], deg[1], deg[2]});
      for (std::size_t j = 0; j < 4; ++j) {
        values[3 + j] = q[j] == 0.0f ? 0.0f : q[j];  // no "-0" text for a zero component
        b.layout.numbers[3 + j].clear();
      }
    }
    b.translation = {values[0], values[1], values[2]};
    b.rotation = {values[3], values[4], values[5], values[6]};
    MMDKIT_TRY(get_index(o, path, b.layout.index));
    auto lead = get_bytes(o, "lead", enc, path);
    if (!lead) return std::unexpected(lead.error());
    if (*lead) b.layout.lead = **lead;
    if (auto r = get_bytes_array(o, "gaps", enc, path, b.layout.gaps.data(), b.layout.gaps.size()); !r)
      return std::unexpected(r.error());
    pose.bones.push_back(std::move(b));
  }
  if (const Value* morphs = member(doc, "morphs")) {
    if (!morphs->IsArray()) return schema(".morphs", "expected an array");
    pose.morphs.reserve(morphs->Size());
    for (rapidjson::SizeType i = 0; i < morphs->Size(); ++i) {
      const Value& o = (*morphs)[i];
      const std::string path = ".morphs[" + std::to_string(i) + "]";
      if (!o.IsObject()) return schema(path, "expected an object");
      Morph m;
      m.layout = cm;
      MMDKIT_TRY(get_name(o, enc, path, m.name));
      const Value* wv = member(o, "weight");
      if (!wv) return schema(path + ".weight", "missing");
      MMDKIT_TRY(get_number(*wv, path + ".weight", m.layout.number, m.weight));
      MMDKIT_TRY(get_index(o, path, m.layout.index));
      auto lead = get_bytes(o, "lead", enc, path);
      if (!lead) return std::unexpected(lead.error());
      if (*lead) m.layout.lead = **lead;
      if (auto r = get_bytes_array(o, "gaps", enc, path, m.layout.gaps.data(), m.layout.gaps.size()); !r)
        return std::unexpected(r.error());
      pose.morphs.push_back(std::move(m));
    }
  }
  return pose;
}

}  // namespace mmdkit::vpd
