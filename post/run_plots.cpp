#include "post/run_plots.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <set>

#include "formats/csv_log.h"
#include "formats/error.h"
#include "formats/terrain.h"
#include "post/grain_surfaces.h"
#include "post/ground_surface.h"
#include "post/run_frames.h"

namespace scree::post {

namespace fs = std::filesystem;

namespace {

// The energy terms of the solver's log: kinetic, the potential's change since the start, and
// every cumulative book (what restitution, friction, ... took, what walls gave).
LineChart energy_chart(const formats::CsvTable& log) {
  LineChart chart{"Energy", "time (s)", "energy (J)", {}};
  const std::vector<double> time = [&] {
    std::vector<double> t;
    for (const auto& row : log.rows) t.push_back(row[log.column("time")]);
    return t;
  }();
  for (const char* name : {"kinetic", "potential", "stored", "restitution", "friction", "resting", "damping", "wall_work"}) {
    std::size_t column = 0;
    try {
      column = log.column(name);
    } catch (const std::out_of_range&) {
      continue;
    }
    Series s{name, time, {}};
    for (const auto& row : log.rows) s.y.push_back(row[column] - (std::string(name) == "potential" ? log.rows.front()[column] : 0));
    if (std::string(name) == "potential") s.name = "potential change";
    if (std::string(name) != "kinetic" && std::string(name) != "potential" &&
        std::all_of(s.y.begin(), s.y.end(), [](double v) { return v == 0; }))
      continue;  // a book that never moved says nothing
    chart.series.push_back(std::move(s));
  }
  return chart;
}

// Frame indices for the snapshot times: the nearest frame to each, without repeats.
std::vector<std::size_t> snapshot_frames(const std::vector<formats::State>& frames, const std::vector<double>& times) {
  std::set<std::size_t> chosen;
  if (times.empty()) return {0, frames.size() - 1};
  for (const double t : times) {
    std::size_t best = 0;
    for (std::size_t f = 1; f < frames.size(); ++f)
      if (std::abs(frames[f].time - t) < std::abs(frames[best].time - t)) best = f;
    chosen.insert(best);
  }
  return {chosen.begin(), chosen.end()};
}

}  // namespace

std::vector<fs::path> write_run_plots(const formats::Case& c, const std::vector<formats::State>& frames,
                                      const std::vector<fs::path>& frame_files, const fs::path& folder,
                                      const RunPlotOptions& o) {
  std::optional<formats::CsvTable> log;
  if (fs::exists(c.output.log)) log = formats::read_csv_log(c.output.log);
  const RunoutReport report = measure_runout(c, frames, o.runout);
  std::optional<formats::Terrain> terrain;
  std::array<double, 3> offset{0, 0, 0};
  if (c.terrain) {
    terrain = formats::read_terrain(c.terrain->file);
    offset = terrain->origin_offset;
    check_georeference(frames, frame_files, {terrain->origin_offset, terrain->crs_wkt}, c.terrain->file);
  }
  const std::vector<std::size_t> snapshots = snapshot_frames(frames, o.snapshot_times);
  const std::size_t total = 4 + snapshots.size();
  std::size_t done = 0;
  auto step = [&] {
    if (o.progress) o.progress(++done, total);
  };

  std::error_code ec;
  fs::create_directories(folder, ec);
  if (!fs::is_directory(folder)) throw formats::FileError(folder, "cannot make this folder");
  std::vector<fs::path> written;
  if (log && !log->rows.empty()) {
    plot_lines(folder / "energy.png", energy_chart(*log), o.size);
    written.push_back(folder / "energy.png");
  }
  step();

  LineChart runout{"Runout", "time (s)", "runout of centres (m)", {{"runout", {}, {}}}};
  LineChart speeds{"Speeds", "time (s)", "speed (m/s)", {{"mean", {}, {}}, {"95th percentile", {}, {}}, {"largest", {}, {}}}};
  for (const FrameStatistics& f : report.over_time) {
    runout.series[0].x.push_back(f.time);
    runout.series[0].y.push_back(f.runout_of_centres);
    for (auto& s : speeds.series) s.x.push_back(f.time);
    speeds.series[0].y.push_back(f.speed_mean);
    speeds.series[1].y.push_back(f.speed_p95);
    speeds.series[2].y.push_back(f.speed_max);
  }
  char percentile[128];
  std::snprintf(percentile, sizeof percentile, "Runout (%gth percentile of centres from the source's rear)", report.percentile);
  runout.title = percentile;
  plot_lines(folder / "runout.png", runout, o.size);
  plot_lines(folder / "speeds.png", speeds, o.size);
  written.push_back(folder / "runout.png");
  written.push_back(folder / "speeds.png");
  step();
  step();

  // The deposit's thickness on its columns, averaged onto at most about 800 cells across.
  const DepositRaster& d = report.deposit;
  const std::size_t factor = std::max<std::size_t>(1, (std::max(d.grid.nx, d.grid.ny) + 799) / 800);
  MapImage map;
  map.nx = (d.grid.nx + factor - 1) / factor;
  map.ny = (d.grid.ny + factor - 1) / factor;
  map.cell = d.grid.spacing * double(factor);
  // Charts draw in single precision: map coordinates of millions of metres are shown from a
  // round corner (named in the axis titles) so that they keep their decimetres.
  const double x0 = d.grid.x0 - 0.5 * d.grid.spacing + 0.5 * map.cell + offset[0];
  const double y0 = d.grid.y0 - 0.5 * d.grid.spacing + 0.5 * map.cell + offset[1];
  auto round_corner = [](double v) { return std::abs(v) > 1e4 ? std::floor(v / 100) * 100 : 0.0; };
  const double east = round_corner(x0), north = round_corner(y0);
  map.x0 = x0 - east;
  map.y0 = y0 - north;
  map.values.assign(map.nx * map.ny, 0.0);
  for (std::size_t j = 0; j < d.grid.ny; ++j)
    for (std::size_t i = 0; i < d.grid.nx; ++i)
      map.values[(j / factor) * map.nx + i / factor] += d.thickness[j * d.grid.nx + i] / double(factor * factor);
  char title[96];
  std::snprintf(title, sizeof title, "Deposit at t = %.3g s", report.last_time);
  map.title = title;
  auto axis_title = [](const char* name, double corner) {
    char text[96];
    if (corner != 0) std::snprintf(text, sizeof text, "%s − %.0f (m)", name, corner);
    else std::snprintf(text, sizeof text, "%s (m)", name);
    return std::string(text);
  };
  map.x_label = axis_title(terrain ? "easting" : "x", east);
  map.y_label = axis_title(terrain ? "northing" : "y", north);
  map.value_label = "thickness (m)";
  plot_map(folder / "deposit.png", map, o.size);
  written.push_back(folder / "deposit.png");
  step();

  // Snapshots: one camera for all, framing every frame's grains.
  Scene scene;
  std::array<double, 6> box{INFINITY, -INFINITY, INFINITY, -INFINITY, INFINITY, -INFINITY};
  const std::vector<formats::TriangleSurface> shapes = template_surfaces(c, o.triangles);
  double largest_speed = 0, largest_scale = 0, reach = 0;
  for (const auto& shape : shapes)
    for (const auto& p : shape.points) reach = std::max(reach, std::hypot(p[0], p[1], p[2]));
  for (const formats::State& s : frames)
    for (std::size_t i = 0; i < s.bodies.size(); ++i) {
      for (int a = 0; a < 3; ++a) {
        box[2 * a] = std::min(box[2 * a], s.bodies.position[i][a]);
        box[2 * a + 1] = std::max(box[2 * a + 1], s.bodies.position[i][a]);
      }
      const auto& v = s.bodies.velocity[i];
      largest_speed = std::max(largest_speed, std::hypot(v[0], v[1], v[2]));
      largest_scale = std::max(largest_scale, s.bodies.scale[i]);
    }
  for (const FrameStatistics& f : report.over_time) largest_speed = std::max(largest_speed, f.speed_max);
  // Room around the grains: a sixth of their spread, and at least five grain sizes.
  const double margin = std::max(0.15 * std::max(box[1] - box[0], box[3] - box[2]), 5 * reach * largest_scale);
  for (int a = 0; a < 3; ++a) box[2 * a] -= margin, box[2 * a + 1] += margin;
  scene.focus = box;
  scene.largest_speed = largest_speed;
  if (terrain) scene.ground = ground_surface(*terrain);
  for (const std::size_t f : snapshots) {
    scene.grains = grain_surfaces(frames[f].bodies, shapes);
    char caption[64];
    std::snprintf(caption, sizeof caption, "t = %.3f s", frames[f].time);
    scene.caption = caption;
    const std::string stem = frame_files[f].stem().string();  // frame_NNNNNN
    const fs::path png = folder / ("snapshot_" + stem.substr(stem.find('_') + 1) + ".png");
    render_scene(png, scene, o.size);
    written.push_back(png);
    step();
  }
  return written;
}

}  // namespace scree::post
