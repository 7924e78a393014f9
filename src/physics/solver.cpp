// Bullet's sequential impulse iterations in level order (solver.hpp). The row arithmetic is
// Bullet 3.24's scalar reference (btSequentialImpulseConstraintSolver.cpp,
// gResolveSingleConstraintRowGeneric_scalar_reference / ..._LowerLimit_scalar_reference), the one
// Debian's build runs (btScalar.h enables Bullet's SSE code on Windows and macOS only), with the
// three-component products and the impulse application four lanes at a time (SSE2, x86-64's
// baseline): every lane computes what the scalar code computes for that component, in the same
// order (IEEE single precision, no fused multiply-add), so every row gives Bullet's bits.
#include "physics/solver.hpp"

#include <BulletDynamics/ConstraintSolver/btTypedConstraint.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include <algorithm>
#include <cstring>

namespace mmdkit::physics::detail {

#if defined(__SSE2__)

namespace {

inline __m128 load(const btVector3& v) noexcept { return _mm_loadu_ps(v.m_floats); }

/// x, y, z of `v`, the fourth lane +0 (Bullet's scalar += leaves a delta velocity's fourth
/// component, which it never reads, as it was: +0 from btSolverBody's set-up).
inline __m128 xyz(__m128 v) noexcept { return _mm_and_ps(v, _mm_castsi128_ps(_mm_set_epi32(0, -1, -1, -1))); }

/// The velocity terms of a row, each as Bullet's scalar code computes it:
/// va = n1·Δv_A + r1·Δω_A, vb = n2·Δv_B + r2·Δω_B, every dot product (x·x' + y·y') + z·z'.
[[gnu::always_inline]] inline void velocities(const btSolverBody& a, const btSolverBody& b, const btSolverConstraint& c,
                                              btScalar& va, btScalar& vb) noexcept {
  const __m128 p1 = _mm_mul_ps(load(c.m_contactNormal1), load(a.m_deltaLinearVelocity));
  const __m128 p2 = _mm_mul_ps(load(c.m_relpos1CrossNormal), load(a.m_deltaAngularVelocity));
  const __m128 p3 = _mm_mul_ps(load(c.m_contactNormal2), load(b.m_deltaLinearVelocity));
  const __m128 p4 = _mm_mul_ps(load(c.m_relpos2CrossNormal), load(b.m_deltaAngularVelocity));
  const __m128 l12 = _mm_unpacklo_ps(p1, p2), l34 = _mm_unpacklo_ps(p3, p4);  // x1 x2 y1 y2, x3 x4 y3 y4
  const __m128 h12 = _mm_unpackhi_ps(p1, p2), h34 = _mm_unpackhi_ps(p3, p4);  // z1 z2 . ., z3 z4 . .
  const __m128 x = _mm_movelh_ps(l12, l34), y = _mm_movehl_ps(l34, l12), z = _mm_movelh_ps(h12, h34);
  const __m128 dots = _mm_add_ps(_mm_add_ps(x, y), z);  // the four dot products
  const __m128 sums = _mm_add_ps(dots, _mm_shuffle_ps(dots, dots, _MM_SHUFFLE(3, 3, 1, 1)));
  va = _mm_cvtss_f32(sums);
  vb = _mm_cvtss_f32(_mm_movehl_ps(sums, sums));
}

/// btSolverBody::internalApplyImpulse for one body of a row: Δv += (linear · impulse) · linear
/// factor, Δω += angular · (impulse · angular factor), component by component; `linear` (the
/// row's normal × the body's inverse mass) and `angular` come with a +0 fourth lane. With unit
/// factors (every MMD body) the multiplications by 1 are left out: x · 1 = x exactly.
[[gnu::always_inline]] inline void apply(btSolverBody& body, const float* linear, const float* angular, bool unit,
                                         __m128 impulse) noexcept {
  __m128 dv = _mm_mul_ps(_mm_load_ps(linear), impulse);
  __m128 dw;
  if (unit) {
    dw = _mm_mul_ps(_mm_load_ps(angular), impulse);
  } else {
    dv = xyz(_mm_mul_ps(dv, load(body.m_linearFactor)));
    dw = xyz(_mm_mul_ps(_mm_load_ps(angular), _mm_mul_ps(impulse, load(body.m_angularFactor))));
  }
  _mm_storeu_ps(body.m_deltaLinearVelocity.m_floats, _mm_add_ps(load(body.m_deltaLinearVelocity), dv));
  _mm_storeu_ps(body.m_deltaAngularVelocity.m_floats, _mm_add_ps(load(body.m_deltaAngularVelocity), dw));
}

/// Bullet's row: with lower and upper impulse limits (joint and friction rows) or, `upper` false,
/// a lower limit only (contacts). Returns the residual Bullet returns: the impulse change ×
/// (1 / m_jacDiagABInv) in double, as a btScalar.
template <bool upper, typename Item>
[[gnu::always_inline]] inline btScalar solve_row(const Item& it) noexcept {
  btSolverBody& a = *it.a;
  btSolverBody& b = *it.b;
  const btSolverConstraint& c = *it.row;
  btScalar delta = c.m_rhs - btScalar(c.m_appliedImpulse) * c.m_cfm;
  btScalar va, vb;
  velocities(a, b, c, va, vb);
  delta -= va * c.m_jacDiagABInv;
  delta -= vb * c.m_jacDiagABInv;
  const btScalar sum = btScalar(c.m_appliedImpulse) + delta;
  if (sum < c.m_lowerLimit) {
    delta = c.m_lowerLimit - c.m_appliedImpulse;
    c.m_appliedImpulse = c.m_lowerLimit;
  } else if (upper && sum > c.m_upperLimit) {
    delta = c.m_upperLimit - c.m_appliedImpulse;
    c.m_appliedImpulse = c.m_upperLimit;
  } else {
    c.m_appliedImpulse = sum;
  }
  const __m128 impulse = _mm_set1_ps(delta);
  if (it.write_a) apply(a, it.linear_a, it.angular_a, it.unit_a, impulse);
  if (it.write_b) apply(b, it.linear_b, it.angular_b, it.unit_b, impulse);
  return static_cast<btScalar>(static_cast<double>(delta) * it.inverse_jacobian);
}

/// Whether x, y, z of `v` are exactly 1.
inline bool unit(const btVector3& v) noexcept { return v.x() == 1 && v.y() == 1 && v.z() == 1; }

}  // namespace

void Solver::reserve(int contacts, int joint_rows, int bodies) {
  m_tmpSolverContactConstraintPool.reserve(contacts);
  m_orderTmpConstraintPool.reserve(contacts);
  m_tmpSolverContactFrictionConstraintPool.reserve(2 * contacts);  // 1 per contact, 2 with 2D friction
  m_orderFrictionConstraintPool.reserve(2 * contacts);
  const auto rows = static_cast<std::size_t>(std::max(0, joint_rows) + 3 * std::max(0, contacts));
  items_.reserve(rows);
  rows_.reserve(rows);
  level_.reserve(rows);
  count_.reserve(rows + 2);
  residual_.reserve(rows);
  solved_.reserve(rows);
  last_.reserve(static_cast<std::size_t>(std::max(0, bodies)) + 1);
  body_.reserve(static_cast<std::size_t>(std::max(0, bodies)) + 1);
}

bool Solver::schedule(btTypedConstraint** constraints, int numConstraints, const btContactSolverInfo& info) {
  if (info.m_solverMode & (SOLVER_RANDMIZE_ORDER | SOLVER_INTERLEAVE_CONTACT_AND_FRICTION_CONSTRAINTS)) return false;
  if (m_tmpSolverContactRollingFrictionConstraintPool.size() != 0) return false;
  if (m_resolveSingleConstraintRowGeneric != getScalarConstraintRowSolverGeneric() ||
      m_resolveSingleConstraintRowLowerLimit != getScalarConstraintRowSolverLowerLimit())
    return false;
  for (int j = 0; j < numConstraints; ++j)
    if (constraints[j]->isEnabled() && constraints[j]->getConstraintType() == CONETWIST_CONSTRAINT_TYPE) return false;

  // Bullet's iteration (btSequentialImpulseConstraintSolver::solveSingleIteration) initialises
  // the solver bodies of every enabled joint here, between the joint and the contact rows; after
  // the set-up this creates a body only for a joint without rows, which no row touches. Done
  // first, so the pool no longer moves while the items point into it.
  for (int j = 0; j < numConstraints; ++j) {
    if (!constraints[j]->isEnabled()) continue;
    getOrInitSolverBody(constraints[j]->getRigidBodyA(), info.m_timeStep);
    getOrInitSolverBody(constraints[j]->getRigidBodyB(), info.m_timeStep);
  }

  const int joints = m_tmpSolverNonContactConstraintPool.size();
  const int contacts = m_tmpSolverContactConstraintPool.size();
  const int frictions = m_tmpSolverContactFrictionConstraintPool.size();
  const auto n = static_cast<std::size_t>(joints + contacts + frictions);
  rows_.resize(n);
  level_.resize(n);
  const auto bodies = static_cast<std::size_t>(m_tmpSolverBodyPool.size());
  last_.assign(bodies, 0);
  body_.resize(bodies);
  for (std::size_t k = 0; k < bodies; ++k) {
    const btSolverBody& b = m_tmpSolverBodyPool[static_cast<int>(k)];
    body_[k] = static_cast<std::uint8_t>((b.m_originalBody != nullptr ? kWritten : 0) |
                                         (unit(b.m_linearFactor) && unit(b.m_angularFactor) ? kUnit : 0));
  }
  // Levels, in Bullet's order: 1 + the highest level of an earlier row sharing a written body.
  std::uint32_t levels = 0;
  std::size_t i = 0;
  auto add = [&](btSolverConstraint& row) {
    const auto ia = static_cast<std::size_t>(row.m_solverBodyIdA), ib = static_cast<std::size_t>(row.m_solverBodyIdB);
    const bool wa = body_[ia] & kWritten, wb = body_[ib] & kWritten;
    std::uint32_t l = std::max(wa ? last_[ia] : 0u, wb ? last_[ib] : 0u) + 1;
    if (wa) last_[ia] = l;
    if (wb) last_[ib] = l;
    levels = std::max(levels, l);
    rows_[i] = &row;
    level_[i++] = l;
  };
  for (int j = 0; j < joints; ++j) add(m_tmpSolverNonContactConstraintPool[m_orderNonContactConstraintPool[j]]);
  for (int j = 0; j < contacts; ++j) add(m_tmpSolverContactConstraintPool[m_orderTmpConstraintPool[j]]);
  for (int j = 0; j < frictions; ++j) {
    btSolverConstraint& f = m_tmpSolverContactFrictionConstraintPool[m_orderFrictionConstraintPool[j]];
    const btSolverConstraint& c = m_tmpSolverContactConstraintPool[f.m_frictionIndex];
    // The friction row reads its contact's impulse: ordered after it through their shared bodies.
    if (f.m_solverBodyIdA != c.m_solverBodyIdA || f.m_solverBodyIdB != c.m_solverBodyIdB ||
        !((body_[static_cast<std::size_t>(f.m_solverBodyIdA)] | body_[static_cast<std::size_t>(f.m_solverBodyIdB)]) & kWritten))
      return false;
    add(f);
  }
  // Stable counting sort by level.
  count_.assign(static_cast<std::size_t>(levels) + 2, 0);
  for (std::size_t k = 0; k < n; ++k) ++count_[level_[k] + 1];
  for (std::size_t l = 1; l < count_.size(); ++l) count_[l] += count_[l - 1];
  items_.resize(n);
  const auto first_contact = static_cast<std::size_t>(joints), first_friction = static_cast<std::size_t>(joints + contacts);
  for (std::size_t k = 0; k < n; ++k) {
    btSolverConstraint& row = *rows_[k];
    Item& it = items_[count_[level_[k]]++];
    it.row = &row;
    it.a = &m_tmpSolverBodyPool[row.m_solverBodyIdA];
    it.b = &m_tmpSolverBodyPool[row.m_solverBodyIdB];
    it.inverse_jacobian = 1. / static_cast<double>(row.m_jacDiagABInv);
    const std::uint8_t fa = body_[static_cast<std::size_t>(row.m_solverBodyIdA)];
    const std::uint8_t fb = body_[static_cast<std::size_t>(row.m_solverBodyIdB)];
    it.write_a = fa & kWritten;
    it.write_b = fb & kWritten;
    it.unit_a = fa & kUnit;
    it.unit_b = fb & kUnit;
    _mm_store_ps(it.linear_a, xyz(_mm_mul_ps(load(row.m_contactNormal1), load(it.a->m_invMass))));
    _mm_store_ps(it.linear_b, xyz(_mm_mul_ps(load(row.m_contactNormal2), load(it.b->m_invMass))));
    _mm_store_ps(it.angular_a, xyz(load(row.m_angularComponentA)));
    _mm_store_ps(it.angular_b, xyz(load(row.m_angularComponentB)));
    it.position = static_cast<std::uint32_t>(k);
    it.kind = k < first_contact ? kJoint : k < first_friction ? kContact : kFriction;
    it.contact = it.kind == kFriction ? &m_tmpSolverContactConstraintPool[row.m_frictionIndex] : nullptr;
  }
  residual_.resize(n);
  solved_.assign(n, 0);
  return true;
}

namespace {

/// The columns of a btMatrix3x3 (fourth lanes +0), so that M·v is (c0·vx + c1·vy) + c2·vz lane by
/// lane: row k's dot (m[k][0]·vx + m[k][1]·vy) + m[k][2]·vz, as btMatrix3x3's operator*.
struct Columns {
  __m128 c0, c1, c2;
  explicit Columns(const btMatrix3x3& m) noexcept {
    __m128 r0 = load(m[0]), r1 = load(m[1]), r2 = load(m[2]), r3 = _mm_setzero_ps();
    _MM_TRANSPOSE4_PS(r0, r1, r2, r3);
    c0 = r0;
    c1 = r1;
    c2 = r2;
  }
  __m128 times(__m128 v) const noexcept {
    const __m128 x = _mm_shuffle_ps(v, v, _MM_SHUFFLE(0, 0, 0, 0)), y = _mm_shuffle_ps(v, v, _MM_SHUFFLE(1, 1, 1, 1)),
                 z = _mm_shuffle_ps(v, v, _MM_SHUFFLE(2, 2, 2, 2));
    return _mm_add_ps(_mm_add_ps(_mm_mul_ps(c0, x), _mm_mul_ps(c1, y)), _mm_mul_ps(c2, z));
  }
};

/// The four dot products a·b, c·d, e·f, g·h, each (x·x' + y·y') + z·z' as btVector3::dot, in lanes
/// 0-3.
inline __m128 dots4(__m128 a, __m128 b, __m128 c, __m128 d, __m128 e, __m128 f, __m128 g, __m128 h) noexcept {
  const __m128 p1 = _mm_mul_ps(a, b), p2 = _mm_mul_ps(c, d), p3 = _mm_mul_ps(e, f), p4 = _mm_mul_ps(g, h);
  const __m128 l12 = _mm_unpacklo_ps(p1, p2), l34 = _mm_unpacklo_ps(p3, p4);
  const __m128 h12 = _mm_unpackhi_ps(p1, p2), h34 = _mm_unpackhi_ps(p3, p4);
  const __m128 x = _mm_movelh_ps(l12, l34), y = _mm_movehl_ps(l34, l12), z = _mm_movelh_ps(h12, h34);
  return _mm_add_ps(_mm_add_ps(x, y), z);
}

inline btScalar lane(__m128 v, int k) noexcept {
  alignas(16) float f[4];
  _mm_store_ps(f, v);
  return f[k];
}

}  // namespace

void Solver::convertJoints(btTypedConstraint** constraints, int numConstraints, const btContactSolverInfo& info) {
  // Bullet 3.24's convertJoints, line for line; convert_joint is its convertJoint.
  for (int j = 0; j < numConstraints; j++) {
    btTypedConstraint* constraint = constraints[j];
    constraint->buildJacobian();
    constraint->internalSetAppliedImpulse(0.0f);
  }
  int total_rows = 0;
  m_tmpConstraintSizesPool.resizeNoInitialize(numConstraints);
  for (int i = 0; i < numConstraints; i++) {
    btTypedConstraint::btConstraintInfo1& info1 = m_tmpConstraintSizesPool[i];
    if (btJointFeedback* fb = constraints[i]->getJointFeedback()) {
      fb->m_appliedForceBodyA.setZero();
      fb->m_appliedTorqueBodyA.setZero();
      fb->m_appliedForceBodyB.setZero();
      fb->m_appliedTorqueBodyB.setZero();
    }
    if (constraints[i]->isEnabled()) {
      constraints[i]->getInfo1(&info1);
    } else {
      info1.m_numConstraintRows = 0;
      info1.nub = 0;
    }
    total_rows += info1.m_numConstraintRows;
  }
  m_tmpSolverNonContactConstraintPool.resizeNoInitialize(total_rows);
  int current = 0;
  for (int i = 0; i < numConstraints; i++) {
    const btTypedConstraint::btConstraintInfo1& info1 = m_tmpConstraintSizesPool[i];
    if (info1.m_numConstraintRows) {
      btTypedConstraint* constraint = constraints[i];
      const int a = getOrInitSolverBody(constraint->getRigidBodyA(), info.m_timeStep);
      const int b = getOrInitSolverBody(constraint->getRigidBodyB(), info.m_timeStep);
      convert_joint(&m_tmpSolverNonContactConstraintPool[current], constraint, info1, a, b, info);
    }
    current += info1.m_numConstraintRows;
  }
}

void Solver::convert_joint(btSolverConstraint* rows, btTypedConstraint* constraint, const btTypedConstraint::btConstraintInfo1& info1,
                           int body_a, int body_b, const btContactSolverInfo& info) {
  const btRigidBody& ra = constraint->getRigidBodyA();
  const btRigidBody& rb = constraint->getRigidBodyB();
  const btSolverBody& sa = m_tmpSolverBodyPool[body_a];
  const btSolverBody& sb = m_tmpSolverBodyPool[body_b];
  const int iterations =
      constraint->getOverrideNumSolverIterations() > 0 ? constraint->getOverrideNumSolverIterations() : info.m_numIterations;
  if (iterations > m_maxOverrideNumSolverIterations) m_maxOverrideNumSolverIterations = iterations;
  const int n = info1.m_numConstraintRows;
  for (int j = 0; j < n; j++) {
    std::memset(static_cast<void*>(&rows[j]), 0, sizeof(btSolverConstraint));
    rows[j].m_lowerLimit = -SIMD_INFINITY;
    rows[j].m_upperLimit = SIMD_INFINITY;
    rows[j].m_appliedImpulse = 0.f;
    rows[j].m_appliedPushImpulse = 0.f;
    rows[j].m_solverBodyIdA = body_a;
    rows[j].m_solverBodyIdB = body_b;
    rows[j].m_overrideNumSolverIterations = iterations;
  }
  btTypedConstraint::btConstraintInfo2 info2;
  info2.fps = 1.f / info.m_timeStep;
  info2.erp = info.m_erp;
  info2.m_J1linearAxis = rows->m_contactNormal1;
  info2.m_J1angularAxis = rows->m_relpos1CrossNormal;
  info2.m_J2linearAxis = rows->m_contactNormal2;
  info2.m_J2angularAxis = rows->m_relpos2CrossNormal;
  info2.rowskip = sizeof(btSolverConstraint) / sizeof(btScalar);
  info2.m_constraintError = &rows->m_rhs;
  rows->m_cfm = info.m_globalCfm;
  info2.m_damping = info.m_damping;
  info2.cfm = &rows->m_cfm;
  info2.m_lowerLimit = &rows->m_lowerLimit;
  info2.m_upperLimit = &rows->m_upperLimit;
  info2.m_numIterations = info.m_numIterations;
  constraint->getInfo2(&info2);

  // The finishing, per constraint: inverse inertia columns, factors, velocities (+ the external
  // impulses of a body the solver writes: btVector3 sums, component by component).
  const Columns ia(ra.getInvInertiaTensorWorld()), ib(rb.getInvInertiaTensorWorld());
  const __m128 fa = load(ra.getAngularFactor()), fb = load(rb.getAngularFactor());
  const __m128 ma = _mm_set1_ps(ra.getInvMass()), mb = _mm_set1_ps(rb.getInvMass());
  const __m128 zero = _mm_setzero_ps();
  const __m128 va = _mm_add_ps(load(ra.getLinearVelocity()), sa.m_originalBody ? load(sa.m_externalForceImpulse) : zero);
  const __m128 wa = _mm_add_ps(load(ra.getAngularVelocity()), sa.m_originalBody ? load(sa.m_externalTorqueImpulse) : zero);
  const __m128 vb = _mm_add_ps(load(rb.getLinearVelocity()), sb.m_originalBody ? load(sb.m_externalForceImpulse) : zero);
  const __m128 wb = _mm_add_ps(load(rb.getAngularVelocity()), sb.m_originalBody ? load(sb.m_externalTorqueImpulse) : zero);
  const btScalar breaking = constraint->getBreakingImpulseThreshold();
  for (int j = 0; j < n; j++) {
    btSolverConstraint& c = rows[j];
    if (c.m_upperLimit >= breaking) c.m_upperLimit = breaking;
    if (c.m_lowerLimit <= -breaking) c.m_lowerLimit = -breaking;
    c.m_originalContactPoint = constraint;
    const __m128 n1 = load(c.m_contactNormal1), r1 = load(c.m_relpos1CrossNormal);
    const __m128 n2 = load(c.m_contactNormal2), r2 = load(c.m_relpos2CrossNormal);
    const __m128 ja = ia.times(r1), jb = ib.times(r2);  // I⁻¹ · torque axis (iMJaA, iMJaB)
    _mm_storeu_ps(c.m_angularComponentA.m_floats, xyz(_mm_mul_ps(ja, fa)));
    _mm_storeu_ps(c.m_angularComponentB.m_floats, xyz(_mm_mul_ps(jb, fb)));
    // sum = iMJlA·n1 + iMJaA·r1 + iMJlB·n2 + iMJaB·r2, added in that order.
    const __m128 d = dots4(_mm_mul_ps(n1, ma), n1, ja, r1, _mm_mul_ps(n2, mb), n2, jb, r2);
    btScalar sum = lane(d, 0);
    sum += lane(d, 1);
    sum += lane(d, 2);
    sum += lane(d, 3);
    const btScalar fsum = btFabs(sum);
    c.m_jacDiagABInv = fsum > SIMD_EPSILON ? 1.f / sum : 0.f;
    // rel_vel = (n1·vA + r1·ωA) + (n2·vB + r2·ωB).
    const __m128 e = dots4(n1, va, r1, wa, n2, vb, r2, wb);
    const btScalar vel1 = lane(e, 0) + lane(e, 1), vel2 = lane(e, 2) + lane(e, 3);
    const btScalar rel_vel = vel1 + vel2;
    const btScalar velocity_error = 0.f - rel_vel * info2.m_damping;
    const btScalar penetration_impulse = c.m_rhs * c.m_jacDiagABInv;
    const btScalar velocity_impulse = velocity_error * c.m_jacDiagABInv;
    c.m_rhs = penetration_impulse + velocity_impulse;
    c.m_appliedImpulse = 0.f;
  }
}

btScalar Solver::solveSingleIteration(int iteration, btCollisionObject** bodies, int numBodies, btPersistentManifold** manifolds,
                                      int numManifolds, btTypedConstraint** constraints, int numConstraints,
                                      const btContactSolverInfo& info, btIDebugDraw* debug) {
  if (iteration == 0) scheduled_ = schedule(constraints, numConstraints, info);
  if (!scheduled_)
    return btSequentialImpulseConstraintSolver::solveSingleIteration(iteration, bodies, numBodies, manifolds, numManifolds,
                                                                     constraints, numConstraints, info, debug);
  ++scheduled_iterations_;
  const bool contacts = iteration < info.m_numIterations;
  const auto stamp = static_cast<std::uint32_t>(iteration) + 1;
  // Bullet's residual is btMax (a > b ? a : b) over the solved rows' residual², from 0, in its
  // order. Without a NaN that is the largest of them whatever the order; a NaN is not simply kept
  // by btMax (the next row replaces it), so then the fold is redone in Bullet's order.
  btScalar largest = 0.f, all = 0.f;
  for (const Item& it : items_) {
    btSolverConstraint& c = *it.row;
    btScalar r;
    if (it.kind == kJoint) {
      if (iteration >= c.m_overrideNumSolverIterations) continue;
      r = solve_row<true>(it);
    } else if (!contacts) {
      continue;
    } else if (it.kind == kContact) {
      r = solve_row<false>(it);
    } else {
      const btScalar total = it.contact->m_appliedImpulse;
      if (!(total > btScalar(0))) continue;
      c.m_lowerLimit = -(c.m_friction * total);
      c.m_upperLimit = c.m_friction * total;
      r = solve_row<true>(it);
    }
    const btScalar r2 = r * r;
    largest = btMax(largest, r2);
    all += r2;  // NaN if one is (the others are ≥ 0)
    residual_[it.position] = r2;
    solved_[it.position] = stamp;
  }
  if (all == all) return largest;
  btScalar residual = 0.f;
  for (std::size_t i = 0; i < residual_.size(); ++i)
    if (solved_[i] == stamp) residual = btMax(residual, residual_[i]);
  return residual;
}

#else  // no SSE2: Bullet's own set-up and iterations

void Solver::reserve(int contacts, int /*joint_rows*/, int /*bodies*/) {
  m_tmpSolverContactConstraintPool.reserve(contacts);
  m_orderTmpConstraintPool.reserve(contacts);
  m_tmpSolverContactFrictionConstraintPool.reserve(2 * contacts);
  m_orderFrictionConstraintPool.reserve(2 * contacts);
}

void Solver::convertJoints(btTypedConstraint** constraints, int numConstraints, const btContactSolverInfo& info) {
  btSequentialImpulseConstraintSolver::convertJoints(constraints, numConstraints, info);
}

btScalar Solver::solveSingleIteration(int iteration, btCollisionObject** bodies, int numBodies, btPersistentManifold** manifolds,
                                      int numManifolds, btTypedConstraint** constraints, int numConstraints,
                                      const btContactSolverInfo& info, btIDebugDraw* debug) {
  return btSequentialImpulseConstraintSolver::solveSingleIteration(iteration, bodies, numBodies, manifolds, numManifolds,
                                                                   constraints, numConstraints, info, debug);
}

#endif

}  // namespace mmdkit::physics::detail
