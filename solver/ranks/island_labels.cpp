#include "solver/ranks/island_labels.h"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "solver/contacts/union_find.h"

namespace scree::solver {

std::vector<IslandLabel> island_labels(std::span<const std::uint64_t> ids,
                                       const std::vector<std::pair<std::uint32_t, std::uint32_t>>& links, const Halo& halo,
                                       const Ranks& ranks) {
  const std::size_t n = ids.size();
  // Each grain named by itself and its owner: this rank, or the partner it takes it from.
  std::vector<IslandLabel> label(n);
  for (std::uint32_t i = 0; i < n; ++i) label[i] = {ids[i], ranks.rank()};
  for (std::size_t k = 0; k < halo.partners.size(); ++k)
    for (std::uint32_t i : halo.take[k]) label[i].owner = halo.partners[k];
  auto less = [](const IslandLabel& x, const IslandLabel& y) { return x.id < y.id; };
  // The links never change: the sets are joined once, and each round spreads the least label
  // over each set, then swaps the shared grains' labels with the partners.
  SmallestRootSets sets(n);
  for (const auto& [a, b] : links) sets.join(a, b);
  std::vector<std::uint32_t> root(n);
  for (std::uint32_t i = 0; i < n; ++i) root[i] = sets.root(i);
  std::vector<IslandLabel> least(n);
  for (;;) {
    std::fill(least.begin(), least.end(), IslandLabel{~std::uint64_t(0), -1});
    for (std::uint32_t i = 0; i < n; ++i) least[root[i]] = std::min(least[root[i]], label[i], less);
    for (std::uint32_t i = 0; i < n; ++i) label[i] = least[root[i]];
    // To each partner: the labels of the grains it holds of this rank's, then of its own held
    // here; back, in the same lists seen from its side.
    std::vector<Bytes> outgoing;
    for (std::size_t k = 0; k < halo.partners.size(); ++k) {
      std::vector<IslandLabel> told;
      for (std::uint32_t i : halo.send[k]) told.push_back(label[i]);
      for (std::uint32_t i : halo.take[k]) told.push_back(label[i]);
      outgoing.push_back(to_bytes<IslandLabel>(told));
    }
    const std::vector<Bytes> incoming = ranks.exchange(halo.partners, outgoing);
    double fell = 0;
    for (std::size_t k = 0; k < halo.partners.size(); ++k) {
      const std::vector<IslandLabel> heard = from_bytes<IslandLabel>(incoming[k]);
      if (heard.size() != halo.take[k].size() + halo.send[k].size())
        throw std::logic_error("island_labels: rank " + std::to_string(halo.partners[k]) + " shares other grains");
      std::size_t at = 0;
      for (const auto* list : {&halo.take[k], &halo.send[k]})
        for (std::uint32_t i : *list) {
          if (heard[at].id < label[i].id) {
            label[i] = heard[at];
            fell = 1;
          }
          ++at;
        }
    }
    if (ranks.max(fell) == 0) return label;
  }
}

}  // namespace scree::solver
