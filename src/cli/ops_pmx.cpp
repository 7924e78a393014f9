// Placeholder until the pmx format is wired in: the format is recognized by nothing.
#include "cli/format_ops.hpp"

namespace mmdkit::cli {

const FormatOps& pmx_ops() {
  static const FormatOps ops{.name = "pmx", .extension = ".pmx"};
  return ops;
}

}  // namespace mmdkit::cli
