#include "post/grain_columns.h"

#include <algorithm>
#include <cmath>

namespace scree::post {

namespace {

Chord sphere_chord(double radius, const Eigen::Vector3d& centre, double x, double y) {
  const double d2 = (x - centre.x()) * (x - centre.x()) + (y - centre.y()) * (y - centre.y());
  Chord c;
  if (d2 >= radius * radius) return c;
  const double half = std::sqrt(radius * radius - d2);
  c.length = 2 * half;
  c.top = centre.z() + half;
  c.bottom = centre.z() - half;
  return c;
}

}  // namespace

Chord vertical_chord(const PlacedGrain& g, double x, double y) {
  const geometry::GrainShape& shape = *g.shape;
  if (!shape.level_set) return sphere_chord(shape.sphere_radius * g.scale, g.position, x, y);
  const double reach = g.reach();
  const double dx = x - g.position.x(), dy = y - g.position.y();
  if (dx * dx + dy * dy >= reach * reach) return {};

  const geometry::ShapeTemplate& phi = *shape.level_set;
  const double min_step = 0.25 * phi.voxel_size() * g.scale;
  const Eigen::Matrix3d to_body = g.orientation.conjugate().toRotationMatrix() / g.scale;
  // φ of the placed grain at height z on the line, world metres.
  auto value = [&](double z) { return g.scale * phi.value(to_body * Eigen::Vector3d(dx, dy, z - g.position.z())); };

  Chord c;
  const double z_end = g.position.z() - reach - min_step;
  double z = g.position.z() + reach + min_step;
  double v = value(z);
  while (z > z_end) {
    const double step = std::max(std::abs(v), min_step);
    const double z_next = std::max(z - step, z_end);
    const double v_next = value(z_next);
    if ((v > 0) != (v_next > 0)) {
      const double crossing = z + (z_next - z) * v / (v - v_next);
      if (v > 0) {  // entering the solid going down
        c.top = std::max(c.top, crossing);
        c.length += crossing;  // less the exit's height: the inside run's length
      } else {
        c.bottom = std::min(c.bottom, crossing);
        c.length -= crossing;
      }
    }
    z = z_next;
    v = v_next;
  }
  if (v <= 0) {  // never left the solid (the grain sticks out of its own box): close the run
    c.bottom = std::min(c.bottom, z);
    c.length -= z;
  }
  if (!(c.length > 0)) return {};
  return c;
}

}  // namespace scree::post
