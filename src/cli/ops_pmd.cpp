// Placeholder until the pmd format is wired in: the format is recognized by nothing.
#include "cli/format_ops.hpp"

namespace mmdkit::cli {

const FormatOps& pmd_ops() {
  static const FormatOps ops{.name = "pmd", .extension = ".pmd"};
  return ops;
}

}  // namespace mmdkit::cli
