/* Where the ranks wait (bench/ranks/mpi_waits.sh): MPI's blocking calls that scree's
 * communicator makes, timed through the MPI profiling interface (PMPI) and summed by the
 * three return addresses above each call, written at MPI_Finalize to
 * $MPI_WAITS_OUT.<rank> as "seconds calls file+offset file+offset file+offset".
 * Preloaded (LD_PRELOAD) into scree-solve; nothing of scree links it. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <execinfo.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { sites_max = 4096, depth = 3 };
static void* site_keys[sites_max][depth];
static double site_seconds[sites_max];
static long site_calls[sites_max];
static int sites;

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static void book(double seconds) {
  void* trace[depth + 3];
  const int found = backtrace(trace, depth + 3);
  void* key[depth] = {0};
  for (int k = 0; k < depth && k + 2 < found; ++k) key[k] = trace[k + 2]; /* above book() and the wrapper */
  for (int s = 0; s < sites; ++s)
    if (!memcmp(site_keys[s], key, sizeof key)) {
      site_seconds[s] += seconds;
      ++site_calls[s];
      return;
    }
  if (sites == sites_max) return;
  memcpy(site_keys[sites], key, sizeof key);
  site_seconds[sites] = seconds;
  site_calls[sites++] = 1;
}

#define TIMED(call)            \
  const double start_ = now(); \
  const int result_ = call;    \
  book(now() - start_);        \
  return result_;

int MPI_Allreduce(const void* in, void* out, int n, MPI_Datatype type, MPI_Op op, MPI_Comm comm) {
  TIMED(PMPI_Allreduce(in, out, n, type, op, comm))
}
int MPI_Waitall(int n, MPI_Request* requests, MPI_Status* statuses) { TIMED(PMPI_Waitall(n, requests, statuses)) }
int MPI_Mprobe(int source, int tag, MPI_Comm comm, MPI_Message* message, MPI_Status* status) {
  TIMED(PMPI_Mprobe(source, tag, comm, message, status))
}
int MPI_Alltoall(const void* in, int n, MPI_Datatype type, void* out, int m, MPI_Datatype out_type, MPI_Comm comm) {
  TIMED(PMPI_Alltoall(in, n, type, out, m, out_type, comm))
}
int MPI_Allgather(const void* in, int n, MPI_Datatype type, void* out, int m, MPI_Datatype out_type, MPI_Comm comm) {
  TIMED(PMPI_Allgather(in, n, type, out, m, out_type, comm))
}
int MPI_Allgatherv(const void* in, int n, MPI_Datatype type, void* out, const int* counts, const int* offsets,
                   MPI_Datatype out_type, MPI_Comm comm) {
  TIMED(PMPI_Allgatherv(in, n, type, out, counts, offsets, out_type, comm))
}
int MPI_Barrier(MPI_Comm comm) { TIMED(PMPI_Barrier(comm)) }

int MPI_Finalize(void) {
  int rank = 0;
  PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const char* out = getenv("MPI_WAITS_OUT");
  char name[4096];
  snprintf(name, sizeof name, "%s.%d", out ? out : "mpi_waits", rank);
  FILE* file = fopen(name, "w");
  for (int s = 0; file && s < sites; ++s) {
    fprintf(file, "%.6f %ld", site_seconds[s], site_calls[s]);
    for (int k = 0; k < depth; ++k) {
      Dl_info info;
      if (site_keys[s][k] && dladdr(site_keys[s][k], &info) && info.dli_fname)
        fprintf(file, " %s+%lx", info.dli_fname, (unsigned long)((char*)site_keys[s][k] - (char*)info.dli_fbase));
      else
        fprintf(file, " ?");
    }
    fprintf(file, "\n");
  }
  if (file) fclose(file);
  return PMPI_Finalize();
}
