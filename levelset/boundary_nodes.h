#pragma once
// Boundary nodes on the zero level of a level set's trilinear interpolant.
//  - rays: seed 004's spiral of directions from a centre; along each ray the interpolant is a
//    cubic in every cell it crosses, whose roots are the nodes (several per ray on concave
//    shapes);
//  - surface: nodes spread evenly over the zero iso-surface (farthest-point selection among
//    area-weighted candidates, each projected onto the zero level along the gradient), for
//    shapes that rays from one centre cannot cover (a torus, a hook);
//  - grid: rays parallel to the x, y and z axes through a square grid of cell centres
//    around a centre: a shape with mirror planes through the centre along the axes (a box,
//    an ellipsoid) gets a node set with the same mirror symmetry, so a flat face touching a
//    plane is not tilted by the sampling.
#include <openvdb/openvdb.h>

#include <cstddef>
#include <string>
#include <vector>

#include "levelset/shapes.h"

namespace scree::levelset {

enum class NodeMethod {
  automatic,  // rays when the centre is inside and every ray meets the surface once
  rays,
  surface,
  grid,
};
NodeMethod parse_node_method(const std::string& name);  // "auto", "rays", "surface", "grid"
std::string node_method_name(NodeMethod method);

// θ_i = arccos(−1 + (2i+1)/n), φ_i = i π (3 − √5): n nearly uniform unit vectors.
std::vector<Vec3d> spiral_directions(std::size_t n);

// The points where the trilinear interpolant of `phi` changes sign along the segment from
// `from` to `to` (world coordinates), in order.
std::vector<Vec3d> zero_crossings(const openvdb::FloatGrid& phi, const Vec3d& from, const Vec3d& to);

struct NodePlacement {
  std::vector<Vec3d> nodes;  // world coordinates of the grid
  NodeMethod method;         // the method used (never automatic)
};

// `count` rays (rays: at least `count` nodes), exactly `count` nodes (surface), or a grid
// spacing that gives about `count` nodes (grid: within 10 % on convex shapes).
NodePlacement place_nodes(const openvdb::FloatGrid& phi, const Vec3d& centre, std::size_t count,
                          NodeMethod method);

}  // namespace scree::levelset
