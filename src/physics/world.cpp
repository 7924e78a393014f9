// The physics world: Bullet set-up, reset with warm-up, fixed-step frames (docs/PHYSICS.md).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "mmdkit/anim/pose.hpp"
#include "mmdkit/anim/skeleton.hpp"
#include "physics/box_capsule.hpp"
#include "physics/bullet_objects.hpp"
#include "physics/internal.hpp"
#include "physics/solver.hpp"

namespace mmdkit::physics {

using detail::bt;

std::string Warning::to_string() const {
  std::string s = section;
  if (record >= 0) s += " " + std::to_string(record);
  if (!name.empty()) s += " '" + name + "'";
  return s + ": " + message;
}

// --- ModelPhysics -----------------------------------------------------------------------------

ModelPhysics::ModelPhysics(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
ModelPhysics::~ModelPhysics() = default;

std::size_t ModelPhysics::body_count() const noexcept { return impl_->desc.bodies.size(); }
std::size_t ModelPhysics::joint_count() const noexcept { return impl_->desc.joints.size(); }
std::span<const std::uint32_t> ModelPhysics::driven_bones() const noexcept { return impl_->desc.driven; }

void ModelPhysics::body_transform(std::size_t i, Quat& rotation, Vec3& position) const noexcept {
  rotation = kIdentityQuat;
  position = {};
  if (i >= impl_->bodies.size() || !impl_->bodies[i]) return;
  const btTransform& t = impl_->bodies[i]->getWorldTransform();
  rotation = detail::quat(t.getRotation());
  position = detail::vec(t.getOrigin());
}

Vec3 ModelPhysics::body_linear_velocity(std::size_t i) const noexcept {
  if (i >= impl_->bodies.size() || !impl_->bodies[i]) return {};
  return detail::vec(impl_->bodies[i]->getLinearVelocity());
}

void ModelPhysics::set_targets(const anim::PoseWorkspace& ws, std::span<const std::uint8_t> physics_off) noexcept {
  Impl& m = *impl_;
  const auto rot = ws.model_rotations();
  const auto pos = ws.model_positions();
  for (std::size_t i = 0; i < m.desc.bodies.size(); ++i) {
    const detail::BodyDesc& d = m.desc.bodies[i];
    detail::Target& t = m.target[i];
    if (d.bone < 0) {
      t.rotation = d.bind.getRotation();
      t.position = d.bind.getOrigin();
      m.off[i] = 0;
      continue;
    }
    const auto b = static_cast<std::size_t>(d.bone);
    m.off[i] = b < physics_off.size() && physics_off[b] ? 1 : 0;
    if (b >= rot.size()) continue;
    const btTransform bone(bt(rot[b]), bt(pos[b]));
    const btTransform w = bone * d.offset;
    const btQuaternion q = w.getRotation();
    const btVector3 p = w.getOrigin();
    if (!std::isfinite(q.x() + q.y() + q.z() + q.w() + p.x() + p.y() + p.z())) continue;  // keep the last target
    t.rotation = q;
    t.position = p;
  }
}

void ModelPhysics::write_bones(anim::PoseWorkspace& ws) const noexcept {
  const Impl& m = *impl_;
  if (!m.built) return;
  const std::size_t nb = ws.bone_count();
  for (std::uint32_t b : m.desc.driven) {
    if (b >= nb) continue;
    const auto i = static_cast<std::size_t>(m.desc.writer[b]);
    if (m.off[i]) continue;  // the bone follows its keys
    const btTransform w = m.bodies[i]->getWorldTransform() * m.desc.bodies[i].offset_inverse;
    const Quat q = detail::quat(w.getRotation());
    if (m.desc.bodies[i].mode == model::RigidBodyMode::physics_with_bone) {
      const Vec3 p = ws.model_positions()[b];
      ws.set_model_transform(b, q, p);
    } else {
      ws.set_model_transform(b, q, detail::vec(w.getOrigin()));
    }
  }
  // Descendants of the written bones: model = parent model × local.
  const auto lr = ws.local_rotations();
  const auto lp = ws.local_translations();
  for (std::uint32_t b : m.desc.refresh) {
    if (b >= nb) continue;
    const auto p = static_cast<std::size_t>(m.desc.parents[b]);
    const btTransform parent(bt(ws.model_rotations()[p]), bt(ws.model_positions()[p]));
    const btTransform w = parent * btTransform(bt(lr[b]), bt(lp[b]));
    ws.set_model_transform(b, detail::quat(w.getRotation()), detail::vec(w.getOrigin()));
  }
}

// --- World ------------------------------------------------------------------------------------

namespace {

/// Priming (World::Impl::prime) is skipped above this many bodies in the world: it makes every
/// pair collide once, which costs O(n²).
constexpr std::size_t kMaxPrimedBodies = 1024;

/// Worlds of up to this many rigid bodies use Bullet's brute-force broadphase
/// (detail::PairStateBroadphase, bullet_objects.hpp: every pair's bounding boxes compared each
/// step, n(n−1)/2 tests; sized for exactly the bodies build() adds: all models' bodies and the
/// floor, or the priming step's copies and plane); larger ones its dynamic AABB tree
/// (btDbvtBroadphase). Both report exactly the overlapping pairs; for a character's 30-150 bodies
/// the n² loop costs less than keeping the tree (miku_v2's 45 bodies: about 10 % of the physics
/// frame; docs/PHYSICS.md "Speed"). The choice changes the order of the pair cache and so results
/// in the last bits, not what collides.
constexpr std::size_t kSimpleBroadphaseBodies = 128;

}  // namespace

struct World::Impl {
  Settings settings;
  std::uint32_t substeps = 2;
  btScalar dt = 1.0f / 60.0f;
  std::vector<std::unique_ptr<ModelPhysics>> models;
  std::vector<Warning> warnings;
  std::uint64_t steps = 0;
  // Bullet, rebuilt by every reset (declaration order = reverse destruction order).
  std::unique_ptr<btDefaultCollisionConfiguration> config;
  std::unique_ptr<btCollisionDispatcher> dispatcher;
  std::unique_ptr<detail::BoxCapsuleAlgorithm::CreateFunc> box_capsule;
  std::unique_ptr<btBroadphaseInterface> broadphase;
  std::unique_ptr<detail::Solver> solver;
  std::unique_ptr<btDiscreteDynamicsWorld> world;
  std::unique_ptr<btStaticPlaneShape> floor_shape;
  std::unique_ptr<btRigidBody> floor;

  void destroy();
  void build();
  void prime();
  void step_once();
  void check_bodies();
};

/// Bullet's narrow phase for a broadphase pair, except when neither body can move in response
/// (both follow their bones or are static): Bullet would compute their contact points every step
/// (GJK / EPA for the deep overlaps of neighbouring body parts) and the solver would then leave
/// such a contact out (btCollisionDispatcher::needsResponse), so skipping it changes no body.
void near_callback(btBroadphasePair& pair, btCollisionDispatcher& dispatcher, const btDispatcherInfo& info) {
  const auto* a = static_cast<const btCollisionObject*>(pair.m_pProxy0->m_clientObject);
  const auto* b = static_cast<const btCollisionObject*>(pair.m_pProxy1->m_clientObject);
  if (a->isStaticOrKinematicObject() && b->isStaticOrKinematicObject()) return;
  btCollisionDispatcher::defaultNearCallback(pair, dispatcher, info);
}

/// Collision group bit of the floor (outside the 16 model groups) — every body collides with it.
constexpr int kFloorGroup = 1 << 16;

void World::Impl::destroy() {
  if (world) {
    for (auto& mp : models) {
      for (auto& c : mp->impl_->constraints) world->removeConstraint(c.get());
      for (auto& b : mp->impl_->bodies)
        if (b) world->removeRigidBody(b.get());
    }
    if (floor) world->removeRigidBody(floor.get());
  }
  for (auto& mp : models) {
    mp->impl_->constraints.clear();
    mp->impl_->bodies.clear();
    mp->impl_->built = false;
  }
  floor.reset();
  floor_shape.reset();
  world.reset();
  solver.reset();
  broadphase.reset();
  dispatcher.reset();
  box_capsule.reset();
  config.reset();
}

void World::Impl::build() {
  destroy();
  config = std::make_unique<btDefaultCollisionConfiguration>();
  dispatcher = std::make_unique<btCollisionDispatcher>(config.get());
  dispatcher->setNearCallback(near_callback);
  // Box–capsule and box–sphere pairs: Bullet's convex–convex algorithm without the GJK queries
  // that cannot find a contact (box_capsule.hpp; same results), where the configuration uses that
  // algorithm for them.
  if (const auto* cc = dynamic_cast<btConvexConvexAlgorithm::CreateFunc*>(
          config->getCollisionAlgorithmCreateFunc(BOX_SHAPE_PROXYTYPE, CAPSULE_SHAPE_PROXYTYPE))) {
    box_capsule = std::make_unique<detail::BoxCapsuleAlgorithm::CreateFunc>(*cc);
    for (const int round : {CAPSULE_SHAPE_PROXYTYPE, SPHERE_SHAPE_PROXYTYPE}) {
      if (config->getCollisionAlgorithmCreateFunc(BOX_SHAPE_PROXYTYPE, round) == cc)
        dispatcher->registerCollisionCreateFunc(BOX_SHAPE_PROXYTYPE, round, box_capsule.get());
      if (config->getCollisionAlgorithmCreateFunc(round, BOX_SHAPE_PROXYTYPE) == cc)
        dispatcher->registerCollisionCreateFunc(round, BOX_SHAPE_PROXYTYPE, box_capsule.get());
    }
  }
  std::size_t total = 0;
  for (const auto& mp : models) total += mp->impl_->desc.bodies.size();
  if (total <= kSimpleBroadphaseBodies)  // + the floor and the priming step's plane
    broadphase = std::make_unique<detail::PairStateBroadphase>(static_cast<int>(total) + 2);
  else
    broadphase = std::make_unique<btDbvtBroadphase>();
  solver = std::make_unique<detail::Solver>();
  world = std::make_unique<btDiscreteDynamicsWorld>(dispatcher.get(), broadphase.get(), solver.get(), config.get());
  world->setGravity(bt(settings.gravity));
  world->getSolverInfo().m_numIterations = static_cast<int>(std::clamp<std::uint32_t>(settings.solver_iterations, 1, 1000));
  prime();
  if (settings.floor) {
    floor_shape = std::make_unique<btStaticPlaneShape>(btVector3(0, 1, 0), 0.0f);
    btRigidBody::btRigidBodyConstructionInfo info(0, nullptr, floor_shape.get());
    floor = std::make_unique<btRigidBody>(info);
    world->addRigidBody(floor.get(), kFloorGroup, 0xFFFF);
  }
  const int floor_bit = settings.floor ? kFloorGroup : 0;
  for (auto& mp : models) {
    ModelPhysics::Impl& m = *mp->impl_;
    const std::size_t n = m.desc.bodies.size();
    m.bodies.resize(n);
    for (std::size_t i = 0; i < n; ++i) {
      const detail::BodyDesc& d = m.desc.bodies[i];
      const bool kin = d.mode == model::RigidBodyMode::follow_bone || m.off[i];
      m.kinematic[i] = kin ? 1 : 0;
      m.previous[i] = m.target[i];
      m.bodies[i] = detail::make_body(d, *m.shapes[i], btTransform(m.target[i].rotation, m.target[i].position), kin);
      world->addRigidBody(m.bodies[i].get(), d.group_bit, d.mask | floor_bit);
      // Bullet gives only dynamic bodies the world's gravity when added; a body that starts
      // kinematic (physics off) needs it for when it turns dynamic.
      m.bodies[i]->setGravity(bt(settings.gravity));
      m.bodies[i]->setActivationState(DISABLE_DEACTIVATION);
    }
    for (const detail::JointDesc& j : m.desc.joints) {
      const auto a = static_cast<std::size_t>(j.a), b = static_cast<std::size_t>(j.b);
      // A joint between two bodies that follow their bones does nothing.
      if (m.desc.bodies[a].mode == model::RigidBodyMode::follow_bone && m.desc.bodies[b].mode == model::RigidBodyMode::follow_bone)
        continue;
      m.constraints.push_back(detail::make_constraint(j, *m.bodies[a], m.desc.bodies[a], *m.bodies[b], m.desc.bodies[b],
                                                      !settings.bullet_275_joint_frames));
      world->addConstraint(m.constraints.back().get(), false);  // jointed bodies still collide (saba, nanoem, babylon-mmd)
    }
    m.built = true;
  }
}

// Bullet's arrays (pair cache, manifold list, islands, solver pools) grow to the largest a step
// has needed, so a frame that brings a new largest number of contacts would allocate. Before the
// real bodies exist, one step is run with a scratch copy of every body (dynamic, all at the
// origin: every pair that may collide does, every joint, one island) and of the floor, which grows
// them all to what this world can need; the solver's contact pools and its row schedule
// (solver.hpp) are reserved for Bullet's maximum of 4 points per pair and 6 rows per joint. The scratch objects are then removed and the broadphase reset to
// its initial state (btDbvtBroadphase::resetPool: proxy ids and stages from 0; btSimpleBroadphase:
// handles freed last to first), so that the real
// bodies get exactly the state of an unprimed world: priming changes no result.
void World::Impl::prime() {
  std::size_t total = 0;
  for (const auto& mp : models) total += mp->impl_->desc.bodies.size();
  if (total == 0 || total > kMaxPrimedBodies) return;
  const int floor_bit = settings.floor ? kFloorGroup : 0;
  std::vector<std::unique_ptr<btRigidBody>> bodies;
  std::vector<std::unique_ptr<btTypedConstraint>> joints;
  bodies.reserve(total + 1);
  for (const auto& mp : models) {
    const ModelPhysics::Impl& m = *mp->impl_;
    const std::size_t base = bodies.size();
    for (std::size_t i = 0; i < m.desc.bodies.size(); ++i) {
      detail::BodyDesc d = m.desc.bodies[i];
      d.mass = 1.0f;  // dynamic, whatever its mode
      bodies.push_back(detail::make_body(d, *m.shapes[i], btTransform::getIdentity(), false));
      world->addRigidBody(bodies.back().get(), d.group_bit, d.mask | floor_bit);
    }
    for (const detail::JointDesc& j : m.desc.joints) {
      const auto a = static_cast<std::size_t>(j.a), b = static_cast<std::size_t>(j.b);
      joints.push_back(detail::make_constraint(j, *bodies[base + a], m.desc.bodies[a], *bodies[base + b], m.desc.bodies[b],
                                               !settings.bullet_275_joint_frames));
      world->addConstraint(joints.back().get(), false);
    }
  }
  std::unique_ptr<btStaticPlaneShape> plane;
  if (settings.floor) {
    plane = std::make_unique<btStaticPlaneShape>(btVector3(0, 1, 0), 0.0f);
    btRigidBody::btRigidBodyConstructionInfo info(0, nullptr, plane.get());
    bodies.push_back(std::make_unique<btRigidBody>(info));
    world->addRigidBody(bodies.back().get(), kFloorGroup, 0xFFFF);
  }
  world->stepSimulation(dt, 0, dt);
  solver->reserve(4 * dispatcher->getNumManifolds(), 6 * static_cast<int>(joints.size()), static_cast<int>(bodies.size()));
  for (auto& c : joints) world->removeConstraint(c.get());
  // In reverse order, so that btSimpleBroadphase's handle free list is its initial one again
  // (handles 0, 1, 2, ... in turn); btDbvtBroadphase::resetPool clears the tree.
  for (auto b = bodies.rbegin(); b != bodies.rend(); ++b) world->removeRigidBody(b->get());
  broadphase->resetPool(dispatcher.get());
}

void World::Impl::step_once() {
  // maxSubSteps = 0: exactly one internal step of dt; kinematic velocities from the transform change.
  world->stepSimulation(dt, 0, dt);
}

void World::Impl::check_bodies() {
  const float limit = settings.max_distance;
  for (auto& mp : models) {
    ModelPhysics::Impl& m = *mp->impl_;
    for (std::size_t i = 0; i < m.bodies.size(); ++i) {
      if (m.kinematic[i]) {
        // A body that follows its bone is where we put it; should Bullet's arithmetic on extreme
        // input still leave it non-finite, it goes back to its (finite) target too.
        btRigidBody& k = *m.bodies[i];
        const btTransform& kt = k.getWorldTransform();
        const btQuaternion kq = kt.getRotation();
        if (std::isfinite(kt.getOrigin().x() + kt.getOrigin().y() + kt.getOrigin().z() + kq.x() + kq.y() + kq.z() + kq.w()))
          continue;
        const btTransform back(m.target[i].rotation, m.target[i].position);
        k.setWorldTransform(back);
        k.setInterpolationWorldTransform(back);
        if (!m.reported[i]) {
          m.reported[i] = 1;
          warnings.push_back({m.index, "simulation", static_cast<std::int64_t>(i), m.desc.bodies[i].name,
                              "the rigid body following its bone became non-finite; put back on its bone (reported once)"});
        }
        continue;
      }
      btRigidBody& b = *m.bodies[i];
      const btTransform& t = b.getWorldTransform();
      const btVector3 p = t.getOrigin();
      const btQuaternion q = t.getRotation();
      const btVector3 v = b.getLinearVelocity(), w = b.getAngularVelocity();
      const btScalar sum = p.x() + p.y() + p.z() + q.x() + q.y() + q.z() + q.w() + v.x() + v.y() + v.z() + w.x() + w.y() + w.z();
      const btScalar dist2 = (p - m.target[i].position).length2();
      // Bullet takes a body whose bounding box (swept by its velocity) overflows out of the
      // simulation (DISABLE_SIMULATION, btDiscreteDynamicsWorld::updateSingleAabb): it would stay
      // frozen where it is, so it is a runaway too.
      const bool disabled = b.getActivationState() == DISABLE_SIMULATION;
      if (std::isfinite(sum) && dist2 <= limit * limit && !disabled) continue;
      const btTransform back(m.target[i].rotation, m.target[i].position);
      b.setWorldTransform(back);
      b.setInterpolationWorldTransform(back);
      b.setLinearVelocity(btVector3(0, 0, 0));
      b.setAngularVelocity(btVector3(0, 0, 0));
      b.clearForces();
      b.forceActivationState(DISABLE_DEACTIVATION);  // back into the simulation (see above)
      if (!m.reported[i]) {
        m.reported[i] = 1;
        warnings.push_back({m.index, "simulation", static_cast<std::int64_t>(i), m.desc.bodies[i].name,
                            !std::isfinite(sum) ? "the rigid body became non-finite; put back on its bone (reported once)"
                            : disabled ? "the rigid body moved too fast for Bullet (bounding box overflow); put back on its bone (reported once)"
                                       : "the rigid body flew farther than " + std::to_string(static_cast<int>(limit)) +
                                             " units from its bone; put back on its bone (reported once)"});
      }
    }
  }
}

World::World(const Settings& settings) : impl_(std::make_unique<Impl>()) {
  impl_->settings = settings;
  std::uint32_t sps = settings.steps_per_second;
  sps = sps <= 30 ? 30 : sps <= 60 ? 60 : sps <= 120 ? 120 : 240;
  impl_->settings.steps_per_second = sps;
  impl_->substeps = sps / 30;
  impl_->dt = 1.0f / static_cast<btScalar>(sps);
}
World::~World() {
  if (impl_) impl_->destroy();
}
World::World(World&&) noexcept = default;
World& World::operator=(World&&) noexcept = default;

const Settings& World::settings() const noexcept { return impl_->settings; }
std::uint32_t World::substeps_per_frame() const noexcept { return impl_->substeps; }
std::size_t World::model_count() const noexcept { return impl_->models.size(); }
ModelPhysics& World::model(std::size_t i) noexcept { return *impl_->models[i]; }
std::uint64_t World::steps() const noexcept { return impl_->steps; }
std::span<const Warning> World::warnings() const noexcept { return impl_->warnings; }

ModelPhysics& World::add_model(const model::Model& model, const anim::Skeleton& skeleton) {
  auto m = std::make_unique<ModelPhysics::Impl>();
  m->index = impl_->models.size();
  m->desc = detail::describe(model, skeleton, m->index, impl_->warnings);
  const std::size_t n = m->desc.bodies.size();
  for (const detail::BodyDesc& d : m->desc.bodies) m->shapes.push_back(detail::make_shape(d));
  m->previous.resize(n);
  m->target.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    m->target[i].rotation = m->desc.bodies[i].bind.getRotation();
    m->target[i].position = m->desc.bodies[i].bind.getOrigin();
  }
  m->kinematic.assign(n, 0);
  m->off.assign(n, 0);
  m->reported.assign(n, 0);
  impl_->models.push_back(std::unique_ptr<ModelPhysics>(new ModelPhysics(std::move(m))));
  return *impl_->models.back();
}

void World::reset() {
  Impl& w = *impl_;
  w.build();
  w.steps = 0;
  for (std::uint32_t s = 0; s < w.settings.warmup_steps; ++s) w.step_once();
  w.check_bodies();
}

void World::step_frame() { step_substeps(impl_->substeps); }

void World::set_gravity(const Vec3& gravity) noexcept {
  Impl& w = *impl_;
  if (gravity == w.settings.gravity) return;
  w.settings.gravity = gravity;
  if (!w.world) return;
  w.world->setGravity(bt(gravity));
  for (auto& mp : w.models)
    for (auto& b : mp->impl_->bodies) b->setGravity(bt(gravity));
}

void World::step_substeps(std::uint32_t substeps) {
  Impl& w = *impl_;
  if (substeps == 0) return;
  if (!w.world) {
    reset();
  }
  // Physics-off switches take effect at the frame's start.
  for (auto& mp : w.models) {
    ModelPhysics::Impl& m = *mp->impl_;
    for (std::size_t i = 0; i < m.bodies.size(); ++i) {
      const bool kin = m.desc.bodies[i].mode == model::RigidBodyMode::follow_bone || m.off[i];
      if (kin != static_cast<bool>(m.kinematic[i])) {
        detail::set_kinematic(*m.bodies[i], m.desc.bodies[i], kin);
        m.kinematic[i] = kin ? 1 : 0;
      }
    }
  }
  const btScalar n = static_cast<btScalar>(substeps);
  for (std::uint32_t s = 1; s <= substeps; ++s) {
    const btScalar f = static_cast<btScalar>(s) / n;
    for (auto& mp : w.models) {
      ModelPhysics::Impl& m = *mp->impl_;
      for (std::size_t i = 0; i < m.bodies.size(); ++i) {
        if (!m.kinematic[i]) continue;
        const detail::Target& a = m.previous[i];
        const detail::Target& b = m.target[i];
        const btTransform t = s == substeps ? btTransform(b.rotation, b.position)
                                              : btTransform(slerp(a.rotation, b.rotation, f), lerp(a.position, b.position, f));
        m.bodies[i]->setWorldTransform(t);
      }
    }
    w.step_once();
    ++w.steps;
  }
  for (auto& mp : w.models) mp->impl_->previous = mp->impl_->target;
  w.check_bodies();
}

}  // namespace mmdkit::physics
