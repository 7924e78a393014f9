// Placeholder until the vmd format is wired in: the format is recognized by nothing.
#include "cli/format_ops.hpp"

namespace mmdkit::cli {

const FormatOps& vmd_ops() {
  static const FormatOps ops{.name = "vmd", .extension = ".vmd"};
  return ops;
}

}  // namespace mmdkit::cli
