// mmdkit Python bindings — shared helpers: errors to Python exceptions, bytes, NumPy column views.
//
// Bulk data are NumPy arrays that VIEW the C++ vectors of the object they come from (no copy):
// a column of a record vector is a strided array whose base is the Python object owning the
// vector, so the object stays alive while the array does and writes go straight to the record.
// The bound classes never resize those vectors in place (a new object is made instead), so a
// view never dangles.
#pragma once

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "mmdkit/core/error.hpp"
#include "mmdkit/core/text.hpp"

namespace mmdkit::python {

namespace py = pybind11;

/// Raises the mmdkit.errors exception for `e` (class by code; attributes code, message, file,
/// section, record, offset). Never returns.
[[noreturn]] void raise(const Error& e);

/// Raises mmdkit.errors.ArgumentError (code invalid_argument) with `message`.
[[noreturn]] void raise_argument(const std::string& message);

/// Runs `fn` with the GIL released (C++ work that touches no Python object) and returns its value.
template <class Fn>
auto without_gil(Fn&& fn) {
  py::gil_scoped_release release;
  return fn();
}

/// The value of a Result, or raise its error.
template <class T>
T unwrap(Result<T> r) {
  if (!r) raise(r.error());
  return std::move(*r);
}
inline void unwrap(Result<void> r) {
  if (!r) raise(r.error());
}

/// Python bytes from a byte vector / span.
inline py::bytes to_py_bytes(ByteSpan b) {
  return py::bytes(reinterpret_cast<const char*>(b.data()), b.size());
}
/// Bytes of a Python bytes / bytearray / memoryview object.
std::vector<std::uint8_t> from_py_bytes(const py::handle& obj);

/// An Encoding from its name (None = nullopt); raises ArgumentError for an unknown name.
std::optional<Encoding> encoding_arg(const std::optional<std::string>& name);

/// The error as a dict {"code", "message", "file", "section", "record", "offset"} (for warnings).
py::dict error_dict(const Error& e);
py::list error_dicts(const std::vector<Error>& errors);

/// mmdkit._table.Table(name, columns): attribute access to named arrays of one section.
py::object make_table(const char* name, std::size_t rows, py::dict columns);

template <class T>
struct ColumnTraits {
  using Scalar = std::conditional_t<std::is_enum_v<T>, std::underlying_type<T>, std::type_identity<T>>::type;
  static constexpr std::size_t width = 0;  // scalar column
};
template <class T, std::size_t N>
struct ColumnTraits<std::array<T, N>> {
  using Scalar = T;
  static constexpr std::size_t width = N;
};

/// Byte offset of `member` inside Rec.
template <class Rec, class M>
std::size_t member_offset(M Rec::*member) {
  static const Rec probe{};
  return static_cast<std::size_t>(reinterpret_cast<const char*>(&(probe.*member)) -
                                  reinterpret_cast<const char*>(&probe));
}

/// A NumPy view of `member` over every record of `records`: shape (n,) for a scalar member,
/// (n, N) for std::array<T, N>; strides follow the records. `owner` is the Python object that
/// owns `records` (the view's base). `writeable` false marks the array read-only.
template <class Rec, class M>
py::array column(const py::handle& owner, std::vector<Rec>& records, M Rec::*member, bool writeable = true) {
  using Traits = ColumnTraits<M>;
  using S = typename Traits::Scalar;
  const std::size_t off = member_offset(member);
  auto* base = records.empty() ? nullptr : reinterpret_cast<char*>(records.data()) + off;
  std::vector<py::ssize_t> shape{static_cast<py::ssize_t>(records.size())};
  std::vector<py::ssize_t> strides{static_cast<py::ssize_t>(sizeof(Rec))};
  if constexpr (Traits::width > 0) {
    shape.push_back(static_cast<py::ssize_t>(Traits::width));
    strides.push_back(static_cast<py::ssize_t>(sizeof(S)));
  }
  py::array a;
  if (base == nullptr) {
    a = py::array(py::dtype::of<S>(), shape);  // empty: a fresh array (nothing to view)
  } else {
    a = py::array(py::dtype::of<S>(), shape, strides, reinterpret_cast<S*>(base), owner);
  }
  if (!writeable) a.attr("flags").attr("writeable") = false;
  return a;
}

/// A contiguous NumPy view of a vector of scalars or std::arrays, optionally reshaped
/// (`shape` empty = (n,) or (n, N)).
template <class T>
py::array flat(const py::handle& owner, std::vector<T>& values, std::vector<py::ssize_t> shape = {},
               bool writeable = true) {
  using Traits = ColumnTraits<T>;
  using S = typename Traits::Scalar;
  if (shape.empty()) {
    shape.push_back(static_cast<py::ssize_t>(values.size()));
    if constexpr (Traits::width > 0) shape.push_back(static_cast<py::ssize_t>(Traits::width));
  }
  py::array a;
  if (values.empty()) {
    a = py::array(py::dtype::of<S>(), shape);
  } else {
    a = py::array(py::dtype::of<S>(), shape, reinterpret_cast<S*>(values.data()), owner);
  }
  if (!writeable) a.attr("flags").attr("writeable") = false;
  return a;
}

/// A contiguous NumPy view of a std::array member (e.g. a 30-byte signature), base `owner`.
template <class T, std::size_t N>
py::array fixed(const py::handle& owner, std::array<T, N>& values) {
  return py::array(py::dtype::of<T>(), {static_cast<py::ssize_t>(N)}, values.data(), owner);
}

/// The one name type in Python: an mmdkit.Text (python/mmdkit/_text.py), a `str` subclass whose
/// value is `t.text` and whose `.raw` is `t.raw` as Python bytes.
py::object to_py_text(const EncodedText& t);

/// Texts (list[mmdkit.Text]) of names (EncodedText / FixedText<N>).
template <class N>
py::list texts(const std::vector<N>& names) {
  py::list out;
  for (const EncodedText& n : names) out.append(to_py_text(n));
  return out;
}
/// Raw bytes (list[bytes]) of names: the old `*_raw` form, kept for older callers (the same bytes
/// as `.raw` of each Text).
template <class N>
py::list raws(const std::vector<N>& names) {
  py::list out;
  for (const EncodedText& n : names) out.append(to_py_bytes(n.raw));
  return out;
}
/// Names of records that have `.name` (an EncodedText): list[mmdkit.Text], or (raw, the old
/// `*_names_raw` form) list[bytes].
template <class R>
py::list names_of(const std::vector<R>& records, bool raw = false) {
  py::list out;
  for (const R& r : records) {
    if (raw) out.append(to_py_bytes(r.name.raw));
    else out.append(to_py_text(r.name));
  }
  return out;
}
/// The English names (`.name_en`) of records, list[mmdkit.Text].
template <class R>
py::list names_en_of(const std::vector<R>& records) {
  py::list out;
  for (const R& r : records) out.append(to_py_text(r.name_en));
  return out;
}

/// Sets a name by its text: a different text replaces it and drops the raw bytes (the writer
/// then encodes it); the same text keeps the stored bytes.
inline void set_name(EncodedText& name, const std::string& text) {
  if (name.text != text) name.assign(text);
}

/// Replaces the texts of `names` (same count) with set_name.
template <class N>
void set_texts(std::vector<N>& names, const std::vector<std::string>& values) {
  if (values.size() != names.size())
    raise_argument("expected " + std::to_string(names.size()) + " names, got " + std::to_string(values.size()));
  for (std::size_t i = 0; i < names.size(); ++i) set_name(names[i], values[i]);
}
/// Renames records that have `.name` (same count) with set_name.
template <class R>
void set_names_of(std::vector<R>& records, const std::vector<std::string>& values) {
  if (values.size() != records.size())
    raise_argument("expected " + std::to_string(records.size()) + " names, got " + std::to_string(values.size()));
  for (std::size_t i = 0; i < records.size(); ++i) set_name(records[i].name, values[i]);
}

/// A read-write property `name` for one EncodedText member reached by `get(self)`: the getter
/// gives an mmdkit.Text, the setter takes a str (set_name).
template <class Cls, class Get>
void def_text_property(Cls& cls, const char* name, Get get, const char* doc) {
  using D = typename Cls::type;
  cls.def_property(
      name, [get](const D& d) { return to_py_text(get(const_cast<D&>(d))); },
      [get](D& d, const std::string& t) { set_name(get(d), t); }, doc);
}

/// Reads a file into memory (raises FileError).
std::vector<std::uint8_t> read_path(const std::string& path);
/// Writes bytes atomically; an existing file is replaced only when `force` (raises FileError).
void write_path(const std::string& path, ByteSpan bytes, bool force);

// One per bound format / layer (bind_<x>.cpp), called by module.cpp.
void bind_vmd(py::module_& m);
void bind_vpd(py::module_& m);
void bind_pmd(py::module_& m);
void bind_pmx(py::module_& m);
void bind_model(py::module_& m);
void bind_io(py::module_& m);
void bind_evaluator(py::module_& m);
void bind_motion(py::module_& m);
void bind_pmm(py::module_& m);  ///< Project (.pmm)
void bind_x(py::module_& m);  ///< XFile (.x) and VacFile (.vac), read-only

}  // namespace mmdkit::python
