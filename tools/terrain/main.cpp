// scree-terrain: a digital elevation model to the ground's narrow-band level set.
#include <iostream>
#include <sstream>

#include "formats/atomic_file.h"
#include "formats/error.h"
#include "formats/terrain.h"
#include "terrain/build_terrain.h"
#include "post/ground_surface.h"
#include "tools/cli/cli.h"
#include "tools/cli/options.h"
#include "tools/cli/progress.h"

using namespace scree;

int main(int argc, char** argv) {
  const cli::Tool tool{
      "scree-terrain", "scree-terrain DEM -o TERRAIN.vdb [options]",
      "Turns a digital elevation model into the ground's level set: negative below the\n"
      "ground, the exact distance to it (not the vertical one) within a band of voxels on\n"
      "both sides, stored sparsely. DEM is\n"
      "  a raster GDAL reads (GeoTIFF, ESRI ASCII grid, ...): one height per cell centre;\n"
      "  x-y-z points (.txt, .xyz, .csv, .dat) that fill a rectangular grid;\n"
      "  a triangle mesh (.stl, .obj) of the ground, one height above each point.\n"
      "Rasters in degrees are projected to metres (the UTM zone of their centre by default).\n"
      "Coordinates become local, the map minus an origin kept in the file's metadata, so\n"
      "that simulation coordinates stay small.",
      "  -o FILE             output terrain .vdb (required)\n"
      "      --voxel-size H  voxel size in metres (default: the DEM's cell size)\n"
      "      --band W        band either side of the ground, in voxels (default 3)\n"
      "      --crop X0,Y0,X1,Y1  keep the DEM inside this window (source coordinates)\n"
      "      --origin X,Y,Z  local origin in map coordinates (default: the lower x-y corner\n"
      "                      of the ground in whole metres, and 0)\n"
      "      --nodata M      fill (default): heights missing inside are filled from their\n"
      "                      neighbours; mask: cells without four heights are left out\n"
      "      --project P     for DEMs in degrees: utm (default), a CRS such as EPSG:32613,\n"
      "                      or refuse\n"
      "      --up A          meshes: the axis that points up, z (default) or y\n"
      "      --lower-by R    rasters: take |R| off the heights, R a raster on the DEM's\n"
      "                      grid (a landslide's failure depth: the surface it slid on)\n"
      "      --surface FILE  also write the ground's surface for ParaView (.vtp): the\n"
      "                      level set's zero in simulation coordinates, with each\n"
      "                      point's map elevation and each triangle's slope\n",
      "  scree-terrain dc7_dem_1411slide.asc -o dc7.vdb\n"
      "  scree-terrain topography.txt --voxel-size 1 -o yu_tung.vdb\n"
      "  scree-terrain SRTM.asc --project EPSG:32613 -o boulder.vdb\n"
      "  scree-terrain DTM_Blue_zone.stl --up y --voxel-size 0.5 -o blue.vdb\n"
      "  scree-terrain dc7_dem_1411slide.asc -o dc7.vdb --surface dc7_ground.vtp\n"
      "  scree-terrain pre_runout_DEM.asc --lower-by landslide_depth.asc -o failure_surface.vdb\n"};
  return cli::run(tool, argc, argv, [&](const std::vector<std::string>& args) {
    cli::Options o(args, {"-o", "--voxel-size", "--band", "--crop", "--origin", "--nodata", "--project", "--up", "--surface", "--lower-by"}, {});
    const std::string in = o.single_positional("DEM file"), out = o.required_text("-o");
    const std::string surface = o.text("--surface", "");
    terrain::TerrainOptions options;
    options.voxel_size = o.number("--voxel-size", 0);
    if (o.has("--voxel-size") && !(options.voxel_size > 0)) throw cli::UsageError("--voxel-size: must be positive");
    options.band = o.number("--band", 3);
    if (!(options.band >= 1)) throw cli::UsageError("--band: must be at least 1 voxel");
    if (o.has("--crop")) {
      const std::string text = o.text("--crop");
      std::array<double, 4> window{};
      char comma[3];
      std::istringstream s(text);
      if (!(s >> window[0] >> comma[0] >> window[1] >> comma[1] >> window[2] >> comma[2] >> window[3]) ||
          comma[0] != ',' || comma[1] != ',' || comma[2] != ',' || !(s >> std::ws).eof())
        throw cli::UsageError("--crop: expected X0,Y0,X1,Y1, got '" + text + "'");
      if (!(window[0] < window[2] && window[1] < window[3])) throw cli::UsageError("--crop: X0 < X1 and Y0 < Y1 needed");
      options.crop = window;
    }
    if (o.has("--origin")) options.origin = o.triple("--origin");
    options.missing = o.choice("--nodata", {"fill", "mask"}) == "fill" ? terrain::MissingHeights::fill
                                                                         : terrain::MissingHeights::mask;
    options.projection = o.text("--project", "utm");
    options.up = o.choice("--up", {"z", "y"})[0];
    if (o.has("--lower-by")) options.lower_by = o.text("--lower-by");
    // Both outputs checked before either is written: a run writes both or neither.
    formats::check_writable(out);
    if (!surface.empty()) formats::check_writable(surface);
    cli::ProgressLine progress(tool.name, "building", "columns");
    options.progress = [&](std::size_t done, std::size_t total) { progress.update(done, total); };
    terrain::TerrainReport report;
    formats::Terrain terrain;
    try {
      terrain = terrain::build_terrain(in, options, report);
    } catch (const std::invalid_argument& e) {
      throw formats::FileError(in, e.what());
    }
    progress.finish();
    formats::write_terrain(out, terrain);
    std::cout << terrain::describe(out, report);
    if (!surface.empty()) {
      const formats::TriangleSurface ground = post::ground_surface(terrain);
      formats::write_vtp(surface, ground);
      std::cout << "  surface     " << ground.triangles.size() << " triangles, " << ground.points.size() << " points: "
                << surface << "\n";
    }
    return 0;
  });
}
