#include "formats/level_set_file.h"

#include <cmath>

#include "formats/atomic_file.h"

namespace scree::formats::vdb {

namespace {
constexpr int format_version = 1;
}

void initialize() { openvdb::initialize(); }

openvdb::GridPtrVecPtr read_grids(const std::filesystem::path& file) {
  initialize();
  std::error_code ec;
  if (!std::filesystem::is_regular_file(file, ec)) throw FileError(file, "cannot open: no such file");
  try {
    openvdb::io::File f(file.string());
    f.open(false);  // no delayed loading: read everything now, so errors surface here
    auto grids = f.getGrids();
    f.close();
    return grids;
  } catch (const openvdb::Exception& e) {
    throw FileError(file, std::string("not a readable OpenVDB file (") + e.what() + ")");
  } catch (const std::exception& e) {
    throw FileError(file, std::string("cannot read OpenVDB file (truncated?): ") + e.what());
  }
}

openvdb::GridBase::Ptr find_grid(const openvdb::GridPtrVec& grids, const std::string& name) {
  for (const auto& g : grids)
    if (g && g->getName() == name) return g;
  return nullptr;
}

std::string level_set_problem(const openvdb::FloatGrid& phi) {
  if (phi.getGridClass() != openvdb::GRID_LEVEL_SET)
    return "grid 'phi' is not a level set (grid class " +
           openvdb::GridBase::gridClassToString(phi.getGridClass()) + ")";
  const auto& xform = phi.transform();
  if (!xform.isLinear() || !xform.hasUniformScale())
    return "grid 'phi' needs a linear transform with cubic voxels";
  float background = phi.background();
  if (!std::isfinite(background) || background <= 0)
    return "grid 'phi' needs a positive finite background (outside), got " +
           std::to_string(background);
  if (phi.tree().activeVoxelCount() == 0) return "grid 'phi' has no active voxels";
  bool inside = false;
  for (auto it = phi.tree().cbeginValueAll(); it; ++it) {
    float v = *it;
    if (!std::isfinite(v))
      return "grid 'phi' has a non-finite value at " + it.getCoord().asVec3i().str();
    inside = inside || v < 0;
  }
  if (!inside) return "grid 'phi' has no negative (inside) values";
  return {};
}

openvdb::FloatGrid::Ptr read_level_set(const std::filesystem::path& file,
                                       const openvdb::GridPtrVec& grids, const std::string& kind) {
  auto base = find_grid(grids, "phi");
  if (!base) throw FileError(file, "no grid named 'phi'");
  auto phi = openvdb::gridPtrCast<openvdb::FloatGrid>(base);
  if (!phi) throw FileError(file, "grid 'phi' must hold float values, not " + base->valueType());
  std::string found = metadata<std::string>(file, *phi, "scree_format");
  if (found != kind) throw FileError(file, "is a scree '" + found + "' file, expected '" + kind + "'");
  int version = metadata<openvdb::Int32>(file, *phi, "scree_version");
  if (version != format_version)
    throw FileError(file, "format version " + std::to_string(version) +
                              " is not supported (this scree reads version " +
                              std::to_string(format_version) + ")");
  if (auto problem = level_set_problem(*phi); !problem.empty()) throw FileError(file, problem);
  return phi;
}

openvdb::FloatGrid::Ptr stamped_copy(const openvdb::FloatGrid& phi, const std::string& kind) {
  // A new grid object (own name and metadata) over the same, unmodified tree.
  auto out = std::const_pointer_cast<openvdb::FloatGrid>(phi.copy());
  out->setName("phi");
  out->insertMeta("scree_format", openvdb::StringMetadata(kind));
  out->insertMeta("scree_version", openvdb::Int32Metadata(format_version));
  return out;
}

void write_grids(const std::filesystem::path& file, const openvdb::GridPtrVec& grids) {
  initialize();
  AtomicFile out(file);
  try {
    openvdb::io::File f(out.temp_path().string());
    f.write(grids);
    f.close();
  } catch (const std::exception& e) {
    throw FileError(file, std::string("cannot write: ") + e.what());
  }
  out.commit();
}

}  // namespace scree::formats::vdb
