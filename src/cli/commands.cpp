#include "cli/commands.hpp"

#include <filesystem>
#include <string_view>

#include "cli/app.hpp"
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

// A loaded input: bytes plus the format that reads them; for JSON input, `json_format` is set.
struct Input {
  std::vector<std::uint8_t> bytes;
  const FormatOps* format = nullptr;
  bool is_json = false;
};

Result<Input> load(const std::string& path) {
  auto bytes = read_file(path);
  if (!bytes) return std::unexpected(bytes.error());
  Input in;
  in.bytes = std::move(*bytes);
  if (in.bytes.empty()) {
    return std::unexpected(Error{ErrorCode::empty_input, "file is empty", {}, -1, -1, path});
  }
  if (const FormatOps* f = format_by_content(in.bytes)) {
    in.format = f;
    return in;
  }
  std::string_view text = as_text(in.bytes);
  std::size_t first = text.find_first_not_of(" \t\r\n");
  if (first != std::string_view::npos && text[first] == '{') {
    in.is_json = true;
    in.format = format_of_json(text);
    if (!in.format)
      return std::unexpected(Error{ErrorCode::json_schema, "JSON without a known \"format\" member (vmd, vpd, pmd, pmx)",
                                   {}, -1, -1, path});
    return in;
  }
  return std::unexpected(Error{ErrorCode::bad_signature,
                               "not a VMD, VPD, PMD or PMX file (unknown signature) nor mmdkit JSON", "header",
                               -1, 0, path});
}

// JSON input → the format's binary bytes; binary input is moved out (no copy of a large file).
Result<std::vector<std::uint8_t>> binary_of(Input& in, const ReadFlags& flags) {
  if (!in.is_json) return std::move(in.bytes);
  if (!in.format->from_json)
    return make_error(ErrorCode::unsupported, std::string("JSON import is not available for ") +
                                                  std::string(in.format->name));
  return in.format->from_json(as_text(in.bytes), flags);
}

int write_output(const std::string& output, ByteSpan bytes, const CommandArgs& a, std::ostream& err) {
  std::vector<fs::path> inputs;
  if (!a.input.empty()) inputs.emplace_back(a.input);
  WriteOptions wo{inputs, a.force};
  if (auto r = write_file_atomic(output, bytes, wo); !r) {
    print_error(err, r.error(), output);
    return kExitBadInput;
  }
  return kExitOk;
}

}  // namespace

int cmd_info(const CommandArgs& a, std::ostream& out, std::ostream& err) {
  auto in = load(a.input);
  if (!in) return print_error(err, in.error(), a.input), kExitBadInput;
  auto bytes = binary_of(*in, a.flags);
  if (!bytes) return print_error(err, bytes.error(), a.input), kExitBadInput;
  if (!in->format->info) {
    err << "mmdkit: error: " << a.input << ": info is not available for " << in->format->name << "\n";
    return kExitBadInput;
  }
  std::vector<Warning> warnings;
  auto text = in->format->info(*bytes, a.flags, warnings);
  print_warnings(err, warnings, a.input);
  if (!text) return print_error(err, text.error(), a.input), kExitBadInput;
  out << *text;
  if (!text->empty() && text->back() != '\n') out << "\n";
  return kExitOk;
}

int cmd_dump(const CommandArgs& a, std::ostream& out, std::ostream& err) {
  auto in = load(a.input);
  if (!in) return print_error(err, in.error(), a.input), kExitBadInput;
  auto bytes = binary_of(*in, a.flags);
  if (!bytes) return print_error(err, bytes.error(), a.input), kExitBadInput;
  if (!in->format->to_json) {
    err << "mmdkit: error: " << a.input << ": JSON output is not available for " << in->format->name << "\n";
    return kExitBadInput;
  }
  std::vector<Warning> warnings;
  auto json = in->format->to_json(*bytes, a.flags, warnings);
  print_warnings(err, warnings, a.input);
  if (!json) return print_error(err, json.error(), a.input), kExitBadInput;
  if (a.output.empty() || a.output == "-") {
    out << *json;
    return kExitOk;
  }
  return write_output(a.output, ByteSpan(reinterpret_cast<const std::uint8_t*>(json->data()), json->size()), a, err);
}

int cmd_convert(const CommandArgs& a, std::ostream& out, std::ostream& err) {
  (void)out;
  auto in = load(a.input);
  if (!in) return print_error(err, in.error(), a.input), kExitBadInput;
  fs::path target(a.output);
  std::vector<Warning> warnings;
  if (has_json_extension(target)) {
    CommandArgs d = a;
    return cmd_dump(d, out, err);
  }
  const FormatOps* to = format_by_name(target.extension().string());
  if (!to) {
    err << "mmdkit: output extension '" << target.extension().string()
        << "' is not one of .vmd .vpd .pmd .pmx .json\n";
    return kExitUsage;
  }
  auto bytes = binary_of(*in, a.flags);
  if (!bytes) return print_error(err, bytes.error(), a.input), kExitBadInput;
  std::vector<std::uint8_t> result;
  if (in->format == to && in->is_json) {
    result = std::move(*bytes);
  } else if (in->format->convert) {
    auto r = in->format->convert(*bytes, to->name, a.flags, warnings);
    print_warnings(err, warnings, a.input);
    if (!r) return print_error(err, r.error(), a.input), kExitBadInput;
    result = std::move(*r);
  } else {
    err << "mmdkit: error: cannot convert " << in->format->name << " to " << to->name
        << " (supported: the same format, .json, and .pmd -> .pmx)\n";
    return kExitUsage;
  }
  return write_output(a.output, result, a, err);
}

int cmd_generate(const CommandArgs& a, std::ostream& out, std::ostream& err) {
  (void)out;
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
  CommandArgs w = a;
  w.input.clear();
  if (!a.force && fs::exists(a.output)) {
    err << "mmdkit: error: " << a.output << ": exists (use --force to replace it)\n";
    return kExitBadInput;
  }
  return write_output(a.output, *bytes, w, err);
}

int cmd_check(const CommandArgs& a, std::ostream& out, std::ostream& err) {
  auto in = load(a.input);
  if (!in) return print_error(err, in.error(), a.input), kExitBadInput;
  auto bytes = binary_of(*in, a.flags);
  if (!bytes) return print_error(err, bytes.error(), a.input), kExitBadInput;
  if (!in->format->check) {
    err << "mmdkit: error: check is not available for " << in->format->name << "\n";
    return kExitBadInput;
  }
  ReadFlags flags = a.flags;
  flags.input_folder = fs::absolute(fs::path(a.input)).parent_path();
  auto findings = in->format->check(*bytes, flags);
  if (!findings) return print_error(err, findings.error(), a.input), kExitBadInput;
  std::size_t errors = 0, warnings = 0;
  for (const Finding& f : *findings) (f.severity_error ? errors : warnings)++;
  if (a.flags.json) {
    out << "{\"file\": " << json_string(a.input) << ", \"errors\": " << errors << ", \"warnings\": " << warnings
        << ", \"findings\": [";
    bool first = true;
    for (const Finding& f : *findings) {
      out << (first ? "\n  " : ",\n  ") << "{\"severity\": \"" << (f.severity_error ? "error" : "warning")
          << "\", \"code\": \"" << error_code_name(f.where.code) << "\", \"section\": " << json_string(f.where.section)
          << ", \"record\": " << f.where.record << ", \"offset\": " << f.where.offset
          << ", \"message\": " << json_string(f.where.message) << "}";
      first = false;
    }
    out << (first ? "]}\n" : "\n]}\n");
    return errors ? kExitBadInput : kExitOk;
  }
  for (Finding f : *findings) {
    if (f.where.file.empty()) f.where.file = a.input;
    out << (f.severity_error ? "error: " : "warning: ") << f.where.to_string() << "\n";
  }
  out << a.input << ": " << errors << " error(s), " << warnings << " warning(s)\n";
  return errors ? kExitBadInput : kExitOk;
}

}  // namespace mmdkit::cli
