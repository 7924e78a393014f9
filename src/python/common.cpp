// mmdkit Python bindings — errors, bytes and file helpers (see common.hpp).
#include "common.hpp"

#include <filesystem>

#include "mmdkit/core/file.hpp"

namespace mmdkit::python {

namespace {
py::object none_if(bool empty, py::object value) { return empty ? py::none() : std::move(value); }
}  // namespace

py::dict error_dict(const Error& e) {
  py::dict d;
  d["code"] = std::string(error_code_name(e.code));
  d["message"] = e.message;
  d["file"] = none_if(e.file.empty(), py::str(e.file));
  d["section"] = none_if(e.section.empty(), py::str(e.section));
  d["record"] = none_if(e.record < 0, py::int_(e.record));
  d["offset"] = none_if(e.offset < 0, py::int_(e.offset));
  d["text"] = e.to_string();
  return d;
}

py::list error_dicts(const std::vector<Error>& errors) {
  py::list out;
  for (const Error& e : errors) out.append(error_dict(e));
  return out;
}

void raise(const Error& e) {
  py::object make = py::module_::import("mmdkit.errors").attr("_from_native");
  py::object exc = make(error_dict(e));
  PyErr_SetObject(reinterpret_cast<PyObject*>(Py_TYPE(exc.ptr())), exc.ptr());
  throw py::error_already_set();
}

void raise_argument(const std::string& message) {
  raise(Error{ErrorCode::invalid_argument, message, {}, -1, -1, {}});
}

std::vector<std::uint8_t> from_py_bytes(const py::handle& obj) {
  Py_buffer view;
  if (PyObject_GetBuffer(obj.ptr(), &view, PyBUF_SIMPLE) != 0) throw py::error_already_set();
  const auto* p = static_cast<const std::uint8_t*>(view.buf);
  std::vector<std::uint8_t> out(p, p + view.len);
  PyBuffer_Release(&view);
  return out;
}

std::optional<Encoding> encoding_arg(const std::optional<std::string>& name) {
  if (!name) return std::nullopt;
  auto e = parse_encoding_name(*name);
  if (!e) raise_argument("unknown encoding '" + *name + "' (cp932, gbk, utf-8, utf-16le)");
  return e;
}

py::object to_py_text(const EncodedText& t) {
  // The class is looked up once (sys.modules keeps the module alive for the process).
  static py::handle cls = py::object(py::module_::import("mmdkit._text").attr("Text")).release();
  return cls(py::str(t.text), to_py_bytes(t.raw));
}

py::object make_table(const char* name, std::size_t rows, py::dict columns) {
  return py::module_::import("mmdkit._table").attr("Table")(name, rows, columns);
}

std::vector<std::uint8_t> read_path(const std::string& path) {
  return unwrap(without_gil([&] { return mmdkit::read_file(path); }));
}

void write_path(const std::string& path, ByteSpan bytes, bool force) {
  unwrap(without_gil([&]() -> Result<void> {
    const std::filesystem::path p(path);
    std::error_code ec;
    if (!force && std::filesystem::exists(p, ec)) {
      Error e{ErrorCode::io_error, "output exists; pass force=True to replace it", {}, -1, -1, path};
      return std::unexpected(std::move(e));
    }
    return write_file_atomic(p, bytes);
  }));
}

}  // namespace mmdkit::python
