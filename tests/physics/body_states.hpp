// Bullet test helper: every body's world transform and velocities, as floats (compare two runs
// bit for bit with ==).
#pragma once

#include <btBulletDynamicsCommon.h>

#include <memory>
#include <vector>

namespace mmdkit::physics::test {

inline std::vector<float> body_states(const std::vector<std::unique_ptr<btRigidBody>>& bodies) {
  std::vector<float> s;
  for (const auto& b : bodies) {
    const btTransform& t = b->getWorldTransform();
    for (int r = 0; r < 3; ++r)
      for (int c = 0; c < 3; ++c) s.push_back(t.getBasis()[r][c]);
    for (int k = 0; k < 3; ++k) s.push_back(t.getOrigin()[k]);
    for (int k = 0; k < 3; ++k) s.push_back(b->getLinearVelocity()[k]);
    for (int k = 0; k < 3; ++k) s.push_back(b->getAngularVelocity()[k]);
  }
  return s;
}

}  // namespace mmdkit::physics::test
