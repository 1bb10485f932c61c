// scree-runout: runout statistics, a deposit map and the angle of repose from a run's frames.
#include <iostream>

#include "formats/atomic_file.h"
#include "formats/case.h"
#include "formats/error.h"
#include "formats/terrain.h"
#include "geometry/terrain_from_file.h"
#include "post/deposit_map.h"
#include "post/run_frames.h"
#include "post/runout.h"
#include "tools/cli/cli.h"
#include "tools/cli/options.h"

using namespace scree;
namespace fs = std::filesystem;

int main(int argc, char** argv) {
  const cli::Tool tool{
      "scree-runout", "scree-runout CASE.yaml -o FOLDER [options]",
      "Measures a run from its frames (frame_*.h5 in the case's output folder): runout along\n"
      "the direction of travel, lateral spread, deposit area and volume, the centre of mass's\n"
      "drop, distance and H/L, the mound's height and spread, speeds and kinetic energy over\n"
      "time, and on request the angle of repose (seed 003's 8 x 16 grid and fit). The deposit\n"
      "is the last frame. Writes runout.yaml (summary) and runout.csv (one row per frame); with\n"
      "--dem, deposit.tif: the solid thickness of the deposit on the DEM's own grid.",
      "  -o FOLDER              where to write (made if missing; required)\n"
      "      --percentile P     fronts, rears and spreads at the P-th percentile of the\n"
      "                         deposit's volume, 50 < P <= 100 (default 95)\n"
      "      --direction X,Y    direction of travel (default: the centre of mass's motion)\n"
      "      --cell H           spacing of the deposit's columns, m (default: a tenth of the\n"
      "                         smallest grain's radius)\n"
      "      --dem FILE         the DEM the case's terrain was built from: deposit.tif on its\n"
      "                         grid, CRS and origin\n"
      "      --repose KIND      angle of repose of a 'slope' (strips along the direction of\n"
      "                         travel) or a 'heap' (sectors about the mound's centre)\n",
      "  scree-runout case.yaml -o out/runout\n"
      "  scree-runout case.yaml -o out/runout --dem dem.tif --percentile 99\n"
      "  scree-runout heap.yaml -o out/heap --repose heap\n"};
  return cli::run(tool, argc, argv, [&](const std::vector<std::string>& args) {
    cli::Options o(args, {"-o", "--percentile", "--direction", "--cell", "--dem", "--repose"}, {});
    const std::string case_file = o.single_positional("case file");
    const fs::path out = o.required_text("-o");
    post::RunoutOptions options;
    options.percentile = o.number("--percentile", 95);
    if (!(options.percentile > 50 && options.percentile <= 100)) throw cli::UsageError("--percentile: must lie in (50, 100]");
    if (o.has("--direction")) {
      options.direction = o.pair("--direction");
      if ((*options.direction)[0] == 0 && (*options.direction)[1] == 0) throw cli::UsageError("--direction: must not be 0,0");
    }
    options.spacing = o.number("--cell", 0);
    if (o.has("--cell") && !(options.spacing > 0)) throw cli::UsageError("--cell: must be > 0");
    const std::string repose = o.choice("--repose", {"none", "slope", "heap"});
    options.repose = repose == "slope" ? post::ReposeMethod::slope
                     : repose == "heap" ? post::ReposeMethod::heap
                                        : post::ReposeMethod::none;

    const formats::Case c = formats::read_case(case_file);
    const auto frame_files = post::find_frames(c);
    const std::vector<formats::State> frames = post::read_frames(c, frame_files);
    std::array<double, 3> offset{0, 0, 0};
    std::optional<formats::Terrain> terrain;
    if (c.terrain) {
      terrain = formats::read_terrain(c.terrain->file);
      offset = terrain->origin_offset;
      post::check_georeference(frames, frame_files, {terrain->origin_offset, terrain->crs_wkt}, c.terrain->file);
    }
    std::optional<terrain::RasterGrid> dem;
    if (o.has("--dem")) {
      const fs::path dem_file = o.text("--dem");
      if (!terrain)
        throw formats::FileError(case_file, "has no terrain: a deposit map on " + dem_file.string() +
                                                " needs the terrain's georeference");
      post::check_dem_matches_terrain(dem_file, *terrain, c.terrain->file);
      dem = terrain::read_raster_grid(dem_file);
      const post::MapAlignment alignment = post::alignment_with(*dem, terrain->crs_wkt, offset);
      options.map_cell = alignment.cell;
      options.align = alignment.corner;
    }
    std::optional<geometry::TerrainField> ground;
    if (terrain) ground = geometry::terrain_field(*terrain, c.terrain->file);
    const post::RunoutReport report = post::measure_runout(c, frames, options, ground ? &*ground : nullptr);
    std::error_code ec;
    fs::create_directories(out, ec);
    if (!fs::is_directory(out)) throw formats::FileError(out, "cannot make this folder");
    post::write_runout_summary(out / "runout.yaml", report, offset);
    post::write_runout_table(out / "runout.csv", report);
    std::cout << (out / "runout.yaml").string() << ": " << post::describe(report);
    if (dem) {
      const post::DepositMap map = post::map_deposit(report.deposit, *dem, terrain->crs_wkt, offset);
      terrain::write_geotiff(out / "deposit.tif", *dem, map.thickness, "deposit thickness (solid), m");
      std::cout << "  map          " << (out / "deposit.tif").string() << ": " << map.volume_on_map << " m³ on the DEM";
      if (map.volume_off_map > 0) std::cout << ", " << map.volume_off_map << " m³ beyond its edge";
      std::cout << "\n";
    }
    return 0;
  });
}
