#pragma once
// Which of a template's nodes lie within a distance of each other, found once per shape: the
// contact finding glues a pair's contact nodes along it (solver/contacts/contact_points.h).
// Nodes of one rigid grain keep their distances wherever the grain goes, so the glue's
// distance test needs no search in the world frame, step after step (docs/theory.md,
// "Contacts").
#include <Eigen/Dense>

#include <cstdint>
#include <span>
#include <vector>

namespace scree::geometry {

// Each node's neighbours with a larger index, in increasing order, as compressed rows.
struct NodeGraph {
  std::vector<std::uint32_t> start{0};  // node i: adjacent[start[i] .. start[i + 1])
  std::vector<std::uint32_t> adjacent;

  std::size_t node_count() const { return start.size() - 1; }
  std::span<const std::uint32_t> neighbours_after(std::uint32_t i) const {
    return {adjacent.data() + start[i], adjacent.data() + start[i + 1]};
  }
};

// The pairs of points at most `distance` apart (in double precision), through cells of that
// size: about the points times a neighbourhood, not the points squared.
NodeGraph nodes_within(const std::vector<Eigen::Vector3f>& points, double distance);

}  // namespace scree::geometry
