#pragma once
// Frames and checkpoints of a run shared among ranks (docs/parallel.md, "Output"): one file,
// as one process writes it, grains in id order, written by rank 0 from the ranks' grains
// merged by id a block at a time, so that no rank holds the whole state.
#include <cstddef>
#include <filesystem>

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
                              std::size_t block = std::size_t(1) << 16);

}  // namespace scree::run
