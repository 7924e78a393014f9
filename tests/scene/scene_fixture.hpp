// Generated files for scene tests (also used by tests/cli and tests/physics): models, motions and
// scene files written into a temporary folder.
#pragma once

#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "mmdkit/core/file.hpp"
#include "mmdkit/formats/pmx.hpp"
#include "mmdkit/formats/pmx_generate.hpp"
#include "mmdkit/formats/vmd.hpp"
#include "mmdkit/formats/vmd_generate.hpp"

namespace mmdkit::scene::test {

inline void write_bytes(const std::filesystem::path& p, const std::vector<std::uint8_t>& bytes) {
  ASSERT_TRUE(write_file_atomic(p, ByteSpan(bytes.data(), bytes.size())).has_value()) << p;
}

/// A generated PMX (humanoid bones, `vertices` vertices) at dir/name, with its textures.
inline pmx::Model generated_model(std::uint64_t seed, std::uint64_t vertices = 300) {
  pmx::GenerateOptions o;
  o.seed = seed;
  o.vertices = vertices;
  auto m = pmx::generate(o);
  EXPECT_TRUE(m.has_value());
  return m ? std::move(*m) : pmx::Model{};
}

inline std::filesystem::path write_model(const std::filesystem::path& dir, const std::string& name, const pmx::Model& m) {
  auto bytes = pmx::write(m);
  EXPECT_TRUE(bytes.has_value());
  if (bytes) write_bytes(dir / name, *bytes);
  auto tex = pmx::generate_textures();
  if (tex)
    for (const auto& t : *tex) {
      std::filesystem::create_directories((dir / t.path).parent_path());
      write_bytes(dir / t.path, t.bytes);
    }
  return dir / name;
}

inline std::filesystem::path write_model(const std::filesystem::path& dir, const std::string& name, std::uint64_t seed,
                                         std::uint64_t vertices = 300) {
  return write_model(dir, name, generated_model(seed, vertices));
}

/// A generated VMD (bone keys on the humanoid's names over `frames` frames; camera keys if asked).
inline std::filesystem::path write_motion(const std::filesystem::path& dir, const std::string& name, std::uint64_t seed,
                                          std::uint32_t frames = 30, std::uint64_t bone_keys = 200,
                                          std::uint64_t camera_keys = 0) {
  vmd::GenerateOptions o;
  o.seed = seed;
  o.frames = frames;
  o.bone_keys = bone_keys;
  o.morph_keys = bone_keys ? 20 : 0;
  o.camera_keys = camera_keys;
  auto bytes = vmd::write(vmd::generate(o));
  EXPECT_TRUE(bytes.has_value());
  if (bytes) write_bytes(dir / name, *bytes);
  return dir / name;
}

inline std::filesystem::path write_text(const std::filesystem::path& p, const std::string& text) {
  EXPECT_TRUE(write_file_atomic(p, std::string_view(text)).has_value()) << p;
  return p;
}

}  // namespace mmdkit::scene::test

namespace mmdkit::scene::test {
inline ByteSpan read_bytes_of_impl(const std::filesystem::path& p, std::vector<std::uint8_t>& keep) {
  auto b = read_file(p);
  EXPECT_TRUE(b.has_value());
  keep = b ? std::move(*b) : std::vector<std::uint8_t>{};
  return ByteSpan(keep.data(), keep.size());
}
/// The bytes of a file (kept alive by a thread-local buffer until the next call).
inline ByteSpan read_bytes_of(const std::filesystem::path& p) {
  thread_local std::vector<std::uint8_t> keep;
  return read_bytes_of_impl(p, keep);
}
}  // namespace mmdkit::scene::test
