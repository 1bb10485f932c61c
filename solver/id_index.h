#pragma once
// The places of distinct ids (a grain's place in a rank's world or island), found by id: one
// open-addressed array made once, where a std::unordered_map holds a node an id. The ranks'
// sharing asks for a body by its id at every face, warm start and record of a sweep, and an
// unordered map of the island's ids, made and let go each sweep, was a tenth of the sharing's
// work on two ranks of the demo's avalanche (docs/benchmarks.md, "Ids found in one array").
#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace scree::solver {

class IdIndex {
 public:
  static constexpr std::uint32_t absent = ~std::uint32_t(0);

  IdIndex() = default;
  // ids[k]'s place is k; the ids are distinct.
  explicit IdIndex(std::span<const std::uint64_t> ids) {
    std::size_t slots = 16;
    while (slots < 2 * ids.size()) slots *= 2;
    slots_.assign(slots, {0, absent});
    mask_ = slots - 1;
    for (std::uint32_t k = 0; k < ids.size(); ++k) {
      std::pair<std::uint64_t, std::uint32_t>& slot = slots_[slot_of(ids[k])];
      if (slot.second != absent) throw std::invalid_argument("IdIndex: id " + std::to_string(ids[k]) + " given twice");
      slot = {ids[k], k};
    }
  }

  // The place of `id`, or `absent`.
  std::uint32_t find(std::uint64_t id) const {
    return slots_.empty() ? absent : slots_[slot_of(id)].second;
  }
  // The place of `id`, which must be there.
  std::uint32_t at(std::uint64_t id) const {
    const std::uint32_t place = find(id);
    if (place == absent) throw std::out_of_range("IdIndex: no id " + std::to_string(id));
    return place;
  }

 private:
  // The slot that holds `id`, or the empty one where it would go (linear probing on a
  // multiplicative hash: ids are often consecutive).
  std::size_t slot_of(std::uint64_t id) const {
    const std::uint64_t h = id * 0x9E3779B97F4A7C15u;
    std::size_t at = std::size_t(h ^ h >> 32) & mask_;
    while (slots_[at].second != absent && slots_[at].first != id) at = (at + 1) & mask_;
    return at;
  }

  std::vector<std::pair<std::uint64_t, std::uint32_t>> slots_;  // (id, place); place absent: empty
  std::size_t mask_ = 0;
};

}  // namespace scree::solver
