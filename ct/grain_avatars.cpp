#include "ct/grain_avatars.h"

#include <algorithm>
#include <cmath>
#include <exception>
#include <limits>
#include <optional>
#include <sstream>
#include <stdexcept>

#include <openvdb/tools/Interpolation.h>

#include "formats/avatar.h"
#include "formats/avatar_file.h"
#include "levelset/avatar_builder.h"
#include "levelset/blur_correction.h"

namespace scree::ct {

namespace fs = std::filesystem;

namespace {

struct GrainBox {
  std::size_t voxels = 0;
  std::array<std::size_t, 3> lower{std::numeric_limits<std::size_t>::max(), std::numeric_limits<std::size_t>::max(),
                                   std::numeric_limits<std::size_t>::max()};
  std::array<std::size_t, 3> upper{};
  bool touches_border = false;
};

std::vector<GrainBox> grain_boxes(const Labels& labels) {
  std::vector<GrainBox> boxes(labels.count + 1);
  const auto& n = labels.size;
  std::size_t at = 0;
  for (std::size_t k = 0; k < n[2]; ++k)
    for (std::size_t j = 0; j < n[1]; ++j)
      for (std::size_t i = 0; i < n[0]; ++i, ++at) {
        const auto l = labels.values[at];
        if (!l) continue;
        GrainBox& b = boxes[l];
        ++b.voxels;
        const std::array<std::size_t, 3> c{i, j, k};
        for (int a = 0; a < 3; ++a) {
          b.lower[a] = std::min(b.lower[a], c[a]);
          b.upper[a] = std::max(b.upper[a], c[a]);
          if (c[a] == 0 || c[a] + 1 == n[a]) b.touches_border = true;
        }
      }
  return boxes;
}

// The grain's interface on the level-set grid (grid point c at c·h in the scan's local frame,
// voxel (0, 0, 0) at 0): inside where the nearest voxel carries the grain's label; an edge to
// the pore crossed where the linear interpolant of the field meets the level, an edge to
// another grain (or out of the scan) halfway.
levelset::InterfaceSamples grain_samples(const Volume& volume, const Segmentation& seg, std::uint32_t label,
                                         const GrainBox& box, double h, int margin) {
  openvdb::Coord lo, hi;
  for (int a = 0; a < 3; ++a) {
    lo[a] = int(std::floor(double(box.lower[a]) * volume.spacing[a] / h)) - margin;
    hi[a] = int(std::ceil(double(box.upper[a]) * volume.spacing[a] / h)) + margin;
  }
  levelset::InterfaceSamples samples(openvdb::CoordBBox(lo, hi), h);
  const std::size_t count = samples.inside.size();
  std::vector<float> field(count);
  std::vector<std::uint8_t> pore(count);
  const auto& n = volume.size;
  for (auto it = samples.box.begin(); it; ++it) {
    const openvdb::Coord c = *it;
    const std::size_t at = samples.index(c);
    // Voxel coordinates of the grid point; outside the scan counts as neither grain nor pore.
    std::array<double, 3> u{};
    bool within = true;
    for (int a = 0; a < 3; ++a) {
      u[a] = c[a] * h / volume.spacing[a];
      within &= u[a] > -0.5 && u[a] < double(n[a]) - 0.5;
    }
    if (!within) continue;
    std::array<std::size_t, 3> nearest{}, base{};
    std::array<double, 3> w{};
    for (int a = 0; a < 3; ++a) {
      nearest[a] = std::size_t(std::clamp(std::lround(u[a]), 0l, long(n[a]) - 1));
      const double clamped = std::clamp(u[a], 0.0, double(n[a] - 1));
      base[a] = std::min(std::size_t(clamped), n[a] >= 2 ? n[a] - 2 : 0);
      w[a] = clamped - double(base[a]);
    }
    const auto l = seg.labels.values[volume.index(nearest[0], nearest[1], nearest[2])];
    samples.inside[at] = l == label;
    pore[at] = l == 0;
    double f = 0;
    for (int corner = 0; corner < 8; ++corner) {
      double weight = 1;
      std::array<std::size_t, 3> v{};
      for (int a = 0; a < 3; ++a) {
        const int bit = (corner >> a) & 1;
        weight *= bit ? w[a] : 1 - w[a];
        v[a] = std::min(base[a] + bit, n[a] - 1);
      }
      if (weight > 0) f += weight * seg.field[volume.index(v[0], v[1], v[2])];
    }
    field[at] = float(f);
  }
  for (auto it = samples.box.begin(); it; ++it) {
    const openvdb::Coord c = *it;
    const std::size_t at = samples.index(c);
    for (int a = 0; a < 3; ++a) {
      openvdb::Coord q = c;
      q[a] += 1;
      if (!samples.box.isInside(q)) continue;
      const std::size_t next = samples.index(q);
      if (samples.inside[at] == samples.inside[next]) continue;
      const std::size_t in = samples.inside[at] ? at : next, out = samples.inside[at] ? next : at;
      double t_in = 0.5;  // from the inside point
      if (pore[out] && field[in] >= seg.level && field[out] < seg.level)
        t_in = (field[in] - seg.level) / (double(field[in]) - field[out]);
      samples.add_crossing(c, a, in == at ? t_in : 1 - t_in);
    }
  }
  return samples;
}

void describe(GrainRecord& g, const levelset::MassProperties& mass, const formats::Shape& shape,
              const Volume& volume) {
  g.volume = mass.volume;
  g.equivalent_diameter = std::cbrt(6 * mass.volume / M_PI);
  for (int a = 0; a < 3; ++a) {
    g.centroid[a] = mass.centroid[a] + volume.origin[a];
    g.principal[a] = mass.principal[a];
  }
  // An ellipsoid's I_x = V (b² + c²) / 5: a² = 5 (I_y + I_z − I_x) / (2V).
  for (int a = 0; a < 3; ++a) {
    const double sq = 5 * (mass.principal[(a + 1) % 3] + mass.principal[(a + 2) % 3] - mass.principal[a]) / (2 * mass.volume);
    g.semi_axes[a] = std::sqrt(std::max(sq, 0.0));
  }
  std::sort(g.semi_axes.begin(), g.semi_axes.end(), std::greater<double>());
  g.elongation = g.semi_axes[1] / g.semi_axes[0];
  g.flatness = g.semi_axes[2] / g.semi_axes[1];
  g.surface_area = levelset::surface_area(*shape.phi);
  g.sphericity = std::cbrt(M_PI) * std::pow(6 * mass.volume, 2.0 / 3.0) / g.surface_area;
  g.node_count = shape.nodes.size();
}

// Voxels near the grain's surface and near no other grain: their grey values against their
// signed distance from the surface, within `reach` metres of it.
void collect_edge_samples(const openvdb::FloatGrid& phi, const Volume& volume, const Segmentation& seg,
                          std::uint32_t label, const GrainBox& box, double reach, std::vector<EdgeSample>& out) {
  const auto& n = volume.size;
  std::array<std::size_t, 3> lo{}, hi{}, r{};
  for (int a = 0; a < 3; ++a) {
    r[a] = std::size_t(std::ceil(reach / volume.spacing[a]));
    lo[a] = box.lower[a] >= r[a] ? box.lower[a] - r[a] : 0;
    hi[a] = std::min(box.upper[a] + r[a], n[a] - 1);
  }
  const auto accessor = phi.getConstAccessor();
  // Another grain within the reach of a voxel brightens its pore side: only clean edges count.
  const auto near_other_grain = [&](std::size_t i, std::size_t j, std::size_t k) {
    for (std::size_t z = k >= r[2] ? k - r[2] : 0; z <= std::min(k + r[2], n[2] - 1); ++z)
      for (std::size_t y = j >= r[1] ? j - r[1] : 0; y <= std::min(j + r[1], n[1] - 1); ++y)
        for (std::size_t x = i >= r[0] ? i - r[0] : 0; x <= std::min(i + r[0], n[0] - 1); ++x) {
          const auto l = seg.labels.values[volume.index(x, y, z)];
          if (l && l != label) return true;
        }
    return false;
  };
  for (std::size_t k = lo[2]; k <= hi[2]; ++k)
    for (std::size_t j = lo[1]; j <= hi[1]; ++j)
      for (std::size_t i = lo[0]; i <= hi[0]; ++i) {
        const openvdb::Vec3d world(double(i) * volume.spacing[0], double(j) * volume.spacing[1], double(k) * volume.spacing[2]);
        const double d = openvdb::tools::BoxSampler::sample(accessor, phi.transform().worldToIndex(world));
        if (std::abs(d) > reach || near_other_grain(i, j, k)) continue;
        out.push_back({d, seg.field[volume.index(i, j, k)]});
      }
}

}  // namespace

GrainSet write_grain_avatars(const fs::path& folder, const Volume& volume, const Segmentation& seg,
                             const AvatarOptions& options) {
  GrainSet set;
  const double scan_voxel = *std::min_element(volume.spacing.begin(), volume.spacing.end());
  set.voxel_size = options.voxel_size > 0 ? options.voxel_size : scan_voxel;
  try {
    levelset::check_voxel_size(set.voxel_size);
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument(std::string("level-set ") + e.what() + "; give --ls-voxel-size 1.5e-5 or more");
  }
  const levelset::NodeMethod method = levelset::parse_node_method(options.node_method);
  const auto boxes = grain_boxes(seg.labels);
  std::vector<std::uint32_t> kept;
  for (std::uint32_t l = 1; l <= seg.labels.count; ++l) {
    if (boxes[l].voxels < options.min_voxels) {
      ++set.dropped_small;
    } else if (options.drop_border && boxes[l].touches_border) {
      ++set.dropped_border;
    } else {
      kept.push_back(l);
    }
  }
  const int margin = int(std::ceil(options.band)) + 2;
  std::vector<GrainRecord> records(kept.size());
  std::vector<std::optional<formats::Shape>> shapes(kept.size());
  std::vector<std::optional<formats::Avatar>> avatars(kept.size());
  std::vector<std::vector<EdgeSample>> edges(options.estimate_point_spread ? std::min(kept.size(), point_spread_grains) : 0);
  // Within three scan voxels of the surface, and inside the level set's band.
  const double reach = std::min(3 * scan_voxel, (options.band - 0.5) * set.voxel_size);
  std::vector<std::exception_ptr> failures(kept.size());
  std::size_t done = 0;
  const auto advance = [&] {
#pragma omp critical(scree_ct_progress)
    if (options.progress) options.progress(++done, 2 * kept.size());
  };
  const auto fail = [&](std::size_t g, const std::exception& e) {
    failures[g] = std::make_exception_ptr(std::runtime_error("grain " + std::to_string(kept[g]) + " (" +
                                                             std::to_string(boxes[kept[g]].voxels) + " voxels): " + e.what()));
  };
  // First every grain's level set, so that the blur can be measured on their edges ...
#pragma omp parallel for schedule(dynamic, 1)
  for (std::size_t g = 0; g < kept.size(); ++g) {
    try {
      const std::uint32_t label = kept[g];
      GrainRecord& record = records[g];
      record.label = label;
      record.source_label = seg.source_label.empty() ? 0 : seg.source_label[label - 1];
      record.voxels = boxes[label].voxels;
      record.touches_border = boxes[label].touches_border;
      std::ostringstream provenance;
      provenance << "scree-ct: " << options.source << ", grain " << label;
      if (record.source_label) provenance << " (label " << record.source_label << " in the file)";
      provenance << ", " << record.voxels << " voxels, level-set voxel " << set.voxel_size << " m, band " << options.band;
      shapes[g] = levelset::shape_from_samples(grain_samples(volume, seg, label, boxes[label], set.voxel_size, margin),
                                               options.band, 1, provenance.str());
      if (g < edges.size()) collect_edge_samples(*shapes[g]->phi, volume, seg, label, boxes[label], reach, edges[g]);
    } catch (const std::exception& e) {
      fail(g, e);
    }
    advance();
  }
  for (const auto& f : failures)
    if (f) std::rethrow_exception(f);
  set.point_spread = options.point_spread;
  if (options.estimate_point_spread) {
    std::vector<EdgeSample> all;
    for (const auto& e : edges) all.insert(all.end(), e.begin(), e.end());
    // Fewer samples than a few grains' edges give: no estimate, no correction.
    if (all.size() >= 1000) {
      set.edge_fit = fit_edge_profile(all, 0.05 * scan_voxel, 5 * scan_voxel);
      set.point_spread = set.edge_fit.at_limit ? 0 : set.edge_fit.sigma;
    }
  }
  // ... then the correction, the nodes and the mass properties.
#pragma omp parallel for schedule(dynamic, 1)
  for (std::size_t g = 0; g < kept.size(); ++g) {
    try {
      formats::Shape& shape = *shapes[g];
      levelset::undo_blur(*shape.phi, set.point_spread);
      levelset::add_nodes(shape, options.nodes, method);
      levelset::MassProperties mass;
      formats::Avatar avatar = levelset::make_avatar(shape, mass);
      // The samples' frame has voxel (0, 0, 0) at 0; the scan frame has it at the origin.
      auto& m = avatar.properties.source_to_body;
      for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) m[4 * i + 3] -= m[4 * i + j] * volume.origin[j];
      describe(records[g], mass, shape, volume);
      shapes[g].reset();
      // A sliver a voxel or two thick has no rigid-body inertia at this resolution.
      if (formats::properties_problem(avatar.properties).empty()) avatars[g] = std::move(avatar);
    } catch (const std::exception& e) {
      fail(g, e);
    }
    advance();
  }
  for (const auto& f : failures)
    if (f) std::rethrow_exception(f);
  std::size_t written = 0;
  const std::size_t total = std::size_t(std::count_if(avatars.begin(), avatars.end(), [](const auto& a) { return a.has_value(); }));
  const int width = std::max<int>(4, int(std::to_string(total).size()));
  for (std::size_t g = 0; g < kept.size(); ++g) {
    if (!avatars[g]) {
      ++set.dropped_degenerate;
      continue;
    }
    GrainRecord& record = records[g];
    const std::string number = std::to_string(++written);
    record.name = "grain_" + std::string(std::size_t(std::max(0, width - int(number.size()))), '0') + number;
    formats::write_avatar(folder / (record.name + ".vdb"), *avatars[g]);
    set.grains.push_back(std::move(record));
  }
  return set;
}

}  // namespace scree::ct
