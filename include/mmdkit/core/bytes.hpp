// mmdkit — little-endian byte reading and writing over spans.
//
// All MMD formats are little-endian with no alignment. ByteReader reads from a caller-owned span;
// its unchecked accessors (u8/u16/u32/f32/bytes) must only be called after `require` (or a count
// check) proved the bytes are there — parsers check once per record or per section, then read
// without branches. ByteWriter appends to a caller-owned std::vector.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <string_view>
#include <vector>

#include "mmdkit/core/error.hpp"

namespace mmdkit {

static_assert(std::endian::native == std::endian::little, "mmdkit assumes a little-endian host");

using ByteSpan = std::span<const std::uint8_t>;

/// Loads a trivially copyable little-endian value from unaligned memory.
template <class T>
inline T load_le(const std::uint8_t* p) noexcept {
  T v;
  std::memcpy(&v, p, sizeof(T));
  return v;
}

/// Stores a trivially copyable value little-endian into unaligned memory.
template <class T>
inline void store_le(std::uint8_t* p, T v) noexcept {
  std::memcpy(p, &v, sizeof(T));
}

/// Sequential reader over a byte span. Never reads outside the span when used as documented.
class ByteReader {
 public:
  explicit ByteReader(ByteSpan data) noexcept : data_(data) {}

  std::size_t offset() const noexcept { return pos_; }
  std::size_t size() const noexcept { return data_.size(); }
  std::size_t remaining() const noexcept { return data_.size() - pos_; }
  bool at_end() const noexcept { return pos_ == data_.size(); }
  ByteSpan data() const noexcept { return data_; }
  const std::uint8_t* cursor() const noexcept { return data_.data() + pos_; }

  /// Ok if `n` more bytes are available, else a `truncated` error naming section, record and
  /// the current offset, with `what` (e.g. "bone keyframe", "model name") in the message.
  Result<void> require(std::size_t n, std::string_view section, std::int64_t record,
                       std::string_view what) const {
    if (n <= remaining()) return {};
    return make_error(ErrorCode::truncated,
                      std::string(what) + " needs " + std::to_string(n) + " bytes, " +
                          std::to_string(remaining()) + " left",
                      std::string(section), record, static_cast<std::int64_t>(pos_));
  }

  /// Ok if `count` records of at least `min_record_size` bytes each can fit in what is left;
  /// else a `count_too_large` error. Call before reserving memory for `count` records.
  Result<void> require_count(std::uint64_t count, std::size_t min_record_size, std::string_view section,
                             std::int64_t count_offset) const {
    if (min_record_size == 0 || count <= remaining() / min_record_size) return {};
    return make_error(ErrorCode::count_too_large,
                      "count " + std::to_string(count) + " of " + std::to_string(min_record_size) +
                          "-byte records needs " + std::to_string(count * min_record_size) + " bytes, " +
                          std::to_string(remaining()) + " left",
                      std::string(section), -1, count_offset);
  }

  // Unchecked reads: precondition remaining() >= size of the value.
  std::uint8_t u8() noexcept { return data_[pos_++]; }
  std::int8_t i8() noexcept { return static_cast<std::int8_t>(data_[pos_++]); }
  std::uint16_t u16() noexcept { return take<std::uint16_t>(); }
  std::int16_t i16() noexcept { return take<std::int16_t>(); }
  std::uint32_t u32() noexcept { return take<std::uint32_t>(); }
  std::int32_t i32() noexcept { return take<std::int32_t>(); }
  float f32() noexcept { return take<float>(); }
  /// Next `n` bytes as a sub-span (no copy). Precondition remaining() >= n.
  ByteSpan bytes(std::size_t n) noexcept {
    ByteSpan s = data_.subspan(pos_, n);
    pos_ += n;
    return s;
  }
  void skip(std::size_t n) noexcept { pos_ += n; }
  void seek(std::size_t pos) noexcept { pos_ = pos; }

 private:
  template <class T>
  T take() noexcept {
    T v = load_le<T>(data_.data() + pos_);
    pos_ += sizeof(T);
    return v;
  }
  ByteSpan data_;
  std::size_t pos_ = 0;
};

/// Appends little-endian values to a caller-owned vector.
class ByteWriter {
 public:
  explicit ByteWriter(std::vector<std::uint8_t>& out) noexcept : out_(out) {}
  void u8(std::uint8_t v) { out_.push_back(v); }
  void i8(std::int8_t v) { out_.push_back(static_cast<std::uint8_t>(v)); }
  void u16(std::uint16_t v) { put(v); }
  void i16(std::int16_t v) { put(v); }
  void u32(std::uint32_t v) { put(v); }
  void i32(std::int32_t v) { put(v); }
  void f32(float v) { put(v); }
  void bytes(ByteSpan b) { out_.insert(out_.end(), b.begin(), b.end()); }
  /// Writes `b` into a fixed field of `size` bytes: cut to `size`, then padded with `pad`.
  void fixed(ByteSpan b, std::size_t size, std::uint8_t pad = 0) {
    std::size_t n = b.size() < size ? b.size() : size;
    out_.insert(out_.end(), b.begin(), b.begin() + static_cast<std::ptrdiff_t>(n));
    out_.insert(out_.end(), size - n, pad);
  }
  std::size_t size() const noexcept { return out_.size(); }
  std::vector<std::uint8_t>& buffer() noexcept { return out_; }

 private:
  template <class T>
  void put(T v) {
    std::size_t at = out_.size();
    out_.resize(at + sizeof(T));
    store_le(out_.data() + at, v);
  }
  std::vector<std::uint8_t>& out_;
};

}  // namespace mmdkit
