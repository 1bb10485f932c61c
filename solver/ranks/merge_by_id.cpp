#include "solver/ranks/merge_by_id.h"

#include <algorithm>
#include <cstring>
#include <exception>
#include <limits>
#include <stdexcept>
#include <vector>

namespace scree::solver {

void merge_by_id(std::span<const std::uint64_t> ids, std::span<const std::byte> records, std::size_t record_size,
                 std::size_t block, const Ranks& ranks, const TakeMerged& take) {
  if (records.size() != ids.size() * record_size) throw std::invalid_argument("merge_by_id: one record an id");
  if (!std::is_sorted(ids.begin(), ids.end())) throw std::invalid_argument("merge_by_id: ids in ascending order");
  constexpr std::uint64_t all = std::numeric_limits<std::uint64_t>::max();
  const std::size_t per_rank = std::max<std::size_t>(1, block / std::size_t(ranks.size()));
  std::size_t sent = 0;
  std::exception_ptr failed;  // take's, on rank 0
  for (bool last = false; !last;) {
    const std::uint64_t offer = ids.size() - sent > per_rank ? ids[sent + per_rank - 1] : all;
    const std::uint64_t bound = ranks.min(offer);
    last = bound == all;
    const std::size_t end =
        last ? ids.size() : std::size_t(std::upper_bound(ids.begin() + std::ptrdiff_t(sent), ids.end(), bound) - ids.begin());
    // The ids, then the records.
    const std::size_t count = end - sent;
    Bytes message(count * (sizeof(std::uint64_t) + record_size));
    if (count > 0) {
      std::memcpy(message.data(), ids.data() + sent, count * sizeof(std::uint64_t));
      std::memcpy(message.data() + count * sizeof(std::uint64_t), records.data() + sent * record_size, count * record_size);
    }
    sent = end;
    const std::vector<Bytes> parts = ranks.gather(message);
    if (ranks.rank() != 0 || failed) continue;
    // Stable by id over the parts in rank order: one rank's records of an id stay in their order.
    struct Source {
      std::uint64_t id;
      const std::byte* record;
    };
    std::vector<Source> merged;
    for (const Bytes& part : parts) {
      const std::size_t n = part.size() / (sizeof(std::uint64_t) + record_size);
      const std::byte* part_records = part.data() + n * sizeof(std::uint64_t);
      for (std::size_t k = 0; k < n; ++k) {
        std::uint64_t id;
        std::memcpy(&id, part.data() + k * sizeof(std::uint64_t), sizeof id);
        merged.push_back({id, part_records + k * record_size});
      }
    }
    std::stable_sort(merged.begin(), merged.end(), [](const Source& x, const Source& y) { return x.id < y.id; });
    std::vector<std::uint64_t> merged_ids(merged.size());
    Bytes merged_records(merged.size() * record_size);
    for (std::size_t k = 0; k < merged.size(); ++k) {
      merged_ids[k] = merged[k].id;
      if (record_size > 0) std::memcpy(merged_records.data() + k * record_size, merged[k].record, record_size);
    }
    try {
      if (!merged.empty()) take(merged_ids, merged_records);
    } catch (...) {
      failed = std::current_exception();
    }
  }
  if (failed) std::rethrow_exception(failed);
}

}  // namespace scree::solver
