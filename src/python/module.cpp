// mmdkit Python bindings — the extension module mmdkit._mmdkit (the package mmdkit wraps it).
#include "common.hpp"

namespace mmdkit::python {
void bind_render(py::module_& m);  ///< mmdkit.Renderer (bind_render.cpp)
}

PYBIND11_MODULE(_mmdkit, m) {
  m.doc() = "mmdkit C++ bindings; use the package `mmdkit` (docs/PYTHON.md).";
  mmdkit::python::bind_vmd(m);
  mmdkit::python::bind_vpd(m);
  mmdkit::python::bind_pmd(m);
  mmdkit::python::bind_pmx(m);
  mmdkit::python::bind_model(m);
  mmdkit::python::bind_io(m);
  mmdkit::python::bind_evaluator(m);
  mmdkit::python::bind_motion(m);
  mmdkit::python::bind_x(m);
  mmdkit::python::bind_pmm(m);
  mmdkit::python::bind_render(m);
}
