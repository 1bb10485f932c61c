#include "solver/ranks/rank_share.h"

#include <algorithm>
#include <span>

namespace scree::solver {

void RankShare::hand_over(World& world) {
  halo = share_grains(world, owned, regions, reach + skin, ranks);
  ++hand_overs;
  handed_at.resize(world.grain_count());
  for (std::size_t i = 0; i < world.grain_count(); ++i) handed_at[i] = world.bodies[i].position;
}

bool RankShare::keep_up(World& world) {
  double moved = 0;
  for (std::size_t i = 0; i < world.grain_count(); ++i)
    if (owned[i]) moved = std::max(moved, (world.bodies[i].position - handed_at[i]).norm());
  if (ranks.max(moved) <= 0.5 * skin) return false;
  hand_over(world);
  return true;
}

double RankShare::total(ExactSum partial) const {
  ranks.sum(std::span<ExactSum>(&partial, 1));
  return partial.value();
}

}  // namespace scree::solver
