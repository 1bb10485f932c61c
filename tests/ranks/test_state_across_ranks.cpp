// Frames and checkpoints written from grains shared among ranks (run/state_across_ranks.h),
// on 1, 2, 3 and 4 ranks: the file one process writes of all the grains, whatever the rank
// that holds a grain and however small the blocks rank 0 merges; a bad grain on any rank
// refused on every rank, with no file left.
#include <gtest/gtest.h>

#include <cmath>
#include <optional>

#include "common/temp_dir.h"
#include "formats/error.h"
#include "formats/state_fixtures.h"
#include "run/state_across_ranks.h"

namespace scree::run {
namespace {

using formats::Bodies;
using formats::ContactCache;
using formats::State;
using formats::StateKind;
using solver::Ranks;

// A folder made by rank 0 that every rank names (removed by rank 0 once every rank is done).
struct SharedDir {
  explicit SharedDir(const Ranks& ranks) : ranks_(ranks) {
    if (ranks.rank() == 0) dir_.emplace();
    const std::string mine = dir_ ? dir_->path().string() : "";
    const solver::Bytes told = ranks.gather_all(solver::to_bytes(std::span<const char>(mine.data(), mine.size()))).front();
    const std::vector<char> text = solver::from_bytes<char>(told);
    path_ = std::string(text.begin(), text.end());
  }
  ~SharedDir() { ranks_.barrier(); }
  std::filesystem::path operator/(const std::string& name) const { return path_ / name; }

  const Ranks& ranks_;
  std::optional<scree::testing::TempDir> dir_;
  std::filesystem::path path_;
};

// A frame or checkpoint of 500 grains, every grain k < 300 with k % 4 cached contacts.
State everything(StateKind kind) {
  State s = formats::testing::sample_state(kind, 500);
  if (!s.solver) return s;
  ContactCache& c = s.solver->contacts;
  c = ContactCache();
  for (std::size_t k = 0; k < 300; ++k)
    for (std::size_t j = 0; j < k % 4; ++j) {
      c.body_a.push_back(s.bodies.id[k]);
      c.body_b.push_back(j == 0 ? formats::terrain_id : s.bodies.id[(k + 37 * j) % 500]);
      c.node.push_back(std::int32_t(j) - 1);
      c.impulse.push_back({double(k), 1e-3 * double(j), -1});
      c.tangential_displacement.push_back({0, 0, 0});
    }
  return s;
}

// Which rank holds grain k: scattered, or (`one_empty`) never the last rank of several.
int holder(std::size_t k, const Ranks& ranks, bool one_empty) {
  const int choices = one_empty && ranks.size() > 1 ? ranks.size() - 1 : ranks.size();
  return int((k * k + 3 * k) / 7 % std::size_t(choices));
}

// This rank's grains of `s` and the contacts whose A they are, both in id order.
std::pair<Bodies, ContactCache> own_part(const State& s, const Ranks& ranks, bool one_empty) {
  Bodies own;
  ContactCache contacts;
  std::size_t contact = 0;
  for (std::size_t k = 0; k < s.bodies.size(); ++k) {
    const bool mine = holder(k, ranks, one_empty) == ranks.rank();
    if (mine) {
      own.id.push_back(s.bodies.id[k]);
      own.template_index.push_back(s.bodies.template_index[k]);
      own.scale.push_back(s.bodies.scale[k]);
      own.position.push_back(s.bodies.position[k]);
      own.orientation.push_back(s.bodies.orientation[k]);
      own.velocity.push_back(s.bodies.velocity[k]);
      own.angular_velocity.push_back(s.bodies.angular_velocity[k]);
    }
    if (!s.solver) continue;
    const ContactCache& c = s.solver->contacts;
    for (; contact < c.size() && c.body_a[contact] == s.bodies.id[k]; ++contact) {
      if (!mine) continue;
      contacts.body_a.push_back(c.body_a[contact]);
      contacts.body_b.push_back(c.body_b[contact]);
      contacts.node.push_back(c.node[contact]);
      contacts.impulse.push_back(c.impulse[contact]);
      contacts.tangential_displacement.push_back(c.tangential_displacement[contact]);
    }
  }
  return {own, contacts};
}

State head_of(State s) {
  s.bodies = Bodies();
  if (s.solver) s.solver->contacts = ContactCache();
  return s;
}

TEST(StateAcrossRanks, OneFileAsOneProcessWritesIt) {
  const Ranks ranks = Ranks::world();
  const SharedDir dir(ranks);
  for (const StateKind kind : {StateKind::frame, StateKind::checkpoint})
    for (const bool one_empty : {false, true})
      for (const std::size_t block : {std::size_t(1), std::size_t(16), std::size_t(1) << 16}) {
        const State s = everything(kind);
        const auto [own, contacts] = own_part(s, ranks, one_empty);
        write_state_across_ranks(dir / "merged.h5", head_of(s), own, contacts, ranks, block);
        ranks.barrier();
        SCOPED_TRACE(std::string(formats::to_string(kind)) + (one_empty ? ", a rank empty" : "") + ", blocks of " +
                     std::to_string(block));
        formats::testing::expect_same_state(s, formats::read_state(dir / "merged.h5"));
        ranks.barrier();  // read by every rank before the next overwrites it
      }
}

TEST(StateAcrossRanks, ABadGrainOnAnyRankIsRefusedOnEveryRank) {
  const Ranks ranks = Ranks::world();
  const SharedDir dir(ranks);
  State s = everything(StateKind::checkpoint);
  const std::size_t bad = 47;  // held by the last rank, on 2, 3 or 4 ranks
  s.bodies.velocity[bad][1] = std::nan("");
  auto [own, contacts] = own_part(s, ranks, false);
  std::string refused;
  try {
    write_state_across_ranks(dir / "merged.h5", head_of(s), own, contacts, ranks, 16);
  } catch (const formats::FileError& e) {
    refused = e.what();
  }
  EXPECT_EQ(refused, (dir / "merged.h5").string() + ": cannot write: /bodies/velocity[47] is not finite");
  ranks.barrier();
  if (dir.dir_) {
    EXPECT_TRUE(dir.dir_->entries().empty());
  }
}

}  // namespace
}  // namespace scree::run
