#pragma once
// How many MPI ranks started this process, read from what the launcher (mpirun, mpiexec,
// srun) puts in the environment, before anything is written: scree-solve runs one rank until
// domain decomposition lands (docs/architecture.md, "Ranks"), and copies started side by side
// would write the same frames over each other.
namespace scree::run {

struct MpiLaunch {
  int ranks = 1;  // the world's size
  int rank = 0;   // this process's
};

// Open MPI (OMPI_COMM_WORLD_SIZE/RANK), MPICH, Intel MPI and Slurm's PMI (PMI_SIZE/RANK),
// MVAPICH (MV2_COMM_WORLD_SIZE/RANK); one rank when none is set.
MpiLaunch mpi_launch();

}  // namespace scree::run
