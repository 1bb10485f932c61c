#pragma once
// Grain shapes laid out flat in one block of bytes and read back where they lie, their
// templates' values not copied: one copy in a node's memory serves every rank there
// (docs/parallel.md, "Memory"; solver/ranks/communicator.h, Ranks::share_on_node). A shape
// read back is the shape laid out, to the bit: what follows from its template and sizes (node
// clusters, block minima, slope bound, extents, glued nodes) is made again as it was made.
#include <cstddef>
#include <memory>
#include <span>
#include <vector>

#include "geometry/grain_shape.h"

namespace scree::geometry {

std::vector<std::byte> flat_shapes(const std::vector<GrainShape>& shapes);

// The shapes of a block flat_shapes() laid out, `keep` holding it. Throws std::invalid_argument
// for a block that is not one.
std::vector<GrainShape> shapes_in_place(std::span<const std::byte> block, const std::shared_ptr<const void>& keep);

}  // namespace scree::geometry
