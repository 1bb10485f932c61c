#include "solver/ranks/decomposition.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace scree::solver {

struct Decomposition::Weighted {
  Vec3 at;
  std::int64_t weight;
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

Decomposition Decomposition::bisection(std::span<const Vec3> points, std::span<const std::int64_t> weights, int ranks) {
  return bisection(points, weights, ranks, Ranks());
}

Decomposition Decomposition::bisection(std::span<const Vec3> points, std::span<const std::int64_t> weights, int ranks,
                                       const Ranks& across, std::span<const std::int64_t> shares) {
  if (ranks < 1) throw std::invalid_argument("a bisection needs at least one rank");
  if (weights.size() != points.size()) throw std::invalid_argument("a bisection needs one weight a point");
  const std::vector<std::int64_t> even(std::size_t(ranks), 1);
  if (shares.empty()) shares = even;
  if (shares.size() != std::size_t(ranks) || std::any_of(shares.begin(), shares.end(), [](std::int64_t s) { return s <= 0; }))
    throw std::invalid_argument("a bisection needs a positive share a rank");
  std::vector<Weighted> weighted(points.size());
  for (std::size_t k = 0; k < points.size(); ++k) {
    if (weights[k] < 0) throw std::invalid_argument("a bisection's weights are not negative");
    weighted[k] = {points[k], weights[k]};
  }
  Decomposition d;
  d.nodes_.clear();
  d.leaf_count_ = std::uint32_t(ranks);
  d.cut_bisection(weighted, 0, ranks, across, shares);
  return d;
}

namespace {

// Doubles as unsigned integers in the same order (finite ones; −0 just below +0).
std::uint64_t ordered_key(double x) {
  const std::uint64_t bits = std::bit_cast<std::uint64_t>(x);
  return bits >> 63 ? ~bits : bits | (std::uint64_t(1) << 63);
}
double from_ordered_key(std::uint64_t key) {
  return std::bit_cast<double>(key >> 63 ? key & ~(std::uint64_t(1) << 63) : ~key);
}

}  // namespace

std::uint32_t Decomposition::cut_bisection(std::span<Weighted> points, int first_rank, int ranks, const Ranks& across,
                                           std::span<const std::int64_t> shares) {
  if (ranks == 1) return add_leaf(first_rank);
  constexpr double far = std::numeric_limits<double>::infinity();
  // The box of every rank's points, and its longest side.
  std::vector<double> low(3, far), high(3, -far);
  for (const Weighted& p : points)
    for (int a = 0; a < 3; ++a) {
      low[std::size_t(a)] = std::min(low[std::size_t(a)], p.at[a]);
      high[std::size_t(a)] = std::max(high[std::size_t(a)], p.at[a]);
    }
  across.min(low);
  across.max(high);
  int axis = 0;
  for (int a = 1; a < 3; ++a)
    if (high[std::size_t(a)] - low[std::size_t(a)] > high[std::size_t(axis)] - low[std::size_t(axis)]) axis = a;
  // Sums over every rank's points: exact, as the weights are counts.
  auto weight_where = [&](auto&& holds) {
    std::vector<std::int64_t> sum{0};
    for (const Weighted& p : points)
      if (holds(p.at[axis])) sum[0] += p.weight;
    across.sum(sum);
    return sum[0];
  };
  auto extreme = [&](auto&& holds, bool largest) {
    double x = largest ? -far : far;
    for (const Weighted& p : points)
      if (holds(p.at[axis])) x = largest ? std::max(x, p.at[axis]) : std::min(x, p.at[axis]);
    return largest ? across.max(x) : across.min(x);
  };
  const int lower_ranks = ranks / 2;
  // The weight below the cut, times the ranks' shares, to come near: the lower ranks' shares
  // times the total.
  std::int64_t lower_shares = 0, all_shares = 0;
  for (int r = first_rank; r < first_rank + ranks; ++r) {
    all_shares += shares[std::size_t(r)];
    if (r < first_rank + lower_ranks) lower_shares += shares[std::size_t(r)];
  }
  const std::int64_t total = weight_where([](double) { return true; });
  const __int128 target = static_cast<__int128>(total) * lower_shares;
  double cut = 0;
  if (low[std::size_t(axis)] <= high[std::size_t(axis)]) {
    // The least coordinate v whose weight up to and with it, times the shares, reaches the target; the
    // split just before v or just after it, whichever lies nearer (before, on a tie).
    std::uint64_t first = ordered_key(low[std::size_t(axis)]), last = ordered_key(high[std::size_t(axis)]);
    while (first < last) {
      const std::uint64_t middle = first + (last - first) / 2;
      const double x = from_ordered_key(middle);
      if (static_cast<__int128>(weight_where([x](double c) { return c <= x; })) * all_shares >= target) last = middle;
      else first = middle + 1;
    }
    const double v = from_ordered_key(first);
    const __int128 before = static_cast<__int128>(weight_where([v](double c) { return c < v; })) * all_shares - target;
    const __int128 after = static_cast<__int128>(weight_where([v](double c) { return c <= v; })) * all_shares - target;
    const bool split_after = (after < 0 ? -after : after) < (before < 0 ? -before : before);
    const double last_below = split_after ? v : extreme([v](double c) { return c < v; }, true);
    const double first_above = split_after ? extreme([v](double c) { return c > v; }, false) : v;
    if (last_below == -far) {
      cut = first_above;
    } else if (first_above == far) {
      cut = std::nextafter(last_below, far);
    } else {
      cut = 0.5 * (last_below + first_above);
      if (!(cut > last_below)) cut = first_above;
    }
  }
  const auto split = std::partition(points.begin(), points.end(), [&](const Weighted& p) { return p.at[axis] < cut; });
  const std::uint32_t index = std::uint32_t(nodes_.size());
  nodes_.push_back(Node{axis, cut, 0, 0});
  const std::size_t below = std::size_t(split - points.begin());
  const std::uint32_t lower = cut_bisection(points.first(below), first_rank, lower_ranks, across, shares);
  const std::uint32_t upper = cut_bisection(points.subspan(below), first_rank + lower_ranks, ranks - lower_ranks, across, shares);
  nodes_[index].lower = lower;
  nodes_[index].upper = upper;
  return index;
}

}  // namespace scree::solver
