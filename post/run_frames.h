#pragma once
// A run's frames, found in the case's output folder and read back checked: what every
// post-processing tool starts from.
#include <filesystem>
#include <vector>

#include "formats/case.h"
#include "formats/state.h"

namespace scree::post {

// The frames of a run: `frame_*.h5` in the case's output folder, in the order of their
// numbers. FileError naming the folder when there is none.
std::vector<std::filesystem::path> find_frames(const formats::Case& c);

// Reads every frame, FileError naming the first bad one: unreadable, not of this case's
// templates, of another run than the first frame (formats::State::run), or out of time order.
std::vector<formats::State> read_frames(const formats::Case& c, const std::vector<std::filesystem::path>& frames);

// FileError naming `terrain_file` when a frame was computed on a terrain placed otherwise on
// the map (another origin offset or coordinate system: the terrain was rebuilt since the
// run). Frames without a georeference (from before frames had one) pass.
void check_georeference(const std::vector<formats::State>& frames, const std::vector<std::filesystem::path>& files,
                        const formats::Georeference& terrain, const std::filesystem::path& terrain_file);

}  // namespace scree::post
