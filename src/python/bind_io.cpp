// mmdkit Python bindings — format sniffing and `check` on bytes or files (the library's format registry, mmdkit/formats/registry.hpp).
#include <filesystem>

#include "document.hpp"

namespace mmdkit::python {

// `file`: the path the bytes were read from (check_file), set on the error and on every finding
// that names no file (as mmdkit.read names it; docs/PYTHON.md: Error.file is set when a file was read).
py::list check_findings(const formats::FormatOps& ops, ByteSpan bytes, std::optional<std::string> folder,
                        const std::string& file) {
  formats::ReadFlags flags;
  if (folder) flags.input_folder = flags.project_folder = std::filesystem::path(*folder);  // .pmm: its models
  auto found = without_gil([&] { return ops.check(bytes, flags); });
  if (!found) {
    Error e = found.error();
    if (e.file.empty()) e.file = file;
    raise(e);
  }
  py::list out;
  for (formats::Finding& f : *found) {
    if (f.where.file.empty()) f.where.file = file;
    py::dict d = error_dict(f.where);
    d["severity"] = f.severity_error ? "error" : "warning";
    d["omitted"] = f.omitted;
    out.append(d);
  }
  return out;
}

void bind_io(py::module_& m) {
  m.def(
      "sniff",
      [](const py::buffer& data) -> py::object {
        auto bytes = from_py_bytes(data);
        if (const formats::FormatOps* f = formats::format_by_content(bytes)) return py::str(std::string(f->name));
        std::string_view text(reinterpret_cast<const char*>(bytes.data()), bytes.size());
        const auto start = text.find_first_not_of(" \t\r\n");
        if (start != std::string_view::npos && text[start] == '{')
          if (const formats::FormatOps* f = formats::format_of_json(text)) return py::str(std::string(f->name) + "-json");
        return py::none();
      },
      py::arg("data"),
      "The format of a file's first bytes: 'vmd', 'vpd', 'pmd', 'pmx', '<format>-json' for mmdkit JSON "
      "(its \"format\" member within the first 4 KiB), or None.");
  m.def(
      "check_file",
      [](const std::string& path) {
        auto bytes = read_path(path);
        const formats::FormatOps* f = formats::format_by_content(bytes);
        if (f == nullptr) {
          Error e{ErrorCode::bad_signature, "not a VMD, VPD, PMD or PMX file", "header", -1, 0, path};
          raise(e);
        }
        auto folder = std::filesystem::path(path).parent_path();
        if (folder.empty()) folder = ".";
        return check_findings(*f, bytes, folder.string(), path);
      },
      py::arg("path"),
      "The findings of `mmdkit check PATH` as dicts (textures resolved in the file's folder).");
}

}  // namespace mmdkit::python
