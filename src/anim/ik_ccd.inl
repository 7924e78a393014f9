// The CCD step written once over a lane type (ik.cpp's internals; docs/EVALUATION-BONES.md "IK").
// No include guard: included twice, inside a namespace of its own each time, by ik_local.inl
// (MMDKIT_CCD_FN without a target: the 4-lane form, compiled into the baseline and the AVX build)
// and by ik_wide.inl (MMDKIT_CCD_FN with target("avx"): the 8-lane pair and bundle forms). GCC
// inlines a target("avx") function only into another one, hence two copies of the same text.
//
// The model is ozz-animation's SimdFloat4: the math is the lane type's, the algorithm is written
// once on top of it. A lane type L holds one link's per-chain values (caps, limits) and gives:
//   F, M, P, Q      a per-chain float (float, or a vector holding it on the chain's lanes), a
//                   per-chain condition (bool, or a comparison's lanes), a 3-vector, a quaternion;
//   splat sqrt      F from a float, square root;
//   lt ge gt        comparisons F × F → M; all(M), none(M): every chain / no chain;
//   sel(M, a, b)    a where M holds, b elsewhere (F, P or Q);
//   add sub scale   P + P, P − P, P · F; cross, dot (x·x' + y·y') + z·z' → F;
//   dots(cr, e, g)  |cr|², |e|²·|g|², e·g;
//   mul conj rotate the quaternion product, conjugate and rotation (core/quat.hpp's formulas);
//   unit(axis)      the link's single axis as P; sign(d): +1 where d ≥ 0, −1 elsewhere;
//   axis_quat       (axis·hs, hc) as Q;
//   skip(cr2, n2)   chains that skip the turn (parallel directions; done chains of a bundle);
//   cap_valid, cap_s, cap_c, uncapped   the step's cap (cap_half_valid; the atan2 fallback);
//   limit(q)        (IK · local) limited (single axis; the 4-lane form also the Euler limits).
// Every lane runs the scalar formula's operations in the same order (no FMA), so every chain gets
// the floats of the 4-lane form, which are the floats of the scalar rules in ik.cpp's header.
// Where the scalar form branches on a chain's value, the wide forms compute both sides and blend
// (the all / none tests keep the single-side paths when every chain agrees; for the 4-lane form,
// M is a bool and the blend path is dead code).

// One CCD step of `link` on every chain of the lanes: the new IK rotation `out`, and in `skipped`
// the chains that do not turn (their two directions are parallel, or `ln` says they are done).
// False when no chain turns. e = link − effector, g = link − goal (model space), parent_rot = the
// link's parent's model rotation, ik = its current IK rotation, arot = its local rotation before IK.
template <class L>
MMDKIT_CCD_FN bool ccd_lanes(const L& ln, const IkLink& link, bool use_axis, const typename L::P& e,
                             const typename L::P& g, const typename L::Q& parent_rot, const typename L::Q& ik,
                             const typename L::Q& arot, typename L::M& skipped, typename L::Q& out) noexcept {
  using F = typename L::F;
  using P = typename L::P;
  using M = typename L::M;
  // The skip test is B's |normalize(e) × normalize(g)|² < 1e-8, on the unnormalized vectors.
  const P cr = L::cross(e, g);
  F cr2, n2, dt;
  L::dots(cr, e, g, cr2, n2, dt);
  skipped = ln.skip(cr2, n2);
  if (L::all(skipped)) return false;
  const F zero = L::splat(0.0f), one = L::splat(1.0f);
  const F cl = L::sqrt(cr2);
  P axis = L::scale(cr, one / cl);
  if (link.has_limits && use_axis && link.axis != IkSolveAxis::none) {
    const P unit = L::unit(link.axis);
    const F d = L::dot(axis, L::rotate(parent_rot, unit));
    axis = L::scale(unit, L::sign(d));
  } else {  // normalized(rotate(conj(parent), axis))
    axis = L::rotate(L::conj(parent_rot), axis);
    const F l2 = L::dot(axis, axis);
    const M pos = L::gt(l2, zero);
    if (!L::none(pos)) axis = L::sel(pos, L::scale(axis, one / L::sqrt(l2)), axis);
  }
  // Step = min(cap, full angle φ), as the sine and cosine of its half. cos φ = dt / nn and
  // sin φ = cl / nn (nn = |e||g|); the half-angle identities (the larger of sine and cosine by a
  // square root, the other from sin φ = 2 sin(φ/2) cos(φ/2)) need no atan2 or sincos and stay
  // exact for small angles (acos of a float dot cannot resolve angles below ~3e-4 rad; B uses
  // acos in double). φ > cap ⟺ cos(φ/2) < cos(cap/2).
  F hs, hc;
  if (ln.cap_valid(link)) {
    const F nn = L::sqrt(n2), twonn = L::splat(2.0f) * nn;
    const M forward = L::ge(dt, zero);
    if (L::all(forward)) {
      hc = L::sqrt((nn + dt) / twonn);
      hs = cl / (twonn * hc);
    } else if (L::none(forward)) {
      hs = L::sqrt((nn - dt) / twonn);
      hc = cl / (twonn * hs);
    } else {
      const F hc1 = L::sqrt((nn + dt) / twonn), hs1 = cl / (twonn * hc1);
      const F hs2 = L::sqrt((nn - dt) / twonn), hc2 = cl / (twonn * hs2);
      hs = L::sel(forward, hs1, hs2);
      hc = L::sel(forward, hc1, hc2);
    }
    const F cap_c = ln.cap_c(link);
    const M capped = L::lt(hc, cap_c);
    hs = L::sel(capped, ln.cap_s(link), hs);
    hc = L::sel(capped, cap_c, hc);
  } else {  // cap ≤ 0 or NaN (bad data): B's min(cap, angle) as written
    ln.uncapped(link, cl, dt, hs, hc);
  }
  out = L::mul(L::axis_quat(axis, hs, hc), ik);
  if (link.has_limits) out = L::mul(ln.limit(link, L::mul(out, arot), use_axis), L::conj(arot));
  return true;
}

// One CCD turn of `link` on a chain's rows (LocalPaths, PairPaths, Bundle: rot, pos, lrot, lpos,
// ik, arot, parent, prow; the chain's rows from `base`, `eff` the effector's row): ccd_lanes, then
// the link's local rotation recomposed (IK · append) and the model transforms of the path from the
// link down (model_from_local), as the whole path's re-evaluation would give them, without the
// values it leaves unchanged: the link's own position (its parent and local translation did not
// move) and bones not below the link (`below`: the link's descendants on the path, a bit mask
// relative to base). Chains that skip the turn keep their values (their lanes compute whatever
// they compute and are not written). With L::kInnerOnly, only the path bones in `inner` (those
// with a child on the path) get their model rotation: the others' are read by nothing during the
// solve and are set by local_store from their final parents (the same floats); without it they
// are computed too (a branch costs more than the product on 4 lanes).
template <class L, class Rows>
MMDKIT_CCD_FN void ccd_turn(Rows& r, const L& ln, const IkLink& link, bool use_axis, const typename L::P& goal,
                            std::size_t base, std::size_t eff, std::uint32_t below, std::uint32_t inner) noexcept {
  using P = typename L::P;
  using Q = typename L::Q;
  if (link.axis == IkSolveAxis::fixed) return;
  const std::size_t j0 = base + link.path_index;
  const int pr = r.prow[j0];
  const P pj = r.pos[j0];
  typename L::M skipped;
  Q out;
  if (!ccd_lanes(ln, link, use_axis, L::sub(pj, r.pos[eff]), L::sub(pj, goal), r.rot[pr], r.ik[j0], r.arot[j0],
                 skipped, out))
    return;
  const Q lrot = L::mul(out, r.arot[j0]);
  const Q rot = r.parent[j0] == -2 ? lrot : L::mul(r.rot[pr], lrot);
  if (L::none(skipped)) {
    r.ik[j0] = out;
    r.lrot[j0] = lrot;
    r.rot[j0] = rot;
    for (std::uint32_t m = below; m != 0; m &= m - 1) {
      const std::size_t x = base + static_cast<std::uint32_t>(__builtin_ctz(m));
      const auto px = static_cast<std::size_t>(r.parent[x]);  // >= 0: on the path, below the link
      const Q prot = r.rot[px];
      r.pos[x] = L::add(r.pos[px], L::rotate(prot, r.lpos[x]));
      if (!L::kInnerOnly || (inner >> (x - base) & 1u)) r.rot[x] = L::mul(prot, r.lrot[x]);
    }
  } else {
    r.ik[j0] = L::sel(skipped, r.ik[j0], out);
    r.lrot[j0] = L::sel(skipped, r.lrot[j0], lrot);
    r.rot[j0] = L::sel(skipped, r.rot[j0], rot);
    for (std::uint32_t m = below; m != 0; m &= m - 1) {
      const std::size_t x = base + static_cast<std::uint32_t>(__builtin_ctz(m));
      const auto px = static_cast<std::size_t>(r.parent[x]);
      const Q prot = r.rot[px];
      r.pos[x] = L::sel(skipped, r.pos[x], L::add(r.pos[px], L::rotate(prot, r.lpos[x])));
      if (!L::kInnerOnly || (inner >> (x - base) & 1u)) r.rot[x] = L::sel(skipped, r.rot[x], L::mul(prot, r.lrot[x]));
    }
  }
}
