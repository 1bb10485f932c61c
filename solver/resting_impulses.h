#pragma once
// What resting contact carries from one step to the next: the impulse each support point
// applied (the warm start of seed 002), by the point's identity. A sorted array (28 bytes a
// point) rather than a tree of nodes: a settled heap holds ~20 points a grain, and the step
// looks each one up once a sweep, by bisection among the entries of its grain A alone (where
// each A's entries begin is kept beside them, 4 bytes a grain): over the whole array, a
// 4000-grain heap's 17 halvings a lookup missed the cache at the first dozen
// (docs/benchmarks.md, "The fifteenth pass").
#include <algorithm>
#include <compare>
#include <cstdint>
#include <span>
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
  // In single precision: a warm start needs no more, and a later sweep of the step that starts
  // from it books what it adds to it, so the books stay exact (28 bytes an entry rather than 40,
  // docs/benchmarks.md, "The eleventh pass").
  using Impulse = Eigen::Vector3f;
  using Entry = std::pair<RestingKey, Impulse>;

  RestingImpulses() = default;
  // Entries in any order, none of them of the step under way; of equal keys the last one
  // given is kept.
  explicit RestingImpulses(std::vector<Entry> entries) {
    const std::vector<Sorted> sorted = sorted_keys(entries.size(), [&](std::size_t k) { return entries[k].first; });
    entries_.reserve(sorted.size() + sorted.size() / 16);  // room for a step's new points, as update() keeps
    for (const Sorted& e : sorted) entries_.push_back(entries[e.index]);
    this_step_.assign(entries_.size(), 0);
    index_grains();
  }

  // The impulse of `key` (nullptr if none), and whether the step under way set it (else it
  // is the last step's): one search for what a point starts from.
  struct Found {
    const Impulse* impulse;
    bool this_step;
  };
  Found find(const RestingKey& key) const { return at(place(key)); }
  // Where `key`'s entry lies, or `none`: valid until the entries change (update, keep_this_step).
  static constexpr std::uint32_t none = ~std::uint32_t(0);
  std::uint32_t place_of(const RestingKey& key) const {
    const std::size_t k = place(key);
    return k < entries_.size() ? std::uint32_t(k) : none;
  }
  // The entry at a place place_of() gave (or `none`), as find() would.
  Found at(std::size_t place) const {
    return place < entries_.size() ? Found{&entries_[place].second, this_step_[place] != 0} : Found{nullptr, false};
  }
  // The impulse of `key` if the step under way set it, or nullptr.
  const Impulse* find_of_this_step(const RestingKey& key) const {
    const Found found = find(key);
    return found.this_step ? found.impulse : nullptr;
  }
  // The impulse of `key` if it is the last step's (the step under way has not set it), or nullptr.
  const Impulse* find_of_last_step(const RestingKey& key) const {
    const Found found = find(key);
    return found.this_step ? nullptr : found.impulse;
  }

  // Takes in `count` entries, the k-th of key key_of(k) and impulse impulse_of(k), as the
  // step's own; they replace any of the same key, and of equal keys among them the last is
  // kept. They are read where they lie (a sweep's resting points): their keys, read in
  // order, are sorted with their indices, and each impulse is read once, as it is merged in.
  // A sorted copy of the entries would be a step's peak of memory; sorted as bare indices,
  // the keys were read from where they lie at every comparison, a miss of the cache each
  // (docs/benchmarks.md, "The eighth pass" and "The ninth pass"). The merge runs from the back
  // in place, into the array's spare room (keep_this_step keeps the room the step's merges
  // took).
  template <class KeyOf, class ImpulseOf>
  void update(std::size_t count, const KeyOf& key_of, const ImpulseOf& impulse_of) {
    const std::vector<Sorted> sorted = sorted_keys(count, key_of);
    std::size_t size = entries_.size() + sorted.size();
    for (std::size_t older = 0, e = 0; older < entries_.size() && e < sorted.size();) {
      const RestingKey& key = sorted[e].key;
      if (entries_[older].first < key) ++older;
      else if (key < entries_[older].first) ++e;
      else --size, ++older, ++e;
    }
    std::size_t older = entries_.size(), next = sorted.size(), to = size;
    if (size > entries_.capacity()) entries_.reserve(size + size / 16);  // not twice: a step adds few
    entries_.resize(size);
    this_step_.resize(size);
    // What is still to be placed lies at or before `to`: the older entries left are at most
    // as many as the places left.
    while (next > 0) {
      const RestingKey& key = sorted[next - 1].key;
      --to;
      if (older > 0 && key < entries_[older - 1].first) {
        entries_[to] = entries_[older - 1];
        this_step_[to] = this_step_[older - 1];
        --older;
        continue;
      }
      if (older > 0 && entries_[older - 1].first == key) --older;
      entries_[to] = {key, impulse_of(sorted[next - 1].index).template cast<float>()};
      this_step_[to] = 1;
      --next;
    }
    index_grains();
  }
  // Sets the entry at a place place_of() gave since the entries last changed, as the step's
  // own: a settled heap's sweep meets nearly every point again, and the sort and merge of all
  // of them took most of the resting books (docs/benchmarks.md, the seventeenth pass); only
  // the keys the store had no entry for go to update(). Distinct places may be set by
  // several threads at once (each entry's mark is a byte of its own).
  void set_at(std::uint32_t place, const Impulse& impulse) {
    entries_[place].second = impulse;
    this_step_[place] = 1;
  }
  // The entries of `newer` as the step's own, as above.
  void update(const RestingImpulses& newer) {
    update(newer.size(), [&](std::size_t k) { return newer.entries_[k].first; },
           [&](std::size_t k) { return newer.entries_[k].second; });
  }
  // Ends the step: only the entries it set are kept, now the last step's.
  void keep_this_step() {
    std::size_t kept = 0;
    for (std::size_t k = 0; k < entries_.size(); ++k)
      if (this_step_[k]) entries_[kept++] = entries_[k];
    entries_.resize(kept);
    this_step_.assign(kept, 0);
    index_grains();
  }

  // Whether the step under way set `entry`, one of of_grain()'s.
  bool set_this_step(const Entry& entry) const { return this_step_[std::size_t(&entry - entries_.data())] != 0; }
  // The entries of grain `a`, in key order.
  std::span<const Entry> of_grain(std::uint32_t a) const {
    if (std::size_t(a) + 1 >= first_of_a_.size()) return {};
    return std::span<const Entry>(entries_).subspan(first_of_a_[a], first_of_a_[a + 1] - first_of_a_[a]);
  }

  auto begin() const { return entries_.begin(); }
  auto end() const { return entries_.end(); }
  std::size_t size() const { return entries_.size(); }
  bool empty() const { return entries_.empty(); }
  bool operator==(const RestingImpulses&) const = default;

 private:
  // A key and where it was given.
  struct Sorted {
    RestingKey key;
    std::uint32_t index;
  };
  // `count` keys (key_of(k), k < count) sorted with their indices, of equal keys only the
  // last given. By A first (a count of each A's keys places them, in the order given), then
  // each A's few keys by the rest of the key, stably, in place: a general sort of a
  // heap's 30 000 took the books' share of a step on one thread (docs/benchmarks.md, the
  // seventh pass), and an insertion sort of each grain's ~30, met in solve order, 240 swaps a
  // grain (the tenth pass).
  template <class KeyOf>
  static std::vector<Sorted> sorted_keys(std::size_t count, const KeyOf& key_of) {
    std::vector<std::uint32_t> next;  // A's first place; the keys are read twice, in order
    for (std::size_t k = 0; k < count; ++k) {
      const std::size_t a = key_of(k).a;
      if (a + 2 > next.size()) next.resize(a + 2, 0);
      ++next[a + 1];
    }
    for (std::size_t a = 1; a < next.size(); ++a) next[a] += next[a - 1];
    std::vector<Sorted> sorted(count);
    for (std::size_t k = 0; k < count; ++k) {
      const RestingKey key = key_of(k);
      sorted[next[key.a]++] = {key, std::uint32_t(k)};
    }
    // Each A's keys (next[a] now ends them) by insertion, stable, moving a key once to its place.
    auto before = [](const RestingKey& x, const RestingKey& y) {
      return x.b != y.b ? x.b < y.b : x.plane != y.plane ? x.plane < y.plane : x.node < y.node;
    };
    for (std::size_t a = 0, begin = 0; a < next.size(); begin = next[a++])
      for (std::size_t k = begin + 1; k < next[a]; ++k) {
        const Sorted e = sorted[k];
        std::size_t j = k;
        for (; j > begin && before(e.key, sorted[j - 1].key); --j) sorted[j] = sorted[j - 1];
        sorted[j] = e;
      }
    std::size_t kept = 0;
    for (const Sorted& e : sorted) {
      if (kept > 0 && sorted[kept - 1].key == e.key) sorted[kept - 1] = e;
      else sorted[kept++] = e;
    }
    sorted.resize(kept);
    return sorted;
  }

  // The place of `key`, or size() if it has none.
  std::size_t place(const RestingKey& key) const {
    const std::span<const Entry> of_a = of_grain(key.a);
    const auto it = std::lower_bound(of_a.begin(), of_a.end(), key, [](const Entry& e, const RestingKey& k) { return e.first < k; });
    return it != of_a.end() && it->first == key ? std::size_t(&*it - entries_.data()) : entries_.size();
  }
  // Where each A's entries begin, after the entries changed.
  void index_grains() {
    first_of_a_.assign(entries_.empty() ? 0 : std::size_t(entries_.back().first.a) + 2, 0);
    for (const Entry& e : entries_) ++first_of_a_[std::size_t(e.first.a) + 1];
    for (std::size_t a = 1; a < first_of_a_.size(); ++a) first_of_a_[a] += first_of_a_[a - 1];
  }

  std::vector<Entry> entries_;   // sorted by key, keys unique
  std::vector<std::uint8_t> this_step_;  // by entry: 1 if set by the step under way (else the last step's)
  std::vector<std::uint32_t> first_of_a_;  // A's entries: [first_of_a_[A], first_of_a_[A + 1])
};

}  // namespace scree::solver
