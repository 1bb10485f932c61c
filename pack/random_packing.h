#pragma once
// Building a grain assembly by random sequential addition: grains drawn from a library of
// templates (by proportion: exact numbers with a count) and a size distribution, at random
// orientations, placed one by one at random points of a release region where they overlap
// nothing (checked with the level sets and boundary nodes the solver uses, not bounding
// spheres). Deterministic for a seed.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <vector>

#include "formats/case.h"
#include "formats/state.h"
#include "geometry/grain_shape.h"
#include "pack/release_region.h"
#include "pack/size_distribution.h"

namespace scree::pack {

struct PackRequest {
  std::vector<geometry::GrainShape> shapes;  // one per case template
  std::vector<double> proportions;         // by number, one per template, ≥ 0, not all 0
  SizeDistribution sizes;
  std::optional<std::size_t> count;  // none: fill until a grain finds no place
  std::uint64_t seed = 1;
  std::size_t attempts = 2000;       // places tried per grain before the region counts as full
  std::shared_ptr<const geometry::TerrainField> terrain;
  std::vector<formats::Wall> walls;  // where the case has them at t = 0
  std::function<void(std::size_t done, std::size_t total)> progress;
};

struct PackResult {
  formats::Bodies bodies;                  // ids 1.., at rest
  std::vector<std::size_t> per_template;   // grains of each template
  std::vector<double> diameters;           // equivalent diameter of each grain, m
  double solid_volume = 0;                 // m³
  double region_volume = 0;                // m³
};

// Thrown when `count` grains do not fit: `placed` did.
class RegionFull : public std::runtime_error {
 public:
  RegionFull(std::size_t placed, std::size_t requested, double solid_fraction);
  std::size_t placed, requested;
};

// std::invalid_argument for a request that cannot be drawn (no proportion, a template of
// size 0).
PackResult pack_grains(const PackRequest& request, const ReleaseRegion& region);

// `count` template indices in the given proportions, exactly as far as whole numbers allow
// (largest remainder), in template order.
std::vector<std::uint32_t> apportion(const std::vector<double>& proportions, std::size_t count);

// The equivalent diameter of a template at scale 1: that of the sphere of its volume.
double equivalent_diameter(const geometry::GrainShape& shape);

}  // namespace scree::pack
