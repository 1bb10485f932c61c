#include "solver/impulse/resting_contact.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <bit>
#include <chrono>
#include <cmath>
#include <numeric>
#include <optional>
#include <stdexcept>
#include <type_traits>

#include <omp.h>

#include "solver/contacts/islands.h"
#include "solver/exact_sum.h"
#include "solver/impulse/coarse_step.h"
#include "solver/impulse/move_to.h"
#include "solver/impulse/tiles.h"
#include "solver/parallel_loops.h"
#include "solver/ranks/communicator.h"
#include "solver/ranks/island_depths.h"
#include "solver/ranks/tile_share.h"
#include "solver/team_barrier.h"
#include "solver/wall_books.h"

namespace scree::solver {

namespace {

// At `p` (of face `f`) on the posed velocities.
Vec3 relative_velocity(const RestingBodies& bodies, const RestingFace& f, const RestingPoint& p) {
  return p.relative_velocity(f, bodies.velocities, bodies.velocities);
}

// P on A and −P on B at `p` (of face `f`); a static B is left unwritten (islands solved side
// by side share it).
void apply(std::vector<RigidBody>& bodies, const RestingBodies& resting_bodies, const RestingFace& f,
           const RestingPoint& p, const Vec3& impulse) {
  const std::vector<Mat3>& inverse_inertia = resting_bodies.inverse_inertia;
  RigidBody& a = bodies[f.a];
  a.velocity += a.inverse_mass * impulse;
  a.angular_velocity += inverse_inertia[f.a] * p.r_a().cross(impulse);
  RigidBody& b = bodies[f.b];
  if (b.is_static()) return;
  b.velocity -= b.inverse_mass * impulse;
  b.angular_velocity -= inverse_inertia[f.b] * p.r_b(f, resting_bodies.velocities).cross(impulse);
}

// What impulses on the velocities worked on the relative motion at their points, by part, J.
using Work = ContactWork;

// Applies the local impulse P to the velocities, with the work of its normal and tangential
// parts on the relative motion, ½ (u_before + u_after)·P split along n (their sum is the
// change of kinetic energy), added to `work`; u_before local too.
void apply_measured(RestingBodies& bodies, const RestingFace& face, const ContactFrame& frame, const RestingPoint& p,
                    const Vec3& impulse, const Vec3& velocity_before, Work& work) {
  apply(bodies.velocities, bodies, face, p, frame.to_world(impulse));
  const Vec3 mean = velocity_before + 0.5 * p.K_times(impulse);
  work.normal += mean.x() * impulse.x();
  work.friction += mean.y() * impulse.y() + mean.z() * impulse.z();
}

// The friction impulse F, |F| ≤ cap, that leaves the least kinetic energy in the relative
// tangential motion, given the slip u_t its present one F₀ leaves (local, tangential parts):
// F = −(A + λ)⁻¹ (u_t − A F₀), A = K's tangential block, λ ≥ 0 such that |F| = cap (Moré and
// Sorensen's trust-region step in two dimensions, by Newton's method on 1/|F(λ)| − 1/cap).
// The slip it leaves, u_t + A (F − F₀), = −λ F, opposes F: Coulomb's sliding friction.
Eigen::Vector2d sliding_friction(const Eigen::Matrix2d& A, const Eigen::Vector2d& present, const Eigen::Vector2d& slip,
                                 double cap) {
  if (cap <= 0) return Eigen::Vector2d::Zero();
  const Eigen::Vector2d b = slip - A * present;
  const Eigen::SelfAdjointEigenSolver<Eigen::Matrix2d> eigen(A);
  const Eigen::Vector2d a = eigen.eigenvalues(), c = eigen.eigenvectors().transpose() * b;
  double lambda = 0;
  for (int k = 0; k < 50; ++k) {
    const Eigen::Vector2d y(c[0] / (a[0] + lambda), c[1] / (a[1] + lambda));  // −F in A's axes
    const double norm = y.norm();
    const double slope = -(y[0] * y[0] / (a[0] + lambda) + y[1] * y[1] / (a[1] + lambda)) / norm;  // d|y|/dλ
    const double step = (norm / cap - 1) * norm / -slope;  // Newton on 1/|y| − 1/cap
    lambda = std::max(0.0, lambda + step);
    if (std::abs(step) <= 1e-12 * (a[0] + lambda)) break;
  }
  const Eigen::Vector2d f = -(eigen.eigenvectors() * Eigen::Vector2d(c[0] / (a[0] + lambda), c[1] / (a[1] + lambda)));
  return f * std::min(1.0, cap / f.norm());  // round-off
}

// One velocity pass at a point: the normal impulse that stops the approach beyond touching,
// then friction on the slip that leaves: the impulse that stops it in both tangent
// directions at once where that stays within μ times the normal impulse (a step along the
// slip alone cycles where K couples them, docs/theory.md "The resting solve"), else the
// sliding friction of that size. Both go on as one impulse.
void hold(RestingBodies& bodies, const RestingFace& face, RestingPoint& p, double slack, Work& work) {
  const ContactFrame frame = face.frame();
  const Vec3 u = frame.to_local(relative_velocity(bodies, face, p));
  const double target = std::min(p.touch + slack, 0.0);
  const double normal = std::max(0.0, p.held.x() + (target - u.x()) / p.k_nn);
  Vec3 impulse(normal - p.held.x(), 0, 0);
  p.held.x() = normal;
  const Eigen::Vector2d slip(u.y() + p.k_n1 * impulse.x(), u.z() + p.k_n2 * impulse.x());
  if (slip.squaredNorm() > 0) {
    const double cap = face.friction * normal;
    const Eigen::Vector2d present(p.held.y(), p.held.z());
    const double inverse_det = 1 / (p.k_11 * p.k_22 - p.k_12 * p.k_12);  // A⁻¹ = [k_22 −k_12; −k_12 k_11] / det
    Eigen::Vector2d friction(present.x() - (p.k_22 * slip.x() - p.k_12 * slip.y()) * inverse_det,
                             present.y() - (p.k_11 * slip.y() - p.k_12 * slip.x()) * inverse_det);
    if (friction.squaredNorm() > cap * cap) {
      Eigen::Matrix2d A;
      A << p.k_11, p.k_12, p.k_12, p.k_22;
      friction = sliding_friction(A, present, slip, cap);
    }
    impulse.y() = friction.x() - present.x();
    impulse.z() = friction.y() - present.y();
    p.held.y() = friction.x();
    p.held.z() = friction.y();
  }
  if (impulse != Vec3::Zero()) apply_measured(bodies, face, frame, p, impulse, u, work);
}

// A world impulse as a point's local held impulse, its normal part not below 0 (the normal
// may have turned since the impulse was applied).
Vec3 held_from(const ContactFrame& frame, const Vec3& impulse) {
  Vec3 held = frame.to_local(impulse);
  held.x() = std::max(0.0, held.x());
  return held;
}

// One correction pass at a point: what pushes it out to touching by the step's end.
void push(RestingBodies& bodies, const RestingFace& face, RestingPoint& p) {
  const double normal_velocity = face.normal.dot(p.relative_velocity(face, bodies.corrections, bodies.velocities));
  const double impulse = std::max(0.0, p.push_impulse + (p.touch - normal_velocity) / p.k_nn);
  const double change = impulse - p.push_impulse;
  if (change == 0) return;
  apply(bodies.corrections, bodies, face, p, change * face.normal);
  p.push_impulse = impulse;
}

// An island's points in solve order: unit by unit (the points of one pair of bodies), the
// units tile by tile (tiles.h: a tile's units go one after another on one thread), the tiles
// phase by phase. The tiles of a phase move disjoint grains, so threads share a phase's tiles
// and meet once a phase: four times a pass, however many units (docs/theory.md, "Resting
// contact": a pass shared colour by colour met ~26 times, and each meeting cost the grains'
// state its trip between the cores, docs/benchmarks.md "The eighteenth pass").
struct Schedule {
  std::uint64_t island_points = 0;
  std::vector<std::uint32_t> points;
  std::vector<std::uint32_t> unit_start;   // unit u: points[unit_start[u] .. unit_start[u + 1])
  std::vector<std::uint32_t> tile_start;   // tile t: units tile_start[t] .. tile_start[t + 1]
  std::vector<std::uint32_t> phase_start;  // phase f: tiles phase_start[f] .. phase_start[f + 1]
};

constexpr int colour_limit = 64;  // colours a grain's mask holds
constexpr std::uint32_t none_shared = SharedIslands::none;  // a point of no island that ranks share

// An island of this many points or more is cut into tiles and solved by all threads at once,
// smaller ones are one tile each and go side by side (solve_islands()). The schedule is the
// same either way, so this changes speed, not results: in the 1000-grain discharge's impacts
// one island of ~2400 points among hundreds of small ones held the second thread idle until
// islands of 1024 points were shared (resting solve on two threads 6.4 s -> 4.6 s,
// docs/benchmarks.md).
constexpr std::size_t shared_island = shared_island_points;

// Until when (steady clock) big islands are not shared by threads, because the teams found the
// cores held by other processes (rest()). Process-wide, like the cores; a speed hint only.
std::atomic<std::int64_t> crowded_until{0};
constexpr std::chrono::seconds crowded_pause{2};
// The teams' waits that tell (per thread that calls rest()).
thread_local CrowdWatch crowd_watch;

// The points as runs of one pair of bodies each, as they lie (points of one pair are found
// one after another): the islands and schedules are made of runs, a few points each, rather
// than of points (docs/benchmarks.md, "The twenty-third pass").
struct PointRuns {
  std::vector<std::pair<std::uint32_t, std::uint32_t>> pairs;  // by run: its bodies A and B
  std::vector<std::uint32_t> start;                            // run r: points start[r] .. start[r + 1]
};

// Starts a run of bodies `pair` at point `start`, unless the last run is of that pair (then
// its points go on to `start` and beyond).
void add_run(PointRuns& runs, std::pair<std::uint32_t, std::uint32_t> pair, std::size_t start) {
  if (runs.pairs.empty() || runs.pairs.back() != pair) {
    runs.pairs.push_back(pair);
    runs.start.push_back(std::uint32_t(start));
  }
}

PointRuns point_runs(const RestingContacts& resting) {
  PointRuns runs;
  const RestingPoints& points = resting.points;
  for (std::size_t k = 0; k < points.size(); ++k) {
    if (k > 0 && points[k].face == points[k - 1].face) continue;
    const RestingFace& face = resting.face_of(points[k]);
    add_run(runs, {face.a, face.b}, k);
  }
  runs.start.push_back(std::uint32_t(points.size()));
  return runs;
}

// Greedy colouring in point order within each tile: each unit takes the lowest colour that
// none of its grains has taken yet in its tile; a tile's units go colour by colour, the order a
// pass had when threads shared it a colour at a time: a unit's change reaches the units of its
// grains' later colours in the same pass. Coloured tile by tile rather than across the island,
// a unit's colour depends on its tile's units alone, which a rank holding the tile has
// (docs/parallel.md). The island is given as its runs (`runs`, in point order); the runs of
// one pair next to each other in it are one unit. `taken` (by body) is all zero before and
// after. An island of `shared_island` points or more is cut into tiles (tile_units()) of
// cells `width` wide at the places `posed`; a smaller one is one tile. One that ranks share
// (`across`: this rank's strips of it) is cut so whatever its points here, and keeps all four
// phases, as every rank must.
Schedule schedule(const std::vector<std::uint32_t>& island, const PointRuns& runs, const std::vector<bool>& is_static,
                  const std::vector<RigidBody>& posed, double width, std::vector<std::uint64_t>& taken, bool across) {
  const std::vector<std::pair<std::uint32_t, std::uint32_t>>& pairs = runs.pairs;
  std::vector<std::uint32_t> unit_begin;
  std::vector<std::pair<std::uint32_t, std::uint32_t>> unit_bodies;
  std::uint64_t island_points = 0;
  for (std::size_t k = 0; k < island.size(); ++k) {
    island_points += runs.start[island[k] + 1] - runs.start[island[k]];
    if (k > 0 && pairs[island[k - 1]] == pairs[island[k]]) continue;
    unit_begin.push_back(std::uint32_t(k));
    unit_bodies.push_back(pairs[island[k]]);
  }
  unit_begin.push_back(std::uint32_t(island.size()));

  Tiling tiling;
  if (across || island_points >= shared_island) {
    tiling = tile_units(unit_bodies, is_static, posed, width);
  } else {
    tiling.tile.assign(unit_bodies.size(), 0);
    tiling.per_phase = {1, 0, 0, 0};
  }
  const std::uint32_t tile_count = tiling.count();
  // Units by tile, then colour, then point order (a counting sort on each key, stable).
  std::vector<std::uint32_t> order(unit_bodies.size());
  std::iota(order.begin(), order.end(), 0);
  auto sort_by = [&](const std::vector<std::uint32_t>& key, std::uint32_t keys) {
    std::vector<std::uint32_t> start(keys + 1, 0), sorted(order.size());
    for (std::uint32_t u : order) ++start[key[u] + 1];
    for (std::uint32_t k = 0; k < keys; ++k) start[k + 1] += start[k];
    for (std::uint32_t u : order) sorted[start[key[u]]++] = u;
    order = std::move(sorted);
  };
  sort_by(tiling.tile, tile_count);
  std::vector<std::uint32_t> unit_colour(unit_bodies.size());
  for (std::size_t first = 0; first < order.size();) {
    std::size_t end = first;
    while (end < order.size() && tiling.tile[order[end]] == tiling.tile[order[first]]) ++end;
    for (std::size_t k = first; k < end; ++k) {
      const auto [a, b] = unit_bodies[order[k]];
      const bool b_moves = !is_static[b];
      const std::uint64_t used = taken[a] | (b_moves ? taken[b] : 0);
      const int colour = used == ~std::uint64_t(0) ? colour_limit : std::countr_one(used);
      if (colour < colour_limit) {
        taken[a] |= std::uint64_t(1) << colour;
        if (b_moves) taken[b] |= std::uint64_t(1) << colour;
      }
      unit_colour[order[k]] = std::uint32_t(colour);
    }
    for (std::size_t k = first; k < end; ++k) taken[unit_bodies[order[k]].first] = taken[unit_bodies[order[k]].second] = 0;
    first = end;
  }
  sort_by(unit_colour, colour_limit + 1);
  sort_by(tiling.tile, tile_count);

  Schedule s;
  s.island_points = island_points;
  s.tile_start.assign(tile_count + 1, 0);
  for (std::uint32_t u : order) {
    ++s.tile_start[tiling.tile[u] + 1];
    s.unit_start.push_back(std::uint32_t(s.points.size()));
    for (std::uint32_t k = unit_begin[u]; k < unit_begin[u + 1]; ++k)
      for (std::uint32_t q = runs.start[island[k]]; q < runs.start[island[k] + 1]; ++q) s.points.push_back(q);
  }
  s.unit_start.push_back(std::uint32_t(s.points.size()));
  for (std::uint32_t t = 0; t < tile_count; ++t) s.tile_start[t + 1] += s.tile_start[t];
  s.phase_start = {0};
  for (std::uint32_t in_phase : tiling.per_phase)
    if (across || in_phase > 0) s.phase_start.push_back(s.phase_start.back() + in_phase);
  return s;
}

}  // namespace

// The islands' schedules, of points numbered as in the runs they were made of, and each
// island's layers (island_layers(): its budget of passes).
struct RestingOrder {
  std::vector<Schedule> schedules;
  std::vector<int> layers;
};

namespace {

// The tiles' cells are as wide as the farthest touching pair of all the islands (tile_width()):
// the same grid for every island, so a rank that holds some of them cuts as one holding all,
// given the widest pair over the ranks (docs/parallel.md). With `big_of_point` (by point: its
// island among `big_count` that ranks share, none for the others), those come last, in their
// order, each as this rank's strips of it (their layers are the ranks' to find together).
RestingOrder schedule_islands(const PointRuns& runs, const std::vector<bool>& is_static, const std::vector<RigidBody>& posed,
                              double largest_reach, double touching_reach,
                              const std::vector<std::uint32_t>* big_of_point = nullptr, std::size_t big_count = 0) {
  RestingOrder order;
  std::vector<std::uint64_t> taken(posed.size(), 0);
  const double width = tile_width(touching_reach >= 0 ? touching_reach : farthest_touching(runs.pairs, is_static, posed),
                                  largest_reach);
  // The islands of `pairs`, runs `run_of` (none: the runs themselves).
  auto schedule_each = [&](const std::vector<std::pair<std::uint32_t, std::uint32_t>>& pairs,
                           const std::vector<std::uint32_t>* run_of) {
    for (Island& island : contact_islands(pairs, is_static)) {
      order.layers.push_back(island_layers(island, pairs, is_static));
      if (run_of)
        for (std::uint32_t& c : island.contacts) c = (*run_of)[c];
      order.schedules.push_back(schedule(island.contacts, runs, is_static, posed, width, taken, false));
    }
  };
  if (!big_of_point) {
    schedule_each(runs.pairs, nullptr);
    return order;
  }
  std::vector<std::uint32_t> small;                        // runs of the other islands
  std::vector<std::pair<std::uint32_t, std::uint32_t>> small_pairs;
  std::vector<std::vector<std::uint32_t>> big(big_count);  // by big island, its runs
  for (std::uint32_t r = 0; r + 1 < runs.start.size(); ++r)
    if (const std::uint32_t at = (*big_of_point)[runs.start[r]]; at == none_shared) {
      small.push_back(r);
      small_pairs.push_back(runs.pairs[r]);
    } else {
      big[at].push_back(r);
    }
  schedule_each(small_pairs, &small);
  for (const std::vector<std::uint32_t>& island : big) {
    order.schedules.push_back(schedule(island, runs, is_static, posed, width, taken, true));
    order.layers.push_back(0);
  }
  return order;
}

// Each of `count` points' place in schedule order, island after island; the schedules then
// list their points by place.
std::vector<std::uint32_t> place_in_order(std::vector<Schedule>& schedules, std::size_t count) {
  std::vector<std::uint32_t> place(count);
  std::uint32_t next_place = 0;
  for (Schedule& s : schedules)
    for (std::uint32_t& k : s.points) {
      place[k] = next_place;
      k = next_place++;
    }
  return place;
}

// What the passes solve: the velocities (hold) or the corrections (push). Each readies a point
// (at its place) before the first pass, solves it, reads its accumulated impulse and moves it
// (with the bodies) by a given impulse, both local; the work on the velocities goes to the
// unit's `work` (the corrections move the bodies within this step only and do none).
struct Hold {
  static constexpr bool begin_moves = true;  // the warm starts
  RestingBodies& bodies;
  const std::vector<RestingFace>& faces;
  double slack;
  const std::vector<char>& warm_started;  // by place: the point applies its warm start first
  const CoarseLayers& layers;             // the island's, for its coarse steps (none: no layers)
  const std::vector<std::pair<int, int>>& coarse_entries;  // shared by ranks: H's entries over them (CoarseShare)
  void begin(RestingPoint& p, std::uint32_t at, Work& work) const {
    if (warm_started[at]) apply_at(p, p.held, work);
  }
  void solve(RestingPoint& p, Work& work) const { hold(bodies, faces[p.face], p, slack, work); }
  Vec3 impulse(const RestingPoint& p) const { return p.held; }
  void shift(RestingPoint& p, const Vec3& by, Work& work) const {
    p.held += by;
    apply_at(p, by, work);
  }
  // For the coarse step: a unit's impulses on A (below); a point's part of the objective's
  // linear term that is not the relative velocity's (its impulse times the velocity it must
  // reach); and its impulse scaled by 1 + c. The grains' side of the added impulse's work is
  // booked by group sums (move_grains()); a static B's side, its velocity unchanged by the
  // step, is booked here when `static_b`.
  //
  // Σ P and Σ r_a × P over points `at`..`end` of one unit, and the same of their normal parts:
  // each face's local impulses and their moments summed first, turned to the world once.
  GroupImpulse unit_impulse(const RestingPoints& points, const std::uint32_t* at, const std::uint32_t* end) const {
    GroupImpulse sum;
    while (at != end) {
      const std::uint32_t face = points[*at].face;
      Vec3 local = Vec3::Zero();
      Mat3 moments = Mat3::Zero();  // column c: Σ held_c r_a
      for (; at != end && points[*at].face == face; ++at) {
        const RestingPoint& p = points[*at];
        local += p.held;
        moments += p.r_a() * p.held.transpose();
      }
      const ContactFrame frame = faces[face].frame();
      const Vec3 normal_moment = moments.col(0).cross(frame.n);
      sum.linear += frame.to_world(local);
      sum.angular += normal_moment + moments.col(1).cross(frame.t1) + moments.col(2).cross(frame.t2);
      sum.normal_linear += local.x() * frame.n;
      sum.normal_angular += normal_moment;
    }
    return sum;
  }
  double reached(const RestingPoint& p) const { return p.held.x() * std::min(p.touch + slack, 0.0); }
  void scale(RestingPoint& p, double c, bool static_b, Work& work) const {
    const Vec3 added = c * p.held;
    if (static_b) {
      const RestingFace& f = faces[p.face];
      const Vec3 b = f.frame().to_local(bodies.velocities[f.b].velocity_at(p.r_b(f, bodies.velocities)));
      work.normal -= b.x() * added.x();
      work.friction -= b.y() * added.y() + b.z() * added.z();
    }
    p.held += added;
  }
  // The local impulse at `p` on the velocities, its work measured.
  void apply_at(const RestingPoint& p, const Vec3& impulse, Work& work) const {
    const RestingFace& face = faces[p.face];
    const ContactFrame frame = face.frame();
    apply_measured(bodies, face, frame, p, impulse, frame.to_local(relative_velocity(bodies, face, p)), work);
  }
};
struct Push {
  static constexpr bool begin_moves = false;  // begin() reads the bodies only
  RestingBodies& bodies;
  const std::vector<RestingFace>& faces;
  // What the velocities now left of the approach to touching, the corrections make up.
  void begin(RestingPoint& p, std::uint32_t, Work&) const {
    const RestingFace& face = faces[p.face];
    p.touch -= face.normal.dot(relative_velocity(bodies, face, p));
  }
  void solve(RestingPoint& p, Work&) const { push(bodies, faces[p.face], p); }
  Vec3 impulse(const RestingPoint& p) const { return {p.push_impulse, 0, 0}; }
  void shift(RestingPoint& p, const Vec3& by, Work&) const {
    p.push_impulse += by.x();
    const RestingFace& face = faces[p.face];
    apply(bodies.corrections, bodies, face, p, by.x() * face.normal);
  }
};

// The schedule's units for the coarse step (coarse_step.h), none if a grain of the island is
// as fast as `speed` (a flow, not a heap at rest; docs/theory.md "The resting solve"): a unit
// against a static body bears the load if one of its faces has friction or a normal with a
// part against gravity (`down`).
std::vector<CoarseUnit> coarse_units(const Schedule& s, const RestingPoints& points,
                                     const std::vector<RestingFace>& faces, const std::vector<RigidBody>& bodies,
                                     const std::vector<bool>& is_static, const Vec3& down, double speed) {
  std::vector<CoarseUnit> units(s.unit_start.size() - 1);
  auto fast = [&](std::uint32_t body) {
    return !is_static[body] && bodies[body].velocity.squaredNorm() >= speed * speed;
  };
  for (std::size_t u = 0; u < units.size(); ++u) {
    const RestingFace& first = faces[points[s.points[s.unit_start[u]]].face];
    if (fast(first.a) || fast(first.b)) return {};
    units[u] = {first.a, first.b, false};
    if (!is_static[first.b]) continue;
    for (std::uint32_t q = s.unit_start[u]; q < s.unit_start[u + 1]; ++q) {
      const RestingFace& f = faces[points[s.points[q]].face];
      units[u].bears_load = units[u].bears_load || f.friction > 0 || f.normal.dot(down) < 0;
    }
  }
  return units;
}

// An island's sum of `by_unit` (by unit in schedule order): tile by tile in schedule order,
// the tiles' sums then exactly (exact_sum.h), so the bits do not depend on which thread or rank
// solved which tile (docs/parallel.md). Tiles hold a few dozen units, so the exact sum costs
// little over the plain one. With `tiles`, each rank sums the tiles it holds, its strips
// (tile_sums()), and the ranks' sums are added.
ExactSum tile_sums(const Schedule& s, const std::vector<double>& by_unit) {
  ExactSum sum;
  for (std::size_t t = 0; t + 1 < s.tile_start.size(); ++t) {
    double tile = 0;
    for (std::uint32_t u = s.tile_start[t]; u < s.tile_start[t + 1]; ++u) tile += by_unit[u];
    sum += tile;
  }
  return sum;
}
double sum_by_tiles(const Schedule& s, const std::vector<double>& by_unit, const TileShare* tiles = nullptr) {
  ExactSum sum = tile_sums(s, by_unit);
  if (tiles) tiles->ranks().sum(std::span<ExactSum>(&sum, 1));
  return sum.value();
}

// Each unit's bodies A and B, in schedule order.
std::vector<std::pair<std::uint32_t, std::uint32_t>> unit_bodies(const Schedule& s, const RestingPoints& points,
                                                                 const std::vector<RestingFace>& faces) {
  std::vector<std::pair<std::uint32_t, std::uint32_t>> bodies;
  for (std::size_t u = 0; u + 1 < s.unit_start.size(); ++u) {
    const RestingFace& face = faces[points[s.points[s.unit_start[u]]].face];
    bodies.emplace_back(face.a, face.b);
  }
  return bodies;
}

// Projected Gauss–Seidel passes over an island in its schedule until no unit changes the
// relative velocity at any of its points by more than the tolerance, measured on the bodies
// before and after the unit: the points of one face share their load in ways that move load
// from point to point and leave the bodies as they were, which a measure point by point would
// count as change for ever. With `parallel`, the threads share each phase's tiles. A unit is
// solved again only while one of its grains moved in this pass or the last (by more than the
// tolerance; `moved` holds the pass, by body): a grain knocked in a settled heap then costs
// passes around it, not over the heap. The tiles of a phase share no grain, so what a unit
// reads was written by earlier units of its tile or by earlier phases only, the same on any
// number of threads; every thread reads the same largest change, so all stop at the same pass.
//
// With `settings.conjugate`, after pass k every point's impulse moves by β_k d, d its
// direction, and the direction becomes its change in the pass plus β_k d (Silcowitz et al.
// 2010, the nonsmooth nonlinear conjugate gradient); β_k = |Δλ_k|² / |Δλ_{k−1}|² over the
// island, summed tile by tile (sum_by_tiles()), and above 1 the directions restart from the
// changes. The step may leave an impulse outside its cone for a moment: the next pass projects
// it. A unit the active set skips has no change, and its direction keeps β times itself. Stops after
// `max_passes` if still changing. Returns the passes, and adds the work done to `work`, each
// unit's own sum (kept beside the schedule, the same on any number of threads) summed tile by
// tile (sum_by_tiles()). With `parallel` and `crowded`, sets `*crowded` when the teams' waits so
// far tell that other processes hold the cores (CrowdWatch).
//
// With `tiles`, ranks share the island (tile_share.h): this rank solves its strip of each
// phase, its first thread sends the bodies of the strips' seams after the phase and takes the
// others' before the tiles that read them, and the pass's largest change and its sum (in one
// reduction), and the coarse step's, are taken over the ranks: every
// rank takes the same passes and steps, and its units the same bits, as one process.
template <class Pass>
int passes_until_still(const Schedule& s, RestingPoints& points, std::vector<RigidBody>& bodies,
                       const std::vector<bool>& is_static, std::vector<int>& moved, const RestingSettings& settings,
                       int max_passes, bool parallel, const Pass& pass, Work& work, bool* crowded = nullptr,
                       const TileShare* tiles = nullptr) {
  const std::size_t phases = s.phase_start.size() - 1;
  std::vector<Work> unit_work(s.unit_start.size() - 1);
  // Solves unit u in pass k, noting its squared impulse change in `unit_change`; returns the
  // largest change of relative velocity at its points.
  auto solve_unit = [&](std::size_t u, int k, std::vector<double>& unit_change) {
    const RestingFace& face = pass.faces[points[s.points[s.unit_start[u]]].face];  // the unit's bodies
    const std::uint32_t a = face.a, b = face.b;
    const bool b_moves = !is_static[b];
    if (moved[a] < k - 1 && (!b_moves || moved[b] < k - 1)) {
      for (std::uint32_t q = s.unit_start[u]; q < s.unit_start[u + 1]; ++q) points[s.points[q]].change = Eigen::Vector3f::Zero();
      unit_change[u] = 0;
      return 0.0;
    }
    const RigidBody a_before = bodies[a], b_before = bodies[b];
    double squared_change = 0;
    for (std::uint32_t q = s.unit_start[u]; q < s.unit_start[u + 1]; ++q) {
      RestingPoint& p = points[s.points[q]];
      const Vec3 before = pass.impulse(p);
      pass.solve(p, unit_work[u]);
      const Vec3 change = pass.impulse(p) - before;
      p.change = change.cast<float>();
      squared_change += change.squaredNorm();
    }
    unit_change[u] = squared_change;
    const Vec3 dv = (bodies[a].velocity - a_before.velocity) - (bodies[b].velocity - b_before.velocity);
    const Vec3 dw_a = bodies[a].angular_velocity - a_before.angular_velocity;
    const Vec3 dw_b = bodies[b].angular_velocity - b_before.angular_velocity;
    double largest = 0;
    for (std::uint32_t q = s.unit_start[u]; q < s.unit_start[u + 1]; ++q) {
      const RestingPoint& p = points[s.points[q]];
      largest = std::max(largest, (dv + dw_a.cross(p.r_a()) - dw_b.cross(p.r_b(face, pass.bodies.velocities))).squaredNorm());
    }
    largest = std::sqrt(largest);
    if (largest > settings.tolerance) {
      moved[a] = k;
      if (b_moves) moved[b] = k;
    }
    return largest;
  };
  // The conjugate step: tiles of a phase move disjoint grains, as in a pass.
  auto step_unit = [&](std::size_t u, double beta) {
    for (std::uint32_t q = s.unit_start[u]; q < s.unit_start[u + 1]; ++q) {
      RestingPoint& p = points[s.points[q]];
      const Vec3 direction = p.direction.cast<double>();
      if (beta > 0 && p.direction != Eigen::Vector3f::Zero()) pass.shift(p, beta * direction, unit_work[u]);
      p.direction = (p.change.cast<double>() + beta * direction).cast<float>();
    }
  };
  // Threads share each phase, claiming its tiles (below), and meet at a barrier after it;
  // every thread then reads the same sums, so all stop at the same pass. The pass's sums are
  // kept by pass parity: a thread may start the next pass while another still reads them.
  std::optional<TeamBarrier> barrier;
  // Each thread has an equal share of a phase's tiles and claims them from its own counter
  // one at a time; a thread done with its share claims the others'. The shares keep a thread
  // on its own grains, in cache, and a thread the machine holds up leaves its tiles to the
  // others instead of keeping them all waiting (docs/benchmarks.md, the ninth pass). Each
  // thread's two counters, on lines of their own, serve the phases in turn; which thread
  // solves a tile changes no result.
  struct alignas(64) Counter {
    std::atomic<std::size_t> claimed{0};
  };
  std::vector<Counter> counters[2];
  std::vector<double> unit_change_of[2];  // squared impulse changes by unit
  unit_change_of[0].assign(s.unit_start.size() - 1, 0.0);
  unit_change_of[1] = unit_change_of[0];
  std::vector<double> largest_of[2];
  int passes = 0;
  // The coarse step (coarse_step.h), on the velocity passes of an island at rest at least
  // three layers deep, after every `coarse_every` passes and after the budget's last: the
  // layers, each grain's impulse by group, each unit's reached term, and the scales and the
  // grains' changes of a step.
  static const CoarseLayers no_layers;
  const CoarseLayers& layers = [&]() -> const CoarseLayers& {
    if constexpr (std::is_same_v<Pass, Hold>) return pass.layers;
    return no_layers;
  }();
  const bool coarsen = layers.layers >= 3;
  constexpr int slots = CoarseLayers::slots;
  std::vector<GroupImpulse> group_impulse(coarsen ? layers.grains.size() * slots : 0);
  std::vector<VelocityChange> velocity_change(coarsen ? layers.grains.size() : 0);
  std::vector<double> reached(coarsen ? s.unit_start.size() - 1 : 0), scales;
  Work coarse_work;  // the grains' side of the coarse steps' work, booked by group sums
  // Shared by ranks: which grains and units of the coarse step are this rank's, and where the
  // grains' group impulses lie, to travel with them.
  std::optional<CoarseShare> coarse_share;
  std::vector<std::uint32_t> coarse_place;
  if constexpr (std::is_same_v<Pass, Hold>)
    if (tiles && coarsen) {
      coarse_share.emplace(CoarseShare{tiles->ranks(), {}, pass.coarse_entries});
      for (std::uint32_t b : layers.grains) coarse_share->keeps.push_back(tiles->keeps(b));
      coarse_place.assign(bodies.size(), CoarseLayers::none);
      for (std::size_t i = 0; i < layers.grains.size(); ++i) coarse_place[layers.grains[i]] = std::uint32_t(i);
    }
  const CoarseShare* coarse_ranks = coarse_share ? &*coarse_share : nullptr;
  double pass_largest[2] = {0, 0}, pass_change[2] = {0, 0};  // shared by ranks: over them, by pass parity
#pragma omp parallel if (parallel)
  {
    const int threads = omp_get_num_threads(), me = omp_get_thread_num();
    std::size_t phase_turn = 0;  // phases met so far, the same count in every thread
#pragma omp single
    {
      barrier.emplace(threads);
      counters[0] = std::vector<Counter>(std::size_t(threads));
      counters[1] = std::vector<Counter>(std::size_t(threads));
      largest_of[0].assign(std::size_t(threads), 0.0);
      largest_of[1] = largest_of[0];
    }
    // Every unit, tile by tile, the tiles of a phase shared; shared by ranks, this rank's
    // strip of each phase, the bodies of its seams sent on after it unless the units `keep`
    // the bodies as they are (with `impulses`, the coarse step's group impulses too): while they
    // travel, the next phase's tiles that read none of the bodies the others send go on
    // (TileShare::ready), and the last phase's have come when it returns.
    enum class Bodies { move, keep };
    auto each_unit = [&](auto&& unit, Bodies bodies_are = Bodies::move, std::vector<GroupImpulse>* impulses = nullptr) {
      const bool send = tiles && bodies_are == Bodies::move;
      for (std::size_t f = 0; f < phases; ++f) {
        // Tiles first .. end of the phase's (this rank's, with `tiles`), claimed by the
        // threads in a turn of their own.
        auto claim = [&](std::size_t first_tile, std::size_t end_tile) {
          const std::size_t count = end_tile - first_tile;
          // This thread's counter for the next turn is free again: its last turn ended at the
          // barrier before this one.
          counters[(phase_turn + 1) % 2][std::size_t(me)].claimed.store(0, std::memory_order_relaxed);
          for (int k = 0; k < threads; ++k) {  // its own share first, then the others'
            const std::size_t owner = std::size_t((me + k) % threads);
            const std::size_t first = first_tile + count * owner / std::size_t(threads);
            const std::size_t last = first_tile + count * (owner + 1) / std::size_t(threads);
            std::atomic<std::size_t>& claimed = counters[phase_turn % 2][owner].claimed;
            for (;;) {
              const std::size_t k_tile = first + claimed.fetch_add(1, std::memory_order_relaxed);
              if (k_tile >= last) break;
              const std::size_t tile = tiles ? tiles->tile(f, std::uint32_t(k_tile)) : s.phase_start[f] + k_tile;
              for (std::size_t u = s.tile_start[tile]; u < s.tile_start[tile + 1]; ++u) unit(u);
            }
          }
          ++phase_turn;
        };
        const std::size_t count = tiles ? tiles->tiles(f) : s.phase_start[f + 1] - s.phase_start[f];
        // Read from the routes, not from whether an exchange is under way: the first thread
        // may finish it before another thread gets here.
        const std::size_t ready = send && f > 0 && tiles->exchanges_after(f - 1) ? tiles->ready(f) : count;
        claim(0, ready);
        if (ready < count) {  // the rest read what the last phase's route brings
          if (me == 0) tiles->finish_phase(bodies, moved);
          if (threads > 1) barrier->arrive_and_wait();
          claim(ready, count);
        }
        if (threads > 1) barrier->arrive_and_wait();
        if (send) {
          if (me == 0) {
            tiles->finish_phase(bodies, moved);  // where every tile was ready
            tiles->start_phase(f, bodies, moved, impulses, &coarse_place);
          }
          if (threads > 1) barrier->arrive_and_wait();
        }
      }
      if (send) {
        if (me == 0) tiles->finish_phase(bodies, moved);
        if (threads > 1) barrier->arrive_and_wait();
      }
    };
    // Readied in schedule order like a pass: a grain's warm starts add up in that order. The
    // unit's grains count as not moved yet, and its points have no conjugate direction. Ranks
    // share the bodies after it only where readying moves them (Pass::begin_moves).
    each_unit([&](std::size_t u) {
      const RestingFace& face = pass.faces[points[s.points[s.unit_start[u]]].face];
      moved[face.a] = -1;
      if (!is_static[face.b]) moved[face.b] = -1;
      for (std::uint32_t q = s.unit_start[u]; q < s.unit_start[u + 1]; ++q) {
        points[s.points[q]].direction = Eigen::Vector3f::Zero();
        pass.begin(points[s.points[q]], s.points[q], unit_work[u]);
      }
    }, Pass::begin_moves ? Bodies::move : Bodies::keep);
    // The coarse step's gather, unit by unit in the pass before it, each unit right after it is
    // solved (its points are then in the cache, and final for that pass): each grain's impulse
    // by group, in schedule order (so the sums are the same on any number of threads), and each
    // unit's reached term.
    auto gather_unit = [&](std::size_t u) {
      if constexpr (std::is_same_v<Pass, Hold>) {
        if (layers.unit_group[u] < 0) return;
        const std::uint32_t* first = &s.points[s.unit_start[u]];
        const GroupImpulse sum = pass.unit_impulse(points, first, first + (s.unit_start[u + 1] - s.unit_start[u]));
        group_impulse[layers.unit_a[u] * slots + layers.slot_a[u]] += sum;
        if (layers.unit_b[u] != CoarseLayers::none) {
          const RestingFace& face = pass.faces[points[*first].face];
          const Vec3 apart = pass.bodies.velocities[face.a].position - pass.bodies.velocities[face.b].position;
          group_impulse[layers.unit_b[u] * slots + layers.slot_b[u]] -= sum.with_arms_moved_by(apart);
        }
        double unit_reached = 0;
        for (std::uint32_t q = s.unit_start[u]; q < s.unit_start[u + 1]; ++q) unit_reached += pass.reached(points[s.points[q]]);
        reached[u] = unit_reached;
      }
    };
    // The coarse step, on what gather_unit() gathered: on one thread, the scales and the
    // grains' new velocities, their side of the work booked; then every point's impulse scaled
    // (a static body's side of its work booked). The conjugate directions restart after it
    // (the next conjugate step's β is 0).
    auto coarse_step = [&](int k) {
      if constexpr (std::is_same_v<Pass, Hold>) {
        if (me == 0) {
          scales = coarse_scales(layers, group_impulse, bodies, pass.bodies.inverse_inertia, reached, coarse_ranks);
          coarse_work += move_grains(layers, scales, group_impulse, bodies, pass.bodies.inverse_inertia, velocity_change,
                                     coarse_ranks);
          for (std::size_t i = 0; i < layers.grains.size(); ++i)
            if (velocity_change[i].velocity != Vec3::Zero() || velocity_change[i].angular_velocity != Vec3::Zero())
              moved[layers.grains[i]] = k;
        }
        if (threads > 1) barrier->arrive_and_wait();
        each_unit([&](std::size_t u) {
          const std::int32_t group = layers.unit_group[u];
          if (group < 0 || scales[std::size_t(group)] == 0) return;
          const bool static_b = layers.unit_b[u] == CoarseLayers::none;
          for (std::uint32_t q = s.unit_start[u]; q < s.unit_start[u + 1]; ++q)
            pass.scale(points[s.points[q]], scales[std::size_t(group)], static_b, unit_work[u]);
        }, Bodies::keep);
      }
    };
    double beta = 0, last_change = 0;
    for (int k = 0; k < max_passes; ++k) {
      std::vector<double>& changes = unit_change_of[k % 2];
      double mine = 0;
      const bool coarse_next = coarsen && ((k + 1) % settings.coarse_every == 0 || k + 1 == max_passes);
      each_unit(
          [&](std::size_t u) {
            mine = std::max(mine, solve_unit(u, k, changes));
            if (coarse_next) gather_unit(u);
          },
          Bodies::move, coarse_next && tiles ? &group_impulse : nullptr);
      largest_of[k % 2][std::size_t(me)] = mine;
      if (threads > 1) barrier->arrive_and_wait();
      double largest = *std::max_element(largest_of[k % 2].begin(), largest_of[k % 2].end());
      double change;
      if (tiles) {
        if (me == 0) {  // in one reduction
          ExactSum change_sum = tile_sums(s, changes);
          tiles->ranks().max_and_sum(largest, change_sum);
          pass_largest[k % 2] = largest;
          pass_change[k % 2] = change_sum.value();
        }
        if (threads > 1) barrier->arrive_and_wait();
        largest = pass_largest[k % 2];
        change = pass_change[k % 2];
      } else {
        change = sum_by_tiles(s, changes);
      }
      beta = settings.conjugate && k > 0 && last_change > 0 && change <= last_change ? change / last_change : 0;
      last_change = change;
      if (me == 0) passes = k + 1;
      if (largest <= settings.tolerance) break;
      // Every `coarse_every` passes the coarse step takes the conjugate step's place, and it
      // ends an island whose budget ran out: what the last passes left along the depth (a heap
      // sinking into itself, faster layer by layer) is not left in the step.
      if (coarse_next) {
        coarse_step(k + 1);
        last_change = 0;
      } else if (settings.conjugate) {
        // A step of β = 0 only sets the directions: the bodies stay, and ranks need not meet.
        each_unit([&](std::size_t u) { step_unit(u, beta); }, beta > 0 ? Bodies::move : Bodies::keep);
      }
    }
  }
  if (crowded && barrier) *crowded = crowd_watch.add(barrier->waits(), barrier->sleeps()) || *crowded;
  std::vector<double> normal(unit_work.size()), friction(unit_work.size());
  for (std::size_t u = 0; u < unit_work.size(); ++u) {
    normal[u] = unit_work[u].normal;
    friction[u] = unit_work[u].friction;
  }
  work.normal += sum_by_tiles(s, normal, tiles) + coarse_work.normal;
  work.friction += sum_by_tiles(s, friction, tiles) + coarse_work.friction;
  return passes;
}

}  // namespace

RestingBodies::RestingBodies(std::vector<RigidBody>& posed, std::vector<RigidBody>& corrections_)
    : velocities(posed), corrections(corrections_), inverse_inertia(posed.size(), Mat3::Zero()) {
  for (std::size_t i = 0; i < posed.size(); ++i)
    if (!posed[i].is_static()) inverse_inertia[i] = posed[i].inverse_inertia_world();
}

RestingFace resting_face(const SupportFace& face, double friction) {
  return {face.normal, face.normal.unitOrthogonal(), friction, face.grain, face.body, face.plane};
}

RestingPoint resting_point(const RestingFace& face, std::uint32_t face_index, const SupportPoint& point,
                           const RestingBodies& bodies, double dt) {
  const RigidBody& a = bodies.velocities[face.a];
  const RigidBody& b = bodies.velocities[face.b];
  RestingPoint r;
  r.node = point.node;
  r.face = face_index;
  r.arm = point.arm;
  r.clear_solve_state();
  const Mat3 K = collision_matrix(a.inverse_mass, bodies.inverse_inertia[face.a], r.r_a(), b.inverse_mass,
                                  bodies.inverse_inertia[face.b], r.r_b(face, bodies.velocities));
  const ContactFrame frame = face.frame();
  const Vec3 K_n = K * frame.n, K_t1 = K * frame.t1, K_t2 = K * frame.t2;
  r.k_nn = frame.n.dot(K_n);
  r.k_n1 = frame.t1.dot(K_n);
  r.k_n2 = frame.t2.dot(K_n);
  r.k_11 = frame.t1.dot(K_t1);
  r.k_12 = frame.t2.dot(K_t1);
  r.k_22 = frame.t2.dot(K_t2);
  r.touch = frame.n.dot(relative_velocity(bodies, face, r)) +
            frame.n.dot(r.relative_velocity(face, bodies.corrections, bodies.velocities)) +
            point.depth / dt;
  return r;
}

void RestingContacts::add(const SupportFace& face, std::span<const SupportPoint> face_points, double friction,
                          const RestingBodies& bodies, double dt) {
  faces.push_back(resting_face(face, friction));
  for (const SupportPoint& point : face_points)
    points.push_back(resting_point(faces.back(), std::uint32_t(faces.size() - 1), point, bodies, dt));
}

double build_resting_contacts(const World& world, std::span<const SupportFace> faces, std::span<const SupportPoint> points,
                              const std::vector<bool>& collides, const RestingBodies& bodies,
                              const std::vector<bool>& is_static, double dt, double largest_reach, bool in_solve_order,
                              RestingContacts& resting) {
  // Where each face's points start, face after face.
  std::vector<std::size_t> first_point(faces.size() + 1, 0);
  for (std::size_t f = 0; f < faces.size(); ++f) first_point[f + 1] = first_point[f] + (collides[f] ? 0 : faces[f].point_count);
  const std::size_t count = first_point.back();
  std::vector<std::uint32_t> place;  // by point, face after face: where it is built (none: there)
  resting.order.reset();
  if (in_solve_order) {
    PointRuns runs;
    for (std::size_t f = 0; f < faces.size(); ++f)
      if (first_point[f + 1] > first_point[f]) add_run(runs, {faces[f].grain, faces[f].body}, first_point[f]);
    runs.start.push_back(std::uint32_t(count));
    resting.order = std::make_shared<RestingOrder>(schedule_islands(runs, is_static, bodies.velocities, largest_reach, -1));
    place = place_in_order(resting.order->schedules, count);
  }
  resting.faces.resize(faces.size());
  resting.points.resize(count);
  double deepest = 0;
#pragma omp parallel for schedule(dynamic, 64) reduction(max : deepest) if (faces.size() >= smallest_parallel_loop)
  for (std::size_t f = 0; f < faces.size(); ++f) {
    const SupportFace& face = faces[f];
    resting.faces[f] = resting_face(face, world.law(world.material[face.grain], world.body_material(face.body)).friction);
    if (collides[f]) continue;
    const std::span<const SupportPoint> face_points = points.subspan(face.first_point, face.point_count);
    for (std::size_t k = 0; k < face_points.size(); ++k) {
      const std::size_t at = first_point[f] + k;
      resting.points[place.empty() ? at : place[at]] =
          resting_point(resting.faces[f], std::uint32_t(f), face_points[k], bodies, dt);
      deepest = std::max(deepest, face_points[k].depth);
    }
  }
  return deepest;
}

namespace {

// What solve_islands() leaves for the books: the most passes an island took, and the work
// done on the velocities, summed exactly over the islands.
struct SolvedIslands {
  int passes;
  ExactSum normal, friction;
};

// rest() up to its books: the points warm started, their islands scheduled and the points
// moved into schedule order (unless they were built in it), and solved. The islands and
// schedules go before the books, which the step's peak of memory would otherwise hold too.
SolvedIslands solve_islands(const std::vector<bool>& is_static, const RestingImpulses& impulses,
                            RestingContacts& resting, RestingBodies& bodies, const RestingSettings& settings,
                            PhaseTimes& times, SharedIslands* shared) {
  std::optional<PhaseTimer> timer(std::in_place, times, Phase::resting_setup);
  RestingPoints& points = resting.points;
  // Each point starts from what it has applied in this step's earlier sweeps, so that a later
  // sweep may take back some of it; a point met for the first time applies β times its
  // impulse of the last step first.
  std::vector<char> warm_started(points.size(), false);
  auto warm_start = [&](std::size_t k) {
    RestingPoint& p = points[k];
    const RestingFace& face = resting.face_of(p);
    const ContactFrame frame = face.frame();
    p.stored = impulses.place_of(resting.key(p));
    const RestingImpulses::Found found = impulses.at(p.stored);
    if (found.impulse && found.this_step) {
      p.held = held_from(frame, found.impulse->cast<double>());
      return;
    }
    if (!found.impulse || settings.warm_start == 0) return;
    p.held = held_from(frame, settings.warm_start * found.impulse->cast<double>());
    const double cap = face.friction * p.held.x();
    const double friction = std::hypot(p.held.y(), p.held.z());
    if (friction > cap) {
      p.held.y() *= cap / friction;
      p.held.z() *= cap / friction;
    }
    warm_started[k] = true;
  };
  // The islands and their schedules (unless the points were built in schedule order), and the
  // islands' coarse layers, on one thread while the others warm start the points (they need
  // only the points' bodies): serial, the islands and schedules were an eighth of the resting
  // points' time on two threads (docs/benchmarks.md, "The twentieth pass"), and the layers,
  // made before each island's passes while the other threads waited, 0.4 ms of a 1000-grain
  // heap's step (the twenty-third pass).
  const bool ordered = resting.order != nullptr;
  RestingOrder order;
  if (ordered) order = std::move(*resting.order);
  resting.order.reset();
  std::vector<CoarseLayers> coarse;  // by island
  std::vector<std::vector<std::pair<int, int>>> coarse_entries;  // by island, where ranks share it (CoarseShare)
  const std::size_t shared_count = shared ? shared->label_bodies.size() : 0;  // the last islands
  const bool coarse_steps = settings.coarse_every > 0 && settings.down != Vec3::Zero();
#pragma omp parallel if (points.size() >= smallest_parallel_loop)
  {
#pragma omp single nowait
    {
      if (!ordered)
        order = schedule_islands(point_runs(resting), is_static, bodies.velocities, settings.largest_reach, settings.touching_reach,
                                 shared ? &shared->big_of_point : nullptr, shared ? shared->label_bodies.size() : 0);
      coarse.resize(order.schedules.size());
      // The islands ranks share find their layers together (solve_across, below).
      if (coarse_steps)
        for (std::size_t i = 0; i < order.schedules.size() - shared_count; ++i)
          coarse[i] = coarse_layers(coarse_units(order.schedules[i], points, resting.faces, bodies.velocities, is_static,
                                                 settings.down, settings.coarse_speed),
                                    is_static);
    }
#pragma omp for schedule(dynamic, 1024)
    for (std::size_t k = 0; k < points.size(); ++k) warm_start(k);
  }
  if (!ordered) {
    // The passes read the points in schedule order: moved there, island after island, they
    // stream through the cache instead of jumping about it. They stay there, for the books too.
    std::vector<std::uint32_t> place = place_in_order(order.schedules, points.size());
    move_to(points, place);
    move_to(warm_started, place);
    if (shared) shared->placed = std::move(place);
  } else if (shared) {
    shared->placed.resize(points.size());
    std::iota(shared->placed.begin(), shared->placed.end(), 0);
  }
  std::vector<Schedule>& schedules = order.schedules;
  auto pass_limit = [&](int layers) {
    return int(std::min<long long>(settings.max_passes, (long long)settings.passes_per_layer * (layers + 10)));
  };
  std::vector<int> pass_limits;
  for (int layers : order.layers) pass_limits.push_back(pass_limit(layers));
  // Their faces follow them, numbered in the order the passes meet them: read from where the
  // faces were found, each would be a miss of the cache (a 4000-grain heap took 1.08 times as
  // long, docs/benchmarks.md, "The eighth pass"). Faces no point holds go last.
  constexpr std::uint32_t unplaced = ~std::uint32_t(0);
  std::vector<std::uint32_t> face_place(resting.faces.size(), unplaced);
  std::uint32_t next_face = 0;
  for (RestingPoint& p : points) {
    if (face_place[p.face] == unplaced) face_place[p.face] = next_face++;
    p.face = face_place[p.face];
  }
  for (std::uint32_t& at : face_place)
    if (at == unplaced) at = next_face++;
  move_to(resting.faces, face_place);

  std::vector<int> held(schedules.size(), 0), pushed(schedules.size(), 0);
  std::vector<Work> island_work(schedules.size());
  std::vector<int> moved(bodies.velocities.size(), -1);
  // An island's velocity passes, then its correction passes (which start from the velocities
  // the first left); islands share no moving body, so the order across islands is free.
  auto hold_island = [&](std::size_t i, bool parallel, bool* crowded, const TileShare* tiles = nullptr) {
    held[i] = passes_until_still(schedules[i], points, bodies.velocities, is_static, moved, settings, pass_limits[i],
                                 parallel, Hold{bodies, resting.faces, settings.slack, warm_started, coarse[i], coarse_entries[i]},
                                 island_work[i],
                                 crowded, tiles);
  };
  auto push_island = [&](std::size_t i, bool parallel, bool* crowded, const TileShare* tiles = nullptr) {
    Work none;  // the corrections do no work (Push)
    pushed[i] = passes_until_still(schedules[i], points, bodies.corrections, is_static, moved, settings,
                                   pass_limits[i], parallel, Push{bodies, resting.faces}, none, crowded, tiles);
  };
  // Shared by ranks, the big islands go with them whatever the cores (each rank's threads
  // share its strips as they may): each rank's tiles sent among the ranks that share their
  // bodies, the layers found together; what this rank reports is marked as they are solved.
  const std::size_t first_shared = schedules.size() - shared_count;
  coarse_entries.resize(schedules.size());
  auto big = [&](std::size_t i) { return schedules[i].island_points >= shared_island; };
  if (shared) shared->reports.assign(bodies.velocities.size(), 1);
  auto passes_work = [&] { return times.work(Phase::velocity_passes) + times.work(Phase::correction_passes); };
  auto solve_across = [&](std::size_t i, bool parallel, bool* crowded) {
    const Schedule& s = schedules[i];
    const std::vector<std::pair<std::uint32_t, std::uint32_t>> unit_bodies_of = unit_bodies(s, points, resting.faces);
    const TileShare tiles(shared->ranks, s.phase_start, s.tile_start, unit_bodies_of, is_static, shared->sharers);
    std::vector<CoarseUnit> units;
    if (coarse_steps)
      units = coarse_units(s, points, resting.faces, bodies.velocities, is_static, settings.down, settings.coarse_speed);
    const bool fast = units.empty() && !unit_bodies_of.empty() && coarse_steps;
    if (units.empty())
      for (const auto& [a, b] : unit_bodies_of) units.push_back({a, b, false});
    IslandDepths depths = island_depths_across(units, coarse_steps && !fast, fast, is_static,
                                               shared->label_bodies[i - first_shared], shared->sharers, shared->ranks);
    coarse[i] = std::move(depths.coarse);
    coarse_entries[i] = std::move(depths.entries);
    pass_limits[i] = pass_limit(depths.layers);
    timer.emplace(times, Phase::velocity_passes);
    const double passes_before = passes_work();
    hold_island(i, parallel, crowded, &tiles);
    timer.emplace(times, Phase::correction_passes);
    push_island(i, parallel, crowded, &tiles);
    timer.emplace(times, Phase::resting_setup);  // the strips' passes booked, apart from the smaller islands' after them
    shared->strips_seconds += passes_work() - passes_before;
    for (const auto& [a, b] : unit_bodies_of)
      for (const std::uint32_t body : {a, b})
        if (!is_static[body]) shared->reports[body] = tiles.keeps(body);
    if (shared->ranks.rank() != 0) island_work[i] = Work{};  // rank 0 books it
  };
  // When other processes hold the cores, a team's thread is often off its core at a barrier,
  // and each phase then waits for the scheduler: the big islands go side by side with the
  // small ones, one thread each, for a while (crowded_until; the same results either way).
  const std::int64_t now = std::chrono::steady_clock::now().time_since_epoch().count();
  const bool share = now >= crowded_until.load(std::memory_order_relaxed);
  bool crowded = false;
  for (std::size_t i = 0; i < schedules.size(); ++i)
    if (i >= first_shared) {
      solve_across(i, share, &crowded);
    } else if (share && big(i)) {
      timer.emplace(times, Phase::velocity_passes);
      hold_island(i, true, &crowded);
      timer.emplace(times, Phase::correction_passes);
      push_island(i, true, &crowded);
    }
  if (crowded)
    crowded_until.store(now + std::chrono::duration_cast<std::chrono::steady_clock::duration>(crowded_pause).count(),
                        std::memory_order_relaxed);
  const bool side_by_side = schedules.size() > 1 && points.size() >= smallest_parallel_loop;
  auto small = [&](std::size_t i) { return i < first_shared && (!big(i) || !share); };
  timer.emplace(times, Phase::velocity_passes);
#pragma omp parallel for schedule(dynamic) if (side_by_side)
  for (std::size_t i = 0; i < schedules.size(); ++i)
    if (small(i)) hold_island(i, false, nullptr);
  timer.emplace(times, Phase::correction_passes);
#pragma omp parallel for schedule(dynamic) if (side_by_side)
  for (std::size_t i = 0; i < schedules.size(); ++i)
    if (small(i)) push_island(i, false, nullptr);
  timer.reset();
  // Exactly, as the islands may be solved on several ranks.
  ExactSum normal, friction;
  int passes = 0;
  for (std::size_t i = 0; i < schedules.size(); ++i) {
    normal += island_work[i].normal;
    friction += island_work[i].friction;
    passes = std::max({passes, held[i], pushed[i]});
  }
  return {passes, normal, friction};
}

}  // namespace

void RestingTotals::sum_across(const Ranks& ranks) {
  std::array<ExactSum, 2> work{normal_work, friction_work};
  ranks.sum(work);
  normal_work = work[0];
  friction_work = work[1];
  walls.sum_across(ranks);
  passes = int(ranks.max(double(passes)));
}

void RestingTotals::book(World& world, StepReport& report) const {
  world.energy.resting -= normal_work.value();
  world.energy.friction -= friction_work.value();
  walls.book(world.energy, report.wall_impulse);
}

RestingTotals solve_resting_islands(const World& world, const std::vector<bool>& is_static, RestingImpulses& impulses,
                                    RestingContacts& resting, RestingBodies& bodies, const RestingSettings& settings,
                                    PhaseTimes& times, SharedIslands* shared) {
  const SolvedIslands solved = solve_islands(is_static, impulses, resting, bodies, settings, times, shared);
  const PhaseTimer timer(times, Phase::resting_books);
  const RestingPoints& points = resting.points;
  RestingTotals totals(world.walls.size());
  totals.passes = solved.passes;
  totals.normal_work = solved.normal;
  totals.friction_work = solved.friction;

  // The books, side by side in chunks of the points as they lie (in solve order): each
  // point's impulse on a wall noted chunk by chunk and then summed exactly (WallBooks), so
  // the sums are the same on any number of threads and ranks; each point's impulse set in the
  // store where the warm start found it (a node is in one face, so no two points share a
  // place). On one thread they were a fiftieth of a settled heap's step on two
  // (docs/benchmarks.md, "The twenty-third pass").
  constexpr std::size_t chunk = 1024;
  const std::size_t chunks = (points.size() + chunk - 1) / chunk;
  struct OnWall {
    std::size_t wall;
    Vec3 impulse;  // on the grain
  };
  std::vector<std::vector<OnWall>> chunk_on_walls(chunks);
  std::vector<std::vector<std::uint32_t>> chunk_added(chunks);  // points the store had no entry for
#pragma omp parallel for schedule(dynamic) if (points.size() >= smallest_parallel_loop)
  for (std::size_t c = 0; c < chunks; ++c)
    for (std::size_t k = c * chunk; k < std::min(points.size(), (c + 1) * chunk); ++k) {
      const RestingPoint& p = points[k];
      const RestingFace& face = resting.face_of(p);
      const ContactFrame frame = face.frame();
      if (const std::int64_t wall = world.wall_of_body(face.b); wall >= 0) {
        // Less what it started this solve with, as it was applied in the earlier sweeps.
        const RestingImpulses::Found stored = impulses.at(p.stored);
        const RestingImpulses::Impulse* earlier = stored.this_step ? stored.impulse : nullptr;
        const Vec3 impulse = frame.to_world(earlier ? p.held - held_from(frame, earlier->cast<double>()) : p.held);
        chunk_on_walls[c].push_back({std::size_t(wall), impulse});
      }
      if (p.stored == RestingImpulses::none) chunk_added[c].push_back(std::uint32_t(k));
      else impulses.set_at(p.stored, frame.to_world(p.held).cast<float>());
    }
  std::vector<std::uint32_t> added;
  for (std::size_t c = 0; c < chunks; ++c) {
    for (const OnWall& on : chunk_on_walls[c]) totals.walls.add(on.wall, world.walls[on.wall].velocity, on.impulse);
    added.insert(added.end(), chunk_added[c].begin(), chunk_added[c].end());
  }
  impulses.update(
      added.size(), [&](std::size_t j) { return resting.key(points[added[j]]); },
      [&](std::size_t j) { return resting.impulse(points[added[j]]); });
  return totals;
}

int rest(World& world, const std::vector<bool>& is_static, RestingImpulses& impulses, RestingContacts& resting,
         RestingBodies& bodies, const RestingSettings& settings, StepReport& report) {
  const RestingTotals totals = solve_resting_islands(world, is_static, impulses, resting, bodies, settings, report.times);
  totals.book(world, report);
  return totals.passes;
}

}  // namespace scree::solver
