#pragma once
// What resting contact carries from one step to the next: the impulse each support point
// applied (the warm start of seed 002), by the point's identity. A sorted array (40 bytes a
// point, found by bisection) rather than a tree of nodes: a settled heap holds ~20 points a
// grain, and the step looks each one up once a sweep.
#include <algorithm>
#include <compare>
#include <cstdint>
#include <utility>
#include <vector>

#include "solver/rigid_body.h"

namespace scree::solver {

// One support point of a resting contact, the same from step to step: grain A, body B (a
// grain, or a wall's static body), the plane of B's wall (0 for a grain) and A's boundary node
// (−1 for a sphere).
struct RestingKey {
  std::uint32_t a, b;
  std::int32_t plane, node;
  auto operator<=>(const RestingKey&) const = default;
};

class RestingImpulses {
 public:
  using Entry = std::pair<RestingKey, Vec3>;

  RestingImpulses() = default;
  // Entries in any order; of equal keys the last one given is kept. Sorted by A first (a
  // count of each A's entries places them, in the order given), then each A's few entries by
  // the rest of the key in place: linear in the entries, where a general sort of a heap's
  // 30 000 took the books' share of a step on one thread (docs/benchmarks.md, the seventh pass).
  explicit RestingImpulses(std::vector<Entry> entries) {
    std::uint32_t a_count = 0;
    for (const Entry& e : entries) a_count = std::max(a_count, e.first.a + 1);
    std::vector<std::uint32_t> next(a_count + 1, 0);  // A's first place
    for (const Entry& e : entries) ++next[e.first.a + 1];
    for (std::uint32_t a = 0; a < a_count; ++a) next[a + 1] += next[a];
    entries_.resize(entries.size());
    for (const Entry& e : entries) entries_[next[e.first.a]++] = e;
    entries = {};
    auto before = [](const Entry& x, const Entry& y) { return x.first < y.first; };
    for (std::size_t k = 1; k < entries_.size(); ++k)  // insertion, stable; runs of one A only
      for (std::size_t j = k; j > 0 && before(entries_[j], entries_[j - 1]); --j) std::swap(entries_[j], entries_[j - 1]);
    std::size_t kept = 0;
    for (const Entry& e : entries_) {
      if (kept > 0 && entries_[kept - 1].first == e.first) entries_[kept - 1] = e;
      else entries_[kept++] = e;
    }
    entries_.resize(kept);
  }

  const Vec3* find(const RestingKey& key) const {
    const auto it = std::lower_bound(entries_.begin(), entries_.end(), key,
                                     [](const Entry& e, const RestingKey& k) { return e.first < k; });
    return it != entries_.end() && it->first == key ? &it->second : nullptr;
  }
  // Takes in the entries of `newer`, which replace any of the same key. The merge is made in
  // an array of exactly its size: a settled heap's step holds three of these at once (the last
  // step's, this step's and the sweep's), and they are its biggest arrays after the points.
  void update(RestingImpulses newer) {
    if (entries_.empty()) {
      entries_ = std::move(newer.entries_);
      return;
    }
    std::size_t size = entries_.size() + newer.size();
    for (auto older = entries_.begin(), e = newer.entries_.begin(); older != entries_.end() && e != newer.entries_.end();) {
      if (older->first < e->first) ++older;
      else if (e->first < older->first) ++e;
      else --size, ++older, ++e;
    }
    std::vector<Entry> merged;
    merged.reserve(size);
    auto older = entries_.begin();
    for (const Entry& e : newer.entries_) {
      for (; older != entries_.end() && older->first < e.first; ++older) merged.push_back(*older);
      if (older != entries_.end() && older->first == e.first) ++older;
      merged.push_back(e);
    }
    merged.insert(merged.end(), older, entries_.end());
    entries_ = std::move(merged);
  }

  auto begin() const { return entries_.begin(); }
  auto end() const { return entries_.end(); }
  std::size_t size() const { return entries_.size(); }
  bool empty() const { return entries_.empty(); }
  bool operator==(const RestingImpulses&) const = default;

 private:
  std::vector<Entry> entries_;  // sorted by key, keys unique
};

}  // namespace scree::solver
