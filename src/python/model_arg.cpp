// mmdkit Python bindings — model arguments (model_arg.hpp).
#include "model_arg.hpp"

#include <string>

#include "document.hpp"
#include "mmdkit/anim/input_files.hpp"
#include "mmdkit/formats/pmd.hpp"
#include "mmdkit/formats/pmx.hpp"

namespace mmdkit::python {

model::Model model_of(const py::handle& obj, bool geometry, std::vector<Warning>& warnings) {
  if (py::isinstance<py::str>(obj)) {
    const std::string path = obj.cast<std::string>();
    return unwrap(without_gil([&] {
      return anim::read_model_file(path, anim::InputOptions{.encoding = std::nullopt, .geometry = geometry}, warnings);
    }));
  }
  const model::BuildOptions build{.geometry = geometry};
  if (py::isinstance<Document<pmd::Model>>(obj))
    return unwrap(model::from_pmd(obj.cast<const Document<pmd::Model>&>().data, build));
  if (py::isinstance<Document<pmx::Model>>(obj))
    return unwrap(model::from_pmx(obj.cast<const Document<pmx::Model>&>().data, build));
  if (py::isinstance<model::Model>(obj)) return obj.cast<const model::Model&>();
  raise_argument("model must be a path, PmdModel, PmxModel or ModelView");
}

}  // namespace mmdkit::python
