// The physics world's constraint solver: Bullet's sequential impulse solver, its iterations run
// in an order that gives the same bits with more rows in flight (src/physics/solver.cpp,
// docs/PHYSICS.md "Speed").
#pragma once

#include <BulletDynamics/ConstraintSolver/btSequentialImpulseConstraintSolver.h>

#include <cstdint>
#include <vector>

namespace mmdkit::physics::detail {

/// btSequentialImpulseConstraintSolver with three changes, none changing a bit of its results:
/// - its contact pools (protected members) can be reserved up front (reserve);
/// - the joint rows' set-up (convertJoints) finishes each row with SSE2 lanes;
/// - an iteration (solveSingleIteration) solves the same rows with the same arithmetic, but not
///   in Bullet's order, one row after the other (joint rows, then contacts, then friction): each
///   row reads and writes only its two solver bodies and itself (a friction row also reads its
///   contact row's impulse, and that contact has the same bodies), so two rows whose bodies are
///   disjoint commute exactly. The rows are grouped by level — a row's level is one more than the
///   highest level of the earlier rows sharing a body with it that the solver writes (a body
///   with a Bullet rigid body behind it: dynamic or kinematic; never the shared fixed body) — and
///   run level by level, in Bullet's order within a level. Every row then runs after the rows it
///   depends on, as in Bullet's order, but neighbouring rows in a level are independent, so the
///   processor overlaps them instead of waiting for each row's result (Bullet's row loop is bound
///   by that chain: a joint's 6 rows share both bodies, and so do a chain's consecutive joints).
///   Each row is Bullet's scalar arithmetic, its three-component products in SSE2 lanes. The
///   iteration's residual (Bullet stops early when it is ≤ its threshold) is folded in Bullet's
///   order. Bullet's own set-up and iteration run without SSE2; its own iteration runs when the
///   solver mode randomizes or interleaves the rows, with rolling friction, with a cone-twist
///   joint (the only type with an obsolete solve step in Bullet 3.24), when the row functions are
///   not Bullet's scalar ones, or when a friction row's bodies are not its contact's.
class Solver final : public btSequentialImpulseConstraintSolver {
 public:
  /// Reserves the contact pools for `contacts` contact points (1 row each, 2 friction rows at
  /// most) and the schedule for those rows, `joint_rows` joint rows and `bodies` solver bodies, so
  /// that no step allocates.
  void reserve(int contacts, int joint_rows, int bodies);

  /// Iterations whose rows ran in level order since construction (tests: the schedule is used).
  std::uint64_t scheduled_iterations() const noexcept { return scheduled_iterations_; }

 protected:
  /// Bullet's btSequentialImpulseConstraintSolver::convertJoints with its per-row finishing
  /// (convertJoint: inverse-mass terms, m_jacDiagABInv, the velocity part of m_rhs) done four
  /// lanes at a time, each lane the scalar code's operations in its order; the constraints' own
  /// getInfo1 / getInfo2 run as in Bullet. Same bits (test Solver.*).
  void convertJoints(btTypedConstraint** constraints, int numConstraints, const btContactSolverInfo& info) override;

  btScalar solveSingleIteration(int iteration, btCollisionObject** bodies, int numBodies, btPersistentManifold** manifolds,
                                int numManifolds, btTypedConstraint** constraints, int numConstraints,
                                const btContactSolverInfo& info, btIDebugDraw* debug) override;

 private:
  /// One row of the iteration, in level order.
  struct Item {
    alignas(16) float linear_a[4];     ///< row normal 1 × A's inverse mass (x, y, z, +0)
    alignas(16) float angular_a[4];    ///< the row's angular component for A (x, y, z, +0)
    alignas(16) float linear_b[4];
    alignas(16) float angular_b[4];
    btSolverConstraint* row = nullptr;
    btSolverBody* a = nullptr;
    btSolverBody* b = nullptr;
    const btSolverConstraint* contact = nullptr;  ///< friction rows: their contact row
    double inverse_jacobian = 0;                  ///< 1. / m_jacDiagABInv in double, as Bullet's residual
    std::uint32_t position = 0;                   ///< index in Bullet's order
    std::uint8_t kind = 0;                        ///< kJoint, kContact, kFriction
    bool write_a = false, write_b = false;        ///< the body has a Bullet body (the solver writes it)
    bool unit_a = false, unit_b = false;          ///< its linear and angular factors are (1, 1, 1)
  };
  static constexpr std::uint8_t kJoint = 0, kContact = 1, kFriction = 2;

  /// Bullet's convertJoint for one constraint (rows from `rows`).
  void convert_joint(btSolverConstraint* rows, btTypedConstraint* constraint, const btTypedConstraint::btConstraintInfo1& info1,
                     int body_a, int body_b, const btContactSolverInfo& info);

  /// Builds items_ for this solveGroup's pools; false when Bullet's own iteration must run.
  bool schedule(btTypedConstraint** constraints, int numConstraints, const btContactSolverInfo& info);

  bool scheduled_ = false;              ///< this solveGroup runs the schedule
  std::vector<Item> items_;             ///< level order
  std::vector<btSolverConstraint*> rows_;  ///< scratch: the rows in Bullet's order
  std::vector<std::uint32_t> level_;    ///< scratch: per row in Bullet's order
  std::vector<std::uint32_t> count_;    ///< scratch: rows per level (then first slot)
  std::vector<std::uint32_t> last_;     ///< scratch: per solver body, the level of its last row
  std::vector<std::uint8_t> body_;      ///< scratch: per solver body, kWritten | kUnit
  static constexpr std::uint8_t kWritten = 1, kUnit = 2;
  std::vector<float> residual_;         ///< per row in Bullet's order: residual², this iteration
  std::vector<std::uint32_t> solved_;   ///< per row in Bullet's order: 1 + the last iteration solving it
  std::uint64_t scheduled_iterations_ = 0;
};

}  // namespace mmdkit::physics::detail
