#include "post/run_frames.h"

#include <algorithm>
#include <cstdio>
#include <string>

#include "formats/error.h"

namespace scree::post {

namespace fs = std::filesystem;

std::vector<fs::path> find_frames(const formats::Case& c) {
  const fs::path& folder = c.output.directory;
  std::vector<std::pair<long long, fs::path>> numbered;
  std::error_code ec;
  if (fs::is_directory(folder, ec))
    for (const auto& entry : fs::directory_iterator(folder)) {
      const std::string name = entry.path().filename().string();
      if (name.rfind("frame_", 0) != 0 || entry.path().extension() != ".h5") continue;
      const std::string digits = name.substr(6, name.size() - 9);
      if (digits.empty() || digits.find_first_not_of("0123456789") != std::string::npos) continue;
      numbered.emplace_back(std::stoll(digits), entry.path());
    }
  if (numbered.empty()) throw formats::FileError(folder, "no frames (frame_*.h5) here: has the case been run?");
  std::sort(numbered.begin(), numbered.end());
  std::vector<fs::path> frames;
  for (auto& [number, path] : numbered) frames.push_back(std::move(path));
  return frames;
}

namespace {

std::string listed(const std::vector<std::string>& names) {
  std::string list;
  for (const auto& n : names) list += (list.empty() ? "" : ", ") + n;
  return list;
}

std::string run_of(const formats::State& s) { return s.run.empty() ? "no run id (an older scree-solve)" : "run " + s.run; }

}  // namespace

std::vector<formats::State> read_frames(const formats::Case& c, const std::vector<fs::path>& frames) {
  std::vector<std::string> names;
  for (const auto& t : c.templates) names.push_back(t.name);
  std::vector<formats::State> states;
  for (const fs::path& file : frames) {
    formats::State s = formats::read_state(file);
    if (s.templates != names)
      throw formats::FileError(file, "its templates (" + listed(s.templates) + ") are not the case's (" + listed(names) +
                                         "): a frame of another case?");
    if (!states.empty() && s.run != states.front().run)
      throw formats::FileError(file, "frames of different runs mixed: this one is from " + run_of(s) + ", " +
                                         frames.front().filename().string() + " from " + run_of(states.front()) +
                                         "; clear the output folder before running again");
    if (!states.empty() && !(s.time > states.back().time))
      throw formats::FileError(file, "its time " + std::to_string(s.time) + " s does not follow the previous frame's " +
                                         std::to_string(states.back().time) + " s: frames of different runs mixed?");
    states.push_back(std::move(s));
  }
  return states;
}

void check_georeference(const std::vector<formats::State>& frames, const std::vector<fs::path>& files,
                        const formats::Georeference& terrain, const fs::path& terrain_file) {
  for (std::size_t f = 0; f < frames.size(); ++f) {
    const auto& g = frames[f].georeference;
    if (!g || *g == terrain) continue;
    auto offset = [](const formats::Georeference& r) {
      char text[96];
      std::snprintf(text, sizeof text, "%.3f, %.3f, %.3f", r.offset[0], r.offset[1], r.offset[2]);
      return std::string(text);
    };
    const std::string what = g->offset != terrain.offset
                                 ? "its origin offset (" + offset(terrain) + ") is not the one " + files[f].filename().string() +
                                       " was computed on (" + offset(*g) + ")"
                                 : "its coordinate system is not the one " + files[f].filename().string() + " was computed on";
    throw formats::FileError(terrain_file, what + ": the terrain was rebuilt since the run; run the case again");
  }
}

}  // namespace scree::post
