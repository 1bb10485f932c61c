#include "solver/ranks/rank_share.h"

#include <algorithm>
#include <cmath>
#include <span>

namespace scree::solver {

void RankShare::hand_over(World& world) {
  halo = share_grains(world, owned, regions, reach + skin, ranks);
  ++hand_overs;
  handed_at.resize(world.grain_count());
  for (std::size_t i = 0; i < world.grain_count(); ++i) handed_at[i] = world.bodies[i].position;
}

// What a grain weighs beside its contacts: its own search (its neighbours' pairs, touching or
// not, the walls and the terrain) is about two contacts' worth. Counted unpaced on sixteen ranks
// of the dc7 dense flow (bench/ranks/imbalance.sh PACED=0), the search's busiest rank 7.5 % of its
// work over the mean with one, 5.1 % with two; each contact two, or a contact with the terrain
// three, were worse (docs/benchmarks.md, "Grains weighed two").
constexpr std::int64_t grain_weight = 2;

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
    weights.push_back(grain_weight + contacts);
  }
  return weights;
}

bool RankShare::keep_up(World& world, double search_seconds) {
  double moved = 0;
  std::vector<Vec3> own_places;
  for (std::size_t i = 0; i < world.grain_count(); ++i)
    if (owned[i]) {
      moved = std::max(moved, (world.bodies[i].position - handed_at[i]).norm());
      own_places.push_back(world.bodies[i].position);
    }
  const std::vector<std::int64_t> weights = bisection_weights(world, &owned);
  const bool bisected = recut_above > 0 && ranks.size() > 1;
  bool uneven = false, moved_shares = false;
  std::vector<std::int64_t> shares;
  if (bisected) {
    const std::size_t rank_count = std::size_t(ranks.size()), me = std::size_t(ranks.rank());
    // By rank: its grains' weight, then its search's work (ns), in one reduction.
    std::vector<std::int64_t> sums(2 * rank_count, 0);
    for (const std::int64_t w : weights) sums[me] += w;
    // A run's (or a restart's) first search builds the caches the later ones keep (the
    // neighbour list, each grain's near nodes against the terrain): on sixteen ranks of the
    // dc7 dense flow it took the ranks whose grains lie on the terrain 1.4-1.5 times the
    // mean, and cut by it their regions took 0.6-0.75 of the mean search after
    // (docs/benchmarks.md, "The first step's search is not a pace"). It is not counted.
    if (steps > 0) sums[rank_count + me] = std::int64_t(std::llround(search_seconds * 1e9));
    ranks.sum(sums);
    search_pace.resize(rank_count, 0.0);
    for (std::size_t r = 0; r < rank_count; ++r)
      if (paced && sums[r] > 0 && sums[rank_count + r] > 0) {
        const double last = 1e-9 * double(sums[rank_count + r]) / double(sums[r]);
        search_pace[r] = search_pace[r] > 0 ? 0.5 * (search_pace[r] + last) : last;
      }
    if (cut_shares.size() != rank_count) cut_shares.assign(rank_count, 1);
    std::int64_t total = 0, all_shares = 0;
    for (std::size_t r = 0; r < rank_count; ++r) total += sums[r], all_shares += cut_shares[r];
    for (std::size_t r = 0; r < rank_count; ++r)
      uneven = uneven || double(sums[r]) * double(all_shares) > recut_above * double(total) * double(cut_shares[r]);
    // Whether the paces moved a rank's share by more than a fiftieth since the last cut: a
    // hand-over that moves fewer grains than that between the regions is not worth their cut.
    shares = search_shares();
    std::int64_t all_now = 0, all_cut = 0;
    for (std::size_t r = 0; r < rank_count; ++r) all_now += shares[r], all_cut += cut_shares[r];
    for (std::size_t r = 0; r < rank_count; ++r)
      moved_shares = moved_shares || std::abs(double(shares[r]) * double(all_cut) - double(cut_shares[r]) * double(all_now)) >
                                         0.02 * double(cut_shares[r]) * double(all_now);
  }
  // A run (or a restart) starts with regions cut by weight alone: the first paces known cut
  // them at once rather than at the first hand-over due, a third of the way into a 0.1 s span
  // of the dc7 dense flow (docs/parallel.md, "Shares by pace"). Later paces wait for a
  // hand-over due anyway.
  const bool first_paces = moved_shares && !cut_by_paces && paces_known();
  ++steps;
  if (!uneven && !first_paces && ranks.max(moved) <= 0.5 * skin) return false;
  if (uneven || moved_shares) {
    regions = Decomposition::bisection(own_places, weights, ranks.size(), ranks, shares);
    cut_shares = shares;
    cut_by_paces = cut_by_paces || paces_known();
    ++recuts;
  }
  hand_over(world);
  return true;
}

bool RankShare::paces_known() const {
  return paced && search_pace.size() == std::size_t(ranks.size()) &&
         std::find(search_pace.begin(), search_pace.end(), 0.0) == search_pace.end();
}

std::vector<std::int64_t> RankShare::search_shares() const {
  if (!paces_known()) return std::vector<std::int64_t>(std::size_t(ranks.size()), 1);
  const double fastest = *std::min_element(search_pace.begin(), search_pace.end());
  std::vector<std::int64_t> shares;
  for (const double pace : search_pace) shares.push_back(std::max<std::int64_t>(1, std::llround(double(1 << 20) * fastest / pace)));
  return shares;
}

double RankShare::total(ExactSum partial) const {
  ranks.sum(std::span<ExactSum>(&partial, 1));
  return partial.value();
}

}  // namespace scree::solver
