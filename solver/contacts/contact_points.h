#pragma once
// Contact points from contact nodes: seed 000 §3.3 glues "a group of adjacent contact points"
// into one contact. scree glues the contact nodes of one pair of bodies that lie within the
// shape's glue distance of each other (chains of neighbours; the pairs are the shape's
// `glued_nodes`, found once in the body frame) and whose normals agree within `max_angle`. A glued contact sits at the mean of its nodes weighted by depth, with their
// weighted mean normal, so a flat face resting on a plane gives one contact at the face's
// centroid: no spurious spin from the order in which nodes are met, and a face that touches
// with one half only gets its contact off-centre and turns, as a rigid body must. The depth
// weights move the contact towards the deeper edge of a tilted face, which is where the
// pressure of a real contact goes.
#include <Eigen/Dense>

#include <cstdint>
#include <vector>

#include "geometry/node_graph.h"
#include "solver/contacts/narrow_phase.h"

namespace scree::solver {

struct ContactPatch {
  Eigen::Vector3d point;   // depth-weighted mean of the nodes, world
  Eigen::Vector3d normal;  // unit depth-weighted mean of the nodes' normals
  double depth;            // largest depth of the nodes; ≤ 0 when none is inside yet
  double weighted_depth;   // Σ d² / Σ d over the nodes inside: the depth at `point` of a
                           // uniformly tilted face
  std::uint32_t first_node;  // smallest node index: patches come out in this order
  std::vector<std::uint32_t> members;  // indices into the glued nodes, in node order
};

// The nodes may include some within `margin` outside (depth ≤ 0). Nodes weigh depth + margin:
// a face that touches to within round-off (depths ±1e-16) is then weighed evenly instead of by
// the sign of its round-off, and a face that has only nodes within the margin still has a place.
constexpr double default_glue_angle = 0.5235987755982988;  // 30°
// `glued_nodes` is the master's node graph (NodeContact::node indexes it); a node listed twice,
// or beyond the graph, is refused (std::invalid_argument).
std::vector<ContactPatch> glue_contacts(const std::vector<NodeContact>& nodes, const geometry::NodeGraph& glued_nodes,
                                        double max_angle = default_glue_angle, double margin = 0);

}  // namespace scree::solver
