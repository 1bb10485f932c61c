#pragma once
// Disjoint sets over 0..n−1 whose representative is always the smallest member, so that
// groups built from it (contact patches, islands) are named and ordered by their smallest
// index whatever order the links came in.
#include <algorithm>
#include <cstdint>
#include <numeric>
#include <vector>

namespace scree::solver {

class SmallestRootSets {
 public:
  explicit SmallestRootSets(std::size_t n = 0) { reset(n); }
  // Every one of 0..n−1 a set of its own again, keeping the storage.
  void reset(std::size_t n) {
    parent_.resize(n);
    std::iota(parent_.begin(), parent_.end(), 0u);
  }
  std::uint32_t root(std::uint32_t i) {
    while (parent_[i] != i) i = parent_[i] = parent_[parent_[i]];
    return i;
  }
  void join(std::uint32_t a, std::uint32_t b) {
    a = root(a), b = root(b);
    if (a != b) join_roots(a, b);
  }
  // Two different roots joined; returns the root of the union.
  std::uint32_t join_roots(std::uint32_t a, std::uint32_t b) {
    parent_[std::max(a, b)] = std::min(a, b);
    return std::min(a, b);
  }

 private:
  std::vector<std::uint32_t> parent_;
};

}  // namespace scree::solver
