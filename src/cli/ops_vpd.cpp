// Placeholder until the vpd format is wired in: the format is recognized by nothing.
#include "cli/format_ops.hpp"

namespace mmdkit::cli {

const FormatOps& vpd_ops() {
  static const FormatOps ops{.name = "vpd", .extension = ".vpd"};
  return ops;
}

}  // namespace mmdkit::cli
