#include "formats/state.h"

#include <gtest/gtest.h>
#include <hdf5.h>

#include <cmath>
#include <random>

#include "common/temp_dir.h"
#include "formats/error.h"
#include "formats/state_fixtures.h"

namespace scree::formats {
namespace {

using scree::testing::expect_error;
using scree::testing::TempDir;
using namespace scree::formats::testing;

class StateRoundTrip : public ::testing::TestWithParam<StateKind> {};

TEST_P(StateRoundTrip, IsBitExact) {
  TempDir dir;
  State s = sample_state(GetParam());
  write_state(dir / "s.h5", s);
  expect_same_state(s, read_state(dir / "s.h5"));
  EXPECT_EQ(dir.entries(), std::vector<std::string>{"s.h5"});  // no temporary left
}

INSTANTIATE_TEST_SUITE_P(State, StateRoundTrip,
                         ::testing::Values(StateKind::state, StateKind::frame,
                                           StateKind::checkpoint),
                         [](const auto& info) { return std::string(to_string(info.param)); });

TEST(State, EmptyStateRoundTrips) {
  TempDir dir;
  State s;
  write_state(dir / "empty.h5", s);
  expect_same_state(s, read_state(dir / "empty.h5"));
}

TEST(State, RngStateRestoresTheSameSequence) {
  TempDir dir;
  State s = sample_state(StateKind::checkpoint, 3);
  write_state(dir / "c.h5", s);
  std::mt19937_64 original(99), restored;
  original.discard(17);
  std::istringstream(read_state(dir / "c.h5").solver->rng_state) >> restored;
  for (int i = 0; i < 100; ++i) ASSERT_EQ(original(), restored());
}

TEST(State, ReservedIdsAreDistinct) {
  EXPECT_LT(membrane_ball_id(0xffffffffu, 0xffffffffu), terrain_id);
  EXPECT_GE(membrane_ball_id(0, 0), first_reserved_id);
  EXPECT_GT(wall_id(0), terrain_id);
}

TEST(Membrane, FileRoundTripIsBitExact) {
  TempDir dir;
  std::mt19937_64 rng(3);
  Membrane m = sample_membrane(rng, "barrier", 100);
  write_membrane(dir / "m.h5", m);
  expect_same_membrane(m, read_membrane(dir / "m.h5"));
}

// Writer-side checks: refuse, create nothing, leave an existing file untouched.
struct BadState {
  const char* name;
  void (*spoil)(State&);
  const char* reason;
};

void PrintTo(const BadState& s, std::ostream* os) { *os << s.name; }

class BadStateTest : public ::testing::TestWithParam<BadState> {};

TEST_P(BadStateTest, WriterRefusesAndLeavesNoFile) {
  TempDir dir;
  State s = sample_state(StateKind::checkpoint, 20);
  GetParam().spoil(s);
  expect_error([&] { write_state(dir / "new.h5", s); },
               {(dir / "new.h5").string() + ": cannot write: ", GetParam().reason});
  EXPECT_TRUE(dir.entries().empty());

  State good = sample_state(StateKind::frame, 5);
  write_state(dir / "old.h5", good);
  EXPECT_THROW(write_state(dir / "old.h5", s), FileError);
  expect_same_state(good, read_state(dir / "old.h5"));
  EXPECT_EQ(dir.entries(), std::vector<std::string>{"old.h5"});
}

const BadState bad_states[] = {
    {"NonUnitQuaternion", [](State& s) { s.bodies.orientation[3] = {1, 0.1, 0, 0}; },
     "body 3: orientation is not a unit quaternion"},
    {"DuplicateId", [](State& s) { s.bodies.id[5] = s.bodies.id[2]; }, "body 5: duplicate id"},
    {"ReservedId", [](State& s) { s.bodies.id[1] = first_reserved_id; },
     "body 1: id must be below 2^62"},
    {"TemplateOutOfRange", [](State& s) { s.bodies.template_index[4] = 3; },
     "body 4: template index 3 but only 3 templates"},
    {"ZeroScale", [](State& s) { s.bodies.scale[0] = 0; }, "body 0: scale must be > 0"},
    {"NanPosition", [](State& s) { s.bodies.position[7][1] = std::nan(""); },
     "/bodies/position[7] is not finite"},
    {"InfiniteSpin", [](State& s) { s.bodies.angular_velocity[2][0] = INFINITY; },
     "/bodies/angular_velocity[2] is not finite"},
    {"ShortArray", [](State& s) { s.bodies.velocity.pop_back(); },
     "/bodies/velocity has 19 entries, expected 20"},
    {"NegativeStep", [](State& s) { s.step = -1; }, "step must be >= 0"},
    {"CheckpointWithoutSolver", [](State& s) { s.solver.reset(); },
     "a checkpoint needs the solver state"},
    {"SolverInFrame", [](State& s) { s.kind = StateKind::frame; },
     "solver state is only stored in checkpoints"},
    {"SpringToNowhere", [](State& s) { s.membranes[0].springs[0][1] = 40; },
     "/membranes/net: spring 0 joins balls that do not exist"},
    {"MassLessBall", [](State& s) { s.membranes[1].mass[2] = 0; },
     "/membranes/fence: ball 2 needs radius > 0 and mass > 0"},
    {"DuplicateMembrane", [](State& s) { s.membranes[1].name = "net"; },
     "two membranes named 'net'"},
    {"SlashInMembraneName", [](State& s) { s.membranes[1].name = "a/b"; },
     "must be non-empty and contain no '/'"},
    {"ShortContactCache", [](State& s) { s.solver->contacts.node.pop_back(); },
     "/solver/contacts/node has 24 entries, expected 25"},
};

INSTANTIATE_TEST_SUITE_P(State, BadStateTest, ::testing::ValuesIn(bad_states),
                         [](const auto& info) { return std::string(info.param.name); });

// Reader-side checks on files spoiled after writing, as a user's script or a crash might.
class SpoiledFile : public ::testing::Test {
 protected:
  void SetUp() override { write_state(file, sample_state(StateKind::checkpoint, 10)); }
  // Opens the file read-write for tampering.
  hid_t open_rw() { return H5Fopen(file.c_str(), H5F_ACC_RDWR, H5P_DEFAULT); }
  void overwrite_doubles(const char* dataset, const std::vector<double>& values) {
    hid_t f = open_rw();
    hid_t d = H5Dopen2(f, dataset, H5P_DEFAULT);
    ASSERT_GE(d, 0);
    ASSERT_GE(H5Dwrite(d, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, values.data()), 0);
    H5Dclose(d);
    H5Fclose(f);
  }
  TempDir dir;
  std::filesystem::path file = dir / "c.h5";
};

TEST_F(SpoiledFile, MissingDatasetIsNamed) {
  hid_t f = open_rw();
  ASSERT_GE(H5Ldelete(f, "/bodies/angular_velocity", H5P_DEFAULT), 0);
  H5Fclose(f);
  expect_error([&] { read_state(file); },
               {file.string() + ": /bodies/angular_velocity: missing dataset"});
}

TEST_F(SpoiledFile, MissingAttributeIsNamed) {
  hid_t f = open_rw();
  ASSERT_GE(H5Adelete(f, "time"), 0);
  H5Fclose(f);
  expect_error([&] { read_state(file); }, {file.string() + ": /: missing attribute 'time'"});
}

TEST_F(SpoiledFile, NonFiniteValueIsRefused) {
  std::vector<double> scale(10, 1.0);
  scale[6] = -INFINITY;
  overwrite_doubles("/bodies/scale", scale);
  expect_error([&] { read_state(file); }, {file.string() + ": body 6: scale must be > 0"});
}

TEST_F(SpoiledFile, NonUnitQuaternionIsRefused) {
  std::vector<double> q(40, 0.5);
  q[4 * 8] = 2;
  overwrite_doubles("/bodies/orientation", q);
  expect_error([&] { read_state(file); }, {"body 8: orientation is not a unit quaternion"});
}

TEST_F(SpoiledFile, WrongShapeIsRefused) {
  hid_t f = open_rw();
  H5Ldelete(f, "/bodies/position", H5P_DEFAULT);
  hsize_t dims[2] = {10, 2};
  hid_t space = H5Screate_simple(2, dims, nullptr);
  hid_t d = H5Dcreate2(f, "/bodies/position", H5T_IEEE_F64LE, space, H5P_DEFAULT, H5P_DEFAULT,
                       H5P_DEFAULT);
  H5Dclose(d);
  H5Sclose(space);
  H5Fclose(f);
  expect_error([&] { read_state(file); }, {"/bodies/position: expected shape (n, 3)"});
}

TEST_F(SpoiledFile, NewerVersionIsRefused) {
  hid_t f = open_rw();
  hid_t a = H5Aopen(f, "version", H5P_DEFAULT);
  int64_t v = 99;
  H5Awrite(a, H5T_NATIVE_INT64, &v);
  H5Aclose(a);
  H5Fclose(f);
  expect_error([&] { read_state(file); }, {"format version 99 is not supported"});
}

TEST_F(SpoiledFile, TruncatedFileIsRefused) {
  scree::testing::truncate_file(file, std::filesystem::file_size(file) / 2);
  EXPECT_THROW(read_state(file), FileError);
}

TEST(State, NonHdf5AndMissingFilesAreRefused) {
  TempDir dir;
  scree::testing::write_text(dir / "text.h5", "time,step\n1,2\n");
  expect_error([&] { read_state(dir / "text.h5"); }, {"text.h5: not an HDF5 file"});
  expect_error([&] { read_state(dir / "absent.h5"); }, {"absent.h5: cannot open: no such file"});
}

TEST(State, MembraneFileIsNotAState) {
  TempDir dir;
  std::mt19937_64 rng(1);
  write_membrane(dir / "m.h5", sample_membrane(rng, "net", 4));
  expect_error([&] { read_state(dir / "m.h5"); },
               {"m.h5: is a 'scree-membrane' file, expected 'scree-state'"});
  write_state(dir / "s.h5", sample_state(StateKind::state, 2));
  expect_error([&] { read_membrane(dir / "s.h5"); }, {"is a 'scree-state' file"});
}

TEST(State, WritingIntoMissingDirectoryFails) {
  TempDir dir;
  expect_error([&] { write_state(dir / "no" / "s.h5", sample_state(StateKind::state, 2)); },
               {"does not exist"});
  EXPECT_TRUE(dir.entries().empty());
}

}  // namespace
}  // namespace scree::formats
