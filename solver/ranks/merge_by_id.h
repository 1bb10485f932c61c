#pragma once
// Records that lie on several ranks handed to rank 0 in the order of their ids, a block at a
// time, so that no rank ever holds them all: the grains of a frame or checkpoint, which rank 0
// writes as one file in id order (docs/parallel.md, "Output"). Rounds of one reduction and one
// gather: each rank offers the id below which it has its next `block / ranks` records (or all
// it has left), the least of those offers is the round's bound, and every rank sends rank 0
// its records up to the bound, which rank 0 merges by id. A rank whose offer was the bound sends
// that many, so the rounds end; rank 0 holds about `block` records at a time.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>

#include "solver/ranks/communicator.h"

namespace scree::solver {

// What rank 0 is handed each round: the merged records' ids and their bytes, record after record.
using TakeMerged = std::function<void(std::span<const std::uint64_t> ids, std::span<const std::byte> records)>;

// Every rank calls it with its records (`record_size` bytes each, records[k] of ids[k]) in
// ascending ids; an id lies on one rank only, and its records (a grain's several contacts)
// follow each other. On rank 0, `take` is called round after round with the next records in
// ascending ids (each rank's of one id in their order) until all are taken. Should `take`
// throw, the rounds still run to their end (the other ranks are not left waiting), without it,
// and rank 0 throws what it threw.
void merge_by_id(std::span<const std::uint64_t> ids, std::span<const std::byte> records, std::size_t record_size,
                 std::size_t block, const Ranks& ranks, const TakeMerged& take);

}  // namespace scree::solver
