// mmdkit Python bindings — the one reading of a `model` argument (Evaluator, the motion
// operations): a path, a PmdModel, a PmxModel or a ModelView.
#pragma once

#include <vector>

#include "common.hpp"
#include "mmdkit/model/model.hpp"

namespace mmdkit::python {

/// The model view of `obj`: a path (PMD, PMX or their mmdkit JSON, by content; its readers'
/// warnings appended to `warnings`), a PmdModel or PmxModel (converted with
/// model::BuildOptions{geometry}), or a ModelView (copied as it is). `geometry` false: a
/// geometry-free view (bones and morph weights only). Raises the reader's error for a bad file,
/// ArgumentError for any other object.
model::Model model_of(const py::handle& obj, bool geometry, std::vector<Warning>& warnings);

}  // namespace mmdkit::python
