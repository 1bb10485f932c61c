#include "formats/shape.h"

#include <cmath>

#include "formats/error.h"
#include "formats/level_set_file.h"

namespace scree::formats {

namespace {
constexpr const char* kind = "shape";

std::string scale_problem(double scale) {
  if (!(std::isfinite(scale) && scale > 0)) return "source_scale must be > 0";
  return {};
}
}  // namespace

void write_shape(const std::filesystem::path& file, const Shape& s) {
  vdb::initialize();
  if (!s.phi) throw FileError(file, "cannot write: shape has no level set");
  for (const std::string& problem :
       {vdb::level_set_problem(vdb::sparse_copy(*s.phi)), scale_problem(s.source_scale), vdb::nodes_problem(s.nodes)})
    if (!problem.empty()) throw FileError(file, "cannot write: " + problem);
  auto phi = vdb::stamped_copy(*s.phi, kind);
  phi->insertMeta("source_scale", openvdb::DoubleMetadata(s.source_scale));
  phi->insertMeta("node_count", openvdb::Int64Metadata(openvdb::Int64(s.nodes.size())));
  phi->insertMeta("provenance", openvdb::StringMetadata(s.provenance));
  vdb::write_grids(file, {phi, vdb::nodes_grid(s.nodes)});
}

Shape read_shape(const std::filesystem::path& file) {
  std::vector<VdbGrid> grids = read_vdb_grids(file);
  const VdbGrid phi = vdb::read_level_set(file, grids, kind);
  Shape s;
  s.source_scale = vdb::metadata<double>(file, phi, "source_scale");
  if (auto problem = scale_problem(s.source_scale); !problem.empty()) throw FileError(file, problem);
  s.provenance = vdb::metadata<std::string>(file, phi, "provenance");
  s.nodes = vdb::read_nodes(file, grids, phi);
  s.phi = vdb::read_phi(file);
  return s;
}

}  // namespace scree::formats
