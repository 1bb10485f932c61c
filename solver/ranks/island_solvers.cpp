#include "solver/ranks/island_solvers.h"

#include <algorithm>
#include <bit>
#include <map>
#include <tuple>

#include "solver/ranks/parcel.h"

namespace scree::solver {

std::uint64_t expected_island_work(std::uint64_t points) {
  if (points == 0) return 0;
  // 9 passes a point, 3 more each time the island doubles, at most 31 (a fit by powers of two
  // of the passes a point by island size, docs/benchmarks.md, "Small islands by their work").
  const std::uint64_t passes = std::min<std::uint64_t>(31, 9 + 3 * std::uint64_t(std::bit_width(points) - 1));
  return points * passes;
}

std::vector<std::pair<std::uint64_t, int>> balance_islands(std::vector<std::uint64_t> load, std::vector<MovableIsland> islands) {
  const std::uint64_t ranks = load.size();
  std::uint64_t total = 0;
  for (const std::uint64_t work : load) total += work;
  // Against the mean without dividing: a rank's excess over it, times the rank count.
  auto excess = [&](std::uint64_t work) { return std::int64_t(ranks * work) - std::int64_t(total); };
  std::sort(islands.begin(), islands.end(), [](const MovableIsland& x, const MovableIsland& y) {
    return std::tie(x.rank, y.work, x.label) < std::tie(y.rank, x.work, y.label);
  });
  std::set<std::pair<std::uint64_t, int>> by_load;
  for (std::size_t r = 0; r < load.size(); ++r) by_load.emplace(load[r], int(r));
  std::vector<std::pair<std::uint64_t, int>> moved;
  for (const MovableIsland& island : islands) {
    const std::int64_t whole = std::int64_t(ranks * island.work), half = whole / 2;
    const auto [least, taker] = *by_load.begin();  // never the giver: the least holds no more than the mean
    if (excess(load[std::size_t(island.rank)]) <= half || excess(least) + whole >= half) continue;
    by_load.erase(by_load.begin());
    by_load.erase({load[std::size_t(island.rank)], island.rank});
    load[std::size_t(island.rank)] -= island.work;
    load[std::size_t(taker)] += island.work;
    by_load.emplace(load[std::size_t(island.rank)], island.rank);
    by_load.emplace(load[std::size_t(taker)], taker);
    moved.emplace_back(island.label, taker);
  }
  return moved;
}

IslandSolvers island_solvers(const RestingContacts& resting, const std::vector<IslandLabel>& labels, const Ranks& ranks) {
  struct Count {
    std::uint64_t label, points;
  };
  std::map<std::uint64_t, std::pair<int, std::uint64_t>> here;  // by label: its owner, the points here
  // A face's points lie together, and a pair's faces: the map is asked once a run of points of
  // one island (once a point, it was a twentieth of the sharing).
  for (std::size_t k = 0; k < resting.points.size();) {
    const IslandLabel& label = labels[resting.face_of(resting.points[k]).a];
    std::size_t end = k + 1;
    while (end < resting.points.size() && labels[resting.face_of(resting.points[end]).a].id == label.id) ++end;
    auto& [owner, points] = here[label.id];
    owner = int(label.owner);
    points += end - k;
    k = end;
  }
  std::map<int, std::vector<Count>> to_owners;
  for (const auto& [id, at] : here) to_owners[at.first].push_back({id, at.second});
  std::vector<std::pair<int, Bytes>> outgoing;
  for (const auto& [rank, counts] : to_owners) outgoing.emplace_back(rank, to_bytes(std::span<const Count>(counts)));
  std::map<std::uint64_t, std::uint64_t> points;
  for (const auto& [sender, bytes] : ranks.send_to_any(outgoing))
    for (const Count& c : from_bytes<Count>(bytes)) points[c.label] += c.points;
  // This rank's islands, big or movable, and the expected work of the rest.
  std::vector<Count> listed;
  std::vector<std::uint64_t> unlisted_work{0};
  for (const auto& [id, count] : points)
    if (count >= movable_island_points) listed.push_back({id, count});
    else unlisted_work[0] += expected_island_work(count);
  IslandSolvers solvers;
  std::vector<std::uint64_t> load;  // by rank
  std::vector<MovableIsland> movable;
  const std::vector<Bytes> every = ranks.gather_all(Parcel::of(listed, unlisted_work));
  for (std::size_t r = 0; r < every.size(); ++r) {
    ParcelReader in(every[r]);
    const std::vector<Count> theirs = in.take<Count>();
    load.push_back(in.take<std::uint64_t>().at(0));
    for (const Count& island : theirs)
      if (island.points >= shared_island_points) {
        solvers.big.insert(island.label);
      } else {
        movable.push_back({island.label, expected_island_work(island.points), int(r)});
        load.back() += movable.back().work;
      }
  }
  for (const auto& [label, rank] : balance_islands(std::move(load), std::move(movable))) solvers.moved.emplace(label, rank);
  return solvers;
}

}  // namespace scree::solver
