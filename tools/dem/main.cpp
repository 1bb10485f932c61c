// scree-dem: synthetic terrains the project makes itself (a valley after seed 000 §6.3).
#include <iostream>

#include "terrain/synthetic_valley.h"
#include "tools/cli/cli.h"
#include "tools/cli/options.h"

using namespace scree;

int main(int argc, char** argv) {
  const cli::Tool tool{
      "scree-dem", "scree-dem valley -o DEM.asc [options]",
      "Writes a synthetic DEM as an ESRI ASCII grid (local metres, no CRS), for scree-terrain.\n"
      "valley: the rock-avalanche terrain of seed 000 §6.3, a channel inclined at --slope\n"
      "along +x between parabolic banks that rise to a crest, curving into a runout area past\n"
      "its foot at x = L; the banks die away there and the runout falls sideways (towards +y)\n"
      "at --runout-slope (0: flat, the fan case; 3: the deflected case).",
      "  -o FILE               the grid to write (required)\n"
      "      --slope DEG       channel floor (default 25)\n"
      "      --runout-slope DEG  runout area, falling towards +y (default 0)\n"
      "      --length L        channel length, horizontal, m (default 80)\n"
      "      --half-width W    where the banks reach their height, m (default 10)\n"
      "      --bank-height H   m (default 4; the crest beyond is 2H)\n"
      "      --runout-length R past the foot, m (default 80)\n"
      "      --half-extent Y   either side of the axis, m (default 40)\n"
      "      --cell H          grid spacing, m (default 0.5)\n",
      "  scree-dem valley -o valley.asc\n"
      "  scree-dem valley --runout-slope 3 -o valley_slope3.asc\n"
      "  scree-terrain valley.asc -o valley.vdb\n"};
  return cli::run(tool, argc, argv, [&](const std::vector<std::string>& args) {
    cli::Options o(args, {"-o", "--slope", "--runout-slope", "--length", "--half-width", "--bank-height", "--runout-length",
                          "--half-extent", "--cell"},
                   {});
    if (o.single_positional("terrain kind") != "valley") throw cli::UsageError("the only terrain kind is 'valley'");
    const std::string out = o.required_text("-o");
    terrain::ValleyShape v;
    v.slope = o.number("--slope", v.slope);
    v.runout_slope = o.number("--runout-slope", v.runout_slope);
    v.channel_length = o.number("--length", v.channel_length);
    v.half_width = o.number("--half-width", v.half_width);
    v.bank_height = o.number("--bank-height", v.bank_height);
    v.runout_length = o.number("--runout-length", v.runout_length);
    v.half_extent = o.number("--half-extent", v.half_extent);
    v.cell = o.number("--cell", v.cell);
    try {
      terrain::write_valley(out, v);
    } catch (const std::invalid_argument& e) {
      throw cli::UsageError(e.what());
    }
    std::cout << out << ": valley, channel " << v.channel_length << " m at " << v.slope << "°, runout " << v.runout_length
              << " m at " << v.runout_slope << "° sideways, cells of " << v.cell << " m\n";
    return 0;
  });
}
