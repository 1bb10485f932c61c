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

}  // namespace scree::solver
