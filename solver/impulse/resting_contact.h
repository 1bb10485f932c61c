#pragma once
// Resting contact, the impulse scheme's solve of slow contacts (docs/theory.md, "Resting
// contact"): support points held by projected Gauss–Seidel passes on velocities and position
// corrections, warm started from the last step's impulses (seed 002), with coarse steps along
// a heap's layers, passes until the velocities stop changing, in an order that lets the cores
// share one island and gives the same bits on any number of them.
#include <cstdint>
#include <limits>
#include <memory>
#include <new>
#include <type_traits>
#include <utility>
#include <vector>

#include "solver/contacts/contact_finding.h"
#include "solver/exact_sum.h"
#include "solver/ranks/tile_share.h"
#include "solver/resting_impulses.h"
#include "solver/step.h"
#include "solver/wall_books.h"
#include "solver/world.h"

namespace scree::solver {

// What resting contact moves: the posed bodies' velocities and this step's position
// corrections, with the world inverse inertias of the posed orientations (zero for a static
// body), turned once a sweep rather than once a point.
struct RestingBodies {
  RestingBodies(std::vector<RigidBody>& posed, std::vector<RigidBody>& corrections);
  std::vector<RigidBody>& velocities;
  std::vector<RigidBody>& corrections;
  std::vector<Mat3> inverse_inertia;
};

// A support point's frame: its unit normal n, from B towards A, and two unit tangents
// across it, t1 and t2 = n × t1. Resting contact works in it: a point's impulses and K are 3
// numbers and 6.
struct ContactFrame {
  ContactFrame(const Vec3& normal, const Vec3& tangent) : n(normal), t1(tangent), t2(normal.cross(tangent)) {}
  Vec3 to_local(const Vec3& v) const { return {n.dot(v), t1.dot(v), t2.dot(v)}; }
  Vec3 to_world(const Vec3& local) const { return local.x() * n + local.y() * t1 + local.z() * t2; }
  Vec3 n, t1, t2;
};

// What the support points of one resting face share: its frame's normal and first tangent,
// Coulomb's μ, and the bodies and the wall's plane it lies between. Held once a face rather
// than once a point (docs/benchmarks.md, "The eighth pass" and "The tenth pass": a face has
// ~4.7 points).
struct RestingFace {
  Vec3 normal;         // unit, from B towards A
  Vec3 tangent;        // unit, across the normal: t1 of the frame (stored: 6 % faster than made)
  double friction;     // μ
  std::uint32_t a, b;  // A a grain; B a grain or a static body
  std::int32_t plane;  // of B's wall, 0 for a grain or the terrain

  ContactFrame frame() const { return {normal, tangent}; }
};

// A support point of a resting face, with what the passes accumulate: 136 bytes, where a
// settled heap holds ~30 a grain, streamed once a pass (docs/benchmarks.md: it was 400, then
// 280, 224, 200, 184, 168, 144; the eleventh pass). What its impulses work on the bodies is booked by unit
// (rest()). Vectors marked local are in its face's ContactFrame; its bodies are its face's.
// Made by resting_point() alone: its default constructor leaves it unset (RestingPoints).
struct RestingPoint {
  std::int32_t node;           // A's boundary node, −1 for a sphere: with its face, its RestingKey
  std::uint32_t face;          // its RestingFace, by index
  Eigen::Vector3f arm;         // the point from A's centroid, as its SupportPoint's (r_a(); r_b(), from B's)
  std::uint32_t stored;        // its key's place in the impulse store while the solve runs (rest())
  // K (an impulse P on A changes the relative velocity by K P) in the local frame: symmetric,
  // its normal row (k_nn, k_n1, k_n2) and tangential block (k_11, k_12; k_12, k_22). In double
  // precision: in single, a sticking point's slip is left at 1e-7 of itself by a pass, and the
  // booked work misses the kinetic energy's change by 3e-9 of it (docs/benchmarks.md, the
  // ninth pass).
  double k_nn, k_n1, k_n2, k_11, k_12, k_22;
  double touch;                // normal velocity plus correction that ends the step touching, m/s
  Vec3 held;                   // local, accumulated on the velocities: normal ≥ 0, |friction| ≤ μ × normal
  double push_impulse;         // accumulated on the corrections along n, ≥ 0
  // Local, what the last pass changed its impulse by and its part of the conjugate direction
  // (rest(), below): in single precision, as they only steer the next step along the
  // direction, which the pass after it projects (docs/benchmarks.md, "The eleventh pass").
  Eigen::Vector3f change;
  Eigen::Vector3f direction;

  double normal_impulse() const { return held.x(); }
  // Nothing accumulated and no place in the store: a point before its first pass.
  void clear_solve_state() {
    stored = RestingImpulses::none;
    held = Vec3::Zero();
    push_impulse = 0;
    change = direction = Eigen::Vector3f::Zero();
  }
  // The point from A's centroid, and from B's where `posed` puts the bodies of its face `f`.
  Vec3 r_a() const { return arm.cast<double>(); }
  Vec3 r_b(const RestingFace& f, const std::vector<RigidBody>& posed) const {
    return r_a() + (posed[f.a].position - posed[f.b].position);
  }
  // The relative velocity here on `bodies` (the posed velocities or the corrections), `posed`
  // placing the bodies of its face `f`.
  Vec3 relative_velocity(const RestingFace& f, const std::vector<RigidBody>& bodies,
                         const std::vector<RigidBody>& posed) const {
    return bodies[f.a].velocity_at(r_a()) - bodies[f.b].velocity_at(r_b(f, posed));
  }
  // K times a local impulse: the change of the local relative velocity.
  Vec3 K_times(const Vec3& p) const {
    return {k_nn * p.x() + k_n1 * p.y() + k_n2 * p.z(), k_n1 * p.x() + k_11 * p.y() + k_12 * p.z(),
            k_n2 * p.x() + k_12 * p.y() + k_22 * p.z()};
  }
};

// Storage whose new elements are left as their default constructor leaves them, for an array
// sized first and then built in place on the threads: a sweep's resting points, value
// initialised, were written twice, the first time on one thread (docs/benchmarks.md, "The
// fifteenth pass").
template <class T>
struct UninitialisedAllocator : std::allocator<T> {
  template <class U>
  struct rebind {
    using other = UninitialisedAllocator<U>;
  };
  UninitialisedAllocator() = default;
  template <class U>
  UninitialisedAllocator(const UninitialisedAllocator<U>&) noexcept {}
  template <class U>
  void construct(U* at) noexcept(std::is_nothrow_default_constructible_v<U>) {
    ::new (static_cast<void*>(at)) U;
  }
  template <class U, class... Args>
  void construct(U* at, Args&&... args) {
    ::new (static_cast<void*>(at)) U(std::forward<Args>(args)...);
  }
};
using RestingPoints = std::vector<RestingPoint, UninitialisedAllocator<RestingPoint>>;

// The order rest() solves a sweep's points in, when they were built in it
// (build_resting_contacts()).
struct RestingOrder;

// A sweep's resting contact: its faces and the support points of those that do not collide.
struct RestingContacts {
  std::vector<RestingFace> faces;
  RestingPoints points;
  std::shared_ptr<RestingOrder> order;  // set when the points lie in the order rest() solves them

  const RestingFace& face_of(const RestingPoint& p) const { return faces[p.face]; }
  // The same point in the next step.
  RestingKey key(const RestingPoint& p) const {
    const RestingFace& f = face_of(p);
    return {f.a, f.b, f.plane, p.node};
  }
  // A point's impulse on A, and its friction part, world.
  Vec3 impulse(const RestingPoint& p) const { return face_of(p).frame().to_world(p.held); }
  Vec3 friction_impulse(const RestingPoint& p) const { return face_of(p).frame().to_world({0, p.held.y(), p.held.z()}); }
  // The relative normal velocity at `p` on the posed bodies.
  double normal_velocity(const RestingPoint& p, const std::vector<RigidBody>& posed) const {
    return face_of(p).normal.dot(p.relative_velocity(face_of(p), posed, posed));
  }
  // Adds a face of Coulomb's `friction` and its support points `points` (resting_face,
  // resting_point).
  void add(const SupportFace& face, std::span<const SupportPoint> points, double friction, const RestingBodies& bodies,
           double dt);
};

// Builds the resting faces of `faces` (as found, their points in `points`) and the resting
// points of those not `collides` into `resting`, side by side (resting_face(),
// resting_point()). With `in_solve_order` the points are built where rest() will solve them:
// their islands and schedules are made first, of the faces, and kept in `resting` (moving them
// there in rest() was a fifth of the resting points' time, docs/benchmarks.md, "The
// twenty-third pass"); else face after face, for rest() to order and move. Returns the deepest
// point's depth.
double build_resting_contacts(const World& world, std::span<const SupportFace> faces, std::span<const SupportPoint> points,
                              const std::vector<bool>& collides, const RestingBodies& bodies,
                              const std::vector<bool>& is_static, double dt, double largest_reach, bool in_solve_order,
                              RestingContacts& resting);

RestingFace resting_face(const SupportFace& face, double friction);
// One support point of face `face_index` (`face`) as resting contact, with the normal velocity
// (plus correction) that ends the step exactly touching: the point's depth where the bodies
// are posed, made up over dt.
RestingPoint resting_point(const RestingFace& face, std::uint32_t face_index, const SupportPoint& point,
                           const RestingBodies& bodies, double dt);

struct RestingSettings {
  double warm_start = 1;   // β: a point met again starts from β × its impulse of the last step
  double tolerance = 0;    // m/s: passes stop when no point's relative velocity changes more
  double slack = 0;        // m/s: a gap this speed closes within the step counts as touching
  int max_passes = 1000;   // a guard: passes that still change more stop here
  bool conjugate = true;   // passes accelerated along conjugate directions (NNCG), or plain PGS
  // An island L contacts deep stops after passes_per_layer × (L + 10) passes, if sooner (a
  // step's later sweeps pass half the case's value, solve_by_impulses): what
  // carries a step's load along its depth; the rest a heap's passes change is load traded
  // inside it, which no observable shows (docs/theory.md, "The resting solve").
  int passes_per_layer = 1000;
  // After every this many passes (0: never), and after the last if its budget ran out, an
  // island at least three layers deep takes a coarse step (coarse_step.h): the load carried
  // along its depth at once.
  int coarse_every = 0;
  Vec3 down = Vec3::Zero();  // gravity's direction, unit; zero without gravity (and no coarse step)
  // m/s: an island takes coarse steps only while each of its grains is slower than this (a
  // heap at rest, not a flow: scaling a flowing layer's impulses hands momentum across it).
  double coarse_speed = 0;
  // m: the farthest two grains' centroids can lie apart when they touch (tiles.h,
  // largest_reach()): a big island's tiles are cells as wide as the farthest touching pair
  // of the sweep, this wide where no two grains touch; infinite, one tile.
  double largest_reach = std::numeric_limits<double>::infinity();
  // m: the farthest touching pair of the sweep's islands apart in x or y (tiles.h,
  // farthest_touching()), when ranks share the islands and each holds some; below 0, measured
  // on the islands rest() is given.
  double touching_reach = -1;
};

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
// Order (docs/theory.md, "The resting solve"): the points fall into islands (grains linked
// by resting points; walls and the terrain link nothing), and an island's points into units
// (the points of one pair of bodies, solved one after another). A large island's units are
// cut into tiles across x and y (tiles.h), each tile's units in colour order (no two units of
// a colour move the same grain); the tiles of a phase share no grain and go side by side: the
// same arithmetic in the same order on any number of threads. An island stops when a pass
// changes no relative velocity by more than the tolerance; small islands are solved side by
// side, a large one by all threads at once.
//
// Between passes every point's impulse steps further along a conjugate direction, the
// nonsmooth nonlinear conjugate gradient of Silcowitz, Niebe and Erleben (2010): a column of
// 50 balls takes a sixth of the passes, one of 100 settles at all (docs/theory.md,
// "The resting solve"). The step's size is the ratio of the last two passes' squared impulse
// changes, summed in schedule order; above 1 the directions restart. Every
// `coarse_every` passes, and after a budget's last, an island three or more layers deep takes
// the coarse step instead (coarse_step.h): each layer's impulses scaled at once, so that the load crosses the depth
// in one step rather than one contact a pass.
//
// `impulses` holds the last step's impulses and what each point has applied over the
// earlier sweeps of this step (RestingImpulses): a point this step has set starts from that
// (so a later sweep may take some back); a point met for the first time in this step starts
// from β × its impulse of the last step. What the points apply is merged in as this step's.
// The points are left in the order they were solved (island by island, tile by tile).
// Returns the most passes an island took.
int rest(World& world, const std::vector<bool>& is_static, RestingImpulses& impulses, RestingContacts& resting,
         RestingBodies& bodies, const RestingSettings& settings, StepReport& report);

// What rest() books, summed exactly, so that the islands solved on several ranks add up to the
// same bits (docs/parallel.md): the work of the normal and friction impulses on the
// velocities, and the walls' work and impulses.
struct RestingTotals {
  explicit RestingTotals(std::size_t walls) : walls(walls) {}
  int passes = 0;  // the most an island took
  ExactSum normal_work, friction_work;
  WallBooks walls;

  void sum_across(const Ranks& ranks);  // every rank's totals, on every rank
  void book(World& world, StepReport& report) const;
};

// An island of this many support points or more is cut into tiles and shared by the threads,
// and by the ranks (below); a smaller one is one tile.
constexpr std::size_t shared_island_points = 1024;

// Islands solved by ranks together (docs/parallel.md, "A big island across ranks"): each
// rank is given its strips of each island of shared_island_points or more (the tiles of each
// phase it solves, their points, and the grains they touch), and solves them with the other
// ranks (tile_share.h); the smaller islands it is given it solves alone.
struct SharedIslands {
  static constexpr std::uint32_t none = ~std::uint32_t(0);
  const Ranks& ranks;
  // By point as given: its island among those the ranks share (none: a smaller island's).
  std::vector<std::uint32_t> big_of_point;
  // By island the ranks share, in the order of their labels on every rank: its least grain's
  // body here (none: not held here).
  std::vector<std::uint32_t> label_bodies;
  BodySharers sharers;  // by body: the other ranks whose strips move it
  // What the solve leaves to report:
  std::vector<char> reports;  // by body: its velocities and corrections are this rank's to report
  std::vector<std::uint32_t> placed;  // by point as given: where the solve leaves it
  double strips_seconds = 0;  // the big islands' passes here (their work, less the calls that meet other ranks)
};

// rest() up to its books: the same solve, its totals returned rather than booked. With
// `shared`, the big islands are solved with the other ranks (every rank calls it, with or
// without points of them); the big islands' work is in rank 0's totals.
RestingTotals solve_resting_islands(const World& world, const std::vector<bool>& is_static, RestingImpulses& impulses,
                                    RestingContacts& resting, RestingBodies& bodies, const RestingSettings& settings,
                                    PhaseTimes& times, SharedIslands* shared = nullptr);

}  // namespace scree::solver
