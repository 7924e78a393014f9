// Bullet shapes, bodies and constraints of one model (docs/PHYSICS.md "Bodies", "Joints").
#include <BulletDynamics/ConstraintSolver/btConeTwistConstraint.h>
#include <BulletDynamics/ConstraintSolver/btGeneric6DofSpringConstraint.h>
#include <BulletDynamics/ConstraintSolver/btHingeConstraint.h>
#include <BulletDynamics/ConstraintSolver/btPoint2PointConstraint.h>
#include <BulletDynamics/ConstraintSolver/btSliderConstraint.h>

#include "physics/bullet_objects.hpp"

namespace mmdkit::physics::detail {

namespace {

/// Bullet's stop ERP on every axis of a 6DOF joint: 0.475 (babylon-mmd; three.js calls it "more
/// like MMD").
constexpr btScalar kStopErp = 0.475f;

void limits6(btGeneric6DofConstraint& c, const JointDesc& j) {
  c.setLinearLowerLimit(bt(j.linear_lower));
  c.setLinearUpperLimit(bt(j.linear_upper));
  c.setAngularLowerLimit(bt(j.angular_lower));
  c.setAngularUpperLimit(bt(j.angular_upper));
  for (int axis = 0; axis < 6; ++axis) c.setParam(BT_CONSTRAINT_STOP_ERP, kStopErp, axis);
}

/// Bullet's 6DOF joint (spring or not); without the frame offset (Settings::bullet_275_joint_frames,
/// Bullet 2.75's rows) its linear rows push body A at A's own pivot. There Bullet 3.24's
/// btGeneric6DofConstraint::get_limit_motor_info2 gives a linear row the angular Jacobian
/// (pB − xA) × axis for A: B's pivot pB seen from A's centre xA. That is A's pivot pA only while
/// the joint holds; once the pivots are apart (a contact or a kinematic body tears the joint open)
/// the row's impulse turns A about a point it is not attached at, the gap (pB − pA) does not close,
/// and a light, thin body can stay torn off or fall away (巡音ルカ.pmd under wavefile_v2.vmd: her
/// shoulder hair fell 1000 units, docs/PHYSICS.md "Joints"). Each linear row's A side is set to
/// (pA − xA) × axis, the Jacobian of the error the row corrects, (pB − pA)·axis — babylon-mmd's
/// change to its Bullet for that mode (constraint-fix.patch, "Fix constraint stability"); B's side,
/// (pB − xB) × axis, is right already. With the frame offset (the default) Bullet's rows are used.
template <class Base>
class PivotArmJoint final : public Base {
 public:
  using Base::Base;

  void getInfo2(btTypedConstraint::btConstraintInfo2* info) override {
    Base::getInfo2(info);  // also computes the frames (calculateTransforms) and the limits of this step
    if (this->getUseFrameOffset()) return;
    // Without the frame offset the linear rows come first (getInfo2NonVirtual), one per axis
    // whose limit or motor applies, each with J1 linear = that axis of A's frame.
    const btVector3 arm = this->getCalculatedTransformA().getOrigin() - this->getRigidBodyA().getCenterOfMassPosition();
    btTranslationalLimitMotor* linear = this->getTranslationalLimitMotor();
    int row = 0;
    for (int axis = 0; axis < 3; ++axis) {
      if (!linear->needApplyForce(axis)) continue;
      const int s = row++ * info->rowskip;
      const btVector3 ax(info->m_J1linearAxis[s], info->m_J1linearAxis[s + 1], info->m_J1linearAxis[s + 2]);
      const btVector3 torque = arm.cross(ax);
      info->m_J1angularAxis[s] = torque.x();
      info->m_J1angularAxis[s + 1] = torque.y();
      info->m_J1angularAxis[s + 2] = torque.z();
    }
  }
};

}  // namespace

std::unique_ptr<btCollisionShape> make_shape(const BodyDesc& d) {
  switch (d.shape) {
    case model::RigidBodyShape::box:
      return std::make_unique<btBoxShape>(bt(d.size));
    case model::RigidBodyShape::capsule:
      return std::make_unique<btCapsuleShape>(d.size[0], d.size[1]);
    case model::RigidBodyShape::sphere:
    default:
      return std::make_unique<btSphereShape>(d.size[0]);
  }
}

std::unique_ptr<btRigidBody> make_body(const BodyDesc& d, btCollisionShape& shape, const btTransform& at, bool kinematic) {
  btVector3 inertia(0, 0, 0);
  const btScalar mass = kinematic ? 0.0f : d.mass;
  if (mass > 0) shape.calculateLocalInertia(mass, inertia);
  btRigidBody::btRigidBodyConstructionInfo info(mass, nullptr, &shape, inertia);
  info.m_startWorldTransform = at;
  info.m_linearDamping = d.linear_damping;
  info.m_angularDamping = d.angular_damping;
  info.m_restitution = d.restitution;
  info.m_friction = d.friction;
  info.m_additionalDamping = true;  // saba, nanoem, MMDAI, babylon-mmd
  auto body = std::make_unique<btRigidBody>(info);
  body->setInterpolationWorldTransform(at);
  body->setSleepingThresholds(0, 0);
  // No gyroscopic term: MMD's Bullet 2.75 had none (Bullet enables it by default from 2.83 on,
  // btRigidBody.h); it also saves its per-body implicit solve every step.
  body->setFlags(body->getFlags() & ~BT_ENABLE_GYROSCOPIC_FORCE_IMPLICIT_BODY);
  body->setActivationState(DISABLE_DEACTIVATION);
  int flags = body->getCollisionFlags();
  // Mass 0 made it static; a kinematic body must not be (Bullet puts static bodies to sleep and
  // leaves them out of the moving list, so they would carry no velocity and never turn dynamic).
  if (kinematic) flags = (flags & ~btCollisionObject::CF_STATIC_OBJECT) | btCollisionObject::CF_KINEMATIC_OBJECT;
  if (!d.contact) flags |= btCollisionObject::CF_NO_CONTACT_RESPONSE;
  body->setCollisionFlags(flags);
  return body;
}

void set_kinematic(btRigidBody& body, const BodyDesc& d, bool kinematic) {
  if (kinematic) {
    body.setMassProps(0, btVector3(0, 0, 0));
    body.setCollisionFlags((body.getCollisionFlags() & ~btCollisionObject::CF_STATIC_OBJECT) |
                           btCollisionObject::CF_KINEMATIC_OBJECT);
  } else {
    btVector3 inertia(0, 0, 0);
    body.getCollisionShape()->calculateLocalInertia(d.mass, inertia);
    body.setMassProps(d.mass, inertia);
    body.setCollisionFlags(body.getCollisionFlags() & ~btCollisionObject::CF_KINEMATIC_OBJECT);
  }
  body.updateInertiaTensor();
  body.setActivationState(DISABLE_DEACTIVATION);
}

std::unique_ptr<btTypedConstraint> make_constraint(const JointDesc& j, btRigidBody& a, const BodyDesc& da, btRigidBody& b,
                                                   const BodyDesc& db, bool frame_offset) {
  // Joint frames in each body's space at the bind pose (all peers).
  const btTransform fa = da.bind.inverse() * j.frame, fb = db.bind.inverse() * j.frame;
  switch (j.type) {
    case model::JointType::six_dof: {
      auto c = std::make_unique<PivotArmJoint<btGeneric6DofConstraint>>(a, b, fa, fb, true);
      c->setUseFrameOffset(frame_offset);
      limits6(*c, j);
      return c;
    }
    case model::JointType::point_to_point:
      return std::make_unique<btPoint2PointConstraint>(a, b, fa.getOrigin(), fb.getOrigin());
    case model::JointType::cone_twist: {
      auto c = std::make_unique<btConeTwistConstraint>(a, b, fa, fb);
      // Bullet: swing 1 about the frame's Z, swing 2 about Y, twist about X.
      c->setLimit(j.angular_upper[2], j.angular_upper[1], j.angular_upper[0]);
      return c;
    }
    case model::JointType::slider: {
      auto c = std::make_unique<btSliderConstraint>(a, b, fa, fb, true);
      c->setLowerLinLimit(j.linear_lower[0]);
      c->setUpperLinLimit(j.linear_upper[0]);
      c->setLowerAngLimit(j.angular_lower[0]);
      c->setUpperAngLimit(j.angular_upper[0]);
      return c;
    }
    case model::JointType::hinge: {
      auto c = std::make_unique<btHingeConstraint>(a, b, fa, fb);
      c->setLimit(j.angular_lower[2], j.angular_upper[2]);  // Bullet's hinge axis is the frame's Z
      return c;
    }
    case model::JointType::spring_6dof:
    default: {
      // Bullet's frame offset unless Settings::bullet_275_joint_frames (docs/PHYSICS.md "Joints").
      auto c = std::make_unique<PivotArmJoint<btGeneric6DofSpringConstraint>>(a, b, fa, fb, true);
      c->setUseFrameOffset(frame_offset);
      limits6(*c, j);
      for (int k = 0; k < 3; ++k) {
        const btScalar s = j.linear_spring[static_cast<std::size_t>(k)];
        if (s != 0) {  // linear springs only where set (all peers)
          c->enableSpring(k, true);
          c->setStiffness(k, s);
        }
      }
      for (int k = 0; k < 3; ++k) {  // angular springs always on (nanoem, babylon-mmd, MMDAI)
        c->enableSpring(k + 3, true);
        c->setStiffness(k + 3, j.angular_spring[static_cast<std::size_t>(k)]);
      }
      return c;
    }
  }
}

}  // namespace mmdkit::physics::detail
