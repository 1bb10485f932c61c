#pragma once
// What every scree-<tool> shares: --help and --version, "scree-<tool>: error: ..." on stderr,
// exit status 0 on success, 1 on an error, 2 on a usage error.
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

namespace scree::cli {

// A mistake in the command line itself (exit status 2).
class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct Tool {
  std::string name;      // "scree-info"
  std::string synopsis;  // "scree-info [options] FILE..."
  std::string summary;   // one paragraph: what it does
  std::string options;   // the option lines, pre-formatted
  std::string examples;  // pre-formatted example commands
};

std::string help_text(const Tool& tool);

// Writes "<tool>: error: <what>" and a line more, if given, to stderr in one write: under
// mpirun the launcher's own messages share the stream, and a line written piece by piece came
// out with theirs inside it.
void print_error(const Tool& tool, const std::string& what, const std::string& more = "");

// The OpenMP threads a tool runs and how they wait: "2 threads (OMP_NUM_THREADS), waiting
// passive (OMP_WAIT_POLICY)". Waiting is passive unless OMP_WAIT_POLICY says otherwise.
std::string thread_layout();

// Handles --help and --version, then calls `body` with the remaining arguments and turns
// exceptions into the error line and exit status.
int run(const Tool& tool, int argc, char** argv,
        const std::function<int(const std::vector<std::string>&)>& body);

}  // namespace scree::cli
