// Narrow phase of box–capsule and box–sphere pairs: Bullet's convex–convex algorithm, without its
// GJK query when the shapes are provably too far apart for a contact (src/physics/box_capsule.cpp).
#pragma once

#include <BulletCollision/CollisionDispatch/btConvexConvexAlgorithm.h>
#include <btBulletCollisionCommon.h>

namespace mmdkit::physics::detail {

/// Bullet's collision algorithm for a box and a capsule or a sphere (btConvexConvexAlgorithm: GJK,
/// EPA when they overlap; Bullet 3.24 uses it for box–sphere pairs too, its sphere–box algorithm
/// being compiled out), which skips the GJK query when it can only find nothing: the pair's manifold
/// exists and holds no point, and a lower bound of the distance between the shapes' cores (the
/// box shrunk by its margin, the capsule's segment or the sphere's centre — a capsule of half
/// height 0: what Bullet's GJK measures) minus both
/// margins exceeds the manifold's contact breaking threshold by a safety gap. Bullet's GJK
/// distance is never below that true distance (up to rounding far inside the gap), and
/// btManifoldResult::addContactPoint drops a point farther than the breaking threshold; with no
/// point in the manifold its refresh does nothing either, so skipping changes nothing. The bound:
/// the capsule's segment in the box's frame, the distance between its bounding box and the core
/// box. Most box–capsule pairs whose bounding boxes overlap are such pairs (miku_v2: 9 in 10
/// GJK queries found no point; box–sphere: 5 in 10), and GJK was a tenth of the physics step.
class BoxCapsuleAlgorithm final : public btConvexConvexAlgorithm {
 public:
  using btConvexConvexAlgorithm::btConvexConvexAlgorithm;

  void processCollision(const btCollisionObjectWrapper* body0, const btCollisionObjectWrapper* body1,
                        const btDispatcherInfo& info, btManifoldResult* result) override;

  /// Creates BoxCapsuleAlgorithm with the parameters of `bullet`, the configuration's convex–convex
  /// create function (penetration depth solver, perturbation settings).
  struct CreateFunc final : btConvexConvexAlgorithm::CreateFunc {
    explicit CreateFunc(const btConvexConvexAlgorithm::CreateFunc& bullet);
    btCollisionAlgorithm* CreateCollisionAlgorithm(btCollisionAlgorithmConstructionInfo& ci, const btCollisionObjectWrapper* body0,
                                                   const btCollisionObjectWrapper* body1) override;
  };

  /// Queries skipped since the program started (tests: the shortcut is taken).
  static unsigned long skipped() noexcept;
};

/// Whether the box core (half extents `half`, at `box`) and the segment ±`half_height` along axis
/// `up` of `segment` are certainly farther apart than `gap`.
bool box_segment_farther_than(const btTransform& box, const btVector3& half, const btTransform& segment, int up,
                              btScalar half_height, btScalar gap) noexcept;

}  // namespace mmdkit::physics::detail
