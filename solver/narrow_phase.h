#pragma once
// Narrow phase, node to surface (seed 004): the boundary nodes of one body sampled in the
// other body's level set. A node inside the other body (φ < margin) is a contact candidate
// with its depth and the other body's outward normal there.
#include <Eigen/Dense>
#include <Eigen/Geometry>

#include <cstdint>
#include <limits>
#include <vector>

#include "solver/shape_template.h"

namespace scree::solver {

// Where a grain is: body frame → world is x = position + orientation · (scale · body).
struct Pose {
  Eigen::Vector3d position = Eigen::Vector3d::Zero();
  Eigen::Quaterniond orientation = Eigen::Quaterniond::Identity();
  double scale = 1;  // uniform, of the template's lengths
};

struct NodeContact {
  std::uint32_t node;      // index into the master's nodes
  Eigen::Vector3d point;   // the node, world frame
  Eigen::Vector3d normal;  // unit, world: the other body's outward normal at the node
  double depth;            // −φ_other(node): > 0 inside the other body, m
};

// φ of a posed template at a world point, and its world gradient.
double posed_value(const ShapeTemplate& shape, const Pose& pose, const Eigen::Vector3d& world,
                   Eigen::Vector3d* gradient = nullptr);

// The nodes of `master` whose φ in `other` is below `margin` (metres), in node order. Nodes
// farther than `other_radius` + margin from the other's centre (its bounding sphere, world
// metres) are skipped before sampling: most of a pair's nodes, and most of the cost.
std::vector<NodeContact> node_contacts(const ShapeTemplate& master, const Pose& master_pose,
                                       const ShapeTemplate& other, const Pose& other_pose, double margin,
                                       double other_radius = std::numeric_limits<double>::infinity());

}  // namespace scree::solver
