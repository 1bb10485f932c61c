// State files written and read a block of grains at a time (StateWriter, StateReader): the
// same file as one written whole, whatever the blocks; refused as a whole state is refused.
#include <gtest/gtest.h>

#include "common/temp_dir.h"
#include "formats/error.h"
#include "formats/state.h"
#include "formats/state_fixtures.h"

namespace scree::formats {
namespace {

using scree::testing::expect_error;
using scree::testing::TempDir;
using namespace scree::formats::testing;

// Rows [first, first + count) of `b`.
Bodies rows_of(const Bodies& b, size_t first, size_t count) {
  Bodies block;
  block.resize(count);
  for (size_t i = 0; i < count; ++i) {
    block.id[i] = b.id[first + i];
    block.template_index[i] = b.template_index[first + i];
    block.scale[i] = b.scale[first + i];
    block.position[i] = b.position[first + i];
    block.orientation[i] = b.orientation[first + i];
    block.velocity[i] = b.velocity[first + i];
    block.angular_velocity[i] = b.angular_velocity[first + i];
  }
  return block;
}

ContactCache rows_of(const ContactCache& c, size_t first, size_t count) {
  ContactCache block;
  for (size_t k = first; k < first + count; ++k) {
    block.body_a.push_back(c.body_a[k]);
    block.body_b.push_back(c.body_b[k]);
    block.node.push_back(c.node[k]);
    block.impulse.push_back(c.impulse[k]);
    block.tangential_displacement.push_back(c.tangential_displacement[k]);
  }
  return block;
}

// The state without its grains and contacts, as StateWriter takes it.
State head_of(State s) {
  s.bodies = Bodies();
  if (s.solver) s.solver->contacts = ContactCache();
  return s;
}

// Writes `s` in blocks of the given sizes (grains and contacts alike, the last block taking
// what is left).
void write_in_blocks(const std::filesystem::path& file, const State& s, const std::vector<size_t>& sizes) {
  const size_t contacts = s.solver ? s.solver->contacts.size() : 0;
  StateWriter out(file, head_of(s), s.bodies.size(), contacts);
  size_t body = 0, contact = 0;
  for (size_t k = 0; k <= sizes.size(); ++k) {
    const size_t bodies_here = k < sizes.size() ? std::min(sizes[k], s.bodies.size() - body) : s.bodies.size() - body;
    out.write_bodies(rows_of(s.bodies, body, bodies_here));
    body += bodies_here;
    if (!s.solver) continue;
    const size_t contacts_here = k < sizes.size() ? std::min(sizes[k], contacts - contact) : contacts - contact;
    out.write_contacts(rows_of(s.solver->contacts, contact, contacts_here));
    contact += contacts_here;
  }
  out.commit();
}

class StateBlocks : public ::testing::TestWithParam<StateKind> {};

TEST_P(StateBlocks, WrittenInBlocksReadsAsWrittenWhole) {
  TempDir dir;
  const State s = sample_state(GetParam(), 200);
  write_in_blocks(dir / "blocks.h5", s, {7, 0, 13, 1, 64});
  expect_same_state(s, read_state(dir / "blocks.h5"));
}

TEST_P(StateBlocks, ReadInBlocksGivesTheRowsOfTheWhole) {
  TempDir dir;
  const State s = sample_state(GetParam(), 200);
  write_state(dir / "s.h5", s);
  const StateReader in(dir / "s.h5");
  EXPECT_EQ(in.body_count(), 200u);
  expect_same_state(head_of(s), in.head());
  for (const auto& [first, count] : {std::pair<size_t, size_t>{0, 0}, {0, 1}, {17, 64}, {199, 1}, {0, 200}}) {
    const Bodies block = in.read_bodies(first, count);
    const Bodies expected = rows_of(s.bodies, first, count);
    EXPECT_EQ(block.id, expected.id);
    EXPECT_EQ(block.template_index, expected.template_index);
    EXPECT_EQ(block.scale, expected.scale);
    EXPECT_EQ(block.position, expected.position);
    EXPECT_EQ(block.orientation, expected.orientation);
    EXPECT_EQ(block.velocity, expected.velocity);
    EXPECT_EQ(block.angular_velocity, expected.angular_velocity);
  }
  if (s.solver) {
    EXPECT_EQ(in.contact_count(), s.solver->contacts.size());
    const ContactCache block = in.read_contacts(5, 9);
    EXPECT_EQ(block.body_a, rows_of(s.solver->contacts, 5, 9).body_a);
    EXPECT_EQ(block.impulse, rows_of(s.solver->contacts, 5, 9).impulse);
  } else {
    EXPECT_EQ(in.contact_count(), 0u);
  }
}

INSTANTIATE_TEST_SUITE_P(Kinds, StateBlocks, ::testing::Values(StateKind::state, StateKind::frame, StateKind::checkpoint),
                         [](const auto& info) { return std::string(to_string(info.param)); });

// A refused block leaves no file, and an old file of that name as it was.
void expect_refused(const TempDir& dir, const std::function<void(const std::filesystem::path&)>& write,
                    const std::string& reason) {
  const State old = sample_state(StateKind::frame, 5, 11);
  write_state(dir / "old.h5", old);
  expect_error([&] { write(dir / "old.h5"); }, {(dir / "old.h5").string() + ": cannot write: ", reason});
  expect_same_state(old, read_state(dir / "old.h5"));
  EXPECT_EQ(dir.entries(), std::vector<std::string>{"old.h5"});
}

TEST(StateBlocksRefused, ABlockWhoseIdsAreNotAboveTheEarlierBlocks) {
  TempDir dir;
  const State s = sample_state(StateKind::frame, 20);
  expect_refused(dir, [&](const std::filesystem::path& file) {
    StateWriter out(file, head_of(s), 20, 0);
    out.write_bodies(rows_of(s.bodies, 10, 10));
    out.write_bodies(rows_of(s.bodies, 0, 10));
  }, "/bodies: id 1000 after id 1133 of an earlier block");
}

TEST(StateBlocksRefused, ABadRowIsNamedByItsRowInTheFile) {
  TempDir dir;
  State s = sample_state(StateKind::frame, 20);
  s.bodies.scale[13] = -1;
  s.bodies.velocity[15][2] = std::nan("");
  expect_refused(dir, [&](const std::filesystem::path& file) { write_in_blocks(file, s, {10}); },
                 "body 13: scale must be > 0");
  s.bodies.scale[13] = 1;
  expect_refused(dir, [&](const std::filesystem::path& file) { write_in_blocks(file, s, {10}); },
                 "/bodies/velocity[15] is not finite");
}

TEST(StateBlocksRefused, RowsMissingOrTooMany) {
  TempDir dir;
  const State s = sample_state(StateKind::checkpoint, 20);
  expect_refused(dir, [&](const std::filesystem::path& file) {
    StateWriter out(file, head_of(s), 21, 25);
    out.write_bodies(s.bodies);
    out.write_contacts(s.solver->contacts);
    out.commit();
  }, "/bodies: 20 grains written, expected 21");
  expect_refused(dir, [&](const std::filesystem::path& file) {
    StateWriter out(file, head_of(s), 20, 24);
    out.write_bodies(s.bodies);
    out.write_contacts(s.solver->contacts);
  }, "/solver/contacts: 25 contacts, expected 24");
}

TEST(StateBlocksRefused, AHeadWithGrains) {
  TempDir dir;
  const State s = sample_state(StateKind::frame, 20);
  expect_refused(dir, [&](const std::filesystem::path& file) { StateWriter(file, s, 20, 0); },
                 "the head of a state written in blocks holds no grains or contacts");
}

}  // namespace
}  // namespace scree::formats
