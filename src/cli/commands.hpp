// mmdkit CLI — the generic commands, dispatching on FormatOps.
#pragma once

#include <istream>
#include <ostream>
#include <string>

#include "cli/format_ops.hpp"

namespace mmdkit::cli {

/// Everything the parsed command line holds.
struct CommandArgs {
  std::string input;          ///< a path, or "-" for the standard input
  std::string output;         ///< a path, or "-" (or empty for dump) for the standard output
  std::string input_format;   ///< --format: vmd, vpd, pmd or pmx (default: from the content)
  std::string output_format;  ///< convert --to: vmd, vpd, pmd, pmx or json (needed for "-")
  std::string encoding_name;
  std::string generate_format;
  /// --force: an output may replace an existing file, including an input (io.hpp).
  bool force = false;
  ReadFlags flags;
  GenerateFlags gen;
  std::istream* in = nullptr;   ///< the standard input (null = std::cin)
  std::ostream* out = nullptr;  ///< the standard output for "-" outputs (null = std::cout)
};

int cmd_info(const CommandArgs& a, std::ostream& out, std::ostream& err);
int cmd_dump(const CommandArgs& a, std::ostream& out, std::ostream& err);
int cmd_convert(const CommandArgs& a, std::ostream& out, std::ostream& err);
int cmd_generate(const CommandArgs& a, std::ostream& out, std::ostream& err);
int cmd_check(const CommandArgs& a, std::ostream& out, std::ostream& err);

}  // namespace mmdkit::cli
