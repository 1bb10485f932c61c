#include "geometry/grain_shape.h"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <stdexcept>

namespace scree::geometry {

GrainShape GrainShape::sphere(double radius) {
  GrainShape s;
  s.sphere_radius = radius;
  s.volume = 4.0 / 3.0 * std::numbers::pi * radius * radius * radius;
  s.inertia_per_density = Eigen::Vector3d::Constant(0.4 * s.volume * radius * radius);
  s.bounding_radius = s.smallest_half_extent = radius;
  s.glue_distance = radius;
  return s;
}

GrainShape GrainShape::from_level_set(ShapeTemplate level_set, double volume, const Eigen::Vector3d& inertia_per_density) {
  if (level_set.nodes().empty()) throw std::invalid_argument("a grain template needs boundary nodes");
  GrainShape s;
  s.volume = volume;
  s.inertia_per_density = inertia_per_density;
  Eigen::Vector3f low = level_set.nodes()[0], high = low;
  double radius = 0, area_per_node;
  for (const Eigen::Vector3f& p : level_set.nodes()) {
    low = low.cwiseMin(p), high = high.cwiseMax(p);
    radius = std::max(radius, double(p.norm()));
  }
  s.bounding_radius = radius;
  s.smallest_half_extent = 0.5 * double((high - low).minCoeff());
  // Nodes cover the surface about evenly: a node's share of a sphere of the bounding radius
  // overestimates the spacing a little, which glues safely.
  area_per_node = 4 * std::numbers::pi * radius * radius / double(level_set.nodes().size());
  s.glue_distance = 2.5 * std::sqrt(area_per_node);
  s.glued_nodes = nodes_within(level_set.nodes(), s.glue_distance);
  s.level_set = std::move(level_set);
  return s;
}

}  // namespace scree::geometry
