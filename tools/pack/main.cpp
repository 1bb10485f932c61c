// scree-pack: a grain assembly (the initial state) in a release region.
#include <algorithm>
#include <cmath>
#include <iostream>
#include <sstream>

#include "formats/atomic_file.h"
#include "formats/case.h"
#include "formats/error.h"
#include "formats/state.h"
#include "formats/terrain.h"
#include "geometry/template_from_avatar.h"
#include "geometry/terrain_from_file.h"
#include "pack/random_packing.h"
#include "pack/release_area.h"
#include "pack/settle.h"
#include "tools/cli/cli.h"
#include "tools/cli/options.h"
#include "tools/cli/progress.h"

using namespace scree;

namespace {

// "name=p,name=p,...": a proportion for each named template, the others 0.
std::vector<double> proportions(const std::string& text, const formats::Case& c) {
  std::vector<double> p(c.templates.size(), 0.0);
  std::istringstream items(text);
  std::string item;
  while (std::getline(items, item, ',')) {
    const auto eq = item.find('=');
    if (eq == std::string::npos) throw cli::UsageError("--mix: expects name=proportion,..., got '" + item + "'");
    const std::string name = item.substr(0, eq);
    const auto t = std::find_if(c.templates.begin(), c.templates.end(), [&](const auto& x) { return x.name == name; });
    if (t == c.templates.end()) throw cli::UsageError("--mix: the case has no template '" + name + "'");
    double value = 0;
    try {
      value = std::stod(item.substr(eq + 1));
    } catch (const std::exception&) {
      throw cli::UsageError("--mix: '" + item + "' has no number after '='");
    }
    if (!(value >= 0)) throw cli::UsageError("--mix: proportions must be ≥ 0");
    p[std::size_t(t - c.templates.begin())] = value;
  }
  return p;
}

}  // namespace

int main(int argc, char** argv) {
  const cli::Tool tool{
      "scree-pack", "scree-pack CASE.yaml -o STATE.h5 (--count N | --fill) REGION [options]",
      "Builds a grain assembly, the initial state of a run: grains of the case's templates\n"
      "(in the proportions of --mix), scaled to diameters drawn from a distribution, turned\n"
      "at random, and placed one by one at random points of the region where they overlap\n"
      "no other grain, wall or the terrain (checked with their level sets and boundary\n"
      "nodes). With --count the largest go first; the same seed gives the same assembly.\n"
      "REGION is one of\n"
      "  --box X0,Y0,Z0,X1,Y1,Z1        a box (simulation coordinates)\n"
      "  --cylinder X,Y,R,Z0,Z1         an upright cylinder\n"
      "  --area FILE --thickness T      a release area on the terrain, T m thick: a polygon\n"
      "                                 (lines 'x y', map coordinates) or a raster mask\n"
      "  --depth FILE                   a raster of thickness (failure depth) per cell",
      "  -o FILE             the state to write (required)\n"
      "      --count N       place N grains (an error when they do not fit)\n"
      "      --fill          place grains until one finds no place\n"
      "      --mix A=P,...   templates by number, exactly so with --count (default: all in\n"
      "                      equal numbers)\n"
      "      --diameter D    fixed:D, lognormal:D50,SIGMA (of the equivalent diameter, m) or\n"
      "                      sieve:FILE (lines 'diameter fraction_passing', by mass);\n"
      "                      default: the templates as they are\n"
      "      --seed S        random seed (default: the case's)\n"
      "      --attempts K    places tried per grain before the region counts as full\n"
      "                      (default 2000)\n"
      "      --settle T      then let the grains settle for T s of simulated time in the\n"
      "                      solver, held in a box around the region, and write them at rest\n",
      "  scree-pack case.yaml -o state.h5 --count 2000 --box 0,0,0,10,4,3 --diameter lognormal:0.3,0.25\n"
      "  scree-pack case.yaml -o state.h5 --fill --area source.txt --thickness 5 --settle 3\n"
      "  scree-pack case.yaml -o state.h5 --count 500 --depth landslide_depth.asc --mix rock=3,boulder=1\n"};
  return cli::run(tool, argc, argv, [&](const std::vector<std::string>& args) {
    cli::Options o(args, {"-o", "--count", "--box", "--cylinder", "--area", "--thickness", "--depth", "--mix", "--diameter", "--seed", "--attempts", "--settle"},
                   {"--fill"});
    const std::string case_file = o.single_positional("case file");
    const std::string out = o.required_text("-o");
    if (o.has("--count") == o.has("--fill")) throw cli::UsageError("give --count N or --fill");
    const int regions = int(o.has("--box")) + int(o.has("--cylinder")) + int(o.has("--area")) + int(o.has("--depth"));
    if (regions != 1) throw cli::UsageError("give one region: --box, --cylinder, --area or --depth");
    if (o.has("--thickness") != o.has("--area")) throw cli::UsageError("--area needs --thickness, and --thickness an --area");
    pack::PackRequest request;
    if (o.has("--count")) request.count = o.count("--count", 1);
    request.attempts = o.count("--attempts", 2000);
    if (o.has("--diameter")) {
      try {
        request.sizes = pack::parse_size_distribution(o.text("--diameter"));
      } catch (const std::invalid_argument& e) {
        throw cli::UsageError(std::string("--diameter: ") + e.what());
      }
    }
    std::optional<double> thickness;
    if (o.has("--thickness")) {
      thickness = o.number("--thickness", 0);
      if (!(*thickness > 0)) throw cli::UsageError("--thickness: must be > 0");
    }
    const double settle = o.number("--settle", 0);
    if (!(settle >= 0)) throw cli::UsageError("--settle: must be a time ≥ 0 s");
    std::vector<double> box, cylinder;
    if (o.has("--box")) box = o.numbers("--box", 6);
    if (o.has("--cylinder")) cylinder = o.numbers("--cylinder", 5);

    const formats::Case c = formats::read_case(case_file);
    formats::check_writable(out);
    request.proportions = o.has("--mix") ? proportions(o.text("--mix"), c) : std::vector<double>(c.templates.size(), 1.0);
    if (std::all_of(request.proportions.begin(), request.proportions.end(), [](double p) { return p == 0; }))
      throw cli::UsageError("--mix: every proportion is 0");
    const double seed = o.number("--seed", double(c.seed));
    if (!(seed >= 0 && seed == std::floor(seed))) throw cli::UsageError("--seed: must be a whole number ≥ 0");
    request.seed = std::uint64_t(seed);
    request.shapes = geometry::grain_shapes(c);
    request.walls = c.walls;
    std::optional<formats::Terrain> terrain;
    if (c.terrain) {
      terrain = formats::read_terrain(c.terrain->file);
      request.terrain = std::make_shared<const geometry::TerrainField>(geometry::terrain_field(*terrain, c.terrain->file));
    }
    std::unique_ptr<pack::ReleaseRegion> region;
    try {
      if (!box.empty()) region = pack::box_region({box[0], box[1], box[2]}, {box[3], box[4], box[5]});
      if (!cylinder.empty()) region = pack::cylinder_region({cylinder[0], cylinder[1]}, cylinder[2], cylinder[3], cylinder[4]);
    } catch (const std::invalid_argument& e) {
      throw cli::UsageError(std::string(o.has("--box") ? "--box: " : "--cylinder: ") + e.what());
    }
    if (o.has("--area") || o.has("--depth")) {
      const std::string file = o.has("--area") ? o.text("--area") : o.text("--depth");
      if (!terrain) throw formats::FileError(case_file, "has no terrain: a release area on " + file + " needs one");
      const bool raster = o.has("--depth") || file.size() < 4 || file.substr(file.size() - 4) != ".txt";
      const pack::AreaKind kind = o.has("--depth") ? pack::AreaKind::thickness : raster ? pack::AreaKind::mask : pack::AreaKind::polygon;
      region = pack::release_area(file, kind, thickness, *terrain, request.terrain);
    }

    cli::ProgressLine progress(tool.name, "placing", "grains");
    request.progress = [&](std::size_t done, std::size_t total) { progress.update(done, total); };
    pack::PackResult result;
    try {
      result = pack::pack_grains(request, *region);
    } catch (const pack::RegionFull& full) {
      throw formats::FileError(case_file, full.what());
    }
    progress.finish();
    if (result.bodies.size() == 0) throw formats::FileError(case_file, "no grain fits in the region");
    formats::State state;
    state.kind = formats::StateKind::state;
    for (const auto& t : c.templates) state.templates.push_back(t.name);
    state.bodies = result.bodies;
    std::string settled;
    if (settle > 0) {
      const Eigen::AlignedBox3d hold = pack::holding_box(*region, state.bodies, request.shapes);
      cli::ProgressLine settling(tool.name, "settling", "ms");
      const pack::SettleResult rest = pack::settle_assembly(c, state, hold, settle, [&](double t, double total) {
        settling.update(std::size_t(std::llround(1e3 * t)), std::size_t(std::llround(1e3 * total)));
      });
      settling.finish();
      state.bodies = rest.bodies;
      std::ostringstream line;
      line.precision(4);
      line << "\n  settled " << settle << " s in a box " << hold.sizes().x() << " × " << hold.sizes().y() << " × "
           << hold.sizes().z() << " m: " << rest.potential_drop << " J released, " << rest.kinetic_left
           << " J left, fastest grain " << rest.top_speed << " m/s (set to rest)";
      settled = line.str();
    }
    formats::write_state(out, state);

    std::vector<double> d = result.diameters;
    std::sort(d.begin(), d.end());
    std::ostringstream s;
    s.precision(4);
    s << out << ": " << result.bodies.size() << (result.bodies.size() == 1 ? " grain" : " grains") << " (";
    for (std::size_t t = 0; t < c.templates.size(); ++t) s << (t ? ", " : "") << c.templates[t].name << " " << result.per_template[t];
    s << ") in " << region->describe() << "\n  solid fraction " << result.solid_volume / result.region_volume << " ("
      << result.solid_volume << " m³ of grain)\n  diameters " << d.front() << " to " << d.back() << " m, median "
      << d[d.size() / 2] << " m" << settled << "\n";
    std::cout << s.str();
    return 0;
  });
}
