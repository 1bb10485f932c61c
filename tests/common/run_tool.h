#pragma once
// Runs a scree tool as a user would, capturing exit status, stdout and stderr.
#include <sys/wait.h>

#include <algorithm>
#include <cstdlib>
#include <ostream>
#include <string>

#include "common/temp_dir.h"

namespace scree::testing {

struct ToolRun {
  int status;
  std::string out, err;
};

inline ToolRun run_tool(const TempDir& dir, const std::string& tool, const std::string& args) {
  const std::string cmd = std::string(SCREE_BIN_DIR) + "/" + tool + " " + args + " >" +
                          (dir / "stdout").string() + " 2>" + (dir / "stderr").string();
  int raw = std::system(cmd.c_str());
  ToolRun r{WIFEXITED(raw) ? WEXITSTATUS(raw) : -1, read_text(dir / "stdout"), read_text(dir / "stderr")};
  std::filesystem::remove(dir / "stdout");
  std::filesystem::remove(dir / "stderr");
  return r;
}

// `args` with every "DIR" replaced by the folder's path.
inline std::string in_dir(const TempDir& dir, std::string args) {
  for (std::string::size_type at; (at = args.find("DIR")) != std::string::npos;) args.replace(at, 3, dir.path().string());
  return args;
}

// A refused run: exit `status`, one line "<tool>: error: ..." that contains `message` (a usage
// error adds the "Try --help" line), no `output`, and no temporary file left in `dir`.
inline void expect_refusal(const TempDir& dir, const ToolRun& r, const std::string& tool, int status,
                           const std::string& message, const std::filesystem::path& output) {
  EXPECT_EQ(r.status, status) << r.err;
  EXPECT_EQ(r.err.rfind(tool + ": error: ", 0), 0u) << r.err;
  EXPECT_NE(r.err.find(message), std::string::npos) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), status == 2 ? 2 : 1) << r.err;
  EXPECT_FALSE(std::filesystem::exists(output));
  for (const auto& name : dir.entries()) EXPECT_EQ(name.find(".tmp"), std::string::npos) << name;
}

// One bad command line for a parameterised refusal test: its name, the arguments after the
// tool's usual ones, what the error line must say, and the exit status.
struct BadArguments {
  const char* name;
  const char* args;
  const char* message;
  int status;
};
inline void PrintTo(const BadArguments& b, std::ostream* os) { *os << b.name; }

}  // namespace scree::testing

