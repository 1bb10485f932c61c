#pragma once
// Broad phase: the pairs of bodies whose bounding spheres come within `margin` of each
// other, by linked cells (bodies sorted by cell key, each cell's run found by hashing: each
// body meets only the bodies of its 27 cells). Pairs come out sorted by (first, second) with
// first < second, whatever the input order, so that everything downstream is ordered by
// body index and runs are reproducible (DESIGN §5).
#include <Eigen/Dense>

#include <cstdint>
#include <utility>
#include <vector>

namespace scree::solver {

using BodyPair = std::pair<std::uint32_t, std::uint32_t>;

// Cells are as wide as the largest sphere's diameter plus the margin, so each sphere meets
// only the 27 cells around its own. (Very unequal sizes, a boulder among sand, want a
// hierarchy of cell sizes; that is for when the solver meets such cases.)
std::vector<BodyPair> overlapping_pairs(const std::vector<Eigen::Vector3d>& centres,
                                        const std::vector<double>& radii, double margin);

// The pairs of overlapping_pairs, from a list of candidates built with a skin (a Verlet
// list): a rebuild finds the pairs within margin + skin, and later calls only test those
// candidates again, while the margin asked for plus twice the farthest any body has moved
// since the build stays within the build's margin + skin. The
// pairs are exactly overlapping_pairs' (the same test, in the same order), so a run does not
// depend on when the list was rebuilt: a restart that starts with an empty list gives the
// same steps bit for bit.
class NeighbourList {
 public:
  std::vector<BodyPair> pairs(const std::vector<Eigen::Vector3d>& centres, const std::vector<double>& radii,
                              double margin, double skin);
  std::size_t rebuilds() const { return rebuilds_; }

 private:
  std::vector<BodyPair> candidates_;
  std::vector<Eigen::Vector3d> centres_at_build_;
  std::vector<double> radii_at_build_;
  double reach_at_build_ = -1;  // margin + skin of the last build; < 0: none yet
  std::size_t rebuilds_ = 0;
};

}  // namespace scree::solver
