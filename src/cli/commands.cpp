#include "cli/commands.hpp"

#include <filesystem>
#include <iostream>
#include <string_view>
#include <system_error>

#include "cli/app.hpp"
#include "cli/io.hpp"
#include "cli/model_ops.hpp"
#include "mmdkit/core/file.hpp"

namespace mmdkit::cli {
namespace {

namespace fs = std::filesystem;

void print_error(std::ostream& err, Error e, const std::string& file) {
  if (e.file.empty()) e.file = file;
  err << "mmdkit: error: " << e.to_string() << "\n";
}

void print_warnings(std::ostream& err, const std::vector<Warning>& warnings, const std::string& file) {
  for (Warning w : warnings) {
    if (w.file.empty()) w.file = file;
    err << "mmdkit: warning: " << w.to_string() << "\n";
  }
}

std::string_view as_text(const std::vector<std::uint8_t>& b) {
  return {reinterpret_cast<const char*>(b.data()), b.size()};
}

// A JSON string literal (quotes and escapes) for UTF-8 text.
std::string json_string(std::string_view text) {
  std::string out = "\"";
  for (char c : text) {
    auto u = static_cast<unsigned char>(c);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (u < 0x20) {
      static constexpr char hex[] = "0123456789abcdef";
      out += "\\u00";
      out += hex[u >> 4];
      out += hex[u & 15];
    } else {
      out += c;
    }
  }
  return out + "\"";
}

bool has_json_extension(const fs::path& p) {
  std::string ext = p.extension().string();
  for (char& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return ext == ".json";
}

// A loaded input: bytes plus the format that reads them; `is_json` for mmdkit JSON input.
struct Input {
  std::vector<std::uint8_t> bytes;
  const FormatOps* format = nullptr;
  bool is_json = false;
  bool add_format_member = false;  // JSON without "format", named by --format: added before import
};

// Reads the input ("-" = stdin) and finds its format from the content; `--format` names it when the
// content cannot (JSON without a "format" member) and must agree with it otherwise.
Result<Input> load(const CommandArgs& a) {
  const std::string label = input_label(a.input);
  auto fail = [&](ErrorCode code, std::string message, std::string section = {}, std::int64_t offset = -1) {
    return std::unexpected(Error{code, std::move(message), std::move(section), -1, offset, label});
  };
  const FormatOps* declared = nullptr;
  if (!a.input_format.empty()) {
    declared = format_by_name(a.input_format);
    if (!declared) return fail(ErrorCode::invalid_argument, "--format '" + a.input_format + "' is not vmd, vpd, pmd or pmx");
  }
  std::istream& stdin_stream = a.in ? *a.in : std::cin;
  auto bytes = read_input(a.input, stdin_stream);
  if (!bytes) return std::unexpected(bytes.error());
  Input in;
  in.bytes = std::move(*bytes);
  if (in.bytes.empty()) return fail(ErrorCode::empty_input, is_std_stream(a.input) ? "standard input is empty" : "file is empty");
  if (const FormatOps* f = format_by_content(in.bytes)) {
    if (declared && declared != f)
      return fail(ErrorCode::bad_signature, "--format " + std::string(declared->name) + " given, but the content is a " +
                                                std::string(f->name) + " file", "header", 0);
    in.format = f;
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
                  "JSON without a known \"format\" member (vmd, vpd, pmd, pmx); name it with --format");
    return in;
  }
  return fail(ErrorCode::bad_signature,
              declared ? "not a " + std::string(declared->name) + " file (unknown signature) nor mmdkit JSON"
                       : "not a VMD, VPD, PMD or PMX file (unknown signature) nor mmdkit JSON",
              "header", 0);
}

// JSON input → the format's binary bytes; binary input is moved out (no copy of a large file).
Result<std::vector<std::uint8_t>> binary_of(Input& in, const ReadFlags& flags) {
  if (!in.is_json) return std::move(in.bytes);
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

// Writes a command's output: "-" = stdout, a path = the --force rule (io.hpp) and an atomic write.
int write_output(const std::string& output, ByteSpan bytes, const CommandArgs& a, std::ostream& err) {
  std::vector<fs::path> inputs;
  if (!a.input.empty() && !is_std_stream(a.input)) inputs.emplace_back(a.input);
  std::ostream& out = a.out ? *a.out : std::cout;
  if (auto r = cli::write_output(output, bytes, inputs, a.force, out); !r) {
    print_error(err, r.error(), is_std_stream(output) ? "<stdout>" : output);
    return kExitBadInput;
  }
  return kExitOk;
}

}  // namespace

int cmd_info(const CommandArgs& a, std::ostream& out, std::ostream& err) {
  const std::string label = input_label(a.input);
  auto in = load(a);
  if (!in) return print_error(err, in.error(), label), kExitBadInput;
  auto bytes = binary_of(*in, a.flags);
  if (!bytes) return print_error(err, bytes.error(), label), kExitBadInput;
  if (!in->format->info) {
    err << "mmdkit: error: " << label << ": info is not available for " << in->format->name << "\n";
    return kExitBadInput;
  }
  std::vector<Warning> warnings;
  auto text = in->format->info(*bytes, a.flags, warnings);
  print_warnings(err, warnings, label);
  if (!text) return print_error(err, text.error(), label), kExitBadInput;
  out << *text;
  if (!text->empty() && text->back() != '\n') out << "\n";
  return kExitOk;
}

namespace {

// JSON text of a loaded input to `output` (empty or "-" = stdout).
int dump_loaded(Input& in, const CommandArgs& a, const std::string& output, std::ostream& out, std::ostream& err) {
  const std::string label = input_label(a.input);
  auto bytes = binary_of(in, a.flags);
  if (!bytes) return print_error(err, bytes.error(), label), kExitBadInput;
  if (!in.format->to_json) {
    err << "mmdkit: error: " << label << ": JSON output is not available for " << in.format->name << "\n";
    return kExitBadInput;
  }
  std::vector<Warning> warnings;
  auto json = in.format->to_json(*bytes, a.flags, warnings);
  print_warnings(err, warnings, label);
  if (!json) return print_error(err, json.error(), label), kExitBadInput;
  CommandArgs w = a;
  w.out = &out;
  return write_output(output.empty() ? std::string("-") : output,
                      ByteSpan(reinterpret_cast<const std::uint8_t*>(json->data()), json->size()), w, err);
}

// The --force rule checked before reading (so that a long read is not wasted).
int precheck_output(const CommandArgs& a, std::ostream& err) {
  if (a.output.empty() || is_std_stream(a.output)) return kExitOk;
  std::vector<fs::path> inputs;
  if (!is_std_stream(a.input)) inputs.emplace_back(a.input);
  if (auto r = check_output(a.output, inputs, a.force); !r) return print_error(err, r.error(), a.output), kExitBadInput;
  return kExitOk;
}

}  // namespace

int cmd_dump(const CommandArgs& a, std::ostream& out, std::ostream& err) {
  if (int rc = precheck_output(a, err); rc != kExitOk) return rc;
  auto in = load(a);
  if (!in) return print_error(err, in.error(), input_label(a.input)), kExitBadInput;
  return dump_loaded(*in, a, a.output, out, err);
}

int cmd_convert(const CommandArgs& a, std::ostream& out, std::ostream& err) {
  const std::string label = input_label(a.input);
  // The output format: --to for stdout, else the extension (and --to, if given, must agree).
  std::string target_name;
  if (is_std_stream(a.output)) {
    if (a.output_format.empty()) {
      err << "mmdkit: convert to stdout ('-') needs --to vmd|vpd|pmd|pmx|json\n";
      return kExitUsage;
    }
    target_name = a.output_format;
  } else {
    target_name = fs::path(a.output).extension().string();
    if (!a.output_format.empty() && format_by_name(target_name) != format_by_name(a.output_format) &&
        !(has_json_extension(a.output) && (a.output_format == "json" || a.output_format == ".json"))) {
      err << "mmdkit: --to " << a.output_format << " disagrees with the output extension '" << target_name << "'\n";
      return kExitUsage;
    }
  }
  for (char& c : target_name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (!target_name.empty() && target_name[0] == '.') target_name.erase(0, 1);
  const bool to_json = target_name == "json";
  const FormatOps* to = to_json ? nullptr : format_by_name(target_name);
  if (!to_json && !to) {
    if (is_std_stream(a.output))
      err << "mmdkit: --to '" << a.output_format << "' is not one of vmd vpd pmd pmx json\n";
    else
      err << "mmdkit: output extension '" << fs::path(a.output).extension().string()
          << "' is not one of .vmd .vpd .pmd .pmx .json (or give --to)\n";
    return kExitUsage;
  }
  if (int rc = precheck_output(a, err); rc != kExitOk) return rc;
  auto in = load(a);
  if (!in) return print_error(err, in.error(), label), kExitBadInput;
  if (to_json) return dump_loaded(*in, a, a.output, out, err);
  auto bytes = binary_of(*in, a.flags);
  if (!bytes) return print_error(err, bytes.error(), label), kExitBadInput;
  std::vector<Warning> warnings;
  std::vector<std::uint8_t> result;
  if (in->format == to && in->is_json) {
    result = std::move(*bytes);
  } else if (in->format->convert) {
    auto r = in->format->convert(*bytes, to->name, a.flags, warnings);
    print_warnings(err, warnings, label);
    if (!r) return print_error(err, r.error(), label), kExitBadInput;
    result = std::move(*r);
  } else {
    err << "mmdkit: error: cannot convert " << in->format->name << " to " << to->name
        << " (supported: the same format, .json, and .pmd -> .pmx)\n";
    return kExitUsage;
  }
  CommandArgs w = a;
  w.out = &out;
  const int rc = write_output(a.output, result, w, err);
  // Texture references are relative to the model file: say which ones a model written to another
  // folder loses (model_ops.hpp). Not for the standard streams (no folder on one side).
  if (rc == kExitOk && (to->name == "pmd" || to->name == "pmx") && !is_std_stream(a.input) &&
      !is_std_stream(a.output))
    print_warnings(err,
                   texture_warnings_for_output(result, fs::absolute(fs::path(a.input)).parent_path(),
                                               fs::absolute(fs::path(a.output)).parent_path()),
                   a.output);
  return rc;
}

int cmd_generate(const CommandArgs& a, std::ostream& out, std::ostream& err) {
  const FormatOps* f = format_by_name(a.generate_format);
  if (!f) {
    err << "mmdkit: unknown format '" << a.generate_format << "' (vmd, vpd, pmd or pmx)\n";
    return kExitUsage;
  }
  if (!f->generate) {
    err << "mmdkit: generate is not available for " << f->name << "\n";
    return kExitUsage;
  }
  auto bytes = f->generate(a.gen);
  if (!bytes) return print_error(err, bytes.error(), a.output), kExitBadInput;
  if (is_std_stream(a.output)) {
    // Standard output takes the model file only: its textures need a folder.
    CommandArgs w = a;
    w.input.clear();
    w.out = &out;
    const int rc = write_output(a.output, *bytes, w, err);
    if (rc == kExitOk && (f->name == "pmd" || f->name == "pmx"))
      err << "mmdkit: note: the model's textures are not written when the output is stdout\n";
    return rc;
  }
  // The files the model refers to (its textures) go beside it, inside the output's folder only.
  auto companions = generated_companions(f->name);
  if (!companions) return print_error(err, companions.error(), a.output), kExitBadInput;
  const fs::path folder = fs::absolute(fs::path(a.output)).parent_path();
  std::vector<fs::path> targets;
  for (const CompanionFile& c : *companions) {
    const fs::path rel = fs::path(c.path).lexically_normal();
    if (rel.empty() || rel.has_root_path() || *rel.begin() == "..") {
      err << "mmdkit: error: " << c.path << ": refused: a generated file must stay inside the output's folder\n";
      return kExitBadInput;
    }
    targets.push_back(folder / rel);
  }
  // --force rule for every file: without it nothing that exists is replaced, and nothing is
  // written when one of them would be. A texture that already has exactly the bytes to write (an
  // earlier model generated into the same folder) is left as it is.
  if (!a.force && fs::exists(a.output)) {
    err << "mmdkit: error: " << a.output << ": exists (use --force to replace it)\n";
    return kExitBadInput;
  }
  std::vector<std::uint8_t> keep(targets.size(), 0);
  for (std::size_t i = 0; i < targets.size(); ++i) {
    std::error_code xe;
    if (!fs::exists(targets[i], xe)) continue;
    const auto size = fs::file_size(targets[i], xe);
    auto existing = !xe && size == (*companions)[i].bytes.size() ? read_file(targets[i]) : Result<std::vector<std::uint8_t>>{};
    if (!xe && existing && *existing == (*companions)[i].bytes) {
      keep[i] = 1;
    } else if (!a.force) {
      err << "mmdkit: error: " << targets[i].string() << ": exists with other contents (use --force to replace it)\n";
      return kExitBadInput;
    }
  }
  // A sub-folder (e.g. tex/) that is a link out of the folder is refused before anything is
  // written. (A missing output folder is reported by the model's write below.)
  std::error_code ec;
  const fs::path real_folder = fs::canonical(folder, ec);
  for (std::size_t i = 0; i < targets.size() && !ec; ++i) {
    const fs::path rel = fs::weakly_canonical(targets[i].parent_path(), ec).lexically_relative(real_folder);
    if (!ec && (rel.empty() || *rel.begin() == "..")) {
      err << "mmdkit: error: " << targets[i].parent_path().string() << ": refused: leads outside the output's folder "
          << folder.string() << "\n";
      return kExitBadInput;
    }
  }
  CommandArgs w = a;
  w.input.clear();
  if (int rc = write_output(a.output, *bytes, w, err); rc != kExitOk) return rc;
  for (std::size_t i = 0; i < targets.size(); ++i) {
    fs::create_directories(targets[i].parent_path(), ec);
    if (ec) {
      err << "mmdkit: error: " << targets[i].parent_path().string() << ": io_error: " << ec.message() << "\n";
      return kExitBadInput;
    }
    if (keep[i]) continue;
    if (int rc = write_output(targets[i].string(), (*companions)[i].bytes, w, err); rc != kExitOk) return rc;
  }
  return kExitOk;
}

int cmd_check(const CommandArgs& a, std::ostream& out, std::ostream& err) {
  const std::string label = input_label(a.input);
  auto in = load(a);
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
  if (!is_std_stream(a.input))
    flags.input_folder = fs::absolute(fs::path(a.input)).parent_path();
  else if (in->format->name == "pmd" || in->format->name == "pmx")
    not_checked.emplace_back("textures: the model was read from stdin, so there is no folder to find them in");
  auto findings = in->format->check(*bytes, flags);
  if (!findings) return print_error(err, findings.error(), label), kExitBadInput;
  // Real findings: a listed finding counts one, a "N more ... not listed" entry counts N.
  std::size_t errors = 0, warnings = 0;
  for (const Finding& f : *findings) (f.severity_error ? errors : warnings) += f.omitted ? f.omitted : 1;
  if (a.flags.json) {
    out << "{\"file\": " << json_string(label) << ", \"errors\": " << errors << ", \"warnings\": " << warnings
        << ", \"findings\": [";
    bool first = true;
    for (const Finding& f : *findings) {
      if (f.omitted) continue;
      out << (first ? "\n  " : ",\n  ") << "{\"severity\": \"" << (f.severity_error ? "error" : "warning")
          << "\", \"code\": \"" << error_code_name(f.where.code) << "\", \"section\": " << json_string(f.where.section)
          << ", \"record\": " << f.where.record << ", \"offset\": " << f.where.offset
          << ", \"message\": " << json_string(f.where.message) << "}";
      first = false;
    }
    out << (first ? "]" : "\n]");
    // Findings counted but not listed one by one: {"severity", "section", "count", "message"}.
    first = true;
    for (const Finding& f : *findings) {
      if (!f.omitted) continue;
      out << (first ? ", \"not_listed\": [\n  " : ",\n  ") << "{\"severity\": \""
          << (f.severity_error ? "error" : "warning") << "\", \"section\": " << json_string(f.where.section)
          << ", \"count\": " << f.omitted << ", \"message\": " << json_string(f.where.message) << "}";
      first = false;
    }
    if (!first) out << "\n]";
    if (!not_checked.empty()) {
      out << ", \"not_checked\": [";
      for (std::size_t i = 0; i < not_checked.size(); ++i) out << (i ? ", " : "") << json_string(not_checked[i]);
      out << "]";
    }
    out << "}\n";
    return errors ? kExitBadInput : kExitOk;
  }
  for (Finding f : *findings) {
    if (f.where.file.empty()) f.where.file = label;
    out << (f.omitted ? "note: " : f.severity_error ? "error: " : "warning: ") << f.where.to_string() << "\n";
  }
  for (const std::string& n : not_checked) out << "note: " << label << ": not checked: " << n << "\n";
  out << label << ": " << errors << " error(s), " << warnings << " warning(s)\n";
  return errors ? kExitBadInput : kExitOk;
}

}  // namespace mmdkit::cli
