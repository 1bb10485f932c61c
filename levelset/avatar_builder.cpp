#include "levelset/avatar_builder.h"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <stdexcept>
#include <vector>

#include "formats/error.h"
#include "levelset/fast_marching.h"
#include "levelset/mesh.h"

namespace scree::levelset {

void check_voxel_size(double voxel_size) {
  if (voxel_size < min_voxel_size) {
    std::ostringstream s;
    s << "voxel size " << voxel_size << " m is below OpenVDB's smallest, " << min_voxel_size
      << " m (its transforms need voxel volumes above 3e-15 m³)";
    throw std::invalid_argument(s.str());
  }
}

double choose_voxel_size(const Vec3d& lower, const Vec3d& upper, double voxel_size, double voxels) {
  const double smallest = std::min({upper[0] - lower[0], upper[1] - lower[1], upper[2] - lower[2]});
  if (!(smallest > 0)) throw std::invalid_argument("the shape has no extent along one axis");
  if (voxel_size == 0) {
    if (!(std::isfinite(voxels) && voxels > 0))
      throw std::invalid_argument("voxels across must be > 0");
    voxel_size = smallest / voxels;
  }
  if (!(std::isfinite(voxel_size) && voxel_size > 0))
    throw std::invalid_argument("voxel size must be > 0");
  if (smallest / voxel_size < min_voxels_across) {
    std::ostringstream s;
    s << "grid too coarse: " << smallest / voxel_size << " voxels across the smallest side ("
      << smallest << " m), at least " << min_voxels_across << " needed";
    throw std::invalid_argument(s.str());
  }
  check_voxel_size(voxel_size);
  return voxel_size;
}

formats::Shape shape_from_samples(InterfaceSamples samples, double band, double source_scale,
                                  const std::string& provenance,
                                  const std::function<void(std::size_t, std::size_t)>& progress) {
  if (!(band >= min_band)) throw std::invalid_argument("narrow band must be at least 3 voxels (the mass integral reaches 3 voxels out)");
  MarchOptions options;
  options.outside_width = band;
  if (progress) {
    // Every inside point, and about `band` layers of the boundary's outer half outside.
    std::size_t inside = std::size_t(std::count(samples.inside.begin(), samples.inside.end(), 1));
    std::size_t crossed = std::size_t(std::count_if(samples.crossing.begin(), samples.crossing.end(), [](const auto& c) {
      return std::isfinite(c[0]) || std::isfinite(c[1]) || std::isfinite(c[2]);
    }));
    const std::size_t expected = inside + std::size_t(double(crossed) * 0.5 * band);
    options.progress = [progress, expected](std::size_t done) { progress(done, expected); };
  }
  formats::Shape shape;
  shape.phi = march(*interface_band(samples), options);
  if (samples.surface_distance) {
    // Fast marching errs most near edges and corners, where fronts fan out; the mass
    // integral and the contacts read the values within `band` voxels of the surface, so
    // there the distance to the surface itself replaces the marched value when smaller
    // (both are distances to surface points or overestimate them).
    const double reach = (band + 0.5) * samples.voxel_size;
    std::vector<openvdb::Coord> near;
    std::vector<float> refined;
    for (auto it = shape.phi->cbeginValueOn(); it; ++it)
      if (std::abs(*it) < reach) near.push_back(it.getCoord()), refined.push_back(*it);
#pragma omp parallel for schedule(dynamic, 256)
    for (std::size_t i = 0; i < near.size(); ++i) {
      double d = samples.surface_distance(shape.phi->indexToWorld(near[i]));
      if (std::isfinite(d) && d < std::abs(refined[i])) refined[i] = float(std::copysign(d, refined[i]));
    }
    auto write = shape.phi->getAccessor();
    for (std::size_t i = 0; i < near.size(); ++i) write.setValueOn(near[i], refined[i]);
  }
  shape.source_scale = source_scale;
  shape.provenance = provenance;
  return shape;
}

formats::Shape implicit_shape(const ImplicitShape& shape, const Resolution& r) {
  double h = choose_voxel_size(shape.lower, shape.upper, r.voxel_size, r.voxels);
  std::ostringstream provenance;
  provenance << shape.description << ", voxel size " << h << " m, band " << r.band;
  return shape_from_samples(sample_implicit(shape, h), r.band, 1, provenance.str(), r.progress);
}

formats::Shape mesh_shape(const std::filesystem::path& file, double scale, const Resolution& r,
                          std::string& repair) {
  if (!(std::isfinite(scale) && scale > 0)) throw std::invalid_argument("scale must be > 0");
  formats::TriangleMesh mesh = formats::read_mesh(file);
  try {
    repair = fill_holes(mesh);
    scale_mesh(mesh, scale);
    Vec3d lower, upper;
    mesh_bounds(mesh, lower, upper);
    double h = choose_voxel_size(lower, upper, r.voxel_size, r.voxels);
    std::ostringstream provenance;
    provenance << "mesh " << file.string() << " (" << mesh.triangles.size() << " triangles"
               << (repair.empty() ? "" : ", " + repair) << "), scale " << scale << ", voxel size " << h
               << " m, band " << r.band;
    return shape_from_samples(sample_mesh(mesh, h), r.band, scale, provenance.str(), r.progress);
  } catch (const std::exception& e) {
    throw formats::FileError(file, e.what());
  }
}

NodeMethod add_nodes(formats::Shape& shape, std::size_t count, NodeMethod method) {
  const MassProperties mass = integrate_mass(*shape.phi);
  NodePlacement placed = place_nodes(*shape.phi, mass.centroid, count, method);
  shape.nodes.clear();
  for (const Vec3d& p : placed.nodes) shape.nodes.push_back({float(p[0]), float(p[1]), float(p[2])});
  shape.provenance += "; " + std::to_string(shape.nodes.size()) + " nodes by " + node_method_name(placed.method);
  return placed.method;
}

formats::Avatar make_avatar(const formats::Shape& shape, MassProperties& mass) {
  if (shape.nodes.empty()) throw std::invalid_argument("the shape has no boundary nodes (run scree-nodes first)");
  mass = integrate_mass(*shape.phi);
  // x_body = Rᵀ (x_world − c), with R's columns the principal axes.
  const Mat3d Rt = mass.axes.transpose();
  const Vec3d shift = -(Rt * mass.centroid);
  auto to_body = [&](const Vec3d& x) { return Rt * x + shift; };

  formats::Avatar a;
  a.phi = shape.phi->deepCopy();
  // OpenVDB composes maps on row vectors: appending x ↦ Rᵀ x + shift is v · [R 0; shiftᵀ 1].
  openvdb::Mat4d append = openvdb::Mat4d::identity();
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) append(i, j) = Rt(j, i);
    append(3, i) = shift[i];
  }
  a.phi->transform().postMult(append);
  for (const auto& n : shape.nodes) {
    Vec3d b = to_body(Vec3d(n[0], n[1], n[2]));
    a.nodes.push_back({float(b[0]), float(b[1]), float(b[2])});
  }
  auto& p = a.properties;
  p.volume = mass.volume;
  p.inertia_per_density = {mass.principal[0], mass.principal[1], mass.principal[2]};
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) p.source_to_body[4 * i + j] = Rt(i, j) * shape.source_scale;
    p.source_to_body[4 * i + 3] = shift[i];
  }
  p.provenance = shape.provenance;
  return a;
}

}  // namespace scree::levelset
