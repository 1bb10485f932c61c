#pragma once
// How space is shared among MPI ranks (docs/parallel.md, "Decomposition"): a tree of cuts,
// each splitting a set of ranks in two along one axis, whose leaves are the ranks' regions.
// Together the regions fill space (the outer ones reach to infinity), so every place has
// exactly one owner. Two ways to cut: a Cartesian grid of nx × ny × nz ranks over a box
// (`parallel.ranks: [nx, ny, nz]`), and recursive coordinate bisection of weighted points
// (`parallel.ranks: auto`), which follows the mass as it moves and is found across ranks
// without gathering the points. Which rank owns a grain
// decides who computes; it never changes what is computed (docs/parallel.md, "The same bits").
#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include <Eigen/Geometry>

#include "solver/ranks/communicator.h"
#include "solver/rigid_body.h"

namespace scree::solver {

using Box = Eigen::AlignedBox3d;

class Decomposition {
 public:
  // One rank owning all of space.
  Decomposition() = default;

  int ranks() const { return int(leaf_count_); }
  // The rank whose region holds `at`: a cut's lower side holds what lies below it.
  int owner(const Vec3& at) const;
  // Every rank's region, by rank: a box whose outer faces lie at ±infinity.
  std::vector<Box> regions() const;
  // The ranks whose regions come within `reach` of `at` (its owner among them), ascending.
  std::vector<int> ranks_near(const Vec3& at, double reach) const;
  // The other ranks whose regions come within `reach` of `rank`'s, ascending: the ranks it
  // shares grains with when its halo is `reach` deep (each lists the other).
  std::vector<int> neighbours(int rank, double reach) const;

  // nx × ny × nz ranks over `bounds`, rank (i · ny + j) · nz + k at cell (i, j, k); cells of
  // equal size, the outer ones reaching on to infinity.
  static Decomposition cartesian(const Box& bounds, const std::array<int, 3>& ranks);
  // `ranks` regions of about equal weight (counts: a grain and its contacts): the ranks halved
  // (⌊R/2⌋ below a cut, the rest above) along the longest extent of their points, at the place
  // that shares the weight in that ratio as nearly as a cut between two distinct coordinates
  // can, halfway between them. The cuts depend on the points alone, not on their order.
  static Decomposition bisection(std::span<const Vec3> points, std::span<const std::int64_t> weights, int ranks);
  // The same cuts of the points the ranks of `across` hold together, each its own share,
  // found without gathering them (the weight below a trial place summed over the ranks, the
  // place found by bisection of its bits): every rank gets the decomposition of the whole.
  // With `shares` (by rank, positive, the same on every rank), each region's weight is in
  // proportion to its rank's share, the ranks below a cut taking the sum of theirs.
  static Decomposition bisection(std::span<const Vec3> points, std::span<const std::int64_t> weights, int ranks,
                                 const Ranks& across, std::span<const std::int64_t> shares = {});

 private:
  struct Node {
    int axis = -1;         // −1: a leaf
    double cut = 0;        // below: `lower`, at or above: `upper`
    std::uint32_t lower = 0, upper = 0;  // children, or a leaf's rank in `lower`
  };
  std::vector<Node> nodes_{Node{}};  // the root first
  std::uint32_t leaf_count_ = 1;

  std::uint32_t add_leaf(int rank);
  void regions_below(std::uint32_t node, const Box& box, std::vector<Box>& regions) const;
  void near_below(std::uint32_t node, const Vec3& at, double reach, std::vector<int>& found) const;
  std::uint32_t cut_cartesian(const Box& bounds, const std::array<int, 3>& ranks, std::array<int, 3> low,
                              std::array<int, 3> high);
  struct Weighted;
  std::uint32_t cut_bisection(std::span<Weighted> points, int first_rank, int ranks, const Ranks& across,
                              std::span<const std::int64_t> shares);
};

}  // namespace scree::solver
