#pragma once
// The resting solve's coarse step (docs/theory.md, "The coarse step"): between its passes, the
// impulses of each layer of a heap scaled by one factor, the factors that leave the least of
// the passes' objective. A pass carries a change of load about one contact deeper; a coarse
// step carries it along the whole depth at once, as a multigrid's coarse grid does.
//
// The groups are layers of the contact graph: a grain's layer is the fewest contacts from it
// to a static body that bears the load (with friction, or a normal against gravity: a floor,
// the terrain; not a frictionless side wall). The contacts with static bodies are one group,
// those between grains of layers l and l or l + 1 the group l + 1. So a grain of layer l takes
// part in at most three: the static contacts', l's and l + 1's. Scaling keeps every impulse in
// its friction cone; the scales are shortened so that none goes below zero.
#include <cstdint>
#include <utility>
#include <vector>

#include "solver/rigid_body.h"

namespace scree::solver {

class Ranks;

// A unit of the resting solve (the points of one pair of bodies) as the coarse step sees it:
// its bodies A (a grain) and B, and for a static B whether the contact bears the load.
struct CoarseUnit {
  std::uint32_t a, b;
  bool bears_load;
};

// An island's layers: each unit's group and its grains' places among the coarse step's grains,
// and each of those grains' groups.
struct CoarseLayers {
  static constexpr int slots = 3;        // a grain's groups
  static constexpr std::uint32_t none = ~std::uint32_t(0);
  std::vector<std::int32_t> unit_group;  // by unit, −1: out of the coarse step (no load path)
  std::vector<std::uint32_t> unit_a, unit_b;      // by unit: A's and B's place in `grains` (B: none if static)
  std::vector<std::uint8_t> slot_a, slot_b;       // by unit: its group's slot among A's and B's
  std::vector<std::uint32_t> grains;              // bodies, in the order the units meet them
  std::vector<std::int32_t> grain_groups;         // by place and slot, −1 unused
  int groups = 0;
  int layers = 0;  // grain layers (a column of N balls on the floor: N)
};

// The layers of an island of `units` (`is_static` by body). A grain's groups take its slots
// in ascending order, so that ranks holding some of its units give it the same slots
// (docs/parallel.md).
CoarseLayers coarse_layers(const std::vector<CoarseUnit>& units, const std::vector<bool>& is_static);

// coarse_layers() in its steps, for an island whose units ranks share, each some
// (ranks/island_depths.h): the units' grains numbered as they meet them (grains, unit_a,
// unit_b, nothing else set); each grain's layer as far as these units tell (by place: 0 on a
// static body that bears the load, −1 none yet); the links between grains, by place (pairs of
// places, for their breadth-first depths); and each grain's groups as its units tell, as bits
// against its layer l: 1 the static contacts' group 0, 2 group l (a link to layer l − 1), 4
// group l + 1 (a link to layer l or l + 1).
CoarseLayers enlist_grains(const std::vector<CoarseUnit>& units, const std::vector<bool>& is_static);
std::vector<int> bearing_layers(const std::vector<CoarseUnit>& units, const CoarseLayers& c);
std::vector<std::pair<std::uint32_t, std::uint32_t>> grain_links(const CoarseLayers& c);
std::vector<std::uint8_t> group_bits(const std::vector<CoarseUnit>& units, const CoarseLayers& c, const std::vector<int>& layer);
// Sets each unit's group and slots and each grain's groups from the layers and group bits
// (those of all the island's units), and `groups` and `layers` as these grains have them.
void assign_groups(const std::vector<CoarseUnit>& units, const std::vector<int>& layer, const std::vector<std::uint8_t>& bits,
                   CoarseLayers& c);
// The entries of H (below) the grains of `c` add to, (row, column) of its lower triangle.
std::vector<std::pair<int, int>> coarse_entries(const CoarseLayers& c);

// What one group's impulses do to one grain: Σ P and Σ r × P over its points on the grain, and
// the same of their normal parts alone (for the books: move_grains()).
struct GroupImpulse {
  Vec3 linear = Vec3::Zero(), angular = Vec3::Zero();
  Vec3 normal_linear = Vec3::Zero(), normal_angular = Vec3::Zero();
  GroupImpulse& operator+=(const GroupImpulse& x) {
    linear += x.linear;
    angular += x.angular;
    normal_linear += x.normal_linear;
    normal_angular += x.normal_angular;
    return *this;
  }
  GroupImpulse& operator-=(const GroupImpulse& x) {
    linear -= x.linear;
    angular -= x.angular;
    normal_linear -= x.normal_linear;
    normal_angular -= x.normal_angular;
    return *this;
  }
  // The same impulses with every point's offset r from the centroid moved by `by` (about
  // another body's centroid: r_B = r_A + (x_A − x_B)).
  GroupImpulse with_arms_moved_by(const Vec3& by) const {
    return {linear, angular + by.cross(linear), normal_linear, normal_angular + by.cross(normal_linear)};
  }
};

// An island's coarse step when ranks share its tiles (docs/parallel.md, "A big island across
// ranks"): each rank is given the layers of its own units and their grains, adds the terms of
// the grains it keeps and of all its units, moves all its grains, and the partial sums are
// added across the ranks, exactly.
struct CoarseShare {
  const Ranks& ranks;
  std::vector<char> keeps;  // by place among the layers' grains: its terms are this rank's
  std::vector<std::pair<int, int>> entries;  // H's, of every rank's grains (coarse_entries()), ascending
};

// The coarse step's scales c_g (each impulse of group g becomes (1 + c_g) times itself):
// μ minimizing ½ λᵀWλ + λᵀ(u − t) over λ_g → (1 + μ_g) λ_g, from each grain's group impulses
// (`impulses`, by place and slot), its velocities (`bodies`, `inverse_inertia` by body) and
// each unit's Σ λ_n t over its points (`reached`); then shortened so that no 1 + c_g < 0.
// Sums over grains and units are taken exactly, so the result is the same on any number of
// threads and however the grains are shared among ranks (docs/parallel.md).
// With `share`, the ranks' partial sums (their kept grains', their own units') add up to
// the same scales on every rank.
std::vector<double> coarse_scales(const CoarseLayers& layers, const std::vector<GroupImpulse>& impulses,
                                  const std::vector<RigidBody>& bodies, const std::vector<Mat3>& inverse_inertia,
                                  const std::vector<double>& reached, const CoarseShare* share = nullptr);

// What the coarse step changes a grain's velocities by.
struct VelocityChange {
  Vec3 velocity = Vec3::Zero(), angular_velocity = Vec3::Zero();
};

// What impulses work on the relative motion at their points, by part (normal, friction), J.
struct ContactWork {
  double normal = 0, friction = 0;
  ContactWork& operator+=(const ContactWork& w) {
    normal += w.normal;
    friction += w.friction;
    return *this;
  }
};

// Moves each grain of `layers` by its group impulses times `scales` (Δv = Σ c_g P_g / m,
// Δω = I⁻¹ Σ c_g (r × P)_g), writes those changes into `changes` (by place) and clears
// `impulses` for the next coarse step. Returns the grains' side of what the added impulses
// work on the relative motion at their points, ½ (u_before + u_after) · c P summed over the
// points: over a grain's points that is Σ_g c_g (v̄ · ΣP + ω̄ · Σ r × P), v̄ and ω̄ its mean
// velocities over the move, so it is booked grain by grain instead of point by point (the
// static bodies' side, which the grains' sums leave out, is the caller's). Summed exactly: the
// same on any number of threads and ranks. With `share`, returns the work of every rank's
// kept grains.
ContactWork move_grains(const CoarseLayers& layers, const std::vector<double>& scales, std::vector<GroupImpulse>& impulses,
                       std::vector<RigidBody>& bodies, const std::vector<Mat3>& inverse_inertia,
                       std::vector<VelocityChange>& changes, const CoarseShare* share = nullptr);

}  // namespace scree::solver
