#pragma once
// Vertical lines through grains: how much of a column of the ground's map a grain fills, and
// where. A deposit map is these columns summed over grains. Light header: Eigen only.
#include <Eigen/Geometry>

#include <limits>

#include "geometry/grain_shape.h"

namespace scree::post {

// The grain's solid along the vertical line through (x, y): its length, and its highest and
// lowest points (±infinity when the line misses the grain).
struct Chord {
  double length = 0;  // m
  double top = -std::numeric_limits<double>::infinity();
  double bottom = std::numeric_limits<double>::infinity();
  bool hit() const { return length > 0; }
};

struct PlacedGrain {
  const geometry::GrainShape* shape = nullptr;
  double scale = 1;
  Eigen::Vector3d position = Eigen::Vector3d::Zero();  // centroid, world, m
  Eigen::Quaterniond orientation = Eigen::Quaterniond::Identity();  // body to world

  double reach() const { return shape->bounding_radius * scale; }  // horizontal, from the centroid
  double volume() const { return shape->volume * scale * scale * scale; }
};

// Exact for spheres. For level-set grains, the line is marched by the level set's own
// distance (never less than a quarter voxel a step), and every crossing of the zero is
// placed by linear interpolation between the samples either side: errors of order
// (voxel / 4)² over the grain's curvature radius.
Chord vertical_chord(const PlacedGrain& grain, double x, double y);

}  // namespace scree::post
