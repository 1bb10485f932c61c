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

std::vector<std::int64_t> bisection_weights(const World& world, const std::vector<char>* owned) {
  std::vector<std::int64_t> weights;
  for (std::uint32_t i = 0; i < world.grain_count(); ++i) {
    if (owned && !(*owned)[i]) continue;
    std::int64_t contacts = 0;
    const RestingImpulses::Entry* last = nullptr;  // a contact's points lie together (key order)
    for (const RestingImpulses::Entry& e : world.resting_impulses.of_grain(i)) {
      if (!last || last->first.b != e.first.b || last->first.plane != e.first.plane) ++contacts;
      last = &e;
    }
    weights.push_back(1 + contacts);
  }
  return weights;
}

bool RankShare::keep_up(World& world) {
  double moved = 0;
  std::vector<Vec3> own_places;
  for (std::size_t i = 0; i < world.grain_count(); ++i)
    if (owned[i]) {
      moved = std::max(moved, (world.bodies[i].position - handed_at[i]).norm());
      own_places.push_back(world.bodies[i].position);
    }
  const std::vector<std::int64_t> weights = bisection_weights(world, &owned);
  bool recut = false;
  if (recut_above > 0 && ranks.size() > 1) {
    std::vector<std::int64_t> sums(std::size_t(ranks.size()), 0);
    for (const std::int64_t w : weights) sums[std::size_t(ranks.rank())] += w;
    ranks.sum(sums);
    std::int64_t total = 0, most = 0;
    for (const std::int64_t w : sums) total += w, most = std::max(most, w);
    recut = double(most) * double(ranks.size()) > recut_above * double(total);
  }
  if (recut) {
    regions = Decomposition::bisection(own_places, weights, ranks.size(), ranks);
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
