// map_file (core/mapped_file.hpp): regular files mapped, pipes / FIFOs / devices / /proc read,
// empty files, limits, and a file that changes size under its mapping.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "mmdkit/core/file.hpp"
#include "mmdkit/core/mapped_file.hpp"
#include "support/corpus.hpp"

namespace mmdkit {
namespace {

namespace fs = std::filesystem;

// n bytes of a pattern that differs at every offset modulo 251 (a prime: no page-size alias).
std::vector<std::uint8_t> pattern(std::size_t n) {
  std::vector<std::uint8_t> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = static_cast<std::uint8_t>((i * 7 + 3) % 251);
  return v;
}

void write_bytes(const fs::path& p, const std::vector<std::uint8_t>& b) {
  std::ofstream f(p, std::ios::binary);
  f.write(reinterpret_cast<const char*>(b.data()), static_cast<std::streamsize>(b.size()));
}

std::vector<std::uint8_t> as_vector(const FileBytes& b) { return {b.data(), b.data() + b.size()}; }

class MappedFile : public ::testing::Test {
 protected:
  void SetUp() override { dir = test::temp_dir("mapped"); }
  void TearDown() override { fs::remove_all(dir); }
  fs::path dir;
};

TEST_F(MappedFile, LargeRegularFileIsMappedWithTheSameBytes) {
  const auto content = pattern(3 * kMapMinBytes + 123);
  write_bytes(dir / "a", content);
  auto b = map_file(dir / "a");
  ASSERT_TRUE(b) << b.error().to_string();
  EXPECT_TRUE(b->is_mapped());
  EXPECT_FALSE(b->changed());
  EXPECT_EQ(as_vector(*b), content);
  // Moving keeps the same bytes at the same address; take() copies them out of the mapping.
  const std::uint8_t* at = b->data();
  FileBytes moved = std::move(*b);
  EXPECT_EQ(moved.data(), at);
  EXPECT_TRUE(b->empty());
  EXPECT_EQ(std::move(moved).take(), content);
  EXPECT_TRUE(moved.empty());
}

TEST_F(MappedFile, SmallAndEmptyFilesAreReadNotMapped) {
  const auto small = pattern(kMapMinBytes - 1);
  write_bytes(dir / "s", small);
  auto s = map_file(dir / "s");
  ASSERT_TRUE(s);
  EXPECT_FALSE(s->is_mapped());
  EXPECT_EQ(as_vector(*s), small);
  write_bytes(dir / "e", {});
  auto e = map_file(dir / "e");
  ASSERT_TRUE(e) << e.error().to_string();
  EXPECT_TRUE(e->empty());
  EXPECT_FALSE(e->is_mapped());
}

TEST_F(MappedFile, ProcFileOfSizeZeroIsReadToItsEnd) {
  // /proc files report st_size 0 but have contents.
  auto b = map_file("/proc/self/status");
  ASSERT_TRUE(b) << b.error().to_string();
  const std::string text(reinterpret_cast<const char*>(b->data()), b->size());
  EXPECT_NE(text.find("Name:"), std::string::npos);
  auto n = map_file("/dev/null");
  ASSERT_TRUE(n) << n.error().to_string();
  EXPECT_TRUE(n->empty());
}

TEST_F(MappedFile, FifoWithBytesWaitingAndNoWriterLeftIsRead) {
  const fs::path f = dir / "fifo";
  ASSERT_EQ(::mkfifo(f.c_str(), 0600), 0);
  // A second reader keeps the pipe's buffer alive while the writer comes and goes.
  const int keep = ::open(f.c_str(), O_RDONLY | O_NONBLOCK);
  ASSERT_GE(keep, 0);
  const int w = ::open(f.c_str(), O_WRONLY | O_NONBLOCK);
  ASSERT_GE(w, 0);
  const auto content = pattern(1000);
  ASSERT_EQ(::write(w, content.data(), content.size()), static_cast<ssize_t>(content.size()));
  ::close(w);
  auto b = map_file(f);
  ::close(keep);
  ASSERT_TRUE(b) << b.error().to_string();
  EXPECT_FALSE(b->is_mapped());
  EXPECT_EQ(as_vector(*b), content);
}

TEST_F(MappedFile, FifoWithAWriterIsReadUntilTheWriterCloses) {
  const fs::path f = dir / "fifo";
  ASSERT_EQ(::mkfifo(f.c_str(), 0600), 0);
  const int keep = ::open(f.c_str(), O_RDONLY | O_NONBLOCK);
  ASSERT_GE(keep, 0);
  const int w = ::open(f.c_str(), O_WRONLY | O_NONBLOCK);
  ASSERT_GE(w, 0);
  ::fcntl(w, F_SETFL, ::fcntl(w, F_GETFL) & ~O_NONBLOCK);
  // More than a pipe's buffer (64 KiB): the writer blocks until map_file reads.
  const auto content = pattern(5 * kMapMinBytes + 17);
  std::thread writer([&] {
    std::size_t put = 0;
    while (put < content.size()) {
      const ssize_t n = ::write(w, content.data() + put, content.size() - put);
      if (n <= 0) break;
      put += static_cast<std::size_t>(n);
    }
    ::close(w);
  });
  auto b = map_file(f);
  writer.join();
  ::close(keep);
  ASSERT_TRUE(b) << b.error().to_string();
  EXPECT_EQ(as_vector(*b), content);
}

TEST_F(MappedFile, AnonymousPipeByItsProcPathIsRead) {
  // What `mmdkit info /dev/stdin < pipe` and `<(command)` give: an unnamed pipe.
  int fds[2];
  ASSERT_EQ(::pipe(fds), 0);
  const auto content = pattern(200000);
  std::thread writer([&] {
    std::size_t put = 0;
    while (put < content.size()) {
      const ssize_t n = ::write(fds[1], content.data() + put, content.size() - put);
      if (n <= 0) break;
      put += static_cast<std::size_t>(n);
    }
    ::close(fds[1]);
  });
  auto b = map_file("/proc/self/fd/" + std::to_string(fds[0]));
  writer.join();
  ::close(fds[0]);
  ASSERT_TRUE(b) << b.error().to_string();
  EXPECT_EQ(as_vector(*b), content);
}

TEST_F(MappedFile, LimitsAreCheckedForFilesAndPipes) {
  write_bytes(dir / "a", pattern(kMapMinBytes * 2));
  auto r = map_file(dir / "a", kMapMinBytes);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, ErrorCode::limit_exceeded);
  EXPECT_EQ(r.error().file, (dir / "a").string());
  // /dev/zero never ends: the limit stops it.
  auto z = map_file("/dev/zero", 1 << 20);
  ASSERT_FALSE(z);
  EXPECT_EQ(z.error().code, ErrorCode::limit_exceeded);
}

TEST_F(MappedFile, ErrorsNameThePath) {
  auto m = map_file(dir / "missing");
  ASSERT_FALSE(m);
  EXPECT_EQ(m.error().code, ErrorCode::io_error);
  EXPECT_EQ(m.error().file, (dir / "missing").string());
  auto d = map_file(dir);
  ASSERT_FALSE(d);
  EXPECT_NE(d.error().message.find("directory"), std::string::npos);
}

TEST_F(MappedFile, FileThatShrinksUnderItsMappingReadsZerosAndIsReportedChanged) {
  // Without the guard the read below past the new end would end the process with SIGBUS.
  const auto content = pattern(8 * kMapMinBytes);
  write_bytes(dir / "a", content);
  auto b = map_file(dir / "a");
  ASSERT_TRUE(b);
  ASSERT_TRUE(b->is_mapped());
  ASSERT_EQ(::truncate((dir / "a").c_str(), 1000), 0);
  EXPECT_EQ(b->data()[10], content[10]);  // before the new end: the bytes
  EXPECT_EQ(b->data()[5 * kMapMinBytes + 1], 0);  // past it: zeros
  EXPECT_TRUE(b->changed());
  auto v = b->verify_unchanged(dir / "a");
  ASSERT_FALSE(v);
  EXPECT_EQ(v.error().code, ErrorCode::io_error);
  EXPECT_EQ(v.error().file, (dir / "a").string());
  // Another mapping is not affected.
  write_bytes(dir / "b", content);
  auto c = map_file(dir / "b");
  ASSERT_TRUE(c);
  EXPECT_EQ(as_vector(*c), content);
  EXPECT_FALSE(c->changed());
}

TEST_F(MappedFile, ParseFileFailsWhenTheFileShrankDuringTheParse) {
  const auto content = pattern(4 * kMapMinBytes);
  write_bytes(dir / "a", content);
  std::uint64_t sum = 0;
  auto r = parse_file(dir / "a", [&](ByteSpan bytes) -> Result<std::uint64_t> {
    EXPECT_EQ(::truncate((dir / "a").c_str(), 0), 0);
    for (std::uint8_t x : bytes) sum += x;
    return sum;
  });
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, ErrorCode::io_error);
  EXPECT_EQ(r.error().file, (dir / "a").string());
  EXPECT_NE(r.error().message.find("changed size"), std::string::npos) << r.error().message;
}

TEST_F(MappedFile, FileThatGrowsOrIsReplacedKeepsTheMappedBytes) {
  const auto content = pattern(2 * kMapMinBytes);
  write_bytes(dir / "a", content);
  auto b = map_file(dir / "a");
  ASSERT_TRUE(b);
  {
    std::ofstream f(dir / "a", std::ios::binary | std::ios::app);
    f << "more bytes at the end";
  }
  EXPECT_EQ(as_vector(*b), content);  // the size mapped
  // Replaced through the atomic writer (a rename): the old inode stays mapped.
  ASSERT_TRUE(write_file_atomic(dir / "a", std::string_view("new")));
  EXPECT_EQ(as_vector(*b), content);
  EXPECT_FALSE(b->changed());
}

}  // namespace
}  // namespace mmdkit
