#include "cli/commands.hpp"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <filesystem>
#include <memory>
#include <sstream>
#include <iostream>
#include <string_view>
#include <system_error>
#include <vector>

#include "cli/app.hpp"
#include "cli/cmd_convert_bvh.hpp"
#include "cli/io.hpp"
#include "cli/messages.hpp"
#include "formats/model_ops.hpp"
#include "core/json.hpp"
#include "mmdkit/core/file.hpp"
#include "core/try.hpp"

namespace mmdkit::cli {
namespace {

using formats::generated_companions;
using formats::texture_files_for_output;
using formats::texture_warnings_for_output;
using formats::CompanionFile;

namespace fs = std::filesystem;

void print_error(std::ostream& err, Error e, const std::string& file) {
  if (e.file.empty()) e.file = file;
  err << diagnostic_line(Diagnostic::error, e.to_string());
}

std::string_view as_text(ByteSpan b) {
  return {reinterpret_cast<const char*>(b.data()), b.size()};
}

bool has_json_extension(const fs::path& p) {
  std::string ext = p.extension().string();
  for (char& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return ext == ".json";
}

// A loaded input: bytes plus the format that reads them; `is_json` for mmdkit JSON input.
struct Input {
  FileBytes bytes;  // mapped when the input is a regular file
  const FormatOps* format = nullptr;
  bool is_json = false;
  bool add_format_member = false;  // JSON without "format", named by --format: added before import
};

// Reads the input ("-" = stdin) and finds its format from the content; `--format` names it when the
// content cannot (JSON without a "format" member) and must agree with it otherwise.
Result<Input> load(const InputArgs& a, std::istream& stdin_stream) {
  const std::string label = input_label(a.path);
  auto fail = [&](ErrorCode code, std::string message, std::string section = {}, std::int64_t offset = -1) {
    return std::unexpected(Error{code, std::move(message), std::move(section), -1, offset, label});
  };
  const FormatOps* declared = nullptr;
  if (!a.format.empty()) {
    declared = format_by_name(a.format);
    if (!declared) return fail(ErrorCode::invalid_argument, "--format '" + a.format + "' is not vmd, vpd, pmd, pmx, pmm, x or vac");
  }
  MMDKIT_TRY_ASSIGN(auto bytes, read_input(a.path, stdin_stream));
  Input in;
  in.bytes = std::move(bytes);
  if (in.bytes.empty()) return fail(ErrorCode::empty_input, is_std_stream(a.path) ? "standard input is empty" : "file is empty");
  if (const FormatOps* f = format_by_content(in.bytes)) {
    if (declared && declared != f)
      return fail(ErrorCode::bad_signature, "--format " + std::string(declared->name) + " given, but the content is a " +
                                                std::string(f->name) + " file", "header", 0);
    in.format = f;
    return in;
  }
  // .vac has no signature: its extension (or --format vac) names it.
  if (const FormatOps* vac = &vac_ops();
      declared == vac || (!declared && !is_std_stream(a.path) && format_by_name(fs::path(a.path).extension().string()) == vac)) {
    in.format = vac;
    return in;
  }
  std::string_view text = as_text(in.bytes);
  std::size_t first = text.find_first_not_of(" \t\r\n");
  if (first != std::string_view::npos && text[first] == '{') {
    in.is_json = true;
    in.format = format_of_json(text);
    if (in.format && declared && declared != in.format)
      return fail(ErrorCode::json_schema, "--format " + std::string(declared->name) + " given, but the JSON says \"format\": \"" +
                                              std::string(in.format->name) + "\"");
    if (!in.format) {
      in.format = declared;
      in.add_format_member = declared != nullptr;
    }
    if (!in.format)
      return fail(ErrorCode::json_schema,
                  "JSON without a known \"format\" member (vmd, vpd, pmd, pmx, pmm); name it with --format");
    return in;
  }
  return fail(ErrorCode::bad_signature,
              declared ? "not a " + std::string(declared->name) + " file (unknown signature) nor mmdkit JSON"
                       : "not a VMD, VPD, PMD, PMX, PMM or DirectX .x file (unknown signature) nor mmdkit JSON",
              "header", 0);
}

// JSON input → the format's binary bytes.
Result<std::vector<std::uint8_t>> json_to_binary(const Input& in, const ReadFlags& flags) {
  if (!in.format->from_json)
    return make_error(ErrorCode::unsupported, std::string("JSON import is not available for ") +
                                                  std::string(in.format->name));
  if (!in.add_format_member) return in.format->from_json(as_text(in.bytes), flags);
  // {"format": NAME, ...the rest} (the importers require the member; --format supplied it).
  std::string_view text = as_text(in.bytes);
  const std::size_t open = text.find('{');
  const std::size_t next = text.find_first_not_of(" \t\r\n", open + 1);
  const bool empty_object = next != std::string_view::npos && text[next] == '}';
  std::string with;
  with.reserve(text.size() + 32);
  with.append(text.substr(0, open + 1));
  with.append("\"format\": \"").append(in.format->name).append(empty_object ? "\"" : "\", ");
  with.append(text.substr(open + 1));
  return in.format->from_json(with, flags);
}

// JSON input → the format's binary bytes; binary input is moved out (no copy of a large file).
Result<FileBytes> binary_of(Input& in, const ReadFlags& flags) {
  if (!in.is_json) return std::move(in.bytes);
  MMDKIT_TRY_ASSIGN(auto bytes, json_to_binary(in, flags));
  return FileBytes(std::move(bytes));
}

// A mapped input that shrank while it was read (core/mapped_file.hpp) fails the command.
bool changed(const FileBytes& bytes, const std::string& label, std::ostream& err) {
  auto same = bytes.verify_unchanged(label);
  if (!same) print_error(err, same.error(), label);
  return !same;
}

// Writes a command's output: "-" = stdout, a path = the --force rule (io.hpp) and an atomic write.
// `input` (a path, "-" or empty) is protected by the rule; "-" outputs go to `out`.
int write_output(const std::string& output, ByteSpan bytes, const std::string& input, bool force, std::ostream& out,
                 std::ostream& err) {
  std::vector<fs::path> inputs;
  if (!input.empty() && !is_std_stream(input)) inputs.emplace_back(input);
  if (auto r = cli::write_output(output, bytes, inputs, force, out); !r) {
    print_error(err, r.error(), is_std_stream(output) ? "<stdout>" : output);
    return kExitBadInput;
  }
  return kExitOk;
}

// Files written beside a model (generated textures, copied textures), planned before anything
// is written: each path must stay inside `folder` (no "..", not absolute, no sub-folder that is a
// link out of it); the --force rule for each, where a file that already holds exactly the bytes
// (an earlier model written into the same folder) is left as it is.
struct CompanionPlan {
  std::vector<fs::path> targets;
  std::vector<std::uint8_t> keep;  // 1 = already there with these bytes
};

int plan_companions(const fs::path& folder, const std::vector<CompanionFile>& files, bool force, std::ostream& err,
                    CompanionPlan& plan) {
  for (const CompanionFile& c : files) {
    const fs::path rel = fs::path(c.path).lexically_normal();
    if (rel.empty() || rel.has_root_path() || *rel.begin() == "..") {
      err << "mmdkit: error: " << c.path << ": refused: a file written beside the model must stay inside the output's folder\n";
      return kExitBadInput;
    }
    plan.targets.push_back(folder / rel);
  }
  plan.keep.assign(plan.targets.size(), 0);
  for (std::size_t i = 0; i < plan.targets.size(); ++i) {
    std::error_code xe;
    if (!fs::exists(plan.targets[i], xe)) continue;
    const auto size = fs::file_size(plan.targets[i], xe);
    auto existing = !xe && size == files[i].bytes.size() ? read_file(plan.targets[i]) : Result<std::vector<std::uint8_t>>{};
    if (!xe && existing && *existing == files[i].bytes) {
      plan.keep[i] = 1;
    } else if (!force) {
      err << "mmdkit: error: " << plan.targets[i].string() << ": exists with other contents (use --force to replace it)\n";
      return kExitBadInput;
    }
  }
  // A sub-folder (e.g. tex/) that is a link out of the folder is refused before anything is
  // written. (A missing output folder is reported by the model's write.)
  std::error_code ec;
  const fs::path real_folder = fs::canonical(folder, ec);
  for (std::size_t i = 0; i < plan.targets.size() && !ec; ++i) {
    const fs::path rel = fs::weakly_canonical(plan.targets[i].parent_path(), ec).lexically_relative(real_folder);
    if (!ec && (rel.empty() || *rel.begin() == "..")) {
      err << "mmdkit: error: " << plan.targets[i].parent_path().string() << ": refused: leads outside the output's folder "
          << folder.string() << "\n";
      return kExitBadInput;
    }
  }
  return kExitOk;
}

// Writes the planned files, each atomically (sub-folders created).
int write_companions(const CompanionPlan& plan, const std::vector<CompanionFile>& files, const std::string& input,
                     bool force, std::ostream& out, std::ostream& err) {
  for (std::size_t i = 0; i < plan.targets.size(); ++i) {
    std::error_code ec;
    fs::create_directories(plan.targets[i].parent_path(), ec);
    if (ec) {
      err << "mmdkit: error: " << plan.targets[i].parent_path().string() << ": io_error: " << ec.message() << "\n";
      return kExitBadInput;
    }
    if (plan.keep[i]) continue;
    if (int rc = write_output(plan.targets[i].string(), files[i].bytes, input, force, out, err); rc != kExitOk) return rc;
  }
  return kExitOk;
}

}  // namespace

namespace {

// `several`: one of several files (info a.vmd b.vmd): the JSON object names its file first, the
// text block starts with a "file: PATH" line.
int cmd_info(const InputArgs& a, const Streams& s, bool several = false) {
  std::ostream& out = s.out;
  std::ostream& err = s.err;
  const std::string label = input_label(a.path);
  auto in = load(a, s.in);
  if (!in) return print_error(err, in.error(), label), kExitBadInput;
  auto bytes = binary_of(*in, a.flags);
  if (!bytes) return print_error(err, bytes.error(), label), kExitBadInput;
  if (!in->format->info) {
    err << "mmdkit: error: " << label << ": info is not available for " << in->format->name << "\n";
    return kExitBadInput;
  }
  std::vector<Warning> warnings;
  auto text = in->format->info(*bytes, a.flags, warnings);
  if (changed(*bytes, label, err)) return kExitBadInput;
  if (!a.quiet) print_warnings(err, warnings, label);
  if (!text) return print_error(err, text.error(), label), kExitBadInput;
  if (several && a.flags.json && text->starts_with("{"))
    text->insert(1, "\n  \"file\": " + json::string(label) + ",");
  else if (several && !a.flags.json)
    out << "file: " << label << "\n";
  out << *text;
  if (!text->empty() && text->back() != '\n') out << "\n";
  return kExitOk;
}

// JSON text of a loaded input to `output` (empty or "-" = stdout).
int dump_loaded(Input& in, const InputArgs& a, const OutputArgs& o, std::ostream& out, std::ostream& err) {
  const std::string label = input_label(a.path);
  auto bytes = binary_of(in, a.flags);
  if (!bytes) return print_error(err, bytes.error(), label), kExitBadInput;
  if (!in.format->to_json) {
    err << "mmdkit: error: " << label << ": JSON output is not available for " << in.format->name << "\n";
    return kExitBadInput;
  }
  std::vector<Warning> warnings;
  auto json = in.format->to_json(*bytes, a.flags, warnings);
  if (changed(*bytes, label, err)) return kExitBadInput;
  if (!a.quiet) print_warnings(err, warnings, label);
  if (!json) return print_error(err, json.error(), label), kExitBadInput;
  return write_output(o.path.empty() ? std::string("-") : o.path,
                      ByteSpan(reinterpret_cast<const std::uint8_t*>(json->data()), json->size()), a.path, o.force,
                      out, err);
}

// The --force rule checked before reading (so that a long read is not wasted).
int precheck_output(const InputArgs& a, const OutputArgs& o, std::ostream& err) {
  if (o.path.empty() || is_std_stream(o.path)) return kExitOk;
  std::vector<fs::path> inputs;
  if (!is_std_stream(a.path)) inputs.emplace_back(a.path);
  if (auto r = check_output(o.path, inputs, o.force); !r) return print_error(err, r.error(), o.path), kExitBadInput;
  return kExitOk;
}

int cmd_dump(const InputArgs& a, const OutputArgs& o, const Streams& s) {
  if (!o.path.empty() && !is_std_stream(o.path) && !a.quiet) {
    // dump writes JSON whatever the name; a binary format's extension gets it misread later.
    if (const FormatOps* named = format_by_name(fs::path(o.path).extension().string()))
      s.err << "mmdkit: warning: " << o.path << ": dump writes JSON text, not a " << named->name
            << " file (use 'convert' for " << named->extension << ", or name the output .json)\n";
  }
  if (int rc = precheck_output(a, o, s.err); rc != kExitOk) return rc;
  auto in = load(a, s.in);
  if (!in) return print_error(s.err, in.error(), input_label(a.path)), kExitBadInput;
  return dump_loaded(*in, a, o, s.out, s.err);
}

int cmd_convert(const InputArgs& a, const OutputArgs& o, const std::string& output_format, bool copy_textures,
                const Streams& s) {
  std::ostream& out = s.out;
  std::ostream& err = s.err;
  const std::string label = input_label(a.path);
  // The output format: --to for stdout, else the extension (and --to, if given, must agree).
  std::string target_name;
  if (is_std_stream(o.path)) {
    if (output_format.empty()) {
      err << "mmdkit: error: convert to stdout ('-') needs --to vmd|vpd|pmd|pmx|pmm|json\n";
      return kExitUsage;
    }
    target_name = output_format;
  } else {
    std::error_code ec;
    if (fs::is_directory(o.path, ec)) {
      err << "mmdkit: error: " << o.path << ": io_error: the output is a folder; give a file name (e.g. '"
          << (fs::path(o.path) / fs::path(a.path).filename()).replace_extension(".json").string() << "')\n";
      return kExitBadInput;
    }
    target_name = fs::path(o.path).extension().string();
    if (target_name.empty() && !output_format.empty()) {
      target_name = output_format;  // no extension (/dev/null, a pipe): --to says
    } else if (!output_format.empty() && format_by_name(target_name) != format_by_name(output_format) &&
        !(has_json_extension(o.path) && (output_format == "json" || output_format == ".json"))) {
      err << "mmdkit: error: --to " << output_format << " disagrees with the output extension '" << target_name << "'\n";
      return kExitUsage;
    }
  }
  for (char& c : target_name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (!target_name.empty() && target_name[0] == '.') target_name.erase(0, 1);
  const bool to_json = target_name == "json";
  const FormatOps* to = to_json ? nullptr : format_by_name(target_name);
  if (!to_json && !to) {
    if (is_std_stream(o.path))
      err << "mmdkit: error: --to '" << output_format << "' is not one of vmd vpd pmd pmx pmm json\n";
    else
      err << "mmdkit: error: output extension '" << fs::path(o.path).extension().string()
          << "' is not one of .vmd .vpd .pmd .pmx .pmm .json (or give --to)\n";
    return kExitUsage;
  }
  if (!to_json && is_terminal_stdout(o.path, out))
    return usage_error(err, "convert", "refusing to write binary " + std::string(to->name) +
                                           " data to a terminal; redirect it or give a file");
  const bool model_out = !to_json && (to->name == "pmd" || to->name == "pmx");
  if (copy_textures && (!model_out || is_std_stream(a.path) || is_std_stream(o.path) || is_device_output(o.path)))
    return usage_error(err, "convert",
                       "--copy-textures needs a model (.pmd or .pmx) read from a file and written to a file");
  if (int rc = precheck_output(a, o, err); rc != kExitOk) return rc;
  auto in = load(a, s.in);
  if (!in) return print_error(err, in.error(), label), kExitBadInput;
  if (to_json) return dump_loaded(*in, a, o, out, err);
  auto bytes = binary_of(*in, a.flags);
  if (!bytes) return print_error(err, bytes.error(), label), kExitBadInput;
  std::vector<Warning> warnings;
  std::vector<std::uint8_t> result;
  if (in->format == to && in->is_json) {
    result = std::move(*bytes).take();
  } else if (in->format->convert) {
    auto r = in->format->convert(*bytes, to->name, a.flags, warnings);
    if (changed(*bytes, label, err)) return kExitBadInput;
    if (!a.quiet) print_warnings(err, warnings, label);
    if (!r) return print_error(err, r.error(), label), kExitBadInput;
    result = std::move(*r);
  } else {
    err << "mmdkit: error: cannot convert " << in->format->name << " to " << to->name
        << " (supported: the same format, .json, and .pmd <-> .pmx)\n";
    return kExitUsage;
  }
  // --copy-textures: the textures the written model refers to, copied from the input's folder to
  // the same relative paths beside the output (model_ops.hpp), planned before anything is written.
  std::vector<CompanionFile> textures;
  CompanionPlan plan;
  if (copy_textures) {
    std::vector<Warning> tw;
    auto files = texture_files_for_output(result, fs::absolute(fs::path(a.path)).parent_path(),
                                          fs::absolute(fs::path(o.path)).parent_path(), tw);
    if (!files) return print_error(err, files.error(), label), kExitBadInput;
    textures = std::move(*files);
    if (!a.quiet) print_warnings(err, tw, label);
    if (int rc = plan_companions(fs::absolute(fs::path(o.path)).parent_path(), textures, o.force, err, plan);
        rc != kExitOk)
      return rc;
  }
  int rc = write_output(o.path, result, a.path, o.force, out, err);
  if (rc == kExitOk && copy_textures) rc = write_companions(plan, textures, a.path, o.force, out, err);
  // Texture references are relative to the model file: say which ones a model written to another
  // folder loses (model_ops.hpp). Not for the standard streams (no folder on one side).
  if (rc == kExitOk && !copy_textures && model_out && !a.quiet && !is_std_stream(a.path) && !is_std_stream(o.path))
    print_warnings(err,
                   texture_warnings_for_output(result, fs::absolute(fs::path(a.path)).parent_path(),
                                               fs::absolute(fs::path(o.path)).parent_path()),
                   o.path);
  return rc;
}

int cmd_generate(const std::string& format, const GenerateFlags& gen, const OutputArgs& o, const Streams& s) {
  std::ostream& out = s.out;
  std::ostream& err = s.err;
  const FormatOps* f = format_by_name(format);
  if (!f) {
    err << "mmdkit: error: unknown format '" << format << "' (vmd, vpd, pmd or pmx)\n";
    return kExitUsage;
  }
  if (!f->generate) {
    err << "mmdkit: error: generate is not available for " << f->name << "\n";
    return kExitUsage;
  }
  // The output's extension, when it names a format, must be this one (a VMD under a .pmx name
  // is a mistake, not a wish).
  if (!is_std_stream(o.path)) {
    std::string ext = fs::path(o.path).extension().string();
    for (char& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if ((format_by_name(ext) || ext == ".json") && format_by_name(ext) != f)
      return usage_error(err, "generate",
                         "output '" + o.path + "' has the extension of another format; generate " + std::string(f->name) +
                             " writes a ." + std::string(f->name) + " file");
  }
  if (is_terminal_stdout(o.path, out))
    return usage_error(err, "generate", "refusing to write binary data to a terminal; redirect it or give -o FILE");
  auto bytes = f->generate(gen);
  if (!bytes) {
    // The generators fail only on their options (a size beyond a limit, a variant or bone count
    // the format does not have): a usage error.
    const bool usage = bytes.error().code == ErrorCode::invalid_argument || bytes.error().code == ErrorCode::limit_exceeded;
    print_error(err, bytes.error(), o.path);
    if (usage) err << "run 'mmdkit generate --help' for usage\n";
    return usage ? kExitUsage : kExitBadInput;
  }
  if (is_std_stream(o.path) || is_device_output(o.path)) {
    // Standard output (or /dev/null, a pipe) takes the model file only: its textures need a folder.
    const int rc = write_output(o.path, *bytes, {}, o.force, out, err);
    if (rc == kExitOk && (f->name == "pmd" || f->name == "pmx"))
      err << "mmdkit: note: the model's textures are not written when the output is not a file\n";
    return rc;
  }
  // The files the model refers to (its textures) go beside it, inside the output's folder only.
  auto companions = generated_companions(f->name);
  if (!companions) return print_error(err, companions.error(), o.path), kExitBadInput;
  if (!o.force && fs::exists(o.path)) {
    err << "mmdkit: error: " << o.path << ": exists (use --force to replace it)\n";
    return kExitBadInput;
  }
  const fs::path folder = fs::absolute(fs::path(o.path)).parent_path();
  CompanionPlan plan;
  if (int rc = plan_companions(folder, *companions, o.force, err, plan); rc != kExitOk) return rc;
  if (int rc = write_output(o.path, *bytes, {}, o.force, out, err); rc != kExitOk) return rc;
  return write_companions(plan, *companions, {}, o.force, out, err);
}

// A record index or byte offset as JSON: null when unknown (-1), as the Python module's None.
static std::string json_index(std::int64_t v) { return v < 0 ? std::string("null") : std::to_string(v); }

int cmd_check(const InputArgs& a, const Streams& s) {
  std::ostream& out = s.out;
  std::ostream& err = s.err;
  const std::string label = input_label(a.path);
  auto in = load(a, s.in);
  if (!in) return print_error(err, in.error(), label), kExitBadInput;
  auto bytes = binary_of(*in, a.flags);
  if (!bytes) return print_error(err, bytes.error(), label), kExitBadInput;
  if (!in->format->check) {
    err << "mmdkit: error: check is not available for " << in->format->name << "\n";
    return kExitBadInput;
  }
  ReadFlags flags = a.flags;
  // Models refer to textures in their folder; the standard input has none, so textures are not
  // checked then, and the output says so.
  std::vector<std::string> not_checked;
  if (!is_std_stream(a.path))
    flags.input_folder = fs::absolute(fs::path(a.path)).parent_path();
  else if (in->format->name == "pmd" || in->format->name == "pmx" || in->format->name == "x")
    not_checked.emplace_back("textures: the model was read from stdin, so there is no folder to find them in");
  auto findings = in->format->check(*bytes, flags);
  if (changed(*bytes, label, err)) return kExitBadInput;
  if (!findings) return print_error(err, findings.error(), label), kExitBadInput;
  // Real findings: a listed finding counts one, a "N more ... not listed" entry counts N.
  std::size_t errors = 0, warnings = 0;
  for (const Finding& f : *findings) (f.severity_error ? errors : warnings) += f.omitted ? f.omitted : 1;
  if (a.flags.json) {
    out << "{\"file\": " << json::string(label) << ", \"errors\": " << errors << ", \"warnings\": " << warnings
        << ", \"findings\": [";
    bool first = true;
    for (const Finding& f : *findings) {
      if (f.omitted) continue;
      out << (first ? "\n  " : ",\n  ") << "{\"severity\": \"" << (f.severity_error ? "error" : "warning")
          << "\", \"code\": \"" << error_code_name(f.where.code) << "\", \"section\": " << json::string(f.where.section)
          << ", \"record\": " << json_index(f.where.record) << ", \"offset\": " << json_index(f.where.offset)
          << ", \"message\": " << json::string(f.where.message);
      if (f.keys) {  // a motion's duplicate keys, one finding per track
        out << ", \"track\": " << json::string(f.track) << ", \"keys\": " << f.keys << ", \"frames\": [";
        for (std::size_t k = 0; k < f.frames.size(); ++k) out << (k ? ", " : "") << f.frames[k];
        out << "]";
      }
      out << "}";
      first = false;
    }
    out << (first ? "]" : "\n]");
    // Findings counted but not listed one by one: {"severity", "section", "count", "message"}.
    first = true;
    for (const Finding& f : *findings) {
      if (!f.omitted) continue;
      out << (first ? ", \"not_listed\": [\n  " : ",\n  ") << "{\"severity\": \""
          << (f.severity_error ? "error" : "warning") << "\", \"section\": " << json::string(f.where.section)
          << ", \"count\": " << f.omitted << ", \"message\": " << json::string(f.where.message) << "}";
      first = false;
    }
    if (!first) out << "\n]";
    if (!not_checked.empty()) {
      out << ", \"not_checked\": [";
      for (std::size_t i = 0; i < not_checked.size(); ++i) out << (i ? ", " : "") << json::string(not_checked[i]);
      out << "]";
    }
    out << "}\n";
    return errors ? kExitBadInput : kExitOk;
  }
  // One line per finding in the form of every command's diagnostics (messages.hpp), on stdout:
  // the findings are check's result.
  for (Finding f : *findings) {
    if (f.where.file.empty()) f.where.file = label;
    out << diagnostic_line(f.omitted ? Diagnostic::note : f.severity_error ? Diagnostic::error : Diagnostic::warning,
                           f.where.to_string());
  }
  for (const std::string& n : not_checked) out << diagnostic_line(Diagnostic::note, label + ": not checked: " + n);
  out << label << ": " << errors << " error(s), " << warnings << " warning(s)\n";
  return errors ? kExitBadInput : kExitOk;
}

// A project (.pmm) names its models relative to its own folder: the input's folder, for a file.
void set_project_folder(InputArgs& a) {
  if (!a.path.empty() && !is_std_stream(a.path)) a.flags.project_folder = fs::absolute(fs::path(a.path)).parent_path();
}

// Runs `one` on each of `paths` (info, check of several files): blocks in order, a blank line
// between them; with --json one JSON array of the per-file objects (a file that fails has its error
// on stderr and, in the array, {"file": ..., "error": "<the error line's words>"}; one file alone:
// its object, that error object too). The exit status is the worst of the files' (1 over 0; 2 is usage).
// The JSON object of a file that could not be read: the file and the words of the last error line
// it printed (`said`).
std::string json_error_object(const std::string& path, std::string error) {
  if (const std::size_t at = error.rfind("mmdkit: error: "); at != std::string::npos) error = error.substr(at + 15);
  while (!error.empty() && error.back() == '\n') error.pop_back();
  if (const std::size_t nl = error.find('\n'); nl != std::string::npos) error.resize(nl);
  return "{\"file\": " + json::string(input_label(path)) + ", \"error\": " + json::string(error) + "}\n";
}

template <class One>
int for_each_file(std::string_view command, const InputArgs& a, const std::vector<std::string>& paths, const Streams& s,
                  One&& one) {
  if (paths.size() == 1) {
    InputArgs x = a;
    x.path = paths[0];
    set_project_folder(x);
    if (!a.flags.json) return one(x, s, false);
    // --json of one file that cannot be read: its error object on stdout too, as in an array of
    // several (a script reading stdout gets JSON, not nothing)
    std::ostringstream block, said;
    const int rc = one(x, Streams{s.in, block, said}, false);
    s.err << said.str();
    const std::string text = block.str();
    s.out << (text.empty() && rc != kExitOk ? json_error_object(paths[0], said.str()) : text);
    return rc;
  }
  if (std::count(paths.begin(), paths.end(), std::string("-")) > 0)
    return usage_error(s.err, command, "the standard input ('-') can be read only as the one FILE");
  int worst = kExitOk;
  std::ostream& out = s.out;
  if (a.flags.json) out << "[\n";
  bool first = true;
  for (const std::string& p : paths) {
    InputArgs x = a;
    x.path = p;
    set_project_folder(x);
    std::ostringstream block, said;
    const Streams one_file{s.in, block, said};
    const int rc = one(x, one_file, true);
    worst = std::max(worst, rc);
    s.err << said.str();
    std::string text = block.str();
    if (text.empty() && a.flags.json && rc != kExitOk) {
      // A file that could not be read still has its object: the file and the error's words.
      text = json_error_object(p, said.str());
    }
    if (text.empty()) continue;
    if (!first) out << (a.flags.json ? ",\n" : "\n");
    out << text;
    first = false;
  }
  if (a.flags.json) out << "]\n";
  return worst;
}

// The options of every command that reads a file: FILE (or INPUT), --encoding, --strict, --format.
void add_input_options(CLI::App& sub, InputArgs& a, const char* name, const char* help,
                       std::vector<std::string>* several = nullptr) {
  if (several)
    sub.add_option(name, *several, help)->required();
  else
    sub.add_option(name, a.path, help)->required();
  sub.add_option("--encoding", a.encoding_name,
                 "text encoding of names in VMD/VPD/PMD files: cp932 or gbk (default: detected per file, cp932 "
                 "unless the names read as gbk)");
  sub.add_flag("--strict", a.flags.strict, "treat bytes after the last section as an error");
  sub.add_option("--format", a.format,
                 "input format: vmd, vpd, pmd, pmx, pmm, x or vac (default: from the content, .vac by its "
                 "extension; needed for JSON without a \"format\" member)");
}

// --encoding: the legacy encodings only (VMD/VPD/PMD names are cp932 or gbk bytes; PMX says its own
// encoding in its header). Anything else is a usage error, not a silent garbling.
int resolve_encoding(InputArgs& a, std::string_view command, std::ostream& err) {
  if (a.encoding_name.empty()) return kExitOk;
  const auto e = parse_encoding_name(a.encoding_name);
  if (!e || (*e != Encoding::cp932 && *e != Encoding::gbk))
    return usage_error(err, command,
                       "--encoding '" + a.encoding_name +
                           "' is not cp932 or gbk (the only encodings of names in VMD, VPD and PMD files; a PMX "
                           "file's header names its own)");
  a.flags.encoding = *e;
  return kExitOk;
}

// A Runner over shared parsed values: `run(values, streams)` after the encoding check.
template <typename Values, typename Run>
Runner runner(std::shared_ptr<Values> v, std::string_view command, Run run) {
  return [v, command, run](const Streams& s) {
    if constexpr (requires { v->input; }) {
      if (int rc = resolve_encoding(v->input, command, s.err); rc != kExitOk) return rc;
      set_project_folder(v->input);  // info and check: per file, in for_each_file
    } else {
      (void)command;  // only commands with file inputs check an encoding
    }
    return run(*v, s);
  };
}

// The options of the commands that take several input files (info, check).
struct FileListArgs {
  InputArgs input;
  std::vector<std::string> paths;
  std::vector<std::string> search_dirs;  ///< check --search-dir (a project's files)
};

}  // namespace

const Command kInfoCommand{"info", "summary of a file: header, counts per section, frame range, encoding",
                           [](CLI::App& sub) -> Runner {
                             using V = FileListArgs;
                             auto v = std::make_shared<V>();
                             add_input_options(sub, v->input, "FILE",
                                               "input files (.vmd .vpd .pmd .pmx, .x, .vac or mmdkit .json), - = stdin; "
                                               "several: one block each (--json: an array), exit status the worst",
                                               &v->paths);
                             sub.add_flag("--json", v->input.flags.json, "print the summary as JSON");
                             sub.add_flag("-q,--quiet", v->input.quiet, "do not print the reader's warnings");
                             return runner(v, "info", [](V& x, const Streams& s) {
                               return for_each_file("info", x.input, x.paths, s, [](const InputArgs& a, const Streams& st, bool several) {
                                 return cmd_info(a, st, several);
                               });
                             });
                           }};

const Command kDumpCommand{"dump", "lossless JSON text of a file (to stdout or -o)", [](CLI::App& sub) -> Runner {
                             struct V {
                               InputArgs input;
                               OutputArgs output;
                             };
                             auto v = std::make_shared<V>();
                             add_input_options(sub, v->input, "FILE", "input file, - = stdin");
                             sub.add_option("-o,--output", v->output.path, "write to this file instead of stdout (- = stdout)");
                             sub.add_flag("--euler", v->input.flags.euler,
                                          "VMD and VPD: add Euler angles in degrees (MMD's UI) next to bone quaternions");
                             add_force_flag(sub, v->output.force);
                             sub.add_flag("-q,--quiet", v->input.quiet, "do not print warnings (the reader's, a misleading output name)");
                             return runner(v, "dump",
                                           [](V& x, const Streams& s) { return cmd_dump(x.input, x.output, s); });
                           }};

const Command kConvertCommand{
    "convert", "convert between formats, chosen by extension: .vmd/.vpd/.pmd/.pmx/.pmm <-> .json, .pmd <-> .pmx (PMX to PMD when it fits), .vmd <-> .bvh",
    [](CLI::App& sub) -> Runner {
      struct V {
        InputArgs input;
        OutputArgs output;
        std::string to;
        BvhConvertArgs bvh;
        bool copy_textures = false;
      };
      auto v = std::make_shared<V>();
      add_input_options(sub, v->input, "INPUT", "input file, - = stdin");
      sub.add_option("OUTPUT", v->output.path, "output file; its extension chooses the format; - = stdout (with --to)")
          ->required();
      sub.add_option("--to", v->to, "output format: vmd, vpd, pmd, pmx, pmm or json (needed for stdout)");
      sub.add_flag("--euler", v->input.flags.euler, "JSON output of VMD and VPD: add Euler angles in degrees");
      sub.add_flag("--lossy", v->input.flags.lossy,
                   ".pmx -> .pmd: convert what PMD cannot hold where a close form exists (SDEF -> BDEF2, BDEF4 -> "
                   "the two largest weights renormalised, additional UVs dropped, edge scales rounded), each change "
                   "reported as a warning; the rest is still refused (docs/MODEL.md)");
      sub.add_flag("--copy-textures", v->copy_textures,
                   "models: copy the textures the model refers to into the output's folder (same relative paths)");
      add_force_flag(sub, v->output.force);
      add_bvh_convert_options(sub, v->bvh);  // .bvh in or out: cmd_convert_bvh.cpp
      sub.add_flag("-q,--quiet", v->input.quiet,
                   "do not print warnings (the reader's, textures the output loses) or the BVH summary line");
      CLI::App* app = &sub;
      return runner(v, "convert", [app](V& x, const Streams& s) {
        if (is_bvh_conversion(x.input.path, x.output.path)) {
          if (x.copy_textures)
            return usage_error(s.err, "convert", "--copy-textures applies to models (.pmd or .pmx), not to BVH conversions");
          x.bvh.quiet = x.input.quiet;
          return run_bvh_conversion(x.input.path, x.output.path, x.output.force, x.bvh, s);
        }
        if (int rc = refuse_bvh_options(*app, s); rc != kExitOk) return rc;
        return cmd_convert(x.input, x.output, x.to, x.copy_textures, s);
      });
    }};

const Command kGenerateCommand{
    "generate", "write a synthetic file (deterministic by seed) for tests, benchmarks and examples",
    [](CLI::App& sub) -> Runner {
      struct V {
        std::string format;
        GenerateFlags gen;
        OutputArgs output;
      };
      auto v = std::make_shared<V>();
      GenerateFlags& g = v->gen;
      sub.add_option("FORMAT", v->format, "vmd, vpd, pmd or pmx")->required();
      sub.add_option("-o,--output", v->output.path, "output file, - = stdout")->required();
      sub.add_option("--seed", g.seed, "random seed (same seed, same bytes)")->check(CLI::NonNegativeNumber);
      sub.add_option("--bone-keys", g.bone_keys, "VMD: number of bone keyframes")->check(CLI::NonNegativeNumber);
      sub.add_option("--morph-keys", g.morph_keys, "VMD: number of morph keyframes")->check(CLI::NonNegativeNumber);
      sub.add_option("--camera-keys", g.camera_keys, "VMD: number of camera keyframes")->check(CLI::NonNegativeNumber);
      sub.add_option("--light-keys", g.light_keys, "VMD: number of light keyframes")->check(CLI::NonNegativeNumber);
      sub.add_option("--frames", g.frames, "VMD: frame span of the motion")->check(CLI::NonNegativeNumber);
      sub.add_option("--vertices", g.vertices, "PMD/PMX: number of vertices")->check(CLI::NonNegativeNumber);
      sub.add_option("--bones", g.bones, "PMD/PMX: number of bones (0 = standard humanoid set)")->check(CLI::NonNegativeNumber);
      sub.add_option("--morphs", g.morphs, "PMD/PMX: number of morphs")->check(CLI::NonNegativeNumber);
      sub.add_option("--variant", g.format_variant, "format variant, e.g. pmx2.1-utf8");
      sub.add_option("--shape", g.shape,
                     "PMX: scatter (default: vertices scattered around the bones, every deform type) or figure "
                     "(one closed ellipsoid per bone: a picture of the skeleton's pose)");
      sub.add_option("--model", g.model,
                     "VMD: key the bones and morphs of this model (PMX/PMD or its JSON) instead of the standard names, "
                     "so every track binds to it, as a random dance that stays in view and on its feet (no material morphs)");
      add_force_flag(sub, v->output.force);
      CLI::App* app = &sub;
      return runner(v, "generate", [app](V& x, const Streams& s) {
        // Each size applies to some formats; one given for another format is a usage error, not
        // silently ignored.
        struct Applies {
          const char* option;
          const char* formats;
        };
        static constexpr Applies kApplies[] = {
            {"--bone-keys", "vmd"}, {"--morph-keys", "vmd"},   {"--camera-keys", "vmd"}, {"--light-keys", "vmd"},
            {"--frames", "vmd"},    {"--vertices", "pmd pmx"}, {"--bones", "vpd pmd pmx"}, {"--morphs", "vpd pmd pmx"},
            {"--variant", "pmd pmx"}, {"--model", "vmd"}, {"--shape", "pmx"}};
        const FormatOps* f = format_by_name(x.format);
        for (const Applies& ap : kApplies) {
          if (!f || app->count(ap.option) == 0) continue;
          const std::string formats = ap.formats;
          if ((" " + formats + " ").find(" " + std::string(f->name) + " ") == std::string::npos)
            return usage_error(s.err, "generate",
                               std::string(ap.option) + " does not apply to generate " + std::string(f->name) +
                                   " (only to " + formats + ")");
        }
        return cmd_generate(x.format, x.gen, x.output, s);
      });
    }};

const Command kCheckCommand{"check", "report structural problems with their location; exit 1 if any is an error",
                            [](CLI::App& sub) -> Runner {
                              using V = FileListArgs;
                              auto v = std::make_shared<V>();
                              add_input_options(sub, v->input, "FILE",
                                                "input files, - = stdin (models: textures are then not checked); "
                                                "several: each file's findings and count line (--json: an array of "
                                                "the per-file objects), exit status the worst",
                                                &v->paths);
                              sub.add_flag("--json", v->input.flags.json, "print findings as JSON");
                              sub.add_option("--search-dir", v->search_dirs,
                                             "a project (.pmm): look for its models, accessories and audio below this "
                                             "folder too, after the project's own (repeatable; as render's)")
                                  ->check(CLI::ExistingDirectory);
                              // Accepted as by info and convert; check prints no warning on stderr:
                              // the reader's warnings are findings, its output.
                              sub.add_flag("-q,--quiet", v->input.quiet,
                                           "print no warnings on stderr (the findings, the reader's warnings "
                                           "among them, are still printed)");
                              return runner(v, "check", [](V& x, const Streams& s) {
                                x.input.flags.search_folders.assign(x.search_dirs.begin(), x.search_dirs.end());
                                return for_each_file("check", x.input, x.paths, s, [](const InputArgs& a, const Streams& st, bool) {
                                  return cmd_check(a, st);  // names its file in every line and its JSON
                                });
                              });
                            }};

}  // namespace mmdkit::cli
