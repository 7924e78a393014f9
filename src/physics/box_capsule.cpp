// Box–capsule and box–sphere narrow phase without the GJK queries that cannot find a contact
// (box_capsule.hpp).
// Bullet 3.24: btConvexConvexAlgorithm::processCollision (GJK on the shapes' cores,
// btConvexShape::localGetSupportVertexWithoutMarginNonVirtual: a box's implicit dimensions, a
// capsule's segment, a sphere's centre), btGjkPairDetector (reported distance = |closest simplex point| − both
// margins), btManifoldResult::addContactPoint (a point farther than the breaking threshold is
// dropped), btManifoldResult::refreshContactPoints (nothing to do without points).
#include "physics/box_capsule.hpp"

#include <atomic>
#include <cmath>
#include <new>

namespace mmdkit::physics::detail {

namespace {

std::atomic<unsigned long> g_skipped{0};

/// Rounding allowance of the bound against Bullet's single-precision GJK: 0.001 units plus 1e-4
/// of the pair's size and distance (GJK's and this test's errors are a few ulps of those).
btScalar safety(const btTransform& box, const btVector3& half, const btTransform& segment, btScalar half_height) noexcept {
  const btScalar scale = (segment.getOrigin() - box.getOrigin()).length() + half.length() + half_height;
  return 1.0e-3f + 1.0e-4f * scale;
}

}  // namespace

bool box_segment_farther_than(const btTransform& box, const btVector3& half, const btTransform& segment, int up,
                              btScalar half_height, btScalar gap) noexcept {
  const btMatrix3x3& r = box.getBasis();
  const btVector3 d = segment.getOrigin() - box.getOrigin();
  const btVector3 axis = segment.getBasis().getColumn(up) * half_height;
  const btVector3 c = d * r, a = axis * r;  // Rᵀ d, Rᵀ axis: the segment in the box's frame
  btScalar sum = 0;
  for (int k = 0; k < 3; ++k) {
    const btScalar centre = c[k], reach = std::fabs(a[k]);
    const btScalar below = -half[k] - (centre + reach), above = (centre - reach) - half[k];
    const btScalar g = below > 0 ? below : above > 0 ? above : 0;
    sum += g * g;
  }
  return gap >= 0 && sum > gap * gap;
}

void BoxCapsuleAlgorithm::processCollision(const btCollisionObjectWrapper* body0, const btCollisionObjectWrapper* body1,
                                           const btDispatcherInfo& info, btManifoldResult* result) {
  const btPersistentManifold* manifold = getManifold();
  if (manifold && manifold->getNumContacts() == 0) {
    const bool box_first = body0->getCollisionShape()->getShapeType() == BOX_SHAPE_PROXYTYPE;
    const btCollisionObjectWrapper* bw = box_first ? body0 : body1;
    const btCollisionObjectWrapper* cw = box_first ? body1 : body0;
    const int other = cw->getCollisionShape()->getShapeType();
    if (bw->getCollisionShape()->getShapeType() == BOX_SHAPE_PROXYTYPE &&
        (other == CAPSULE_SHAPE_PROXYTYPE || other == SPHERE_SHAPE_PROXYTYPE)) {
      const auto* box = static_cast<const btBoxShape*>(bw->getCollisionShape());
      const btConvexShape* round = static_cast<const btConvexShape*>(cw->getCollisionShape());
      // A sphere's core is its centre: a capsule of half height 0 (as Bullet's capsule–sphere
      // path treats it).
      const bool capsule = other == CAPSULE_SHAPE_PROXYTYPE;
      const btScalar h = capsule ? static_cast<const btCapsuleShape*>(round)->getHalfHeight() : btScalar(0);
      const int up = capsule ? static_cast<const btCapsuleShape*>(round)->getUpAxis() : 1;
      const btVector3& half = box->getImplicitShapeDimensions();
      const btScalar gap = box->getMargin() + round->getMargin() + manifold->getContactBreakingThreshold() +
                           safety(bw->getWorldTransform(), half, cw->getWorldTransform(), h);
      if (std::isfinite(gap) && box_segment_farther_than(bw->getWorldTransform(), half, cw->getWorldTransform(), up, h, gap)) {
        g_skipped.fetch_add(1, std::memory_order_relaxed);
        return;
      }
    }
  }
  btConvexConvexAlgorithm::processCollision(body0, body1, info, result);
}

unsigned long BoxCapsuleAlgorithm::skipped() noexcept { return g_skipped.load(std::memory_order_relaxed); }

BoxCapsuleAlgorithm::CreateFunc::CreateFunc(const btConvexConvexAlgorithm::CreateFunc& bullet)
    : btConvexConvexAlgorithm::CreateFunc(bullet.m_pdSolver) {
  m_numPerturbationIterations = bullet.m_numPerturbationIterations;
  m_minimumPointsPerturbationThreshold = bullet.m_minimumPointsPerturbationThreshold;
  m_swapped = bullet.m_swapped;
}

btCollisionAlgorithm* BoxCapsuleAlgorithm::CreateFunc::CreateCollisionAlgorithm(btCollisionAlgorithmConstructionInfo& ci,
                                                                               const btCollisionObjectWrapper* body0,
                                                                               const btCollisionObjectWrapper* body1) {
  static_assert(sizeof(BoxCapsuleAlgorithm) == sizeof(btConvexConvexAlgorithm),
                "the dispatcher's algorithm pool is sized for Bullet's algorithms");
  void* mem = ci.m_dispatcher1->allocateCollisionAlgorithm(sizeof(BoxCapsuleAlgorithm));
  return new (mem) BoxCapsuleAlgorithm(ci.m_manifold, ci, body0, body1, m_pdSolver, m_numPerturbationIterations,
                                       m_minimumPointsPerturbationThreshold);
}

}  // namespace mmdkit::physics::detail
