#include "tools/cli/cli.h"

#include <omp.h>

#include <sched.h>
#include <unistd.h>

#include <cstdlib>
#include <iostream>
#include <vector>

#include "tools/cli/version.h"

namespace {
// OpenMP threads that wait for work spin on their core for a while by default (GCC's libgomp:
// about a millisecond). On a machine whose cores other processes hold too (make -j, parameter
// sweeps, job arrays on shared nodes) a spinning thread takes the core from the thread it
// waits for (docs/benchmarks.md, "Shared cores"). Waiting threads sleep instead unless the
// user says otherwise. libgomp reads OMP_WAIT_POLICY once, when it is loaded, before main
// (and glibc sets up the environment only after an executable's .preinit_array): so the tool
// sets the variable and runs itself again, once. If that fails it runs on as it is.
//
// With OMP_PROC_BIND or OMP_PLACES set, libgomp binds the initial thread to the first place
// when it is loaded, and exec keeps that binding: the tool run again saw one place's
// processors only and put all its threads there (two threads as slow as one). So the
// processors of all the places libgomp made, those the process was allowed at its start, are
// allowed again first (docs/tools.md, "Threads").
void allow_every_place() {
  const int places = omp_get_num_places();
  if (places <= 0) return;
  cpu_set_t allowed;
  CPU_ZERO(&allowed);
  for (int place = 0; place < places; ++place) {
    std::vector<int> processors(std::size_t(omp_get_place_num_procs(place)));
    omp_get_place_proc_ids(place, processors.data());
    for (int processor : processors)
      if (processor >= 0 && processor < CPU_SETSIZE) CPU_SET(processor, &allowed);
  }
  if (CPU_COUNT(&allowed) > 0) sched_setaffinity(0, sizeof allowed, &allowed);
}

void wait_passively_unless_told(char** argv) {
  if (std::getenv("OMP_WAIT_POLICY")) return;
  setenv("OMP_WAIT_POLICY", "passive", 1);
  allow_every_place();
  execv("/proc/self/exe", argv);
  unsetenv("OMP_WAIT_POLICY");  // still libgomp's default
}
}  // namespace

namespace scree::cli {

std::string thread_layout() {
  const int threads = omp_get_max_threads();
  const char* policy = std::getenv("OMP_WAIT_POLICY");
  std::string layout = std::to_string(threads) + (threads == 1 ? " thread" : " threads") + " (OMP_NUM_THREADS), waiting " +
                       (policy ? policy : "as libgomp's default") + " (OMP_WAIT_POLICY)";
  if (omp_get_proc_bind() != omp_proc_bind_false) {
    const int places = omp_get_num_places();
    layout += ", bound to " + std::to_string(places) + (places == 1 ? " place" : " places") + " (OMP_PROC_BIND)";
  }
  return layout;
}

std::string help_text(const Tool& t) {
  std::string s = "Usage: " + t.synopsis + "\n\n" + t.summary + "\n\nOptions:\n" + t.options;
  s += "  -h, --help     show this help and exit\n";
  s += "  -V, --version  show the version and exit\n";
  if (!t.examples.empty()) s += "\nExamples:\n" + t.examples;
  s += "\nExit status: 0 success, 1 error, 2 usage error.\n";
  return s;
}

void print_error(const Tool& tool, const std::string& what, const std::string& more) {
  std::string text = tool.name + ": error: " + what + "\n";
  if (!more.empty()) text += more + "\n";
  std::cerr << text << std::flush;
}

int run(const Tool& tool, int argc, char** argv,
        const std::function<int(const std::vector<std::string>&)>& body) {
  wait_passively_unless_told(argv);
  std::vector<std::string> args(argv + 1, argv + argc);
  for (const auto& a : args) {
    if (a == "--") break;
    if (a == "-h" || a == "--help") {
      std::cout << help_text(tool);
      return 0;
    }
    if (a == "-V" || a == "--version") {
      std::cout << tool.name << " " << version << "\n";
      return 0;
    }
  }
  try {
    return body(args);
  } catch (const UsageError& e) {
    print_error(tool, e.what(), "Try '" + tool.name + " --help'.");
    return 2;
  } catch (const std::exception& e) {
    print_error(tool, e.what());
    return 1;
  }
}

}  // namespace scree::cli
