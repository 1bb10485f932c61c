#pragma once
// Runout statistics of a run: what scree-runout measures from a run's frames. Definitions,
// with the percentile P that every "front", "rear" and "spread" uses, are in docs/tools.md.
#include <array>
#include <cstddef>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "formats/case.h"
#include "formats/state.h"
#include "geometry/terrain_field.h"
#include "post/deposit_raster.h"

namespace scree::post {

enum class ReposeMethod { none, slope, heap };

struct RunoutOptions {
  double percentile = 95;  // P, in (50, 100]
  std::optional<std::array<double, 2>> direction;  // of travel; none: from the centre of mass's motion
  double spacing = 0;      // of the deposit's columns, m; 0: a tenth of the smallest grain's radius
  double map_cell = 0;     // > 0: the spacing is made to divide it a whole number of times
  std::array<double, 2> align{0, 0};  // columns line up with this point (a map's cell corner)
  std::size_t max_columns = std::size_t(1) << 24;  // the spacing grows until the deposit needs no more
  ReposeMethod repose = ReposeMethod::none;
};

struct FrameStatistics {
  double time = 0;
  std::size_t grains = 0;
  std::array<double, 3> centre_of_mass{};
  double speed_mean = 0, speed_median = 0, speed_p95 = 0, speed_max = 0;  // of grain centroids, m/s
  double kinetic_translational = 0, kinetic_rotational = 0;  // J
  double runout_of_centres = 0;  // P-th percentile of centres along the travel direction, less the first frame's (100 − P)-th
  double deepest_below_ground = 0;  // m, any grain's boundary node; 0 without a terrain
};

struct ReposeAngle {
  ReposeMethod method = ReposeMethod::none;
  std::vector<double> angles;  // degrees, one per strip (slope) or sector (heap) with enough data
  double mean = 0, error = 0;  // degrees; error: half the spread of the angles (seed 003)
};

struct RunoutReport {
  std::size_t frames = 0, grains = 0;
  double first_time = 0, last_time = 0;
  double percentile = 95, spacing = 0;
  std::array<double, 2> direction{1, 0};
  std::string direction_source;  // "given", "motion of the centre of mass", or why x was taken
  // Along the direction of travel (m, from the world origin):
  double source_rear = 0, source_front = 0, deposit_rear = 0, deposit_front = 0;
  double runout_distance = 0;  // deposit_front − source_rear
  double front_travel = 0;     // deposit_front − source_front
  double lateral_spread = 0;   // across the direction, P-th less (100 − P)-th percentile
  double source_lateral_spread = 0;  // the same of the first frame: a fan spreads wider than its source
  double deposit_area = 0;     // m², columns with grain
  double deposit_volume = 0;   // m³, the columns' thickness integrated
  double grain_volume = 0;     // m³, the grains' own volumes
  std::array<double, 3> centre_start{}, centre_end{};
  double drop = 0, horizontal_distance = 0, path_length = 0, h_over_l = 0;  // of the centre of mass
  std::array<double, 2> mound_centre{};
  double mound_height = 0, mound_spread = 0;
  // The deposit's direction of elongation: the major axis of its thickness-weighted second
  // moments in plan, its angle from the direction of travel (0: along, 90: across, positive
  // towards the left of travel), and the ratio of the axes' standard deviations (≥ 1).
  std::array<double, 2> elongation_axis{1, 0};
  double elongation_angle = 0, elongation_aspect = 1;
  // Every frame checked: grains that went missing or hold non-finite numbers, and the
  // deepest any grain's boundary node (a sphere's surface) lies below the terrain's zero
  // level (with a terrain; m and in the terrain's voxels).
  std::size_t grains_lost = 0, non_finite = 0;
  double deepest_below_ground = 0, deepest_below_ground_voxels = 0;
  ReposeAngle repose;
  std::vector<FrameStatistics> over_time;
  DepositRaster deposit;  // the last frame's
};

std::vector<PlacedGrain> placed_grains(const formats::Bodies& bodies, const std::vector<geometry::GrainShape>& shapes);

// The report from a run's frames (post::read_frames checks them). std::invalid_argument for
// options that cannot be met (a percentile outside (50, 100], a zero direction).
// `ground`: the case's terrain, for the check below it (none: skipped).
RunoutReport measure_runout(const formats::Case& c, const std::vector<formats::State>& frames,
                            const RunoutOptions& options, const geometry::TerrainField* ground = nullptr);

// runout.yaml: the summary, with `map_offset` added to positions where the case has a
// terrain (its origin offset: positions in the source map's coordinates). Atomic.
void write_runout_summary(const std::filesystem::path& file, const RunoutReport& report, const std::array<double, 3>& map_offset);
// runout.csv: one row per frame (FrameStatistics). Atomic.
void write_runout_table(const std::filesystem::path& file, const RunoutReport& report);

// What scree-runout prints: a few lines.
std::string describe(const RunoutReport& report);

}  // namespace scree::post
