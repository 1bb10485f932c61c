// scree-shape: a grain shape (analytic or mesh) to a level set, or straight to an avatar.
#include <iostream>

#include "formats/avatar.h"
#include "formats/error.h"
#include "formats/shape.h"
#include "levelset/avatar_builder.h"
#include "tools/cli/cli.h"
#include "tools/cli/options.h"
#include "tools/cli/progress.h"

using namespace scree;

namespace {

levelset::Vec3d vec(const std::array<double, 3>& a) { return levelset::Vec3d(a[0], a[1], a[2]); }

levelset::ImplicitShape analytic_shape(const std::string& kind, const cli::Options& o) {
  try {
    if (kind == "sphere") return levelset::make_sphere(o.required_number("--radius"));
    if (kind == "box") return levelset::make_box(vec(o.triple("--size")) * 0.5);
    if (kind == "ellipsoid") return levelset::make_ellipsoid(vec(o.triple("--radii")));
    if (kind == "superellipsoid")
      return levelset::make_superellipsoid(vec(o.triple("--radii")), o.required_number("--eps-e"),
                                           o.required_number("--eps-n"));
  } catch (const std::invalid_argument& e) {
    throw cli::UsageError(kind + ": " + e.what());
  }
  throw cli::UsageError("unknown shape '" + kind + "' (sphere, box, ellipsoid, superellipsoid, mesh)");
}

}  // namespace

int main(int argc, char** argv) {
  const cli::Tool tool{
      "scree-shape", "scree-shape SHAPE [shape options] -o OUT.vdb [options]",
      "Makes the level set of a grain shape by fast marching: filled inside, a narrow band\n"
      "outside, in metres. SHAPE is one of\n"
      "  sphere          --radius R\n"
      "  box             --size LX,LY,LZ            (edge lengths)\n"
      "  ellipsoid       --radii RX,RY,RZ\n"
      "  superellipsoid  --radii RX,RY,RZ --eps-e E --eps-n N   (seed 004 eq. 33, E, N in [0.1, 2])\n"
      "  mesh FILE       a closed triangle mesh: STL (ASCII or binary) or OBJ\n"
      "OUT is a shape file for scree-nodes and scree-inertia, or with --avatar a finished\n"
      "avatar (boundary nodes, mass properties, body frame) in one go.",
      "  -o FILE             output .vdb (required)\n"
      "      --voxels N      voxels across the smallest side of the bounding box (default 20)\n"
      "      --voxel-size H  voxel size in metres (instead of --voxels)\n"
      "      --band W        narrow band outside, in voxels (default 3, at least 3)\n"
      "      --scale S       mesh: metres per mesh unit (default 1)\n"
      "      --avatar        go on to boundary nodes and mass properties: write an avatar\n"
      "      --nodes N       with --avatar: node count (default 2000)\n"
      "      --node-method M with --avatar: auto, rays, surface or grid (see scree-nodes)\n",
      "  scree-shape sphere --radius 0.01 -o sphere.vdb\n"
      "  scree-shape superellipsoid --radii 0.0058,0.01,0.0083 --eps-e 0.1 --eps-n 0.5 \\\n"
      "      --voxels 20 --avatar -o A.vdb          # seed 004 shape A, finished avatar\n"
      "  scree-shape mesh SP1A.stl --voxels 30 --avatar --nodes 3000 -o SP1A.vdb\n"
      "  scree-shape mesh sand.stl --scale 1e-5 -o sand_shape.vdb && scree-nodes ...\n"};
  return cli::run(tool, argc, argv, [&](const std::vector<std::string>& args) {
    cli::Options o(args,
                   {"-o", "--voxels", "--voxel-size", "--band", "--scale", "--nodes", "--node-method",
                    "--radius", "--size", "--radii", "--eps-e", "--eps-n"},
                   {"--avatar"});
    if (o.positional().empty()) throw cli::UsageError("no SHAPE given");
    const std::string kind = o.positional()[0], out = o.required_text("-o");
    if (o.positional().size() != (kind == "mesh" ? 2u : 1u))
      throw cli::UsageError(kind == "mesh" ? "mesh needs exactly one FILE" : "unexpected argument '" + o.positional().back() + "'");
    levelset::Resolution resolution;
    resolution.voxel_size = o.number("--voxel-size", 0);
    resolution.voxels = o.number("--voxels", 20);
    resolution.band = o.number("--band", 3);
    if (o.has("--voxel-size") && o.has("--voxels")) throw cli::UsageError("give --voxels or --voxel-size, not both");
    if (resolution.band < levelset::min_band) throw cli::UsageError("--band: must be at least 3 voxels");
    if (!o.has("--avatar") && (o.has("--nodes") || o.has("--node-method")))
      throw cli::UsageError("--nodes and --node-method need --avatar");
    const std::size_t nodes = o.count("--nodes", 2000);
    const levelset::NodeMethod method =
        levelset::parse_node_method(o.choice("--node-method", {"auto", "rays", "surface", "grid"}));

    cli::ProgressLine progress(tool.name, "marching", "points");
    resolution.progress = [&](std::size_t done, std::size_t total) { progress.update(done, total); };
    formats::Shape shape;
    if (kind == "mesh") {
      std::string repair;
      shape = levelset::mesh_shape(o.positional()[1], o.number("--scale", 1), resolution, repair);
      progress.finish();
      if (!repair.empty())
        std::cerr << tool.name << ": warning: " << o.positional()[1] << ": mesh was open; " << repair << "\n";
    } else {
      if (o.has("--scale")) throw cli::UsageError("--scale applies to meshes only");
      try {
        shape = levelset::implicit_shape(analytic_shape(kind, o), resolution);
      } catch (const std::invalid_argument& e) {
        throw cli::UsageError(kind + ": " + e.what());
      }
    }
    shape.provenance = "scree-shape: " + shape.provenance;
    if (!o.has("--avatar")) {
      formats::write_shape(out, shape);
      return 0;
    }
    levelset::add_nodes(shape, nodes, method);
    levelset::MassProperties mass;
    formats::write_avatar(out, levelset::make_avatar(shape, mass));
    return 0;
  });
}
