// mmdkit CLI — the one dispatch: builds the CLI11 app from the command table (command.hpp), parses,
// runs the chosen command. Also `help [COMMAND]`, `help --commands` and `--version`.
#include "cli/app.hpp"

#include <CLI/CLI.hpp>

#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "cli/command.hpp"
#include "mmdkit/version.hpp"

namespace mmdkit::cli {

std::string version_text() {
  auto yes_no = [](bool b) { return b ? "yes" : "no"; };
  std::string s = "mmdkit " + std::string(kVersion) + "\n";
  s += std::string("built with: physics ") + yes_no(kBuildOptions.physics) + ", render " +
       yes_no(kBuildOptions.render) + ", python " + yes_no(kBuildOptions.python) + "\n";
  return s;
}

int run(int argc, const char* const* argv, std::ostream& out, std::ostream& err) {
  return run(argc, argv, std::cin, out, err);
}

int run_command(std::string_view name, int argc, const char* const* argv, std::ostream& out, std::ostream& err) {
  const std::string command(name);
  std::vector<const char*> args = {argc > 0 ? argv[0] : "mmdkit", command.c_str()};
  for (int i = 1; i < argc; ++i) args.push_back(argv[i]);
  return run(static_cast<int>(args.size()), args.data(), out, err);
}

int run(int argc, const char* const* argv, std::istream& in, std::ostream& out, std::ostream& err) {
  CLI::App app{
      "mmdkit: read, write, check, evaluate, draw and convert MikuMikuDance files (VMD motions, VPD poses, "
      "PMD and PMX models, .pmm projects, .x and .vac accessories).\nA FILE or INPUT of '-' is the standard input, an output of '-' the standard output.\n"
      "--force: let an output replace an existing file, an input included (without it, never).\n"
      "Exit codes: 0 ok, 1 bad input or failed output, 2 usage.",
      "mmdkit"};
  app.require_subcommand(1);
  app.add_flag_callback("--version", [] { throw CLI::CallForVersion(); }, "print the version and the build options");

  // The command table, then `help`.
  struct Entry {
    CLI::App* sub;
    Runner run;
  };
  std::vector<Entry> entries;
  // `mmdkit COMMAND ...`: only COMMAND's options are declared (the others are listed by name and
  // summary, all that parsing, the unknown-command message and `help --commands` read): declaring
  // every command's options was a tenth of the instructions of a short run; `mmdkit --version`
  // alone declares none. Any other first word (`help`, an option such as --help, none) declares
  // them all, for the help pages.
  const std::string_view first = argc > 1 ? std::string_view(argv[1]) : std::string_view();
  const bool one_command = !first.empty() && first[0] != '-' && first != "help";
  const bool version_only = argc == 2 && first == "--version";
  for (const Command& c : command_table()) {
    CLI::App* sub = app.add_subcommand(std::string(c.name), std::string(c.summary));
    const bool declare = version_only ? false : !one_command || c.name == first;
    entries.push_back({sub, declare ? c.declare(*sub) : Runner{}});
  }
  CLI::App* help = app.add_subcommand("help", "help on mmdkit or on one command (same as --help)");
  std::string help_topic, help_subtopic;  // a command, and a subcommand of it (`help motion trim`)
  bool list_commands = false;
  help->add_option("COMMAND", help_topic, "the command to explain");
  help->add_option("SUBCOMMAND", help_subtopic, "its subcommand to explain (e.g. `help motion trim`)");
  help->add_flag("--commands", list_commands, "list the commands, one per line: NAME<TAB>summary");

  std::vector<std::string> arg_list;
  for (int i = argc - 1; i > 0; --i) arg_list.emplace_back(argv[i]);
  auto find_command = [&](const std::string& name) -> CLI::App* {
    for (CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; }))
      if (sub->get_name() == name) return sub;
    return nullptr;
  };
  auto command_names = [&] {
    std::string names;
    for (CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; }))
      names += (names.empty() ? "" : ", ") + sub->get_name();
    return names;
  };
  if (argc > 1 && argv[1][0] != '-' && !find_command(argv[1]))
    return usage_error(err, "", "unknown command '" + std::string(argv[1]) + "' (" + command_names() + ")");
  try {
    app.parse(arg_list);
  } catch (const CLI::CallForHelp&) {
    out << app.help();  // the chosen command's help when there is one ("Usage: mmdkit info ...")
    return kExitOk;
  } catch (const CLI::CallForAllHelp&) {
    out << app.help("", CLI::AppFormatMode::All);
    return kExitOk;
  } catch (const CLI::CallForVersion&) {
    out << version_text();
    return kExitOk;
  } catch (const CLI::ParseError& e) {
    const CLI::App* sub = app.get_subcommands().empty() ? nullptr : app.get_subcommands().front();
    if (argc <= 1) {
      err << "mmdkit: error: a command is required (" << command_names() << ")\n" << app.help();
      return kExitUsage;
    }
    if (sub && sub->get_subcommands().empty() &&
        !sub->get_subcommands([](const CLI::App*) { return true; }).empty() &&
        std::string_view(e.what()) == "A subcommand is required") {  // CLI11's words: ours, as for a command
      std::string names;
      for (const CLI::App* c : sub->get_subcommands([](const CLI::App*) { return true; }))
        names += (names.empty() ? "" : ", ") + c->get_name();
      // `mmdkit motion foo`: the word after the command names no subcommand.
      for (int i = 1; i + 1 < argc; ++i)
        if (argv[i] == sub->get_name() && argv[i + 1][0] != '-')
          return usage_error(err, sub->get_name(),
                             "unknown subcommand '" + std::string(argv[i + 1]) + "' of " + sub->get_name() + " (" + names + ")");
      return usage_error(err, sub->get_name(), "a subcommand of " + sub->get_name() + " is required (" + names + ")");
    }
    return usage_error(err, sub ? sub->get_name() : "", e.what());
  }
  if (help->parsed()) {
    if (list_commands) {
      for (CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; }))
        if (sub != help) out << sub->get_name() << "\t" << sub->get_description() << "\n";
      return kExitOk;
    }
    if (help_topic.empty()) {
      app.clear();  // else help() shows the parsed subcommand's (`help`'s own) page
      out << app.help();
      return kExitOk;
    }
    CLI::App* sub = find_command(help_topic);
    if (!sub) return usage_error(err, "help", "unknown command '" + help_topic + "' (" + command_names() + ")");
    // A command that hands every argument on (`dataset`: the Python module declares its options)
    // has no page here: `help COMMAND` is `COMMAND --help`.
    if (sub->get_prefix_command() && help_subtopic.empty()) {
      const std::string name = help_topic;
      const char* const again[] = {argv[0], name.c_str(), "--help"};
      return run(3, again, in, out, err);
    }
    // The same page as `mmdkit COMMAND SUBCOMMAND --help`.
    std::string prev = "mmdkit";
    if (!help_subtopic.empty()) {
      CLI::App* child = nullptr;
      std::string names;
      for (CLI::App* c : sub->get_subcommands([](const CLI::App*) { return true; })) {
        if (c->get_name() == help_subtopic) child = c;
        names += (names.empty() ? "" : ", ") + c->get_name();
      }
      if (!child)
        return usage_error(err, "help",
                           names.empty() ? "'" + help_topic + "' has no subcommands"
                                         : "'" + help_topic + "' has no subcommand '" + help_subtopic + "' (" + names + ")");
      prev += " " + sub->get_name();
      sub = child;
    }
    out << sub->help(prev);
    return kExitOk;
  }
  const Streams streams{in, out, err};
  for (const Entry& e : entries)
    if (e.sub->parsed()) return e.run(streams);
  return kExitUsage;
}

}  // namespace mmdkit::cli
