#pragma once
// A stack of level-set boxes on a floor, for the tests of the step's phases shared among ranks.
#include <Eigen/Geometry>

#include <random>

#include "geometry/template_from_avatar.h"
#include "levelset/avatar_builder.h"
#include "levelset/shapes.h"
#include "solver/world.h"

namespace scree::solver {

// A stack of 8 × 6 × 4 level-set boxes (0.4 × 0.3 × 0.2 m) face to face, each 0.1 mm into its
// neighbours and the floor, turned and shifted a little at random, ids 1000, 1007, ….
inline World stack() {
  levelset::Resolution resolution;
  resolution.voxels = 16;
  formats::Shape shape = levelset::implicit_shape(levelset::make_box(levelset::Vec3d(0.2, 0.15, 0.1)), resolution);
  levelset::add_nodes(shape, 300, levelset::NodeMethod::grid);
  levelset::MassProperties mass;
  const formats::Avatar avatar = levelset::make_avatar(shape, mass);
  Eigen::Matrix3d to_body;
  for (int i = 0; i < 9; ++i) to_body(i / 3, i % 3) = avatar.properties.source_to_body[4 * (i / 3) + i % 3];
  World w;
  w.shapes.push_back(geometry::grain_shape_from_avatar(avatar));
  std::mt19937_64 random(5);
  std::uniform_real_distribution<double> unit(-1, 1);
  std::uint64_t id = 1000;
  for (int i = 0; i < 8; ++i)
    for (int j = 0; j < 6; ++j)
      for (int k = 0; k < 4; ++k, id += 7) {
        const Vec3 at(0.4 * i - 1e-4 * i + 5e-4 * unit(random), 0.3 * j - 1e-4 * j + 5e-4 * unit(random),
                      0.1 - 1e-4 + (0.2 - 1e-4) * k);
        const Quat turn(Eigen::AngleAxisd(0.01 * unit(random), Vec3(unit(random), unit(random), 1).normalized()));
        w.add_grain(id, 0, 0, 2650, 1, at, (turn * Quat(to_body.transpose())).normalized());
      }
  w.add_wall(Wall{});
  return w;
}

}  // namespace scree::solver
