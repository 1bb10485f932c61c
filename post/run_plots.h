#pragma once
// The pictures of a run, as scree-plot draws them: energy terms from the log, runout and
// speeds over time, the deposit's thickness map, and snapshots of grains on the ground.
#include <cstddef>
#include <filesystem>
#include <functional>
#include <vector>

#include "formats/case.h"
#include "formats/state.h"
#include "plot/plots.h"
#include "post/runout.h"

namespace scree::post {

struct RunPlotOptions {
  ImageSize size;
  RunoutOptions runout;
  std::vector<double> snapshot_times;  // each drawn at the nearest frame; none: the first and the last
  std::size_t triangles = 1000;        // per grain template in snapshots
  std::function<void(std::size_t done, std::size_t total)> progress;
};

// Writes into `folder` (made if missing): energy.png (when the case's log is there),
// runout.png, speeds.png, deposit.png and snapshot_NNNNNN.png (frame number); returns the
// files written.
std::vector<std::filesystem::path> write_run_plots(const formats::Case& c, const std::vector<formats::State>& frames,
                                                   const std::vector<std::filesystem::path>& frame_files,
                                                   const std::filesystem::path& folder, const RunPlotOptions& options);

}  // namespace scree::post
