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

// Each node's neighbours with a larger index, in increasing order, as compressed rows, and
// the test that found them: a few nodes are tested pair by pair faster than their rows are
// walked (a settled heap glues ~16 contact nodes at a time, whose rows hold ~27 neighbours
// each, most of them not touching; docs/benchmarks.md, "The fifteenth pass").
struct NodeGraph {
  std::vector<std::uint32_t> start{0};  // node i: adjacent[start[i] .. start[i + 1])
  std::vector<std::uint32_t> adjacent;
  std::vector<Eigen::Vector3f> points;  // the nodes
  double reach2 = 0;                    // the distance, squared

  std::size_t node_count() const { return start.size() - 1; }
  std::span<const std::uint32_t> neighbours_after(std::uint32_t i) const {
    return {adjacent.data() + start[i], adjacent.data() + start[i + 1]};
  }
  std::size_t neighbour_count_after(std::uint32_t i) const { return start[i + 1] - start[i]; }
  // Whether nodes i and j lie within the distance: j is among i's neighbours, or i among j's.
  bool within(std::uint32_t i, std::uint32_t j) const {
    return (points[i].cast<double>() - points[j].cast<double>()).squaredNorm() <= reach2;
  }
};

// The pairs of points at most `distance` apart (in double precision), through cells of that
// size: about the points times a neighbourhood, not the points squared.
NodeGraph nodes_within(const std::vector<Eigen::Vector3f>& points, double distance);

}  // namespace scree::geometry
