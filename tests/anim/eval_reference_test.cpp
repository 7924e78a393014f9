// The optimised bone evaluation (src/anim/pose.cpp, ik.cpp: 4-lane quaternion maths, chains
// solved on local copies with only the transforms a link's turn changes, vectorised matrices)
// against a plain scalar evaluation written from docs/EVALUATION-BONES.md: every bone of the
// schedule with its append, and CCD IK that re-evaluates the WHOLE path below a link after each
// turn, like the description says; final matrices by rigid_matrix. The float operations of each
// formula are the documented ones in the documented order (quaternion product and rotation as in
// src/anim/pose_internal.hpp's comments), so the two must agree BIT FOR BIT: any skipped update
// that was needed, stale value, reordered sum or dropped signed zero shows up here. Cases: random
// PMX and PMD skeletons (branching paths, links off the effector's ancestry, parents outside the
// path, append bones on the path, every kind of limit, zero unit angles, bone morph offsets, IK
// switched off) and, with the corpus, every frame of miku_v2 + wavefile_v2, mei + mei_greeting and
// サンプルモデル.pmx + サンプルモーション2 (every 7th frame). Sampling: MotionSampler frame by
// frame (its cursors) against sample_bone with a fresh cursor for each track and frame. Every case
// runs on each build of the evaluation the CPU can run (EvalIsa: baseline, AVX).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <numbers>
#include <random>
#include <string>
#include <vector>

#include "mmdkit/anim/bone_math.hpp"
#include "mmdkit/anim/eval_isa.hpp"
#include "mmdkit/anim/motion_sampler.hpp"
#include "mmdkit/anim/pose.hpp"
#include "mmdkit/anim/skeleton.hpp"
#include "mmdkit/formats/vmd.hpp"
#include "mmdkit/model/model.hpp"
#include "support/corpus.hpp"

namespace mmdkit::anim {
namespace {

// --- scalar maths (the documented formulas, left to right) ---------------------------------

Quat qmul(const Quat& a, const Quat& b) {
  const float ax = a[0], ay = a[1], az = a[2], aw = a[3], bx = b[0], by = b[1], bz = b[2], bw = b[3];
  return {aw * bx + ax * bw + ay * bz - az * by, aw * by - ax * bz + ay * bw + az * bx,
          aw * bz + ax * by - ay * bx + az * bw, aw * bw - ax * bx - ay * by - az * bz};
}
Quat qconj(const Quat& q) { return {-q[0], -q[1], -q[2], q[3]}; }
// v + 2w(u × v) + 2u × (u × v): t = 2(u × v), result = (v + w·t) + u × t.
Vec3 qrot(const Quat& q, const Vec3& v) {
  const float x = q[0], y = q[1], z = q[2], w = q[3];
  const float t0 = 2.0f * (y * v[2] - z * v[1]), t1 = 2.0f * (z * v[0] - x * v[2]), t2 = 2.0f * (x * v[1] - y * v[0]);
  return {(v[0] + w * t0) + (y * t2 - z * t1), (v[1] + w * t1) + (z * t0 - x * t2), (v[2] + w * t2) + (x * t1 - y * t0)};
}
Vec3 vadd(const Vec3& a, const Vec3& b) { return {a[0] + b[0], a[1] + b[1], a[2] + b[2]}; }
Vec3 vsub(const Vec3& a, const Vec3& b) { return {a[0] - b[0], a[1] - b[1], a[2] - b[2]}; }
Vec3 vscale(const Vec3& a, float s) { return {a[0] * s, a[1] * s, a[2] * s}; }
float vdot(const Vec3& a, const Vec3& b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }
Vec3 vcross(const Vec3& a, const Vec3& b) {
  return {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
}
Quat axis_angle(const Vec3& a, float angle) {
  const float h = 0.5f * angle, s = std::sin(h);
  return {a[0] * s, a[1] * s, a[2] * s, std::cos(h)};
}

// --- limits (docs "IK", limits) ----------------------------------------------------------------

float limit_angle(float angle, float lo, float hi, bool use_axis) {
  if (angle < lo) {
    const float diff = 2.0f * lo - angle;
    return (diff <= hi && use_axis) ? diff : lo;
  }
  if (angle > hi) {
    const float diff = 2.0f * hi - angle;
    return (diff >= lo && use_axis) ? diff : hi;
  }
  return angle;
}

Quat limit_euler(const IkLink& link, const Quat& q, bool use_axis) {
  const Mat4 m = rigid_matrix(q, Vec3{});
  const float th = 88.0f * std::numbers::pi_v<float> / 180.0f;
  float rx = 0, ry = 0, rz = 0;
  auto inv_cos = [](float a) {
    float c = std::cos(a);
    return c != 0.0f ? 1.0f / c : c;
  };
  if (link.order == IkEulerOrder::yxz) {
    rx = std::clamp(std::asin(std::clamp(-m[9], -1.0f, 1.0f)), -th, th);
    const float c = inv_cos(rx);
    ry = std::atan2(m[8] * c, m[10] * c);
    rz = std::atan2(m[1] * c, m[5] * c);
  } else if (link.order == IkEulerOrder::zyx) {
    ry = std::clamp(std::asin(std::clamp(-m[2], -1.0f, 1.0f)), -th, th);
    const float c = inv_cos(ry);
    rx = std::atan2(m[6] * c, m[10] * c);
    rz = std::atan2(m[1] * c, m[0] * c);
  } else {
    rz = std::clamp(std::asin(std::clamp(-m[4], -1.0f, 1.0f)), -th, th);
    const float c = inv_cos(rz);
    rx = std::atan2(m[6] * c, m[5] * c);
    ry = std::atan2(m[8] * c, m[0] * c);
  }
  rx = limit_angle(rx, link.lower[0], link.upper[0], use_axis);
  ry = limit_angle(ry, link.lower[1], link.upper[1], use_axis);
  rz = limit_angle(rz, link.lower[2], link.upper[2], use_axis);
  const Quat qx = axis_angle({1, 0, 0}, rx), qy = axis_angle({0, 1, 0}, ry), qz = axis_angle({0, 0, 1}, rz);
  if (link.order == IkEulerOrder::yxz) return qmul(qmul(qy, qx), qz);
  if (link.order == IkEulerOrder::zyx) return qmul(qmul(qz, qy), qx);
  return qmul(qmul(qx, qz), qy);
}

// sin, cos of half of atan2(a, b) by the half-angle identities (docs "IK").
void half_angle(float a, float b, float& hs, float& hc) {
  const float r = std::sqrt(a * a + b * b);
  if (!(r > 0.0f)) {
    hs = r == 0.0f ? 0.0f : r;
    hc = 1.0f;
  } else if (b >= 0.0f) {
    hc = std::sqrt((r + b) / (2.0f * r));
    hs = a / (2.0f * r * hc);
  } else {
    hs = std::copysign(std::sqrt((r - b) / (2.0f * r)), a);
    hc = a / (2.0f * r * hs);
  }
}

Quat limit_one_axis(const IkLink& link, const Quat& q, bool use_axis) {
  const float x = q[0], y = q[1], z = q[2], w = q[3];
  float a = 0.0f, b = 1.0f;
  std::size_t axis = 0;
  if (link.axis == IkSolveAxis::x) {
    if (link.order == IkEulerOrder::zyx) {
      a = 2.0f * (y * z + w * x);
      b = 1.0f - 2.0f * (x * x + y * y);
    } else {
      const float th = 88.0f * std::numbers::pi_v<float> / 180.0f;
      const float sin_t = std::sin(th), cos_t = std::cos(th);
      const float s = std::clamp(-(2.0f * (y * z - w * x)), -1.0f, 1.0f);
      if (s > sin_t) {
        a = sin_t;
        b = cos_t;
      } else if (s < -sin_t) {
        a = -sin_t;
        b = cos_t;
      } else {
        a = s;
        b = std::sqrt(1.0f - s * s);
      }
    }
  } else if (link.axis == IkSolveAxis::y) {
    axis = 1;
    a = 2.0f * (x * z + w * y);
    b = 1.0f - 2.0f * (x * x + y * y);
  } else {
    axis = 2;
    a = 2.0f * (x * y + w * z);
    b = 1.0f - 2.0f * (x * x + z * z);
  }
  float hs, hc;
  half_angle(a, b, hs, hc);
  const IkAxisLimit& k = link.axis_limit;
  if (hs < k.lo_half_sin) {
    if (use_axis && hs >= k.reflect_lo_half_sin) {
      const float s2 = k.lo_sin * hc - k.lo_cos * hs, c2 = k.lo_cos * hc + k.lo_sin * hs;
      hs = s2;
      hc = c2;
    } else {
      hs = k.lo_half_sin;
      hc = k.lo_half_cos;
    }
  } else if (hs > k.hi_half_sin) {
    if (use_axis && hs <= k.reflect_hi_half_sin) {
      const float s2 = k.hi_sin * hc - k.hi_cos * hs, c2 = k.hi_cos * hc + k.hi_sin * hs;
      hs = s2;
      hc = c2;
    } else {
      hs = k.hi_half_sin;
      hc = k.hi_half_cos;
    }
  }
  Quat r{0.0f, 0.0f, 0.0f, hc};
  r[axis] = hs;
  return r;
}

// --- the straightforward evaluator ---------------------------------------------------------------

struct Ref {
  const Skeleton& s;
  std::vector<Quat> anim_rot, append_rot, ik_rot, local_rot, model_rot;
  std::vector<Vec3> anim_pos, append_pos, local_pos, model_pos;
  std::vector<Mat4> model_mat, skin_mat;

  explicit Ref(const Skeleton& sk) : s(sk) {}

  void model_from_local(std::size_t i) {
    const std::int32_t p = s.parents()[i];
    if (p < 0) {
      model_rot[i] = local_rot[i];
      model_pos[i] = local_pos[i];
    } else {
      const auto pi = static_cast<std::size_t>(p);
      model_rot[i] = qmul(model_rot[pi], local_rot[i]);
      model_pos[i] = vadd(model_pos[pi], qrot(model_rot[pi], local_pos[i]));
    }
  }

  void update_bone(std::size_t i) {
    Quat r = anim_rot[i];
    Vec3 t = anim_pos[i];
    const BoneDesc& d = s.desc(i);
    if (d.append_rotation || d.append_translation) {
      const auto src = static_cast<std::size_t>(d.append_source);
      const BoneDesc& sd = s.desc(src);
      if (d.append_rotation) {
        Quat a = d.append_local ? model_rot[src] : qmul(ik_rot[src], sd.append_rotation ? append_rot[src] : anim_rot[src]);
        if (d.append_ratio != 1.0f) a = quat_slerp(kIdentityQuat, a, d.append_ratio);
        r = qmul(r, a);
      }
      if (d.append_translation) {
        Vec3 p = d.append_local ? vsub(model_pos[src], s.bind_positions()[src])
                                : (sd.append_translation ? append_pos[src] : anim_pos[src]);
        if (d.append_ratio != 1.0f) p = vscale(p, d.append_ratio);
        t = vadd(p, t);
      }
    }
    append_rot[i] = r;
    append_pos[i] = t;
    local_rot[i] = qmul(ik_rot[i], r);
    local_pos[i] = vadd(s.bind_offsets()[i], t);
    model_from_local(i);
  }

  // One CCD step (docs "IK" 2.): false when the link is skipped.
  bool ccd_step(const IkSolver& sv, const IkLink& link, std::size_t c, bool use_axis, std::uint32_t eff,
                const Vec3& goal) {
    const std::uint32_t lb = link.bone;
    const std::int32_t parent = s.parents()[lb];
    const Quat parent_rot = parent < 0 ? kIdentityQuat : model_rot[static_cast<std::size_t>(parent)];
    const Vec3 e = vsub(model_pos[lb], model_pos[eff]), g = vsub(model_pos[lb], goal);
    const Vec3 cr = vcross(e, g);
    const float cr2 = vdot(cr, cr);
    const float n2 = vdot(e, e) * vdot(g, g);
    if (!(cr2 >= 1.0e-8f * n2) || n2 == 0.0f) return false;
    const float cl = std::sqrt(cr2), dt = vdot(e, g);
    Vec3 axis = vscale(cr, 1.0f / cl);
    if (link.has_limits && use_axis && link.axis != IkSolveAxis::none) {
      const Vec3 unit = link.axis == IkSolveAxis::x ? Vec3{1, 0, 0} : link.axis == IkSolveAxis::y ? Vec3{0, 1, 0} : Vec3{0, 0, 1};
      axis = vscale(unit, vdot(axis, qrot(parent_rot, unit)) >= 0.0f ? 1.0f : -1.0f);
    } else {
      axis = qrot(qconj(parent_rot), axis);
      const float l2 = vdot(axis, axis);
      if (l2 > 0.0f) axis = vscale(axis, 1.0f / std::sqrt(l2));
    }
    float hs, hc;
    if (link.cap_half_valid) {
      const float nn = std::sqrt(n2);
      if (dt >= 0.0f) {
        hc = std::sqrt((nn + dt) / (2.0f * nn));
        hs = cl / (2.0f * nn * hc);
      } else {
        hs = std::sqrt((nn - dt) / (2.0f * nn));
        hc = cl / (2.0f * nn * hs);
      }
      if (hc < link.cap_half_cos) {
        hs = link.cap_half_sin;
        hc = link.cap_half_cos;
      }
    } else {
      const float angle = std::min(sv.unit_angle * static_cast<float>(c + 1), std::atan2(cl, dt));
      hs = std::sin(0.5f * angle);
      hc = std::cos(0.5f * angle);
    }
    Quat out = qmul({axis[0] * hs, axis[1] * hs, axis[2] * hs, hc}, ik_rot[lb]);
    if (link.has_limits) {
      const Quat q = qmul(out, append_rot[lb]);
      const Quat limited = link.axis_limit_valid ? limit_one_axis(link, q, use_axis) : limit_euler(link, q, use_axis);
      out = qmul(limited, qconj(append_rot[lb]));
    }
    ik_rot[lb] = out;
    return true;
  }

  void solve_ik(std::size_t k) {
    const IkSolver& sv = s.solvers()[k];
    const auto links = s.ik_links().subspan(sv.link_begin, sv.link_end - sv.link_begin);
    const auto path = s.ik_bone_lists().subspan(sv.path_begin, sv.path_end - sv.path_begin);
    const auto refresh = s.ik_bone_lists().subspan(sv.refresh_begin, sv.refresh_end - sv.refresh_begin);
    if (links.empty()) return;
    for (const IkLink& l : links) ik_rot[l.bone] = kIdentityQuat;
    const Vec3 goal = model_pos[sv.bone];
    auto reached = [&] {
      const Vec3 d = vsub(goal, model_pos[sv.effector]);
      return vdot(d, d) < 1.0e-8f;
    };
    update_bone(sv.effector);
    if (reached()) return;
    for (std::uint32_t b : path) update_bone(b);
    if (reached()) return;
    for (std::uint32_t it = 0; it < sv.iterations; ++it) {
      for (std::size_t c = 0; c < links.size(); ++c) {
        const IkLink& link = links[c];
        if (link.axis == IkSolveAxis::fixed) continue;
        if (!ccd_step(sv, link, c, it < sv.iterations / 2, sv.effector, goal)) continue;
        // The whole path below (and including) the link again, parent-first.
        for (std::size_t j = link.path_index; j < path.size(); ++j) {
          const std::uint32_t b = path[j];
          const BoneDesc& bd = s.desc(b);
          if (b == link.bone) {
            local_rot[b] = qmul(ik_rot[b], append_rot[b]);
            model_from_local(b);
          } else if (bd.append_rotation || bd.append_translation) {
            update_bone(b);
          } else {
            model_from_local(b);
          }
        }
      }
      if (reached()) break;
    }
    for (std::uint32_t b : refresh) update_bone(b);
  }

  void evaluate(const PoseInput& in) {
    const std::size_t n = s.bone_count();
    anim_rot.assign(n, kIdentityQuat);
    append_rot = ik_rot = local_rot = model_rot = anim_rot;
    anim_pos.assign(n, Vec3{});
    append_pos = local_pos = model_pos = anim_pos;
    for (std::size_t i = 0; i < n; ++i) {
      Quat r = i < in.local.size() ? in.local[i].rotation : kIdentityQuat;
      Vec3 t = i < in.local.size() ? in.local[i].translation : Vec3{};
      if (s.desc(i).has_fixed_axis) r = project_to_axis(r, s.desc(i).fixed_axis);
      if (i < in.morph.size()) {
        r = qmul(in.morph[i].rotation, r);
        t = vadd(t, in.morph[i].translation);
      }
      anim_rot[i] = r;
      anim_pos[i] = t;
    }
    for (auto steps : {s.schedule_before_physics(), s.schedule_after_physics()})
      for (const ScheduleStep& st : steps) {
        if (st.kind == ScheduleStep::bone)
          update_bone(st.index);
        else if (!(st.index < in.ik_enabled.size() && in.ik_enabled[st.index] == 0))
          solve_ik(st.index);
      }
    model_mat.resize(n);
    skin_mat.resize(n);
    for (std::size_t i = 0; i < n; ++i) {
      model_mat[i] = rigid_matrix(model_rot[i], model_pos[i]);
      skin_mat[i] = model_mat[i];
      const Vec3 rb = qrot(model_rot[i], s.bind_positions()[i]);
      skin_mat[i][12] = model_pos[i][0] - rb[0];
      skin_mat[i][13] = model_pos[i][1] - rb[1];
      skin_mat[i][14] = model_pos[i][2] - rb[2];
    }
  }
};

template <class T>
bool same_bits(std::span<const T> a, const std::vector<T>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0;
}

// Evaluates both ways and compares every output bit for bit; returns the number of differing arrays.
int compare(const Skeleton& sk, const PoseInput& in, PoseWorkspace& ws, Ref& ref, const std::string& what) {
  EXPECT_TRUE(evaluate(sk, in, ws));
  ref.evaluate(in);
  int bad = 0;
  auto check = [&](bool ok, const char* name) {
    if (!ok) {
      ++bad;
      ADD_FAILURE() << what << ": " << name << " differ from the straightforward evaluation";
    }
  };
  check(same_bits(ws.model_rotations(), ref.model_rot), "model rotations");
  check(same_bits(ws.model_positions(), ref.model_pos), "model positions");
  check(same_bits(ws.model_matrices(), ref.model_mat), "model matrices");
  check(same_bits(ws.skinning_matrices(), ref.skin_mat), "skinning matrices");
  check(same_bits(ws.ik_rotations(), ref.ik_rot), "IK rotations");
  check(same_bits(ws.local_rotations(), ref.local_rot), "local rotations");
  check(same_bits(ws.local_translations(), ref.local_pos), "local translations");
  return bad;
}

// Poses of one skeleton evaluated together (evaluate_frames, in passes of kMaxFrameBatch) against
// each evaluated alone: every output the same bits. Poses are copied in add(); run() takes them
// `together` at a time (1 .. any; more than kMaxFrameBatch tests the passes).
struct FramesCheck {
  std::vector<std::vector<BonePose>> local;
  std::vector<std::vector<BoneMorphOffset>> morph;
  std::vector<std::vector<std::uint8_t>> ik;
  void add(const PoseInput& in) {
    local.emplace_back(in.local.begin(), in.local.end());
    morph.emplace_back(in.morph.begin(), in.morph.end());
    ik.emplace_back(in.ik_enabled.begin(), in.ik_enabled.end());
  }
  int run(const Skeleton& sk, std::size_t together, const std::string& what) const {
    const std::size_t n = local.size();
    std::vector<PoseWorkspace> alone, both;
    std::vector<PoseInput> in;
    std::vector<PoseWorkspace*> ws;
    for (std::size_t i = 0; i < n; ++i) {
      alone.emplace_back(sk);
      both.emplace_back(sk);
      in.push_back({local[i], morph[i], ik[i]});
    }
    for (std::size_t i = 0; i < n; ++i) {
      EXPECT_TRUE(evaluate(sk, in[i], alone[i]));
      ws.push_back(&both[i]);
    }
    for (std::size_t i = 0; i < n; i += together) {
      const std::size_t k = std::min(together, n - i);
      EXPECT_TRUE(evaluate_frames(sk, std::span(in).subspan(i, k), std::span(ws).subspan(i, k)));
    }
    int bad = 0;
    for (std::size_t i = 0; i < n; ++i) {
      auto check = [&](auto a, auto b, const char* name) {
        if (a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size_bytes()) == 0) return;
        ++bad;
        ADD_FAILURE() << what << ", pose " << i << " of " << n << ", " << together << " together: " << name
                      << " differ from the pose evaluated alone";
      };
      check(both[i].model_rotations(), alone[i].model_rotations(), "model rotations");
      check(both[i].model_positions(), alone[i].model_positions(), "model positions");
      check(both[i].model_matrices(), alone[i].model_matrices(), "model matrices");
      check(both[i].skinning_matrices(), alone[i].skinning_matrices(), "skinning matrices");
      check(both[i].ik_rotations(), alone[i].ik_rotations(), "IK rotations");
      check(both[i].local_rotations(), alone[i].local_rotations(), "local rotations");
      check(both[i].local_translations(), alone[i].local_translations(), "local translations");
    }
    return bad;
  }
};

// Runs `body` once per evaluation build the CPU can run (EvalIsa), restoring the one in use.
template <class F>
void for_each_isa(F body) {
  const EvalIsa saved = eval_isa();
  for (EvalIsa isa : {EvalIsa::baseline, EvalIsa::avx}) {
    if (set_eval_isa(isa) != isa) continue;  // not on this CPU
    SCOPED_TRACE(isa == EvalIsa::avx ? "avx build" : "baseline build");
    body();
  }
  set_eval_isa(saved);
}

// --- random skeletons ----------------------------------------------------------------------------

struct Rng {
  std::mt19937 g;
  explicit Rng(unsigned seed) : g(seed) {}
  float uni(float lo, float hi) { return std::uniform_real_distribution<float>(lo, hi)(g); }
  int pick(int n) { return std::uniform_int_distribution<int>(0, n - 1)(g); }
  bool chance(float p) { return uni(0.0f, 1.0f) < p; }
  Quat rot(float max_angle) {
    Vec3 a{uni(-1, 1), uni(-1, 1), uni(-1, 1)};
    const float l = std::sqrt(vdot(a, a));
    if (l < 1e-3f) return kIdentityQuat;
    return quat_normalize(axis_angle(vscale(a, 1.0f / l), uni(-max_angle, max_angle)));
  }
};

SkeletonDesc random_skeleton(Rng& r, OrderRule rule) {
  SkeletonDesc d;
  d.rule = rule;
  const int n = 8 + r.pick(24);
  d.bones.resize(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) {
    BoneDesc& b = d.bones[static_cast<std::size_t>(i)];
    b.name = "b" + std::to_string(i);
    b.parent = i == 0 ? kNoBone : (r.chance(0.75f) ? i - 1 : r.pick(i));
    if (i > 2 && r.chance(0.05f)) b.parent = kNoBone;  // a second root
    const Vec3 pp = b.parent < 0 ? Vec3{} : d.bones[static_cast<std::size_t>(b.parent)].position;
    b.position = vadd(pp, {r.uni(-1, 1), r.uni(0.2f, 2), r.uni(-1, 1)});
    if (rule == OrderRule::pmx) {
      b.deform_layer = r.chance(0.2f) ? r.pick(3) : 0;
      b.after_physics = r.chance(0.1f);
    }
    if (i > 0 && r.chance(0.2f)) {
      b.append_source = r.pick(n);
      if (b.append_source == i) b.append_source = 0;
      b.append_ratio = r.chance(0.3f) ? 1.0f : r.uni(-1.0f, 1.0f);
      b.append_rotation = r.chance(0.8f);
      b.append_translation = r.chance(0.4f);
      b.append_local = r.chance(0.25f);
    }
    if (r.chance(0.1f)) {
      b.has_fixed_axis = true;
      b.fixed_axis = {r.uni(-1, 1), r.uni(-1, 1), r.uni(-1, 1)};
    }
  }
  // IK: effectors at the end of ancestor chains, links upward, occasionally a link that is not an
  // ancestor of the effector.
  const int iks = 1 + r.pick(4);
  for (int k = 0; k < iks; ++k) {
    const int ikb = r.pick(n);
    const int eff = r.pick(n);
    if (eff == ikb) continue;
    BoneDesc& b = d.bones[static_cast<std::size_t>(ikb)];
    if (b.ik_effector != kNoBone) continue;
    b.ik_effector = eff;
    b.ik_iterations = static_cast<std::uint32_t>(1 + r.pick(40));
    b.ik_unit_angle = r.chance(0.1f) ? 0.0f : r.uni(0.05f, 4.0f);
    b.ik_file_order = k;
    int x = d.bones[static_cast<std::size_t>(eff)].parent;
    const int count = 1 + r.pick(5);
    for (int c = 0; c < count && x != kNoBone; ++c) {
      IkLinkDesc l;
      l.bone = r.chance(0.07f) ? r.pick(n) : x;
      const int kind = r.pick(7);
      if (kind >= 1) {
        l.has_limits = true;
        const float pi = std::numbers::pi_v<float>;
        if (kind == 1) {  // knee: X only
          l.lower = {-pi, 0, 0};
          l.upper = {-0.0087f, 0, 0};
        } else if (kind == 2) {
          l.lower = {r.uni(-1.5f, 0), 0, 0};
          l.upper = {r.uni(0, 1.5f), 0, 0};
        } else if (kind == 3) {
          l.lower = {0, r.uni(-pi, 0), 0};
          l.upper = {0, r.uni(0, pi), 0};
        } else if (kind == 4) {
          l.lower = {0, 0, r.uni(-pi, 0)};
          l.upper = {0, 0, r.uni(0, pi)};
        } else if (kind == 5) {
          l.lower = {r.uni(-1.5f, 0), r.uni(-2, 0), r.uni(-2, 0)};
          l.upper = {r.uni(0, 1.5f), r.uni(0, 2), r.uni(0, 2)};
        } else {  // all zero: a fixed link
          l.lower = l.upper = {0, 0, 0};
        }
      }
      b.ik_links.push_back(l);
      x = d.bones[static_cast<std::size_t>(x)].parent;
    }
  }
  return d;
}

// Appends bone "bN" under `parent` (kNoBone: a root), `off` from the parent's position; its index.
std::int32_t add_bone(SkeletonDesc& d, std::int32_t parent, Vec3 off) {
  BoneDesc b;
  b.name = "b" + std::to_string(d.bones.size());
  b.parent = parent;
  const Vec3 pp = parent < 0 ? Vec3{} : d.bones[static_cast<std::size_t>(parent)].position;
  b.position = vadd(pp, off);
  d.bones.push_back(b);
  return static_cast<std::int32_t>(d.bones.size() - 1);
}

// Several limbs with their own IK chains (IkGroup candidates): a spine from the root, limbs of
// 2..5 bones hanging from the root or a spine bone, each with an IK bone (under the root, a spine
// bone or, sometimes, another limb) and links up the limb (sometimes reaching into the spine, or a
// child bone below a link, like toes); bones that append from a link (follow bones: refreshed
// after the solve); in PMX bones with random deform layers between the IK steps, some of them
// below a limb.
SkeletonDesc random_limbs(Rng& r, OrderRule rule) {
  SkeletonDesc d;
  d.rule = rule;
  auto add = [&](std::int32_t parent, Vec3 off) {
    const std::int32_t i = add_bone(d, parent, off);
    if (rule == OrderRule::pmx && r.chance(0.3f)) d.bones[static_cast<std::size_t>(i)].deform_layer = r.pick(2);
    return i;
  };
  auto off = [&] { return Vec3{r.uni(-1, 1), r.uni(-2, -0.3f), r.uni(-1, 1)}; };
  std::vector<std::int32_t> spine{add(kNoBone, {0, 5, 0})};
  for (int i = 0, ns = r.pick(3); i < ns; ++i) spine.push_back(add(spine.back(), {r.uni(-0.2f, 0.2f), 1, 0}));
  struct Limb {
    std::vector<std::int32_t> bones;
  };
  std::vector<Limb> limbs(static_cast<std::size_t>(2 + r.pick(4)));
  for (Limb& l : limbs) {
    std::int32_t p = spine[static_cast<std::size_t>(r.pick(static_cast<int>(spine.size())))];
    for (int i = 0, len = 2 + r.pick(4); i < len; ++i) l.bones.push_back(p = add(p, off()));
    if (r.chance(0.3f)) add(l.bones[l.bones.size() - 2], off());  // a child below a link (not on the path)
  }
  for (std::size_t k = 0; k < limbs.size(); ++k) {
    const Limb& l = limbs[k];
    std::int32_t ik_parent = spine[0];
    if (r.chance(0.3f)) ik_parent = spine.back();
    if (r.chance(0.1f)) {  // under another limb
      const Limb& o = limbs[static_cast<std::size_t>(r.pick(static_cast<int>(limbs.size())))];
      ik_parent = o.bones[static_cast<std::size_t>(r.pick(static_cast<int>(o.bones.size())))];
    }
    const std::int32_t eff = l.bones.back();
    const std::int32_t ikb = add(ik_parent, {r.uni(-1, 1), r.uni(-3, 0), r.uni(-1, 1)});
    BoneDesc& b = d.bones[static_cast<std::size_t>(ikb)];
    b.ik_effector = eff;
    b.ik_iterations = static_cast<std::uint32_t>(1 + r.pick(40));
    b.ik_unit_angle = r.uni(0.05f, 2.0f);
    b.ik_file_order = static_cast<std::int32_t>(k);
    std::int32_t x = d.bones[static_cast<std::size_t>(eff)].parent;
    const int count = 1 + r.pick(static_cast<int>(l.bones.size()) + (r.chance(0.2f) ? 1 : 0));
    for (int c = 0; c < count && x != kNoBone; ++c) {
      IkLinkDesc link;
      link.bone = x;
      if (r.chance(0.3f)) {  // knee-like
        link.has_limits = true;
        link.lower = {-std::numbers::pi_v<float>, 0, 0};
        link.upper = {-0.0087f, 0, 0};
      } else if (r.chance(0.2f)) {
        link.has_limits = true;
        link.lower = {r.uni(-1.5f, 0), r.uni(-2, 0), r.uni(-2, 0)};
        link.upper = {r.uni(0, 1.5f), r.uni(0, 2), r.uni(0, 2)};
      }
      b.ik_links.push_back(link);
      x = d.bones[static_cast<std::size_t>(x)].parent;
    }
  }
  // Follow bones of links, and bones between the IK bones' steps (PMX: by their layer).
  const std::size_t nb = d.bones.size();
  for (int i = 0, nf = r.pick(3); i < nf; ++i) {
    const std::int32_t f = add(spine[0], off());
    BoneDesc& b = d.bones[static_cast<std::size_t>(f)];
    b.append_source = static_cast<std::int32_t>(r.pick(static_cast<int>(nb)));
    b.append_rotation = true;
    b.append_translation = r.chance(0.3f);
    b.append_ratio = r.chance(0.5f) ? 1.0f : r.uni(-1, 1);
    b.append_local = r.chance(0.2f);
  }
  for (int i = 0, nx = r.pick(3); i < nx; ++i) add(static_cast<std::int32_t>(r.pick(static_cast<int>(d.bones.size()))), off());
  return d;
}

// Evaluations in which an IK group ran with two or more of its chains enabled.
int grouped_solves(const Skeleton& sk, std::span<const std::uint8_t> ik) {
  int n = 0;
  for (auto plan : {sk.plan_before_physics(), sk.plan_after_physics()})
    for (const ScheduleStep& st : plan) {
      if (st.kind != ScheduleStep::ik_group) continue;
      const IkGroup& g = sk.ik_groups()[st.index];
      std::uint32_t on = 0;
      for (std::uint32_t m = 0; m < g.count; ++m) on += ik[g.solvers[m]] != 0;
      n += on >= 2;
    }
  return n;
}

void check_random_limbs() {
  Rng r(20261218);
  int built = 0, grouped = 0, together = 0;
  for (int t = 0; t < 300; ++t) {
    const OrderRule rule = t % 2 ? OrderRule::pmd : OrderRule::pmx;
    auto sk = build_skeleton(random_limbs(r, rule));
    ASSERT_TRUE(sk) << sk.error().to_string();
    ++built;
    grouped += !sk->ik_groups().empty();
    PoseWorkspace ws(*sk);
    Ref ref(*sk);
    const std::size_t n = sk->bone_count();
    std::vector<BonePose> local(n);
    std::vector<BoneMorphOffset> morph(n);
    std::vector<std::uint8_t> ik(sk->ik_count(), 1);
    FramesCheck frames;
    for (int f = 0; f < 6; ++f) {
      for (std::size_t i = 0; i < n; ++i) {
        local[i].rotation = r.rot(1.5f);
        local[i].translation = r.chance(0.2f) ? Vec3{r.uni(-1, 1), r.uni(-1, 1), r.uni(-1, 1)} : Vec3{};
        morph[i].rotation = r.chance(0.2f) ? r.rot(0.5f) : kIdentityQuat;
        morph[i].translation = Vec3{};
      }
      for (auto& e : ik) e = r.chance(0.85f) ? 1 : 0;
      together += grouped_solves(*sk, ik);
      const PoseInput in{local, f % 2 ? std::span<const BoneMorphOffset>(morph) : std::span<const BoneMorphOffset>(), ik};
      if (compare(*sk, in, ws, ref, "limbs " + std::to_string(t) + " pose " + std::to_string(f)) != 0) return;
      frames.add(in);
    }
    if (frames.run(*sk, 1 + static_cast<std::size_t>(t % 5), "limbs " + std::to_string(t)) != 0) return;
  }
  // The interleaved solve must actually run: most of these skeletons have independent chains.
  EXPECT_EQ(built, 300);
  EXPECT_GE(grouped, 150);
  EXPECT_GE(together, 400);
}

TEST(EvalReference, RandomLimbSkeletonsWithIkGroupsAgreeBitForBit) { for_each_isa(check_random_limbs); }

// Pairs of limbs with the same shape (like the left and right leg), which the AVX build turns in
// lockstep (ik.cpp "twins"): per pair one bone count, link count, iteration count and kind of
// limit per link (knee, an X, Y or Z range, a fixed link, none; sometimes a three-axis limit,
// which is not paired), and their own offsets, goals, unit angles and limit values; sometimes
// the second limb is one bone longer or has one link less (not twins). Goals near and far, so
// that one twin may reach its goal before the other.
SkeletonDesc random_twin_limbs(Rng& r, OrderRule rule, int& twin_pairs) {
  SkeletonDesc d;
  d.rule = rule;
  auto add = [&](std::int32_t parent, Vec3 off) { return add_bone(d, parent, off); };
  const std::int32_t root = add(kNoBone, {0, 5, 0});
  const float pi = std::numbers::pi_v<float>;
  for (int pair = 0, np = 1 + r.pick(3); pair < np; ++pair) {
    const int len = 2 + r.pick(4), links = 1 + r.pick(len);
    const std::uint32_t iterations = static_cast<std::uint32_t>(1 + r.pick(40));
    std::vector<int> kinds(static_cast<std::size_t>(links));
    for (int& k : kinds) k = r.chance(0.08f) ? 6 : r.pick(6);
    const bool child = r.chance(0.3f);
    const int odd = r.chance(0.15f) ? 1 + r.pick(2) : 0;  // 1: longer second limb, 2: a link less
    for (int side = 0; side < 2; ++side) {
      const float sx = side == 0 ? -1.0f : 1.0f;
      std::vector<std::int32_t> bones;
      std::int32_t p = root;
      const int n = len + (side == 1 && odd == 1 ? 1 : 0);
      for (int i = 0; i < n; ++i) bones.push_back(p = add(p, {sx * r.uni(0.1f, 1), r.uni(-2, -0.3f), r.uni(-1, 1)}));
      if (child) add(bones[bones.size() - 2], {sx * 0.3f, -0.5f, 0.2f});
      const float reach = r.chance(0.5f) ? r.uni(-2, 0) : r.uni(-9, -4);
      const std::int32_t ikb = add(root, {sx * r.uni(0.2f, 2), reach, r.uni(-1, 1)});
      BoneDesc& b = d.bones[static_cast<std::size_t>(ikb)];
      b.ik_effector = bones.back();
      b.ik_iterations = iterations;
      b.ik_unit_angle = r.uni(0.05f, 2.0f);
      b.ik_file_order = 2 * pair + side;
      std::int32_t x = d.bones[static_cast<std::size_t>(bones.back())].parent;
      const int nl = links - (side == 1 && odd == 2 && links > 1 ? 1 : 0);
      for (int c = 0; c < nl && x != root; ++c) {
        IkLinkDesc l;
        l.bone = x;
        switch (kinds[static_cast<std::size_t>(c)]) {
          case 1: l.has_limits = true; l.lower = {-pi, 0, 0}; l.upper = {r.uni(-0.5f, -0.0087f), 0, 0}; break;  // knee
          case 2: l.has_limits = true; l.lower = {r.uni(-1.5f, 0), 0, 0}; l.upper = {r.uni(0, 1.5f), 0, 0}; break;
          case 3: l.has_limits = true; l.lower = {0, r.uni(-pi, 0), 0}; l.upper = {0, r.uni(0, pi), 0}; break;
          case 4: l.has_limits = true; l.lower = {0, 0, r.uni(-pi, 0)}; l.upper = {0, 0, r.uni(0, pi)}; break;
          case 5: l.has_limits = true; break;  // all zero: a fixed link
          case 6:
            l.has_limits = true;
            l.lower = {r.uni(-1.5f, 0), r.uni(-2, 0), r.uni(-2, 0)};
            l.upper = {r.uni(0, 1.5f), r.uni(0, 2), r.uni(0, 2)};
            break;
          default: break;  // no limits
        }
        b.ik_links.push_back(l);
        x = d.bones[static_cast<std::size_t>(x)].parent;
      }
    }
    twin_pairs += odd == 0;
  }
  return d;
}

void check_random_twins() {
  Rng r(20261202);
  int twin_pairs = 0, together = 0;
  for (int t = 0; t < 300; ++t) {
    const OrderRule rule = t % 2 ? OrderRule::pmd : OrderRule::pmx;
    auto sk = build_skeleton(random_twin_limbs(r, rule, twin_pairs));
    ASSERT_TRUE(sk) << sk.error().to_string();
    PoseWorkspace ws(*sk);
    Ref ref(*sk);
    const std::size_t n = sk->bone_count();
    std::vector<BonePose> local(n);
    std::vector<std::uint8_t> ik(sk->ik_count(), 1);
    FramesCheck frames;
    for (int f = 0; f < 6; ++f) {
      for (std::size_t i = 0; i < n; ++i) {
        local[i].rotation = r.rot(f == 0 ? 0.0f : 1.2f);
        local[i].translation = Vec3{};
      }
      for (auto& e : ik) e = r.chance(0.9f) ? 1 : 0;
      together += grouped_solves(*sk, ik);
      const PoseInput in{local, std::span<const BoneMorphOffset>(), ik};
      if (compare(*sk, in, ws, ref, "twins " + std::to_string(t) + " pose " + std::to_string(f)) != 0) return;
      frames.add(in);
    }
    if (frames.run(*sk, 1 + static_cast<std::size_t>(t % 5), "twins " + std::to_string(t)) != 0) return;
  }
  EXPECT_GE(twin_pairs, 400);
  EXPECT_GE(together, 800);
}

// The AVX build turns twin chains in lockstep; each chain must still get its own floats.
TEST(EvalReference, RandomTwinLimbsAgreeBitForBit) { for_each_isa(check_random_twins); }

void check_random_skeletons() {
  Rng r(20261201);
  int built = 0, solved = 0;
  for (int t = 0; t < 300; ++t) {
    const OrderRule rule = t % 3 == 2 ? OrderRule::pmd : OrderRule::pmx;
    auto sk = build_skeleton(random_skeleton(r, rule));
    if (!sk) continue;  // e.g. a parent loop through a random append source is fine; parents are acyclic here
    ++built;
    solved += static_cast<int>(sk->ik_count());
    PoseWorkspace ws(*sk);
    Ref ref(*sk);
    const std::size_t n = sk->bone_count();
    std::vector<BonePose> local(n);
    std::vector<BoneMorphOffset> morph(n);
    std::vector<std::uint8_t> ik(sk->ik_count(), 1);
    FramesCheck frames;
    for (int f = 0; f < 4; ++f) {
      for (std::size_t i = 0; i < n; ++i) {
        local[i].rotation = r.rot(2.0f);
        local[i].translation = r.chance(0.3f) ? Vec3{r.uni(-1, 1), r.uni(-1, 1), r.uni(-1, 1)} : Vec3{};
        morph[i].rotation = r.chance(0.2f) ? r.rot(0.5f) : kIdentityQuat;
        morph[i].translation = r.chance(0.2f) ? Vec3{r.uni(-0.2f, 0.2f), 0, 0} : Vec3{};
      }
      for (auto& e : ik) e = r.chance(0.85f) ? 1 : 0;
      const PoseInput in{local, f % 2 ? std::span<const BoneMorphOffset>(morph) : std::span<const BoneMorphOffset>(), ik};
      if (compare(*sk, in, ws, ref, "skeleton " + std::to_string(t) + " pose " + std::to_string(f)) != 0) return;
      frames.add(in);
    }
    if (frames.run(*sk, 1 + static_cast<std::size_t>(t % 5), "skeleton " + std::to_string(t)) != 0) return;
  }
  EXPECT_GE(built, 250);
  EXPECT_GE(solved, 400);
}

TEST(EvalReference, RandomSkeletonsAgreeBitForBit) { for_each_isa(check_random_skeletons); }

// --- corpus pairs -----------------------------------------------------------------------------------

void check_corpus_pair(const char* model_path, const char* motion_path, std::uint32_t step) {
  auto model = test::corpus_file(model_path);
  auto motion = test::corpus_file(motion_path);
  ASSERT_TRUE(model && motion) << model_path << " / " << motion_path << " not in the corpus";
  const auto mb = test::read_bytes(model->path);
  const auto vb = test::read_bytes(motion->path);
  auto view = model::load(mb, model::LoadOptions{.encoding = {}, .strict = false, .geometry = false});
  ASSERT_TRUE(view) << view.error().to_string();
  auto sk = build_skeleton(*view);
  ASSERT_TRUE(sk) << sk.error().to_string();
  ASSERT_GT(sk->ik_count(), 0u);
  // Every corpus model here has independent chains (legs, toes; hair): the grouped solve runs.
  EXPECT_FALSE(sk->ik_groups().empty());
  // ... and most solves start from the path the plan left (IkSolver::path_prepared).
  std::size_t prepared = 0;
  for (const IkSolver& sv : sk->solvers()) prepared += sv.path_prepared;
  EXPECT_GE(prepared, 2u);
  auto v = vmd::read(vb);
  ASSERT_TRUE(v);
  const vmd::Motion* list[] = {&v->motion};
  auto sampler = MotionSampler::create(*sk, list);
  ASSERT_TRUE(sampler);
  PoseWorkspace ws(*sk);
  Ref ref(*sk);
  const std::size_t n = sk->bone_count();
  std::vector<BonePose> local(n), fresh(n);
  std::vector<std::uint8_t> ik(sk->ik_count());
  std::uint32_t frames = 0;
  FramesCheck together;
  for (std::uint32_t f = 0; f <= sampler->last_frame(); f += step) {
    // Sampling: the sampler's cursors (frame by frame) against a fresh cursor per track.
    const double t = f + (f % 3 == 1 ? 0.5 : 0.0);
    sampler->sample(t, local, ik);
    for (std::size_t b = 0; b < n; ++b) {
      std::uint32_t cursor = 0;
      fresh[b] = sample_bone(sampler->bound().bone_track(b), t, cursor);
    }
    ASSERT_EQ(std::memcmp(local.data(), fresh.data(), n * sizeof(BonePose)), 0) << model_path << " frame " << t;
    if (compare(*sk, {local, {}, ik}, ws, ref, std::string(model_path) + " frame " + std::to_string(t)) != 0) return;
    ++frames;
    together.add({local, {}, ik});
  }
  EXPECT_GT(frames, 50u);
  // Consecutive frames evaluated together, as `sample` does (and in odd-sized runs).
  for (std::size_t k : {std::size_t{2}, std::size_t{3}, std::size_t{kMaxFrameBatch}, std::size_t{7}})
    if (together.run(*sk, k, model_path) != 0) return;
}

TEST(EvalReference, MikuWavefileEveryFrame) {
  MMDKIT_REQUIRE_CORPUS();
  for_each_isa([] { check_corpus_pair("jomin398__jomin398.github.io/docs/assets/models/mmd/miku_v2/miku_v2.pmd",
                                       "moeru-ai__three-mmd/examples/vanilla/src/assets/vmds/wavefile_v2.vmd", 1); });
}

TEST(EvalReference, MeiGreetingEveryFrame) {
  MMDKIT_REQUIRE_CORPUS();
  for_each_isa([] { check_corpus_pair("mmdagent__mmdagent-mirror/MMDAgent_Example/Model/mei/mei.pmd",
                                       "mmdagent__mmdagent-mirror/MMDAgent_Example/Motion/mei_greeting/mei_greeting.vmd", 1); });
}

TEST(EvalReference, PmxSampleModelMotion2) {
  MMDKIT_REQUIRE_CORPUS();
  for_each_isa([] { check_corpus_pair("miu200521358__mmd_base/test/resources/サンプルモデル.pmx",
                                       "miu200521358__mmd_base/tests/resources/サンプルモーション2.vmd", 7); });
}

}  // namespace
}  // namespace mmdkit::anim
