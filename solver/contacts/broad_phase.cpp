#include "solver/contacts/broad_phase.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <stdexcept>
#include <unordered_map>

namespace scree::solver {

namespace {
// Cell coordinates packed into one sortable key (21 bits a coordinate, offset to positive).
std::uint64_t cell_key(std::int64_t i, std::int64_t j, std::int64_t k) {
  constexpr std::int64_t offset = 1 << 20;
  return (std::uint64_t(i + offset) << 42) | (std::uint64_t(j + offset) << 21) | std::uint64_t(k + offset);
}
}  // namespace

std::vector<BodyPair> overlapping_pairs(const std::vector<Eigen::Vector3d>& centres,
                                        const std::vector<double>& radii, double margin) {
  const std::size_t n = centres.size();
  if (radii.size() != n) throw std::invalid_argument("broad phase: one radius per centre");
  std::vector<BodyPair> pairs;
  if (n < 2) return pairs;
  const double cell = 2 * *std::max_element(radii.begin(), radii.end()) + margin;
  Eigen::Vector3d lower = centres[0];
  for (const auto& c : centres) lower = lower.cwiseMin(c);

  std::vector<std::array<std::int64_t, 3>> cells(n);
  std::vector<std::pair<std::uint64_t, std::uint32_t>> sorted(n);  // (cell key, body)
  for (std::size_t b = 0; b < n; ++b) {
    for (int a = 0; a < 3; ++a) cells[b][a] = std::int64_t(std::floor((centres[b][a] - lower[a]) / cell));
    if (cells[b][0] >= (1 << 20) || cells[b][1] >= (1 << 20) || cells[b][2] >= (1 << 20))
      throw std::invalid_argument("broad phase: bodies spread over more than 2^20 cells along an axis");
    sorted[b] = {cell_key(cells[b][0], cells[b][1], cells[b][2]), std::uint32_t(b)};
  }
  std::sort(sorted.begin(), sorted.end());
  // Each occupied cell's run in `sorted`, found by hashing its key: 27 lookups a body.
  std::unordered_map<std::uint64_t, std::pair<std::uint32_t, std::uint32_t>> runs;
  runs.reserve(n);
  for (std::uint32_t start = 0; start < n;) {
    std::uint32_t end = start + 1;
    while (end < n && sorted[end].first == sorted[start].first) ++end;
    runs.emplace(sorted[start].first, std::pair(start, end));
    start = end;
  }

  for (std::size_t b = 0; b < n; ++b) {
    for (int di = -1; di <= 1; ++di)
      for (int dj = -1; dj <= 1; ++dj)
        for (int dk = -1; dk <= 1; ++dk) {
          const auto run = runs.find(cell_key(cells[b][0] + di, cells[b][1] + dj, cells[b][2] + dk));
          if (run == runs.end()) continue;
          for (std::uint32_t k = run->second.first; k < run->second.second; ++k) {
            const std::uint32_t other = sorted[k].second;
            if (other <= b) continue;  // each pair once, from its lower index
            const double reach = radii[b] + radii[other] + margin;
            if ((centres[b] - centres[other]).squaredNorm() <= reach * reach) pairs.emplace_back(std::uint32_t(b), other);
          }
        }
  }
  std::sort(pairs.begin(), pairs.end());
  return pairs;
}

std::vector<BodyPair> NeighbourList::pairs(const std::vector<Eigen::Vector3d>& centres,
                                           const std::vector<double>& radii, double margin, double skin) {
  // Two bodies within radii + margin now, each moved at most δ since the build, were within
  // radii + margin + 2δ then: the candidates hold every pair while that is within the build's
  // reach (a hair less, for round-off).
  bool valid = reach_at_build_ >= 0 && centres.size() == centres_at_build_.size() && radii == radii_at_build_;
  double moved2 = 0;
  for (std::size_t b = 0; valid && b < centres.size(); ++b)
    moved2 = std::max(moved2, (centres[b] - centres_at_build_[b]).squaredNorm());
  if (!valid || margin + 2 * std::sqrt(moved2) > reach_at_build_ * (1 - 1e-9)) {
    candidates_ = overlapping_pairs(centres, radii, margin + skin);
    centres_at_build_ = centres;
    radii_at_build_ = radii;
    reach_at_build_ = margin + skin;
    ++rebuilds_;
  }
  std::vector<BodyPair> found;
  for (const auto& [a, b] : candidates_) {
    const double reach = radii[a] + radii[b] + margin;
    if ((centres[a] - centres[b]).squaredNorm() <= reach * reach) found.emplace_back(a, b);
  }
  return found;
}

}  // namespace scree::solver
