// Runtime skeleton: validation, evaluation order, schedule, IK solver preparation (skeleton.hpp).
#include "mmdkit/anim/skeleton.hpp"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <numbers>
#include <span>
#include <string>

#include "mmdkit/anim/binding.hpp"
#include "mmdkit/core/text.hpp"
#include "core/try.hpp"

namespace mmdkit::anim {

std::int32_t Skeleton::find(std::string_view name) const noexcept {
  for (std::size_t i = 0; i < names_.size(); ++i)
    if (names_[i] == name) return static_cast<std::int32_t>(i);
  return -1;
}

namespace {

bool in_range(std::int32_t i, std::size_t n) { return i >= 0 && static_cast<std::size_t>(i) < n; }

IkLink prepare_link(const IkLinkDesc& d) {
  IkLink l;
  l.bone = static_cast<std::uint32_t>(d.bone);
  l.has_limits = d.has_limits;
  if (!d.has_limits) return l;
  for (int a = 0; a < 3; ++a) {
    l.lower[a] = std::min(d.lower[a], d.upper[a]);
    l.upper[a] = std::max(d.lower[a], d.upper[a]);
  }
  // babylon-mmd IkChain (from saba MMDIkSolver): Euler order whose middle angle stays in (−90°, 90°).
  const float half_pi = std::numbers::pi_v<float> * 0.5f;
  if (-half_pi < l.lower[0] && l.upper[0] < half_pi)
    l.order = IkEulerOrder::yxz;
  else if (-half_pi < l.lower[1] && l.upper[1] < half_pi)
    l.order = IkEulerOrder::zyx;
  else
    l.order = IkEulerOrder::xzy;
  auto zero = [&](int a) { return l.lower[a] == 0.0f && l.upper[a] == 0.0f; };
  if (zero(0) && zero(1) && zero(2))
    l.axis = IkSolveAxis::fixed;
  else if (zero(1) && zero(2))
    l.axis = IkSolveAxis::x;
  else if (zero(0) && zero(2))
    l.axis = IkSolveAxis::y;
  else if (zero(0) && zero(1))
    l.axis = IkSolveAxis::z;
  else
    l.axis = IkSolveAxis::none;
  if (l.axis == IkSolveAxis::x || l.axis == IkSolveAxis::y || l.axis == IkSolveAxis::z) {
    const int a = l.axis == IkSolveAxis::x ? 0 : l.axis == IkSolveAxis::y ? 1 : 2;
    const float pi = std::numbers::pi_v<float>;
    const float lo = l.lower[a], hi = l.upper[a];
    if (lo >= -pi && hi <= pi) {  // also false for NaN
      IkAxisLimit& k = l.axis_limit;
      k.lo_half_sin = std::sin(0.5f * lo);
      k.lo_half_cos = std::cos(0.5f * lo);
      k.hi_half_sin = std::sin(0.5f * hi);
      k.hi_half_cos = std::cos(0.5f * hi);
      k.lo_sin = std::sin(lo);
      k.lo_cos = std::cos(lo);
      k.hi_sin = std::sin(hi);
      k.hi_cos = std::cos(hi);
      const float t_lo = 2.0f * lo - hi, t_hi = 2.0f * hi - lo;
      k.reflect_lo_half_sin = t_lo <= -pi ? -2.0f : std::sin(0.5f * t_lo);
      k.reflect_hi_half_sin = t_hi >= pi ? 2.0f : std::sin(0.5f * t_hi);
      l.axis_limit_valid = true;
    }
  }
  return l;
}

// The per-iteration cap of link `index` as half-angle sine and cosine (IkLink::cap_half_*).
void prepare_cap(IkLink& l, float unit_angle, std::size_t index) {
  const float cap = unit_angle * static_cast<float>(index + 1);  // the solver's own product
  if (!(cap > 0.0f)) return;  // zero, negative or NaN: the solver takes min(cap, angle) itself
  l.cap_half_valid = true;
  if (cap >= std::numbers::pi_v<float>) {  // no angle exceeds π: never capped
    l.cap_half_sin = 1.0f;
    l.cap_half_cos = -2.0f;
    return;
  }
  l.cap_half_sin = std::sin(0.5f * cap);
  l.cap_half_cos = std::cos(0.5f * cap);
}

}  // namespace

// The steps of build_skeleton that fill the skeleton's private tables (Skeleton befriends it).
struct SkeletonBuilder {
  // The orders the solvers are prepared with (each over all bones).
  struct BuildOrder {
    std::vector<std::uint32_t> depth;         // below the root
    std::vector<std::uint32_t> topo;          // parent-first (by depth, then index)
    std::vector<std::uint32_t> order;         // the evaluation order
    std::vector<std::uint32_t> pos_in_order;  // each bone's position in `order`
  };
  static void copy_bones(Skeleton& s, const SkeletonDesc& desc);
  static void add_solver(Skeleton& s, const SkeletonDesc& desc, std::uint32_t ikb, const BuildOrder& o);
  static void schedule(Skeleton& s, const SkeletonDesc& desc);
  static void plan_ik_groups(Skeleton& s, const std::vector<BoneDesc>& bones);
  static void mark_prepared_paths(Skeleton& s, const std::vector<BoneDesc>& bones);
};

// The run plans (Skeleton::plan_*): the schedule with independent IK chains gathered into groups
// (IkGroup). Per solver, W = the bones its solve may write (path, which holds the links and the
// effector, and the refresh list) and R = the bones it may read (W, the IK bone, and the parent and
// append source of every bone in W: update_bone reads nothing else). A bone step x writes x and
// reads x, its parent and its append source. Two solves commute when neither writes what the other
// reads; a bone step commutes with a solve likewise. Scanning a stage's schedule, an open group
// takes the next IK step if it commutes with every member, and lets a bone step pass ahead of
// it (the step is emitted before the group) if it commutes with every member; anything else closes
// the group. So every reordering swaps two commuting steps: the plan gives the schedule's floats.
void SkeletonBuilder::plan_ik_groups(Skeleton& s, const std::vector<BoneDesc>& bones) {
  const std::size_t n = bones.size();
  const auto lists = std::span<const std::uint32_t>(s.lists_);
  auto has_append = [&](std::uint32_t x) { return bones[x].append_rotation || bones[x].append_translation; };
  auto writes = [&](const IkSolver& sv, auto&& f) {
    for (std::uint32_t j = sv.path_begin; j < sv.path_end; ++j) f(lists[j]);
    for (std::uint32_t j = sv.refresh_begin; j < sv.refresh_end; ++j) f(lists[j]);
  };
  auto reads = [&](const IkSolver& sv, auto&& f) {
    f(sv.bone);
    writes(sv, [&](std::uint32_t x) {
      f(x);
      if (bones[x].parent != kNoBone) f(static_cast<std::uint32_t>(bones[x].parent));
      if (has_append(x)) f(static_cast<std::uint32_t>(bones[x].append_source));
    });
  };
  std::vector<std::uint8_t> wmark(n, 0), rmark(n, 0);  // the open group's W and R
  auto plan_stage = [&](const std::vector<ScheduleStep>& steps, std::vector<ScheduleStep>& plan) {
    IkGroup g;
    std::uint32_t g_path = 0;
    auto close = [&] {
      if (g.count == 1) plan.push_back({ScheduleStep::ik, g.solvers[0]});
      if (g.count > 1) {
        plan.push_back({ScheduleStep::ik_group, static_cast<std::uint32_t>(s.groups_.size())});
        s.groups_.push_back(g);
      }
      for (std::uint32_t m = 0; m < g.count; ++m)
        reads(s.solvers_[g.solvers[m]], [&](std::uint32_t x) { wmark[x] = rmark[x] = 0; });
      g = IkGroup{};
      g_path = 0;
    };
    auto open_with = [&](std::uint32_t k) {
      const IkSolver& sv = s.solvers_[k];
      g.solvers[g.count++] = k;
      g_path += sv.path_end - sv.path_begin;
      writes(sv, [&](std::uint32_t x) { wmark[x] = 1; });
      reads(sv, [&](std::uint32_t x) { rmark[x] = 1; });
    };
    for (const ScheduleStep& st : steps) {
      if (st.kind == ScheduleStep::bone) {
        if (g.count == 0) {
          plan.push_back(st);
          continue;
        }
        const BoneDesc& b = bones[st.index];
        bool commutes = !rmark[st.index] && !wmark[st.index];
        if (b.parent != kNoBone && wmark[static_cast<std::size_t>(b.parent)]) commutes = false;
        if ((b.append_rotation || b.append_translation) && wmark[static_cast<std::size_t>(b.append_source)])
          commutes = false;
        if (!commutes) close();
        plan.push_back(st);  // before the open group, if any
        continue;
      }
      const IkSolver& sv = s.solvers_[st.index];
      if (!sv.local_path) {  // solved alone, on the workspace
        close();
        plan.push_back(st);
        continue;
      }
      if (g.count > 0) {
        bool independent = g.count < kIkGroupChains && g_path + (sv.path_end - sv.path_begin) <= kIkGroupPath;
        if (independent) writes(sv, [&](std::uint32_t x) { independent = independent && !rmark[x]; });
        if (independent) reads(sv, [&](std::uint32_t x) { independent = independent && !wmark[x]; });
        if (!independent) close();
      }
      open_with(st.index);
    }
    close();
  };
  plan_stage(s.before_, s.plan_before_);
  plan_stage(s.after_, s.plan_after_);
}

// IkSolver::path_prepared, from the before-physics plan (the prepass resets every bone there;
// after physics a path may have been moved by the physics stage). written[x]: the position in the
// plan of the last step that wrote bone x (a bone step writes its bone, a solve or a group every
// bone it may write: path and refresh list), −1 before any; evaluated[x]: the position of x's own
// bone step. A path bone b is as its start-of-solve evaluation would leave it when its bone step
// ran before the solve, nothing wrote it since (no IK rotation either: still the prepass's
// identity) and its parent and append source were last written before its step (update_bone reads
// nothing else); a bone an earlier solve wrote never is (its bone step may have run again with
// that solve's IK rotation, which the start of a solve resets). Members of a group read nothing
// the others write (plan_ik_groups), so each is judged on the steps before the group.
void SkeletonBuilder::mark_prepared_paths(Skeleton& s, const std::vector<BoneDesc>& bones) {
  const std::size_t n = bones.size();
  const auto lists = std::span<const std::uint32_t>(s.lists_);
  std::vector<std::int64_t> written(n, -1), evaluated(n, -1);
  std::vector<std::uint8_t> solved(n, 0);  // written by a solve (its IK rotation may not be identity)
  auto prepared = [&](const IkSolver& sv) {
    for (std::uint32_t j = sv.path_begin; j < sv.path_end; ++j) {
      const std::uint32_t b = lists[j];
      const std::int64_t at = evaluated[b];
      if (at < 0 || written[b] != at || solved[b]) return false;
      const BoneDesc& d = bones[b];
      if (d.parent != kNoBone && written[static_cast<std::size_t>(d.parent)] >= at) return false;
      if ((d.append_rotation || d.append_translation) && written[static_cast<std::size_t>(d.append_source)] >= at)
        return false;
    }
    return true;
  };
  auto solve_writes = [&](const IkSolver& sv, std::int64_t at) {
    for (std::uint32_t j = sv.path_begin; j < sv.path_end; ++j) written[lists[j]] = at, solved[lists[j]] = 1;
    for (std::uint32_t j = sv.refresh_begin; j < sv.refresh_end; ++j) written[lists[j]] = at, solved[lists[j]] = 1;
  };
  for (IkSolver& sv : s.solvers_) sv.path_prepared = false;
  std::int64_t at = 0;
  for (const ScheduleStep& st : s.plan_before_) {
    if (st.kind == ScheduleStep::bone) {
      written[st.index] = evaluated[st.index] = at;
    } else if (st.kind == ScheduleStep::ik) {
      IkSolver& sv = s.solvers_[st.index];
      sv.path_prepared = prepared(sv);
      solve_writes(sv, at);
    } else {
      const IkGroup& g = s.groups_[st.index];
      for (std::uint32_t m = 0; m < g.count; ++m) s.solvers_[g.solvers[m]].path_prepared = prepared(s.solvers_[g.solvers[m]]);
      for (std::uint32_t m = 0; m < g.count; ++m) solve_writes(s.solvers_[g.solvers[m]], at);
    }
    ++at;
  }
}

namespace {

// Step 1 of build_skeleton: every index in range, every number finite. An append without a source
// is dropped (nothing to follow) and a non-finite append ratio becomes 0, as evaluated.
Result<void> validate_bones(std::vector<BoneDesc>& bones) {
  const std::size_t n = bones.size();
  for (std::size_t i = 0; i < n; ++i) {
    BoneDesc& b = bones[i];
    const auto rec = static_cast<std::int64_t>(i);
    if (b.parent != kNoBone && (!in_range(b.parent, n) || static_cast<std::size_t>(b.parent) == i))
      return make_error(ErrorCode::invalid_value,
                        "parent index " + std::to_string(b.parent) + " is out of range or the bone itself", "bones", rec);
    if (b.append_rotation || b.append_translation) {
      if (b.append_source == kNoBone) {
        b.append_rotation = b.append_translation = false;  // nothing to follow
      } else if (!in_range(b.append_source, n) || static_cast<std::size_t>(b.append_source) == i) {
        return make_error(ErrorCode::invalid_value,
                          "append source " + std::to_string(b.append_source) + " is out of range or the bone itself",
                          "bones", rec);
      }
    }
    if (!std::isfinite(b.append_ratio)) b.append_ratio = 0.0f;
    // NaN / infinity would spread to every bone below (and to vertices): refused, not evaluated.
    const auto finite3 = [](const Vec3& v) { return std::isfinite(v[0]) && std::isfinite(v[1]) && std::isfinite(v[2]); };
    if (!finite3(b.position))
      return make_error(ErrorCode::invalid_value, "bind position is not finite (NaN or infinity)", "bones", rec);
    if (b.has_fixed_axis && !finite3(b.fixed_axis))
      return make_error(ErrorCode::invalid_value, "fixed axis is not finite (NaN or infinity)", "bones", rec);
    if (b.ik_effector != kNoBone) {
      if (!std::isfinite(b.ik_unit_angle))
        return make_error(ErrorCode::invalid_value, "IK unit angle is not finite (NaN or infinity)", "bones", rec);
      for (const IkLinkDesc& l : b.ik_links)
        if (l.has_limits && (!finite3(l.lower) || !finite3(l.upper)))
          return make_error(ErrorCode::invalid_value, "IK link angle limit is not finite (NaN or infinity)", "bones",
                            rec);
    }
    if (b.ik_effector != kNoBone && !in_range(b.ik_effector, n))
      return make_error(ErrorCode::invalid_value, "IK target (effector) " + std::to_string(b.ik_effector) + " is out of range",
                        "bones", rec);
    for (std::size_t k = 0; k < b.ik_links.size(); ++k)
      if (!in_range(b.ik_links[k].bone, n))
        return make_error(ErrorCode::invalid_value,
                          "IK link " + std::to_string(k) + " names bone " + std::to_string(b.ik_links[k].bone) +
                              ", out of range",
                          "bones", rec);
  }
  return {};
}

// Step 2: each bone's depth below its root (memoized walk up; a bone met again on the current walk
// is a parent loop, an error).
Result<std::vector<std::uint32_t>> bone_depths(const std::vector<BoneDesc>& bones) {
  const std::size_t n = bones.size();
  std::vector<std::uint32_t> depth(n, 0);
  std::vector<std::int64_t> d(n, -1);  // -1 unknown, -2 on the current walk
  std::vector<std::uint32_t> walk;
  for (std::size_t i = 0; i < n; ++i) {
    if (d[i] >= 0) continue;
    walk.clear();
    std::int32_t x = static_cast<std::int32_t>(i);
    while (x != kNoBone && d[static_cast<std::size_t>(x)] == -1) {
      d[static_cast<std::size_t>(x)] = -2;
      walk.push_back(static_cast<std::uint32_t>(x));
      x = bones[static_cast<std::size_t>(x)].parent;
    }
    if (x != kNoBone && d[static_cast<std::size_t>(x)] == -2)
      return make_error(ErrorCode::invalid_value, "the parent chain loops", "bones", static_cast<std::int64_t>(i));
    std::int64_t base = x == kNoBone ? -1 : d[static_cast<std::size_t>(x)];
    for (auto it = walk.rbegin(); it != walk.rend(); ++it) d[*it] = ++base;
  }
  for (std::size_t i = 0; i < n; ++i) depth[i] = static_cast<std::uint32_t>(d[i]);
  return depth;
}

// Step 3: the evaluation order. PMX: before-physics bones first, then by deform layer (stable:
// index order otherwise). PMD: parent-first, otherwise index order (each bone placed after its
// not-yet-placed ancestors).
std::vector<std::uint32_t> evaluation_order(const SkeletonDesc& desc) {
  const std::size_t n = desc.bones.size();
  std::vector<std::uint32_t> order(n);
  for (std::size_t i = 0; i < n; ++i) order[i] = static_cast<std::uint32_t>(i);
  if (desc.rule == OrderRule::pmx) {
    std::stable_sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) {
      const BoneDesc &ba = desc.bones[a], &bb = desc.bones[b];
      if (ba.after_physics != bb.after_physics) return !ba.after_physics;
      return ba.deform_layer < bb.deform_layer;
    });
    return order;
  }
  std::vector<std::uint8_t> placed(n, 0);
  std::vector<std::uint32_t> chain;
  order.clear();
  for (std::size_t i = 0; i < n; ++i) {
    chain.clear();
    for (std::int32_t b = static_cast<std::int32_t>(i); b != kNoBone && !placed[static_cast<std::size_t>(b)];
         b = desc.bones[static_cast<std::size_t>(b)].parent)
      chain.push_back(static_cast<std::uint32_t>(b));
    for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
      placed[*it] = 1;
      order.push_back(*it);
    }
  }
  return order;
}

// Step 4: the IK bones in the order they are solved (evaluation order; PMD: the file's IK order).
// Preparing a solver costs O(bones + links × depth): inputs built to make that explode are refused.
Result<std::vector<std::uint32_t>> ik_bones_in_solve_order(const SkeletonDesc& desc, const std::vector<std::uint32_t>& order,
                                                           const std::vector<std::uint32_t>& depth) {
  const std::size_t n = desc.bones.size();
  std::vector<std::uint32_t> ik_bones;
  for (std::uint32_t i : order)
    if (desc.bones[i].ik_effector != kNoBone) ik_bones.push_back(i);
  if (desc.rule == OrderRule::pmd)
    std::stable_sort(ik_bones.begin(), ik_bones.end(), [&](std::uint32_t a, std::uint32_t b) {
      return desc.bones[a].ik_file_order < desc.bones[b].ik_file_order;
    });
  std::uint64_t link_total = 0;
  std::uint32_t max_depth = 0;
  for (std::uint32_t d : depth) max_depth = std::max(max_depth, d);
  for (std::uint32_t ikb : ik_bones) link_total += desc.bones[ikb].ik_links.size();
  if (static_cast<std::uint64_t>(ik_bones.size()) * n + link_total * (max_depth + 1ull) > (std::uint64_t{1} << 28))
    return make_error(ErrorCode::limit_exceeded,
                      std::to_string(ik_bones.size()) + " IK bones with " + std::to_string(link_total) +
                          " links over " + std::to_string(n) + " bones are too many to prepare",
                      "bones");
  return ik_bones;
}

// An IK solver's path: its links, the effector, and the bones between a link and the effector,
// parent-first (by depth, then index).
std::vector<std::uint32_t> ik_path(const std::vector<BoneDesc>& bones, std::span<const IkLink> links,
                                   std::uint32_t effector, const std::vector<std::uint32_t>& depth) {
  const std::size_t n = bones.size();
  auto is_ancestor_or_self = [&](std::uint32_t anc, std::uint32_t b) {
    for (std::int32_t x = static_cast<std::int32_t>(b); x != kNoBone; x = bones[static_cast<std::size_t>(x)].parent)
      if (static_cast<std::uint32_t>(x) == anc) return true;
    return false;
  };
  std::vector<std::uint32_t> path;
  std::vector<std::uint8_t> on_path(n, 0);
  auto add = [&](std::uint32_t x) {
    if (!on_path[x]) {
      on_path[x] = 1;
      path.push_back(x);
    }
  };
  for (const IkLink& link : links) {
    const std::uint32_t lb = link.bone;
    add(lb);
    if (is_ancestor_or_self(lb, effector))
      for (std::int32_t x = static_cast<std::int32_t>(effector); x != static_cast<std::int32_t>(lb);
           x = bones[static_cast<std::size_t>(x)].parent)
        add(static_cast<std::uint32_t>(x));
  }
  add(effector);
  std::stable_sort(path.begin(), path.end(), [&](std::uint32_t a, std::uint32_t c) {
    return depth[a] != depth[c] ? depth[a] < depth[c] : a < c;
  });
  return path;
}

// The bones that depend on a link of a solver (dep[x] = 1): descendants of the links (PMX, as
// babylon-mmd's recursive child update), plus bones that append from them and their descendants
// (PMD: MMD updates follow bones after IK). `topo`: parent-first order.
std::vector<std::uint8_t> link_dependents(const SkeletonDesc& desc, std::span<const IkLink> links,
                                          const std::vector<std::uint32_t>& topo) {
  const std::size_t n = desc.bones.size();
  std::vector<std::uint8_t> dep(n, 0);
  std::vector<std::uint8_t> is_link(n, 0);
  for (const IkLink& l : links) is_link[l.bone] = 1;
  const bool pmd = desc.rule == OrderRule::pmd;
  for (std::uint32_t x : topo) {  // descendants of the links (parents first)
    const std::int32_t p = desc.bones[x].parent;
    if (!is_link[x] && p != kNoBone && (is_link[static_cast<std::size_t>(p)] || dep[static_cast<std::size_t>(p)]))
      dep[x] = 1;
  }
  // PMD: follow bones of dependent bones, and their descendants. Append chains are short; at
  // most 64 passes (a longer chain of follow-of-follow bones would be refreshed only partly).
  bool changed = true;
  for (int pass = 0; pmd && changed && pass < 64; ++pass) {
    changed = false;
    for (std::uint32_t x : topo) {
      if (dep[x] || is_link[x]) continue;
      const BoneDesc& bx = desc.bones[x];
      bool d = false;
      if ((bx.append_rotation || bx.append_translation) && bx.append_source != kNoBone) {
        const auto src = static_cast<std::size_t>(bx.append_source);
        d = dep[src] || is_link[src];
      }
      if (!d && bx.parent != kNoBone) d = dep[static_cast<std::size_t>(bx.parent)] != 0;
      if (d) {
        dep[x] = 1;
        changed = true;
      }
    }
  }
  return dep;
}

}  // namespace

// Step 5: the solver of IK bone `ikb`: its links (prepared), path and refresh list (bones evaluated
// before this solve that depend on a link: in PMD all bones are evaluated before every IK step, in
// PMX those before the IK bone).
void SkeletonBuilder::add_solver(Skeleton& s, const SkeletonDesc& desc, std::uint32_t ikb, const BuildOrder& o) {
  const BoneDesc& b = desc.bones[ikb];
  IkSolver sv;
  sv.bone = ikb;
  sv.effector = static_cast<std::uint32_t>(b.ik_effector);
  sv.iterations = std::min<std::uint32_t>(b.ik_iterations, kMaxIkIterations);
  sv.unit_angle = std::isfinite(b.ik_unit_angle) ? b.ik_unit_angle : 0.0f;
  sv.link_begin = static_cast<std::uint32_t>(s.links_.size());
  for (const IkLinkDesc& l : b.ik_links) {
    s.links_.push_back(prepare_link(l));
    prepare_cap(s.links_.back(), sv.unit_angle, s.links_.size() - 1 - sv.link_begin);
  }
  sv.link_end = static_cast<std::uint32_t>(s.links_.size());
  const std::span<IkLink> links(s.links_.data() + sv.link_begin, sv.link_end - sv.link_begin);

  const std::vector<std::uint32_t> path = ik_path(desc.bones, links, sv.effector, o.depth);
  for (IkLink& link : links)
    for (std::size_t j = 0; j < path.size(); ++j)
      if (path[j] == link.bone) link.path_index = static_cast<std::uint32_t>(j);
  sv.path_begin = static_cast<std::uint32_t>(s.lists_.size());
  s.lists_.insert(s.lists_.end(), path.begin(), path.end());
  sv.path_end = static_cast<std::uint32_t>(s.lists_.size());
  sv.local_path = !b.ik_links.empty() && path.size() <= kIkLocalPath;
  for (std::uint32_t x : path)
    if (desc.bones[x].append_rotation || desc.bones[x].append_translation) sv.local_path = false;

  const std::vector<std::uint8_t> dep = link_dependents(desc, links, o.topo);
  const bool pmd = desc.rule == OrderRule::pmd;
  auto evaluated_before = [&](std::uint32_t x) { return pmd || o.pos_in_order[x] < o.pos_in_order[ikb]; };
  sv.refresh_begin = static_cast<std::uint32_t>(s.lists_.size());
  for (std::uint32_t x : o.order)
    if (dep[x] && evaluated_before(x) && x != ikb) s.lists_.push_back(x);
  sv.refresh_end = static_cast<std::uint32_t>(s.lists_.size());

  s.ik_of_bone_[ikb] = static_cast<std::int32_t>(s.solvers_.size());
  s.solvers_.push_back(sv);
}

// Step 6: the schedule of the two stages: each bone in order (PMX: after-physics bones in the second
// stage, each IK bone's solve right after it; PMD: every solve after all bones).
void SkeletonBuilder::schedule(Skeleton& s, const SkeletonDesc& desc) {
  for (std::uint32_t i : s.order_) {
    auto& stage = desc.bones[i].after_physics && desc.rule == OrderRule::pmx ? s.after_ : s.before_;
    stage.push_back({ScheduleStep::bone, i});
    if (desc.rule == OrderRule::pmx && s.ik_of_bone_[i] >= 0)
      stage.push_back({ScheduleStep::ik, static_cast<std::uint32_t>(s.ik_of_bone_[i])});
  }
  if (desc.rule == OrderRule::pmd)
    for (std::size_t k = 0; k < s.solvers_.size(); ++k) s.before_.push_back({ScheduleStep::ik, static_cast<std::uint32_t>(k)});
}

// The bones' fields the evaluation reads per bone: parent, bind position, offset from the parent,
// name and binding key.
void SkeletonBuilder::copy_bones(Skeleton& s, const SkeletonDesc& desc) {
  const std::size_t n = desc.bones.size();
  s.parent_.resize(n);
  s.bind_.resize(n);
  s.offset_.resize(n);
  s.names_.resize(n);
  s.keys_.resize(n);
  s.ik_of_bone_.assign(n, -1);
  for (std::size_t i = 0; i < n; ++i) {
    const BoneDesc& b = desc.bones[i];
    s.parent_[i] = b.parent;
    s.bind_[i] = b.position;
    if (b.parent == kNoBone) {
      s.offset_[i] = b.position;
    } else {
      const Vec3& pp = desc.bones[static_cast<std::size_t>(b.parent)].position;
      s.offset_[i] = {b.position[0] - pp[0], b.position[1] - pp[1], b.position[2] - pp[2]};
    }
    s.names_[i] = b.name;
    s.keys_[i] = binding_key(b.name_bytes);
  }
}

Result<Skeleton> build_skeleton(SkeletonDesc desc) {
  const std::size_t n = desc.bones.size();
  if (n > 0x7FFFFFFF) return make_error(ErrorCode::limit_exceeded, "too many bones", "bones");
  Skeleton s;
  static std::atomic<std::uint64_t> next_id{1};
  s.id_ = next_id.fetch_add(1, std::memory_order_relaxed);
  s.rule_ = desc.rule;
  MMDKIT_TRY(validate_bones(desc.bones));
  MMDKIT_TRY_ASSIGN(auto depth, bone_depths(desc.bones));
  SkeletonBuilder::BuildOrder o;
  o.depth = std::move(depth);
  // Parent-first order (by depth, then index) for dependency propagation.
  o.topo.resize(n);
  for (std::size_t i = 0; i < n; ++i) o.topo[i] = static_cast<std::uint32_t>(i);
  std::stable_sort(o.topo.begin(), o.topo.end(), [&](std::uint32_t a, std::uint32_t b) { return o.depth[a] < o.depth[b]; });
  SkeletonBuilder::copy_bones(s, desc);
  o.order = evaluation_order(desc);
  s.order_ = o.order;
  MMDKIT_TRY_ASSIGN(auto ik_bones, ik_bones_in_solve_order(desc, o.order, o.depth));
  // Position of each bone in the order (for "evaluated before the IK step").
  o.pos_in_order.resize(n);
  for (std::size_t k = 0; k < n; ++k) o.pos_in_order[o.order[k]] = static_cast<std::uint32_t>(k);
  for (std::uint32_t ikb : ik_bones) SkeletonBuilder::add_solver(s, desc, ikb, o);
  SkeletonBuilder::schedule(s, desc);
  SkeletonBuilder::plan_ik_groups(s, desc.bones);
  SkeletonBuilder::mark_prepared_paths(s, desc.bones);
  s.desc_ = std::move(desc.bones);
  return s;
}

}  // namespace mmdkit::anim
