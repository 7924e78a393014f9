#include "cli/app.hpp"

#include <CLI/CLI.hpp>

#include <filesystem>
#include <iostream>
#include <string>
#include <vector>

#include "cli/cmd_export.hpp"
#include "cli/cmd_pose.hpp"
#include "cli/cmd_sample.hpp"
#include "cli/commands.hpp"

namespace mmdkit::cli {

int run(int argc, const char* const* argv, std::ostream& out, std::ostream& err) {
  return run(argc, argv, std::cin, out, err);
}

int run(int argc, const char* const* argv, std::istream& in, std::ostream& out, std::ostream& err) {
  CLI::App app{
      "mmdkit: read, write, check and convert MikuMikuDance files (VMD motions, VPD poses, PMD and PMX "
      "models).\nA FILE or INPUT of '-' is the standard input, an output of '-' the standard output.\n"
      "--force: let an output replace an existing file, an input included (without it, never).\n"
      "Exit codes: 0 ok, 1 bad input or failed output, 2 usage."};
  app.require_subcommand(1);
  app.set_version_flag("--version", "mmdkit 0.1.0");

  CommandArgs args;
  args.in = &in;
  args.out = &out;
  const std::string force_help = "allow the output to replace an existing file, an input included";
  auto add_read_flags = [&](CLI::App* sub) {
    sub->add_option("--encoding", args.encoding_name,
                    "text encoding of names in VMD/VPD/PMD files: cp932 or gbk (default: detected per file, cp932 unless the names read as gbk)");
    sub->add_flag("--strict", args.flags.strict, "treat bytes after the last section as an error");
    sub->add_option("--format", args.input_format,
                    "input format: vmd, vpd, pmd or pmx (default: from the content; needed for JSON without a "
                    "\"format\" member)");
  };

  CLI::App* info = app.add_subcommand("info", "summary of a file: header, counts per section, frame range, encoding");
  info->add_option("FILE", args.input, "input file (.vmd .vpd .pmd .pmx or mmdkit .json), - = stdin")->required();
  info->add_flag("--json", args.flags.json, "print the summary as JSON");
  add_read_flags(info);

  CLI::App* dump = app.add_subcommand("dump", "lossless JSON text of a file (to stdout or -o)");
  dump->add_option("FILE", args.input, "input file, - = stdin")->required();
  dump->add_option("-o,--output", args.output, "write to this file instead of stdout (- = stdout)");
  dump->add_flag("--euler", args.flags.euler,
                 "VMD and VPD: add Euler angles in degrees (MMD's UI) next to bone quaternions");
  dump->add_flag("--force", args.force, force_help);
  add_read_flags(dump);

  CLI::App* convert = app.add_subcommand(
      "convert", "convert between formats, chosen by extension: .vmd/.vpd/.pmd/.pmx <-> .json, .pmd -> .pmx");
  convert->add_option("INPUT", args.input, "input file, - = stdin")->required();
  convert->add_option("OUTPUT", args.output, "output file; its extension chooses the format; - = stdout (with --to)")
      ->required();
  convert->add_option("--to", args.output_format, "output format: vmd, vpd, pmd, pmx or json (needed for stdout)");
  convert->add_flag("--euler", args.flags.euler, "JSON output of VMD and VPD: add Euler angles in degrees");
  convert->add_flag("--force", args.force, force_help);
  add_read_flags(convert);

  CLI::App* generate = app.add_subcommand(
      "generate", "write a synthetic file (deterministic by seed) for tests, benchmarks and examples");
  generate->add_option("FORMAT", args.generate_format, "vmd, vpd, pmd or pmx")->required();
  generate->add_option("-o,--output", args.output, "output file, - = stdout")->required();
  generate->add_option("--seed", args.gen.seed, "random seed (same seed, same bytes)");
  generate->add_option("--bone-keys", args.gen.bone_keys, "VMD: number of bone keyframes");
  generate->add_option("--morph-keys", args.gen.morph_keys, "VMD: number of morph keyframes");
  generate->add_option("--camera-keys", args.gen.camera_keys, "VMD: number of camera keyframes");
  generate->add_option("--light-keys", args.gen.light_keys, "VMD: number of light keyframes");
  generate->add_option("--frames", args.gen.frames, "VMD: frame span of the motion");
  generate->add_option("--vertices", args.gen.vertices, "PMD/PMX: number of vertices");
  generate->add_option("--bones", args.gen.bones, "PMD/PMX: number of bones (0 = standard humanoid set)");
  generate->add_option("--morphs", args.gen.morphs, "PMD/PMX: number of morphs");
  generate->add_option("--variant", args.gen.format_variant, "format variant, e.g. pmx2.1-utf8");
  generate->add_flag("--force", args.force, force_help);

  CLI::App* check = app.add_subcommand(
      "check", "report structural problems with their location; exit 1 if any is an error");
  check->add_option("FILE", args.input, "input file, - = stdin (models: textures are then not checked)")->required();
  check->add_flag("--json", args.flags.json, "print findings as JSON");
  add_read_flags(check);

  SampleArgs sample_args;
  CLI::App* sample = add_sample_command(app, sample_args);
  PoseArgs pose_args;
  CLI::App* pose = add_pose_command(app, pose_args);
  ExportArgs export_args;
  CLI::App* export_cmd = add_export_command(app, export_args);

  std::vector<std::string> arg_list;
  for (int i = argc - 1; i > 0; --i) arg_list.emplace_back(argv[i]);
  if (argc > 1 && argv[1][0] != '-') {
    bool known = false;
    for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; }))
      known = known || sub->get_name() == argv[1];
    if (!known) {
      err << "mmdkit: error: unknown command '" << argv[1]
          << "' (info, dump, convert, check, generate, sample, pose, export; see 'mmdkit --help')\n";
      return kExitUsage;
    }
  }
  try {
    app.parse(arg_list);
  } catch (const CLI::CallForHelp&) {
    out << app.help();
    return kExitOk;
  } catch (const CLI::CallForAllHelp&) {
    out << app.help("", CLI::AppFormatMode::All);
    return kExitOk;
  } catch (const CLI::CallForVersion&) {
    out << "mmdkit 0.1.0\n";
    return kExitOk;
  } catch (const CLI::ParseError& e) {
    err << "mmdkit: " << e.what() << "\n";
    if (CLI::App* sub = app.get_subcommands().empty() ? nullptr : app.get_subcommands().front())
      err << "run 'mmdkit " << sub->get_name() << " --help' for usage\n";
    else
      err << "run 'mmdkit --help' for usage\n";
    return kExitUsage;
  }
  if (!args.encoding_name.empty()) {
    args.flags.encoding = parse_encoding_name(args.encoding_name);
    if (!args.flags.encoding) {
      err << "mmdkit: unknown encoding '" << args.encoding_name << "' (use cp932 or gbk)\n";
      return kExitUsage;
    }
  }
  if (info->parsed()) return cmd_info(args, out, err);
  if (dump->parsed()) return cmd_dump(args, out, err);
  if (convert->parsed()) return cmd_convert(args, out, err);
  if (generate->parsed()) return cmd_generate(args, out, err);
  if (check->parsed()) return cmd_check(args, out, err);
  if (sample->parsed()) return run_sample(sample_args, out, err);
  if (pose->parsed()) return run_pose(pose_args, out, err);
  if (export_cmd->parsed()) return run_export(export_args, out, err);
  return kExitUsage;
}

}  // namespace mmdkit::cli
