#include "solver/impulse/predict_correct.h"

#include <algorithm>
#include <optional>

#include "solver/contacts/contact_finding.h"
#include "solver/impulse/collision_islands.h"
#include "solver/impulse/resting_contact.h"
#include "solver/impulse/tiles.h"
#include "solver/let_go.h"
#include "solver/parallel_loops.h"
#include "solver/ranks/collisions_across_ranks.h"
#include "solver/ranks/rank_share.h"
#include "solver/ranks/resting_across_ranks.h"

namespace scree::solver {

namespace {

// What a sweep met before its resting solve.
struct SweepContacts {
  bool collided;   // some contact approached faster than the resting speed
  double deepest;  // m, the deepest resting support point
};

// A sweep up to its resting solve, where `posed` would take the bodies: contacts found (the
// nodes that carry `impulses`, the resting impulses so far, kept as support points),
// collisions among them resolved on `posed` (their books in `world` and `report`), and the
// resting points of the faces that do not collide built into `resting`; with `closing`
// (the last of several sweeps) nothing collides. Its contacts, faces and support points end
// here: the resting solve after it holds a step's peak of memory, and they are no part of it
// (docs/benchmarks.md, "The eighth pass"). A sweep that collides nothing and finds no support
// point deeper than `done_depth` ends the step, and builds no resting points.
// With `share`, this rank's part: its share of the search, the collisions' islands resolved
// across the ranks, and what ends the sweep judged on what every rank found.
SweepContacts collide_and_gather(World& world, const ImpulseSettings& settings, double dt, double skin,
                                 double largest_reach, double resting_speed, bool closing, double done_depth,
                                 const std::vector<bool>& is_static, std::vector<RigidBody>& posed, const RestingBodies& resting_bodies,
                                 const RestingImpulses& impulses, RestingContacts& resting, StepReport& report,
                                 RankShare* share) {
  std::optional<PhaseTimer> timer(std::in_place, report.times, Phase::contact_search);
  const std::optional<SearchShare> search = share ? std::optional(share->search()) : std::nullopt;
  FoundContacts found = find_contacts(world, posed, dt, resting_speed * dt, &world.neighbours, skin, &world.near_nodes, &impulses,
                                      search ? &*search : nullptr);
  report.contacts = found.contacts.size();
  if (share) {
    std::int64_t contacts = std::int64_t(report.contacts);
    share->ranks.sum(std::span(&contacts, 1));
    report.contacts = std::size_t(contacts);
  }
  timer.emplace(report.times, Phase::collisions);

  // Collisions: contacts approaching faster than the resting speed, resolved by the energy
  // tracking method. A face with no such contact rests on its support points: seed 000 does
  // this against walls only and leaves the grains of a heap to the ETM, whose increments then
  // dominate the step (each step's gravity is compressed and released in α increments at
  // every contact, round after round); below a few steps of gravity, restitution changes
  // nothing a user could see.
  // The colliding contacts are kept apart, and the others (in a heap, nearly all) go before
  // the resting points are built beside the faces (docs/benchmarks.md, "The eighth pass").
  std::vector<Contact> colliding;
  std::vector<bool> face_collides(found.faces.size(), false);
  if (!closing) {  // the last sweep collides nothing
    // Each contact judged side by side, then the few that collide taken in order (the same
    // on any number of threads; docs/benchmarks.md, "The twenty-third pass").
    std::vector<char> approaching(found.contacts.size());
#pragma omp parallel for schedule(static) if (found.contacts.size() >= smallest_parallel_loop)
    for (std::size_t k = 0; k < found.contacts.size(); ++k) {
      const Contact& c = found.contacts[k];
      approaching[k] = c.normal.dot(contact_point(posed, c).relative_velocity()) < -resting_speed;
    }
    for (std::size_t k = 0; k < found.contacts.size(); ++k) {
      if (!approaching[k]) continue;
      const Contact& c = found.contacts[k];
      colliding.push_back(c);
      face_collides[c.face] = true;
    }
  }
  let_go(found.contacts);
  // Whether any rank's contacts collide.
  const bool collided = share ? share->ranks.max(colliding.empty() ? 0.0 : 1.0) > 0 : !colliding.empty();
  // A settled heap's every step ends with such a sweep, and building its points took a fifth
  // of the resting points' time (docs/benchmarks.md, "The twentieth pass").
  if (!collided) {
    double deepest = 0;
#pragma omp parallel for schedule(static) reduction(max : deepest) if (found.points.size() >= smallest_parallel_loop)
    for (std::size_t k = 0; k < found.points.size(); ++k) deepest = std::max(deepest, found.points[k].depth);
    if (share) deepest = share->ranks.max(deepest);
    if (deepest <= done_depth) return {false, deepest};
  }
  timer.emplace(report.times, Phase::resting_setup);
  // The faces (numbered as found) and the resting points of those that do not collide: in
  // the order the resting solve takes them when nothing collides on one rank, else face after
  // face (the collisions may strike some faces' points off, below; the ranks' solvers order
  // their islands' points).
  double deepest = build_resting_contacts(world, found.faces, found.points, face_collides, resting_bodies, is_static, dt,
                                          largest_reach, !collided && !share, resting);
  if (share) deepest = share->ranks.max(deepest);
  timer.emplace(report.times, Phase::collisions);
  std::vector<double> approach_before;  // only needed when something collides
  if (collided)
    for (const RestingPoint& r : resting.points) approach_before.push_back(resting.normal_velocity(r, posed));
  if (share) {
    resolve_collisions_across_ranks(world, posed, colliding, is_static, share->owned, share->halo, share->ranks,
                                    settings.collisions, &share->collision_pace)
        .book(world, report);
  } else {
    std::vector<CollidingContact> collisions;
    collisions.reserve(colliding.size());
    for (const Contact& c : colliding) collisions.push_back(colliding_contact(world, c));
    resolve_collision_islands(posed, collisions, is_static, world.walls, settings.collisions).book(world, report);
  }
  // A face the collisions have just driven together faster than the resting speed (the
  // next ball of a row struck by the first) collides in the next sweep: resting contact
  // would stop it inelastically, and an elastic row would lose energy.
  if (collided) {
    std::vector<bool> struck(found.faces.size(), false);
    RestingPoints& points = resting.points;
    for (std::size_t k = 0; k < points.size(); ++k) {
      const double u_n = resting.normal_velocity(points[k], posed);
      if (u_n < -resting_speed && u_n < approach_before[k]) struck[points[k].face] = true;
    }
    std::size_t kept = 0;
    for (std::size_t k = 0; k < points.size(); ++k)
      if (!struck[points[k].face]) points[kept++] = points[k];
    points.erase(points.begin() + std::ptrdiff_t(kept), points.end());
  }
  return {collided, deepest};
}

}  // namespace

void solve_by_impulses(World& world, const StepSettings& settings, std::vector<RigidBody>& corrections, StepReport& report,
                       RankShare* share) {
  const double dt = settings.time_step;
  const std::size_t n = world.grain_count();
  const double resting_speed =
      settings.impulse.resting_speed >= 0 ? settings.impulse.resting_speed : 3 * settings.gravity.norm() * dt;

  std::vector<bool> is_static(world.bodies.size(), false);
  std::fill(is_static.begin() + std::ptrdiff_t(n), is_static.end(), true);

  // The neighbour list's skin: half the mean bounding radius keeps its candidates within
  // about twice the pairs, and lets the grains move a quarter radius between rebuilds.
  double skin = 0, largest_radius = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const double radius = world.shapes[world.shape[i]].bounding_radius * world.scale[i];
    skin += radius;
    largest_radius = std::max(largest_radius, radius);
  }
  skin *= n > 0 ? 0.5 / double(n) : 0;
  if (share) largest_radius = share->ranks.max(largest_radius);  // the skin serves this rank's cache alone

  // A sweep ends the step when no support point is deeper than a hundredth of one step's fall
  // (below). Gaps under a tenth of it count as touching: a gap left by the last step's
  // round-off, closed at full speed, would shake a column at rest; and one that a sweep's
  // corrections open (a grain pushed out at one support lifts off another by a few µm) would
  // take that support's load away in the next sweep and hand it back in the next step's first,
  // round after round: a deep heap's floor load then wandered 10 times as far at the same passes
  // (docs/benchmarks.md, "The thirteenth pass").
  const double tolerated_depth = 0.01 * settings.gravity.norm() * dt * dt;
  const double touching_gap = 0.1 * settings.gravity.norm() * dt * dt;
  RestingSettings resting_settings{settings.impulse.warm_start,
                                         settings.impulse.resting_tolerance * settings.gravity.norm() * dt,
                                         touching_gap / dt,
                                         settings.impulse.resting_passes,
                                         settings.impulse.resting_conjugate,
                                         settings.impulse.resting_passes_per_layer,
                                         settings.impulse.resting_coarse_every,
                                         settings.gravity.isZero() ? Vec3::Zero() : Vec3(settings.gravity.normalized()),
                                         resting_speed};
  // How far apart two grains can touch, within the contact search's margin (as find_contacts()
  // widens it for the largest grain): the tiles' cells where no two grains touch.
  resting_settings.largest_reach = largest_reach(largest_radius, std::max(resting_speed * dt, 1e-6 * largest_radius));
  // The last step's resting impulses, then also this step's as the sweeps apply them; the
  // step keeps its own.
  RestingImpulses impulses = std::move(world.resting_impulses);
  const int sweeps = std::max(settings.impulse.boundary_iterations, 1);
  for (int sweep = 0; sweep < sweeps; ++sweep) {
    // Built afresh each sweep: the last sweep's, held through this one's contact search,
    // would make that the step's peak of memory (docs/benchmarks.md, "The eighth pass").
    RestingContacts resting;
    // Where the current velocities and corrections would take every body.
    std::vector<RigidBody> posed = world.bodies;
    move_bodies(posed, corrections, dt);
    RestingBodies resting_bodies(posed, corrections);
    // The last of several sweeps collides nothing: what still approaches then is stopped as
    // resting contact, which ends the step touching. A collision resolved in the last sweep
    // drives the body below it on into what it rests on, with no sweep left to stop it (the
    // base of a rock mass ended steps 7 cm inside the ground).
    const bool closing = sweeps > 1 && sweep + 1 == sweeps;
    const SweepContacts met =
        collide_and_gather(world, settings.impulse, dt, skin, resting_settings.largest_reach, resting_speed, closing,
                           sweep > 0 ? tolerated_depth : -1.0, is_static, posed, resting_bodies, impulses, resting, report,
                           share);
    // Done when nothing collides and the step ends with resting contacts touching, to a
    // hundredth of what one step of gravity would move. The first sweep always solves: its
    // warm start is what holds a heap still.
    const bool resting_points = share ? share->ranks.max(resting.points.empty() ? 0.0 : 1.0) > 0 : !resting.points.empty();
    if (!met.collided && (!resting_points || (sweep > 0 && met.deepest <= tolerated_depth))) break;
    report.sweeps = sweep + 1;

    // A later sweep starts from what the earlier ones applied: the load has travelled along
    // the island's depth already, and what is left to carry is what the collisions and the
    // bodies' new places changed. Half the budget, rounded up, does that (docs/benchmarks.md,
    // the sixth pass: the settled 1000-grain heap 14 % faster with the same floor load); the
    // default of one pass a layer stays one, as a deep heap's later sweeps need nearly the
    // first's passes (the thirteenth pass).
    RestingSettings this_sweep = resting_settings;
    if (sweep > 0) this_sweep.passes_per_layer = (resting_settings.passes_per_layer + 1) / 2;
    if (share) {
      const RestingTotals totals = rest_across_ranks(world, is_static, impulses, std::move(resting), resting_bodies, share->owned,
                                                     share->halo, share->ranks, this_sweep, report.times,
                                                     share->paced ? &share->strip_pace : nullptr);
      totals.book(world, report);
      report.passes = std::max(report.passes, totals.passes);
    } else {
      report.passes = std::max(report.passes, rest(world, is_static, impulses, resting, resting_bodies, this_sweep, report));
    }
    for (std::size_t i = 0; i < n; ++i) {
      world.bodies[i].velocity = posed[i].velocity;
      world.bodies[i].angular_velocity = posed[i].angular_velocity;
    }
  }

  impulses.keep_this_step();
  world.resting_impulses = std::move(impulses);
}

}  // namespace scree::solver
