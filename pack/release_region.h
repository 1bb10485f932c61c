#pragma once
// Where an assembly is built: a box, an upright cylinder, or a release area on the terrain
// (a polygon, a raster mask or a thickness raster) filled to a thickness above the ground.
// Light header: Eigen only.
#include <Eigen/Dense>

#include <array>
#include <functional>
#include <memory>
#include <random>
#include <string>

#include "geometry/terrain_field.h"

namespace scree::pack {

class ReleaseRegion {
 public:
  virtual ~ReleaseRegion() = default;
  virtual bool contains(const Eigen::Vector3d& p) const = 0;
  // A point drawn uniformly from the region.
  virtual Eigen::Vector3d draw(std::mt19937_64& rng) const = 0;
  virtual double volume() const = 0;  // m³
  virtual Eigen::AlignedBox3d bounds() const = 0;  // of the points it contains
  virtual std::string describe() const = 0;
};

std::unique_ptr<ReleaseRegion> box_region(const Eigen::Vector3d& low, const Eigen::Vector3d& high);
std::unique_ptr<ReleaseRegion> cylinder_region(const Eigen::Vector2d& centre, double radius, double z_low, double z_high);

// The columns above the ground where `thickness(x, y)` > 0 (simulation coordinates), from the
// ground up to the ground plus the thickness; `low`, `high` bound the area where the thickness
// may be positive. std::invalid_argument when no column has thickness over the terrain.
std::unique_ptr<ReleaseRegion> terrain_region(std::shared_ptr<const geometry::TerrainField> ground,
                                              std::function<double(double, double)> thickness,
                                              const Eigen::Vector2d& low, const Eigen::Vector2d& high,
                                              const std::string& description);

}  // namespace scree::pack
