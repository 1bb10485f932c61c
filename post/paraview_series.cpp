#include "post/paraview_series.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <sstream>

#include "formats/error.h"
#include "formats/state.h"
#include "formats/terrain.h"
#include "formats/vtk_file.h"
#include "post/grain_surfaces.h"
#include "post/ground_surface.h"
#include "post/net_lines.h"
#include "post/run_frames.h"
#include "post/wall_surfaces.h"

namespace scree::post {

namespace fs = std::filesystem;

namespace {

std::string numbered(const char* stem, std::size_t n) {
  char name[64];
  std::snprintf(name, sizeof name, "%s_%06zu.vtp", stem, n);
  return name;
}

}  // namespace

SeriesReport write_paraview_series(const formats::Case& c, const std::vector<fs::path>& frames, const fs::path& directory,
                                   const SeriesOptions& options) {
  const std::vector<formats::State> states = read_frames(c, frames);
  std::optional<formats::Terrain> terrain;
  if (c.terrain) {
    terrain = formats::read_terrain(c.terrain->file);
    check_georeference(states, frames, {terrain->origin_offset, terrain->crs_wkt}, c.terrain->file);
  }
  const std::vector<formats::TriangleSurface> shapes = template_surfaces(c, options.triangles);
  SeriesReport report;
  for (const auto& shape : shapes) report.template_triangles.push_back(shape.triangles.size());
  // Plane walls are drawn over where the grains go: the box of every frame's centres.
  std::array<double, 3> lo{}, hi{};
  lo.fill(std::numeric_limits<double>::max());
  hi.fill(std::numeric_limits<double>::lowest());
  for (const auto& s : states)
    for (const auto& p : s.bodies.position)
      for (int a = 0; a < 3; ++a) lo[a] = std::min(lo[a], p[a]), hi[a] = std::max(hi[a], p[a]);
  std::array<double, 3> centre{};
  double size = 1;
  if (lo[0] <= hi[0]) {
    for (int a = 0; a < 3; ++a) centre[a] = 0.5 * (lo[a] + hi[a]);
    size = std::max(size, 1.5 * std::hypot(hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2]));
  }

  std::error_code ec;
  fs::create_directories(directory, ec);
  if (!fs::is_directory(directory)) throw formats::FileError(directory, "cannot make this folder");
  std::vector<formats::SeriesEntry> grains, walls, nets;
  const bool with_nets = std::any_of(states.begin(), states.end(), [](const formats::State& s) { return !s.membranes.empty(); });
  for (std::size_t n = 0; n < states.size(); ++n) {
    const formats::State& s = states[n];
    grains.push_back({s.time, numbered("grains", n)});
    formats::write_vtp(directory / grains.back().file, grain_surfaces(s.bodies, shapes));
    if (!c.walls.empty()) {
      walls.push_back({s.time, numbered("walls", n)});
      formats::write_vtp(directory / walls.back().file, wall_surfaces(c.walls, s.time, centre, size));
    }
    if (with_nets) {
      nets.push_back({s.time, numbered("nets", n)});
      formats::write_vtp(directory / nets.back().file, net_lines(s.membranes));
    }
    if (options.progress) options.progress(n + 1, states.size());
  }
  formats::write_pvd(directory / "grains.pvd", grains);
  if (!walls.empty()) formats::write_pvd(directory / "walls.pvd", walls);
  if (!nets.empty()) formats::write_pvd(directory / "nets.pvd", nets);
  if (terrain) formats::write_vtp(directory / "terrain.vtp", ground_surface(*terrain));

  report.frames = states.size();
  report.grains = states.back().bodies.size();
  report.walls = !c.walls.empty();
  report.nets = with_nets;
  report.terrain = c.terrain.has_value();
  report.first_time = states.front().time;
  report.last_time = states.back().time;
  return report;
}

std::string describe(const fs::path& directory, const SeriesReport& r) {
  std::ostringstream s;
  s << directory.string() << ": " << r.frames << " frames from t = " << r.first_time << " to " << r.last_time << " s, "
    << r.grains << (r.grains == 1 ? " grain" : " grains") << " in the last frame\n  grains      grains.pvd (triangles per template:";
  for (const std::size_t t : r.template_triangles) s << " " << t;
  s << ")\n";
  if (r.walls) s << "  walls       walls.pvd\n";
  if (r.nets) s << "  nets        nets.pvd\n";
  if (r.terrain) s << "  terrain     terrain.vtp\n";
  return s.str();
}

}  // namespace scree::post
