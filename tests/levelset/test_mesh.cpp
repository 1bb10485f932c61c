// Meshes: reading STL (ASCII, binary) and OBJ, refusing bad files, and turning the shared
// datasets' meshes into avatars whose volume matches the mesh's own.
#include <gtest/gtest.h>
#include <openvdb/tools/Interpolation.h>

#include <cstring>

#include "common/temp_dir.h"
#include "formats/error.h"
#include "formats/mesh_file.h"
#include "levelset/avatar_builder.h"
#include "levelset/mesh.h"

namespace scree::levelset {
namespace {

using formats::read_mesh;
using testing::expect_error;
using testing::TempDir;
using testing::write_text;

const std::filesystem::path datasets = SCREE_DATASETS;

const char* tetrahedron_stl =
    "solid t\n"
    "facet normal 0 0 -1\n outer loop\n  vertex 0 0 0\n  vertex 0 1 0\n  vertex 1 0 0\n endloop\nendfacet\n"
    "facet normal 0 -1 0\n outer loop\n  vertex 0 0 0\n  vertex 1 0 0\n  vertex 0 0 1\n endloop\nendfacet\n"
    "facet normal -1 0 0\n outer loop\n  vertex 0 0 0\n  vertex 0 0 1\n  vertex 0 1 0\n endloop\nendfacet\n"
    "facet normal 1 1 1\n outer loop\n  vertex 1 0 0\n  vertex 0 1 0\n  vertex 0 0 1\n endloop\nendfacet\n"
    "endsolid t\n";

std::string binary_stl(const formats::TriangleMesh& m) {
  std::string bytes(80, ' ');
  std::uint32_t n = std::uint32_t(m.triangles.size());
  bytes.append(reinterpret_cast<const char*>(&n), 4);
  for (const auto& t : m.triangles) {
    float record[12] = {};
    for (int v = 0; v < 3; ++v)
      for (int a = 0; a < 3; ++a) record[3 + 3 * v + a] = float(m.vertices[t[v]][a]);
    bytes.append(reinterpret_cast<const char*>(record), 48);
    bytes.append(2, '\0');
  }
  return bytes;
}

TEST(MeshFile, ReadsAsciiBinaryAndObj) {
  TempDir dir;
  write_text(dir / "t.stl", tetrahedron_stl);
  auto ascii = read_mesh(dir / "t.stl");
  EXPECT_EQ(ascii.vertices.size(), 4u);  // shared corners merged
  EXPECT_EQ(ascii.triangles.size(), 4u);
  EXPECT_EQ(open_mesh_problem(ascii), "");
  EXPECT_NEAR(enclosed_volume(ascii), 1.0 / 6, 1e-15);

  write_text(dir / "b.stl", binary_stl(ascii));
  auto binary = read_mesh(dir / "b.stl");
  EXPECT_EQ(binary.vertices.size(), 4u);
  EXPECT_NEAR(enclosed_volume(binary), 1.0 / 6, 1e-7);

  write_text(dir / "q.obj", "# quad-faced cube\nv 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nv 0 0 1\nv 1 0 1\nv 1 1 1\nv 0 1 1\n"
                            "f 1 4 3 2\nf 5 6 7 8\nf 1 2 6 5\nf 2/1 3/1 7/1 6/1\nf 3 4 8 7\nf -4 -8 -5 -1\n");
  auto cube = read_mesh(dir / "q.obj");
  EXPECT_EQ(cube.triangles.size(), 12u);
  EXPECT_EQ(open_mesh_problem(cube), "");
  EXPECT_NEAR(enclosed_volume(cube), 1, 1e-15);
}

TEST(MeshFile, BadFilesAreRefused) {
  TempDir dir;
  write_text(dir / "empty.stl", "");
  expect_error([&] { read_mesh(dir / "empty.stl"); }, {"empty.stl", "is empty"});
  expect_error([&] { read_mesh(dir / "missing.stl"); }, {"missing.stl", "cannot open"});
  // A binary STL cut short, and one whose count disagrees with its size.
  write_text(dir / "b.stl", binary_stl(read_mesh((write_text(dir / "t.stl", tetrahedron_stl), dir / "t.stl"))));
  testing::truncate_file(dir / "b.stl", 84 + 50 * 3 + 20);
  expect_error([&] { read_mesh(dir / "b.stl"); }, {"b.stl", "truncated binary STL", "4 triangles"});
  // An ASCII STL cut inside a facet.
  std::string text = tetrahedron_stl;
  write_text(dir / "cut.stl", text.substr(0, text.find("endfacet", 300)));
  expect_error([&] { read_mesh(dir / "cut.stl"); }, {"cut.stl:", "truncated"});
  formats::TriangleMesh bad{{{0, 0, 0}, {1, 0, 0}, {0, std::nan(""), 0}}, {{0, 1, 2}}};
  write_text(dir / "nan.stl", binary_stl(bad));
  expect_error([&] { read_mesh(dir / "nan.stl"); }, {"nan.stl", "vertex coordinate is not finite"});
  write_text(dir / "words.stl", "solid x\nfacet normal 0 0 1\nouter loop\nvertex 1 2\n");
  expect_error([&] { read_mesh(dir / "words.stl"); }, {"words.stl:4", "three numbers"});
  write_text(dir / "noise.stl", std::string(200, 'x'));
  expect_error([&] { read_mesh(dir / "noise.stl"); }, {"noise.stl", "neither an ASCII nor a binary STL"});
  write_text(dir / "none.obj", "v 0 0 0\n");
  expect_error([&] { read_mesh(dir / "none.obj"); }, {"none.obj", "holds no triangles"});
  write_text(dir / "far.obj", "v 0 0 0\nv 1 0 0\nf 1 2 3\n");
  expect_error([&] { read_mesh(dir / "far.obj"); }, {"far.obj:3", "vertex 3 of 2"});
}

TEST(Mesh, OpenMeshIsNamed) {
  TempDir dir;
  std::string text = tetrahedron_stl;
  // Drop the last facet: three edges lose their second triangle.
  write_text(dir / "open.stl", text.substr(0, text.find("facet normal 1 1 1")) + "endsolid t\n");
  auto mesh = read_mesh(dir / "open.stl");
  EXPECT_EQ(open_mesh_problem(mesh).substr(0, 62),
            "mesh is not closed: 3 edges belong to one triangle only and 0 ");
  // The hole is a simple loop: one triangle closes it, and the volume comes back.
  EXPECT_EQ(fill_holes(mesh), "filled 1 hole with 1 triangle");
  EXPECT_EQ(open_mesh_problem(mesh), "");
  EXPECT_NEAR(enclosed_volume(mesh), 1.0 / 6, 1e-15);
  EXPECT_EQ(fill_holes(mesh), "");
}

TEST(Mesh, UnrepairableMeshIsAnError) {
  // Three triangles on one edge: no solid, nothing to fill.
  TempDir dir;
  write_text(dir / "fin.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 -1 0\nv 0 0 1\nf 1 2 3\nf 2 1 4\nf 1 2 5\n");
  auto mesh = read_mesh(dir / "fin.obj");
  expect_error([&] { fill_holes(mesh); }, {"mesh is not closed", "more than two triangles cannot be repaired"});
}

struct DatasetMesh {
  std::string name, path;
  double scale;          // source units to metres
  std::size_t nodes;
};

class DatasetAvatar : public ::testing::TestWithParam<DatasetMesh> {};

// The avatar's volume (smeared Heaviside at 20 voxels across) matches the divergence-theorem
// volume of the mesh within 1 %, and every node lies on the zero level.
TEST_P(DatasetAvatar, VolumeMatchesTheMesh) {
  const auto& param = GetParam();
  auto mesh = read_mesh(datasets / param.path);
  std::string repair = fill_holes(mesh);  // SP1A misses a facet
  ASSERT_EQ(open_mesh_problem(mesh), "") << repair;
  scale_mesh(mesh, param.scale);
  Vec3d lower, upper;
  mesh_bounds(mesh, lower, upper);
  double h = choose_voxel_size(lower, upper, 0, 20);
  formats::Shape shape = shape_from_samples(sample_mesh(mesh, h), 3, param.scale, param.path);
  NodeMethod used = add_nodes(shape, param.nodes, NodeMethod::automatic);
  MassProperties mass;
  formats::Avatar avatar = make_avatar(shape, mass);
  const double volume = enclosed_volume(mesh);
  std::printf("%s: mesh volume %.6g m^3, avatar %.6g (%+.3f %%), %zu nodes by %s\n", param.name.c_str(),
              volume, avatar.properties.volume, 100 * (avatar.properties.volume / volume - 1),
              avatar.nodes.size(), node_method_name(used).c_str());
  EXPECT_NEAR(avatar.properties.volume, volume, 0.01 * volume);

  auto acc = avatar.phi->getConstAccessor();
  double worst = 0;
  for (const auto& n : avatar.nodes) {
    Vec3d index = avatar.phi->transform().worldToIndex(Vec3d(n[0], n[1], n[2]));
    worst = std::max(worst, std::abs(double(openvdb::tools::BoxSampler::sample(acc, index))));
  }
  EXPECT_LT(worst, 1e-3 * h) << "worst |phi(node)| in voxels: " << worst / h;
  // It is a valid avatar file, even with sub-millimetre voxels (sand).
  testing::TempDir dir;
  formats::write_avatar(dir / "a.vdb", avatar);
  EXPECT_EQ(formats::read_avatar(dir / "a.vdb").nodes, avatar.nodes);
  // The body frame: centroid at the origin.
  MassProperties body = integrate_mass(*avatar.phi);
  EXPECT_LT(body.centroid.length(), 1e-6 * (upper - lower).length());
}

INSTANTIATE_TEST_SUITE_P(
    Datasets, DatasetAvatar,
    ::testing::Values(DatasetMesh{"sand", "geotaichi/sand.stl", 1e-5, 1000},
                      DatasetMesh{"torus", "geotaichi/torus.stl", 0.01, 1000},
                      DatasetMesh{"boulder_SP1A", "authume/Geometries/STL/SP1A.stl", 1, 2000}),
    [](const auto& info) { return info.param.name; });

TEST(Mesh, TorusNodesCoverTheInnerRing) {
  // The torus (major radius 0.5, tube 0.2, axis z) is not star-shaped from its centroid,
  // which lies in the hole: nodes come from surface sampling, and some lie on the inner
  // ring (distance from the axis < 0.5).
  auto mesh = read_mesh(datasets / "geotaichi/torus.stl");
  formats::Shape shape = shape_from_samples(sample_mesh(mesh, 0.02), 3, 1, "torus");
  EXPECT_EQ(add_nodes(shape, 1000, NodeMethod::automatic), NodeMethod::surface);
  std::size_t inner = 0;
  for (const auto& n : shape.nodes) inner += std::hypot(n[0], n[1]) < 0.4;
  EXPECT_GT(inner, 150u);  // the inner half of the tube holds about 30 % of the area
  EXPECT_EQ(shape.nodes.size(), 1000u);
}

}  // namespace
}  // namespace scree::levelset
