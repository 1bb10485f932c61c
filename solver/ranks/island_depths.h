#pragma once
// The depths of a big resting island whose tiles ranks share, each rank holding only its
// strips' units (docs/parallel.md, "A big island across ranks"): the layers that give the
// island its budget of passes (island_layers()) and its coarse step's groups
// (coarse_layers()), found as one process finds them, breadth first, each rank over its own
// units, the depths of the grains it shares exchanged with the ranks that share them until
// none falls.
#include <cstdint>
#include <utility>
#include <vector>

#include "solver/impulse/coarse_step.h"
#include "solver/ranks/communicator.h"
#include "solver/ranks/tile_share.h"

namespace scree::solver {

struct IslandDepths {
  int layers = 0;       // island_layers() of the whole island
  CoarseLayers coarse;  // of this rank's units, with the island's `groups` and `layers`; none without a coarse step
  std::vector<std::pair<int, int>> entries;  // the coarse step's H over the island (CoarseShare::entries)
};

// This rank's units of the island (`units`, with whether a static contact bears the load where
// `coarse`), whether one of their grains is too fast for the coarse step (`fast`), the
// island's least grain (`label_body`, CoarseLayers::none where not held here) and the ranks
// sharing its grains (`sharers`, by body). Every rank calls it for each big island, in the
// same order, whether it holds units of it or not.
IslandDepths island_depths_across(const std::vector<CoarseUnit>& units, bool coarse, bool fast,
                                  const std::vector<bool>& is_static, std::uint32_t label_body, const BodySharers& sharers,
                                  const Ranks& ranks);

}  // namespace scree::solver
