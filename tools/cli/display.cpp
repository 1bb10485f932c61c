#include "tools/cli/display.h"

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

namespace scree::cli {

namespace {

constexpr const char* marker = "SCREE_UNDER_XVFB";

std::string find_program(const std::string& name) {
  const char* path = std::getenv("PATH");
  std::string dirs = path ? path : "/usr/bin:/bin";
  std::size_t start = 0;
  while (start <= dirs.size()) {
    const std::size_t end = std::min(dirs.find(':', start), dirs.size());
    const std::filesystem::path candidate = std::filesystem::path(dirs.substr(start, end - start)) / name;
    if (access(candidate.c_str(), X_OK) == 0) return candidate;
    start = end + 1;
  }
  return "";
}

}  // namespace

void ensure_display(int argc, char** argv) {
  const char* display = std::getenv("DISPLAY");
  if (display && *display) return;
  if (std::getenv(marker)) throw std::runtime_error("xvfb-run started no display");
  const std::string xvfb = find_program("xvfb-run");
  if (xvfb.empty())
    throw std::runtime_error("no display to render on: install xvfb (apt-get install xvfb) or set DISPLAY");
  const std::string self = std::filesystem::read_symlink("/proc/self/exe");
  std::vector<std::string> args{xvfb, "-a", "-s", "-screen 0 1920x1200x24", self};
  for (int k = 1; k < argc; ++k) args.emplace_back(argv[k]);
  std::vector<char*> raw;
  for (auto& a : args) raw.push_back(a.data());
  raw.push_back(nullptr);
  setenv(marker, "1", 1);
  execv(xvfb.c_str(), raw.data());
  throw std::runtime_error("cannot run " + xvfb);
}

}  // namespace scree::cli
