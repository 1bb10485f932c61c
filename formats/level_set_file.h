#pragma once
// What the avatar, shape and terrain formats share on the OpenVDB side: writing, and the
// grids for tools that work on them (the checks are formats/level_set_grid.h's). Internal to
// scree_formats_vdb; only level-set code includes OpenVDB.
#include <openvdb/openvdb.h>

#include <array>
#include <filesystem>
#include <string>
#include <vector>

#include "formats/error.h"
#include "formats/level_set_grid.h"

namespace scree::formats::vdb {

void initialize();  // openvdb::initialize(), once

// All grids of a file, through OpenVDB; FileError when it is missing, not a VDB file, or
// cannot be read. Readers check a file with the light reader (formats/level_set_grid.h) first.
openvdb::GridPtrVecPtr read_grids(const std::filesystem::path& file);

// The level set "phi" of a file the light reader has checked.
openvdb::FloatGrid::Ptr read_phi(const std::filesystem::path& file);

// A copy of `phi` without OpenVDB: what the light checks and the solver's templates take.
VdbGrid sparse_copy(const openvdb::FloatGrid& phi);

// A copy of `phi` sharing its tree, named "phi", carrying the scree_format header.
openvdb::FloatGrid::Ptr stamped_copy(const openvdb::FloatGrid& phi, const std::string& kind);

// Writes the grids through an AtomicFile.
void write_grids(const std::filesystem::path& file, const openvdb::GridPtrVec& grids);

// The "nodes" grid of avatar and shape files: node i at node_coord(i).
openvdb::Vec3SGrid::Ptr nodes_grid(const std::vector<std::array<float, 3>>& nodes);

}  // namespace scree::formats::vdb
