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

openvdb::FloatGrid::Ptr read_phi(const std::filesystem::path& file) {
  const openvdb::GridPtrVecPtr grids = read_grids(file);
  for (const auto& g : *grids)
    if (g && g->getName() == "phi")
      if (auto phi = openvdb::gridPtrCast<openvdb::FloatGrid>(g)) return phi;
  throw FileError(file, "no float grid named 'phi'");
}

VdbGrid sparse_copy(const openvdb::FloatGrid& phi) {
  VdbGrid g;
  g.name = phi.getName();
  g.grid_class = openvdb::GridBase::gridClassToString(phi.getGridClass());
  g.background[0] = phi.background();
  if (phi.transform().isLinear()) {
    // OpenVDB's maps act on row vectors: world = (index, 1) · M.
    const openvdb::Mat4d m = phi.transform().baseMap()->getAffineMap()->getMat4();
    for (int r = 0; r < 3; ++r) {
      for (int c = 0; c < 3; ++c) g.index_to_world[4 * r + c] = m(c, r);
      g.index_to_world[4 * r + 3] = m(3, r);
    }
  } else {
    g.index_to_world.fill(std::nan(""));  // not a map the checks accept
  }
  auto at = [](const openvdb::Coord& c) { return VoxelCoord{c[0], c[1], c[2]}; };
  // Tiles before children: set_tile over an existing child would orphan it.
  const auto& root = phi.tree().root();
  for (auto tile = root.cbeginValueAll(); tile; ++tile) g.set_tile(2, at(tile.getCoord()), &*tile, tile.isValueOn());
  for (auto upper = root.cbeginChildOn(); upper; ++upper) {
    for (auto tile = upper->cbeginValueAll(); tile; ++tile) g.set_tile(1, at(tile.getCoord()), &*tile, tile.isValueOn());
    for (auto lower = upper->cbeginChildOn(); lower; ++lower) {
      for (auto tile = lower->cbeginValueAll(); tile; ++tile) g.set_tile(0, at(tile.getCoord()), &*tile, tile.isValueOn());
      for (auto leaf = lower->cbeginChildOn(); leaf; ++leaf) {
        const VdbGrid::LeafRef out = g.leaf(at(leaf->origin()));
        for (openvdb::Index i = 0; i < 512; ++i) out.values[i] = leaf->getValue(i);
        for (openvdb::Index w = 0; w < 8; ++w) out.active[w] = leaf->getValueMask().getWord<openvdb::Index64>(w);
      }
    }
  }
  return g;
}

openvdb::FloatGrid::Ptr stamped_copy(const openvdb::FloatGrid& phi, const std::string& kind) {
  // A new grid object (own name and metadata) over the same, unmodified tree.
  auto out = std::const_pointer_cast<openvdb::FloatGrid>(phi.copy());
  out->setName("phi");
  out->insertMeta("scree_format", openvdb::StringMetadata(kind));
  out->insertMeta("scree_version", openvdb::Int32Metadata(format_version));
  return out;
}

openvdb::Vec3SGrid::Ptr nodes_grid(const std::vector<std::array<float, 3>>& nodes) {
  auto grid = openvdb::Vec3SGrid::create(openvdb::Vec3s(0, 0, 0));
  grid->setName("nodes");
  auto acc = grid->getAccessor();
  for (size_t i = 0; i < nodes.size(); ++i) {
    const VoxelCoord c = node_coord(i);
    acc.setValue(openvdb::Coord(c[0], c[1], c[2]), openvdb::Vec3s(nodes[i][0], nodes[i][1], nodes[i][2]));
  }
  return grid;
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
