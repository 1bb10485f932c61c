#include "solver/ranks/island_labels.h"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "solver/contacts/union_find.h"

namespace scree::solver {

std::vector<std::uint64_t> island_labels(std::span<const std::uint64_t> ids,
                                         const std::vector<std::pair<std::uint32_t, std::uint32_t>>& links,
                                         const Halo& halo, const Ranks& ranks) {
  const std::size_t n = ids.size();
  std::vector<std::uint64_t> label(ids.begin(), ids.end());
  // The links never change: the sets are joined once, and each round spreads the least label
  // over each set, then swaps the shared grains' labels with the partners.
  SmallestRootSets sets(n);
  for (const auto& [a, b] : links) sets.join(a, b);
  std::vector<std::uint32_t> root(n);
  for (std::uint32_t i = 0; i < n; ++i) root[i] = sets.root(i);
  std::vector<std::uint64_t> least(n);
  for (;;) {
    std::fill(least.begin(), least.end(), ~std::uint64_t(0));
    for (std::uint32_t i = 0; i < n; ++i) least[root[i]] = std::min(least[root[i]], label[i]);
    for (std::uint32_t i = 0; i < n; ++i) label[i] = least[root[i]];
    // To each partner: the labels of the grains it holds of this rank's, then of its own held
    // here; back, in the same lists seen from its side.
    std::vector<Bytes> outgoing;
    for (std::size_t k = 0; k < halo.partners.size(); ++k) {
      std::vector<std::uint64_t> told;
      for (std::uint32_t i : halo.send[k]) told.push_back(label[i]);
      for (std::uint32_t i : halo.take[k]) told.push_back(label[i]);
      outgoing.push_back(to_bytes<std::uint64_t>(told));
    }
    const std::vector<Bytes> incoming = ranks.exchange(halo.partners, outgoing);
    double fell = 0;
    for (std::size_t k = 0; k < halo.partners.size(); ++k) {
      const std::vector<std::uint64_t> heard = from_bytes<std::uint64_t>(incoming[k]);
      if (heard.size() != halo.take[k].size() + halo.send[k].size())
        throw std::logic_error("island_labels: rank " + std::to_string(halo.partners[k]) + " shares other grains");
      std::size_t at = 0;
      for (const auto* list : {&halo.take[k], &halo.send[k]})
        for (std::uint32_t i : *list) {
          if (heard[at] < label[i]) {
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
