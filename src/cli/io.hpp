// mmdkit CLI — command inputs and outputs: "-" for the standard streams, the one --force rule,
// and an output that is written piece by piece (stdout, or a temporary file renamed into place).
//
// The --force rule (every command that writes): an output that already exists is not replaced
// unless --force is given; an output that is one of the command's inputs is refused the same way
// with its own message. With --force both are replaced. Files are always written to a temporary
// file beside the target and renamed, so a failed run never leaves a partial output.
#pragma once

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <memory>
#include <istream>
#include <ostream>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "mmdkit/core/bytes.hpp"
#include "mmdkit/core/error.hpp"
#include "mmdkit/core/file.hpp"
#include "mmdkit/core/mapped_file.hpp"
#include "mmdkit/formats/registry.hpp"

namespace mmdkit::cli {

/// True for the path "-" (stdin as an input, stdout as an output).
bool is_std_stream(std::string_view path) noexcept;

// The output-extension rule (lower_extension, OutputKind, output_extension_problem,
// converts_only_to) is the format registry's, shared with the Python module.
using formats::converts_only_to;
using formats::kPmdOutput;
using formats::kPmmOutput;
using formats::kPmxOutput;
using formats::kVmdOutput;
using formats::kVpdOutput;
using formats::lower_extension;
using formats::output_extension_problem;
using formats::OutputKind;

/// Prints "mmdkit: error: <error>" to `err`, naming `file` when the error names no file, and
/// returns 1 (bad input or failed output).
int report_error(std::ostream& err, const Error& error, const std::string& file);

/// The name to show in messages: "<stdin>" for an input "-", the path otherwise.
std::string input_label(std::string_view path);

/// Everything `in` holds until its end, at most `max_bytes` (limit_exceeded beyond; io_error if
/// the stream fails before its end). `label` names the input in errors.
Result<std::vector<std::uint8_t>> read_stream(std::istream& in, const std::string& label,
                                              std::uint64_t max_bytes = std::uint64_t{4} << 30);

/// An input path's bytes: "-" reads `in` (stdin), anything else is map_file() (mapped, not
/// copied, when it is a regular file; core/mapped_file.hpp).
Result<FileBytes> read_input(const std::string& path, std::istream& in);

/// True when `output` is an existing character device, FIFO or socket (/dev/null, /dev/stdout, a
/// named pipe): such an output is written to directly, never refused as "exists" nor replaced by
/// a renamed temporary file.
bool is_device_output(const std::filesystem::path& output);

/// True when `output` is "-", `out` is std::cout and the standard output is a terminal: binary
/// data must not be written there (commands refuse it with a usage error).
bool is_terminal_stdout(const std::string& output, const std::ostream& out);

/// The --force rule for a file output (not "-"): io_error when `output` is a folder; io_error
/// "output folder does not exist" when its folder does not (unless `folder_made_later`: a file the
/// command writes into a folder it makes, e.g. pose's copied textures), checked before any work
/// so that no command names a temporary file or renders first; when it exists and `force` is
/// false, io_error "exists" or, when it is the same file as one of `inputs`, "is an input file".
/// Inputs named "-" are ignored.
Result<void> check_output(const std::filesystem::path& output, std::span<const std::filesystem::path> inputs,
                          bool force, bool folder_made_later = false);

/// Writes `bytes` to `output`: "-" = `out` (stdout), a device (is_device_output) directly, a path =
/// check_output then write_file_atomic.
Result<void> write_output(const std::string& output, ByteSpan bytes, std::span<const std::filesystem::path> inputs,
                          bool force, std::ostream& out);

/// An output written in pieces (e.g. one frame at a time) without holding it whole: "-" writes
/// to `out` as it goes; a path writes through mmdkit::AtomicFile (temporary file beside it, renamed
/// onto the path by commit()). Destroying an uncommitted sink removes its temporary file.
class OutputSink {
 public:
  OutputSink() = default;

  /// Opens `output` ("-" or a path; the --force rule applies to a path, see check_output).
  static Result<OutputSink> open(const std::string& output, std::span<const std::filesystem::path> inputs,
                                 bool force, std::ostream& out);

  /// Appends `bytes`. Errors: io_error (disk full, closed stdout, ...).
  Result<void> write(std::string_view bytes);
  /// Finishes: flushes `out`, or closes the temporary file and renames it onto the path.
  Result<void> commit();

 private:
  std::ostream* out_ = nullptr;            // set for "-" and for a device
  std::shared_ptr<std::ofstream> device_;  // a character device or FIFO (is_device_output)
  AtomicFile file_;                        // otherwise
};

}  // namespace mmdkit::cli
