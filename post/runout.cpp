#include "post/runout.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <iomanip>
#include <numbers>
#include <numeric>
#include <sstream>
#include <stdexcept>

#include "formats/atomic_file.h"
#include "formats/csv_log.h"
#include "formats/error.h"
#include "geometry/template_from_avatar.h"
#include "geometry/terrain_field.h"

namespace scree::post {

namespace fs = std::filesystem;
using Eigen::Vector2d;
using Eigen::Vector3d;

std::vector<PlacedGrain> placed_grains(const formats::Bodies& b, const std::vector<geometry::GrainShape>& shapes) {
  std::vector<PlacedGrain> grains(b.size());
  for (std::size_t i = 0; i < b.size(); ++i) {
    const auto& q = b.orientation[i];
    grains[i] = {&shapes[b.template_index[i]], b.scale[i], Vector3d(b.position[i][0], b.position[i][1], b.position[i][2]),
                 Eigen::Quaterniond(q[0], q[1], q[2], q[3]).normalized()};
  }
  return grains;
}

namespace {

// Weight along an axis, each column spread evenly over its width there: the quantile of a
// fraction of the total weight, between bin edges by linear interpolation.
class Profile {
 public:
  Profile(const DepositRaster& r, const std::function<double(double, double)>& coordinate, double width) : width_(width) {
    const ColumnGrid& g = r.grid;
    double lo = INFINITY, hi = -INFINITY;
    for (std::size_t j = 0; j < g.ny; ++j)
      for (std::size_t i = 0; i < g.nx; ++i)
        if (r.covered(j * g.nx + i)) {
          const double s = coordinate(g.x(i), g.y(j));
          lo = std::min(lo, s), hi = std::max(hi, s);
        }
    if (!(lo <= hi)) return;
    bin_ = width / 4;
    start_ = lo - width;
    weight_.assign(std::size_t((hi - lo + 2 * width) / bin_) + 2, 0.0);
    for (std::size_t j = 0; j < g.ny; ++j)
      for (std::size_t i = 0; i < g.nx; ++i) {
        const std::size_t k = j * g.nx + i;
        if (r.covered(k)) add(coordinate(g.x(i), g.y(j)), r.thickness[k]);
      }
    total_ = std::accumulate(weight_.begin(), weight_.end(), 0.0);
  }

  // The coordinate below which `fraction` of the weight lies.
  double quantile(double fraction) const {
    const double target = fraction * total_;
    double below = 0;
    for (std::size_t b = 0; b < weight_.size(); ++b) {
      if (weight_[b] > 0 && below + weight_[b] >= target) {
        const double into = std::clamp((target - below) / weight_[b], 0.0, 1.0);
        return start_ + bin_ * (double(b) + into);
      }
      below += weight_[b];
    }
    return start_ + bin_ * double(weight_.size());
  }

 private:
  void add(double s, double w) {
    const double a = (s - 0.5 * width_ - start_) / bin_, b = (s + 0.5 * width_ - start_) / bin_;
    const double density = w / (b - a);
    for (auto k = std::size_t(std::floor(a)); double(k) < b; ++k)
      weight_[k] += density * (std::min(b, double(k + 1)) - std::max(a, double(k)));
  }
  double width_, bin_ = 1, start_ = 0, total_ = 0;
  std::vector<double> weight_;
};

// Weighted quantile of points: the smallest value with at least `fraction` of the weight at
// or below it.
double point_quantile(std::vector<std::pair<double, double>> values, double fraction) {
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  double total = 0;
  for (const auto& [v, w] : values) total += w;
  double below = 0;
  for (const auto& [v, w] : values) {
    below += w;
    if (below >= fraction * total * (1 - 1e-12)) return v;
  }
  return values.back().first;
}

double mass_of(const PlacedGrain& g, double density) { return density * g.volume(); }

std::vector<double> template_densities(const formats::Case& c) {
  std::vector<double> d;
  for (const auto& t : c.templates) d.push_back(c.material(t.material).density.value_or(1.0));
  return d;
}

FrameStatistics frame_statistics(const formats::State& s, const std::vector<PlacedGrain>& grains,
                                 const std::vector<double>& density) {
  FrameStatistics f;
  f.time = s.time;
  f.grains = grains.size();
  double mass = 0;
  Vector3d moment = Vector3d::Zero();
  std::vector<double> speeds;
  for (std::size_t i = 0; i < grains.size(); ++i) {
    const PlacedGrain& g = grains[i];
    const double m = mass_of(g, density[s.bodies.template_index[i]]);
    mass += m;
    moment += m * g.position;
    const Vector3d v(s.bodies.velocity[i][0], s.bodies.velocity[i][1], s.bodies.velocity[i][2]);
    const Vector3d w(s.bodies.angular_velocity[i][0], s.bodies.angular_velocity[i][1], s.bodies.angular_velocity[i][2]);
    speeds.push_back(v.norm());
    f.kinetic_translational += 0.5 * m * v.squaredNorm();
    // Principal inertia scales with density and the fifth power of the scale.
    const Vector3d inertia = density[s.bodies.template_index[i]] * std::pow(g.scale, 5) * g.shape->inertia_per_density;
    const Vector3d w_body = g.orientation.conjugate() * w;
    f.kinetic_rotational += 0.5 * (inertia.array() * w_body.array().square()).sum();
  }
  if (!grains.empty()) {
    const Vector3d c = moment / mass;
    f.centre_of_mass = {c.x(), c.y(), c.z()};
    std::sort(speeds.begin(), speeds.end());
    f.speed_mean = std::accumulate(speeds.begin(), speeds.end(), 0.0) / double(speeds.size());
    auto pick = [&](double q) { return speeds[std::size_t(std::ceil(q * double(speeds.size()))) - 1]; };
    f.speed_median = pick(0.5);
    f.speed_p95 = pick(0.95);
    f.speed_max = speeds.back();
  }
  return f;
}

// Centres along the direction of travel, each weighted by its grain's mass.
std::vector<std::pair<double, double>> centres_along(const formats::State& s, const std::vector<PlacedGrain>& grains,
                                                     const std::vector<double>& density, const Vector2d& d) {
  std::vector<std::pair<double, double>> along;
  for (std::size_t i = 0; i < grains.size(); ++i)
    along.emplace_back(grains[i].position.head<2>().dot(d), mass_of(grains[i], density[s.bodies.template_index[i]]));
  return along;
}

double smallest_radius(const std::vector<formats::State>& frames, const std::vector<geometry::GrainShape>& shapes) {
  double r = INFINITY;
  for (const formats::State& s : {frames.front(), frames.back()})
    for (std::size_t i = 0; i < s.bodies.size(); ++i)
      r = std::min(r, std::cbrt(3 * shapes[s.bodies.template_index[i]].volume / (4 * std::numbers::pi)) * s.bodies.scale[i]);
  return r;
}

// Least-squares slope of z over x.
std::optional<double> fitted_slope(const std::vector<std::pair<double, double>>& points) {
  if (points.size() < 3) return std::nullopt;
  double mx = 0, mz = 0;
  for (const auto& [x, z] : points) mx += x, mz += z;
  mx /= double(points.size()), mz /= double(points.size());
  double sxx = 0, sxz = 0;
  for (const auto& [x, z] : points) sxx += (x - mx) * (x - mx), sxz += (x - mx) * (z - mz);
  if (!(sxx > 0)) return std::nullopt;
  return sxz / sxx;
}

// Seed 003's grid and fit: the deposit divided into 8 strips of 16 cells (slope: strips
// across the direction of travel, cells along it, over the covered columns' box; heap: 8
// sectors of 16 rings about the mound's centre); in each cell the highest grain surface; a
// least-squares line through each strip's highest points; its slope's angle.
ReposeAngle repose_angle(const DepositRaster& r, ReposeMethod method, const Vector2d& d, const Vector2d& centre) {
  constexpr int strips = 8, cells = 16;
  const ColumnGrid& g = r.grid;
  const Vector2d across(-d.y(), d.x());
  // Each covered column's strip coordinate (across, or azimuth) and cell coordinate (along, or radius).
  auto coordinates = [&](std::size_t i, std::size_t j) {
    const Vector2d p(g.x(i), g.y(j));
    if (method == ReposeMethod::slope) return std::pair(p.dot(across), p.dot(d));
    const Vector2d q = p - centre;
    return std::pair(std::atan2(q.y(), q.x()), q.norm());
  };
  double a_lo = INFINITY, a_hi = -INFINITY, b_lo = INFINITY, b_hi = -INFINITY;
  for (std::size_t j = 0; j < g.ny; ++j)
    for (std::size_t i = 0; i < g.nx; ++i)
      if (r.covered(j * g.nx + i)) {
        const auto [a, b] = coordinates(i, j);
        a_lo = std::min(a_lo, a), a_hi = std::max(a_hi, a), b_lo = std::min(b_lo, b), b_hi = std::max(b_hi, b);
      }
  if (method == ReposeMethod::heap) a_lo = -std::numbers::pi, a_hi = std::numbers::pi, b_lo = 0;
  a_hi += 1e-9 * (1 + std::abs(a_hi)), b_hi += 1e-9 * (1 + std::abs(b_hi));
  struct Highest {
    double z = -INFINITY, at = 0;
  };
  std::vector<Highest> highest(strips * cells);
  for (std::size_t j = 0; j < g.ny; ++j)
    for (std::size_t i = 0; i < g.nx; ++i) {
      const std::size_t k = j * g.nx + i;
      if (!r.covered(k)) continue;
      const auto [a, b] = coordinates(i, j);
      const int strip = std::clamp(int((a - a_lo) / (a_hi - a_lo) * strips), 0, strips - 1);
      const int cell = std::clamp(int((b - b_lo) / (b_hi - b_lo) * cells), 0, cells - 1);
      Highest& h = highest[strip * cells + cell];
      if (r.top[k] > h.z) h = {r.top[k], b};
    }
  ReposeAngle angle;
  angle.method = method;
  for (int s = 0; s < strips; ++s) {
    std::vector<std::pair<double, double>> points;
    for (int c = 0; c < cells; ++c)
      if (std::isfinite(highest[s * cells + c].z)) points.emplace_back(highest[s * cells + c].at, highest[s * cells + c].z);
    if (const auto slope = fitted_slope(points)) angle.angles.push_back(std::atan(-*slope) * 180 / std::numbers::pi);
  }
  if (!angle.angles.empty()) {
    angle.mean = std::accumulate(angle.angles.begin(), angle.angles.end(), 0.0) / double(angle.angles.size());
    const auto [lo, hi] = std::minmax_element(angle.angles.begin(), angle.angles.end());
    angle.error = 0.5 * (*hi - *lo);
  }
  return angle;
}

// How deep the grain's lowest boundary node (a sphere's lowest point) lies below the ground's
// zero level, m; 0 when none does.
double depth_below_ground(const PlacedGrain& grain, const geometry::TerrainField& ground) {
  if (ground.clear_of(grain.position, grain.reach())) return 0;
  if (!grain.shape->level_set) return std::max(0.0, grain.reach() - ground.value(grain.position));
  double deepest = 0;
  for (const Eigen::Vector3f& node : grain.shape->level_set->nodes())
    deepest = std::max(deepest, -ground.value(grain.position + grain.orientation * (grain.scale * node.cast<double>())));
  return deepest;
}

bool finite(const formats::Bodies& b, std::size_t i) {
  auto all = [](const auto& v) { return std::all_of(v.begin(), v.end(), [](double x) { return std::isfinite(x); }); };
  return std::isfinite(b.scale[i]) && all(b.position[i]) && all(b.orientation[i]) && all(b.velocity[i]) &&
         all(b.angular_velocity[i]);
}

}  // namespace

RunoutReport measure_runout(const formats::Case& c, const std::vector<formats::State>& frames, const RunoutOptions& o,
                            const geometry::TerrainField* ground) {
  if (!(o.percentile > 50 && o.percentile <= 100)) throw std::invalid_argument("the percentile must lie in (50, 100]");
  if (frames.empty()) throw std::invalid_argument("no frames");
  const std::vector<geometry::GrainShape> shapes = geometry::grain_shapes(c);
  const std::vector<double> density = template_densities(c);
  const formats::State &first = frames.front(), &last = frames.back();
  if (last.bodies.size() == 0) throw formats::FileError(c.output.directory, "no grains in the last frame: nothing deposited");

  RunoutReport r;
  r.frames = frames.size();
  r.grains = last.bodies.size();
  r.first_time = first.time;
  r.last_time = last.time;
  r.percentile = o.percentile;
  const double p = o.percentile / 100;

  // Per frame: statistics of the grains (centres only: cheap for every frame).
  std::vector<std::vector<PlacedGrain>> placed;
  for (const formats::State& s : frames) placed.push_back(placed_grains(s.bodies, shapes));
  for (std::size_t f = 0; f < frames.size(); ++f) r.over_time.push_back(frame_statistics(frames[f], placed[f], density));

  // Integrity, every frame: grains kept, numbers finite, nothing below the ground.
  for (std::size_t f = 0; f < frames.size(); ++f) {
    const formats::Bodies& b = frames[f].bodies;
    r.grains_lost = std::max(r.grains_lost, first.bodies.size() > b.size() ? first.bodies.size() - b.size() : 0);
    std::size_t bad = 0;
    for (std::size_t i = 0; i < b.size(); ++i) bad += finite(b, i) ? 0 : 1;
    r.non_finite = std::max(r.non_finite, bad);
    if (!ground || bad > 0) continue;
    std::vector<double> depth(placed[f].size());
#pragma omp parallel for schedule(dynamic, 64)
    for (std::size_t i = 0; i < placed[f].size(); ++i) depth[i] = depth_below_ground(placed[f][i], *ground);
    for (double d : depth) r.over_time[f].deepest_below_ground = std::max(r.over_time[f].deepest_below_ground, d);
    r.deepest_below_ground = std::max(r.deepest_below_ground, r.over_time[f].deepest_below_ground);
  }
  if (ground) r.deepest_below_ground_voxels = r.deepest_below_ground / ground->voxel_size();
  r.centre_start = r.over_time.front().centre_of_mass;
  r.centre_end = r.over_time.back().centre_of_mass;
  r.drop = r.centre_start[2] - r.centre_end[2];
  r.horizontal_distance = std::hypot(r.centre_end[0] - r.centre_start[0], r.centre_end[1] - r.centre_start[1]);
  for (std::size_t f = 1; f < frames.size(); ++f) {
    const auto &a = r.over_time[f - 1].centre_of_mass, &b = r.over_time[f].centre_of_mass;
    r.path_length += std::hypot(b[0] - a[0], b[1] - a[1]);
  }
  r.h_over_l = r.horizontal_distance > 0 ? r.drop / r.horizontal_distance : INFINITY;

  // The direction of travel.
  Vector2d d(1, 0);
  if (o.direction) {
    d = Vector2d((*o.direction)[0], (*o.direction)[1]);
    if (!(d.norm() > 0)) throw std::invalid_argument("the direction of travel must not be zero");
    d.normalize();
    r.direction_source = "given";
  } else {
    const Vector2d moved(r.centre_end[0] - r.centre_start[0], r.centre_end[1] - r.centre_start[1]);
    if (moved.norm() > 1e-9) {
      d = moved.normalized();
      r.direction_source = "motion of the centre of mass";
    } else {
      r.direction_source = "x: the centre of mass did not move sideways";
    }
  }
  r.direction = {d.x(), d.y()};
  const Vector2d across(-d.y(), d.x());

  // Column spacing: fine enough for the smallest grain, dividing the map's cells, within budget.
  double spacing = o.spacing > 0 ? o.spacing : smallest_radius(frames, shapes) / 10;
  auto fit_to_map = [&](double h) { return o.map_cell > 0 ? o.map_cell / std::ceil(o.map_cell / h - 1e-9) : h; };
  spacing = fit_to_map(spacing);
  auto columns_of = [&](const std::vector<PlacedGrain>& g, double h) { return columns_over(g, h, o.align); };
  while (std::max(columns_of(placed.back(), spacing).size(), columns_of(placed.front(), spacing).size()) > o.max_columns)
    spacing = fit_to_map(spacing * 1.5);
  r.spacing = spacing;

  const DepositRaster source = rasterize_deposit(placed.front(), columns_of(placed.front(), spacing));
  r.deposit = rasterize_deposit(placed.back(), columns_of(placed.back(), spacing));
  const DepositRaster& deposit = r.deposit;
  const double width = spacing * (std::abs(d.x()) + std::abs(d.y()));
  auto along = [&](double x, double y) { return Vector2d(x, y).dot(d); };
  auto sideways = [&](double x, double y) { return Vector2d(x, y).dot(across); };
  const Profile source_along(source, along, width), deposit_along(deposit, along, width);
  const Profile deposit_across(deposit, sideways, width), source_across(source, sideways, width);
  r.source_rear = source_along.quantile(1 - p);
  r.source_front = source_along.quantile(p);
  r.deposit_rear = deposit_along.quantile(1 - p);
  r.deposit_front = deposit_along.quantile(p);
  r.runout_distance = r.deposit_front - r.source_rear;
  r.front_travel = r.deposit_front - r.source_front;
  r.lateral_spread = deposit_across.quantile(p) - deposit_across.quantile(1 - p);
  r.source_lateral_spread = source_across.quantile(p) - source_across.quantile(1 - p);

  // Runout of the centres over time.
  const double source_rear_of_centres = point_quantile(centres_along(first, placed.front(), density, d), 1 - p);
  for (std::size_t f = 0; f < frames.size(); ++f)
    r.over_time[f].runout_of_centres = point_quantile(centres_along(frames[f], placed[f], density, d), p) - source_rear_of_centres;

  // Area, volume, the mound.
  const ColumnGrid& g = deposit.grid;
  double volume = 0, top = -INFINITY, bottom = INFINITY;
  Vector2d moment = Vector2d::Zero();
  Eigen::Matrix2d second = Eigen::Matrix2d::Zero();
  std::size_t covered = 0;
  for (std::size_t j = 0; j < g.ny; ++j)
    for (std::size_t i = 0; i < g.nx; ++i) {
      const std::size_t k = j * g.nx + i;
      if (!deposit.covered(k)) continue;
      ++covered;
      volume += deposit.thickness[k];
      moment += double(deposit.thickness[k]) * Vector2d(g.x(i), g.y(j));
      second += double(deposit.thickness[k]) * Vector2d(g.x(i), g.y(j)) * Vector2d(g.x(i), g.y(j)).transpose();
      top = std::max(top, double(deposit.top[k]));
      bottom = std::min(bottom, double(deposit.bottom[k]));
    }
  r.deposit_area = double(covered) * spacing * spacing;
  r.deposit_volume = volume * spacing * spacing;
  for (const PlacedGrain& grain : placed.back()) r.grain_volume += grain.volume();
  const Vector2d centre = moment / volume;
  r.mound_centre = {centre.x(), centre.y()};
  r.mound_height = top - bottom;
  const Profile radial(deposit, [&](double x, double y) { return (Vector2d(x, y) - centre).norm(); }, spacing);
  r.mound_spread = 2 * radial.quantile(p);
  const Eigen::SelfAdjointEigenSolver<Eigen::Matrix2d> axes(second / volume - centre * centre.transpose());
  const Vector2d major = axes.eigenvectors().col(1) * (axes.eigenvectors().col(1).dot(d) < 0 ? -1 : 1);
  r.elongation_axis = {major.x(), major.y()};
  r.elongation_angle = std::atan2(major.dot(across), major.dot(d)) * 180 / std::numbers::pi;
  r.elongation_aspect = std::sqrt(axes.eigenvalues()[1] / std::max(axes.eigenvalues()[0], 1e-300));
  if (o.repose != ReposeMethod::none) r.repose = repose_angle(deposit, o.repose, d, centre);
  return r;
}

namespace {

std::string pair_text(double a, double b) {
  std::ostringstream s;
  s << std::setprecision(10) << "[" << a << ", " << b << "]";
  return s.str();
}

std::string triple_text(const std::array<double, 3>& v) {
  std::ostringstream s;
  s << std::setprecision(10) << "[" << v[0] << ", " << v[1] << ", " << v[2] << "]";
  return s.str();
}

const char* method_name(ReposeMethod m) {
  return m == ReposeMethod::slope ? "slope" : m == ReposeMethod::heap ? "heap" : "none";
}

void write_text(const fs::path& file, const std::string& text) {
  formats::AtomicFile out(file);
  {
    std::ofstream stream(out.temp_path());
    stream << text;
    if (!stream.flush()) throw formats::FileError(file, "cannot write (disk full?)");
  }
  out.commit();
}

}  // namespace

void write_runout_summary(const fs::path& file, const RunoutReport& r, const std::array<double, 3>& offset) {
  auto map = [&](const std::array<double, 3>& v) { return std::array<double, 3>{v[0] + offset[0], v[1] + offset[1], v[2] + offset[2]}; };
  std::ostringstream s;
  s << std::setprecision(10);
  s << "# scree-runout summary (docs/tools.md defines every number). Lengths in m, areas in m²,\n"
    << "# volumes in m³, angles in degrees; positions in map coordinates (simulation + map_offset).\n"
    << "frames: " << r.frames << "\n"
    << "first_time: " << r.first_time << "\n"
    << "last_time: " << r.last_time << "\n"
    << "grains: " << r.grains << "\n"
    << "map_offset: " << triple_text(offset) << "\n"
    << "percentile: " << r.percentile << "\n"
    << "column_spacing: " << r.spacing << "\n"
    << "direction: " << pair_text(r.direction[0], r.direction[1]) << "\n"
    << "direction_from: \"" << r.direction_source << "\"\n"
    << "# along the direction, from the map's origin:\n"
    << "source_rear: " << r.source_rear + r.direction[0] * offset[0] + r.direction[1] * offset[1] << "\n"
    << "source_front: " << r.source_front + r.direction[0] * offset[0] + r.direction[1] * offset[1] << "\n"
    << "deposit_rear: " << r.deposit_rear + r.direction[0] * offset[0] + r.direction[1] * offset[1] << "\n"
    << "deposit_front: " << r.deposit_front + r.direction[0] * offset[0] + r.direction[1] * offset[1] << "\n"
    << "runout_distance: " << r.runout_distance << "\n"
    << "front_travel: " << r.front_travel << "\n"
    << "lateral_spread: " << r.lateral_spread << "\n"
    << "source_lateral_spread: " << r.source_lateral_spread << "\n"
    << "deposit_area: " << r.deposit_area << "\n"
    << "deposit_volume: " << r.deposit_volume << "\n"
    << "grain_volume: " << r.grain_volume << "\n"
    << "centre_of_mass:\n"
    << "  start: " << triple_text(map(r.centre_start)) << "\n"
    << "  end: " << triple_text(map(r.centre_end)) << "\n"
    << "  drop: " << r.drop << "\n"
    << "  horizontal_distance: " << r.horizontal_distance << "\n"
    << "  path_length: " << r.path_length << "\n"
    << "  h_over_l: " << r.h_over_l << "\n"
    << "mound:\n"
    << "  centre: " << pair_text(r.mound_centre[0] + offset[0], r.mound_centre[1] + offset[1]) << "\n"
    << "  height: " << r.mound_height << "\n"
    << "  spread: " << r.mound_spread << "\n"
    << "elongation:\n"
    << "  axis: " << pair_text(r.elongation_axis[0], r.elongation_axis[1]) << "\n"
    << "  angle_to_travel: " << r.elongation_angle << "\n"
    << "  aspect: " << r.elongation_aspect << "\n"
    << "integrity:\n"
    << "  grains_lost: " << r.grains_lost << "\n"
    << "  non_finite: " << r.non_finite << "\n"
    << "  deepest_below_ground: " << r.deepest_below_ground << "\n"
    << "  deepest_below_ground_voxels: " << r.deepest_below_ground_voxels << "\n";
  if (r.repose.method != ReposeMethod::none) {
    s << "repose:\n  method: " << method_name(r.repose.method) << "\n  grid: [8, 16]\n  angle: " << r.repose.mean
      << "\n  error: " << r.repose.error << "\n  angles: [";
    for (std::size_t k = 0; k < r.repose.angles.size(); ++k) s << (k ? ", " : "") << r.repose.angles[k];
    s << "]\n";
  }
  write_text(file, s.str());
}

void write_runout_table(const fs::path& file, const RunoutReport& r) {
  formats::AtomicFile out(file);
  {
    formats::CsvLogWriter csv(out.temp_path(), {{"time", "s"},
                                                {"grains", "1"},
                                                {"centre_x", "m"},
                                                {"centre_y", "m"},
                                                {"centre_z", "m"},
                                                {"speed_mean", "m/s"},
                                                {"speed_median", "m/s"},
                                                {"speed_p95", "m/s"},
                                                {"speed_max", "m/s"},
                                                {"kinetic_translational", "J"},
                                                {"kinetic_rotational", "J"},
                                                {"runout_of_centres", "m"},
                                                {"deepest_below_ground", "m"}});
    for (const FrameStatistics& f : r.over_time) {
      const double row[] = {f.time, double(f.grains), f.centre_of_mass[0], f.centre_of_mass[1], f.centre_of_mass[2],
                            f.speed_mean, f.speed_median, f.speed_p95, f.speed_max, f.kinetic_translational,
                            f.kinetic_rotational, f.runout_of_centres, f.deepest_below_ground};
      csv.write_row(row);
    }
  }
  out.commit();
}

std::string describe(const RunoutReport& r) {
  std::ostringstream s;
  s << std::setprecision(4);
  s << r.frames << " frames from t = " << r.first_time << " to " << r.last_time << " s, " << r.grains
    << (r.grains == 1 ? " grain" : " grains") << " deposited\n"
    << "  runout       " << r.runout_distance << " m (front at the " << r.percentile << "th percentile, along "
    << pair_text(r.direction[0], r.direction[1]) << ")\n"
    << "  spread       " << r.lateral_spread << " m across (the source " << r.source_lateral_spread << " m), deposit area " << r.deposit_area << " m², volume "
    << r.deposit_volume << " m³\n"
    << "  centre       dropped " << r.drop << " m over " << r.horizontal_distance << " m: H/L " << r.h_over_l << "\n"
    << "  mound        height " << r.mound_height << " m, spread " << r.mound_spread << " m\n"
    << "  elongated    along " << pair_text(r.elongation_axis[0], r.elongation_axis[1]) << ", " << r.elongation_angle
    << "° from the travel, aspect " << r.elongation_aspect << "\n"
    << "  integrity    " << r.grains_lost << " grains lost, " << r.non_finite << " non-finite, deepest below ground "
    << r.deepest_below_ground << " m (" << r.deepest_below_ground_voxels << " voxels)\n";
  if (r.repose.method != ReposeMethod::none)
    s << "  repose       " << r.repose.mean << "° ± " << r.repose.error << "° (" << method_name(r.repose.method) << ")\n";
  return s.str();
}

}  // namespace scree::post
