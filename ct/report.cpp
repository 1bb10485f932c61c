#include "ct/report.h"

#include <algorithm>
#include <fstream>
#include <numeric>

#include "formats/atomic_file.h"
#include "formats/error.h"
#include "formats/grain_library.h"
#include "plot/plots.h"

namespace scree::ct {

void write_grain_table(const std::filesystem::path& csv, const GrainSet& set) {
  formats::AtomicFile atomic(csv);
  {
    std::ofstream out(atomic.temp_path());
    out.precision(9);
    out << "name,label,source_label,voxels,touches_border,volume_m3,equivalent_diameter_m,centroid_x_m,centroid_y_m,"
           "centroid_z_m,inertia_x_m5,inertia_y_m5,inertia_z_m5,semi_axis_a_m,semi_axis_b_m,semi_axis_c_m,"
           "elongation,flatness,surface_area_m2,sphericity,nodes\n";
    for (const GrainRecord& g : set.grains) {
      out << g.name << ',' << g.label << ',' << g.source_label << ',' << g.voxels << ',' << (g.touches_border ? 1 : 0)
          << ',' << g.volume << ',' << g.equivalent_diameter;
      for (double x : g.centroid) out << ',' << x;
      for (double x : g.principal) out << ',' << x;
      for (double x : g.semi_axes) out << ',' << x;
      out << ',' << g.elongation << ',' << g.flatness << ',' << g.surface_area << ',' << g.sphericity << ','
          << g.node_count << '\n';
    }
    if (!out) throw formats::FileError(csv, "cannot write");
  }
  atomic.commit();
}

void write_library(const std::filesystem::path& yaml, const GrainSet& set, const std::string& source) {
  formats::GrainLibrary library;
  library.source = source;
  for (const GrainRecord& g : set.grains) library.grains.push_back({g.name, g.name + ".vdb", g.volume, g.equivalent_diameter});
  formats::write_grain_library(yaml, library);
}

double median_diameter(const GrainSet& set) {
  std::vector<double> d;
  for (const GrainRecord& g : set.grains) d.push_back(g.equivalent_diameter);
  if (d.empty()) return 0;
  std::sort(d.begin(), d.end());
  const std::size_t n = d.size();
  return n % 2 ? d[n / 2] : 0.5 * (d[n / 2 - 1] + d[n / 2]);
}

void plot_size_distribution(const std::filesystem::path& png, const GrainSet& set, const std::string& title) {
  std::vector<const GrainRecord*> sorted;
  for (const GrainRecord& g : set.grains) sorted.push_back(&g);
  std::sort(sorted.begin(), sorted.end(), [](auto a, auto b) { return a->equivalent_diameter < b->equivalent_diameter; });
  const double total = std::accumulate(sorted.begin(), sorted.end(), 0.0, [](double s, auto g) { return s + g->volume; });
  post::Series by_volume{"by volume (mass)", {}, {}}, by_number{"by number", {}, {}};
  double volume = 0;
  for (std::size_t i = 0; i < sorted.size(); ++i) {
    const double d = 1e3 * sorted[i]->equivalent_diameter;  // mm
    // Steps: the curve jumps at each grain's diameter.
    by_volume.x.push_back(d), by_volume.y.push_back(100 * volume / total);
    by_number.x.push_back(d), by_number.y.push_back(100.0 * double(i) / double(sorted.size()));
    volume += sorted[i]->volume;
    by_volume.x.push_back(d), by_volume.y.push_back(100 * volume / total);
    by_number.x.push_back(d), by_number.y.push_back(100.0 * double(i + 1) / double(sorted.size()));
  }
  post::LineChart chart{title, "equivalent diameter (mm)", "finer (%)", {by_volume, by_number}, true};
  post::plot_lines(png, chart, post::ImageSize{1000, 650});
}

}  // namespace scree::ct
