/* What a message and a collective cost between two ranks of this machine, for the replay of
 * bench/ranks/critical_path.sh: 200 000 rounds of the exchange scree's ranks make between
 * phases (MPI_Irecv, MPI_Isend, MPI_Waitall; 600 bytes each way, the size of a big island's
 * phase message on the demo's avalanche) and 200 000 MPI_Allreduce of one double, each timed
 * after a round of the same to warm up. Prints "LATENCY COLLECTIVE" in seconds, rank 0.
 *
 *   mpicc -O2 mpi_latency.c -o mpi_latency && mpirun -np 2 ./mpi_latency */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size != 2) {
    if (rank == 0) fprintf(stderr, "mpi_latency: error: runs on 2 ranks, not %d\n", size);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  enum { bytes = 600, rounds = 200000 };
  static char out[bytes], in[bytes];
  double exchange = 0, collective = 0;
  for (int pass = 0; pass < 2; ++pass) {
    MPI_Barrier(MPI_COMM_WORLD);
    double start = MPI_Wtime();
    for (int i = 0; i < rounds; ++i) {
      MPI_Request requests[2];
      MPI_Irecv(in, bytes, MPI_BYTE, 1 - rank, 29, MPI_COMM_WORLD, &requests[0]);
      MPI_Isend(out, bytes, MPI_BYTE, 1 - rank, 29, MPI_COMM_WORLD, &requests[1]);
      MPI_Waitall(2, requests, MPI_STATUSES_IGNORE);
    }
    exchange = (MPI_Wtime() - start) / rounds;
    MPI_Barrier(MPI_COMM_WORLD);
    start = MPI_Wtime();
    double x = 1;
    for (int i = 0; i < rounds; ++i) MPI_Allreduce(MPI_IN_PLACE, &x, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    collective = (MPI_Wtime() - start) / rounds;
  }
  if (rank == 0) printf("%.3g %.3g\n", exchange, collective);
  MPI_Finalize();
  return 0;
}
