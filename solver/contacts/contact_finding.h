#pragma once
// Contact finding, the first phase of a step (docs/architecture.md): where the bodies would be
// (positions and orientations given), the broad phase's candidate pairs, the narrow phase's
// node samples glued into contacts, and the support faces that resting contact holds on.
// Pairs and grains are searched in parallel, each thread into its own batch; what each pair
// and grain found is joined in pair order, then grain order, so the contacts do not depend on
// the number of threads.
#include <cstdint>
#include <span>
#include <vector>

#include "solver/contacts/broad_phase.h"
#include "solver/ranks/decomposition.h"
#include "solver/rigid_body.h"
#include "solver/world.h"

namespace scree::solver {

struct Contact {
  std::uint32_t a, b;  // A is a grain; B a grain, a wall's static body or the terrain's
  Vec3 point, normal;  // normal from B to A
  double depth;
  std::int32_t wall;   // index of B's wall, −1 for a grain or the terrain
  std::int32_t face;   // index into the support faces
};

// What carries a grain where it rests: against one plane of a wall, or on another grain
// through one glued contact. Against a plane, penetration is linear in position, so if the
// corners of the convex hull of the contact nodes end the step touching, every node does: the
// extreme nodes along eight directions across the normal, and the deepest, stand for the hull.
// Between grains the same points stand for the contact's nodes, to first order.
// The point's place in single precision (24 bytes; a settled heap's search holds ~30 a grain
// beside the resting points built from them, docs/benchmarks.md, "The eleventh pass"): to
// within 6e-8 of A's size, far below a voxel. The depth stays in double precision: over Δt
// it is the speed that ends the step touching, which single precision missed by 2.5e-8 of it.
struct SupportPoint {
  Eigen::Vector3f arm;  // the point from A's centroid (where the search posed it), world axes
  std::int32_t node;    // A's boundary node, −1 for a sphere
  double depth;         // m
};
struct SupportFace {
  std::uint32_t grain, body;  // A and B
  std::int32_t wall;          // B's wall, −1 for a grain or the terrain
  std::int32_t plane;         // the plane of B's wall, 0 for a grain or the terrain
  Vec3 normal;                // from B to A
  // Its support points, points[first_point, first_point + point_count) of its FoundContacts:
  // one array for all faces rather than one a face (a 4000-grain heap's 27 500 faces a sweep
  // took 12 ms a step to let go of theirs, docs/benchmarks.md, "The fifteenth pass").
  std::uint32_t first_point, point_count;
};

struct FoundContacts {
  std::vector<Contact> contacts;  // pairs in order, then each grain against the walls and the terrain
  std::vector<SupportFace> faces;
  std::vector<SupportPoint> points;  // the faces' support points, face after face

  std::span<const SupportPoint> points_of(const SupportFace& face) const {
    return std::span<const SupportPoint>(points).subspan(face.first_point, face.point_count);
  }
};

// The part of a search that one rank does when ranks share the grains (docs/parallel.md, "The
// step across ranks"): a pair of grains by the rank whose region holds the pair's lower corner
// (the least x, y and z of the two posed centroids, within the pair's reach of both, so that
// the rank holds both grains), a grain against the walls and the terrain by its owner. Each
// contact is found once among the ranks, as one process finds it.
struct SearchShare {
  const Decomposition& regions;
  int rank;
  const std::vector<char>& owned;  // by grain: whether this rank owns it
  bool searches(const Vec3& a, const Vec3& b) const { return regions.owner(a.cwiseMin(b)) == rank; }
};

// The contacts of every grain posed as `posed` (world.bodies' order), counting nodes within
// `margin` outside as touching. Pairs from `neighbours` when given (a Verlet list kept from
// step to step, rebuilt with `skin`), else from a fresh broad phase; the same contacts either
// way. Walls are taken `dt` further along their velocity. With `near_nodes`, grain pairs
// sample the nodes it lists near touching while they cover the pair, and list them afresh
// when not (narrow_phase.h): the same contacts again.
// With `loaded` (the resting impulses a step starts from and its sweeps add), a face against a
// wall keeps among its support points every node of it that carries an impulse there: a node
// that is no extreme where a sweep poses the grain may be one once the sweep tips it, and
// left out it would go into the wall and be pushed out in the next sweep, lifting the grain
// off its other supports (docs/theory.md, "The resting solve").
// With `share`, this rank's part of the search alone.
FoundContacts find_contacts(const World& world, const std::vector<RigidBody>& posed, double dt, double margin,
                            NeighbourList* neighbours = nullptr, double skin = 0, NearNodeCache* near_nodes = nullptr,
                            const RestingImpulses* loaded = nullptr, const SearchShare* share = nullptr);

// The contact's point on `bodies` (posed or corrections), for impulses and velocities there.
ContactPoint contact_point(std::vector<RigidBody>& bodies, const Contact& c);

// Contacts in the current configuration deeper than `fraction` of the smaller half-width
// of the grain(s) involved: initial states must not start with grains inside each other.
// In the search's order (grain pairs by their bodies, then each grain's walls and the
// terrain); with `share`, this rank's part of them.
struct Overlap {
  std::uint32_t grain;
  std::int64_t other_grain;  // −1 for a wall or the terrain
  std::int32_t wall;         // −1 for a grain or the terrain
  double depth;              // m
};
std::vector<Overlap> overlaps(const World& world, double fraction, const SearchShare* share = nullptr);

}  // namespace scree::solver
