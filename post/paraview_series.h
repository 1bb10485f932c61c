#pragma once
// A run's frames as a ParaView time series: what scree-vtk writes.
#include <cstddef>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "formats/case.h"

namespace scree::post {

struct SeriesOptions {
  std::size_t triangles = 1000;  // per grain template, at most (see decimate)
  std::function<void(std::size_t done, std::size_t total)> progress;
};

struct SeriesReport {
  std::size_t frames = 0, grains = 0;  // grains in the last frame
  std::vector<std::size_t> template_triangles;
  bool walls = false, nets = false, terrain = false;
  double first_time = 0, last_time = 0;
};

// Reads every frame first (read_frames: FileError naming the first bad one), then writes
// into `directory` (made if missing): grains_NNNNNN.vtp per frame and grains.pvd; with walls,
// walls_NNNNNN.vtp and walls.pvd; with nets in any frame, nets_NNNNNN.vtp and nets.pvd; with
// a terrain, terrain.vtp (once).
SeriesReport write_paraview_series(const formats::Case& c, const std::vector<std::filesystem::path>& frames,
                                   const std::filesystem::path& directory, const SeriesOptions& options);

// What scree-vtk prints: a few lines.
std::string describe(const std::filesystem::path& directory, const SeriesReport& report);

}  // namespace scree::post
