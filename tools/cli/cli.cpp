#include "tools/cli/cli.h"

#include <iostream>

#include "tools/cli/version.h"

namespace scree::cli {

std::string help_text(const Tool& t) {
  std::string s = "Usage: " + t.synopsis + "\n\n" + t.summary + "\n\nOptions:\n" + t.options;
  s += "  -h, --help     show this help and exit\n";
  s += "  -V, --version  show the version and exit\n";
  if (!t.examples.empty()) s += "\nExamples:\n" + t.examples;
  s += "\nExit status: 0 success, 1 error, 2 usage error.\n";
  return s;
}

int run(const Tool& tool, int argc, char** argv,
        const std::function<int(const std::vector<std::string>&)>& body) {
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
    std::cerr << tool.name << ": error: " << e.what() << "\n"
              << "Try '" << tool.name << " --help'.\n";
    return 2;
  } catch (const std::exception& e) {
    std::cerr << tool.name << ": error: " << e.what() << "\n";
    return 1;
  }
}

}  // namespace scree::cli
