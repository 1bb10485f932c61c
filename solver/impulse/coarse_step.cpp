#include "solver/impulse/coarse_step.h"

#include <algorithm>
#include <array>
#include <map>
#include <set>
#include <stdexcept>

#include <Eigen/SparseCholesky>

#include "solver/contacts/islands.h"
#include "solver/exact_sum.h"
#include "solver/ranks/communicator.h"

namespace scree::solver {

CoarseLayers enlist_grains(const std::vector<CoarseUnit>& units, const std::vector<bool>& is_static) {
  CoarseLayers c;
  constexpr std::uint32_t none = CoarseLayers::none;
  // The island's grains, numbered as the units meet them, through a table by body kept per
  // thread (only this island's bodies are read, as island_layers does).
  thread_local std::vector<std::uint32_t> place;
  for (const CoarseUnit& u : units) {
    const std::uint32_t largest = std::max(u.a, u.b);
    if (place.size() <= largest) place.resize(std::size_t(largest) + 1);
    place[u.a] = place[u.b] = none;
  }
  auto enlist = [&](std::uint32_t body) {
    if (is_static[body]) return none;
    if (place[body] == none) {
      place[body] = std::uint32_t(c.grains.size());
      c.grains.push_back(body);
    }
    return place[body];
  };
  c.unit_a.resize(units.size());
  c.unit_b.resize(units.size());
  for (std::size_t k = 0; k < units.size(); ++k) {
    c.unit_a[k] = enlist(units[k].a);
    c.unit_b[k] = enlist(units[k].b);
  }
  return c;
}

std::vector<int> bearing_layers(const std::vector<CoarseUnit>& units, const CoarseLayers& c) {
  std::vector<int> layer(c.grains.size(), -1);
  for (std::size_t k = 0; k < units.size(); ++k)
    if (c.unit_b[k] == CoarseLayers::none && units[k].bears_load) layer[c.unit_a[k]] = 0;
  return layer;
}

std::vector<std::pair<std::uint32_t, std::uint32_t>> grain_links(const CoarseLayers& c) {
  std::vector<std::pair<std::uint32_t, std::uint32_t>> links;
  for (std::size_t k = 0; k < c.unit_a.size(); ++k)
    if (c.unit_b[k] != CoarseLayers::none) links.emplace_back(c.unit_a[k], c.unit_b[k]);
  return links;
}

namespace {

// Groups: 0 the static contacts, l + 1 those between grains of layers l and l or l + 1
// (linked grains differ by at most one layer); −1 for a unit no load path reaches.
std::int32_t unit_group(const CoarseLayers& c, const std::vector<int>& layer, std::size_t k) {
  const std::uint32_t a = c.unit_a[k], b = c.unit_b[k];
  if (layer[a] < 0) return -1;
  return b == CoarseLayers::none ? 0 : 1 + std::min(layer[a], layer[b]);
}

constexpr std::uint8_t static_group = 1, own_group = 2, next_group = 4;

}  // namespace

std::vector<std::uint8_t> group_bits(const std::vector<CoarseUnit>& units, const CoarseLayers& c, const std::vector<int>& layer) {
  std::vector<std::uint8_t> bits(c.grains.size(), 0);
  auto add = [&](std::uint32_t g, std::int32_t group) {
    if (group == 0) bits[g] |= static_group;
    else if (group == layer[g]) bits[g] |= own_group;
    else if (group == layer[g] + 1) bits[g] |= next_group;  // else layers not yet final (ranks/island_depths.h)
  };
  for (std::size_t k = 0; k < units.size(); ++k)
    if (const std::int32_t group = unit_group(c, layer, k); group >= 0) {
      add(c.unit_a[k], group);
      if (c.unit_b[k] != CoarseLayers::none) add(c.unit_b[k], group);
    }
  return bits;
}

void assign_groups(const std::vector<CoarseUnit>& units, const std::vector<int>& layer, const std::vector<std::uint8_t>& bits,
                   CoarseLayers& c) {
  constexpr int slots = CoarseLayers::slots;
  const std::size_t n = c.grains.size();
  c.layers = 0;
  c.grain_groups.assign(n * slots, -1);
  for (std::size_t g = 0; g < n; ++g) {
    c.layers = std::max(c.layers, layer[g] + 1);
    std::int32_t* groups = &c.grain_groups[g * slots];
    int s = 0;
    if (bits[g] & static_group) groups[s++] = 0;
    if (bits[g] & own_group) groups[s++] = layer[g];
    if (bits[g] & next_group) groups[s++] = layer[g] + 1;
  }
  auto slot_of = [&](std::uint32_t g, std::int32_t group) {
    const std::int32_t* groups = &c.grain_groups[std::size_t(g) * slots];
    for (int s = 0; s < slots; ++s)
      if (groups[s] == group) return std::uint8_t(s);
    throw std::logic_error("coarse_layers: a unit's group not among its grain's");
  };
  c.groups = 0;
  c.unit_group.assign(units.size(), -1);
  c.slot_a.assign(units.size(), 0);
  c.slot_b.assign(units.size(), 0);
  for (std::size_t k = 0; k < units.size(); ++k) {
    const std::int32_t group = unit_group(c, layer, k);
    if (group < 0) continue;
    c.unit_group[k] = group;
    c.slot_a[k] = slot_of(c.unit_a[k], group);
    if (c.unit_b[k] != CoarseLayers::none) c.slot_b[k] = slot_of(c.unit_b[k], group);
    c.groups = std::max(c.groups, int(group) + 1);
  }
}

CoarseLayers coarse_layers(const std::vector<CoarseUnit>& units, const std::vector<bool>& is_static) {
  // Layers, breadth first from the grains on a static body that bears the load; a grain's
  // groups take its slots in ascending order.
  CoarseLayers c = enlist_grains(units, is_static);
  std::vector<int> layer = bearing_layers(units, c);
  DepthGraph(c.grains.size(), grain_links(c)).spread(layer);
  assign_groups(units, layer, group_bits(units, c, layer), c);
  return c;
}

std::vector<std::pair<int, int>> coarse_entries(const CoarseLayers& c) {
  constexpr int slots = CoarseLayers::slots;
  std::set<std::pair<int, int>> entries;
  for (std::size_t g = 0; g < c.grains.size(); ++g) {
    const std::int32_t* groups = &c.grain_groups[g * slots];
    for (int s = 0; s < slots && groups[s] >= 0; ++s)
      for (int t = s; t < slots && groups[t] >= 0; ++t) entries.insert({std::max(groups[s], groups[t]), std::min(groups[s], groups[t])});
  }
  return {entries.begin(), entries.end()};
}

std::vector<double> coarse_scales(const CoarseLayers& layers, const std::vector<GroupImpulse>& impulses,
                                  const std::vector<RigidBody>& bodies, const std::vector<Mat3>& inverse_inertia,
                                  const std::vector<double>& reached, const CoarseShare* share) {
  // The objective over μ: ½ μᵀHμ + gᵀμ, H_gh = Σ over grains of what groups g and h do to
  // each one's kinetic energy together (Σ P_g · P_h / m + (Σ r × P)_g · I⁻¹ (Σ r × P)_h), g_g the
  // power of group g's impulses on the present velocities less its reached term.
  // Sums over grains and units taken exactly (exact_sum.h): the same however an island's
  // grains are shared among ranks (docs/parallel.md).
  const int n = layers.groups;
  constexpr int slots = CoarseLayers::slots;
  std::vector<ExactSum> gradient_sum(static_cast<std::size_t>(n));
  std::map<std::pair<int, int>, ExactSum> h_sum;  // (row, column), the lower triangle
  if (share)  // every rank's entries, as one process has them, whichever grains this rank keeps
    for (const std::pair<int, int>& at : share->entries) h_sum[at];
  for (std::size_t i = 0; i < layers.grains.size(); ++i) {
    const std::int32_t* groups = &layers.grain_groups[i * slots];
    if (share && !share->keeps[i]) continue;  // its terms are another rank's
    const RigidBody& grain = bodies[layers.grains[i]];
    const Mat3& turn = inverse_inertia[layers.grains[i]];
    for (int s = 0; s < slots && groups[s] >= 0; ++s) {
      const GroupImpulse& x = impulses[i * slots + std::size_t(s)];
      gradient_sum[std::size_t(groups[s])] += x.linear.dot(grain.velocity) + x.angular.dot(grain.angular_velocity);
      const Vec3 turned = turn * x.angular;
      for (int t = s; t < slots && groups[t] >= 0; ++t) {
        const GroupImpulse& y = impulses[i * slots + std::size_t(t)];
        h_sum[{std::max(groups[s], groups[t]), std::min(groups[s], groups[t])}] +=
            grain.inverse_mass * x.linear.dot(y.linear) + y.angular.dot(turned);
      }
    }
  }
  for (std::size_t u = 0; u < reached.size(); ++u)
    if (layers.unit_group[u] >= 0) gradient_sum[std::size_t(layers.unit_group[u])] -= reached[u];
  if (share) {
    std::vector<ExactSum> sums = gradient_sum;
    for (const auto& [at, sum] : h_sum) sums.push_back(sum);
    share->ranks.sum(sums);
    std::copy(sums.begin(), sums.begin() + n, gradient_sum.begin());
    std::size_t k = std::size_t(n);
    for (auto& [at, sum] : h_sum) sum = sums[k++];
  }
  Eigen::VectorXd gradient(n);
  for (int g = 0; g < n; ++g) gradient[g] = gradient_sum[std::size_t(g)].value();
  std::vector<Eigen::Triplet<double>> entries;
  for (const auto& [at, sum] : h_sum) entries.emplace_back(at.first, at.second, sum.value());
  // A group that moves nothing (no load) keeps its scale 0; a hair of each diagonal keeps a
  // group that others' scalings reproduce (a hyperstatic heap) from a zero pivot.
  for (int g = 0; g < n; ++g) {
    const auto diagonal = h_sum.find({g, g});
    const double d = diagonal == h_sum.end() ? 0 : diagonal->second.value();
    entries.emplace_back(g, g, d > 0 ? 1e-9 * d : 1.0);
  }
  Eigen::SparseMatrix<double> H(n, n);
  H.setFromTriplets(entries.begin(), entries.end());
  const Eigen::SimplicialLDLT<Eigen::SparseMatrix<double>, Eigen::Lower> ldlt(H);
  std::vector<double> scales(std::size_t(n), 0.0);
  if (ldlt.info() != Eigen::Success) return scales;
  const Eigen::VectorXd mu = ldlt.solve(-gradient);
  if (!mu.allFinite()) return scales;
  // Along μ the objective falls all the way to the full step; shortened, it still falls.
  double step = 1;
  for (int g = 0; g < n; ++g)
    if (mu[g] < 0) step = std::min(step, -1 / mu[g]);
  for (int g = 0; g < n; ++g) scales[std::size_t(g)] = step * mu[g];
  return scales;
}

ContactWork move_grains(const CoarseLayers& layers, const std::vector<double>& scales, std::vector<GroupImpulse>& impulses,
                       std::vector<RigidBody>& bodies, const std::vector<Mat3>& inverse_inertia,
                       std::vector<VelocityChange>& changes, const CoarseShare* share) {
  constexpr int slots = CoarseLayers::slots;
  ExactSum normal_work, friction_work;  // exactly, as coarse_scales()' sums
  for (std::size_t i = 0; i < layers.grains.size(); ++i) {
    const std::int32_t* groups = &layers.grain_groups[i * slots];
    GroupImpulse sum;
    for (int s = 0; s < slots && groups[s] >= 0; ++s) {
      const GroupImpulse& x = impulses[i * slots + std::size_t(s)];
      const double c = scales[std::size_t(groups[s])];
      sum.linear += c * x.linear;
      sum.angular += c * x.angular;
      sum.normal_linear += c * x.normal_linear;
      sum.normal_angular += c * x.normal_angular;
    }
    RigidBody& grain = bodies[layers.grains[i]];
    changes[i] = {grain.inverse_mass * sum.linear, inverse_inertia[layers.grains[i]] * sum.angular};
    const Vec3 mean_velocity = grain.velocity + 0.5 * changes[i].velocity;
    const Vec3 mean_angular_velocity = grain.angular_velocity + 0.5 * changes[i].angular_velocity;
    const double normal = mean_velocity.dot(sum.normal_linear) + mean_angular_velocity.dot(sum.normal_angular);
    if (!share || share->keeps[i]) {
      normal_work += normal;
      friction_work += mean_velocity.dot(sum.linear) + mean_angular_velocity.dot(sum.angular) - normal;
    }
    grain.velocity += changes[i].velocity;
    grain.angular_velocity += changes[i].angular_velocity;
    for (int s = 0; s < slots && groups[s] >= 0; ++s) impulses[i * slots + std::size_t(s)] = GroupImpulse{};
  }
  if (share) {
    std::array<ExactSum, 2> work{normal_work, friction_work};
    share->ranks.sum(work);
    return {work[0].value(), work[1].value()};
  }
  return {normal_work.value(), friction_work.value()};
}

}  // namespace scree::solver
