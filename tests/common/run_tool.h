#pragma once
// Runs a scree tool as a user would, capturing exit status, stdout and stderr.
#include <sys/wait.h>

#include <cstdlib>
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

}  // namespace scree::testing
