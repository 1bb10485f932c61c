#pragma once
// What a grain is, apart from where it is and how it moves: a level-set template or an
// analytic sphere, with the sizes the solver, the packer and the post-processing read off it.
#include <Eigen/Dense>

#include <optional>

#include "geometry/node_graph.h"
#include "geometry/shape_template.h"

namespace scree::geometry {

// A grain shape as the world uses it: a level-set template, or an analytic sphere.
struct GrainShape {
  std::optional<ShapeTemplate> level_set;  // none: a sphere of `sphere_radius`
  double sphere_radius = 0;
  double volume = 0;                  // m³ at scale 1
  Eigen::Vector3d inertia_per_density = Eigen::Vector3d::Zero();  // principal I/ρ, body axes, m⁵
  double bounding_radius = 0;         // about the centroid, m
  double smallest_half_extent = 0;    // half the thinnest width along a principal axis, m
  double glue_distance = 0;           // contact nodes closer than this form one contact, m
  NodeGraph glued_nodes;              // the level set's nodes within the glue distance of each other

  static GrainShape sphere(double radius);
  // Extents and glue distance (2.5 node spacings) from the nodes.
  static GrainShape from_level_set(ShapeTemplate level_set, double volume, const Eigen::Vector3d& inertia_per_density);
};

}  // namespace scree::geometry
