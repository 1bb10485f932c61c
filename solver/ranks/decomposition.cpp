#include "solver/ranks/decomposition.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace scree::solver {

struct Decomposition::Weighted {
  Vec3 at;
  double weight;
  std::uint64_t id;
};

int Decomposition::owner(const Vec3& at) const {
  std::uint32_t node = 0;
  while (nodes_[node].axis >= 0) node = at[nodes_[node].axis] < nodes_[node].cut ? nodes_[node].lower : nodes_[node].upper;
  return int(nodes_[node].lower);
}

std::vector<Box> Decomposition::regions() const {
  std::vector<Box> regions(leaf_count_);
  constexpr double far = std::numeric_limits<double>::infinity();
  regions_below(0, Box(Vec3::Constant(-far), Vec3::Constant(far)), regions);
  return regions;
}

void Decomposition::regions_below(std::uint32_t index, const Box& box, std::vector<Box>& regions) const {
  const Node& node = nodes_[index];
  if (node.axis < 0) {
    regions[node.lower] = box;
    return;
  }
  Box lower = box, upper = box;
  lower.max()[node.axis] = node.cut;
  upper.min()[node.axis] = node.cut;
  regions_below(node.lower, lower, regions);
  regions_below(node.upper, upper, regions);
}

std::vector<int> Decomposition::ranks_near(const Vec3& at, double reach) const {
  std::vector<int> found;
  near_below(0, at, reach, found);
  std::sort(found.begin(), found.end());
  return found;
}

void Decomposition::near_below(std::uint32_t index, const Vec3& at, double reach, std::vector<int>& found) const {
  const Node& node = nodes_[index];
  if (node.axis < 0) {
    found.push_back(int(node.lower));
    return;
  }
  if (at[node.axis] - reach < node.cut) near_below(node.lower, at, reach, found);
  if (at[node.axis] + reach >= node.cut) near_below(node.upper, at, reach, found);
}

std::vector<int> Decomposition::neighbours(int rank, double reach) const {
  const std::vector<Box> boxes = regions();
  const Box& mine = boxes.at(std::size_t(rank));
  std::vector<int> found;
  for (int r = 0; r < ranks(); ++r) {
    if (r == rank) continue;
    const Box& other = boxes[std::size_t(r)];
    // The gap between the boxes along each axis (none where they overlap or touch).
    const Vec3 gap = (mine.min() - other.max()).cwiseMax(other.min() - mine.max()).cwiseMax(0.0);
    if (gap.norm() <= reach) found.push_back(r);
  }
  return found;
}

std::uint32_t Decomposition::add_leaf(int rank) {
  nodes_.push_back(Node{-1, 0, std::uint32_t(rank), 0});
  return std::uint32_t(nodes_.size() - 1);
}

Decomposition Decomposition::cartesian(const Box& bounds, const std::array<int, 3>& ranks) {
  for (int axis = 0; axis < 3; ++axis) {
    if (ranks[std::size_t(axis)] < 1)
      throw std::invalid_argument("a Cartesian decomposition needs at least one rank along each axis");
    if (ranks[std::size_t(axis)] > 1 && !(bounds.max()[axis] > bounds.min()[axis]))
      throw std::invalid_argument("cutting an axis among ranks needs bounds of some extent along it");
  }
  Decomposition d;
  d.nodes_.clear();
  d.leaf_count_ = std::uint32_t(ranks[0] * ranks[1] * ranks[2]);
  d.cut_cartesian(bounds, ranks, {0, 0, 0}, ranks);
  return d;
}

// The cells [low, high) along each axis: cut in two across the first axis with more than one.
std::uint32_t Decomposition::cut_cartesian(const Box& bounds, const std::array<int, 3>& ranks, std::array<int, 3> low,
                                           std::array<int, 3> high) {
  int axis = 0;
  while (axis < 3 && high[std::size_t(axis)] - low[std::size_t(axis)] == 1) ++axis;
  if (axis == 3) return add_leaf((low[0] * ranks[1] + low[1]) * ranks[2] + low[2]);
  const std::size_t a = std::size_t(axis);
  const int middle = low[a] + (high[a] - low[a]) / 2;
  const std::uint32_t index = std::uint32_t(nodes_.size());
  nodes_.push_back(Node{axis, bounds.min()[axis] + (bounds.max()[axis] - bounds.min()[axis]) * middle / ranks[a], 0, 0});
  std::array<int, 3> lower_high = high, upper_low = low;
  lower_high[a] = upper_low[a] = middle;
  const std::uint32_t lower = cut_cartesian(bounds, ranks, low, lower_high);
  const std::uint32_t upper = cut_cartesian(bounds, ranks, upper_low, high);
  nodes_[index].lower = lower;
  nodes_[index].upper = upper;
  return index;
}

Decomposition Decomposition::bisection(std::span<const Vec3> points, std::span<const double> weights,
                                       std::span<const std::uint64_t> ids, int ranks) {
  if (ranks < 1) throw std::invalid_argument("a bisection needs at least one rank");
  if (weights.size() != points.size() || ids.size() != points.size())
    throw std::invalid_argument("a bisection needs one weight and one id a point");
  std::vector<Weighted> weighted(points.size());
  for (std::size_t k = 0; k < points.size(); ++k) {
    if (!(weights[k] >= 0)) throw std::invalid_argument("a bisection's weights are not negative");
    weighted[k] = {points[k], weights[k], ids[k]};
  }
  Decomposition d;
  d.nodes_.clear();
  d.leaf_count_ = std::uint32_t(ranks);
  d.cut_bisection(weighted, 0, ranks);
  return d;
}

std::uint32_t Decomposition::cut_bisection(std::span<Weighted> points, int first_rank, int ranks) {
  if (ranks == 1) return add_leaf(first_rank);
  Box box;
  for (const Weighted& p : points) box.extend(p.at);
  int axis = 0;
  if (!points.empty()) box.sizes().maxCoeff(&axis);
  std::sort(points.begin(), points.end(), [axis](const Weighted& x, const Weighted& y) {
    return x.at[axis] < y.at[axis] || (x.at[axis] == y.at[axis] && x.id < y.id);
  });
  const int lower_ranks = ranks / 2;
  double total = 0;
  for (const Weighted& p : points) total += p.weight;
  const double target = total * lower_ranks / ranks;
  // The split nearest the target among those between distinct coordinates (and the ends).
  std::size_t split = 0;
  double below = 0, best = std::abs(target);
  for (std::size_t s = 1; s <= points.size(); ++s) {
    below += points[s - 1].weight;
    const bool between = s == points.size() || points[s - 1].at[axis] < points[s].at[axis];
    if (between && std::abs(below - target) < best) {
      best = std::abs(below - target);
      split = s;
    }
  }
  double cut = 0;
  if (points.empty()) {
    cut = 0;
  } else if (split == 0) {
    cut = points.front().at[axis];
  } else if (split == points.size()) {
    cut = std::nextafter(points.back().at[axis], std::numeric_limits<double>::infinity());
  } else {
    const double last_below = points[split - 1].at[axis], first_above = points[split].at[axis];
    cut = 0.5 * (last_below + first_above);
    if (!(cut > last_below)) cut = first_above;
  }
  const std::uint32_t index = std::uint32_t(nodes_.size());
  nodes_.push_back(Node{axis, cut, 0, 0});
  const std::uint32_t lower = cut_bisection(points.first(split), first_rank, lower_ranks);
  const std::uint32_t upper = cut_bisection(points.subspan(split), first_rank + lower_ranks, ranks - lower_ranks);
  nodes_[index].lower = lower;
  nodes_[index].upper = upper;
  return index;
}

}  // namespace scree::solver
