#pragma once
// Pictures as PNG through VTK's charts and renderer, drawn off screen: line charts, maps and
// scenes of grains on the ground. Rendering needs an X display (scree-plot starts one under
// xvfb-run when there is none). Light header: no VTK.
#include <array>
#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "formats/vtk_file.h"

namespace scree::post {

struct ImageSize {
  int width = 1200, height = 800;  // pixels
};

struct Series {
  std::string name;
  std::vector<double> x, y;
};

struct LineChart {
  std::string title, x_label, y_label;
  std::vector<Series> series;
  bool legend_bottom_right = false;  // top right otherwise; a rising curve keeps clear of it
};

// Atomic, as every writer here. FileError naming the file when it cannot be written.
void plot_lines(const std::filesystem::path& png, const LineChart& chart, ImageSize size);

// Values on a regular grid, column (i, j) centred at (x0 + cell·i, y0 + cell·j), row by row.
struct MapImage {
  std::size_t nx = 0, ny = 0;
  double x0 = 0, y0 = 0, cell = 1;
  std::vector<double> values;
  std::string title, x_label, y_label, value_label;
};

// The map keeps its aspect: the image's height follows from `size.width`.
void plot_map(const std::filesystem::path& png, const MapImage& map, ImageSize size);

struct Scene {
  std::optional<formats::TriangleSurface> ground;  // coloured by its point data `elevation`
  formats::TriangleSurface grains;                 // coloured by its point data `speed`
  double largest_speed = 1;                        // m/s, the colour scale's top
  std::array<double, 6> focus{};  // x_min, x_max, y_min, y_max, z_min, z_max: what the camera frames
  std::string caption;
};

// Looked at from the south-west, 40° above the horizon, lit, with a speed scale.
void render_scene(const std::filesystem::path& png, const Scene& scene, ImageSize size);

}  // namespace scree::post
