// Skinning kernels (skinning.hpp SkinKernelIsa): every kernel the CPU can run, against a
// straightforward double-precision reference written here from the formulas of
// docs/EVALUATION-MORPH-SKIN.md, on random vertices of every type (BDEF1/2/4, SDEF, QDEF, invalid
// bones, zero weights, morph offsets); plus the edge cases the SIMD kernel handles with masks
// (normal not renormalized for w0 = 1, zero-length blended normal keeps the stored one).
//
// Tolerance: the kernels compute in float (2⁻²⁴ ≈ 6e-8 relative rounding per operation, about
// ten roundings from input to output, FMA or not, rsqrt + Newton ≈ 2e-7 relative on normals), so
// each output is within about 1e-6 of the exact value relative to the magnitudes it is built from
// (|p| + |offset| + max |bone translation|, 1 for unit normals). The test allows 1e-5 of that
// scale: ten times the expected worst case, far below any formula error (a wrong weight, sign or
// order moves results by ≥ 1e-2 of the scale here).
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <span>
#include <vector>

#include "mmdkit/anim/bone_math.hpp"
#include "mmdkit/anim/pose.hpp"
#include "mmdkit/anim/skinning.hpp"

namespace mmdkit::anim {
namespace {

using V = SkinningData::VertexIn;
using D3 = std::array<double, 3>;
using DQ = std::array<double, 4>;

// ---- deterministic random numbers (no <random> distributions: their output is implementation-defined)
struct Rng {
  std::uint64_t s;
  std::uint32_t next() {
    s = s * 6364136223846793005ull + 1442695040888963407ull;
    return static_cast<std::uint32_t>(s >> 33);
  }
  float uniform(float lo, float hi) { return lo + (hi - lo) * static_cast<float>(next() % 1000001) / 1e6f; }
  std::uint32_t below(std::uint32_t n) { return next() % n; }
};

// ---- double-precision reference
DQ qnorm(DQ q) {
  const double l = std::sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
  return {q[0] / l, q[1] / l, q[2] / l, q[3] / l};
}
DQ qmul(const DQ& a, const DQ& b) {
  return {a[3] * b[0] + a[0] * b[3] + a[1] * b[2] - a[2] * b[1], a[3] * b[1] - a[0] * b[2] + a[1] * b[3] + a[2] * b[0],
          a[3] * b[2] + a[0] * b[1] - a[1] * b[0] + a[2] * b[3], a[3] * b[3] - a[0] * b[0] - a[1] * b[1] - a[2] * b[2]};
}
D3 qrot(const DQ& q, const D3& v) {
  const DQ r = qmul(qmul(q, {v[0], v[1], v[2], 0}), {-q[0], -q[1], -q[2], q[3]});
  return {r[0], r[1], r[2]};
}
DQ qslerp(DQ a, DQ b, double t) {
  a = qnorm(a);
  b = qnorm(b);
  double c = a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3];
  if (c < 0) {
    for (double& x : b) x = -x;
    c = -c;
  }
  double s0 = 1 - t, s1 = t;
  if (c < 1 - 1e-9) {
    const double th = std::acos(c);
    s0 = std::sin((1 - t) * th) / std::sin(th);
    s1 = std::sin(t * th) / std::sin(th);
  }
  return qnorm({s0 * a[0] + s1 * b[0], s0 * a[1] + s1 * b[1], s0 * a[2] + s1 * b[2], s0 * a[3] + s1 * b[3]});
}
D3 d3(const Vec3& v) { return {static_cast<double>(v[0]), static_cast<double>(v[1]), static_cast<double>(v[2])}; }
D3 add(const D3& a, const D3& b) { return {a[0] + b[0], a[1] + b[1], a[2] + b[2]}; }
D3 sub(const D3& a, const D3& b) { return {a[0] - b[0], a[1] - b[1], a[2] - b[2]}; }
D3 mul(const D3& a, double s) { return {a[0] * s, a[1] * s, a[2] * s}; }
double len(const D3& a) { return std::sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2]); }

struct Bone {
  DQ q;  // rotation
  D3 t;  // translation: x -> q x q* + t
};
D3 apply(const Bone& b, const D3& x) { return add(qrot(b.q, x), b.t); }

// Reference skinning of one vertex; bone slots outside [0, bones) are the identity.
void reference(const V& in, const Vec3& offset, const std::vector<Bone>& bones, D3& out_p, D3& out_n) {
  const Bone identity{{0, 0, 0, 1}, {0, 0, 0}};
  auto bone = [&](int k) -> const Bone& {
    const std::int32_t i = in.bones[static_cast<std::size_t>(k)];
    return i >= 0 && static_cast<std::size_t>(i) < bones.size() ? bones[static_cast<std::size_t>(i)] : identity;
  };
  const D3 p = add(d3(in.position), d3(offset)), n = d3(in.normal);
  std::array<double, 4> w{};
  switch (in.type) {
    case SkinType::bdef1: w = {1, 0, 0, 0}; break;
    case SkinType::bdef2:
    case SkinType::sdef: w = {static_cast<double>(in.weights[0]), 1.0 - static_cast<double>(in.weights[0]), 0,
        0}; break;
    default: for (int k = 0; k < 4; ++k) w[static_cast<std::size_t>(k)] = static_cast<double>(in.weights[static_cast<std::size_t>(k)]);
  }
  // The kernels compute w1 = 1 − w0 in float: use the same float value.
  if (in.type == SkinType::bdef2 || in.type == SkinType::sdef) w[1] = static_cast<double>(1.0f - in.weights[0]);
  if (w[0] == 0 && w[1] == 0 && w[2] == 0 && w[3] == 0) {
    out_p = p;
    out_n = n;
    return;
  }
  if (in.type == SkinType::sdef) {
    const D3 c = d3(in.sdef_c), r0 = d3(in.sdef_r0), r1 = d3(in.sdef_r1);
    const D3 rw = add(mul(r0, w[0]), mul(r1, w[1]));
    const D3 r0p = sub(add(c, r0), rw), r1p = sub(add(c, r1), rw);
    const D3 cr0 = mul(add(c, r0p), 0.5), cr1 = mul(add(c, r1p), 0.5);
    const DQ q = qslerp(bone(0).q, bone(1).q, w[1]);
    out_p = add(add(qrot(q, sub(p, c)), mul(apply(bone(0), cr0), w[0])), mul(apply(bone(1), cr1), w[1]));
    out_n = qrot(q, n);
    return;
  }
  if (in.type == SkinType::qdef) {
    DQ real{}, dual{};
    const DQ q0 = bone(0).q;
    for (int k = 0; k < 4; ++k) {
      const double wk = w[static_cast<std::size_t>(k)];
      if (wk == 0) continue;
      const Bone& b = bone(k);
      const DQ dk = qmul({b.t[0], b.t[1], b.t[2], 0}, b.q);  // 2 × dual part
      const double s = (b.q[0] * q0[0] + b.q[1] * q0[1] + b.q[2] * q0[2] + b.q[3] * q0[3]) < 0 ? -wk : wk;
      for (std::size_t i = 0; i < 4; ++i) {
        real[i] += s * b.q[i];
        dual[i] += s * 0.5 * dk[i];
      }
    }
    const double l = std::sqrt(real[0] * real[0] + real[1] * real[1] + real[2] * real[2] + real[3] * real[3]);
    for (std::size_t i = 0; i < 4; ++i) {
      real[i] /= l;
      dual[i] /= l;
    }
    const DQ tr = qmul(dual, {-real[0], -real[1], -real[2], real[3]});
    out_p = add(qrot(real, p), {2 * tr[0], 2 * tr[1], 2 * tr[2]});
    out_n = qrot(real, n);
    return;
  }
  D3 rp{}, rn{};
  for (int k = 0; k < 4; ++k) {
    const double wk = w[static_cast<std::size_t>(k)];
    rp = add(rp, mul(apply(bone(k), p), wk));
    rn = add(rn, mul(qrot(bone(k).q, n), wk));
  }
  if (w[0] != 1) {
    const double l = len(rn);
    rn = l > 1e-15 ? mul(rn, 1 / l) : n;
  }
  out_p = rp;
  out_n = rn;
}

// ---- the scene
struct Scene {
  std::vector<V> vertices;
  std::vector<Vec3> offsets;
  std::vector<Bone> bones;
  std::vector<Mat4> mats;
  std::vector<Quat> rots;
  double max_t = 0;
};

Scene random_scene(std::size_t count, std::uint64_t seed) {
  Rng rng{seed};
  Scene s;
  constexpr std::size_t kBones = 12;
  for (std::size_t b = 0; b < kBones; ++b) {
    const Quat q = quat_normalize({rng.uniform(-1, 1), rng.uniform(-1, 1), rng.uniform(-1, 1), rng.uniform(-1, 1)});
    const Vec3 t{rng.uniform(-5, 5), rng.uniform(-5, 5), rng.uniform(-5, 5)};
    s.rots.push_back(q);
    s.mats.push_back(rigid_matrix(q, t));
    // The reference uses the float matrices' own rotation and translation (the kernels' input).
    s.bones.push_back({{static_cast<double>(q[0]), static_cast<double>(q[1]), static_cast<double>(q[2]),
        static_cast<double>(q[3])}, d3(t)});
    s.max_t = std::max(s.max_t, len(d3(t)));
  }
  auto bone = [&] {
    const std::uint32_t r = rng.below(20);
    return r == 0 ? -1 : r == 1 ? 99 : static_cast<std::int32_t>(rng.below(kBones));
  };
  for (std::size_t v = 0; v < count; ++v) {
    V in;
    in.position = {rng.uniform(-10, 10), rng.uniform(-10, 10), rng.uniform(-10, 10)};
    const Vec3 n{rng.uniform(-1, 1), rng.uniform(-1, 1), rng.uniform(-1, 1) + 2};
    const float l = std::sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
    in.normal = {n[0] / l, n[1] / l, n[2] / l};
    // Runs of one type (as real models have) and single vertices of another inside them.
    const std::uint32_t r = rng.below(8);
    in.type = static_cast<SkinType>(r < 5 ? (v / 7) % 5 : rng.below(5));
    in.bones = {bone(), bone(), bone(), bone()};
    in.weights = {rng.uniform(0, 1), rng.uniform(0, 1), rng.uniform(0, 1), rng.uniform(0, 1)};
    switch (rng.below(10)) {
      case 0: in.weights[0] = 1; break;
      case 1: in.weights[0] = 0; break;
      case 2: in.weights[2] = 0; break;
      case 3: in.weights = {0, 0, 0, 0}; break;
      default: break;
    }
    in.sdef_c = {rng.uniform(-10, 10), rng.uniform(-10, 10), rng.uniform(-10, 10)};
    in.sdef_r0 = {rng.uniform(-10, 10), rng.uniform(-10, 10), rng.uniform(-10, 10)};
    in.sdef_r1 = {rng.uniform(-10, 10), rng.uniform(-10, 10), rng.uniform(-10, 10)};
    s.vertices.push_back(in);
    s.offsets.push_back({rng.uniform(-1, 1), rng.uniform(-1, 1), rng.uniform(-1, 1)});
  }
  return s;
}

std::vector<SkinKernelIsa> kernels() {
  std::vector<SkinKernelIsa> k{SkinKernelIsa::baseline};
  const SkinKernelIsa before = skin_kernel_isa();
  for (const SkinKernelIsa isa : {SkinKernelIsa::avx2_fma, SkinKernelIsa::avx512})
    if (set_skin_kernel_isa(isa) == isa) k.push_back(isa);
  set_skin_kernel_isa(before);
  return k;
}

struct IsaGuard {
  SkinKernelIsa saved = skin_kernel_isa();
  ~IsaGuard() { set_skin_kernel_isa(saved); }
};

const char* name(SkinKernelIsa k) {
  switch (k) {
    case SkinKernelIsa::baseline: return "baseline";
    case SkinKernelIsa::avx2_fma: return "avx2_fma";
    case SkinKernelIsa::avx512: return "avx512";
  }
  return "?";
}

TEST(SkinningKernel, EveryKernelMatchesTheDoubleReferenceOnRandomVerticesOfEveryType) {
  const Scene s = random_scene(5003, 20240611);
  auto d = SkinningData::create(s.vertices, s.bones.size());
  ASSERT_TRUE(d.has_value());
  ASSERT_TRUE(d->needs_rotations());
  IsaGuard guard;
  std::size_t per_type[5] = {};
  for (const V& in : s.vertices) ++per_type[static_cast<int>(in.type)];
  for (std::size_t t = 0; t < 5; ++t) EXPECT_GT(per_type[t], 500u) << t;

  for (const bool with_offsets : {false, true}) {
    std::vector<D3> ref_p(s.vertices.size()), ref_n(s.vertices.size());
    for (std::size_t v = 0; v < s.vertices.size(); ++v)
      reference(s.vertices[v], with_offsets ? s.offsets[v] : Vec3{0, 0, 0}, s.bones, ref_p[v], ref_n[v]);
    const std::span<const Vec3> off = with_offsets ? std::span<const Vec3>(s.offsets) : std::span<const Vec3>();
    for (const SkinKernelIsa k : kernels()) {
      ASSERT_EQ(set_skin_kernel_isa(k), k);
      SkinWorkspace ws(*d);
      std::vector<Vec3> p(s.vertices.size()), n(s.vertices.size());
      skin(*d, {s.mats, s.rots}, ws, off, p, n);
      double worst_p = 0, worst_n = 0;
      for (std::size_t v = 0; v < p.size(); ++v) {
        const V& in = s.vertices[v];
        const double scale = 1 + len(d3(in.position)) + (with_offsets ? len(d3(s.offsets[v])) : 0) + s.max_t +
                             (in.type == SkinType::sdef ? len(d3(in.sdef_c)) + len(d3(in.sdef_r0)) + len(d3(in.sdef_r1)) : 0);
        const double ep = len(sub(d3(p[v]), ref_p[v])) / scale;
        const double en = len(sub(d3(n[v]), ref_n[v]));
        worst_p = std::max(worst_p, ep);
        worst_n = std::max(worst_n, en);
        ASSERT_LE(ep, 1e-5) << name(k) << " vertex " << v << " type " << static_cast<int>(in.type);
        ASSERT_LE(en, 1e-5) << name(k) << " vertex " << v << " type " << static_cast<int>(in.type);
      }
      std::printf("[ kernel %s, offsets %d ] worst position error %.3g of scale, normal %.3g\n", name(k),
                  with_offsets ? 1 : 0, worst_p, worst_n);

      // The same kernel gives the same bytes over sub-ranges, on a pool, and with one output only.
      std::vector<Vec3> p2(p.size()), n2(p.size()), p3(p.size()), n3(p.size());
      for (std::size_t b = 0; b < p.size(); b += 37) skin_range(*d, ws, off, p2, n2, b, b + 37);
      EXPECT_EQ(std::memcmp(p.data(), p2.data(), p.size() * sizeof(Vec3)), 0) << name(k);
      EXPECT_EQ(std::memcmp(n.data(), n2.data(), n.size() * sizeof(Vec3)), 0) << name(k);
      ThreadPool pool(3);
      skin_parallel(pool, *d, {s.mats, s.rots}, ws, off, p3, {});
      skin_parallel(pool, *d, {s.mats, s.rots}, ws, off, {}, n3);
      EXPECT_EQ(std::memcmp(p.data(), p3.data(), p.size() * sizeof(Vec3)), 0) << name(k);
      EXPECT_EQ(std::memcmp(n.data(), n3.data(), n.size() * sizeof(Vec3)), 0) << name(k);
    }
  }
}

TEST(SkinningKernel, NormalRenormalizationRulesHoldInEveryKernel) {
  // Bone 0 identity, bone 1 a half turn about Z (exact matrix entries ±1): R1 (1,0,0) = (−1,0,0).
  const Quat half_turn{0, 0, 1, 0};
  const std::vector<Mat4> mats{rigid_matrix(kIdentityQuat, {0, 0, 0}), rigid_matrix(half_turn, {0, 0, 0})};
  const std::vector<Quat> rots{kIdentityQuat, half_turn};
  std::vector<V> vs(4);
  // BDEF2 0.5 / 0.5 of opposite normals: zero-length blend keeps the stored normal.
  vs[0].type = SkinType::bdef2;
  vs[0].bones = {0, 1, -1, -1};
  vs[0].weights = {0.5f, 0.5f, 0, 0};
  vs[0].normal = {1, 0, 0};
  // BDEF1 with a stored normal of length 2: rotated, not renormalized.
  vs[1].type = SkinType::bdef1;
  vs[1].bones = {1, -1, -1, -1};
  vs[1].weights = {1, 0, 0, 0};
  vs[1].normal = {2, 0, 0};
  // BDEF4 with w0 = 1 and another weight 0.5 (Σw = 1.5): w0 == 1, so not renormalized either.
  vs[2].type = SkinType::bdef4;
  vs[2].bones = {0, 0, -1, -1};
  vs[2].weights = {1, 0.5f, 0, 0};
  vs[2].normal = {0, 1, 0};
  // BDEF4 weights 0.25 + 0.25: the blended normal (length 0.5) is renormalized.
  vs[3].type = SkinType::bdef4;
  vs[3].bones = {0, 0, -1, -1};
  vs[3].weights = {0.25f, 0.25f, 0, 0};
  vs[3].normal = {0, 0, 1};
  auto d = SkinningData::create(vs, 2);
  ASSERT_TRUE(d.has_value());
  IsaGuard guard;
  for (const SkinKernelIsa k : kernels()) {
    set_skin_kernel_isa(k);
    SkinWorkspace ws(*d);
    std::vector<Vec3> p(vs.size()), n(vs.size());
    skin(*d, {mats, rots}, ws, {}, p, n);
    EXPECT_EQ(n[0], (Vec3{1, 0, 0})) << name(k);
    EXPECT_EQ(n[1], (Vec3{-2, 0, 0})) << name(k);
    EXPECT_EQ(n[2], (Vec3{0, 1.5f, 0})) << name(k);
    EXPECT_NEAR(n[3][2], 1.0f, 1e-6f) << name(k);
    EXPECT_EQ(n[3][0], 0.0f) << name(k);
  }
}

TEST(SkinningKernel, ZeroWeightSlotsOfLinearBlendsPointAtTheIdentitySlot) {
  // A zero-weight slot adds nothing even when that bone's matrix is not finite.
  std::vector<V> vs(1);
  vs[0].type = SkinType::bdef4;
  vs[0].position = {1, 2, 3};
  vs[0].bones = {0, 1, 0, 1};
  vs[0].weights = {1, 0, 0, 0};
  auto d = SkinningData::create(vs, 2);
  ASSERT_TRUE(d.has_value());
  EXPECT_EQ(d->bones()[0], (std::array<std::uint32_t, 4>{0, 2, 2, 2}));
  const float inf = std::numeric_limits<float>::infinity();
  Mat4 bad = rigid_matrix(kIdentityQuat, {0, 0, 0});
  bad[12] = inf;
  const std::vector<Mat4> mats{rigid_matrix(kIdentityQuat, {1, 0, 0}), bad};
  IsaGuard guard;
  for (const SkinKernelIsa k : kernels()) {
    set_skin_kernel_isa(k);
    SkinWorkspace ws(*d);
    std::vector<Vec3> p(1), n(1);
    skin(*d, {mats, {}}, ws, {}, p, n);
    EXPECT_EQ(p[0], (Vec3{2, 2, 3})) << name(k);
  }
}

// Each SIMD kernel against the baseline kernel (not the double reference): the same vertices of
// every type, with and without morph offsets, positions + normals, positions only, normals only,
// every range start and length 1–9 (the AVX-512 kernel's 4-vertex steps and their 1–3-vertex
// tails at every alignment; a range must not write outside itself: its 64-byte stores reach past
// the step), plus bones whose blend degenerates: a huge scale (|n|² overflows to
// inf, the stored normal is kept), a zero matrix (zero-length normal, kept) and NaN entries (NaN
// positions in both kernels, stored normal kept).
TEST(SkinningKernel, EverySimdKernelMatchesTheBaselineKernelInEveryVariantAndRange) {
  Scene s = random_scene(2011, 777);
  const std::size_t nb = s.mats.size();
  Mat4 huge = s.mats[0], zero{}, nan = s.mats[1];
  for (int i = 0; i < 16; ++i)
    if (i % 4 != 3) huge[static_cast<std::size_t>(i)] *= 1e20f;
  nan[5] = std::numeric_limits<float>::quiet_NaN();
  s.mats.push_back(huge);
  s.mats.push_back(zero);
  s.mats.push_back(nan);
  s.rots.push_back(s.rots[0]);
  s.rots.push_back(kIdentityQuat);
  s.rots.push_back(s.rots[1]);
  for (std::size_t v = 0; v < s.vertices.size(); v += 11) {  // BDEF2 0.5 / 0.5 on one degenerate bone
    V& in = s.vertices[v];
    in.type = SkinType::bdef2;
    in.bones = {static_cast<std::int32_t>(nb + (v / 11) % 3), static_cast<std::int32_t>(nb + (v / 11) % 3), -1, -1};
    in.weights = {0.5f, 0.5f, 0, 0};
  }
  auto d = SkinningData::create(s.vertices, s.mats.size());
  ASSERT_TRUE(d.has_value());
  IsaGuard guard;
  const std::size_t n = s.vertices.size();
  auto close = [](const Vec3& got, const Vec3& want, double scale) {
    for (int i = 0; i < 3; ++i) {
      const double g = got[static_cast<std::size_t>(i)], w = want[static_cast<std::size_t>(i)];
      if (std::isnan(w) != std::isnan(g)) return false;
      if (!std::isnan(w) && std::abs(g - w) > 1e-5 * scale) return false;
    }
    return true;
  };
  std::size_t checked = 0, kept_stored = 0;
  for (const bool with_offsets : {false, true}) {
    const std::span<const Vec3> off = with_offsets ? std::span<const Vec3>(s.offsets) : std::span<const Vec3>();
    ASSERT_EQ(set_skin_kernel_isa(SkinKernelIsa::baseline), SkinKernelIsa::baseline);
    SkinWorkspace ws(*d);
    ASSERT_TRUE(prepare_skin(*d, {s.mats, s.rots}, ws).has_value());
    std::vector<Vec3> bp(n), bn(n);
    skin_range(*d, ws, off, bp, bn, 0, n);
    for (std::size_t v = 0; v < n; v += 11) kept_stored += bn[v] == d->bind_normals()[v];
    for (const SkinKernelIsa k : kernels()) {
      if (k == SkinKernelIsa::baseline) continue;
      ASSERT_EQ(set_skin_kernel_isa(k), k);
      // 0 = positions and normals, 1 = positions only, 2 = normals only.
      for (int variant = 0; variant < 3; ++variant) {
        const Vec3 sentinel{-7.5f, 123.25f, 9e9f};
        std::vector<Vec3> p(n, sentinel), nn(n, sentinel);
        const std::span<Vec3> sp = variant == 2 ? std::span<Vec3>() : std::span<Vec3>(p);
        const std::span<Vec3> sn = variant == 1 ? std::span<Vec3>() : std::span<Vec3>(nn);
        // Ranges of length 1, 2, …, 9, 1, … from 0: every start alignment and tail length.
        for (std::size_t b = 0, len = 1; b < n; b += len, len = len % 9 + 1) skin_range(*d, ws, off, sp, sn, b, b + len);
        for (std::size_t v = 0; v < n; ++v) {
          const double scale = 1 + std::max({std::abs(bp[v][0]), std::abs(bp[v][1]), std::abs(bp[v][2])});
          if (variant != 2) {
            ASSERT_TRUE(close(p[v], bp[v], scale)) << name(k) << " variant " << variant << " offsets " << with_offsets
                                                    << " vertex " << v << " position " << p[v][0] << " " << p[v][1]
                                                    << " " << p[v][2] << " baseline " << bp[v][0] << " " << bp[v][1]
                                                    << " " << bp[v][2];
          } else {
            ASSERT_EQ(p[v], sentinel) << name(k) << " vertex " << v;
          }
          if (variant != 1) {
            ASSERT_TRUE(close(nn[v], bn[v], 1)) << name(k) << " variant " << variant << " offsets " << with_offsets
                                                << " vertex " << v << " normal " << nn[v][0] << " " << nn[v][1] << " "
                                                << nn[v][2] << " baseline " << bn[v][0] << " " << bn[v][1] << " "
                                                << bn[v][2];
          } else {
            ASSERT_EQ(nn[v], sentinel) << name(k) << " vertex " << v;
          }
          ++checked;
        }
        // A range writes its own vertices only: the outputs before and after it keep the sentinel.
        for (const std::size_t b : {std::size_t{0}, std::size_t{1}, std::size_t{2}, std::size_t{3}, std::size_t{1000}, n - 9})
          for (std::size_t len = 1; len <= 9; ++len) {
            std::fill(p.begin(), p.end(), sentinel);
            std::fill(nn.begin(), nn.end(), sentinel);
            skin_range(*d, ws, off, sp, sn, b, b + len);
            for (std::size_t v = 0; v < n; ++v) {
              const bool inside = v >= b && v < b + len;
              ASSERT_EQ(p[v] == sentinel, !inside || variant == 2) << name(k) << " range " << b << "+" << len << " vertex " << v;
              ASSERT_EQ(nn[v] == sentinel, !inside || variant == 1) << name(k) << " range " << b << "+" << len << " vertex " << v;
            }
          }
      }
    }
  }
  // The degenerate bones did take the "keep the stored normal" path (huge, zero and NaN: all 3).
  EXPECT_EQ(kept_stored, 2 * ((n + 10) / 11));
  if (kernels().size() > 1) {
    EXPECT_EQ(checked, 2 * 3 * (kernels().size() - 1) * n);
  }
}

TEST(SkinningKernel, SelectingAKernelReportsTheOneInUse) {
  IsaGuard guard;
  EXPECT_EQ(set_skin_kernel_isa(SkinKernelIsa::baseline), SkinKernelIsa::baseline);
  EXPECT_EQ(skin_kernel_isa(), SkinKernelIsa::baseline);
  const SkinKernelIsa got = set_skin_kernel_isa(SkinKernelIsa::avx2_fma);
  EXPECT_EQ(skin_kernel_isa(), got);
  const SkinKernelIsa got512 = set_skin_kernel_isa(SkinKernelIsa::avx512);
  EXPECT_EQ(skin_kernel_isa(), got512);
#if defined(__x86_64__)
  const bool avx2 = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
  EXPECT_EQ(got, avx2 ? SkinKernelIsa::avx2_fma : SkinKernelIsa::baseline);
  EXPECT_EQ(got512, __builtin_cpu_supports("avx512f") ? SkinKernelIsa::avx512 : got);
#else
  EXPECT_EQ(got, SkinKernelIsa::baseline);
  EXPECT_EQ(got512, SkinKernelIsa::baseline);
#endif
}

}  // namespace
}  // namespace mmdkit::anim
