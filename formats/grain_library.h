#pragma once
// Grain library (.yaml): an index of avatars, what scree-ct writes beside them and what a
// case's `templates` entry `library: FILE` expands into, one template per grain. Specified
// in docs/formats.md. Light header.
#include <cstddef>
#include <filesystem>
#include <string>
#include <vector>

namespace scree::formats {

struct LibraryGrain {
  std::string name;             // unique in the library
  std::filesystem::path file;   // avatar .vdb; relative paths are to the library's folder
  double volume = 0;            // m³
  double equivalent_diameter = 0;  // m
};

struct GrainLibrary {
  std::string source;  // free text: where the grains come from
  std::vector<LibraryGrain> grains;
};

// Reading resolves each grain's file against the library's folder. FileError with the line
// for a missing key, a duplicate name, a value out of range or no grain at all.
GrainLibrary read_grain_library(const std::filesystem::path& file);
// Writes the files as given (relative paths stay relative), atomically.
void write_grain_library(const std::filesystem::path& file, const GrainLibrary& library);

}  // namespace scree::formats
