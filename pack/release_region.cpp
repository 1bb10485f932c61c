#include "pack/release_region.h"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <sstream>
#include <stdexcept>

namespace scree::pack {

namespace {

std::string text(double v) {
  std::ostringstream s;
  s.precision(6);
  s << v;
  return s.str();
}

class BoxRegion : public ReleaseRegion {
 public:
  BoxRegion(const Eigen::Vector3d& low, const Eigen::Vector3d& high) : low_(low), high_(high) {
    if (!((high - low).array() > 0).all()) throw std::invalid_argument("the box's upper corner must lie above its lower one on every axis");
  }
  bool contains(const Eigen::Vector3d& p) const override { return (p.array() >= low_.array()).all() && (p.array() <= high_.array()).all(); }
  Eigen::Vector3d draw(std::mt19937_64& rng) const override {
    Eigen::Vector3d p;
    for (int a = 0; a < 3; ++a) p[a] = std::uniform_real_distribution<double>(low_[a], high_[a])(rng);
    return p;
  }
  double volume() const override { return (high_ - low_).prod(); }
  Eigen::AlignedBox3d bounds() const override { return {low_, high_}; }
  std::string describe() const override {
    return "box " + text(high_.x() - low_.x()) + " × " + text(high_.y() - low_.y()) + " × " + text(high_.z() - low_.z()) + " m";
  }

 private:
  Eigen::Vector3d low_, high_;
};

class CylinderRegion : public ReleaseRegion {
 public:
  CylinderRegion(const Eigen::Vector2d& centre, double radius, double z_low, double z_high)
      : centre_(centre), radius_(radius), z_low_(z_low), z_high_(z_high) {
    if (!(radius > 0) || !(z_high > z_low)) throw std::invalid_argument("the cylinder needs a radius > 0 and a top above its base");
  }
  bool contains(const Eigen::Vector3d& p) const override {
    return (p.head<2>() - centre_).squaredNorm() <= radius_ * radius_ && p.z() >= z_low_ && p.z() <= z_high_;
  }
  Eigen::Vector3d draw(std::mt19937_64& rng) const override {
    std::uniform_real_distribution<double> unit(0, 1);
    const double r = radius_ * std::sqrt(unit(rng)), a = 2 * std::numbers::pi * unit(rng);
    return {centre_.x() + r * std::cos(a), centre_.y() + r * std::sin(a), z_low_ + (z_high_ - z_low_) * unit(rng)};
  }
  double volume() const override { return std::numbers::pi * radius_ * radius_ * (z_high_ - z_low_); }
  Eigen::AlignedBox3d bounds() const override {
    return {Eigen::Vector3d(centre_.x() - radius_, centre_.y() - radius_, z_low_),
            Eigen::Vector3d(centre_.x() + radius_, centre_.y() + radius_, z_high_)};
  }
  std::string describe() const override { return "cylinder of radius " + text(radius_) + " m, " + text(z_high_ - z_low_) + " m high"; }

 private:
  Eigen::Vector2d centre_;
  double radius_, z_low_, z_high_;
};

class TerrainRegion : public ReleaseRegion {
 public:
  TerrainRegion(std::shared_ptr<const geometry::TerrainField> ground, std::function<double(double, double)> thickness,
                const Eigen::Vector2d& low, const Eigen::Vector2d& high, std::string description)
      : ground_(std::move(ground)), thickness_(std::move(thickness)), low_(low), high_(high),
        description_(std::move(description)) {
    // The volume, the thickest column and the bounds, on a 400 × 400 grid over the area
    // (bounds to its cells' edges).
    constexpr int n = 400;
    const Eigen::Vector2d cell = (high_ - low_) / n;
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < n; ++i) {
        const double x = low_.x() + (i + 0.5) * cell.x(), y = low_.y() + (j + 0.5) * cell.y();
        const double t = thickness_(x, y);
        const auto g = t > 0 ? ground_->ground_height(x, y) : std::nullopt;
        if (!g) continue;
        volume_ += t * cell.prod();
        thickest_ = std::max(thickest_, t);
        bounds_.extend(Eigen::Vector3d(x - 0.5 * cell.x(), y - 0.5 * cell.y(), *g));
        bounds_.extend(Eigen::Vector3d(x + 0.5 * cell.x(), y + 0.5 * cell.y(), *g + t));
      }
    if (!(volume_ > 0)) throw std::invalid_argument("the release area has no thickness over the terrain");
  }
  bool contains(const Eigen::Vector3d& p) const override {
    const double t = thickness_(p.x(), p.y());
    if (!(t > 0)) return false;
    const auto g = ground_->ground_height(p.x(), p.y());
    return g && p.z() >= *g && p.z() <= *g + t;
  }
  Eigen::Vector3d draw(std::mt19937_64& rng) const override {
    std::uniform_real_distribution<double> unit(0, 1);
    for (;;) {  // uniform in the box of the area times the thickest column, kept where inside
      const double x = low_.x() + unit(rng) * (high_.x() - low_.x()), y = low_.y() + unit(rng) * (high_.y() - low_.y());
      const double h = unit(rng) * thickest_;
      const double t = thickness_(x, y);
      if (!(t > 0) || h > t) continue;
      if (const auto g = ground_->ground_height(x, y)) return {x, y, *g + h};
    }
  }
  double volume() const override { return volume_; }
  Eigen::AlignedBox3d bounds() const override { return bounds_; }
  std::string describe() const override { return description_ + ", " + text(volume_) + " m³, up to " + text(thickest_) + " m thick"; }

 private:
  std::shared_ptr<const geometry::TerrainField> ground_;
  std::function<double(double, double)> thickness_;
  Eigen::Vector2d low_, high_;
  std::string description_;
  double volume_ = 0, thickest_ = 0;
  Eigen::AlignedBox3d bounds_;  // empty until extended
};

}  // namespace

std::unique_ptr<ReleaseRegion> box_region(const Eigen::Vector3d& low, const Eigen::Vector3d& high) {
  return std::make_unique<BoxRegion>(low, high);
}

std::unique_ptr<ReleaseRegion> cylinder_region(const Eigen::Vector2d& centre, double radius, double z_low, double z_high) {
  return std::make_unique<CylinderRegion>(centre, radius, z_low, z_high);
}

std::unique_ptr<ReleaseRegion> terrain_region(std::shared_ptr<const geometry::TerrainField> ground,
                                              std::function<double(double, double)> thickness, const Eigen::Vector2d& low,
                                              const Eigen::Vector2d& high, const std::string& description) {
  return std::make_unique<TerrainRegion>(std::move(ground), std::move(thickness), low, high, description);
}

}  // namespace scree::pack
