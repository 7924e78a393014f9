// Quaternion <-> Euler angles as MMD's UI shows them (YXZ, Y and Z negated). Expected values are
// analytic (half-angle formulas, rotating basis vectors by hand) or from Vmd2XML's fixture.
#include "mmdkit/core/euler.hpp"

#include <gtest/gtest.h>

#include <array>
#include <bit>
#include <cmath>
#include <cstring>
#include <numbers>
#include <random>

#include "support/corpus.hpp"

namespace mmdkit {
namespace {

using Q = std::array<float, 4>;
using V = std::array<double, 3>;

// v' = q v q* for a unit quaternion (x, y, z, w), in double.
V rotate(const Q& qf, const V& v) {
  const double x = qf[0], y = qf[1], z = qf[2], w = qf[3];
  // t = 2 * cross(q.xyz, v); v' = v + w t + cross(q.xyz, t)
  const double tx = 2 * (y * v[2] - z * v[1]);
  const double ty = 2 * (z * v[0] - x * v[2]);
  const double tz = 2 * (x * v[1] - y * v[0]);
  return {v[0] + w * tx + (y * tz - z * ty), v[1] + w * ty + (z * tx - x * tz), v[2] + w * tz + (x * ty - y * tx)};
}

void expect_vec(const V& a, const V& b, double tol = 1e-6) {
  EXPECT_NEAR(a[0], b[0], tol);
  EXPECT_NEAR(a[1], b[1], tol);
  EXPECT_NEAR(a[2], b[2], tol);
}

TEST(Euler, SingleAxisX) {
  // UI X = +30: quaternion about +X by +30 degrees = (sin 15, 0, 0, cos 15).
  Q q = euler_degrees_to_quaternion({30, 0, 0});
  const double s = std::sin(15 * std::numbers::pi / 180), c = std::cos(15 * std::numbers::pi / 180);
  EXPECT_NEAR(q[0], s, 1e-7);
  EXPECT_NEAR(q[1], 0, 1e-7);
  EXPECT_NEAR(q[2], 0, 1e-7);
  EXPECT_NEAR(q[3], c, 1e-7);
  auto e = quaternion_to_euler_degrees({static_cast<float>(s), 0, 0, static_cast<float>(c)});
  EXPECT_NEAR(e[0], 30, 1e-4);
  EXPECT_NEAR(e[1], 0, 1e-4);
  EXPECT_NEAR(e[2], 0, 1e-4);
}

TEST(Euler, SingleAxisYAndZAreNegated) {
  // MMD's UI shows Y and Z with the opposite sign of the quaternion's rotation about +Y / +Z.
  const double s = std::sin(20 * std::numbers::pi / 180), c = std::cos(20 * std::numbers::pi / 180);
  Q qy = euler_degrees_to_quaternion({0, 40, 0});
  EXPECT_NEAR(qy[1], -s, 1e-7);
  EXPECT_NEAR(qy[3], c, 1e-7);
  EXPECT_NEAR(qy[0], 0, 1e-7);
  EXPECT_NEAR(qy[2], 0, 1e-7);
  Q qz = euler_degrees_to_quaternion({0, 0, 40});
  EXPECT_NEAR(qz[2], -s, 1e-7);
  EXPECT_NEAR(qz[3], c, 1e-7);
  auto ey = quaternion_to_euler_degrees({0, static_cast<float>(s), 0, static_cast<float>(c)});
  EXPECT_NEAR(ey[1], -40, 1e-4);
  auto ez = quaternion_to_euler_degrees({0, 0, static_cast<float>(s), static_cast<float>(c)});
  EXPECT_NEAR(ez[2], -40, 1e-4);
}

TEST(Euler, CompositionOrderIsZThenXThenY) {
  // UI (0, -90, -90) = quaternion angles ry = +90, rz = +90. R = Ry Rx Rz applies Z first:
  // Rz(90) (1,0,0) = (0,1,0), then Ry(90) (0,1,0) = (0,1,0). (Z applied last would give (0,0,-1).)
  Q q1 = euler_degrees_to_quaternion({0, -90, -90});
  expect_vec(rotate(q1, {1, 0, 0}), {0, 1, 0});
  // UI (90, -90, 0): Rx(90) (0,1,0) = (0,0,1), then Ry(90) (0,0,1) = (1,0,0).
  Q q2 = euler_degrees_to_quaternion({90, -90, 0});
  expect_vec(rotate(q2, {0, 1, 0}), {1, 0, 0});
  // UI (90, 0, -90): Rz(90) (1,0,0) = (0,1,0), then Rx(90) (0,1,0) = (0,0,1).
  Q q3 = euler_degrees_to_quaternion({90, 0, -90});
  expect_vec(rotate(q3, {1, 0, 0}), {0, 0, 1});
}

TEST(Euler, GimbalLockPutsTheTurnIntoY) {
  // X = 90 exactly: only Y - Z matters; mmdkit reports Z = 0 and the whole turn in Y.
  Q q = euler_degrees_to_quaternion({90, 30, 0});
  auto e = quaternion_to_euler_degrees(q);
  EXPECT_FLOAT_EQ(e[0], 90.0f);
  EXPECT_NEAR(e[1], 30, 1e-3);
  EXPECT_EQ(e[2], 0.0f);
  // Same orientation written with a Z part. Rx(90) maps +Z to -Y, so Rx(90) Rz(b) = Ry(-b) Rx(90)
  // and Ry(a) Rx(90) Rz(b) = Ry(a - b) Rx(90). UI (90, 30, 20) is a = -30, b = -20 (negated):
  // a - b = -10, shown as UI Y = 10.
  auto e2 = quaternion_to_euler_degrees(euler_degrees_to_quaternion({90, 30, 20}));
  EXPECT_FLOAT_EQ(e2[0], 90.0f);
  EXPECT_NEAR(e2[1], 10, 1e-3);
  EXPECT_EQ(e2[2], 0.0f);
  // Rx(-90) maps +Z to +Y: Ry(a) Rx(-90) Rz(b) = Ry(a + b) Rx(-90); a + b = -50, UI Y = 50.
  auto e3 = quaternion_to_euler_degrees(euler_degrees_to_quaternion({-90, 30, 20}));
  EXPECT_FLOAT_EQ(e3[0], -90.0f);
  EXPECT_NEAR(e3[1], 50, 1e-3);
}

TEST(Euler, IdentityZeroUnnormalizedAndNegated) {
  auto e0 = quaternion_to_euler_degrees({0, 0, 0, 1});
  EXPECT_EQ(e0, (std::array<float, 3>{0, 0, 0}));
  EXPECT_FALSE(std::signbit(e0[1]));  // no "-0"
  EXPECT_EQ(quaternion_to_euler_degrees({0, 0, 0, 0}), (std::array<float, 3>{0, 0, 0}));
  Q q = euler_degrees_to_quaternion({10, 20, 30});
  auto a = quaternion_to_euler_degrees(q);
  auto b = quaternion_to_euler_degrees({2 * q[0], 2 * q[1], 2 * q[2], 2 * q[3]});
  auto c = quaternion_to_euler_degrees({-q[0], -q[1], -q[2], -q[3]});
  for (int i = 0; i < 3; ++i) {
    EXPECT_NEAR(a[i], (std::array<float, 3>{10, 20, 30})[i], 1e-4);
    EXPECT_NEAR(b[i], a[i], 1e-4);
    EXPECT_NEAR(c[i], a[i], 1e-4);
  }
  auto n = quaternion_to_euler_degrees({NAN, 0, 0, 1});
  EXPECT_TRUE(std::isnan(n[0]) && std::isnan(n[1]) && std::isnan(n[2]));
}

TEST(Euler, RandomQuaternionRoundTripSignInsensitive) {
  std::mt19937 rng(7);
  std::normal_distribution<double> nd;
  for (int i = 0; i < 20000; ++i) {
    double v[4] = {nd(rng), nd(rng), nd(rng), nd(rng)};
    double n = std::sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2] + v[3] * v[3]);
    Q q{static_cast<float>(v[0] / n), static_cast<float>(v[1] / n), static_cast<float>(v[2] / n),
        static_cast<float>(v[3] / n)};
    auto e = quaternion_to_euler_degrees(q);
    ASSERT_GE(e[0], -90.0f);
    ASSERT_LE(e[0], 90.0f);
    ASSERT_GE(e[1], -180.0f);
    ASSERT_LE(e[1], 180.0f);
    ASSERT_GE(e[2], -180.0f);
    ASSERT_LE(e[2], 180.0f);
    Q back = euler_degrees_to_quaternion(e);
    double dot = 0, nq = 0, nb = 0;
    for (int k = 0; k < 4; ++k) {
      dot += static_cast<double>(q[k]) * static_cast<double>(back[k]);
      nq += static_cast<double>(q[k]) * static_cast<double>(q[k]);
      nb += static_cast<double>(back[k]) * static_cast<double>(back[k]);
    }
    dot /= std::sqrt(nq * nb);
    // |dot| = cos(half the angle between them): 1 - 1e-10 is about 0.0016 degrees.
    ASSERT_GT(std::fabs(dot), 1 - 1e-10) << "q = " << q[0] << " " << q[1] << " " << q[2] << " " << q[3];
  }
}

TEST(Euler, RandomAnglesRoundTrip) {
  std::mt19937 rng(11);
  std::uniform_real_distribution<float> ax(-89.0f, 89.0f), ayz(-179.0f, 179.0f);
  for (int i = 0; i < 20000; ++i) {
    std::array<float, 3> e{ax(rng), ayz(rng), ayz(rng)};
    auto back = quaternion_to_euler_degrees(euler_degrees_to_quaternion(e));
    // Near X = +-89 the float quaternion limits Y and Z to a few thousandths of a degree.
    for (int k = 0; k < 3; ++k) ASSERT_NEAR(back[k], e[k], 0.02) << e[0] << " " << e[1] << " " << e[2];
  }
}

TEST(Euler, Vmd2XmlEulerFixture) {
  // olyutorskii/Vmd2XML src/test/resources/testdata/vmd110820/euler/euler.vmd holds one bone key
  // whose euler.xml (its expected output) says boneRotEyxz xDeg=20 yDeg=20 zDeg=20: Vmd2XML's YXZ
  // without MMD's Y/Z negation, so the UI angles are (20, -20, -20).
  MMDKIT_REQUIRE_CORPUS();
  auto f = test::corpus_file("olyutorskii__Vmd2XML/src/test/resources/testdata/vmd110820/euler/euler.vmd");
  ASSERT_TRUE(f);
  auto bytes = test::read_bytes(f->path);
  ASSERT_EQ(bytes.size(), 181u);  // MANIFEST size
  // Header 30 + model name 20 + count 4, then name 15, frame 4, position 12: rotation at 85.
  Q q;
  std::memcpy(q.data(), bytes.data() + 85, 16);
  auto e = quaternion_to_euler_degrees(q);
  EXPECT_NEAR(e[0], 20, 1e-4);
  EXPECT_NEAR(e[1], -20, 1e-4);
  EXPECT_NEAR(e[2], -20, 1e-4);
  // And back: Vmd2XML's xml2vmd test writes exactly these float bits for (20, 20, 20).
  Q back = euler_degrees_to_quaternion({20, -20, -20});
  for (int k = 0; k < 4; ++k) EXPECT_NEAR(back[k], q[k], 2e-7) << k;
}

TEST(Euler, EditedAnglesAreToldFromUneditedOnes) {
  const std::array<float, 4> q = euler_degrees_to_quaternion({10, 20, 30});
  EXPECT_FALSE(euler_edited(quaternion_to_euler_degrees(q), q));  // what the dumper writes
  const std::array<float, 4> g = euler_degrees_to_quaternion({89.97f, 10, 5});  // near gimbal lock
  EXPECT_FALSE(euler_edited(quaternion_to_euler_degrees(g), g));
  EXPECT_TRUE(euler_edited({10, 20, 31}, q));
  EXPECT_FALSE(euler_edited({10.0001f, 20, 30}, q));  // the same rotation to 0.001 degrees
  EXPECT_TRUE(euler_edited({0, 0, 0}, {0, 0, 0.0001f, 1}));  // 0.0115 degrees apart
  EXPECT_FALSE(euler_edited({std::nanf(""), 0, 0}, q));
  EXPECT_FALSE(euler_edited({1, 2, 3}, {std::nanf(""), 0, 0, 1}));
}

}  // namespace
}  // namespace mmdkit
