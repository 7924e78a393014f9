// BVH reader and writer: syntax variants, errors naming line and joint, write → read round trip,
// forward kinematics against hand-computed values.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "support/bvh_fixture.hpp"
#include "mmdkit/motion/bvh.hpp"

namespace mmdkit::motion {
namespace {

const char* const kTwoJoints = ::mmdkit::test::kTwoJointBvh;  // support/bvh_fixture.hpp

TEST(BvhRead, ParsesHierarchyAndFrames) {
  auto r = read_bvh(kTwoJoints);
  ASSERT_TRUE(r) << r.error().to_string();
  ASSERT_EQ(r->joints.size(), 2u);
  EXPECT_EQ(r->joints[0].name, "Hips");
  EXPECT_EQ(r->joints[1].name, "Left Arm");  // the rest of the line: spaces kept
  EXPECT_EQ(r->joints[1].parent, 0);
  EXPECT_EQ(r->joints[1].first_channel, 6u);
  EXPECT_EQ(r->joints[0].line, 2);
  EXPECT_EQ(r->joints[1].line, 6);
  ASSERT_TRUE(r->joints[1].end_site);
  EXPECT_EQ((*r->joints[1].end_site)[0], 3.0);
  EXPECT_EQ(r->channel_count, 9u);
  EXPECT_EQ(r->frame_count, 2u);
  EXPECT_DOUBLE_EQ(r->frame_time, 0.0333333);
  EXPECT_EQ(r->values[9 + 3], 90.0);
}

TEST(BvhRead, CrlfTabsExponentsAndCase) {
  std::string t =
      "hierarchy\r\n\tROOT\tA \r\n{\r\n\tOFFSET\t 1e0   -2.5E+00 +3\r\n\tchannels 3 xrotation YROTATION Zrotation\r\n"
      "\tEnd Site\r\n\t{\r\n\t\tOFFSET 0 1 0\r\n\t}\r\n}\r\nMotion\r\nFrames:\t1\r\nFrame   Time: 3.3333333e-2\r\n"
      "  1.5e1\t-2E-1    0.0e+0  \r\n";  // no final line end after the last frame is also fine
  auto r = read_bvh(t);
  ASSERT_TRUE(r) << r.error().to_string();
  EXPECT_EQ(r->joints[0].name, "A");
  EXPECT_EQ(r->joints[0].offset, (std::array<double, 3>{1.0, -2.5, 3.0}));
  EXPECT_EQ(r->joints[0].channels[1], BvhChannel::y_rotation);
  EXPECT_DOUBLE_EQ(r->frame_time, 3.3333333e-2);
  EXPECT_EQ(r->values, (std::vector<double>{15.0, -0.2, 0.0}));
  t.pop_back();
  t.pop_back();  // without the last CR LF
  EXPECT_TRUE(read_bvh(t));
}

// The message of a failed read (with its line).
std::string error_of(const std::string& text, std::int64_t* line = nullptr) {
  auto r = read_bvh(text);
  if (r) return "(no error)";
  if (line) *line = r.error().line;
  return r.error().message;
}

TEST(BvhRead, MissingChannelsNameFrameLineAndJoint) {
  std::string t = kTwoJoints;
  t.replace(t.rfind("0 0 90\n"), 7, "0\n");  // frame 1 loses "Xrotation Yrotation" of Left Arm
  std::int64_t line = 0;
  const std::string m = error_of(t, &line);
  EXPECT_NE(m.find("frame 1 has 7 of 9 values"), std::string::npos) << m;
  EXPECT_NE(m.find("joint 'Left Arm' misses channels Xrotation Yrotation"), std::string::npos) << m;
  EXPECT_EQ(line, 20);
}

TEST(BvhRead, InconsistentFrameCounts) {
  std::string fewer = kTwoJoints;
  fewer.replace(fewer.find("Frames: 2"), 9, "Frames: 3");
  std::string m = error_of(fewer);
  EXPECT_NE(m.find("after 2 of the 3 frames"), std::string::npos) << m;
  std::string more = kTwoJoints;
  more.replace(more.find("Frames: 2"), 9, "Frames: 1");
  std::int64_t line = 0;
  m = error_of(more, &line);
  EXPECT_NE(m.find("more frame lines than 'Frames: 1'"), std::string::npos) << m;
  EXPECT_EQ(line, 20);
}

TEST(BvhRead, BadNumbersAndKeywords) {
  std::int64_t line = 0;
  std::string t = kTwoJoints;
  t.replace(t.find("OFFSET 2 0 0"), 12, "OFFSET 2 x 0");
  EXPECT_NE(error_of(t, &line).find("OFFSET of joint 'Left Arm' needs 3 numbers, found 'x'"), std::string::npos);
  EXPECT_EQ(line, 8);
  t = kTwoJoints;
  t.replace(t.rfind("90 0 0"), 6, "90 nan 0");
  EXPECT_NE(error_of(t, &line).find("joint 'Hips' Xrotation): not a number: 'nan'"), std::string::npos) << error_of(t);
  t = kTwoJoints;
  t.replace(t.find("1 2 3"), 5, "1 2.3.4 3");
  EXPECT_NE(error_of(t).find("not a number: '2.3.4'"), std::string::npos) << error_of(t);
  t = kTwoJoints;
  t.replace(t.find("CHANNELS 3"), 10, "CHANNELS 4");
  EXPECT_NE(error_of(t, &line).find("declares 4 channels but lists 3"), std::string::npos) << error_of(t);
  EXPECT_EQ(line, 9);
  t = kTwoJoints;
  t.replace(t.find("Zrotation Xrotation Yrotation\n    End"), 9, "Wrotation");
  EXPECT_NE(error_of(t).find("lists 0 (then 'Wrotation', not a channel name)"), std::string::npos) << error_of(t);
  t = kTwoJoints;
  t.replace(t.find("Frames: 2"), 9, "Frames: two");
  EXPECT_NE(error_of(t).find("'Frames:' needs a whole number"), std::string::npos);
  t = kTwoJoints;
  t.replace(t.find("Frame Time: 0.0333333"), 21, "Frame Time: 0");
  EXPECT_NE(error_of(t).find("'Frame Time:' needs a number > 0"), std::string::npos);
  EXPECT_EQ(read_bvh("").error().code, ErrorCode::empty_input);
  EXPECT_EQ(read_bvh("HIERARCHY\nROOT A\n{\n OFFSET 0 0 0\n").error().code, ErrorCode::truncated);
  EXPECT_NE(error_of("HIERARCHY\nROOT A\n{\n OFFSET 0 0 0\n SCALE 1\n}\nMOTION\nFrames: 0\nFrame Time: 1\n")
                .find("unknown keyword 'SCALE' in joint 'A'"),
            std::string::npos);
}

TEST(BvhRead, HugeFrameCountIsRefusedBeforeAllocating) {
  std::string t = kTwoJoints;
  t.replace(t.find("Frames: 2"), 9, "Frames: 4000000000");
  auto r = read_bvh(t);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, ErrorCode::limit_exceeded);
}

TEST(BvhWrite, WriteReadRoundTripIsExact) {
  auto a = read_bvh(kTwoJoints);
  ASSERT_TRUE(a);
  a->values[4] = 1.0 / 3.0;
  a->values[5] = -1.25e-7;
  auto text = write_bvh(*a, {.digits = 17});
  ASSERT_TRUE(text) << text.error().to_string();
  auto b = read_bvh(*text);
  ASSERT_TRUE(b) << b.error().to_string();
  EXPECT_EQ(b->values, a->values);
  EXPECT_EQ(b->joints[1].name, "Left Arm");
  EXPECT_EQ(b->joints[1].offset, a->joints[1].offset);
  EXPECT_EQ(*b->joints[1].end_site, *a->joints[1].end_site);
  EXPECT_EQ(b->frame_time, a->frame_time);
}

TEST(BvhPose, ForwardKinematicsByHand) {
  auto r = read_bvh(kTwoJoints);
  ASSERT_TRUE(r);
  std::vector<BvhTransform> w;
  bvh_world_pose(*r, 0, w);
  EXPECT_NEAR(w[1].translation[0], 2.0, 1e-12);
  EXPECT_NEAR(w[1].translation[1], 10.0, 1e-12);
  // Frame 1: root at (1, 12, 3), Zrotation 90 turns the arm's +X offset to +Y.
  bvh_world_pose(*r, 1, w);
  EXPECT_NEAR(w[0].translation[1], 12.0, 1e-12);
  EXPECT_NEAR(w[1].translation[0], 1.0, 1e-12);
  EXPECT_NEAR(w[1].translation[1], 14.0, 1e-12);
  EXPECT_NEAR(w[1].translation[2], 3.0, 1e-12);
  // Order matters: the root's R = Rz(90); the arm's R = Ry(90). The arm tip (3, 0, 0) in the arm's
  // frame: Ry(90) (3,0,0) = (0,0,-3); Rz(90) (0,0,-3) = (0,0,-3); tip = (1, 14, 0).
  const auto& q = w[1].rotation;
  const double x = 3, y = 0, z = 0;
  // rotate (3,0,0) by q
  const double tx = 2 * (q[1] * z - q[2] * y), ty = 2 * (q[2] * x - q[0] * z), tz = 2 * (q[0] * y - q[1] * x);
  const double rx = x + q[3] * tx + (q[1] * tz - q[2] * ty), ry = y + q[3] * ty + (q[2] * tx - q[0] * tz),
               rz = z + q[3] * tz + (q[0] * ty - q[1] * tx);
  EXPECT_NEAR(rx, 0.0, 1e-12);
  EXPECT_NEAR(ry, 0.0, 1e-12);
  EXPECT_NEAR(rz, -3.0, 1e-12);
}

TEST(BvhMap, MapFileAndErrors) {
  auto m = read_bvh_bone_map("# comment\r\nHips\tセンター\r\n\r\nLeftArm\t左腕\n");
  ASSERT_TRUE(m) << m.error().to_string();
  ASSERT_EQ(m->pairs.size(), 2u);
  EXPECT_EQ(m->pairs[1].second, "左腕");
  auto bad = read_bvh_bone_map("Hips\tセンター\nHips 左腕\n");
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error().line, 2);
  bad = read_bvh_bone_map("Hips\tセンター\nSpine\tセンター\n");
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().message.find("mapped twice"), std::string::npos);
}

}  // namespace
}  // namespace mmdkit::motion
