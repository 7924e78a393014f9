// PMM reading: the signature, then layout.hpp's document() over a byte-reading Io, then the
// version-2 selection section and trailing bytes (version 1: the uninterpreted tail), then the
// text encoding decided over every name and the names decoded. Layout: docs/formats/pmm.md.
#include <cstring>
#include <optional>
#include <string>
#include <string_view>

#include "formats/pmm/layout.hpp"
#include "formats/pmm/texts.hpp"
#include "mmdkit/core/file.hpp"
#include "mmdkit/formats/pmm.hpp"

namespace mmdkit::pmm {
namespace {

using detail::Count;

class ByteIo {
 public:
  ByteIo(ByteSpan bytes, const ReadOptions& options) : r_(bytes), options_(options) {}

  bool ok() const noexcept { return !error_.has_value(); }
  std::optional<Error>& error() noexcept { return error_; }
  ByteReader& reader() noexcept { return r_; }

  void section(const char* name) { section_ = name; }
  void enter_model(std::size_t i) {
    prefix_ = "model " + std::to_string(i) + " ";
  }
  void leave_model() { prefix_.clear(); }

  void fail(ErrorCode code, std::string message, std::size_t offset) {
    if (error_) return;
    error_ = Error{code, std::move(message), prefix_ + section_, record_, static_cast<std::int64_t>(offset), {}};
  }

  bool need(std::size_t n, std::string_view what) {
    if (!ok()) return false;
    if (n <= r_.remaining()) return true;
    fail(ErrorCode::truncated,
         std::string(what) + " needs " + std::to_string(n) + " bytes, " + std::to_string(r_.remaining()) + " left",
         r_.offset());
    return false;
  }

  void record(std::size_t n, const char* what) { need(n, what); }
  void u8(const char*, std::uint8_t& v) {
    if (need(1, "field")) v = r_.u8();
  }
  void i32(const char*, std::int32_t& v) {
    if (need(4, "field")) v = r_.i32();
  }
  void f32(const char*, float& v) {
    if (need(4, "field")) v = r_.f32();
  }
  template <std::size_t N>
  void u8s(const char*, std::array<std::uint8_t, N>& a) {
    if (need(N, "field")) std::memcpy(a.data(), r_.bytes(N).data(), N);
  }
  template <std::size_t N>
  void i32s(const char* k, std::array<std::int32_t, N>& a) {
    for (auto& v : a) i32(k, v);
  }
  template <std::size_t N>
  void f32s(const char* k, std::array<float, N>& a) {
    for (auto& v : a) f32(k, v);
  }
  void text(const char*, EncodedText& t, std::size_t field) {
    std::size_t n = field;
    if (field == 0) {
      if (!need(1, "text length")) return;
      n = r_.u8();
    }
    if (!need(n, "text")) return;
    ByteSpan s = r_.bytes(n);
    t.raw.assign(s.begin(), s.end());
  }
  template <class F>
  void object(const char*, F&& f) {
    if (ok()) f();
  }
  void model_count(std::uint8_t& count, Document&) {
    if (need(1, "model count")) count = r_.u8();
  }
  template <class T, class F>
  void list(const char*, std::vector<T>& v, Count c, std::size_t min_size, F&& f) {
    if (!ok()) return;
    const std::size_t at = r_.offset();
    std::uint64_t n = c.n;
    if (c.kind == Count::u8) {
      if (!need(1, "count")) return;
      n = r_.u8();
    } else if (c.kind == Count::i32) {
      if (!need(4, "count")) return;
      const std::int32_t s = r_.i32();
      if (s < 0) {
        fail(ErrorCode::invalid_value, "count " + std::to_string(s) + " is negative", at);
        return;
      }
      n = static_cast<std::uint64_t>(s);
    }
    if (auto e = r_.require_count(n, min_size, section_, static_cast<std::int64_t>(at)); !e) {
      fail(e.error().code, e.error().message, c.kind == Count::given ? r_.offset() : at);
      return;
    }
    v.resize(static_cast<std::size_t>(n));
    const std::int64_t saved = record_;
    for (std::size_t i = 0; i < v.size() && ok(); ++i) {
      record_ = static_cast<std::int64_t>(i);
      f(v[i]);
    }
    record_ = saved;
  }
  bool v1_counts(std::size_t index, Model& m, std::size_t& bones, std::size_t& morphs, std::size_t& iks) {
    if (!ok()) return false;
    const Encoding enc = options_.encoding.value_or(Encoding::cp932);
    m.name.text = decode_text(until_nul(m.name.raw), enc);
    m.path.text = decode_text(until_nul(m.path.raw), enc);
    std::optional<ModelCounts> counts;
    if (options_.model_counts) counts = options_.model_counts(ModelRef{index, &m.name, &m.path});
    if (!counts) {
      fail(ErrorCode::unsupported,
           "version 1 project: the bone, morph and IK counts of model " + std::to_string(index) + " '" +
               m.name.text + "' (" + m.path.text +
               ") are not stored in the project; they come from the model file, which was not given "
               "(pmm::ReadOptions::model_counts; the mmdkit command reads the model files it finds)",
           r_.offset());
      return false;
    }
    bones = counts->bones;
    morphs = counts->morphs;
    iks = counts->iks;
    return true;
  }

 private:
  ByteReader r_;
  const ReadOptions& options_;
  std::optional<Error> error_;
  std::string section_ = "header";
  std::string prefix_;
  std::int64_t record_ = -1;
};

}  // namespace

std::string_view signature_text(Version v) noexcept {
  return v == Version::v1 ? "Polygon Movie maker 0001" : "Polygon Movie maker 0002";
}

Result<ReadResult> read(ByteSpan bytes, const ReadOptions& options) {
  if (bytes.empty()) return make_error(ErrorCode::empty_input, "the file is empty", "header", -1, 0);
  ReadResult out;
  Document& d = out.document;
  {
    const std::size_t n = bytes.size() < kSignatureSize ? bytes.size() : kSignatureSize;
    const ByteSpan head = until_nul(bytes.first(n));
    const std::string_view text(reinterpret_cast<const char*>(head.data()), head.size());
    std::optional<Version> v;
    for (Version c : {Version::v1, Version::v2})
      if (text == signature_text(c)) v = c;
    if (!v || n < kSignatureSize) {
      const bool prefix = n < kSignatureSize && (signature_text(Version::v2).starts_with(text) ||
                                                 signature_text(Version::v1).starts_with(text)) &&
                          head.size() == n;
      if (v || prefix)
        return make_error(ErrorCode::truncated,
                          "signature needs " + std::to_string(kSignatureSize) + " bytes, " + std::to_string(n) + " left",
                          "header", -1, 0);
      return make_error(ErrorCode::bad_signature, "not a PMM project: the first bytes are not 'Polygon Movie maker 0001' or '0002'",
                        "header", -1, 0);
    }
    d.version = *v;
    std::memcpy(d.signature.data(), bytes.data(), kSignatureSize);
  }
  ByteIo io(bytes, options);
  io.reader().skip(kSignatureSize);
  detail::document(io, d);
  if (!io.ok()) return std::unexpected(std::move(*io.error()));
  ByteReader& r = io.reader();
  if (d.version == Version::v2) {
    if (!r.at_end()) {
      d.selection_flag = r.u8();
      const std::size_t n = d.models.size();
      if ((*d.selection_flag != 0 || r.remaining() == 5 * n) && r.remaining() >= 5 * n) {
        d.selections.resize(n);
        for (auto& s : d.selections) {
          s.model = r.u8();
          s.selection = r.i32();
        }
      }
    }
    if (!r.at_end()) {
      const std::size_t at = r.offset();
      Warning w{ErrorCode::trailing_data,
                std::to_string(r.remaining()) + " bytes after the last section (kept)", "trailing", -1,
                static_cast<std::int64_t>(at), {}};
      if (options.strict) {
        w.message = std::to_string(r.remaining()) + " bytes after the last section";
        return std::unexpected(std::move(w));
      }
      ByteSpan t = r.bytes(r.remaining());
      d.trailing.assign(t.begin(), t.end());
      d.trailing_offset = static_cast<std::int64_t>(at);
      out.warnings.push_back(std::move(w));
    }
  } else {
    ByteSpan t = r.bytes(r.remaining());
    d.v1_tail.assign(t.begin(), t.end());
  }
  // Encoding: forced, or decided over every stored name and path.
  if (options.encoding) {
    d.encoding = *options.encoding;
  } else {
    std::vector<ByteSpan> names;
    detail::for_each_text(d, [&](EncodedText& t, std::size_t field) {
      ByteSpan s(t.raw.data(), t.raw.size());
      names.push_back(field ? until_nul(s) : s);
    });
    d.encoding = detect_legacy_encoding(names);
  }
  detail::for_each_text(d, [&](EncodedText& t, std::size_t field) {
    ByteSpan s(t.raw.data(), t.raw.size());
    t.text = decode_text(field ? until_nul(s) : s, d.encoding);
  });
  return out;
}

Result<ReadResult> read_file(const std::filesystem::path& path, const ReadOptions& options) {
  return parse_file(path, [&](ByteSpan b) { return read(b, options); });
}

}  // namespace mmdkit::pmm
