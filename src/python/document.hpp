// mmdkit Python bindings — one file format as a Python class: the parsed C++ value plus the
// reader's warnings, with the methods every format shares (read, from_bytes, to_bytes, write,
// to_json, from_json, check, copy). Each bind_<format>.cpp specializes FormatFns<T> and calls
// def_document<T>.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common.hpp"
#include "mmdkit/formats/registry.hpp"

namespace mmdkit::python {

/// A str or os.PathLike (pathlib.Path) as the path string (os.fspath); TypeError for anything else.
inline std::string fs_path(const py::object& path) {
  return py::cast<std::string>(py::module_::import("os").attr("fspath")(path));
}

/// A parsed file as Python sees it: the C++ value (whose vectors NumPy arrays view) and the
/// warnings of the read that made it.
template <class T>
struct Document {
  T data;
  std::vector<Warning> warnings;
  /// The file it was read from (read(); empty for from_bytes / from_json / create): its folder is
  /// where check() looks up the files it names (a model's textures, a project's models) and where a
  /// project's scene() resolves its paths by default, as the CLI does for a file.
  std::string path = {};

  /// The folder of `path`, or nullopt when it was not read from a file.
  std::optional<std::string> folder() const {
    if (path.empty()) return std::nullopt;
    return std::filesystem::absolute(std::filesystem::path(path)).parent_path().string();
  }
};

/// What a format provides (specialized in bind_<format>.cpp).
template <class T>
struct FormatFns;
// static constexpr const char* name;                  "vmd"
// static Result<Document<T>> parse(ByteSpan, std::optional<Encoding>, bool strict);
// static Result<std::vector<std::uint8_t>> write(const T&);
// static std::string to_json(const T&, bool pretty);
// static Result<T> from_json(std::string_view);
// static const formats::FormatOps& ops();             what `mmdkit check` uses for the format

/// The findings of `mmdkit check` for a file's bytes, as dicts {"severity" ('error' / 'warning'),
/// "code", "message", "file", "section", "record", "offset", "omitted"}; with `folder`, texture
/// references are resolved there. Raises when the bytes do not parse. `file` (the path they were
/// read from, or empty) is set as the error's and each finding's "file" where they name none.
py::list check_findings(const formats::FormatOps& ops, ByteSpan bytes, std::optional<std::string> folder,
                        const std::string& file = {});

template <class T>
py::object parse_document(ByteSpan bytes, const std::optional<std::string>& encoding, bool strict) {
  const auto enc = encoding_arg(encoding);
  return py::cast(unwrap(without_gil([&] { return FormatFns<T>::parse(bytes, enc, strict); })));
}

template <class T>
std::vector<std::uint8_t> document_bytes(const Document<T>& d) {
  return unwrap(without_gil([&] { return FormatFns<T>::write(d.data); }));
}

/// Defines the shared methods on `cls`.
template <class T>
void def_document(py::class_<Document<T>>& cls) {
  using D = Document<T>;
  using F = FormatFns<T>;
  cls.def_property_readonly_static("format", [](const py::object&) { return F::name; },
                                   "The format name (\"vmd\", \"vpd\", \"pmd\", \"pmx\" or \"pmm\").")
      .def_property_readonly("warnings", [](const D& d) { return error_dicts(d.warnings); },
                             "Warnings of the read that made this object (dicts: code, message, file, section, "
                             "record, offset, text).")
      .def_static(
          "read",
          [](const py::object& path_like, std::optional<std::string> encoding, bool strict) {
            const std::string path = fs_path(path_like);
            auto bytes = read_path(path);
            try {
              py::object doc = parse_document<T>(bytes, encoding, strict);
              doc.cast<D&>().path = path;
              return doc;
            } catch (py::error_already_set& e) {
              if (e.matches(py::module_::import("mmdkit.errors").attr("Error")))
                e.value().attr("file") = path;
              throw;
            }
          },
          py::arg("path"), py::arg("encoding") = py::none(), py::arg("strict") = false,
          "Reads a file. encoding: force 'cp932' or 'gbk' for legacy text (None = detect); strict: bytes "
          "after the last section are an error. Raises mmdkit.Error subclasses with the location.")
      .def_static(
          "from_bytes",
          [](const py::buffer& data, std::optional<std::string> encoding, bool strict) {
            auto bytes = from_py_bytes(data);
            return parse_document<T>(bytes, encoding, strict);
          },
          py::arg("data"), py::arg("encoding") = py::none(), py::arg("strict") = false,
          "Parses the bytes of a file (same options and errors as read).")
      .def(
          "to_bytes", [](const D& d) { auto b = document_bytes(d); return to_py_bytes(b); },
          "The file's bytes (identical to the file read when nothing was changed).")
      .def(
          "write",
          [](const D& d, const py::object& path_like, bool force) {
            const std::string path = fs_path(path_like);
            // The extension says what is written: the format's own, or .json for its JSON; any
            // other is refused in convert's words (formats/registry.hpp), as the CLI's writers do.
            const std::string_view n = F::name;
            const formats::OutputKind& kind = n == "vmd"   ? formats::kVmdOutput
                                          : n == "vpd" ? formats::kVpdOutput
                                          : n == "pmd" ? formats::kPmdOutput
                                          : n == "pmm" ? formats::kPmmOutput
                                                       : formats::kPmxOutput;
            if (std::string p = formats::output_extension_problem(path, kind); !p.empty()) raise_argument(p);
            if (formats::lower_extension(path) == ".json") {
              const std::string text = without_gil([&] { return F::to_json(d.data, true); });
              write_path(path, ByteSpan(reinterpret_cast<const std::uint8_t*>(text.data()), text.size()), force);
              return;
            }
            write_path(path, document_bytes(d), force);
          },
          py::arg("path"), py::arg("force") = false,
          "Writes the file atomically (temporary file + rename): the format's bytes, or its JSON for a "
          ".json path; another extension raises ArgumentError (e.g. a motion to .pmx). An existing "
          "file is replaced only with force=True.")
      .def(
          "to_json",
          [](const D& d, bool pretty) {
            return without_gil([&] { return F::to_json(d.data, pretty); });
          },
          py::arg("pretty") = true, "Lossless JSON text (the schema of docs/formats/<format>.md).")
      .def_static(
          "from_json",
          [](const std::string& text) {
            return D{unwrap(without_gil([&] { return F::from_json(text); })), {}};
          },
          py::arg("text"), "An object from lossless JSON text (raises mmdkit.JsonError with the JSON path).")
      .def("_check", [](const D& d) { return check_findings(F::ops(), document_bytes(d), d.folder(), d.path); },
           "Structural findings as dicts (severity 'error'/'warning', code, message, section, record, "
           "offset, field); check() wraps them in mmdkit.Finding objects. Read from a file, the files it "
           "names are looked up in that file's folder, as `mmdkit check FILE` does.")
      .def_property_readonly("path", [](const D& d) { return d.path.empty() ? py::object(py::none()) : py::object(py::str(d.path)); },
                             "The path it was read from (read()), or None (from_bytes, from_json, created).")
      .def("copy", [](const D& d) { return D(d); }, "A deep copy.")
      .def("__copy__", [](const D& d) { return D(d); })
      .def("__deepcopy__", [](const D& d, const py::object&) { return D(d); });
}

}  // namespace mmdkit::python
