#pragma once
// State files of a run shared among ranks (docs/parallel.md, "Output" and "Starting"), so
// that no rank holds the whole state: frames and checkpoints are one file, as one process
// writes it, grains in id order, written by rank 0 from the ranks' grains merged by id a block
// at a time; a state is read a slice of rows a rank, its ids checked and its contacts handed
// to the owners of their grains through ranks that each keep a share of the ids.
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "formats/state.h"
#include "solver/ranks/communicator.h"

namespace scree::run {

// Every rank calls it with the same `head` (the state without grains and contact cache, as
// formats::StateWriter takes it), its own grains in ascending ids and, in a checkpoint, the
// cached contacts whose body A is one of them, in ascending ids of A (each grain's in the
// order one process keeps them). Rank 0 holds at most about `block` grains at a time. When
// the file cannot be written (a bad grain on any rank, a full disk), every rank throws the
// same FileError and no file is left.
void write_state_across_ranks(const std::filesystem::path& file, const formats::State& head, const formats::Bodies& own,
                              const formats::ContactCache& own_contacts, const solver::Ranks& ranks,
                              std::size_t block = std::size_t(1) << 13);

// What some ranks met and others not (a bad row in their slice of a file): every rank calls
// throw_first_failure() with its own, if any, and every rank throws the same FileError, the
// failure first in `order` (a row of the file, then what within it; ties to the lower rank),
// so that no rank is left waiting for the others.
struct RankFailure {
  std::pair<std::uint64_t, std::uint64_t> order;
  std::filesystem::path file;
  std::string reason;
};
void throw_first_failure(const std::optional<RankFailure>& mine, const solver::Ranks& ranks);

// The rows [first, first + count) of a file's `rows` that this rank reads: R slices in order.
std::pair<std::size_t, std::size_t> rows_of_rank(std::size_t rows, const solver::Ranks& ranks);

// Every rank calls it with the ids of its slice of `file`'s bodies (rows from `first_row`):
// throws on every rank the FileError one process's reading would, for the first row whose id an
// earlier row has. Each id goes to the rank id % R, so no rank holds them all.
void check_ids_across_ranks(std::span<const std::uint64_t> ids, std::size_t first_row, const std::filesystem::path& file,
                            const solver::Ranks& ranks);

// A checkpoint's cached contacts handed to the ranks that own their grain A: every rank calls
// it with the ids of the grains it owns and reads its slice of the contact rows; each row goes
// to the rank keeping its A's id (id % R), which sends it on to A's owner. `contacts` are this
// rank's, in the file's order, with their `rows`. A row naming as A or B a grain id that no rank
// owns is not sent: `failure` is this rank's first such row ("/solver/contacts names body X,
// which is not a grain", as one process's restart says; `order` 3 × row, + 2 for B, then 0), for
// throw_first_failure() with what else the rows' reader finds.
struct OwnContacts {
  formats::ContactCache contacts;
  std::vector<std::uint64_t> rows;
  std::optional<RankFailure> failure;
};
OwnContacts contacts_of_own_grains(const formats::StateReader& in, std::span<const std::uint64_t> own_ids,
                                   const solver::Ranks& ranks);

}  // namespace scree::run
