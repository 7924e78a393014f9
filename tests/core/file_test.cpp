#include <gtest/gtest.h>

#include <sys/stat.h>

#include <filesystem>
#include <fstream>

#include "mmdkit/core/file.hpp"
#include "support/corpus.hpp"

namespace mmdkit {
namespace {

TEST(File, FifoWithoutWriterIsRefusedWithoutBlocking) {
  // Found by a new user: `mmdkit info FIFO` blocked forever in open(). A FIFO with a writer is
  // read (mapped_file_test.cpp); one with no writer and nothing in it is refused, not waited on.
  auto dir = test::temp_dir("fifo");
  auto fifo = dir / "f";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  auto r = read_file(fifo);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, ErrorCode::io_error);
  EXPECT_EQ(r.error().file, fifo.string());
  EXPECT_NE(r.error().message.find("no writer"), std::string::npos) << r.error().message;
  std::filesystem::remove_all(dir);
}

TEST(File, DirectoryAndMissingFileAreIoErrors) {
  auto dir = test::temp_dir("dir");
  auto d = read_file(dir);
  ASSERT_FALSE(d);
  EXPECT_NE(d.error().message.find("directory"), std::string::npos);
  auto m = read_file(dir / "missing.vmd");
  ASSERT_FALSE(m);
  EXPECT_EQ(m.error().code, ErrorCode::io_error);
  EXPECT_EQ(m.error().file, (dir / "missing.vmd").string());
  std::filesystem::remove_all(dir);
}

TEST(File, AtomicWriteRefusesProtectedInputAndKeepsItIntact) {
  auto dir = test::temp_dir("atomic");
  auto in = dir / "in.bin";
  { std::ofstream(in) << "original"; }
  std::filesystem::path inputs[] = {in};
  std::string text = "new";
  auto r = write_file_atomic(in, text, {inputs, false});
  ASSERT_FALSE(r);
  auto back = read_file(in);
  ASSERT_TRUE(back);
  EXPECT_EQ(std::string(back->begin(), back->end()), "original");
  ASSERT_TRUE(write_file_atomic(in, text, {inputs, true}));
  back = read_file(in);
  EXPECT_EQ(std::string(back->begin(), back->end()), "new");
  // No temporary files are left behind.
  std::size_t n = 0;
  for ([[maybe_unused]] auto& e : std::filesystem::directory_iterator(dir)) ++n;
  EXPECT_EQ(n, 1u);
  std::filesystem::remove_all(dir);
}

TEST(File, AtomicFileWritesInPiecesAndRenamesOnCommit) {
  auto dir = test::temp_dir("atomic_pieces");
  auto out = dir / "out.txt";
  {
    auto f = AtomicFile::create(out);
    ASSERT_TRUE(f) << f.error().message;
    ASSERT_TRUE(f->write(std::string_view("ab")));
    const std::uint8_t c[] = {'c', 'd'};
    ASSERT_TRUE(f->write(ByteSpan(c, 2)));
    EXPECT_FALSE(std::filesystem::exists(out));  // nothing at the target before commit
    EXPECT_TRUE(std::filesystem::exists(f->temp_path()));
    ASSERT_TRUE(f->commit());
    EXPECT_FALSE(f->commit());  // finished once
    EXPECT_FALSE(f->write(std::string_view("x")));
  }
  auto back = read_file(out);
  ASSERT_TRUE(back);
  EXPECT_EQ(std::string(back->begin(), back->end()), "abcd");
  std::size_t n = 0;
  for ([[maybe_unused]] auto& e : std::filesystem::directory_iterator(dir)) ++n;
  EXPECT_EQ(n, 1u);
  std::filesystem::remove_all(dir);
}

TEST(File, UncommittedAtomicFileLeavesNothing) {
  auto dir = test::temp_dir("atomic_discard");
  auto out = dir / "out.txt";
  { std::ofstream(out) << "old"; }
  std::filesystem::path tmp;
  {
    auto f = AtomicFile::create(out);
    ASSERT_TRUE(f);
    ASSERT_TRUE(f->write(std::string_view("partial")));
    AtomicFile moved = std::move(*f);  // the move carries the temporary file
    tmp = moved.temp_path();
    EXPECT_TRUE(std::filesystem::exists(tmp));
  }
  EXPECT_FALSE(std::filesystem::exists(tmp));
  auto back = read_file(out);
  ASSERT_TRUE(back);
  EXPECT_EQ(std::string(back->begin(), back->end()), "old");
  EXPECT_FALSE(AtomicFile::create(dir / "missing" / "x"));
  EXPECT_FALSE(AtomicFile::create(dir));
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace mmdkit
