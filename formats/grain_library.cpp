#include "formats/grain_library.h"

#include <fstream>
#include <set>

#include "formats/atomic_file.h"
#include "formats/error.h"
#include "formats/yaml_schema.h"

namespace scree::formats {

namespace {
// A YAML double-quoted scalar.
std::string quoted(const std::string& text) {
  std::string q = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\') q += '\\';
    q += c;
  }
  return q + "\"";
}
}  // namespace

GrainLibrary read_grain_library(const std::filesystem::path& file) {
  yaml::Map top(file, yaml::load_file(file), "");
  GrainLibrary library;
  if (top.text("format") != "scree grain library 1")
    top.fail("format", "expected 'scree grain library 1'");
  library.source = top.text_or("source", "");
  std::set<std::string> names;
  for (yaml::Map m : top.list("grains")) {
    LibraryGrain g;
    g.name = m.text("name");
    if (!names.insert(g.name).second) m.fail("name", "duplicate name '" + g.name + "'");
    const std::filesystem::path path(m.text("file"));
    g.file = path.is_absolute() ? path : (file.parent_path() / path).lexically_normal();
    g.volume = m.real("volume", yaml::positive);
    g.equivalent_diameter = m.real("equivalent_diameter", yaml::positive);
    m.finish();
    library.grains.push_back(g);
  }
  if (library.grains.empty()) top.fail("grains", "needs at least one grain");
  top.finish();
  return library;
}

void write_grain_library(const std::filesystem::path& file, const GrainLibrary& library) {
  AtomicFile atomic(file);
  {
    std::ofstream out(atomic.temp_path());
    out.precision(9);
    out << "# scree grain library: one avatar per grain (docs/formats.md)\n"
        << "format: scree grain library 1\n"
        << "source: " << quoted(library.source) << "\n"
        << "grains:\n";
    for (const auto& g : library.grains)
      out << "  - {name: " << g.name << ", file: " << quoted(g.file.string()) << ", volume: " << g.volume
          << ", equivalent_diameter: " << g.equivalent_diameter << "}\n";
    if (!out) throw FileError(file, "cannot write");
  }
  atomic.commit();
}

}  // namespace scree::formats
