#pragma once
// Narrow phase, node to surface (seed 004): the boundary nodes of one body sampled in the
// other body's level set. A node inside the other body (φ < margin) is a contact candidate
// with its depth and the other body's outward normal there.
#include <Eigen/Dense>
#include <Eigen/Geometry>

#include <cstdint>
#include <limits>
#include <vector>

#include "geometry/shape_template.h"

namespace scree::solver {

using geometry::NodeCluster;
using geometry::ShapeTemplate;

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

// The nodes of `master` whose φ in `other` is below `margin` (metres), in node order. The
// master's node hierarchy is walked first: parts outside the other's bounding sphere
// (`other_radius` + margin, world metres) and parts where no value of the other's level set
// is below the margin are skipped before their nodes are sampled (exactly: the same contacts
// as sampling every node), so the cost follows the nodes near the contact.
//
// With `near`, also lists (ascending) the nodes whose φ lies below margin + near->slack: the
// only nodes that can touch once the bodies have moved by less than the slack relative to
// each other (a sweep later in the same step, node_contacts_among).
struct NearNodes {
  double slack = 0;                   // m
  std::vector<std::uint32_t> nodes;   // filled
};
std::vector<NodeContact> node_contacts(const ShapeTemplate& master, const Pose& master_pose,
                                       const ShapeTemplate& other, const Pose& other_pose, double margin,
                                       double other_radius = std::numeric_limits<double>::infinity(),
                                       NearNodes* near = nullptr);

// The same contacts as node_contacts, sampling only `candidates` (ascending): exact when
// they hold every node that could lie below the margin.
std::vector<NodeContact> node_contacts_among(const ShapeTemplate& master, const Pose& master_pose,
                                             const ShapeTemplate& other, const Pose& other_pose, double margin,
                                             double other_radius, const std::vector<std::uint32_t>& candidates);

}  // namespace scree::solver
