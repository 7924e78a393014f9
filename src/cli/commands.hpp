// mmdkit CLI — the generic file commands (info, dump, convert, generate, check), dispatching on
// FormatOps. Each is one Command of the table (command.hpp) with its own arguments.
#pragma once

#include <string>

#include "cli/command.hpp"
#include "cli/format_ops.hpp"

namespace mmdkit::cli {

/// The file a command reads and how to read it.
struct InputArgs {
  std::string path;           ///< a path, or "-" for the standard input
  std::string format;         ///< --format: vmd, vpd, pmd or pmx (default: from the content)
  std::string encoding_name;  ///< --encoding as given; checked by the command (cp932 or gbk)
  ReadFlags flags;            ///< --strict, --euler, --json; .encoding set from encoding_name
  bool quiet = false;         ///< -q/--quiet (info, check, convert): no warnings on stderr
};

/// The file a command writes.
struct OutputArgs {
  std::string path;    ///< a path, or "-" (dump: empty too) for the standard output
  bool force = false;  ///< --force: may replace an existing file, an input included (io.hpp)
};

extern const Command kInfoCommand;      ///< info FILE [--json]
extern const Command kDumpCommand;      ///< dump FILE [-o OUT] [--euler]
extern const Command kConvertCommand;   ///< convert INPUT OUTPUT [--to FORMAT]
extern const Command kGenerateCommand;  ///< generate FORMAT -o OUT [sizes]
extern const Command kCheckCommand;     ///< check FILE [--json]

}  // namespace mmdkit::cli
