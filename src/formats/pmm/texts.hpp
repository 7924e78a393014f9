// Every stored text of a document (names, paths), visited through layout.hpp: the reader decides
// the encoding over them and decodes them; the JSON reader fills in raw bytes. Internal.
#pragma once

#include <cstddef>
#include <cstdint>

#include "formats/pmm/layout.hpp"

namespace mmdkit::pmm::detail {

/// An Io that visits the texts of an existing document (no bytes, no JSON).
template <class F>
class TextVisitor : public CountsFromLists {
 public:
  explicit TextVisitor(F& f) : f_(f) {}
  bool ok() const noexcept { return true; }
  void section(const char*) {}
  void enter_model(std::size_t) {}
  void leave_model() {}
  void record(std::size_t, const char*) {}
  void u8(const char*, std::uint8_t&) {}
  void i32(const char*, std::int32_t&) {}
  void f32(const char*, float&) {}
  template <class A>
  void u8s(const char*, A&) {}
  template <class A>
  void i32s(const char*, A&) {}
  template <class A>
  void f32s(const char*, A&) {}
  void text(const char*, EncodedText& t, std::size_t field) { f_(t, field); }
  template <class G>
  void object(const char*, G&& g) {
    g();
  }
  void model_count(std::uint8_t& count, Document& d) { count = static_cast<std::uint8_t>(d.models.size()); }
  template <class T, class G>
  void list(const char*, std::vector<T>& v, Count, std::size_t, G&& g) {
    for (auto& e : v) g(e);
  }

 private:
  F& f_;
};

/// Calls f(EncodedText&, field size or 0 for u8-length texts) for every text of `d`.
template <class F>
void for_each_text(Document& d, F&& f) {
  TextVisitor<F> io(f);
  document(io, d);
}

}  // namespace mmdkit::pmm::detail
