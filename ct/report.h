#pragma once
// What scree-ct writes beside the avatars: grains.csv (one row per grain: size, place and
// shape), library.yaml (the index a case's templates read), and the size distribution as a
// PNG (cumulative, by volume and by number, against the equivalent diameter).
#include <filesystem>
#include <string>

#include "ct/grain_avatars.h"

namespace scree::ct {

void write_grain_table(const std::filesystem::path& csv, const GrainSet& set);
void write_library(const std::filesystem::path& yaml, const GrainSet& set, const std::string& source);
// Needs an X display (VTK renders the chart; the tool calls cli::ensure_display first).
void plot_size_distribution(const std::filesystem::path& png, const GrainSet& set, const std::string& title);

// The equivalent diameter below which half the grains lie (by number), m.
double median_diameter(const GrainSet& set);

}  // namespace scree::ct
