// The charts of bench/ranks/scaling.sh's measurements (issue 28; docs/benchmarks.md, "Scaling
// on sixteen cores"): from its scaling.csv, the runs of one thread a rank, each series' (and
// end time's) median stepping time on each rank count. strong_scaling.png: the speed-up over
// one rank of the series on a fixed avalanche (dense, fall) against the ranks, with the ideal
// and 70 % of it;
// weak_scaling.png: the weak series' efficiency, one rank's time a step over R ranks' (R
// times the grains over R times the area). Prints the table it draws, and where the file has
// a busy series (one-rank runs of the dense flow while every core runs one), the dense
// series against that too: what the ranks cost each other beyond what busy cores cost any
// process (a clock the cores share, memory and caches shared).
//
//   xvfb-run -a build/bin/scaling_plot docs/data/scaling-16-cores.csv docs/images
#include <algorithm>
#include <cstdio>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "plot/plots.h"

namespace {

struct Runs {
  std::map<int, std::vector<double>> seconds_a_step, seconds;  // by ranks
};

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const std::size_t n = values.size();
  return n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

// "series to T s" → its runs of one thread a rank; columns as scaling.sh writes them.
std::map<std::string, Runs> read_runs(const std::string& file) {
  std::ifstream in(file);
  if (!in) throw std::runtime_error(file + ": cannot be read");
  std::string line;
  std::getline(in, line);
  if (line.rfind("series,ranks,threads,grains,until_s,steps,stepping_s", 0) != 0)
    throw std::runtime_error(file + ": not a scaling.csv (series,ranks,threads,grains,until_s,steps,stepping_s,...)");
  std::map<std::string, Runs> runs;
  for (int row = 2; std::getline(in, line); ++row) {
    std::vector<std::string> cells;
    std::stringstream cells_in(line);
    for (std::string cell; std::getline(cells_in, cell, ',');) cells.push_back(cell);
    const std::string where = file + ": row " + std::to_string(row);
    if (cells.size() < 7) throw std::runtime_error(where + " has fewer than 7 cells");
    int ranks = 0, threads = 0;
    double steps = 0, seconds = 0;
    try {
      ranks = std::stoi(cells[1]), threads = std::stoi(cells[2]);
      steps = std::stod(cells[5]), seconds = std::stod(cells[6]);
    } catch (const std::logic_error&) {
      throw std::runtime_error(where + ": ranks, threads, steps and stepping_s are not numbers");
    }
    if (ranks < 1 || steps < 1 || !(seconds > 0)) throw std::runtime_error(where + ": no run (ranks, steps or time not above 0)");
    if (threads != 1) continue;
    Runs& series = runs[cells[0] + " to " + cells[4] + " s"];
    series.seconds[ranks].push_back(seconds);
    series.seconds_a_step[ranks].push_back(seconds / steps);
  }
  return runs;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: scaling_plot SCALING.csv FOLDER\n");
    return 2;
  }
  try {
    const auto runs = read_runs(argv[1]);
    const std::string folder = argv[2];
    scree::post::LineChart strong{"Strong scaling: 50 000 rocks on the dc7 DEM, one thread a rank", "ranks",
                                  "speed-up over one rank", {}, false};
    scree::post::LineChart weak{"Weak scaling: 3125 rocks a rank on the dc7 DEM, one thread a rank", "ranks",
                                "efficiency (one rank's time a step / R ranks')", {}, true};
    scree::post::Series ideal{"ideal", {}, {}}, seventy{"70 % of ideal", {}, {}};
    std::set<int> strong_ranks;
    std::printf("series,ranks,runs,median_s,speed_up,efficiency\n");
    for (const auto& [name, series_runs] : runs) {
      if (name.rfind("busy ", 0) == 0) {
        // One rank among busy cores: against the dense flow to the same time, not a curve.
        const std::vector<double>& busy = series_runs.seconds.begin()->second;
        std::printf("%s,1,%zu,%.3f,,\n", name.c_str(), busy.size(), median(busy));
        const auto dense = runs.find("dense " + name.substr(5));
        if (dense == runs.end()) continue;
        for (const auto& [ranks, values] : dense->second.seconds) {
          const double speed_up = median(busy) / median(values);
          std::printf("%s against busy,%d,%zu,%.3f,%.2f,%.3f\n", dense->first.c_str(), ranks, values.size(), median(values),
                      speed_up, speed_up / ranks);
        }
        continue;
      }
      const bool is_weak = name.rfind("weak ", 0) == 0;
      const auto& times = is_weak ? series_runs.seconds_a_step : series_runs.seconds;
      if (!times.count(1)) throw std::runtime_error(std::string(argv[1]) + ": series " + name + " has no one-rank run");
      const double one = median(times.at(1));
      scree::post::Series curve{name, {}, {}};
      for (const auto& [ranks, values] : times) {
        const double speed_up = one / median(values);
        const double efficiency = is_weak ? speed_up : speed_up / ranks;
        std::printf("%s,%d,%zu,%.3f,%.2f,%.3f\n", name.c_str(), ranks, values.size(), median(values),
                    is_weak ? double(ranks) * speed_up : speed_up, efficiency);
        curve.x.push_back(ranks);
        curve.y.push_back(is_weak ? efficiency : speed_up);
        if (!is_weak) strong_ranks.insert(ranks);
      }
      (is_weak ? weak : strong).series.push_back(curve);
    }
    for (int ranks : strong_ranks) {
      ideal.x.push_back(ranks), ideal.y.push_back(ranks);
      seventy.x.push_back(ranks), seventy.y.push_back(0.7 * ranks);
    }
    strong.series.push_back(ideal);
    strong.series.push_back(seventy);
    if (!strong_ranks.empty()) scree::post::plot_lines(folder + "/strong_scaling.png", strong, {});
    if (!weak.series.empty()) scree::post::plot_lines(folder + "/weak_scaling.png", weak, {});
  } catch (const std::exception& e) {
    std::fprintf(stderr, "scaling_plot: error: %s\n", e.what());
    return 1;
  }
}
