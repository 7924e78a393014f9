// The CCD solver (src/anim/ik.cpp, which works on half angles without trigonometric calls per
// step) against a plain double-precision transcription of babylon-mmd 1.3.0 IkSolver (from saba
// MMDIkSolver): the full angle by acos, the step by sin/cos, limits by the Euler decomposition
// (asin / atan2, middle angle clamped at ±88°), limited per axis, rebuilt. Chains of three links
// with each kind of limit (none; X only in ZYX order like the PMD knee; X only in YXZ order; Y only;
// Z only; three axes), caps below and above π, animated link rotations, deterministic goals.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <numbers>
#include <vector>

#include "mmdkit/anim/pose.hpp"
#include "mmdkit/anim/skeleton.hpp"

namespace mmdkit::anim {
namespace {

using D3 = std::array<double, 3>;
using DQ = std::array<double, 4>;  // x, y, z, w

DQ dmul(const DQ& a, const DQ& b) {
  return {a[3] * b[0] + a[0] * b[3] + a[1] * b[2] - a[2] * b[1], a[3] * b[1] - a[0] * b[2] + a[1] * b[3] + a[2] * b[0],
          a[3] * b[2] + a[0] * b[1] - a[1] * b[0] + a[2] * b[3], a[3] * b[3] - a[0] * b[0] - a[1] * b[1] - a[2] * b[2]};
}
DQ dconj(const DQ& q) { return {-q[0], -q[1], -q[2], q[3]}; }
D3 drot(const DQ& q, const D3& v) {  // q · v · q⁻¹
  const DQ r = dmul(dmul(q, {v[0], v[1], v[2], 0.0}), dconj(q));
  return {r[0], r[1], r[2]};
}
D3 dsub(const D3& a, const D3& b) { return {a[0] - b[0], a[1] - b[1], a[2] - b[2]}; }
double ddot(const D3& a, const D3& b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }
D3 dcross(const D3& a, const D3& b) { return {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]}; }
D3 dnorm(const D3& a) {
  const double l = std::sqrt(ddot(a, a));
  return {a[0] / l, a[1] / l, a[2] / l};
}
DQ daxis(const D3& axis, double angle) {
  const double s = std::sin(angle / 2);
  return {axis[0] * s, axis[1] * s, axis[2] * s, std::cos(angle / 2)};
}

struct RefLink {
  int bone;
  bool limited;
  D3 lo, hi;
};

// Bones 0..n−1 in a parent chain (bone i's parent i − 1), bind offsets `offset`, animated local
// rotations `anim`; links from the effector upward; goal in model space.
struct RefChain {
  std::vector<D3> offset;
  std::vector<DQ> anim;
  std::vector<DQ> ik;
  std::vector<DQ> rot;
  std::vector<D3> pos;
  void update() {
    for (std::size_t i = 0; i < offset.size(); ++i) {
      const DQ local = dmul(ik[i], anim[i]);
      if (i == 0) {
        rot[i] = local;
        pos[i] = offset[i];
      } else {
        rot[i] = dmul(rot[i - 1], local);
        const D3 r = drot(rot[i - 1], offset[i]);
        pos[i] = {pos[i - 1][0] + r[0], pos[i - 1][1] + r[1], pos[i - 1][2] + r[2]};
      }
    }
  }
};

double limit_angle(double a, double lo, double hi, bool use_axis) {
  if (a < lo) {
    const double d = 2 * lo - a;
    return (d <= hi && use_axis) ? d : lo;
  }
  if (a > hi) {
    const double d = 2 * hi - a;
    return (d >= lo && use_axis) ? d : hi;
  }
  return a;
}

void ref_solve(RefChain& ch, const std::vector<RefLink>& links, int effector, const D3& goal, int iterations,
               double unit) {
  const double half_pi = std::numbers::pi / 2, threshold = 88.0 * std::numbers::pi / 180.0;
  for (const RefLink& l : links) ch.ik[static_cast<std::size_t>(l.bone)] = {0, 0, 0, 1};
  ch.update();
  auto dist2 = [&] { const D3 d = dsub(goal, ch.pos[static_cast<std::size_t>(effector)]); return ddot(d, d); };
  if (dist2() < 1e-8) return;
  for (int it = 0; it < iterations; ++it) {
    const bool use_axis = it < iterations / 2;
    for (std::size_t c = 0; c < links.size(); ++c) {
      const RefLink& l = links[c];
      const auto b = static_cast<std::size_t>(l.bone);
      auto zero = [&](int a) { return l.lo[static_cast<std::size_t>(a)] == 0 && l.hi[static_cast<std::size_t>(a)] == 0; };
      int solve_axis = -1;  // -1 none, 0/1/2 x/y/z
      if (l.limited) {
        if (zero(0) && zero(1) && zero(2)) continue;  // fixed
        if (zero(1) && zero(2)) solve_axis = 0;
        else if (zero(0) && zero(2)) solve_axis = 1;
        else if (zero(0) && zero(1)) solve_axis = 2;
      }
      const D3 to_eff = dnorm(dsub(ch.pos[b], ch.pos[static_cast<std::size_t>(effector)]));
      const D3 to_goal = dnorm(dsub(ch.pos[b], goal));
      D3 axis = dcross(to_eff, to_goal);
      if (ddot(axis, axis) < 1e-8) continue;
      const DQ parent = b == 0 ? DQ{0, 0, 0, 1} : ch.rot[b - 1];
      if (l.limited && use_axis && solve_axis >= 0) {
        D3 unit_axis{0, 0, 0};
        unit_axis[static_cast<std::size_t>(solve_axis)] = 1;
        const double d = ddot(axis, drot(parent, unit_axis));
        axis = {0, 0, 0};
        axis[static_cast<std::size_t>(solve_axis)] = d >= 0 ? 1 : -1;
      } else {
        axis = dnorm(drot(dconj(parent), axis));
      }
      const double angle = std::min(unit * static_cast<double>(c + 1), std::acos(std::clamp(ddot(to_eff, to_goal),
          -1.0, 1.0)));
      DQ ik = dmul(daxis(axis, angle), ch.ik[b]);
      if (l.limited) {
        const DQ q = dmul(ik, ch.anim[b]);
        // Rotation matrix elements m[4c + r] of q.
        const double x = q[0], y = q[1], z = q[2], w = q[3];
        const double m0 = 1 - 2 * (y * y + z * z), m1 = 2 * (x * y + w * z), m2 = 2 * (x * z - w * y);
        const double m4 = 2 * (x * y - w * z), m5 = 1 - 2 * (x * x + z * z), m6 = 2 * (y * z + w * x);
        const double m8 = 2 * (x * z + w * y), m9 = 2 * (y * z - w * x), m10 = 1 - 2 * (x * x + y * y);
        double rx, ry, rz;
        int order;
        if (-half_pi < l.lo[0] && l.hi[0] < half_pi) order = 0;       // YXZ
        else if (-half_pi < l.lo[1] && l.hi[1] < half_pi) order = 1;  // ZYX
        else order = 2;                                                // XZY
        if (order == 0) {
          rx = std::clamp(std::asin(std::clamp(-m9, -1.0, 1.0)), -threshold, threshold);
          const double ic = 1 / std::cos(rx);
          ry = std::atan2(m8 * ic, m10 * ic);
          rz = std::atan2(m1 * ic, m5 * ic);
        } else if (order == 1) {
          ry = std::clamp(std::asin(std::clamp(-m2, -1.0, 1.0)), -threshold, threshold);
          const double ic = 1 / std::cos(ry);
          rx = std::atan2(m6 * ic, m10 * ic);
          rz = std::atan2(m1 * ic, m0 * ic);
        } else {
          rz = std::clamp(std::asin(std::clamp(-m4, -1.0, 1.0)), -threshold, threshold);
          const double ic = 1 / std::cos(rz);
          rx = std::atan2(m6 * ic, m5 * ic);
          ry = std::atan2(m8 * ic, m0 * ic);
        }
        rx = limit_angle(rx, l.lo[0], l.hi[0], use_axis);
        ry = limit_angle(ry, l.lo[1], l.hi[1], use_axis);
        rz = limit_angle(rz, l.lo[2], l.hi[2], use_axis);
        const DQ qx = daxis({1, 0, 0}, rx), qy = daxis({0, 1, 0}, ry), qz = daxis({0, 0, 1}, rz);
        const DQ e = order == 0 ? dmul(dmul(qy, qx), qz) : order == 1 ? dmul(dmul(qz, qy), qx) : dmul(dmul(qx, qz), qy);
        ik = dmul(e, dconj(ch.anim[b]));
      }
      ch.ik[b] = ik;
      ch.update();
    }
    if (dist2() < 1e-8) break;
  }
}

struct Case {
  const char* name;
  Vec3 lo, hi;
  float unit;
};

TEST(IkReference, SolverMatchesADoublePrecisionTranscriptionOfBabylonMmd) {
  constexpr float pi = std::numbers::pi_v<float>;
  constexpr float deg = pi / 180.0f;
  const Case cases[] = {
      {"no limits", {}, {}, 0.3f},
      {"knee: X in [-180°, -0.5°] (ZYX)", {-pi, 0, 0}, {-0.5f * deg, 0, 0}, 0.5f},
      {"knee, cap above π", {-pi, 0, 0}, {-0.5f * deg, 0, 0}, 4.0f},
      {"X in [-60°, 45°] (YXZ)", {-60 * deg, 0, 0}, {45 * deg, 0, 0}, 0.4f},
      {"X in [10°, 80°] (YXZ)", {10 * deg, 0, 0}, {80 * deg, 0, 0}, 0.2f},
      {"Y in [-90°, 30°]", {0, -90 * deg, 0}, {0, 30 * deg, 0}, 0.5f},
      {"Z in [-20°, 170°]", {0, 0, -20 * deg}, {0, 0, 170 * deg}, 1.0f},
      {"three axes (general path)", {-40 * deg, -30 * deg, -50 * deg}, {30 * deg, 60 * deg, 20 * deg}, 0.3f},
  };
  std::uint32_t seed = 12345;
  auto rnd = [&] {  // uniform in [-1, 1)
    seed = seed * 1664525u + 1013904223u;
    return static_cast<float>(seed >> 8) / static_cast<float>(1u << 23) - 1.0f;
  };
  const int iterations = 8;
  int compared = 0;
  for (const Case& cs : cases) {
    for (int trial = 0; trial < 12; ++trial) {
      // Chain: 0 root (0,10,0) → 1 (0,7,-0.3) → 2 (0.2,4,0.1) → 3 effector (0,1,0.4); 4 IK goal bone.
      SkeletonDesc d;
      const Vec3 bind[4] = {{0, 10, 0}, {0, 7, -0.3f}, {0.2f, 4, 0.1f}, {0, 1, 0.4f}};
      for (int i = 0; i < 4; ++i) {
        BoneDesc b;
        b.name = "b" + std::to_string(i);
        b.position = bind[i];
        b.parent = i == 0 ? kNoBone : i - 1;
        d.bones.push_back(b);
      }
      BoneDesc ikb;
      ikb.name = "ik";
      d.bones.push_back(ikb);
      d.bones[4].ik_effector = 3;
      d.bones[4].ik_iterations = iterations;
      d.bones[4].ik_unit_angle = cs.unit;
      const bool limited = cs.lo != Vec3{} || cs.hi != Vec3{};
      d.bones[4].ik_links = {IkLinkDesc{2, limited, cs.lo, cs.hi}, IkLinkDesc{1, limited, cs.lo, cs.hi},
                             IkLinkDesc{0, false, {}, {}}};
      auto sk = build_skeleton(d);
      ASSERT_TRUE(sk);
      // Animated rotations of the links (small, random) and a goal within reach of the chain.
      std::vector<BonePose> local(5);
      RefChain ch;
      for (int i = 0; i < 4; ++i) {
        const Vec3 off = i == 0 ? bind[0] : Vec3{bind[i][0] - bind[i - 1][0], bind[i][1] - bind[i - 1][1], bind[i][2] - bind[i - 1][2]};
        ch.offset.push_back({static_cast<double>(off[0]), static_cast<double>(off[1]), static_cast<double>(off[2])});
        Quat q{0, 0, 0, 1};
        if (i >= 1 && i <= 2) {
          q = {0.2f * rnd(), 0.2f * rnd(), 0.2f * rnd(), 1.0f};
          const float n = std::sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
          for (float& c : q) c /= n;
        }
        local[static_cast<std::size_t>(i)].rotation = q;
        ch.anim.push_back({static_cast<double>(q[0]), static_cast<double>(q[1]), static_cast<double>(q[2]),
            static_cast<double>(q[3])});
      }
      ch.ik.assign(4, {0, 0, 0, 1});
      ch.rot.resize(4);
      ch.pos.resize(4);
      const Vec3 goal{3.0f * rnd(), 4.0f + 3.0f * rnd(), 3.0f * rnd()};
      local[4].translation = goal;

      PoseWorkspace ws(*sk);
      evaluate(*sk, {local, {}, {}}, ws);
      std::vector<RefLink> rl;
      for (int b : {2, 1, 0}) {
        const bool lim = limited && b != 0;
        rl.push_back({b, lim, {static_cast<double>(cs.lo[0]), static_cast<double>(cs.lo[1]),
            static_cast<double>(cs.lo[2])}, {static_cast<double>(cs.hi[0]), static_cast<double>(cs.hi[1]),
                static_cast<double>(cs.hi[2])}});
      }
      ref_solve(ch, rl, 3, {static_cast<double>(goal[0]), static_cast<double>(goal[1]),
          static_cast<double>(goal[2])}, iterations, static_cast<double>(cs.unit));

      const auto pos = ws.model_positions();
      const auto rot = ws.model_rotations();
      for (std::size_t i = 0; i < 4; ++i) {
        for (std::size_t k = 0; k < 3; ++k)
          EXPECT_NEAR(pos[i][k], ch.pos[i][k], 2e-4) << cs.name << ", trial " << trial << ", bone " << i;
        double dq = 0;
        for (std::size_t k = 0; k < 4; ++k) dq += static_cast<double>(rot[i][k]) * ch.rot[i][k];
        const double sign = dq < 0 ? -1.0 : 1.0;
        for (std::size_t k = 0; k < 4; ++k)
          EXPECT_NEAR(rot[i][k], sign * ch.rot[i][k], 2e-5) << cs.name << ", trial " << trial << ", bone " << i;
      }
      ++compared;
    }
  }
  EXPECT_EQ(compared, 96);
}

}  // namespace
}  // namespace mmdkit::anim
