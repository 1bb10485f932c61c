// scree-info: checks scree files and says what is in them.
#include <iostream>

#include "formats/describe.h"
#include "tools/cli/cli.h"

int main(int argc, char** argv) {
  const scree::cli::Tool tool{
      "scree-info", "scree-info [options] FILE...",
      "Reads each FILE with the same checks the solver and tools apply, and prints what it\n"
      "holds: a case (.yaml), a state, frame, checkpoint or membrane (.h5), an avatar, a shape\n"
      "or a terrain (.vdb), or a CSV log (.csv). A file that fails a check gets one line\n"
      "'scree-info: error: FILE: what is wrong'; the exit status is 1 if any file failed.",
      "  -q, --quiet    print nothing for valid files (check only)\n",
      "  scree-info case.yaml                 # validate a case and list what it uses\n"
      "  scree-info avatars/A.vdb state.h5    # summarise an avatar and a state\n"
      "  scree-info -q out/frame_*.h5         # check every frame, quietly\n"};
  return scree::cli::run(tool, argc, argv, [&](const std::vector<std::string>& args) {
    bool quiet = false;
    std::vector<std::string> files;
    bool options_done = false;
    for (const auto& a : args) {
      if (!options_done && a == "--") options_done = true;
      else if (!options_done && (a == "-q" || a == "--quiet")) quiet = true;
      else if (!options_done && a.size() > 1 && a[0] == '-')
        throw scree::cli::UsageError("unknown option '" + a + "'");
      else files.push_back(a);
    }
    if (files.empty()) throw scree::cli::UsageError("no FILE given");
    int status = 0;
    for (const auto& f : files) {
      try {
        std::string text = scree::formats::describe_file(f);
        if (!quiet) std::cout << text << (files.size() > 1 ? "\n" : "");
      } catch (const std::exception& e) {
        scree::cli::print_error(tool, e.what());
        status = 1;
      }
    }
    return status;
  });
}
