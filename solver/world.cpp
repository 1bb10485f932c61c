#include "solver/world.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <numeric>
#include <stdexcept>

#include "solver/broad_phase.h"
#include "solver/contact_impulse.h"
#include "solver/contact_points.h"
#include "solver/islands.h"
#include "solver/narrow_phase.h"

namespace scree::solver {

GrainShape GrainShape::sphere(double radius) {
  GrainShape s;
  s.sphere_radius = radius;
  s.volume = 4.0 / 3.0 * std::numbers::pi * radius * radius * radius;
  s.inertia_per_density = Vec3::Constant(0.4 * s.volume * radius * radius);
  s.bounding_radius = s.smallest_half_extent = radius;
  s.glue_distance = radius;
  return s;
}

GrainShape GrainShape::from_level_set(ShapeTemplate level_set, double volume, const Vec3& inertia_per_density) {
  if (level_set.nodes().empty()) throw std::invalid_argument("a grain template needs boundary nodes");
  GrainShape s;
  s.volume = volume;
  s.inertia_per_density = inertia_per_density;
  Eigen::Vector3f low = level_set.nodes()[0], high = low;
  double radius = 0, area_per_node;
  for (const Eigen::Vector3f& p : level_set.nodes()) {
    low = low.cwiseMin(p), high = high.cwiseMax(p);
    radius = std::max(radius, double(p.norm()));
  }
  s.bounding_radius = radius;
  s.smallest_half_extent = 0.5 * double((high - low).minCoeff());
  // Nodes cover the surface about evenly: a node's share of a sphere of the bounding radius
  // overestimates the spacing a little, which glues safely.
  area_per_node = 4 * std::numbers::pi * radius * radius / double(level_set.nodes().size());
  s.glue_distance = 2.5 * std::sqrt(area_per_node);
  s.level_set = std::move(level_set);
  return s;
}

std::uint32_t World::add_grain(std::uint64_t grain_id, std::uint32_t shape_index, std::uint32_t material_index,
                               double density, double grain_scale, const Vec3& position, const Quat& orientation) {
  if (!walls.empty() || terrain) throw std::logic_error("add grains before walls and terrain");
  const GrainShape& s = shapes.at(shape_index);
  RigidBody b = RigidBody::from_template(density, s.volume, s.inertia_per_density, grain_scale);
  b.position = position;
  b.orientation = orientation.normalized();
  id.push_back(grain_id);
  shape.push_back(shape_index);
  material.push_back(material_index);
  scale.push_back(grain_scale);
  bodies.push_back(b);
  return std::uint32_t(id.size() - 1);
}

void Wall::place(double t) {
  point = point_at_zero + velocity * t;
  min = min_at_zero + velocity * t;
  max = max_at_zero + velocity * t;
}

void World::add_wall(const Wall& at_zero) {
  if (terrain) throw std::logic_error("add walls before the terrain");
  Wall& wall = walls.emplace_back(at_zero);
  wall.point_at_zero = at_zero.point;
  wall.min_at_zero = at_zero.min;
  wall.max_at_zero = at_zero.max;
  wall.place(time);
  RigidBody b = RigidBody::fixed();
  b.velocity = wall.velocity;
  b.position = wall.shape == WallShape::plane ? wall.point : 0.5 * (wall.min + wall.max);
  bodies.push_back(b);
}

void World::set_terrain(std::shared_ptr<const TerrainField> field, std::uint32_t material_index) {
  if (terrain) throw std::logic_error("a world has one terrain");
  terrain = std::move(field);
  terrain_material = material_index;
  bodies.push_back(RigidBody::fixed());
}

std::uint32_t World::body_material(std::uint32_t body) const {
  if (body < grain_count()) return material[body];
  if (body < terrain_body()) return walls[body - grain_count()].material;
  return terrain_material;
}

double kinetic_energy(const World& world) {
  double sum = 0;
  for (std::size_t i = 0; i < world.grain_count(); ++i) sum += world.bodies[i].kinetic_energy();
  return sum;
}

double potential_energy(const World& world, const Vec3& gravity) {
  double sum = 0;
  for (std::size_t i = 0; i < world.grain_count(); ++i) {
    const RigidBody& b = world.bodies[i];
    sum -= gravity.dot(b.position) / b.inverse_mass;
  }
  return sum;
}

double courant_number(const World& world, double dt) {
  double largest = 0;
  for (std::size_t i = 0; i < world.grain_count(); ++i) {
    const GrainShape& s = world.shapes[world.shape[i]];
    const RigidBody& b = world.bodies[i];
    const double reach = (b.velocity.norm() + b.angular_velocity.norm() * s.bounding_radius * world.scale[i]) * dt;
    largest = std::max(largest, reach / (s.smallest_half_extent * world.scale[i]));
  }
  return largest;
}

double courant_time_step(const World& world, const Vec3& gravity, double courant_limit, double max_step) {
  double step = max_step;
  for (std::size_t i = 0; i < world.grain_count(); ++i) {
    const GrainShape& s = world.shapes[world.shape[i]];
    const RigidBody& b = world.bodies[i];
    const double speed = b.velocity.norm() + gravity.norm() * max_step +
                         b.angular_velocity.norm() * s.bounding_radius * world.scale[i];
    if (speed > 0) step = std::min(step, courant_limit * s.smallest_half_extent * world.scale[i] / speed);
  }
  return step;
}

namespace {

// Grains whose bounding radii differ by less than this factor sample each other both ways.
constexpr double both_ways_ratio = 2;

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
struct SupportPoint {
  Vec3 point;          // world
  double depth;        // m
  RestingKey key;      // the same contact in the next step
};
struct SupportFace {
  std::uint32_t grain, body;  // A and B
  std::int32_t wall;          // B's wall, −1 for a grain or the terrain
  Vec3 normal;                // from B to A
  std::vector<SupportPoint> points;
};

// Extremes within a thousandth of the glue distance of each other are ties, broken by node
// index, so that a resting face keeps its support points (and their warm start) from step to
// step while it jiggles by round-off.
std::vector<SupportPoint> support_points(const std::vector<NodeContact>& nodes, const std::vector<std::uint32_t>& members,
                                         const Vec3& n, RestingKey key, double glue_distance) {
  const Vec3 t1 = n.unitOrthogonal(), t2 = n.cross(t1);
  const double tie = 1e-3 * glue_distance;
  auto extreme = [&](auto&& measure) {
    double top = -std::numeric_limits<double>::infinity();
    for (std::uint32_t k : members) top = std::max(top, measure(nodes[k]));
    std::uint32_t best = members[0];
    bool found = false;
    for (std::uint32_t k : members)
      if (measure(nodes[k]) >= top - tie && (!found || nodes[k].node < nodes[best].node)) best = k, found = true;
    return best;
  };
  std::vector<std::uint32_t> chosen{extreme([](const NodeContact& c) { return c.depth; })};
  for (int d = 0; d < 8; ++d) {
    const double angle = d * std::numbers::pi / 4;
    const Vec3 dir = std::cos(angle) * t1 + std::sin(angle) * t2;
    chosen.push_back(extreme([&](const NodeContact& c) { return dir.dot(c.point); }));
  }
  std::sort(chosen.begin(), chosen.end());
  chosen.erase(std::unique(chosen.begin(), chosen.end()), chosen.end());
  std::vector<SupportPoint> points;
  for (std::uint32_t k : chosen) {
    key.node = std::int32_t(nodes[k].node);
    points.push_back({nodes[k].point, nodes[k].depth, key});
  }
  return points;
}

// The faces of a wall as planes (point, inward normal).
std::vector<std::pair<Vec3, Vec3>> wall_planes(const Wall& wall, const Vec3& offset) {
  if (wall.shape == WallShape::plane) return {{wall.point + offset, wall.normal}};
  std::vector<std::pair<Vec3, Vec3>> f;
  for (int axis = 0; axis < 3; ++axis) {
    f.emplace_back(wall.min + offset, Vec3::Unit(axis));
    f.emplace_back(wall.max + offset, -Vec3::Unit(axis));
  }
  return f;
}

class ContactFinder {
 public:
  // Contacts take the nodes inside and those within `margin` outside: a resting contact keeps
  // its points while round-off moves it in and out, and a face about to strike collides as a
  // whole, not first with the half that happens to be a hair deeper.
  ContactFinder(const World& world, const std::vector<RigidBody>& posed, double dt, double margin)
      : world_(world), posed_(posed), dt_(dt), margin_(margin) {
    for (std::size_t i = 0; i < world.grain_count(); ++i)
      poses_.push_back({posed[i].position, posed[i].orientation, world.scale[i]});
  }

  std::vector<SupportFace> faces;

  // Pairs from `neighbours` when given (a Verlet list kept from step to step, rebuilt with
  // `skin`), else from a fresh broad phase. Pairs and grains are searched in parallel, each
  // into its own batch; the batches are joined in pair order, then grain order, so the
  // contacts do not depend on the number of threads.
  std::vector<Contact> find(NeighbourList* neighbours = nullptr, double skin = 0) {
    const std::uint32_t n = std::uint32_t(world_.grain_count());
    std::vector<Vec3> centres;
    std::vector<double> radii;
    for (std::size_t i = 0; i < n; ++i) {
      centres.push_back(posed_[i].position);
      radii.push_back(radius(i));
    }
    double widest = 0;
    for (std::size_t i = 0; i < n; ++i) widest = std::max(widest, margin(i));
    const std::vector<BodyPair> pairs =
        neighbours ? neighbours->pairs(centres, radii, widest, skin) : overlapping_pairs(centres, radii, widest);
    std::vector<Batch> pair_batches(pairs.size()), grain_batches(n);
#pragma omp parallel for schedule(dynamic, 16)
    for (std::size_t k = 0; k < pairs.size(); ++k) grain_pair(pair_batches[k], pairs[k].first, pairs[k].second);
#pragma omp parallel for schedule(dynamic, 16)
    for (std::uint32_t i = 0; i < n; ++i) {
      for (std::size_t w = 0; w < world_.walls.size(); ++w) grain_wall(grain_batches[i], i, w);
      if (world_.terrain) grain_terrain(grain_batches[i], i);
    }
    std::vector<Contact> contacts;
    for (std::vector<Batch>* batches : {&pair_batches, &grain_batches})
      for (Batch& batch : *batches) {
        const std::int32_t first_face = std::int32_t(faces.size());
        for (Contact& c : batch.contacts) contacts.push_back(c), contacts.back().face += first_face;
        std::move(batch.faces.begin(), batch.faces.end(), std::back_inserter(faces));
      }
    return contacts;
  }

 private:
  double radius(std::size_t i) const { return world_.shapes[world_.shape[i]].bounding_radius * world_.scale[i]; }
  const GrainShape& shape(std::size_t i) const { return world_.shapes[world_.shape[i]]; }
  // The bounding radius is the farthest node; the level set's surface bulges a little beyond
  // it between nodes, so node culling reaches a glue distance further.
  double reach(std::size_t i) const { return radius(i) + shape(i).glue_distance * world_.scale[i]; }
  // The margin of grain i's nodes: at least a millionth of its size, so that a face touching
  // to within round-off counts as touching all over.
  double margin(std::size_t i) const { return std::max(margin_, 1e-6 * radius(i)); }

  // What one pair, or one grain against the walls and the terrain, touches; faces numbered
  // within the batch.
  struct Batch {
    std::vector<Contact> contacts;
    std::vector<SupportFace> faces;
  };

  // Glued contacts of A's nodes in B. Against a wall they share the plane's support face;
  // between grains each is a face of its own.
  void add_patches(Batch& batch, std::uint32_t a, std::uint32_t b, std::int32_t wall, std::int32_t face,
                   const std::vector<NodeContact>& nodes) {
    if (nodes.empty()) return;
    const double glue = shape(a).glue_distance * world_.scale[a];
    for (const ContactPatch& p : glue_contacts(nodes, glue, default_glue_angle, margin(a))) {
      std::int32_t patch_face = face;
      if (wall < 0) {
        patch_face = std::int32_t(batch.faces.size());
        batch.faces.push_back({a, b, -1, p.normal, support_points(nodes, p.members, p.normal, {a, b, 0, -1}, glue)});
      }
      batch.contacts.push_back({a, b, p.point, p.normal, p.weighted_depth, wall, patch_face});
    }
  }

  // A contact of one point (a sphere's), with its face.
  void add_point_contact(Batch& batch, std::uint32_t a, std::uint32_t b, std::int32_t wall, std::int32_t plane, const Vec3& point,
                         const Vec3& normal, double depth) {
    batch.contacts.push_back({a, b, point, normal, depth, wall, std::int32_t(batch.faces.size())});
    batch.faces.push_back({a, b, wall, normal, {{point, depth, {a, b, plane, -1}}}});
  }

  void grain_pair(Batch& batch, std::uint32_t i, std::uint32_t j) {
    const bool sphere_i = !shape(i).level_set, sphere_j = !shape(j).level_set;
    if (sphere_i && sphere_j) {
      const Vec3 d = posed_[i].position - posed_[j].position;
      const double gap = d.norm() - radius(i) - radius(j);
      if (gap >= std::max(margin(i), margin(j))) return;
      const Vec3 n = d / d.norm();
      add_point_contact(batch, i, j, -1, 0, posed_[j].position + n * (radius(j) + 0.5 * gap), n, -gap);
    } else if (sphere_i || sphere_j) {
      const std::uint32_t s = sphere_i ? i : j, g = sphere_i ? j : i;
      Vec3 gradient;
      const double phi = posed_value(*shape(g).level_set, poses_[g], posed_[s].position, &gradient);
      if (phi >= radius(s) + margin(s) || gradient.squaredNorm() == 0) return;
      const Vec3 n = gradient.normalized();
      add_point_contact(batch, s, g, -1, 0, posed_[s].position - 0.5 * (radius(s) + phi) * n, n, radius(s) - phi);
    } else {
      // The smaller grain's nodes sample the larger one's level set (seed 004). Between grains
      // of like size an edge of either can strike a face of the other, which the face's nodes
      // miss: both directions then (World.FastGrainsDoNotTunnel fails with one).
      const bool i_master = radius(i) <= radius(j);
      const std::uint32_t m = i_master ? i : j, o = i_master ? j : i;
      add_patches(batch, m, o, -1, -1,
                  node_contacts(*shape(m).level_set, poses_[m], *shape(o).level_set, poses_[o], margin(m), reach(o)));
      if (radius(o) <= both_ways_ratio * radius(m))
        add_patches(batch, o, m, -1, -1,
                    node_contacts(*shape(o).level_set, poses_[o], *shape(m).level_set, poses_[m], margin(o), reach(m)));
    }
  }

  void grain_wall(Batch& batch, std::uint32_t i, std::size_t w) {
    const Wall& wall = world_.walls[w];
    const std::uint32_t body = std::uint32_t(world_.grain_count() + w);
    const auto planes = wall_planes(wall, wall.velocity * dt_);
    for (std::int32_t plane = 0; plane < std::int32_t(planes.size()); ++plane) {
      const auto& [point, normal] = planes[plane];
      const double centre = normal.dot(posed_[i].position - point);
      if (centre >= radius(i) + margin(i)) continue;
      if (!shape(i).level_set) {
        add_point_contact(batch, i, body, std::int32_t(w), plane, posed_[i].position - normal * 0.5 * (centre + radius(i)), normal,
                          radius(i) - centre);
        continue;
      }
      // A node's height above the plane is the centre's plus s n_body·node: the plane's normal
      // turned into the body frame once, then a dot product a node, a cluster at a time.
      std::vector<NodeContact> nodes;
      const ShapeTemplate& level_set = *shape(i).level_set;
      const Pose& pose = poses_[i];
      const Vec3 body_normal = pose.orientation.conjugate() * normal;
      const Eigen::Vector3f body_normal_f = body_normal.cast<float>();
      const double low = (margin(i) - centre) / pose.scale;  // a node below this height touches
      level_set.for_nodes_near(
          [&](const Eigen::Vector3f& c, float radius) {
            return double(body_normal_f.dot(c)) - 1.0001 * double(radius) < low + 1e-6 * double(c.norm());  // float round-off
          },
          [&](std::uint32_t k) {
            const Vec3 node = level_set.nodes()[k].cast<double>();
            const double d = centre + pose.scale * body_normal.dot(node);
            if (d < margin(i)) nodes.push_back({k, pose.position + pose.orientation * (pose.scale * node), normal, -d});
          });
      if (nodes.empty()) continue;
      std::sort(nodes.begin(), nodes.end(), [](const NodeContact& a, const NodeContact& b) { return a.node < b.node; });
      std::vector<std::uint32_t> all(nodes.size());
      std::iota(all.begin(), all.end(), 0u);
      const std::int32_t face = std::int32_t(batch.faces.size());
      batch.faces.push_back({i, body, std::int32_t(w), normal,
                       support_points(nodes, all, normal, {i, body, plane, -1}, shape(i).glue_distance * world_.scale[i])});
      add_patches(batch, i, body, std::int32_t(w), face, nodes);
    }
  }

  // The grain's nodes sampled in the terrain's level set, glued into contacts as against a
  // grain. A node below the band has no gradient there; the ground lies above it.
  void grain_terrain(Batch& batch, std::uint32_t i) {
    const TerrainField& ground = *world_.terrain;
    const std::uint32_t body = world_.terrain_body();
    if (ground.clear_of(posed_[i].position, reach(i) + margin(i))) return;
    Vec3 gradient;
    if (!shape(i).level_set) {
      const double phi = ground.value_and_gradient(posed_[i].position, gradient);
      if (phi >= radius(i) + margin(i)) return;
      const Vec3 n = gradient.squaredNorm() > 0 ? Vec3(gradient.normalized()) : Vec3::UnitZ();
      add_point_contact(batch, i, body, -1, 0, posed_[i].position - 0.5 * (radius(i) + phi) * n, n, radius(i) - phi);
      return;
    }
    std::vector<NodeContact> nodes;
    const auto& template_nodes = shape(i).level_set->nodes();
    for (std::uint32_t k = 0; k < template_nodes.size(); ++k) {
      const Vec3 x = poses_[i].position + poses_[i].orientation * (poses_[i].scale * template_nodes[k].cast<double>());
      if (ground.value(x) >= margin(i)) continue;  // the cheap test first
      const double phi = ground.value_and_gradient(x, gradient);
      const double norm = gradient.norm();
      nodes.push_back({k, x, norm > 0 ? Vec3(gradient / norm) : Vec3::UnitZ(), -phi});
    }
    add_patches(batch, i, body, -1, -1, nodes);
  }

  const World& world_;
  const std::vector<RigidBody>& posed_;
  double dt_, margin_;
  std::vector<Pose> poses_;
};

ContactPoint contact_point(std::vector<RigidBody>& bodies, const Contact& c) {
  return {&bodies[c.a], &bodies[c.b], c.point - bodies[c.a].position, c.point - bodies[c.b].position};
}

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

#pragma omp parallel for schedule(dynamic)
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

}  // namespace

std::vector<Overlap> overlaps(const World& world, double fraction) {
  auto half_width = [&](std::size_t i) { return world.shapes[world.shape[i]].smallest_half_extent * world.scale[i]; };
  std::vector<Overlap> found;
  for (const Contact& c : ContactFinder(world, world.bodies, 0, 0).find()) {
    const bool with_static = c.b >= world.grain_count();
    const double allowed = fraction * (with_static ? half_width(c.a) : std::min(half_width(c.a), half_width(c.b)));
    if (c.depth > allowed) found.push_back({c.a, with_static ? -1 : std::int64_t(c.b), c.wall, c.depth});
  }
  return found;
}

StepReport advance(World& world, const StepSettings& settings) {
  const double dt = settings.time_step;
  const std::size_t n = world.grain_count();
  StepReport report;
  report.wall_impulse.assign(world.walls.size(), Vec3::Zero());
  const double resting_speed = settings.resting_speed >= 0 ? settings.resting_speed : 3 * settings.gravity.norm() * dt;

  // Gravity, then global damping (seed 000 eqs. 47–48).
  const double kinetic_start = kinetic_energy(world);
  for (std::size_t i = 0; i < n; ++i) world.bodies[i].velocity += settings.gravity * dt;
  const double kinetic_kicked = kinetic_energy(world);
  const double keep = 1 - settings.global_damping * dt;
  for (std::size_t i = 0; i < n; ++i) {
    world.bodies[i].velocity *= keep;
    world.bodies[i].angular_velocity *= keep;
  }
  world.energy.damping += kinetic_kicked - kinetic_energy(world);

  std::vector<bool> is_static(world.bodies.size(), false);
  std::fill(is_static.begin() + std::ptrdiff_t(n), is_static.end(), true);

  // Position corrections of resting contacts, as velocities that act in this step only.
  std::vector<RigidBody> correction = world.bodies;
  for (RigidBody& b : correction) b.velocity = b.angular_velocity = Vec3::Zero();
  auto move = [&](std::vector<RigidBody>& bodies) {
    for (std::size_t i = 0; i < bodies.size(); ++i) {
      bodies[i].position += (bodies[i].velocity + correction[i].velocity) * dt;
      bodies[i].orientation = rotate(bodies[i].orientation, bodies[i].angular_velocity + correction[i].angular_velocity, dt);
    }
  };

  // The neighbour list's skin: half the mean bounding radius keeps its candidates within
  // about twice the pairs, and lets the grains move a quarter radius between rebuilds.
  double skin = 0;
  for (std::size_t i = 0; i < n; ++i) skin += world.shapes[world.shape[i]].bounding_radius * world.scale[i];
  skin *= n > 0 ? 0.5 / double(n) : 0;

  std::map<RestingKey, Vec3> step_impulses;
  const int sweeps = std::max(settings.boundary_iterations, 1);
  for (int sweep = 0; sweep < sweeps; ++sweep) {
    // Where the current velocities and corrections would take every body.
    std::vector<RigidBody> posed = world.bodies;
    move(posed);
    ContactFinder finder(world, posed, dt, resting_speed * dt);
    const std::vector<Contact> contacts = finder.find(&world.neighbours, skin);
    report.contacts = contacts.size();

    // Collisions: contacts approaching faster than the resting speed, resolved by the energy
    // tracking method. A face with no such contact rests on its support points: seed 000 does
    // this against walls only and leaves the grains of a heap to the ETM, whose increments then
    // dominate the step (each step's gravity is compressed and released in α increments at
    // every contact, round after round); below a few steps of gravity, restitution changes
    // nothing a user could see.
    //
    // The last of several sweeps collides nothing: what still approaches then is stopped as
    // resting contact, which ends the step touching. A collision resolved in the last sweep
    // drives the body below it on into what it rests on, with no sweep left to stop it (the
    // base of a rock mass ended steps 7 cm inside the ground).
    const bool closing = sweeps > 1 && sweep + 1 == sweeps;
    std::vector<std::pair<std::uint32_t, std::uint32_t>> collision_pairs;
    std::vector<std::size_t> collision_contact;
    std::vector<bool> face_collides(finder.faces.size(), false);
    for (std::size_t c = 0; c < contacts.size() && !closing; ++c) {
      const double u_n = contacts[c].normal.dot(contact_point(posed, contacts[c]).relative_velocity());
      if (u_n < -resting_speed) {
        collision_pairs.emplace_back(contacts[c].a, contacts[c].b);
        collision_contact.push_back(c);
        face_collides[contacts[c].face] = true;
      }
    }
    std::vector<RestingPoint> resting;
    std::vector<std::size_t> face_of_point;
    double deepest = 0;
    for (std::size_t f = 0; f < finder.faces.size(); ++f) {
      if (face_collides[f]) continue;
      const SupportFace& face = finder.faces[f];
      const double mu = world.law(world.material[face.grain], world.body_material(face.body)).friction;
      for (const auto& [point, depth, key] : face.points) {
        const ContactPoint p{&posed[face.grain], &posed[face.body], point - posed[face.grain].position,
                             point - posed[face.body].position};
        const ContactFrame frame(p, face.normal, mu);
        RestingPoint r{frame, frame, 0, 0, Vec3::Zero(), 0, face.normal.dot(frame.K * face.normal), face.wall, key};
        r.push.point.a = &correction[face.grain];
        r.push.point.b = &correction[face.body];
        // Ends this step exactly touching.
        r.touch = r.frame.normal_velocity() + r.push.normal_velocity() + depth / dt;
        resting.push_back(r);
        face_of_point.push_back(f);
        deepest = std::max(deepest, depth);
      }
    }
    // Done when nothing collides and the step ends with resting contacts touching, to a
    // hundredth of what one step of gravity would move. The first sweep always solves: its
    // warm start is what holds a heap still.
    if (collision_contact.empty() && (resting.empty() || (sweep > 0 && deepest <= 0.01 * settings.gravity.norm() * dt * dt)))
      break;
    report.sweeps = sweep + 1;

    std::vector<double> approach_before;  // only needed when something collides
    if (!collision_contact.empty())
      for (const RestingPoint& r : resting) approach_before.push_back(r.frame.normal_velocity());
    auto law_of = [&](const Contact& c) -> const ContactLaw& {
      return world.law(world.material[c.a], world.body_material(c.b));
    };
    for (const Island& island : contact_islands(collision_pairs, is_static)) {
      std::vector<Collision> collisions;
      for (std::uint32_t k : island.contacts) {
        const Contact& c = contacts[collision_contact[k]];
        const ContactLaw& law = law_of(c);
        collisions.push_back({c.a, c.b, c.point, c.normal, law.friction, law.restitution});
      }
      const CollisionBooks books = resolve_collisions(posed, collisions, settings.collisions);
      ++report.islands;
      report.increments += books.increments;
      report.stored_peak = std::max(report.stored_peak, books.stored_peak);
      world.energy.restitution += books.restitution_loss;
      world.energy.friction += books.friction_loss;
      for (std::size_t k = 0; k < island.contacts.size(); ++k) {
        const Contact& c = contacts[collision_contact[island.contacts[k]]];
        if (c.wall < 0) continue;
        world.energy.wall_work += world.walls[c.wall].velocity.dot(books.impulses[k]);
        report.wall_impulse[c.wall] -= books.impulses[k];
      }
    }
    // A face the collisions have just driven together faster than the resting speed (the
    // next ball of a row struck by the first) collides in the next sweep: resting contact
    // would stop it inelastically, and an elastic row would lose energy.
    if (!collision_contact.empty()) {
      std::vector<bool> struck(finder.faces.size(), false);
      for (std::size_t k = 0; k < resting.size(); ++k) {
        const double u_n = resting[k].frame.normal_velocity();
        if (u_n < -resting_speed && u_n < approach_before[k]) struck[face_of_point[k]] = true;
      }
      std::size_t kept = 0;
      for (std::size_t k = 0; k < resting.size(); ++k)
        if (!struck[face_of_point[k]]) resting[kept++] = resting[k];
      resting.erase(resting.begin() + std::ptrdiff_t(kept), resting.end());
    }
    rest(world, is_static, world.resting_impulses, step_impulses, resting, report);
    for (std::size_t i = 0; i < n; ++i) {
      world.bodies[i].velocity = posed[i].velocity;
      world.bodies[i].angular_velocity = posed[i].angular_velocity;
    }
  }

  world.resting_impulses = std::move(step_impulses);

  // Symplectic Euler: positions move with the new velocities (seed 000 eqs. 40–43), and the
  // corrections; what the corrections lift is booked with resting contact.
  const double potential_start = potential_energy(world, settings.gravity);
  double corrected = 0;
  for (std::size_t i = 0; i < n; ++i)
    corrected -= settings.gravity.dot(correction[i].velocity) * dt / world.bodies[i].inverse_mass;
  move(world.bodies);
  world.energy.resting -= corrected;
  for (Wall& w : world.walls) w.place(world.time + dt);
  world.energy.integration +=
      (kinetic_kicked - kinetic_start) + potential_energy(world, settings.gravity) - potential_start - corrected;
  report.courant = courant_number(world, dt);
  world.time += dt;
  ++world.step;
  return report;
}

}  // namespace scree::solver
