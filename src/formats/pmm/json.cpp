// PMM lossless JSON, both ways, over layout.hpp (so the JSON has exactly the file's fields, in
// the file's order, under the names of include/mmdkit/formats/pmm.hpp). Floats are written in the
// shortest form that reads back as the same binary32 (non-finite: "inf", "-inf", "nan:XXXXXXXX");
// names in the one name form (docs/CONVENTIONS.md "Names in JSON"). Numbers are read as text
// (RapidJSON kParseNumbersAsStringsFlag) and parsed by mmdkit::parse_float / from_chars.
#include <rapidjson/document.h>

#include <charconv>
#include <cmath>
#include <cstring>
#include <optional>
#include <string>
#include <type_traits>

#include "core/json.hpp"
#include "core/json_writer.hpp"
#include "core/json_marked.hpp"
#include "formats/pmm/layout.hpp"
#include "mmdkit/core/number.hpp"
#include "mmdkit/formats/pmm.hpp"
#include "core/try.hpp"

namespace mmdkit::pmm {
namespace {

using detail::Count;

/// JSON list elements that are records get braces; numbers, texts and outside parents (which
/// write their own braces) do not.
template <class T>
inline constexpr bool kRecord =
    !std::is_arithmetic_v<T> && !std::is_base_of_v<EncodedText, T> && !std::is_same_v<T, OutsideParent>;

/// The bytes the writer produces from `text` alone (encoded, NUL-padded to `field`), or nullopt.
std::optional<std::vector<std::uint8_t>> canonical(const std::string& text, Encoding enc, std::size_t field) {
  auto e = encode_text(text, enc);
  if (!e) return std::nullopt;
  if (field) {
    if (e->size() > field) return std::nullopt;
    e->resize(field, 0);
  } else if (e->size() > 255) {
    return std::nullopt;
  }
  return *e;
}

std::string hex(ByteSpan b) {
  std::string s;
  json::append_hex(s, b);
  return s;
}

class JsonOut : public detail::CountsFromLists, public json::Writer {
 public:
  explicit JsonOut(Encoding enc) : enc_(enc) { stack_.push_back({true, false}); }
  std::string& s() { return out; }
  bool ok() const noexcept { return true; }
  void section(const char*) {}
  void enter_model(std::size_t) {}
  void leave_model() {}
  void record(std::size_t, const char*) {}

  void key(const char* k) {
    Level& l = stack_.back();
    if (!l.first) out += ',';
    l.first = false;
    if (!l.inline_) {
      out += '\n';
      out.append(2 * (stack_.size() - 1), ' ');
    }
    if (k) {
      string(k);
      out += ": ";
    }
  }
  void open(char c, bool inline_) {
    out += c;
    stack_.push_back({true, inline_});
  }
  void close(char c) {
    const bool empty = stack_.back().first, inline_ = stack_.back().inline_;
    stack_.pop_back();
    if (!empty && !inline_) {
      out += '\n';
      out.append(2 * (stack_.size() - 1), ' ');
    }
    out += c;
  }
  void number(const char* k, long long v) {
    key(k);
    integer(v);
  }
  void u8(const char* k, std::uint8_t& v) { number(k, v); }
  void i32(const char* k, std::int32_t& v) { number(k, v); }
  void f32(const char* k, float& v) {
    key(k);
    json::Writer::number(v);
  }
  template <class A>
  void u8s(const char* k, A& a) {
    key(k);
    open('[', true);
    for (auto v : a) number(nullptr, v);
    close(']');
  }
  template <class A>
  void i32s(const char* k, A& a) {
    u8s(k, a);
  }
  template <class A>
  void f32s(const char* k, A& a) {
    key(k);
    open('[', true);
    for (auto& v : a) f32(nullptr, v);
    close(']');
  }
  void text(const char* k, EncodedText& t, std::size_t field) {
    key(k);
    auto c = canonical(t.text, enc_, field);
    const bool plain = t.raw.empty() || (c && *c == t.raw);
    name(t.text, plain ? std::nullopt : std::optional(ByteSpan(t.raw.data(), t.raw.size())));
  }
  template <class F>
  void object(const char* k, F&& f) {
    key(k);
    open('{', !k);  // an object inside an array (outside parents) stays on one line
    f();
    close('}');
  }
  void model_count(std::uint8_t&, Document&) {}
  template <class T, class F>
  void list(const char* k, std::vector<T>& v, Count, std::size_t, F&& f) {
    key(k);
    open('[', !kRecord<T>);
    for (auto& e : v) {
      if constexpr (kRecord<T>) {
        key(nullptr);
        open('{', false);
        f(e);
        close('}');
      } else {
        f(e);
      }
    }
    close(']');
  }

 private:
  struct Level {
    bool first;
    bool inline_;
  };
  Encoding enc_;
  std::vector<Level> stack_;
};

// ---------------------------------------------------------------------------------------------
// Reading

using Value = rapidjson::Value;
// Numbers arrive as marked text (core/json_marked.hpp).
using json::is_number;
std::string_view str(const Value& v) { return {v.GetString(), v.GetStringLength()}; }

class JsonIn {
 public:
  explicit JsonIn(const Value& root, Encoding enc) : enc_(enc) { stack_.push_back({&root, ""}); }
  bool ok() const noexcept { return !error_.has_value(); }
  std::optional<Error>& error() { return error_; }
  void section(const char*) {}
  void enter_model(std::size_t) {}
  void leave_model() {}
  void record(std::size_t, const char*) {}

  void fail(const std::string& path, std::string message) {
    if (!error_) error_ = Error{ErrorCode::json_schema, path + ": " + std::move(message), "json", -1, -1, {}};
  }
  std::string path_of(const char* k) const {
    return k ? stack_.back().path + (stack_.back().path.empty() ? "" : ".") + k : elem_path_;
  }
  /// The member `k` of the current object, or the current array element (k nullptr).
  const Value* get(const char* k) {
    if (!ok()) return nullptr;
    if (!k) return elem_;
    const Value& o = *stack_.back().v;
    auto it = o.FindMember(k);
    if (it == o.MemberEnd()) {
      fail(path_of(k), "missing");
      return nullptr;
    }
    return &it->value;
  }
  std::optional<long long> integer(const char* k, long long lo, long long hi) {
    const Value* v = get(k);
    if (!v) return std::nullopt;
    if (!is_number(*v)) {
      fail(path_of(k), "must be an integer");
      return std::nullopt;
    }
    const std::string_view t = str(*v).substr(1);
    long long n = 0;
    auto r = std::from_chars(t.data(), t.data() + t.size(), n);
    if (r.ec != std::errc{} || r.ptr != t.data() + t.size() || n < lo || n > hi) {
      fail(path_of(k), "must be an integer in [" + std::to_string(lo) + ", " + std::to_string(hi) + "], found " +
                           std::string(t));
      return std::nullopt;
    }
    return n;
  }
  void u8(const char* k, std::uint8_t& v) {
    if (auto n = integer(k, 0, 255)) v = static_cast<std::uint8_t>(*n);
  }
  void i32(const char* k, std::int32_t& v) {
    if (auto n = integer(k, INT32_MIN, INT32_MAX)) v = static_cast<std::int32_t>(*n);
  }
  void f32(const char* k, float& v) {
    const Value* j = get(k);
    if (!j) return;
    if (is_number(*j)) {
      if (auto f = parse_float(str(*j).substr(1))) {
        v = *f;
        return;
      }
    } else if (j->IsString()) {
      const std::string_view t = str(*j);
      if (t == "inf" || t == "-inf" || t.starts_with("nan:"))
        if (auto f = parse_float(t); f && !std::isfinite(*f)) {
          v = *f;
          return;
        }
    }
    fail(path_of(k), "must be a number (or \"inf\", \"-inf\", \"nan:XXXXXXXX\")");
  }
  template <class T, std::size_t N, class G>
  void fixed_array(const char* k, std::array<T, N>& a, G&& each) {
    const Value* j = get(k);
    if (!j) return;
    if (!j->IsArray() || j->Size() != N) {
      fail(path_of(k), "must be an array of " + std::to_string(N) + " numbers");
      return;
    }
    const std::string base = path_of(k);
    for (std::size_t i = 0; i < N && ok(); ++i) {
      elem_ = &(*j)[static_cast<rapidjson::SizeType>(i)];
      elem_path_ = base + "[" + std::to_string(i) + "]";
      each(a[i]);
    }
  }
  template <std::size_t N>
  void u8s(const char* k, std::array<std::uint8_t, N>& a) {
    fixed_array(k, a, [&](std::uint8_t& v) { u8(nullptr, v); });
  }
  template <std::size_t N>
  void i32s(const char* k, std::array<std::int32_t, N>& a) {
    fixed_array(k, a, [&](std::int32_t& v) { i32(nullptr, v); });
  }
  template <std::size_t N>
  void f32s(const char* k, std::array<float, N>& a) {
    fixed_array(k, a, [&](float& v) { f32(nullptr, v); });
  }
  void text(const char* k, EncodedText& t, std::size_t field) {
    const Value* j = get(k);
    if (!j) return;
    const std::string p = path_of(k);
    t.raw.clear();
    if (j->IsString() && !is_number(*j)) {
      t.text = std::string(str(*j));
    } else if (j->IsObject() && j->HasMember("text") && j->HasMember("raw") && (*j)["text"].IsString() &&
               !is_number((*j)["text"]) && (*j)["raw"].IsString() && !is_number((*j)["raw"])) {
      t.text = std::string(str((*j)["text"]));
      const std::string_view h = str((*j)["raw"]);
      std::vector<std::uint8_t> raw;
      if (h.size() % 2 != 0 || (field && h.size() / 2 > field) || (!field && h.size() / 2 > 255)) {
        fail(p + ".raw", "must be hex digits, two per byte, at most " + std::to_string(field ? field : 255) + " bytes");
        return;
      }
      for (std::size_t i = 0; i < h.size(); i += 2) {
        unsigned b = 0;
        auto r = std::from_chars(h.data() + i, h.data() + i + 2, b, 16);
        if (r.ec != std::errc{} || r.ptr != h.data() + i + 2) {
          fail(p + ".raw", "must be hex digits");
          return;
        }
        raw.push_back(static_cast<std::uint8_t>(b));
      }
      // The stored bytes count while the text is what they decode to (an edited text wins).
      const ByteSpan s(raw.data(), raw.size());
      if (decode_text(field ? until_nul(s) : s, enc_) == t.text) t.raw = std::move(raw);
    } else {
      fail(p, "must be a string or {\"text\", \"raw\"}");
      return;
    }
    if (t.raw.empty() && !canonical(t.text, enc_, field))
      fail(p, "'" + t.text + "' cannot be stored in " + std::string(encoding_name(enc_)) +
                  (field ? " in a " + std::to_string(field) + "-byte field" : " in at most 255 bytes"));
  }
  template <class F>
  void object(const char* k, F&& f) {
    const Value* j = get(k);
    if (!j) return;
    if (!j->IsObject()) {
      fail(path_of(k), "must be an object");
      return;
    }
    stack_.push_back({j, path_of(k)});
    f();
    stack_.pop_back();
  }
  void model_count(std::uint8_t&, Document&) {}
  template <class T, class F>
  void list(const char* k, std::vector<T>& v, Count, std::size_t, F&& f) {
    const Value* j = get(k);
    if (!j) return;
    const std::string base = path_of(k);
    if (!j->IsArray()) {
      fail(base, "must be an array");
      return;
    }
    v.resize(j->Size());
    for (std::size_t i = 0; i < v.size() && ok(); ++i) {
      const Value& e = (*j)[static_cast<rapidjson::SizeType>(i)];
      const std::string ep = base + "[" + std::to_string(i) + "]";
      if constexpr (kRecord<T>) {
        if (!e.IsObject()) {
          fail(ep, "must be an object");
          return;
        }
        stack_.push_back({&e, ep});
        f(v[i]);
        stack_.pop_back();
      } else {
        elem_ = &e;
        elem_path_ = ep;
        f(v[i]);
      }
    }
  }
  bool v1_counts(std::size_t, Model&, std::size_t& bones, std::size_t& morphs, std::size_t& iks) {
    bones = morphs = iks = 0;  // the arrays say
    return ok();
  }

 private:
  struct Level {
    const Value* v;
    std::string path;
  };
  Encoding enc_;
  std::vector<Level> stack_;
  const Value* elem_ = nullptr;
  std::string elem_path_;
  std::optional<Error> error_;
};

}  // namespace

std::string to_json(const Document& document) {
  Document& d = const_cast<Document&>(document);  // the layout template only reads when writing
  JsonOut o(d.encoding);
  o.open('{', false);
  o.key("format");
  o.s() += "\"pmm\"";
  int version = d.version == Version::v1 ? 1 : 2;
  o.key("version");
  o.s() += std::to_string(version);
  o.key("encoding");
  json::append_string(o.s(), encoding_name(d.encoding));
  const ByteSpan stored = until_nul(ByteSpan(d.signature.data(), d.signature.size()));
  const auto text = signature_text(d.version);
  std::array<std::uint8_t, kSignatureSize> canonical_sig{};
  std::memcpy(canonical_sig.data(), text.data(), text.size());
  if (d.signature != canonical_sig && stored.size() == text.size() &&
      std::memcmp(stored.data(), text.data(), text.size()) == 0) {
    o.key("signature");
    o.s() += '"' + hex(ByteSpan(d.signature.data(), d.signature.size())) + '"';
  }
  detail::document(o, d);
  if (d.version == Version::v2) {
    if (d.selection_flag) {
      std::uint8_t f = *d.selection_flag;
      o.u8("selection_flag", f);
      o.list("selections", d.selections, Count::of(0), 5, [&](ModelSelection& s) {
        o.u8("model", s.model);
        o.i32("selection", s.selection);
      });
    }
    if (!d.trailing.empty()) {
      o.key("trailing");
      o.s() += '"' + hex(ByteSpan(d.trailing.data(), d.trailing.size())) + '"';
    }
  } else {
    o.key("v1_tail");
    o.s() += '"' + hex(ByteSpan(d.v1_tail.data(), d.v1_tail.size())) + '"';
  }
  o.close('}');
  o.s() += '\n';
  return std::move(o.s());
}

namespace {

Result<std::vector<std::uint8_t>> unhex(const Value& v, const std::string& path) {
  if (!v.IsString() || is_number(v)) return make_error(ErrorCode::json_schema, path + ": must be a hex string", "json");
  const std::string_view h = str(v);
  if (h.size() % 2) return make_error(ErrorCode::json_schema, path + ": odd number of hex digits", "json");
  std::vector<std::uint8_t> out;
  out.reserve(h.size() / 2);
  for (std::size_t i = 0; i < h.size(); i += 2) {
    unsigned b = 0;
    auto r = std::from_chars(h.data() + i, h.data() + i + 2, b, 16);
    if (r.ec != std::errc{} || r.ptr != h.data() + i + 2)
      return make_error(ErrorCode::json_schema, path + ": must be hex digits", "json");
    out.push_back(static_cast<std::uint8_t>(b));
  }
  return out;
}

}  // namespace

Result<Document> from_json(std::string_view text) {
  rapidjson::Document doc;
  MMDKIT_TRY(json::parse_marked(text, doc));
  if (!doc.IsObject()) return make_error(ErrorCode::json_schema, "the document must be a JSON object", "json");
  Document d;
  auto member = [&](const char* k) -> const Value* {
    auto it = doc.FindMember(k);
    return it == doc.MemberEnd() ? nullptr : &it->value;
  };
  if (const Value* f = member("format"); f && !(f->IsString() && str(*f) == "pmm"))
    return make_error(ErrorCode::json_schema, "format: must be \"pmm\"", "json");
  const Value* ver = member("version");
  if (!ver || !is_number(*ver) || (str(*ver) != "\xff" "1" && str(*ver) != "\xff" "2"))
    return make_error(ErrorCode::json_schema, "version: must be 1 or 2", "json");
  d.version = str(*ver) == "\xff" "1" ? Version::v1 : Version::v2;
  if (const Value* e = member("encoding")) {
    auto enc = e->IsString() && !is_number(*e) ? parse_encoding_name(str(*e)) : std::nullopt;
    if (!enc || (*enc != Encoding::cp932 && *enc != Encoding::gbk))
      return make_error(ErrorCode::json_schema, "encoding: must be \"cp932\" or \"gbk\"", "json");
    d.encoding = *enc;
  }
  const auto sig_text = signature_text(d.version);
  std::memcpy(d.signature.data(), sig_text.data(), sig_text.size());
  if (const Value* s = member("signature")) {
    MMDKIT_TRY_ASSIGN(auto b, unhex(*s, "signature"));
    if (b.size() != kSignatureSize || std::memcmp(b.data(), sig_text.data(), sig_text.size()) != 0 ||
        (b)[sig_text.size()] != 0)
      return make_error(ErrorCode::json_schema, "signature: must be the 30 bytes of the version's signature", "json");
    std::memcpy(d.signature.data(), b.data(), kSignatureSize);
  }
  JsonIn in(doc, d.encoding);
  detail::document(in, d);
  if (!in.ok()) return std::unexpected(std::move(*in.error()));
  if (d.version == Version::v2) {
    if (member("selection_flag")) {
      std::uint8_t flag = 0;
      in.u8("selection_flag", flag);
      d.selection_flag = flag;
      in.list("selections", d.selections, Count::of(0), 5, [&](ModelSelection& s) {
        in.u8("model", s.model);
        in.i32("selection", s.selection);
      });
      if (!in.ok()) return std::unexpected(std::move(*in.error()));
      if (!d.selections.empty() && d.selections.size() != d.models.size())
        return make_error(ErrorCode::json_schema, "selections: one per model or none", "json");
    }
    if (const Value* t = member("trailing")) {
      MMDKIT_TRY_ASSIGN(auto b, unhex(*t, "trailing"));
      d.trailing = std::move(b);
    }
  } else if (const Value* t = member("v1_tail")) {
    MMDKIT_TRY_ASSIGN(auto b, unhex(*t, "v1_tail"));
    d.v1_tail = std::move(b);
  }
  return d;
}

}  // namespace mmdkit::pmm
