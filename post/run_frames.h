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

}  // namespace scree::post
