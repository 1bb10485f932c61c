#pragma once
// Bodies in plain numbers, as they travel between ranks (share_grains.h, collisions across
// ranks): trivially copyable records that to_bytes() packs.
#include "solver/rigid_body.h"

namespace scree::solver {

// Where a body is and how it moves: what a halo refresh sends of it.
struct Motion {
  double position[3], orientation[4], velocity[3], angular_velocity[3];  // orientation w, x, y, z
};

inline Motion motion_of(const RigidBody& b) {
  return {{b.position.x(), b.position.y(), b.position.z()},
          {b.orientation.w(), b.orientation.x(), b.orientation.y(), b.orientation.z()},
          {b.velocity.x(), b.velocity.y(), b.velocity.z()},
          {b.angular_velocity.x(), b.angular_velocity.y(), b.angular_velocity.z()}};
}

inline void set_motion(RigidBody& b, const Motion& m) {
  b.position = Vec3(m.position[0], m.position[1], m.position[2]);
  b.orientation = Quat(m.orientation[0], m.orientation[1], m.orientation[2], m.orientation[3]);
  b.velocity = Vec3(m.velocity[0], m.velocity[1], m.velocity[2]);
  b.angular_velocity = Vec3(m.angular_velocity[0], m.angular_velocity[1], m.angular_velocity[2]);
}

// A whole body: its motion and its inverse mass and inertia.
struct BodyRecord {
  Motion motion;
  double inverse_mass, inverse_inertia_body[3];
};

inline BodyRecord record_of(const RigidBody& b) {
  return {motion_of(b), b.inverse_mass, {b.inverse_inertia_body.x(), b.inverse_inertia_body.y(), b.inverse_inertia_body.z()}};
}

inline RigidBody body_of(const BodyRecord& r) {
  RigidBody b;
  set_motion(b, r.motion);
  b.inverse_mass = r.inverse_mass;
  b.inverse_inertia_body = Vec3(r.inverse_inertia_body[0], r.inverse_inertia_body[1], r.inverse_inertia_body[2]);
  return b;
}

}  // namespace scree::solver
