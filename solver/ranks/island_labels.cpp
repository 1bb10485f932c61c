#include "solver/ranks/island_labels.h"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "solver/contacts/union_find.h"

namespace scree::solver {

namespace {

// A label told a partner: the shared grain's place in the lists the two hold of each other
// (the partner's send list, then its take list, as seen from it), and the label.
struct Told {
  IslandLabel label;
  std::uint32_t at;
};

}  // namespace

std::vector<IslandLabel> island_labels(std::span<const std::uint64_t> ids,
                                       const std::vector<std::pair<std::uint32_t, std::uint32_t>>& links, const Halo& halo,
                                       const Ranks& ranks) {
  const std::size_t n = ids.size();
  // The links never change: the sets are joined once. A set's root is its least place, and a
  // world's grains lie in id order, so the root's label (its id, and its owner: this rank, or
  // the partner it takes the grain from) starts as the set's least; the rounds lower it with
  // what the partners tell of their shared grains (docs/parallel.md, "The step across ranks").
  SmallestRootSets sets(n);
  for (const auto& [a, b] : links) sets.join(a, b);
  std::vector<std::uint32_t> root(n);
  for (std::uint32_t i = 0; i < n; ++i) root[i] = sets.root(i);
  std::vector<IslandLabel> least(n);
  for (std::uint32_t i = 0; i < n; ++i) least[i] = {ids[i], ranks.rank()};
  for (std::size_t k = 0; k < halo.partners.size(); ++k)
    for (std::uint32_t i : halo.take[k]) least[i].owner = halo.partners[k];
  // By partner and shared grain (its take list, then its send list: the order the partner
  // sends them in), the least id each side knows the other holds for it: at first the
  // grain's own. A round tells each partner only the labels that fell since (a round's
  // labels, every shared grain's, had been most of the sharing's instructions on sixteen
  // ranks: docs/benchmarks.md, "Instructions on sixteen ranks").
  std::vector<std::vector<std::uint64_t>> known(halo.partners.size());
  for (std::size_t k = 0; k < halo.partners.size(); ++k) {
    for (std::uint32_t i : halo.take[k]) known[k].push_back(ids[i]);
    for (std::uint32_t i : halo.send[k]) known[k].push_back(ids[i]);
  }
  for (;;) {
    std::vector<Bytes> outgoing;
    for (std::size_t k = 0; k < halo.partners.size(); ++k) {
      std::vector<Told> told;
      std::uint32_t at = 0;
      // Seen from the partner: this rank's send list is its take list.
      for (const auto* list : {&halo.send[k], &halo.take[k]})
        for (std::uint32_t i : *list) {
          const IslandLabel& label = least[root[i]];
          // `known` is in this rank's order (take, then send); `at` in the partner's.
          const std::size_t here = list == &halo.send[k] ? halo.take[k].size() + at : at - halo.send[k].size();
          if (label.id < known[k][here]) {
            told.push_back({label, at});
            known[k][here] = label.id;
          }
          ++at;
        }
      outgoing.push_back(to_bytes<Told>(told));
    }
    const std::vector<Bytes> incoming = ranks.exchange(halo.partners, outgoing);
    double fell = 0;
    for (std::size_t k = 0; k < halo.partners.size(); ++k)
      for (const Told& heard : from_bytes<Told>(incoming[k])) {
        if (heard.at >= known[k].size())
          throw std::logic_error("island_labels: rank " + std::to_string(halo.partners[k]) + " shares other grains");
        const std::uint32_t i = heard.at < halo.take[k].size() ? halo.take[k][heard.at] : halo.send[k][heard.at - halo.take[k].size()];
        known[k][heard.at] = std::min(known[k][heard.at], heard.label.id);  // the partner knows it: not told back
        if (IslandLabel& label = least[root[i]]; heard.label.id < label.id) {
          label = heard.label;
          fell = 1;
        }
      }
    if (ranks.max(fell) == 0) break;
  }
  std::vector<IslandLabel> label(n);
  for (std::uint32_t i = 0; i < n; ++i) label[i] = least[root[i]];
  return label;
}

}  // namespace scree::solver
