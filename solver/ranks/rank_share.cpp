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
  std::vector<Vec3> own_places;
  for (std::size_t i = 0; i < world.grain_count(); ++i)
    if (owned[i]) {
      moved = std::max(moved, (world.bodies[i].position - handed_at[i]).norm());
      own_places.push_back(world.bodies[i].position);
    }
  bool recut = false;
  if (recut_above > 0 && ranks.size() > 1) {
    std::vector<std::int64_t> counts(std::size_t(ranks.size()), 0);
    counts[std::size_t(ranks.rank())] = std::int64_t(own_places.size());
    ranks.sum(counts);
    std::int64_t total = 0, most = 0;
    for (const std::int64_t c : counts) total += c, most = std::max(most, c);
    recut = double(most) * double(ranks.size()) > recut_above * double(total);
  }
  if (recut) {
    regions = Decomposition::bisection(own_places, std::vector<std::int64_t>(own_places.size(), 1), ranks.size(), ranks);
    ++recuts;
  } else if (ranks.max(moved) <= 0.5 * skin) {
    return false;
  }
  hand_over(world);
  return true;
}

double RankShare::total(ExactSum partial) const {
  ranks.sum(std::span<ExactSum>(&partial, 1));
  return partial.value();
}

}  // namespace scree::solver
