#pragma once
// How many MPI ranks started this process, read from what the launcher (mpirun, mpiexec,
// srun) puts in the environment, before anything is written: a scree-solve built without MPI
// refuses to run under a launcher of several ranks, as copies started side by side would each
// run the whole case and write the same frames over each other (docs/parallel.md).
namespace scree::run {

struct MpiLaunch {
  int ranks = 1;  // the world's size
  int rank = 0;   // this process's
};

// Open MPI (OMPI_COMM_WORLD_SIZE/RANK), MPICH, Intel MPI and Slurm's PMI (PMI_SIZE/RANK),
// MVAPICH (MV2_COMM_WORLD_SIZE/RANK); one rank when none is set.
MpiLaunch mpi_launch();

}  // namespace scree::run
