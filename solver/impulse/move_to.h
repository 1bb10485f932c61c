#pragma once
// A permutation carried out in place (docs/theory.md, "The resting solve": the resting points
// move into the order the passes read them).
#include <algorithm>
#include <cstdint>
#include <vector>

namespace scree::solver {

// Moves items[k] to items[to[k]] for every k (`to` a permutation), in place: each place is
// filled from where its item is, one copy an item, along the permutation's cycles. A cycle of
// more than `most_in_run` places is cut into runs, each run's first item kept aside, and the
// runs move side by side, a run's last place taking the next run's kept item; shorter cycles
// move as they are found. Serial, moving a settled 1000-grain heap's points into schedule
// order was a tenth of the resting points' time on two threads (docs/benchmarks.md, "The
// twentieth pass"); 85–99 % of its places lie in cycles longer than a run.
template <class Items>
void move_to(Items& items, const std::vector<std::uint32_t>& to) {
  constexpr std::size_t most_in_run = 4096;
  const std::size_t n = items.size();
  std::vector<std::uint32_t> from(n);
  for (std::size_t k = 0; k < n; ++k) from[to[k]] = std::uint32_t(k);
  struct Run {
    std::uint32_t first, length, next;  // its first place, its places, the run whose kept item ends it
  };
  std::vector<Run> runs;
  std::vector<char> done(n, false);
  for (std::size_t start = 0; start < n; ++start) {
    if (done[start]) continue;
    std::size_t length = 0;
    for (std::size_t k = start; !done[k]; k = from[k]) done[k] = true, ++length;
    if (length <= most_in_run) {
      const typename Items::value_type first = items[start];
      std::size_t k = start;
      for (; from[k] != start; k = from[k]) items[k] = items[from[k]];
      items[k] = first;
      continue;
    }
    const std::uint32_t cycle_runs = std::uint32_t((length + most_in_run - 1) / most_in_run);
    const std::uint32_t first_run = std::uint32_t(runs.size());
    std::uint32_t k = std::uint32_t(start);
    for (std::uint32_t r = 0; r < cycle_runs; ++r) {
      const std::uint32_t in_run = std::uint32_t(std::min(most_in_run, length - r * most_in_run));
      runs.push_back({k, in_run, r + 1 < cycle_runs ? first_run + r + 1 : first_run});
      for (std::uint32_t i = 0; i < in_run; ++i) k = from[k];
    }
  }
  std::vector<typename Items::value_type> kept(runs.size());
  for (std::size_t r = 0; r < runs.size(); ++r) kept[r] = items[runs[r].first];
#pragma omp parallel for schedule(dynamic, 1) if (runs.size() > 1)
  for (std::size_t r = 0; r < runs.size(); ++r) {
    std::uint32_t k = runs[r].first;
    for (std::uint32_t i = 1; i < runs[r].length; ++i, k = from[k]) items[k] = items[from[k]];
    items[k] = kept[runs[r].next];
  }
}

}  // namespace scree::solver
