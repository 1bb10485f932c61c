#pragma once
// Seed 004 Table 1 (radii in cm) and Table 2 (volume in cm³, I/ρ in cm⁵), shape E with I_xx
// and I_yy swapped back (seed digest, error 4).
#include <string>

#include "levelset/shapes.h"

namespace scree::testing {

struct TableSuperellipsoid {
  std::string name;
  levelset::Vec3d radii;
  double eps_e, eps_n;
  double volume;
  levelset::Vec3d inertia_per_density;
};

inline const TableSuperellipsoid table_superellipsoids[] = {
    {"A", {0.58, 1, 0.83}, 0.1, 0.5, 3.353, {1.649, 0.9751, 1.358}},
    {"B", {0.42, 1, 0.83}, 0.1, 1, 1.852, {0.7456, 0.3417, 0.5770}},
    {"C", {0.42, 1, 0.83}, 1, 0.5, 1.914, {0.7996, 0.4389, 0.5153}},
    {"D", {0.5, 0.7, 1}, 1.4, 1.2, 1.093, {0.2773, 0.2350, 0.1304}},
    {"E", {0.4, 1, 0.8}, 0.4, 1.6, 1.086, {0.3184, 0.1284, 0.2625}},
};

inline std::string shape_name(const ::testing::TestParamInfo<TableSuperellipsoid>& info) {
  return info.param.name;
}

}  // namespace scree::testing
