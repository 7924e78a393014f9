// Bullet objects of one body / joint (src/physics/bullet_objects.cpp).
#pragma once

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "physics/internal.hpp"

namespace mmdkit::physics::detail {

/// The collision shape of a (repaired) body.
std::unique_ptr<btCollisionShape> make_shape(const BodyDesc& d);
/// A body at `at`, kinematic (mass 0, CF_KINEMATIC_OBJECT) or dynamic; never sleeps; additional
/// damping on.
std::unique_ptr<btRigidBody> make_body(const BodyDesc& d, btCollisionShape& shape, const btTransform& at, bool kinematic);
/// Switches a body between kinematic and dynamic (physics-off keys).
void set_kinematic(btRigidBody& body, const BodyDesc& d, bool kinematic);
/// The Bullet constraint of a joint between bodies a and b.
std::unique_ptr<btTypedConstraint> make_constraint(const JointDesc& j, btRigidBody& a, const BodyDesc& da, btRigidBody& b,
                                                   const BodyDesc& db);

/// Bullet's brute-force broadphase that remembers, per pair of handles, whether the pair is in
/// the pair cache, so that a step does not look every pair up in the cache's hash table
/// (btSimpleBroadphase::calculateOverlappingPairs calls findPair for all n(n−1)/2 pairs, overlapping
/// or not: 5.5 % of miku_v2's physics frame). The pair cache sees the same additions and removals
/// in the same order as with btSimpleBroadphase: an overlapping pair not in the cache is added
/// (the cache's group / mask filter may refuse it: then it is offered again next step, as Bullet
/// does), a pair in the cache whose boxes no longer overlap is removed. Pairs leave the cache
/// otherwise only with a destroyed proxy (removeRigidBody), whose row and column are cleared here.
class PairStateBroadphase final : public btSimpleBroadphase {
 public:
  explicit PairStateBroadphase(int max_proxies)
      : btSimpleBroadphase(max_proxies), n_(static_cast<std::size_t>(max_proxies)), in_cache_(n_ * n_, 0) {}

  void calculateOverlappingPairs(btDispatcher* dispatcher) override {
    // Without a filter callback the cache's test is the group / mask rule; a pair failing it is
    // refused by addOverlappingPair (nothing else happens), so unless it is in the cache its boxes
    // need no test. The boxes are compared as btSimpleBroadphase::aabbOverlap does (min ≤ max on
    // every axis, false with a NaN), three axes at once.
    const bool group_mask = m_pairCache->getOverlapFilterCallback() == nullptr;
    int largest = -1;
    for (int i = 0; i <= m_LastHandleIndex; ++i) {
      btSimpleBroadphaseProxy* p0 = &m_pHandles[i];
      if (!p0->m_clientObject) continue;
      largest = i;
      const int group0 = p0->m_collisionFilterGroup, mask0 = p0->m_collisionFilterMask;
#if defined(__SSE2__)
      const __m128 min0 = _mm_loadu_ps(p0->m_aabbMin.m_floats), max0 = _mm_loadu_ps(p0->m_aabbMax.m_floats);
#endif
      std::uint8_t* row = &in_cache_[static_cast<std::size_t>(i) * n_];
      for (int j = i + 1; j <= m_LastHandleIndex; ++j) {
        btSimpleBroadphaseProxy* p1 = &m_pHandles[j];
        if (!p1->m_clientObject) continue;
        std::uint8_t& in = row[j];
        if (!in && group_mask && (!(group0 & p1->m_collisionFilterMask) || !(p1->m_collisionFilterGroup & mask0))) continue;
#if defined(__SSE2__)
        const __m128 le = _mm_and_ps(_mm_cmple_ps(min0, _mm_loadu_ps(p1->m_aabbMax.m_floats)),
                                     _mm_cmple_ps(_mm_loadu_ps(p1->m_aabbMin.m_floats), max0));
        const bool overlap = (_mm_movemask_ps(le) & 7) == 7;
#else
        const bool overlap = aabbOverlap(p0, p1);
#endif
        if (overlap) {
          if (!in && m_pairCache->addOverlappingPair(p0, p1) != nullptr) in = 1;
        } else if (in) {
          m_pairCache->removeOverlappingPair(p0, p1, dispatcher);
          in = 0;
        }
      }
    }
    m_LastHandleIndex = largest;
  }

  void destroyProxy(btBroadphaseProxy* proxy, btDispatcher* dispatcher) override {
    const auto h = static_cast<std::size_t>(static_cast<btSimpleBroadphaseProxy*>(proxy) - m_pHandles);
    for (std::size_t k = 0; k < n_; ++k) in_cache_[h * n_ + k] = in_cache_[k * n_ + h] = 0;
    btSimpleBroadphase::destroyProxy(proxy, dispatcher);
  }

 private:
  std::size_t n_;
  std::vector<std::uint8_t> in_cache_;  // [i * n + j], i < j: the pair of handles i, j is in the cache
};

}  // namespace mmdkit::physics::detail
