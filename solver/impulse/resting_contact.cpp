#include "solver/impulse/resting_contact.h"

#include <algorithm>
#include <cmath>

#include "solver/contacts/islands.h"
#include "solver/parallel_loops.h"

namespace scree::solver {

namespace {

// Projected Gauss–Seidel passes until the largest change is round-off of the largest
// accumulated impulse; `pass` returns both for one point.
template <class Pass>
void gauss_seidel(const std::vector<RestingPoint*>& points, Pass pass) {
  constexpr int passes = 30;
  for (int k = 0; k < passes && !points.empty(); ++k) {
    double largest_change = 0, largest_impulse = 0;
    for (RestingPoint* p : points) {
      const auto [change, impulse] = pass(*p);
      largest_change = std::max(largest_change, change);
      largest_impulse = std::max(largest_impulse, impulse);
    }
    if (largest_change <= 1e-12 * largest_impulse) break;
  }
}

// What one island's resting solve books: energy and the impulses on the walls.
struct RestingBooks {
  double resting = 0, friction = 0, wall_work = 0;
  std::vector<Vec3> wall_impulse;
};

}  // namespace

RestingPoint resting_point(const SupportFace& face, const SupportPoint& point, double friction,
                           std::vector<RigidBody>& posed, std::vector<RigidBody>& corrections, double dt) {
  const ContactPoint p{&posed[face.grain], &posed[face.body], point.point - posed[face.grain].position,
                       point.point - posed[face.body].position};
  const ContactFrame frame(p, face.normal, friction);
  RestingPoint r{frame, frame, 0, 0, Vec3::Zero(), 0, face.normal.dot(frame.K * face.normal), face.wall, point.key};
  r.push.point.a = &corrections[face.grain];
  r.push.point.b = &corrections[face.body];
  r.touch = r.frame.normal_velocity() + r.push.normal_velocity() + point.depth / dt;
  return r;
}

void rest(World& world, const std::vector<bool>& is_static, const std::map<RestingKey, Vec3>& last_step,
          std::map<RestingKey, Vec3>& step_impulses, std::vector<RestingPoint>& points, StepReport& report) {
  // Each point starts from what it has applied in this step's earlier sweeps, so that a later
  // sweep may take back some of it; a point met for the first time applies its impulse of the
  // last step first.
  auto start_from = [](RestingPoint& p, const Vec3& impulse) {
    const Vec3& n = p.frame.normal;
    p.normal_impulse = std::max(0.0, n.dot(impulse));
    p.friction_impulse = impulse - n.dot(impulse) * n;
  };
  std::vector<bool> warm_started(points.size(), false);
  std::vector<std::pair<std::uint32_t, std::uint32_t>> pairs;
  for (std::size_t k = 0; k < points.size(); ++k) {
    RestingPoint& p = points[k];
    pairs.emplace_back(p.key.a, p.key.b);
    const auto [earlier, first_met] = step_impulses.try_emplace(p.key, Vec3::Zero());
    const auto last = last_step.find(p.key);
    if (!first_met || last == last_step.end()) {
      start_from(p, earlier->second);
      continue;
    }
    start_from(p, last->second);
    const double cap = p.frame.friction * p.normal_impulse;
    if (p.friction_impulse.norm() > cap) p.friction_impulse *= cap / p.friction_impulse.norm();
    warm_started[k] = true;
  }
  const std::vector<Island> islands = contact_islands(pairs, is_static);
  std::vector<RestingBooks> books(islands.size());

#pragma omp parallel for schedule(dynamic) if (islands.size() > 1 && points.size() >= smallest_parallel_loop)
  for (std::size_t i = 0; i < islands.size(); ++i) {
    RestingBooks& b = books[i];
    b.wall_impulse.assign(world.walls.size(), Vec3::Zero());
    std::vector<RestingPoint*> island;
    for (std::uint32_t k : islands[i].contacts) island.push_back(&points[k]);
    auto apply = [&](RestingPoint& p, const Vec3& impulse, const Vec3& velocity_before) {
      const ImpulseWork work = apply_measured(p.frame, impulse, velocity_before);
      b.resting -= work.normal;
      b.friction -= work.tangential;
      if (p.wall < 0) return;
      b.wall_work += world.walls[p.wall].velocity.dot(impulse);
      b.wall_impulse[p.wall] -= impulse;
    };
    for (std::uint32_t k : islands[i].contacts)
      if (warm_started[k]) {
        RestingPoint& p = points[k];
        apply(p, p.normal_impulse * p.frame.normal + p.friction_impulse, p.frame.point.relative_velocity());
      }
    // One relative velocity a point and pass: the normal impulse's effect on it is K P, and
    // friction then acts on the slip that leaves; both go on as one impulse.
    gauss_seidel(island, [&](RestingPoint& p) {
      const Vec3& n = p.frame.normal;
      const Mat3& K = p.frame.K;
      const Vec3 u = p.frame.point.relative_velocity();
      const double target = std::min(p.touch, 0.0);
      const double normal = std::max(0.0, p.normal_impulse + (target - n.dot(u)) / p.n_K_n);
      Vec3 impulse = (normal - p.normal_impulse) * n;
      double change = std::abs(normal - p.normal_impulse);
      p.normal_impulse = normal;

      const Vec3 after_normal = u + K * impulse;
      const Vec3 slip = after_normal - n.dot(after_normal) * n;
      if (slip.squaredNorm() > 0) {
        const Vec3 t = slip.normalized();
        Vec3 friction = p.friction_impulse - slip / t.dot(K * t);
        const double cap = p.frame.friction * p.normal_impulse;
        if (friction.norm() > cap) friction *= cap / friction.norm();
        impulse += friction - p.friction_impulse;
        change = std::max(change, (friction - p.friction_impulse).norm());
        p.friction_impulse = friction;
      }
      if (impulse != Vec3::Zero()) apply(p, impulse, u);
      return std::pair{change, normal};
    });
    for (RestingPoint* p : island) p->touch -= p->frame.normal_velocity();
    gauss_seidel(island, [](RestingPoint& p) {
      const Vec3& n = p.push.normal;
      const double impulse = std::max(0.0, p.push_impulse + (p.touch - p.push.normal_velocity()) / p.n_K_n);
      p.push.apply((impulse - p.push_impulse) * n);
      const double change = std::abs(impulse - p.push_impulse);
      p.push_impulse = impulse;
      return std::pair{change, impulse};
    });
  }

  for (const RestingBooks& b : books) {
    world.energy.resting += b.resting;
    world.energy.friction += b.friction;
    world.energy.wall_work += b.wall_work;
    for (std::size_t w = 0; w < b.wall_impulse.size(); ++w) report.wall_impulse[w] += b.wall_impulse[w];
  }
  for (const RestingPoint& p : points) step_impulses[p.key] = p.normal_impulse * p.frame.normal + p.friction_impulse;
}

}  // namespace scree::solver
