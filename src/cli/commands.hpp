// mmdkit CLI — the generic commands, dispatching on FormatOps.
#pragma once

#include <ostream>
#include <string>

#include "cli/format_ops.hpp"

namespace mmdkit::cli {

/// Everything the parsed command line holds.
struct CommandArgs {
  std::string input;
  std::string output;
  std::string encoding_name;
  std::string generate_format;
  bool force = false;
  ReadFlags flags;
  GenerateFlags gen;
};

int cmd_info(const CommandArgs& a, std::ostream& out, std::ostream& err);
int cmd_dump(const CommandArgs& a, std::ostream& out, std::ostream& err);
int cmd_convert(const CommandArgs& a, std::ostream& out, std::ostream& err);
int cmd_generate(const CommandArgs& a, std::ostream& out, std::ostream& err);
int cmd_check(const CommandArgs& a, std::ostream& out, std::ostream& err);

}  // namespace mmdkit::cli
