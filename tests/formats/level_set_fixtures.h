#pragma once
// Small level sets for format tests, made with OpenVDB's own tools.
#include <openvdb/tools/LevelSetSphere.h>

#include <cmath>
#include <numbers>

#include "formats/avatar.h"

namespace scree::testing {

// A sphere avatar: radius r, voxel size h, with n spiral nodes on its surface and the
// closed-form mass properties.
inline formats::Avatar sphere_avatar(double r = 0.5, double h = 0.05, int n = 700) {
  formats::Avatar a;
  a.phi = openvdb::tools::createLevelSetSphere<openvdb::FloatGrid>(float(r), openvdb::Vec3f(0),
                                                                   float(h), 3.0f);
  for (int i = 0; i < n; ++i) {
    double theta = std::acos(-1.0 + (2.0 * i + 1.0) / n);
    double phi = i * std::numbers::pi * (3.0 - std::sqrt(5.0));
    a.nodes.push_back({float(r * std::sin(theta) * std::cos(phi)),
                       float(r * std::sin(theta) * std::sin(phi)), float(r * std::cos(theta))});
  }
  double volume = 4.0 / 3.0 * std::numbers::pi * r * r * r;
  double inertia = 0.4 * volume * r * r;
  a.properties.volume = volume;
  a.properties.inertia_per_density = {inertia, inertia, inertia};
  a.properties.source_to_body = {1e-3, 0, 0, -0.25, 0, 1e-3, 0, 0.5, 0, 0, 1e-3, 1.0 / 3.0,
                                 0, 0, 0, 1};
  a.properties.provenance = "test sphere r=0.5 m, mm source";
  return a;
}

}  // namespace scree::testing
