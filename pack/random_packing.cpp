#include "pack/random_packing.h"

#include <Eigen/Geometry>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <numeric>
#include <sstream>
#include <unordered_map>

#include "solver/contacts/narrow_phase.h"

namespace scree::pack {

namespace {

using Eigen::Vector3d;

// Points on a unit sphere: a Fibonacci spiral and the six axis extremes (so that a sphere's
// box containment is exact).
std::vector<Vector3d> sphere_points() {
  std::vector<Vector3d> p;
  constexpr int n = 60;
  const double golden = std::numbers::pi * (3 - std::sqrt(5.0));
  for (int k = 0; k < n; ++k) {
    const double z = 1 - (k + 0.5) * 2 / n, r = std::sqrt(1 - z * z), a = golden * k;
    p.emplace_back(r * std::cos(a), r * std::sin(a), z);
  }
  for (int a = 0; a < 3; ++a)
    for (const double s : {-1.0, 1.0}) {
      Vector3d e = Vector3d::Zero();
      e[a] = s;
      p.push_back(e);
    }
  return p;
}

struct Candidate {
  std::uint32_t shape = 0;
  double scale = 1, diameter = 0;
  solver::Pose pose;
  std::vector<Vector3d> surface;  // world points: nodes, or points of the sphere
  double reach = 0;
};

const geometry::GrainShape& shape_of(const PackRequest& r, const Candidate& c) { return r.shapes[c.shape]; }

void place(Candidate& c, const PackRequest& r, const std::vector<Vector3d>& unit_sphere) {
  const geometry::GrainShape& s = shape_of(r, c);
  c.surface.clear();
  if (s.level_set) {
    const Eigen::Matrix3d turn = c.pose.orientation.toRotationMatrix();
    for (const auto& node : s.level_set->nodes()) c.surface.push_back(c.pose.position + turn * (c.scale * node.cast<double>()));
  } else {
    for (const auto& u : unit_sphere) c.surface.push_back(c.pose.position + s.sphere_radius * c.scale * u);
  }
}

// Whether a world point lies outside a placed grain by at least `clearance`.
bool outside(const PackRequest& r, const Candidate& g, const Vector3d& p, double clearance) {
  const geometry::GrainShape& s = shape_of(r, g);
  if (!s.level_set) return (p - g.pose.position).norm() >= s.sphere_radius * g.scale + clearance;
  return solver::posed_value(*s.level_set, g.pose, p) >= clearance;
}

bool apart(const PackRequest& r, const Candidate& a, const Candidate& b) {
  const double distance = (a.pose.position - b.pose.position).norm();
  if (distance >= 1.1 * (a.reach + b.reach)) return true;
  const geometry::GrainShape &sa = shape_of(r, a), &sb = shape_of(r, b);
  if (!sa.level_set && !sb.level_set) return distance >= (sa.sphere_radius * a.scale + sb.sphere_radius * b.scale);
  // Nodes are kept a hair (1e-4 of the smaller reach) outside the other grain, so that the
  // solver, which places contact points its own way, finds no overlap at all; a surface may
  // bulge past its farthest node by up to a voxel, hence the wider skip distance.
  const double clearance = 1e-4 * std::min(a.reach, b.reach);
  for (const Vector3d& p : a.surface)
    if ((p - b.pose.position).norm() < 1.1 * b.reach && !outside(r, b, p, clearance)) return false;
  for (const Vector3d& p : b.surface)
    if ((p - a.pose.position).norm() < 1.1 * a.reach && !outside(r, a, p, clearance)) return false;
  return true;
}

bool clear_of_walls(const std::vector<formats::Wall>& walls, const Candidate& c) {
  for (const formats::Wall& w : walls)
    for (const Vector3d& p : c.surface) {
      if (w.type == formats::WallType::plane) {
        if ((p - Vector3d(w.point[0], w.point[1], w.point[2])).dot(Vector3d(w.normal[0], w.normal[1], w.normal[2])) < 0)
          return false;
      } else {
        for (int a = 0; a < 3; ++a)
          if (p[a] < w.min[a] || p[a] > w.max[a]) return false;
      }
    }
  return true;
}

bool clear_of_terrain(const PackRequest& r, const Candidate& c) {
  if (!r.terrain) return true;
  const geometry::GrainShape& s = shape_of(r, c);
  if (!s.level_set) return r.terrain->clear_of(c.pose.position, s.sphere_radius * c.scale);
  for (const Vector3d& p : c.surface)
    if (r.terrain->value(p) < 0) return false;
  return true;
}

// Placed grains hashed by the cell of their centre.
class Neighbours {
 public:
  explicit Neighbours(double cell) : cell_(cell) {}
  void add(std::size_t index, const Vector3d& p) { cells_[key(p)].push_back(index); }
  template <class F>
  bool all_of_near(const Vector3d& p, double range, F&& f) const {
    const int reach = int(std::ceil(range / cell_));
    const auto [i, j, k] = index(p);
    for (int di = -reach; di <= reach; ++di)
      for (int dj = -reach; dj <= reach; ++dj)
        for (int dk = -reach; dk <= reach; ++dk) {
          const auto found = cells_.find(pack_key(i + di, j + dj, k + dk));
          if (found == cells_.end()) continue;
          for (const std::size_t g : found->second)
            if (!f(g)) return false;
        }
    return true;
  }

 private:
  std::array<std::int64_t, 3> index(const Vector3d& p) const {
    return {std::int64_t(std::floor(p.x() / cell_)), std::int64_t(std::floor(p.y() / cell_)), std::int64_t(std::floor(p.z() / cell_))};
  }
  static std::uint64_t pack_key(std::int64_t i, std::int64_t j, std::int64_t k) {
    return (std::uint64_t(i & 0x1fffff) << 42) | (std::uint64_t(j & 0x1fffff) << 21) | std::uint64_t(k & 0x1fffff);
  }
  std::uint64_t key(const Vector3d& p) const {
    const auto [i, j, k] = index(p);
    return pack_key(i, j, k);
  }
  double cell_;
  std::unordered_map<std::uint64_t, std::vector<std::size_t>> cells_;
};

Eigen::Quaterniond random_orientation(std::mt19937_64& rng) {
  std::normal_distribution<double> normal(0, 1);
  Eigen::Quaterniond q(normal(rng), normal(rng), normal(rng), normal(rng));
  return q.normalized();
}

}  // namespace

RegionFull::RegionFull(std::size_t placed_grains, std::size_t requested_grains, double solid_fraction)
    : std::runtime_error([&] {
        std::ostringstream s;
        s.precision(3);
        s << "the release region holds only " << placed_grains << " of the " << requested_grains
          << " grains asked for (solid fraction " << solid_fraction
          << " when the next found no place): ask for fewer or smaller grains, or a larger region";
        return s.str();
      }()),
      placed(placed_grains), requested(requested_grains) {}

std::vector<std::uint32_t> apportion(const std::vector<double>& proportions, std::size_t count) {
  // Largest remainder: each template gets the whole part of its share, then the templates
  // with the largest fractions one more each until the count is reached (ties: list order).
  const double total = std::accumulate(proportions.begin(), proportions.end(), 0.0);
  std::vector<std::size_t> numbers(proportions.size());
  std::vector<std::pair<double, std::uint32_t>> remainders;
  std::size_t given = 0;
  for (std::uint32_t t = 0; t < proportions.size(); ++t) {
    const double share = double(count) * proportions[t] / total;
    numbers[t] = std::size_t(std::floor(share));
    given += numbers[t];
    remainders.push_back({share - double(numbers[t]), t});
  }
  std::stable_sort(remainders.begin(), remainders.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
  for (std::size_t k = 0; given < count; ++k, ++given) ++numbers[remainders[k % remainders.size()].second];
  std::vector<std::uint32_t> shapes;
  for (std::uint32_t t = 0; t < numbers.size(); ++t) shapes.insert(shapes.end(), numbers[t], t);
  return shapes;
}

double equivalent_diameter(const geometry::GrainShape& shape) { return 2 * std::cbrt(3 * shape.volume / (4 * std::numbers::pi)); }

PackResult pack_grains(const PackRequest& r, const ReleaseRegion& region) {
  if (r.proportions.size() != r.shapes.size() ||
      !(std::accumulate(r.proportions.begin(), r.proportions.end(), 0.0) > 0) ||
      std::any_of(r.proportions.begin(), r.proportions.end(), [](double p) { return !(p >= 0); }))
    throw std::invalid_argument("proportions: one per template, none negative, not all zero");
  std::mt19937_64 rng(r.seed);
  std::discrete_distribution<std::uint32_t> pick_template(r.proportions.begin(), r.proportions.end());
  auto draw_grain = [&](std::uint32_t shape) {
    Candidate c;
    c.shape = shape;
    const double own = equivalent_diameter(r.shapes[c.shape]);
    const double d = r.sizes.draw(rng);
    c.scale = d > 0 ? d / own : 1;
    c.diameter = d > 0 ? d : own;
    c.reach = r.shapes[c.shape].bounding_radius * c.scale;
    return c;
  };
  // With a count, the templates come in exactly their proportions (seed 004's discharge has
  // shapes A–E in equal numbers), in random order; every grain is drawn first and the largest
  // placed first (a random packing holds more that way); the sizes are the distribution's
  // whatever the order.
  std::vector<Candidate> queue;
  if (r.count) {
    std::vector<std::uint32_t> shapes = apportion(r.proportions, *r.count);
    std::shuffle(shapes.begin(), shapes.end(), rng);
    for (const std::uint32_t shape : shapes) queue.push_back(draw_grain(shape));
    std::stable_sort(queue.begin(), queue.end(), [](const Candidate& a, const Candidate& b) { return a.reach > b.reach; });
  }
  const std::vector<Vector3d> unit_sphere = sphere_points();
  PackResult result;
  result.per_template.assign(r.shapes.size(), 0);
  result.region_volume = region.volume();
  std::vector<Candidate> placed;
  std::optional<Neighbours> near;  // cells of twice the first grain's reach
  double largest_reach = 0;        // of the grains placed
  const std::size_t total = r.count.value_or(0);
  for (std::size_t n = 0;; ++n) {
    if (r.count && n == *r.count) break;
    Candidate c = r.count ? queue[n] : draw_grain(pick_template(rng));
    if (!near) near.emplace(2 * std::max(c.reach, 1e-9));
    bool found = false;
    for (std::size_t attempt = 0; attempt < r.attempts && !found; ++attempt) {
      c.pose.position = region.draw(rng);
      c.pose.orientation = random_orientation(rng);
      c.pose.scale = c.scale;
      place(c, r, unit_sphere);
      found = region.contains(c.pose.position) &&
              std::all_of(c.surface.begin(), c.surface.end(), [&](const Vector3d& p) { return region.contains(p); }) &&
              clear_of_walls(r.walls, c) && clear_of_terrain(r, c) &&
              near->all_of_near(c.pose.position, 1.1 * (c.reach + largest_reach), [&](std::size_t g) { return apart(r, c, placed[g]); });
    }
    if (!found) {
      if (r.count) throw RegionFull(placed.size(), *r.count, result.solid_volume / result.region_volume);
      break;
    }
    near->add(placed.size(), c.pose.position);
    largest_reach = std::max(largest_reach, c.reach);
    result.solid_volume += r.shapes[c.shape].volume * std::pow(c.scale, 3);
    ++result.per_template[c.shape];
    result.diameters.push_back(c.diameter);
    placed.push_back(std::move(c));
    if (r.progress) r.progress(placed.size(), total);
  }

  formats::Bodies& b = result.bodies;
  b.resize(placed.size());
  for (std::size_t i = 0; i < placed.size(); ++i) {
    const Candidate& c = placed[i];
    b.id[i] = i + 1;
    b.template_index[i] = c.shape;
    b.scale[i] = c.scale;
    b.position[i] = {c.pose.position.x(), c.pose.position.y(), c.pose.position.z()};
    const auto& q = c.pose.orientation;
    b.orientation[i] = {q.w(), q.x(), q.y(), q.z()};
    b.velocity[i] = b.angular_velocity[i] = {0, 0, 0};
  }
  return result;
}

}  // namespace scree::pack
