// PMM writing: the signature, layout.hpp's document() over a byte-writing Io, then the selection
// section, trailing bytes (v2) or the kept tail (v1). Texts with raw bytes are written as stored;
// others are encoded in the document's encoding (and NUL-padded in fixed fields).
#include <algorithm>
#include <cstring>
#include <limits>
#include <optional>
#include <string>

#include "formats/pmm/layout.hpp"
#include "mmdkit/formats/pmm.hpp"

namespace mmdkit::pmm {
namespace {

using detail::Count;

class WriteIo : public detail::CountsFromLists {
 public:
  WriteIo(std::vector<std::uint8_t>& out, Encoding enc) : w_(out), enc_(enc) {}
  bool ok() const noexcept { return !error_.has_value(); }
  std::optional<Error>& error() noexcept { return error_; }
  ByteWriter& writer() noexcept { return w_; }

  void fail(ErrorCode code, std::string message) {
    if (!error_) error_ = Error{code, std::move(message), prefix_ + section_, record_, -1, {}};
  }
  void section(const char* name) { section_ = name; }
  void enter_model(std::size_t i) { prefix_ = "model " + std::to_string(i) + " "; }
  void leave_model() { prefix_.clear(); }
  void record(std::size_t, const char*) {}
  void u8(const char*, std::uint8_t& v) { w_.u8(v); }
  void i32(const char*, std::int32_t& v) { w_.i32(v); }
  void f32(const char*, float& v) { w_.f32(v); }
  template <std::size_t N>
  void u8s(const char*, std::array<std::uint8_t, N>& a) {
    w_.bytes(ByteSpan(a.data(), N));
  }
  template <std::size_t N>
  void i32s(const char*, std::array<std::int32_t, N>& a) {
    for (auto v : a) w_.i32(v);
  }
  template <std::size_t N>
  void f32s(const char*, std::array<float, N>& a) {
    for (auto v : a) w_.f32(v);
  }
  void text(const char* key, EncodedText& t, std::size_t field) {
    if (!ok()) return;
    std::vector<std::uint8_t> encoded;
    const std::vector<std::uint8_t>* bytes = &t.raw;
    if (t.raw.empty()) {
      auto e = encode_text(t.text, enc_);
      if (!e) {
        fail(ErrorCode::encoding_error, std::string(key ? key : "name") + " '" + t.text + "': " + e.error().message);
        return;
      }
      encoded = std::move(*e);
      bytes = &encoded;
    }
    const std::size_t limit = field ? field : 255;
    if (bytes->size() > limit) {
      fail(ErrorCode::encoding_error, std::string(key ? key : "name") + " '" + t.text + "' takes " +
                                          std::to_string(bytes->size()) + " bytes, the field holds " +
                                          std::to_string(limit));
      return;
    }
    if (field) {
      w_.fixed(ByteSpan(bytes->data(), bytes->size()), field);
    } else {
      w_.u8(static_cast<std::uint8_t>(bytes->size()));
      w_.bytes(ByteSpan(bytes->data(), bytes->size()));
    }
  }
  template <class F>
  void object(const char*, F&& f) {
    if (ok()) f();
  }
  void model_count(std::uint8_t& count, Document& d) {
    if (d.models.size() > 255) {
      fail(ErrorCode::invalid_argument, std::to_string(d.models.size()) + " models; a project holds at most 255");
      return;
    }
    count = static_cast<std::uint8_t>(d.models.size());
    w_.u8(count);
  }
  template <class T, class F>
  void list(const char* key, std::vector<T>& v, Count c, std::size_t, F&& f) {
    if (!ok()) return;
    if (c.kind == Count::u8) {
      if (v.size() > 255) {
        fail(ErrorCode::invalid_argument, std::string(key) + ": " + std::to_string(v.size()) + " entries, at most 255");
        return;
      }
      w_.u8(static_cast<std::uint8_t>(v.size()));
    } else if (c.kind == Count::i32) {
      if (v.size() > static_cast<std::size_t>(std::numeric_limits<std::int32_t>::max())) {
        fail(ErrorCode::invalid_argument, std::string(key) + ": too many entries");
        return;
      }
      w_.i32(static_cast<std::int32_t>(v.size()));
    } else if (v.size() != c.n) {
      fail(ErrorCode::invalid_argument, std::string(key) + ": " + std::to_string(v.size()) +
                                            " entries where the lists before it say " + std::to_string(c.n));
      return;
    }
    const std::int64_t saved = record_;
    for (std::size_t i = 0; i < v.size() && ok(); ++i) {
      record_ = static_cast<std::int64_t>(i);
      f(v[i]);
    }
    record_ = saved;
  }

 private:
  ByteWriter w_;
  Encoding enc_;
  std::optional<Error> error_;
  std::string section_ = "header";
  std::string prefix_;
  std::int64_t record_ = -1;
};

}  // namespace

Result<std::vector<std::uint8_t>> write(const Document& document) {
  // The layout template takes non-const references (one template reads and writes); writing
  // only reads the fields, so a copy is not needed.
  Document& d = const_cast<Document&>(document);
  std::vector<std::uint8_t> out;
  WriteIo io(out, d.encoding);
  // The stored signature (bytes after the NUL included) while it names the document's version.
  const ByteSpan stored = until_nul(ByteSpan(d.signature.data(), d.signature.size()));
  const auto text = signature_text(d.version);
  if (stored.size() == text.size() && std::memcmp(stored.data(), text.data(), text.size()) == 0) {
    io.writer().bytes(ByteSpan(d.signature.data(), d.signature.size()));
  } else {
    io.writer().fixed(ByteSpan(reinterpret_cast<const std::uint8_t*>(text.data()), text.size()), kSignatureSize);
  }
  detail::document(io, d);
  if (!io.ok()) return std::unexpected(std::move(*io.error()));
  ByteWriter& w = io.writer();
  if (d.version == Version::v2) {
    if (d.selection_flag) {
      w.u8(*d.selection_flag);
      for (const auto& s : d.selections) {
        w.u8(s.model);
        w.i32(s.selection);
      }
    } else if (!d.selections.empty()) {
      return make_error(ErrorCode::invalid_argument, "model selections without the selection flag", "selection");
    }
    w.bytes(ByteSpan(d.trailing.data(), d.trailing.size()));
  } else {
    w.bytes(ByteSpan(d.v1_tail.data(), d.v1_tail.size()));
  }
  return out;
}

}  // namespace mmdkit::pmm
