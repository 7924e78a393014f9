// Keypoint readers: NPY written byte by byte from the format description (NEP 1), NPZ (stored zip
// members), JSON and CSV, with the errors naming shape, frame, joint and line.
#include <gtest/gtest.h>

#include <cmath>
#include <algorithm>
#include <cstring>
#include <string>

#include "mmdkit/motion/keypoints.hpp"

namespace mmdkit::motion {
namespace {

// An NPY 1.0 file: magic, version, u16 header length, the dict padded with spaces and '\n' so
// that the data starts at a multiple of 64, then the values.
std::vector<std::uint8_t> npy(const std::string& descr, const std::string& shape, const std::vector<double>& values,
                              bool fortran = false) {
  std::string dict = "{'descr': '" + descr + "', 'fortran_order': " + (fortran ? "True" : "False") + ", 'shape': " + shape + ", }";
  while ((10 + dict.size() + 1) % 64 != 0) dict += ' ';
  dict += '\n';
  std::string head = "\x93NUMPY";
  head += static_cast<char>(1);
  head += static_cast<char>(0);
  head += static_cast<char>(dict.size() & 0xFF);
  head += static_cast<char>(dict.size() >> 8);
  head += dict;
  std::vector<std::uint8_t> b(head.begin(), head.end());
  const bool big = descr[0] == '>';
  for (double v : values) {
    std::uint8_t buf[8];
    std::size_t n = 0;
    if (descr.back() == '4') {
      const float f = static_cast<float>(v);
      std::memcpy(buf, &f, 4);
      n = 4;
    } else {
      std::memcpy(buf, &v, 8);
      n = 8;
    }
    if (big) std::reverse(buf, buf + n);
    for (std::size_t i = 0; i < n; ++i) b.push_back(buf[i]);
  }
  return b;
}

std::vector<double> iota(std::size_t n) {
  std::vector<double> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = double(i) * 0.5;
  return v;
}

TEST(KeypointsNpy, Float32Float64BigEndianFortran) {
  for (const char* d : {"<f4", "<f8", ">f4", ">f8"}) {
    auto r = read_keypoints_npy(npy(d, "(2, 3, 3)", iota(18)));
    ASSERT_TRUE(r) << d << ": " << r.error().to_string();
    EXPECT_EQ(r->frames, 2u);
    EXPECT_EQ(r->joints, 3u);
    EXPECT_TRUE(r->confidence.empty());
    EXPECT_EQ(r->positions[3 * 3 + 2], 5.5f) << d;  // frame 1, joint 0, z = element 11
  }
  // Fortran order: element (f, j, c) at f + F·(j + J·c)
  auto r = read_keypoints_npy(npy("<f8", "(2, 3, 3)", iota(18), true));
  ASSERT_TRUE(r);
  EXPECT_EQ(r->positions[(1 * 3 + 0) * 3 + 2], float(0.5 * (1 + 2 * (0 + 3 * 2))));
  // (F, J, 4): the 4th value is the confidence
  r = read_keypoints_npy(npy("<f4", "(1, 2, 4)", {1, 2, 3, 0.9, 4, 5, 6, 0.1}));
  ASSERT_TRUE(r);
  ASSERT_EQ(r->confidence.size(), 2u);
  EXPECT_FLOAT_EQ(r->confidence[1], 0.1f);
  EXPECT_EQ(r->positions[3], 4.0f);
}

TEST(KeypointsNpy, Errors) {
  auto r = read_keypoints_npy(npy("<f4", "(4, 17)", iota(68)));
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message.find("shape (4, 17): expected (frames, joints, 3)"), std::string::npos) << r.error().message;
  r = read_keypoints_npy(npy("<i8", "(1, 1, 3)", iota(3)));
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message.find("dtype '<i8'"), std::string::npos);
  auto b = npy("<f4", "(10, 17, 3)", iota(30));  // declares 510 values, holds 30
  r = read_keypoints_npy(b);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, ErrorCode::count_too_large);
  EXPECT_EQ(read_keypoints_npy(std::vector<std::uint8_t>{'P', 'K'}).error().code, ErrorCode::bad_signature);
  r = read_keypoints_npy(npy("<f4", "(100000000000, 100000, 3)", {}));
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, ErrorCode::limit_exceeded);
}

// A zip with stored (method 0) members, as np.savez writes.
std::vector<std::uint8_t> zip(const std::vector<std::pair<std::string, std::vector<std::uint8_t>>>& members, int method = 0) {
  std::vector<std::uint8_t> z;
  auto u16 = [&](std::uint32_t v) {
    z.push_back(static_cast<std::uint8_t>(v));
    z.push_back(static_cast<std::uint8_t>(v >> 8));
  };
  auto u32 = [&](std::uint32_t v) {
    u16(v & 0xFFFF);
    u16(v >> 16);
  };
  for (const auto& [name, data] : members) {
    u32(0x04034b50);
    u16(20);
    u16(0);
    u16(static_cast<std::uint32_t>(method));
    u16(0);
    u16(0);
    u32(0);  // crc (not checked)
    u32(static_cast<std::uint32_t>(data.size()));
    u32(static_cast<std::uint32_t>(data.size()));
    u16(static_cast<std::uint32_t>(name.size()));
    u16(0);
    z.insert(z.end(), name.begin(), name.end());
    z.insert(z.end(), data.begin(), data.end());
  }
  u32(0x02014b50);  // the central directory starts (not read)
  return z;
}

TEST(KeypointsNpz, StoredMembersByName) {
  auto a = npy("<f4", "(1, 2, 3)", iota(6)), b = npy("<f8", "(3, 2, 3)", iota(18));
  auto z = zip({{"other.npy", a}, {"joints3d.npy", b}});
  auto r = read_keypoints_npz(z);
  ASSERT_TRUE(r) << r.error().to_string();
  EXPECT_EQ(r->frames, 3u);
  r = read_keypoints_npz(z, "other");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->frames, 1u);
  r = read_keypoints_npz(z, "missing");
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message.find("members: other, joints3d"), std::string::npos) << r.error().message;
  r = read_keypoints_npz(zip({{"keypoints.npy", a}}, 8));
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, ErrorCode::unsupported);
  // `mmdkit dataset`'s layout: one folder per motion. One folder with "positions": that member
  // (a fresh user had to name it); two: no guess, the members listed.
  auto one = zip({{"dance/frames.npy", a}, {"dance/positions.npy", b}});
  r = read_keypoints_npz(one);
  ASSERT_TRUE(r) << r.error().to_string();
  EXPECT_EQ(r->frames, 3u);
  auto two = zip({{"dance/positions.npy", b}, {"walk/positions.npy", a}});
  r = read_keypoints_npz(two);
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message.find("members: dance/positions, walk/positions"), std::string::npos) << r.error().message;
  r = read_keypoints_npz(two, "walk/positions");
  ASSERT_TRUE(r) << r.error().to_string();
  EXPECT_EQ(r->frames, 1u);
}

TEST(KeypointsText, JsonAndCsv) {
  auto r = read_keypoints_json(R"({"frames": [[[0,1,2],[3,4,5]], [[6,7,8], null]]})");
  ASSERT_TRUE(r) << r.error().to_string();
  EXPECT_EQ(r->frames, 2u);
  EXPECT_EQ(r->joints, 2u);
  EXPECT_TRUE(std::isnan(r->positions[9]));
  r = read_keypoints_json("[[[0,1,2],[3,4]]]");
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message.find("frame 0, joint 1: 2 numbers"), std::string::npos) << r.error().message;
  r = read_keypoints_json("[[[0,1,2]],\n [[0,1,2],[1,2,3]]]");
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message.find("frame 1 has 2 joints"), std::string::npos);
  EXPECT_EQ(read_keypoints_json("[[[0,1,2]]").error().code, ErrorCode::json_syntax);

  r = read_keypoints_csv("x0,y0,z0,x1,y1,z1\r\n1,2,3,4,5,6\n7,8,9,nan,,12\n");
  ASSERT_TRUE(r) << r.error().to_string();
  EXPECT_EQ(r->frames, 2u);
  EXPECT_EQ(r->joints, 2u);
  EXPECT_TRUE(std::isnan(r->positions[9]));
  EXPECT_EQ(r->positions[11], 12.0f);
  r = read_keypoints_csv("1,2,3\n4,5\n");
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().line, 2);
  r = read_keypoints_csv("1,2,3\n4,five,6\n");
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().line, 2);
  EXPECT_EQ(r.error().column, 3);
}

TEST(KeypointsLayout, NamesAndCounts) {
  EXPECT_EQ(keypoint_joint_names(KeypointLayout::h36m17).size(), 17u);
  EXPECT_EQ(keypoint_joint_names(KeypointLayout::coco17).size(), 17u);
  EXPECT_EQ(keypoint_joint_names(KeypointLayout::mediapipe33).size(), 33u);
  EXPECT_EQ(keypoint_joint_names(KeypointLayout::smpl24).size(), 24u);
  EXPECT_EQ(parse_keypoint_layout("smpl24"), KeypointLayout::smpl24);
  EXPECT_FALSE(parse_keypoint_layout("openpose25"));
  EXPECT_EQ(keypoint_joint_names(KeypointLayout::mediapipe33)[31], "left_foot_index");
  EXPECT_EQ(keypoint_joint_names(KeypointLayout::h36m17)[10], "head");
}

}  // namespace
}  // namespace mmdkit::motion
