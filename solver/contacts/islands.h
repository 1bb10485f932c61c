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

}  // namespace scree::solver
