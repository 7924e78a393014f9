// CCD IK with MMD's rules (pose.hpp; docs/EVALUATION-BONES.md "IK"). Follows babylon-mmd 1.3.0
// IkSolver (itself from saba MMDIkSolver), the closest open implementation of MMD:
//   - links' IK rotations are reset; nothing is done when the effector already is within 1e-4 of
//     the goal (squared distance < 1e-8), before or after refreshing the chain;
//   - per iteration, per link from the effector upward (link c = 0, 1, ...): links whose limits are
//     all zero are skipped; the rotation turning (link → effector) onto (link → goal), axis expressed
//     in the link's parent space, angle capped at unit_angle × (c + 1);
//   - first half of the iterations (i < iterations / 2): single-axis links (e.g. knees) rotate
//     about ±that axis only, and limits reflect an overshoot back into range; second half: free
//     axis and plain clamping;
//   - limits: (IK · local) decomposed to Euler angles in the link's order (middle angle clamped at
//     ±88°), each clamped to [lower, upper], rebuilt, local removed again;
//   - after each iteration, stop when the effector is within 1e-4 of the goal.
//
// This file: the solves (one chain, a group, a group over several frames). The CCD step, written
// once over a lane type: ik_ccd.inl; its 4-lane form and local chains: ik_local.inl; twins in
// lockstep (pairs, bundles, their 8-lane forms): ik_wide.inl.
#include <span>
#include <type_traits>

#include "anim/ik_local.inl"
#include "anim/ik_wide.inl"
#include "anim/pose_internal.hpp"

namespace mmdkit::anim {

// The start of a solve: links' IK rotations reset, the effector and then the path evaluated, each
// followed by the goal test. False when the effector is at the goal (nothing more to do, no refresh).
[[gnu::always_inline]] inline bool PoseEvaluator::ik_prepare(const Skeleton& s, PoseWorkspace& ws, const Buffers& buf,
                                                             const IkSolver& sv, Vec3& goal) noexcept {
  goal = ws.model_pos_[sv.bone];
  if (sv.path_prepared) return !(pm::dist2(goal, ws.model_pos_[sv.effector]) < 1.0e-8f);  // as below, computed once
  const auto links = s.ik_links().subspan(sv.link_begin, sv.link_end - sv.link_begin);
  const auto path = s.ik_bone_lists().subspan(sv.path_begin, sv.path_end - sv.path_begin);
  for (const IkLink& l : links) ws.ik_rot_[l.bone] = kIdentityQuat;
  update_bone(s, ws, buf, sv.effector);
  if (pm::dist2(goal, ws.model_pos_[sv.effector]) < 1.0e-8f) return false;
  for (std::uint32_t b : path) update_bone(s, ws, buf, b);  // chain without IK rotations, top-down
  return !(pm::dist2(goal, ws.model_pos_[sv.effector]) < 1.0e-8f);
}

[[gnu::always_inline]] inline void PoseEvaluator::solve_ik_body(const Skeleton& s, PoseWorkspace& ws,
                                                               std::uint32_t k) noexcept {
  const IkSolver& sv = s.solvers()[k];
  const auto links = s.ik_links().subspan(sv.link_begin, sv.link_end - sv.link_begin);
  const auto lists = s.ik_bone_lists();
  const auto path = lists.subspan(sv.path_begin, sv.path_end - sv.path_begin);
  const auto refresh = lists.subspan(sv.refresh_begin, sv.refresh_end - sv.refresh_begin);
  if (links.empty()) return;
  const Buffers buf = Buffers::of(s, ws);
  Vec3 goal;
  if (!ik_prepare(s, ws, buf, sv, goal)) return;

  if (sv.local_path) {
    const Buffers& views = buf;
    LocalPaths st;
    LocalChain ch;
    local_load(s, views, sv, 0, goal, st, ch);
    if (ch.iterations > 0)
      while (local_step(st, ch)) {
      }
    local_store(s, views, st, ch);
  } else {
    const std::uint32_t iterations = sv.iterations;
    const std::uint32_t half = iterations >> 1;
    for (std::uint32_t it = 0; it < iterations; ++it) {
      const bool use_axis = it < half;
      for (std::size_t c = 0; c < links.size(); ++c) {
        const IkLink& link = links[c];
        if (link.axis == IkSolveAxis::fixed) continue;
        const std::uint32_t lb = link.bone;
        const std::int32_t parent = s.parents()[lb];
        const Quat parent_rot = parent < 0 ? kIdentityQuat : ws.model_rot_[static_cast<std::size_t>(parent)];
        V4 out;
        if (!ccd_step(sv, link, c, use_axis, pm::load3(pm::sub(ws.model_pos_[lb], ws.model_pos_[sv.effector])),
                      pm::load3(pm::sub(ws.model_pos_[lb], goal)), pm::load4(parent_rot), pm::load4(ws.ik_rot_[lb]),
                      pm::load4(ws.append_rot_[lb]), out))
          continue;
        ws.ik_rot_[lb] = pm::store4(out);
        // Update the chain below (and including) this link; the effector last.
        for (std::size_t j = link.path_index; j < path.size(); ++j) {
          const std::uint32_t b = path[j];
          if (b == lb) {
            recompose(s, ws, b);
          } else {
            const BoneDesc& bd = s.desc(b);
            if (bd.append_rotation || bd.append_translation)
              update_bone(s, ws, b);  // its append source may have moved (B re-evaluates children fully)
            else
              model_from_local(s, ws, b);  // local unchanged: only the parent moved
          }
        }
      }
      if (pm::dist2(goal, ws.model_pos_[sv.effector]) < 1.0e-8f) break;
    }
  }
  for (std::uint32_t b : refresh) update_bone(s, ws, buf, b);
}

// A group of independent chains (IkGroup, all with local paths): each prepared as solve_ik_body
// does, then their CCD turns interleaved, one turn of each unfinished chain in turn (each chain
// runs its own operations in its own order; the chains share no bone, so this gives the floats of
// solving them one after another), then each written back and refreshed in schedule order.
// Wide (the AVX build): twins among the running chains turn in lockstep (pair_turn) until one of
// them is done.
template <bool Wide>
[[gnu::always_inline]] inline void PoseEvaluator::solve_ik_group_body(const Skeleton& s, PoseWorkspace& ws,
                                                                     const IkGroup& g,
                                                                     std::span<const std::uint8_t> enabled) noexcept {
  const Buffers buf = Buffers::of(s, ws);
  const Buffers& views = buf;
  LocalPaths st;
  LocalChain ch[kIkGroupChains];
  LocalChain* active[kIkGroupChains] = {};
  std::uint32_t solved = 0, running = 0, base = 0;
  for (std::uint32_t m = 0; m < g.count; ++m) {
    const std::uint32_t k = g.solvers[m];
    if (k < enabled.size() && enabled[k] == 0) continue;
    const IkSolver& sv = s.solvers()[k];
    Vec3 goal;
    if (!ik_prepare(s, ws, buf, sv, goal)) continue;
    LocalChain& c = ch[solved++];
    local_load(s, views, sv, base, goal, st, c);
    base += c.n;
    if (c.iterations > 0) active[running++] = &c;
  }
#ifdef MMDKIT_EVAL_HAVE_AVX
  if constexpr (Wide) run_group_wide<LocalPaths, kIkGroupChains>(st, active, running);
#endif
  if constexpr (!Wide) run_group_narrow(st, active, running);
  for (std::uint32_t m = 0; m < solved; ++m) {
    local_store(s, views, st, ch[m]);
    const IkSolver& sv = *ch[m].sv;
    for (std::uint32_t j = sv.refresh_begin; j < sv.refresh_end; ++j) update_bone(s, ws, buf, s.ik_bone_lists()[j]);
  }
}

// A group solved in several workspaces (frames) at once: every frame's enabled chains prepared
// and loaded into one FramePaths, all of them interleaved as one group's chains are (Wide: twins
// in lockstep, pairs of one frame or of two frames alike: the tie of frame 0 with the tie of frame
// 1), then written back and refreshed frame by frame in schedule order. The frames share no
// workspace, so each chain runs its own operations in its own order: every frame gets the floats
// solve_ik_group_body gives it alone.
template <bool Wide>
[[gnu::always_inline]] inline void PoseEvaluator::solve_ik_group_frames_body(const Skeleton& s,
                                                                            PoseWorkspace* const* ws,
                                                                            const PoseInput* in, std::uint32_t frames,
                                                                            const IkGroup& g) noexcept {
  constexpr std::uint32_t kChains = kIkGroupChains * kMaxFrameBatch;
  FramePaths st;
  LocalChain ch[kChains];
  LocalChain* active[kChains] = {};
  std::uint32_t first[kMaxFrameBatch + 1];  // each frame's chains in ch: [first[f], first[f + 1])
  std::uint32_t solved = 0, running = 0, base = 0;
  for (std::uint32_t f = 0; f < frames; ++f) {
    first[f] = solved;
    const Buffers buf = Buffers::of(s, *ws[f]);
    const std::span<const std::uint8_t> enabled = in[f].ik_enabled;
    for (std::uint32_t m = 0; m < g.count; ++m) {
      const std::uint32_t k = g.solvers[m];
      if (k < enabled.size() && enabled[k] == 0) continue;
      const IkSolver& sv = s.solvers()[k];
      Vec3 goal;
      if (!ik_prepare(s, *ws[f], buf, sv, goal)) continue;
      LocalChain& c = ch[solved++];
      local_load(s, buf, sv, base, goal, st, c);
      base += c.n;
      if (c.iterations > 0) active[running++] = &c;
    }
  }
  first[frames] = solved;
#ifdef MMDKIT_EVAL_HAVE_AVX
  if constexpr (Wide) run_group_wide<FramePaths, kChains>(st, active, running);
#endif
  if constexpr (!Wide) run_group_narrow(st, active, running);
  for (std::uint32_t f = 0; f < frames; ++f) {
    const Buffers buf = Buffers::of(s, *ws[f]);
    for (std::uint32_t m = first[f]; m < first[f + 1]; ++m) {
      local_store(s, buf, st, ch[m]);
      const IkSolver& sv = *ch[m].sv;
      for (std::uint32_t j = sv.refresh_begin; j < sv.refresh_end; ++j)
        update_bone(s, *ws[f], buf, s.ik_bone_lists()[j]);
    }
  }
}

// The same code compiled twice: with AVX encodings (three-operand forms, fewer register copies;
// no FMA, so every product and sum rounds as in the baseline build) where eval_isa() is avx, and
// for the baseline. `body(wide)` (always inlined) is the solve; wide is std::true_type in the
// AVX build (the groups' twins in lockstep, ik_wide.inl), std::false_type in the baseline.
namespace {
#ifdef MMDKIT_EVAL_HAVE_AVX
template <class Body>
[[gnu::target("avx"), gnu::noinline]] void run_avx(const Body& body) noexcept {
  body(std::true_type{});
}
#endif
template <class Body>
[[gnu::noinline]] void run_baseline(const Body& body) noexcept {
  body(std::false_type{});
}
template <class Body>
void dispatch(const Body& body) noexcept {
#ifdef MMDKIT_EVAL_HAVE_AVX
  if (eval_avx()) {
    run_avx(body);
    return;
  }
#endif
  run_baseline(body);
}
}  // namespace

void PoseEvaluator::solve_ik(const Skeleton& s, PoseWorkspace& ws, std::uint32_t k) noexcept {
  dispatch([&](auto) __attribute__((always_inline)) { solve_ik_body(s, ws, k); });
}
void PoseEvaluator::solve_ik_group(const Skeleton& s, PoseWorkspace& ws, const IkGroup& g,
                                   std::span<const std::uint8_t> enabled) noexcept {
  dispatch([&](auto wide) __attribute__((always_inline)) { solve_ik_group_body<wide()>(s, ws, g, enabled); });
}
void PoseEvaluator::solve_ik_group_frames(const Skeleton& s, PoseWorkspace* const* ws, const PoseInput* in,
                                          std::uint32_t frames, const IkGroup& g) noexcept {
  dispatch([&](auto wide) __attribute__((always_inline)) { solve_ik_group_frames_body<wide()>(s, ws, in, frames, g); });
}

}  // namespace mmdkit::anim
