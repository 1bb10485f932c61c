#include "solver/ranks/island_labels.h"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "solver/contacts/union_find.h"

namespace scree::solver {

namespace {

// A label told a partner: the shared grain's place in the partner's order (its own grains this
// rank holds, then this rank's it holds), and the label.
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
  // By partner and shared grain, in this rank's order (the partner's grains held here, then
  // this rank's it holds), the least id each side knows the other holds for it: at first the
  // grain's own. A round tells each partner only the labels that fell since (a round's
  // labels, every shared grain's, had been most of the sharing's instructions on sixteen
  // ranks: docs/benchmarks.md, "Instructions on sixteen ranks"). The partner's order is the
  // other way round: its own grains first.
  auto grain_at = [&](std::size_t k, std::size_t place) {
    return place < halo.take[k].size() ? halo.take[k][place] : halo.send[k][place - halo.take[k].size()];
  };
  auto partners_place = [&](std::size_t k, std::size_t place) {
    return std::uint32_t(place < halo.take[k].size() ? halo.send[k].size() + place : place - halo.take[k].size());
  };
  std::vector<std::vector<std::uint64_t>> known(halo.partners.size());
  for (std::size_t k = 0; k < halo.partners.size(); ++k) {
    known[k].resize(halo.take[k].size() + halo.send[k].size());
    for (std::size_t place = 0; place < known[k].size(); ++place) known[k][place] = ids[grain_at(k, place)];
  }
  for (;;) {
    std::vector<Bytes> outgoing;
    for (std::size_t k = 0; k < halo.partners.size(); ++k) {
      std::vector<Told> told;
      for (std::size_t place = 0; place < known[k].size(); ++place)
        if (const IslandLabel& label = least[root[grain_at(k, place)]]; label.id < known[k][place]) {
          told.push_back({label, partners_place(k, place)});
          known[k][place] = label.id;
        }
      outgoing.push_back(to_bytes<Told>(told));
    }
    const std::vector<Bytes> incoming = ranks.exchange(halo.partners, outgoing);
    double fell = 0;
    for (std::size_t k = 0; k < halo.partners.size(); ++k)
      for (const Told& heard : from_bytes<Told>(incoming[k])) {
        if (heard.at >= known[k].size())
          throw std::logic_error("island_labels: rank " + std::to_string(halo.partners[k]) + " shares other grains");
        known[k][heard.at] = std::min(known[k][heard.at], heard.label.id);  // the partner knows it: not told back
        if (IslandLabel& label = least[root[grain_at(k, heard.at)]]; heard.label.id < label.id) {
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
