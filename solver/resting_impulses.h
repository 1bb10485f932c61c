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

// One store serves a whole step: it starts as the last step's impulses, each sweep's merge
// marks what it sets as the step's own, and at the end only those are kept (keep_this_step),
// so that a step holds one store, not the last step's beside its own.
class RestingImpulses {
 public:
  using Entry = std::pair<RestingKey, Vec3>;

  RestingImpulses() = default;
  // Entries in any order, none of them of the step under way; of equal keys the last one
  // given is kept. Sorted by A first (a count of each A's entries places them, in the order
  // given), then each A's few entries by the rest of the key in place: linear in the
  // entries, where a general sort of a heap's 30 000 took the books' share of a step on one
  // thread (docs/benchmarks.md, the seventh pass).
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
    this_step_.assign(kept, false);
  }

  // The impulse of `key` (nullptr if none), and whether the step under way set it (else it
  // is the last step's): one search for what a point starts from.
  struct Found {
    const Vec3* impulse;
    bool this_step;
  };
  Found find(const RestingKey& key) const {
    const std::size_t k = place(key);
    return k < entries_.size() ? Found{&entries_[k].second, this_step_[k]} : Found{nullptr, false};
  }
  // The impulse of `key` if the step under way set it, or nullptr.
  const Vec3* find_of_this_step(const RestingKey& key) const {
    const Found found = find(key);
    return found.this_step ? found.impulse : nullptr;
  }
  // The impulse of `key` if it is the last step's (the step under way has not set it), or nullptr.
  const Vec3* find_of_last_step(const RestingKey& key) const {
    const Found found = find(key);
    return found.this_step ? nullptr : found.impulse;
  }

  // Takes in the entries of `newer` as the step's own; they replace any of the same key. The
  // merge runs from the back in place, into the array's spare room (keep_this_step keeps the
  // room the step's merges took): a settled heap's step then holds two such arrays at most
  // (the store and the sweep's), and they are its biggest after the points.
  void update(RestingImpulses newer) {
    std::size_t size = entries_.size() + newer.size();
    for (auto older = entries_.begin(), e = newer.entries_.begin(); older != entries_.end() && e != newer.entries_.end();) {
      if (older->first < e->first) ++older;
      else if (e->first < older->first) ++e;
      else --size, ++older, ++e;
    }
    std::size_t older = entries_.size(), next = newer.size(), to = size;
    if (size > entries_.capacity()) entries_.reserve(size + size / 16);  // not twice: a step adds few
    entries_.resize(size);
    this_step_.resize(size);
    // What is still to be placed lies at or before `to`: the older entries left are at most
    // as many as the places left.
    while (next > 0) {
      const Entry& e = newer.entries_[next - 1];
      --to;
      if (older > 0 && e.first < entries_[older - 1].first) {
        entries_[to] = entries_[older - 1];
        this_step_[to] = this_step_[older - 1];
        --older;
        continue;
      }
      if (older > 0 && entries_[older - 1].first == e.first) --older;
      entries_[to] = e;
      this_step_[to] = true;
      --next;
    }
  }
  // Ends the step: only the entries it set are kept, now the last step's.
  void keep_this_step() {
    std::size_t kept = 0;
    for (std::size_t k = 0; k < entries_.size(); ++k)
      if (this_step_[k]) entries_[kept++] = entries_[k];
    entries_.resize(kept);
    this_step_.assign(kept, false);
  }

  auto begin() const { return entries_.begin(); }
  auto end() const { return entries_.end(); }
  std::size_t size() const { return entries_.size(); }
  bool empty() const { return entries_.empty(); }
  bool operator==(const RestingImpulses&) const = default;

 private:
  // The place of `key`, or size() if it has none.
  std::size_t place(const RestingKey& key) const {
    const auto it = std::lower_bound(entries_.begin(), entries_.end(), key,
                                     [](const Entry& e, const RestingKey& k) { return e.first < k; });
    return it != entries_.end() && it->first == key ? std::size_t(it - entries_.begin()) : entries_.size();
  }

  std::vector<Entry> entries_;   // sorted by key, keys unique
  std::vector<bool> this_step_;  // by entry: set by the step under way (else the last step's)
};

}  // namespace scree::solver
