#pragma once
// Contact islands (seed 000 §5): the connected components of the contact graph, resolved
// one by one. Static bodies (walls, terrain, clamped balls) do not join islands: an impulse
// cannot travel through a body that does not move, so two grains resting on the same floor
// are separate problems.
#include <cstdint>
#include <utility>
#include <vector>

namespace scree::solver {

struct Island {
  std::vector<std::uint32_t> bodies;    // ascending
  std::vector<std::uint32_t> contacts;  // indices into the contact list, ascending
};

// `pairs[c]` are the two bodies of contact c; `is_static[b]` says body b does not move.
// Islands come out ordered by their smallest body, so the order of resolution is fixed by
// body ids, not by the order contacts were found (DESIGN §5). Contacts between two static
// bodies belong to no island.
std::vector<Island> contact_islands(const std::vector<std::pair<std::uint32_t, std::uint32_t>>& pairs,
                                    const std::vector<bool>& is_static);

// How many contacts deep an island is: the most contacts that separate one of its grains from
// a static body, along the fewest (a column of N balls on the floor: N). An island that
// touches nothing static counts twice the most contacts from its smallest body (at least its
// diameter). The load path a resting solve must carry a step's gravity along.
int island_layers(const Island& island, const std::vector<std::pair<std::uint32_t, std::uint32_t>>& pairs,
                  const std::vector<bool>& is_static);

// Grains 0 .. grains − 1 and the links between them (`links`, pairs of grains), for depths
// breadth first: spread() lowers each grain's depth (−1: none yet) to one more than a linked
// grain's where that is less, from the depths given, and says whether any fell. From the same
// depths it gives the same whoever holds the links: ranks holding some each spread theirs and
// exchange their shared grains' depths until none falls (ranks/island_depths.h).
class DepthGraph {
 public:
  DepthGraph(std::size_t grains, const std::vector<std::pair<std::uint32_t, std::uint32_t>>& links);
  bool spread(std::vector<int>& depth) const;

 private:
  std::vector<std::uint32_t> first_, neighbours_;  // grain g's: neighbours_[first_[g] .. first_[g + 1])
};

}  // namespace scree::solver
