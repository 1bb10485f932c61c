#include "post/grain_surfaces.h"

#include <array>
#include <cmath>
#include <map>
#include <stdexcept>

#include <Eigen/Geometry>

#include "formats/avatar.h"
#include "post/decimate.h"
#include "post/zero_surface.h"

namespace scree::post {

formats::TriangleSurface sphere_surface(double radius, int levels) {
  const double g = (1 + std::sqrt(5.0)) / 2;
  std::vector<Eigen::Vector3d> points{{-1, g, 0}, {1, g, 0},  {-1, -g, 0}, {1, -g, 0}, {0, -1, g},  {0, 1, g},
                                      {0, -1, -g}, {0, 1, -g}, {g, 0, -1},  {g, 0, 1},  {-g, 0, -1}, {-g, 0, 1}};
  std::vector<std::array<std::uint32_t, 3>> triangles{
      {0, 11, 5}, {0, 5, 1},  {0, 1, 7},   {0, 7, 10}, {0, 10, 11}, {1, 5, 9}, {5, 11, 4}, {11, 10, 2}, {10, 7, 6}, {7, 1, 8},
      {3, 9, 4},  {3, 4, 2},  {3, 2, 6},   {3, 6, 8},  {3, 8, 9},   {4, 9, 5}, {2, 4, 11}, {6, 2, 10},  {8, 6, 7},  {9, 8, 1}};
  for (auto& p : points) p.normalize();
  for (int level = 0; level < levels; ++level) {
    std::map<std::pair<std::uint32_t, std::uint32_t>, std::uint32_t> middle;
    auto split = [&](std::uint32_t a, std::uint32_t b) {
      const auto edge = std::minmax(a, b);
      auto [it, fresh] = middle.try_emplace({edge.first, edge.second}, std::uint32_t(points.size()));
      if (fresh) points.push_back((points[a] + points[b]).normalized());
      return it->second;
    };
    std::vector<std::array<std::uint32_t, 3>> finer;
    for (const auto& [a, b, c] : triangles) {
      const std::uint32_t ab = split(a, b), bc = split(b, c), ca = split(c, a);
      finer.insert(finer.end(), {{a, ab, ca}, {b, bc, ab}, {c, ca, bc}, {ab, bc, ca}});
    }
    triangles = std::move(finer);
  }
  formats::TriangleSurface s;
  for (const auto& p : points) s.points.push_back({radius * p.x(), radius * p.y(), radius * p.z()});
  s.triangles = std::move(triangles);
  return s;
}

int sphere_levels(std::size_t triangles) {
  int levels = 0;
  for (std::size_t next = 80; next <= triangles; next *= 4) ++levels;
  return levels;
}

formats::TriangleSurface grain_surfaces(const formats::Bodies& bodies,
                                        const std::vector<formats::TriangleSurface>& templates) {
  using formats::ValueType;
  formats::TriangleSurface out;
  formats::DataArray velocity{"velocity", 3, {}, ValueType::float32, {}}, speed{"speed", 1, {}, ValueType::float32, {}},
      angular{"angular_velocity", 3, {}, ValueType::float32, {}};
  formats::DataArray id{"id", 1, {}, ValueType::int64, {}}, template_index{"template", 1, {}, ValueType::int64, {}};
  for (std::size_t b = 0; b < bodies.size(); ++b) {
    if (bodies.template_index[b] >= templates.size())
      throw std::invalid_argument("grain " + std::to_string(bodies.id[b]) + " names template " +
                                  std::to_string(bodies.template_index[b]) + " of " + std::to_string(templates.size()));
    const formats::TriangleSurface& shape = templates[bodies.template_index[b]];
    const auto& q = bodies.orientation[b];
    const Eigen::Matrix3d rotation = Eigen::Quaterniond(q[0], q[1], q[2], q[3]).normalized().toRotationMatrix();
    const Eigen::Vector3d centre(bodies.position[b].data()), v(bodies.velocity[b].data()),
        w(bodies.angular_velocity[b].data());
    const auto first = std::uint32_t(out.points.size());
    for (const auto& p : shape.points) {
      const Eigen::Vector3d r = rotation * (bodies.scale[b] * Eigen::Vector3d(p.data()));
      const Eigen::Vector3d x = centre + r, u = v + w.cross(r);
      out.points.push_back({x.x(), x.y(), x.z()});
      velocity.values.insert(velocity.values.end(), {u.x(), u.y(), u.z()});
      speed.values.push_back(u.norm());
      angular.values.insert(angular.values.end(), {w.x(), w.y(), w.z()});
    }
    for (const auto& t : shape.triangles) {
      out.triangles.push_back({first + t[0], first + t[1], first + t[2]});
      id.integers.push_back(std::int64_t(bodies.id[b]));
      template_index.integers.push_back(bodies.template_index[b]);
    }
  }
  out.point_data = {std::move(velocity), std::move(speed), std::move(angular)};
  out.cell_data = {std::move(id), std::move(template_index)};
  return out;
}

std::vector<formats::TriangleSurface> template_surfaces(const formats::Case& c, std::size_t triangles) {
  std::vector<formats::TriangleSurface> shapes;
  for (const auto& t : c.templates)
    shapes.push_back(t.sphere_radius ? sphere_surface(*t.sphere_radius, sphere_levels(triangles))
                                     : decimate(zero_surface(*formats::read_avatar(t.file).phi, 0), triangles));
  return shapes;
}

}  // namespace scree::post
