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
/// The Bullet constraint of a joint between bodies a and b; `frame_offset`: Bullet's frame offset
/// for the 6DOF types (false: Settings::bullet_275_joint_frames).
std::unique_ptr<btTypedConstraint> make_constraint(const JointDesc& j, btRigidBody& a, const BodyDesc& da, btRigidBody& b,
                                                   const BodyDesc& db, bool frame_offset = true);

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
      : btSimpleBroadphase(max_proxies), n_(static_cast<std::size_t>(max_proxies)), in_cache_(n_ * n_, 0) {
    candidates_.reserve(n_ * (n_ - 1) / 2);
    handles_.reserve(3 * n_);
  }

  void calculateOverlappingPairs(btDispatcher* dispatcher) override {
    // Without a filter callback the cache's test is the group / mask rule; a pair failing it is
    // refused by addOverlappingPair (nothing else happens), so unless it is in the cache its boxes
    // need no test: the pairs to test (candidates_, in Bullet's order i < j) are listed once and
    // listed again whenever a handle's use, group or mask is not what it was. The boxes are
    // compared as btSimpleBroadphase::aabbOverlap does (min ≤ max on every axis, false with a
    // NaN), three axes at once.
    if (m_pairCache->getOverlapFilterCallback() != nullptr) {
      all_pairs(dispatcher);
      return;
    }
    int largest = -1;
    bool same = handles_.size() == 3 * static_cast<std::size_t>(m_LastHandleIndex + 1);
    for (int i = 0; i <= m_LastHandleIndex; ++i) {
      const btSimpleBroadphaseProxy& p = m_pHandles[i];
      if (p.m_clientObject) largest = i;
      if (same) {
        const std::size_t k = 3 * static_cast<std::size_t>(i);
        same = handles_[k] == (p.m_clientObject != nullptr) && handles_[k + 1] == p.m_collisionFilterGroup &&
               handles_[k + 2] == p.m_collisionFilterMask;
      }
    }
    if (!same) list_candidates();
    for (const std::uint32_t c : candidates_) {
      const std::uint32_t i = c >> 16, j = c & 0xFFFFu;
      btSimpleBroadphaseProxy* p0 = &m_pHandles[i];
      btSimpleBroadphaseProxy* p1 = &m_pHandles[j];
      pair(p0, p1, in_cache_[i * n_ + j], dispatcher);
    }
    m_LastHandleIndex = largest;
  }

  void destroyProxy(btBroadphaseProxy* proxy, btDispatcher* dispatcher) override {
    const auto h = static_cast<std::size_t>(static_cast<btSimpleBroadphaseProxy*>(proxy) - m_pHandles);
    for (std::size_t k = 0; k < n_; ++k) in_cache_[h * n_ + k] = in_cache_[k * n_ + h] = 0;
    btSimpleBroadphase::destroyProxy(proxy, dispatcher);
  }

 private:
  /// One pair: added when the boxes overlap and it is not in the cache, removed when they do not
  /// and it is (btSimpleBroadphase::calculateOverlappingPairs's two rules).
  void pair(btSimpleBroadphaseProxy* p0, btSimpleBroadphaseProxy* p1, std::uint8_t& in, btDispatcher* dispatcher) {
#if defined(__SSE2__)
    const __m128 le = _mm_and_ps(_mm_cmple_ps(_mm_loadu_ps(p0->m_aabbMin.m_floats), _mm_loadu_ps(p1->m_aabbMax.m_floats)),
                                 _mm_cmple_ps(_mm_loadu_ps(p1->m_aabbMin.m_floats), _mm_loadu_ps(p0->m_aabbMax.m_floats)));
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

  /// Every pair of used handles (a filter callback decides in the cache).
  void all_pairs(btDispatcher* dispatcher) {
    int largest = -1;
    for (int i = 0; i <= m_LastHandleIndex; ++i) {
      btSimpleBroadphaseProxy* p0 = &m_pHandles[i];
      if (!p0->m_clientObject) continue;
      largest = i;
      for (int j = i + 1; j <= m_LastHandleIndex; ++j) {
        btSimpleBroadphaseProxy* p1 = &m_pHandles[j];
        if (p1->m_clientObject)
          pair(p0, p1, in_cache_[static_cast<std::size_t>(i) * n_ + static_cast<std::size_t>(j)], dispatcher);
      }
    }
    m_LastHandleIndex = largest;
    handles_.clear();  // list the candidates again when the callback goes
  }

  /// The pairs of used handles (up to m_LastHandleIndex) that pass the group / mask rule or are in
  /// the cache, in order; handles_ records what they were listed from.
  void list_candidates() {
    candidates_.clear();
    handles_.clear();
    for (int i = 0; i <= m_LastHandleIndex; ++i) {
      const btSimpleBroadphaseProxy& p0 = m_pHandles[i];
      handles_.push_back(p0.m_clientObject != nullptr);
      handles_.push_back(p0.m_collisionFilterGroup);
      handles_.push_back(p0.m_collisionFilterMask);
      if (!p0.m_clientObject) continue;
      for (int j = i + 1; j <= m_LastHandleIndex; ++j) {
        const btSimpleBroadphaseProxy& p1 = m_pHandles[j];
        if (!p1.m_clientObject) continue;
        const bool passes = (p0.m_collisionFilterGroup & p1.m_collisionFilterMask) && (p1.m_collisionFilterGroup & p0.m_collisionFilterMask);
        if (passes || in_cache_[static_cast<std::size_t>(i) * n_ + static_cast<std::size_t>(j)])
          candidates_.push_back(static_cast<std::uint32_t>(i) << 16 | static_cast<std::uint32_t>(j));
      }
    }
  }

  std::size_t n_;
  std::vector<std::uint8_t> in_cache_;  // [i * n + j], i < j: the pair of handles i, j is in the cache
  std::vector<std::uint32_t> candidates_;  // i << 16 | j (handles < 65536: the world uses this broadphase up to 130)
  std::vector<int> handles_;            // per handle when listed: used, group, mask
};

}  // namespace mmdkit::physics::detail
