// mmdkit CLI — the command table: every command declares its own arguments and runs through one
// dispatch (app.cpp). A command is added by writing its Command (name, summary, declare) and one
// line in command_table.cpp (docs/DEVELOPING.md, "Adding a command").
#pragma once

#include <functional>
#include <istream>
#include <ostream>
#include <span>
#include <string>
#include <string_view>

namespace CLI {
class App;
}

namespace mmdkit::cli {

/// The standard streams a command runs with (tests pass string streams).
struct Streams {
  std::istream& in;   ///< read by inputs named "-"
  std::ostream& out;  ///< results, and outputs named "-"
  std::ostream& err;  ///< diagnostics ("mmdkit: error: ...", "mmdkit: warning: ...")
};

/// Runs a command once its arguments are parsed; returns the exit code (app.hpp: 0 ok, 1 bad input
/// or failed output, 2 usage).
using Runner = std::function<int(const Streams&)>;

/// One command of the mmdkit tool.
struct Command {
  std::string_view name;     ///< the word after "mmdkit", e.g. "info"
  std::string_view summary;  ///< one line: `mmdkit --help`, `mmdkit help --commands`, the man page's NAME
  /// Declares the command's arguments on `sub` (its CLI11 subcommand, already named and described)
  /// and returns the Runner that runs with the values parsed into them (the Runner owns them).
  Runner (*declare)(CLI::App& sub);
};

/// Every command, in the order `mmdkit --help` lists them (command_table.cpp).
std::span<const Command> command_table();

/// Usage error in a command's own checks after parsing (e.g. an unknown value): prints
/// "mmdkit: error: MESSAGE" and "run 'mmdkit COMMAND --help' for usage"; returns 2.
int usage_error(std::ostream& err, std::string_view command, const std::string& message);

// Options several commands share, declared the same way everywhere.

/// --force (the --force rule of io.hpp).
void add_force_flag(CLI::App& sub, bool& force);

}  // namespace mmdkit::cli
