#pragma once
// Resting contact, the impulse scheme's solve of slow contacts (docs/theory.md, "Resting
// contact"): support points held by projected Gauss–Seidel passes on velocities and position
// corrections, warm started from the last step's impulses (seed 002).
#include <cstdint>
#include <map>
#include <vector>

#include "solver/contacts/contact_finding.h"
#include "solver/impulse/contact_impulse.h"
#include "solver/step.h"
#include "solver/world.h"

namespace scree::solver {

// A support point of a resting face, with what the projected Gauss–Seidel passes accumulate.
struct RestingPoint {
  ContactFrame frame;     // on the bodies' velocities
  ContactFrame push;      // the same point on the bodies' position corrections
  double touch;           // normal velocity plus correction that ends the step touching, m/s
  double normal_impulse = 0;  // accumulated, ≥ 0
  Vec3 friction_impulse = Vec3::Zero();  // accumulated, |·| ≤ μ × normal
  double push_impulse = 0;    // accumulated, ≥ 0
  double n_K_n = 0;           // n·K n, of `frame` and `push` alike
  std::int32_t wall;      // −1 between grains
  RestingKey key;
};

// One support point of a face as resting contact, on the posed bodies' velocities and on
// their corrections, with the normal velocity (plus correction) that ends the step exactly
// touching: the point's depth where the bodies are posed, made up over dt.
RestingPoint resting_point(const SupportFace& face, const SupportPoint& point, double friction,
                           std::vector<RigidBody>& posed, std::vector<RigidBody>& corrections, double dt);

// Resting contact (seed 000 §4.1 against walls; scree also between grains, below): velocities
// and position corrections that end the step with every support point touching, found by
// projected Gauss–Seidel passes over the points of all resting faces. A block on a slope
// shifts its support downhill this way and rests; one point per face cannot.
//
// The velocities get non-negative normal impulses with Coulomb friction that stop the
// approach; a point that would still end the step inside (it started inside, by what the
// passes left last step) is pushed out by a position correction, a velocity that moves the
// bodies in this step only. Seed 000 corrects velocities alone, and the velocity that removes
// a penetration stays in the body as kinetic energy: a heap then never comes to rest.
//
// The points fall into islands (grains linked by resting points; walls and the terrain link
// nothing), solved side by side: each converges on its own, so a small cluster in flight
// stops after a few passes while the deposit takes all thirty; the books are added in island
// order, so the result does not depend on the number of threads.
//
// `step_impulses` holds what each point has applied over the sweeps of this step.
void rest(World& world, const std::vector<bool>& is_static, const std::map<RestingKey, Vec3>& last_step,
          std::map<RestingKey, Vec3>& step_impulses, std::vector<RestingPoint>& points, StepReport& report);

}  // namespace scree::solver
