/* The ranks' work between MPI calls (bench/ranks/critical_path.sh): every MPI call scree's
 * communicator makes, wrapped through the MPI profiling interface (PMPI), is written to
 * $CRITICAL_PATH_OUT.<rank> with the CPU time the calling thread spent since its last MPI
 * call returned (its CPU time: what the rank would have taken on a core of its own, however
 * many ranks share this machine's cores) and what the call waits for: a message
 * (sender, tag) or every rank of a collective. critical_path.py replays the ranks on a core
 * each from these. Preloaded (LD_PRELOAD) into scree-solve; nothing of scree links it.
 *
 * A line a call: "s WORK PEER TAG BYTES" a send posted, "r WORK PEER TAG ID" a receive posted
 * (completed by a later wait), "p WORK SITE PEER TAG" a message taken as it comes (a probe),
 * "w WORK SITE ID..." a wait for the receives named, "c WORK SITE" a collective over every
 * rank. PEER is a rank of MPI_COMM_WORLD; WORK in seconds; SITE names the three return
 * addresses above the call, listed at the end as "site SITE file+offset file+offset
 * file+offset" (-1: MPI_Finalize).
 *
 * With CRITICAL_PATH_FIFO=1 each rank's thread runs first in, first out (the least real-time
 * priority) from the end of MPI_Init to the start of MPI_Finalize, every rank having started:
 * ranks launched so from the first would queue behind a rank spinning in MPI's start-up on
 * their core, and never start.
 *
 * With CRITICAL_PATH_CLOCK=cpu the monotonic clock that the thread which started MPI reads (the
 * clock of std::chrono::steady_clock) is its CPU time, from the end of MPI_Init to the start of
 * MPI_Finalize: the paces scree measures by it (the search's, the collisions', the strips') are
 * then those of the replay's ranks, a core each, rather than of ranks that wait their turn on
 * this machine's cores while the clock runs. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <execinfo.h>
#include <linux/perf_event.h>
#include <mpi.h>
#include <pthread.h>
#include <sched.h>
#include <string.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#include <x86intrin.h>

static FILE* out;
static long next_id;
static int world_size;

/* The thread's CPU time, without a system call a read: a read of the thread CPU clock costs
 * 1.8 µs on this machine (a system call, with page-table isolation), and two a call would add
 * 2.3 s to each of two ranks' 15 s on the demo's avalanche (631 000 calls a rank). So the
 * clock is read where the thread may have left its core
 * since the last read (the kernel rewrites a perf event's page each time the thread comes back
 * to a core: its `lock` changes), and otherwise the time stamp counter's advance is added.
 * The page is not rewritten at every return: four first-in-first-out threads on this
 * machine's two cores, each 200 000 stretches of a few µs with a yield between, counted
 * stretches of 5 and 43 ms by the counter (off its core, as the real-time throttle's 50 ms a
 * second would hold it), the thread clock none over 0.25 ms. So a stretch longer than `long_gap` by the
 * counter is read from the thread clock, whose read is nothing beside it (docs/benchmarks.md,
 * "The replay's phantom stretches"). */
static volatile struct perf_event_mmap_page* switches; /* null: the clock read each time */
static const double long_gap = 1e-3; /* s */
static uint32_t switches_seen;
static uint64_t tsc_seen;
static double tsc_hz, cpu_seen;

static double thread_clock(void) {
  struct timespec t;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static double cpu_now(void) {
  if (!switches) return thread_clock();
  const uint32_t seen = switches->lock;
  const uint64_t tsc = __rdtsc();
  if (seen == switches_seen && !(seen & 1) && (double)(tsc - tsc_seen) < long_gap * tsc_hz) {
    cpu_seen += (double)(tsc - tsc_seen) / tsc_hz;
  } else {
    cpu_seen = thread_clock();
    switches_seen = switches->lock;
  }
  tsc_seen = tsc;
  return cpu_seen;
}

/* A context-switch counter on this thread, whose page the kernel updates as it comes back to
 * a core; and the time stamp counter's rate against the monotonic clock over 20 ms. */
static void watch_switches(void) {
  struct perf_event_attr attr = {0};
  attr.size = sizeof attr;
  attr.type = PERF_TYPE_SOFTWARE;
  attr.config = PERF_COUNT_SW_CONTEXT_SWITCHES;
  const int fd = (int)syscall(SYS_perf_event_open, &attr, 0, -1, -1, 0);
  void* page = fd < 0 ? MAP_FAILED : mmap(NULL, (size_t)sysconf(_SC_PAGESIZE), PROT_READ, MAP_SHARED, fd, 0);
  if (page == MAP_FAILED) {
    fprintf(stderr, "critical_path: no perf event (perf_event_paranoid?): the thread clock read at every call\n");
    return;
  }
  struct timespec a, b;
  clock_gettime(CLOCK_MONOTONIC, &a);
  const uint64_t start = __rdtsc();
  do clock_gettime(CLOCK_MONOTONIC, &b);
  while ((double)(b.tv_sec - a.tv_sec) + 1e-9 * (double)(b.tv_nsec - a.tv_nsec) < 0.02);
  tsc_hz = (double)(__rdtsc() - start) / ((double)(b.tv_sec - a.tv_sec) + 1e-9 * (double)(b.tv_nsec - a.tv_nsec));
  switches = page;
  switches_seen = switches->lock;
  tsc_seen = __rdtsc();
  cpu_seen = thread_clock();
}

/* Where a blocking call was made from: its three callers. */
enum { sites_max = 4096, depth = 3 };
static void* site_keys[sites_max][depth];
static int sites;

/* The callers above the `skip` innermost frames (site() itself, the wrapper, and so on). */
__attribute__((noinline)) static int site(int skip) {
  void* trace[depth + 4];
  const int found = backtrace(trace, depth + skip);
  void* key[depth] = {0};
  for (int k = 0; k < depth && k + skip < found; ++k) key[k] = trace[k + skip];
  for (int s = 0; s < sites; ++s)
    if (!memcmp(site_keys[s], key, sizeof key)) return s;
  if (sites == sites_max) return sites_max - 1;
  memcpy(site_keys[sites], key, sizeof key);
  return sites++;
}

/* The monotonic clock as the thread that started MPI reads it (CRITICAL_PATH_CLOCK=cpu): its
 * CPU time; every other clock and thread as they are. */
static int monotonic_is_cpu;
static pthread_t mpi_thread;
int clock_gettime(clockid_t id, struct timespec* t) {
  static int (*real)(clockid_t, struct timespec*);
  if (!real) real = (int (*)(clockid_t, struct timespec*))dlsym(RTLD_NEXT, "clock_gettime");
  if (!monotonic_is_cpu || id != CLOCK_MONOTONIC || !pthread_equal(pthread_self(), mpi_thread)) return real(id, t);
  const double cpu = cpu_now();
  t->tv_sec = (time_t)cpu;
  t->tv_nsec = (long)((cpu - (double)t->tv_sec) * 1e9);
  return 0;
}

static double left_mpi; /* the thread's CPU time as the last call returned */
static double work(void) { return cpu_now() - left_mpi; }
static void returned(void) { left_mpi = cpu_now(); }

/* A comm's rank as a rank of MPI_COMM_WORLD. */
static int world_rank_of(MPI_Comm comm, int rank) {
  if (comm == MPI_COMM_WORLD || rank < 0) return rank;
  MPI_Group group, world;
  PMPI_Comm_group(comm, &group);
  PMPI_Comm_group(MPI_COMM_WORLD, &world);
  int translated = rank;
  PMPI_Group_translate_ranks(group, 1, &rank, world, &translated);
  PMPI_Group_free(&group);
  PMPI_Group_free(&world);
  return translated;
}

/* Receives posted and not yet waited for, by request: open addressing on the handle. */
enum { pending_max = 1 << 16 };
static MPI_Request pending_request[pending_max];
static long pending_id[pending_max];

static unsigned slot_of(MPI_Request request) {
  return (unsigned)(((uintptr_t)request * 0x9E3779B97F4A7C15ull) >> 48) & (pending_max - 1);
}
static void remember(MPI_Request request, long id) {
  unsigned s = slot_of(request);
  while (pending_request[s] != MPI_REQUEST_NULL && pending_request[s] != request) s = (s + 1) & (pending_max - 1);
  pending_request[s] = request;
  pending_id[s] = id;
}
static long forget(MPI_Request request) { /* -1 where the request is not a receive */
  unsigned s = slot_of(request);
  while (pending_request[s] != MPI_REQUEST_NULL) {
    if (pending_request[s] == request) {
      const long id = pending_id[s];
      /* Backward-shift deletion keeps every later entry reachable. */
      unsigned hole = s, next = (s + 1) & (pending_max - 1);
      while (pending_request[next] != MPI_REQUEST_NULL) {
        const unsigned home = slot_of(pending_request[next]);
        if (((next - home) & (pending_max - 1)) >= ((next - hole) & (pending_max - 1))) {
          pending_request[hole] = pending_request[next];
          pending_id[hole] = pending_id[next];
          hole = next;
        }
        next = (next + 1) & (pending_max - 1);
      }
      pending_request[hole] = MPI_REQUEST_NULL;
      return id;
    }
    s = (s + 1) & (pending_max - 1);
  }
  return -1;
}

/* Whether the setting `name` is `on`; unset is off, any other value refused (one line, the
 * run ended): a setting the library would not carry out is not taken silently. */
static int setting(const char* name, const char* on) {
  const char* value = getenv(name);
  if (!value || !*value) return 0;
  if (!strcmp(value, on)) return 1;
  fprintf(stderr, "critical_path: error: %s=%s: not %s (or unset)\n", name, value, on);
  PMPI_Abort(MPI_COMM_WORLD, 2);
  return 0;
}

int MPI_Init_thread(int* argc, char*** argv, int required, int* provided) {
  const int result = PMPI_Init_thread(argc, argv, required, provided);
  int rank = 0;
  PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
  PMPI_Comm_size(MPI_COMM_WORLD, &world_size);
  for (int s = 0; s < pending_max; ++s) pending_request[s] = MPI_REQUEST_NULL;
  const char* base = getenv("CRITICAL_PATH_OUT");
  char name[4096];
  snprintf(name, sizeof name, "%s.%d", base ? base : "critical_path", rank);
  out = fopen(name, "w");
  if (out) setvbuf(out, NULL, _IOFBF, 1 << 20);
  const int fifo = setting("CRITICAL_PATH_FIFO", "1"), cpu_clock = setting("CRITICAL_PATH_CLOCK", "cpu");
  if (fifo) {
    PMPI_Barrier(MPI_COMM_WORLD);
    const struct sched_param first = {.sched_priority = 1};
    sched_setscheduler(0, SCHED_FIFO, &first);  /* where not permitted, the rank stays time-sliced */
    /* Every rank first in, first out before any goes on: a rank that is, spinning in its next
     * call, held the cores from ranks not yet so, which never got to the switch (a run hung
     * so once in thirty on two cores). Waiting here, it sleeps between looks. */
    MPI_Request all_first;
    PMPI_Ibarrier(MPI_COMM_WORLD, &all_first);
    for (int done = 0; PMPI_Test(&all_first, &done, MPI_STATUS_IGNORE), !done;) {
      const struct timespec nap = {.tv_sec = 0, .tv_nsec = 100000};
      nanosleep(&nap, NULL);
    }
  }
  watch_switches();
  mpi_thread = pthread_self();
  monotonic_is_cpu = cpu_clock;
  returned();
  return result;
}

int MPI_Finalize(void) {
  if (out) {
    fprintf(out, "c %.9f -1\n", work());
    for (int s = 0; s < sites; ++s) {
      fprintf(out, "site %d", s);
      for (int k = 0; k < depth; ++k) {
        Dl_info info;
        if (site_keys[s][k] && dladdr(site_keys[s][k], &info) && info.dli_fname)
          fprintf(out, " %s+%lx", info.dli_fname, (unsigned long)((char*)site_keys[s][k] - (char*)info.dli_fbase));
        else
          fprintf(out, " ?");
      }
      fputc('\n', out);
    }
    fclose(out);
    out = NULL;
  }
  monotonic_is_cpu = 0;
  const struct sched_param none = {.sched_priority = 0};
  sched_setscheduler(0, SCHED_OTHER, &none);  /* MPI's ending spins too (CRITICAL_PATH_FIFO) */
  return PMPI_Finalize();
}

int MPI_Isend(const void* buffer, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm, MPI_Request* request) {
  int type_size = 0;
  PMPI_Type_size(type, &type_size);
  if (out) fprintf(out, "s %.9f %d %d %ld\n", work(), world_rank_of(comm, dest), tag, (long)count * type_size);
  const int result = PMPI_Isend(buffer, count, type, dest, tag, comm, request);
  returned();
  return result;
}

int MPI_Irecv(void* buffer, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm, MPI_Request* request) {
  const long id = next_id++;
  if (out) fprintf(out, "r %.9f %d %d %ld\n", work(), world_rank_of(comm, source), tag, id);
  const int result = PMPI_Irecv(buffer, count, type, source, tag, comm, request);
  remember(*request, id);
  returned();
  return result;
}

int MPI_Mprobe(int source, int tag, MPI_Comm comm, MPI_Message* message, MPI_Status* status) {
  if (out) {
    const double w = work();
    fprintf(out, "p %.9f %d %d %d\n", w, site(2), world_rank_of(comm, source), tag);
  }
  const int result = PMPI_Mprobe(source, tag, comm, message, status);
  returned();
  return result;
}

int MPI_Waitall(int n, MPI_Request* requests, MPI_Status* statuses) {
  if (out) {
    const double w = work();
    fprintf(out, "w %.9f %d", w, site(2));
    for (int k = 0; k < n; ++k)
      if (requests[k] != MPI_REQUEST_NULL) {
        const long id = forget(requests[k]);
        if (id >= 0) fprintf(out, " %ld", id);
      }
    fputc('\n', out);
  }
  const int result = PMPI_Waitall(n, requests, statuses);
  returned();
  return result;
}

/* A collective: every rank of the communicator meets (one node here: MPI_COMM_WORLD's). */
__attribute__((noinline)) static void collective(MPI_Comm comm) {
  int size = 0;
  PMPI_Comm_size(comm, &size);
  if (size != world_size) {
    fprintf(stderr, "critical_path: a collective over %d of %d ranks, which the replay does not model\n", size, world_size);
    abort();
  }
  if (out) {
    const double w = work();
    fprintf(out, "c %.9f %d\n", w, site(3));
  }
}

#define COLLECTIVE(call)          \
  collective(comm);               \
  const int result_ = call;       \
  returned();                     \
  return result_;

int MPI_Allreduce(const void* in, void* result, int n, MPI_Datatype type, MPI_Op op, MPI_Comm comm) {
  COLLECTIVE(PMPI_Allreduce(in, result, n, type, op, comm))
}
int MPI_Alltoall(const void* in, int n, MPI_Datatype type, void* result, int m, MPI_Datatype result_type, MPI_Comm comm) {
  COLLECTIVE(PMPI_Alltoall(in, n, type, result, m, result_type, comm))
}
int MPI_Allgather(const void* in, int n, MPI_Datatype type, void* result, int m, MPI_Datatype result_type, MPI_Comm comm) {
  COLLECTIVE(PMPI_Allgather(in, n, type, result, m, result_type, comm))
}
int MPI_Allgatherv(const void* in, int n, MPI_Datatype type, void* result, const int* counts, const int* offsets,
                   MPI_Datatype result_type, MPI_Comm comm) {
  COLLECTIVE(PMPI_Allgatherv(in, n, type, result, counts, offsets, result_type, comm))
}
int MPI_Gather(const void* in, int n, MPI_Datatype type, void* result, int m, MPI_Datatype result_type, int root,
               MPI_Comm comm) {
  COLLECTIVE(PMPI_Gather(in, n, type, result, m, result_type, root, comm))
}
int MPI_Gatherv(const void* in, int n, MPI_Datatype type, void* result, const int* counts, const int* offsets,
                MPI_Datatype result_type, int root, MPI_Comm comm) {
  COLLECTIVE(PMPI_Gatherv(in, n, type, result, counts, offsets, result_type, root, comm))
}
int MPI_Bcast(void* buffer, int n, MPI_Datatype type, int root, MPI_Comm comm) {
  COLLECTIVE(PMPI_Bcast(buffer, n, type, root, comm))
}
int MPI_Barrier(MPI_Comm comm) { COLLECTIVE(PMPI_Barrier(comm)) }
