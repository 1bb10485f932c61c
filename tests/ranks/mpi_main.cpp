// The main of the tests ctest runs under mpirun: MPI open around every test, each rank
// running them all (a collective a test calls must be called on every rank).
#include <gtest/gtest.h>

#include "solver/ranks/communicator.h"

int main(int argc, char** argv) {
  scree::solver::MpiSession session(argc, argv);
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
