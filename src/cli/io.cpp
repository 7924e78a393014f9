// mmdkit CLI — inputs and outputs (io.hpp).
#include "cli/io.hpp"
#include "cli/messages.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <cctype>
#include <fstream>
#include <iostream>
#include <memory>

#include "mmdkit/core/file.hpp"
#include "core/try.hpp"

namespace mmdkit::cli {

namespace fs = std::filesystem;

namespace {

std::unexpected<Error> io_error(const std::string& file, std::string message) {
  return std::unexpected<Error>(Error{ErrorCode::io_error, std::move(message), {}, -1, -1, file});
}

}  // namespace

bool is_std_stream(std::string_view path) noexcept { return path == "-"; }

int report_error(std::ostream& err, const Error& error, const std::string& file) {
  Error x = error;
  if (x.file.empty()) x.file = file;
  err << diagnostic_line(Diagnostic::error, x.to_string());
  return 1;
}

std::string input_label(std::string_view path) { return is_std_stream(path) ? "<stdin>" : std::string(path); }

Result<std::vector<std::uint8_t>> read_stream(std::istream& in, const std::string& label, std::uint64_t max_bytes) {
  std::vector<std::uint8_t> data;
  std::streambuf* buf = in.rdbuf();
  if (!buf) return io_error(label, "cannot read: no stream");
  constexpr std::size_t kChunk = std::size_t{1} << 16;
  for (;;) {
    const std::size_t at = data.size();
    if (at > max_bytes)
      return std::unexpected<Error>(Error{ErrorCode::limit_exceeded,
                                          "input is more than the limit of " + std::to_string(max_bytes) + " bytes",
                                          {}, -1, -1, label});
    data.resize(at + kChunk);
    const std::streamsize n = buf->sgetn(reinterpret_cast<char*>(data.data() + at), static_cast<std::streamsize>(kChunk));
    data.resize(at + static_cast<std::size_t>(n > 0 ? n : 0));
    if (n < static_cast<std::streamsize>(kChunk)) break;
  }
  if (data.size() > max_bytes)
    return std::unexpected<Error>(Error{ErrorCode::limit_exceeded,
                                        "input is more than the limit of " + std::to_string(max_bytes) + " bytes",
                                        {}, -1, -1, label});
  data.shrink_to_fit();
  return data;
}

Result<FileBytes> read_input(const std::string& path, std::istream& in) {
  if (is_std_stream(path)) {
    MMDKIT_TRY_ASSIGN(auto bytes, read_stream(in, input_label(path)));
    return FileBytes(std::move(bytes));
  }
  return map_file(path);
}

bool is_device_output(const fs::path& output) {
  struct stat st {};
  if (::stat(output.c_str(), &st) != 0) return false;
  return S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode);
}

bool is_terminal_stdout(const std::string& output, const std::ostream& out) {
  return is_std_stream(output) && &out == &std::cout && ::isatty(STDOUT_FILENO) == 1;
}

Result<void> check_output(const fs::path& output, std::span<const fs::path> inputs, bool force, bool folder_made_later) {
  const std::string name = output.string();
  std::error_code ec;
  if (fs::is_directory(output, ec)) return io_error(name, "output is a directory");
  if (is_device_output(output)) return {};  // /dev/null, a FIFO: written to, never replaced
  // Before any work (a video's encoder would otherwise name its temporary file): the wording of
  // core/file.cpp's AtomicFile, which every other output goes through.
  const fs::path folder = output.parent_path().empty() ? fs::path(".") : output.parent_path();
  if (!folder_made_later && !fs::is_directory(folder, ec)) return io_error(name, "output folder does not exist");
  if (force || !fs::exists(output, ec)) return {};
  for (const fs::path& in : inputs) {
    if (is_std_stream(in.native())) continue;
    std::error_code ec2;
    if (fs::equivalent(in, output, ec2))
      return io_error(name, "is an input file; refusing to replace it (use --force to allow)");
  }
  return io_error(name, "exists; refusing to replace it (use --force to allow)");
}

Result<void> write_output(const std::string& output, ByteSpan bytes, std::span<const fs::path> inputs, bool force,
                          std::ostream& out) {
  if (is_std_stream(output)) {
    out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
    out.flush();
    if (!out) return io_error("<stdout>", "write failed");
    return {};
  }
  if (auto r = check_output(output, inputs, force); !r) return r;
  if (is_device_output(output)) {
    std::ofstream device(output, std::ios::binary);
    device.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
    device.flush();
    if (!device) return io_error(output, "write failed");
    return {};
  }
  return write_file_atomic(output, bytes, WriteOptions{inputs, force});
}

Result<OutputSink> OutputSink::open(const std::string& output, std::span<const fs::path> inputs, bool force,
                                    std::ostream& out) {
  OutputSink s;
  if (is_std_stream(output)) {
    s.out_ = &out;
    return s;
  }
  MMDKIT_TRY(check_output(output, inputs, force));
  if (is_device_output(output)) {
    s.device_ = std::make_shared<std::ofstream>(output, std::ios::binary);
    if (!*s.device_) return io_error(output, "cannot open for writing");
    s.out_ = s.device_.get();
    return s;
  }
  MMDKIT_TRY_ASSIGN(auto file, AtomicFile::create(output, WriteOptions{inputs, force}));
  s.file_ = std::move(file);
  return s;
}

Result<void> OutputSink::write(std::string_view bytes) {
  if (out_) {
    out_->write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    if (!*out_) return io_error("<stdout>", "write failed");
    return {};
  }
  return file_.write(bytes);
}

Result<void> OutputSink::commit() {
  if (out_) {
    out_->flush();
    if (!*out_) return io_error("<stdout>", "write failed");
    return {};
  }
  return file_.commit();
}

}  // namespace mmdkit::cli
