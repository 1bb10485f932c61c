// Writes one file of every format with simple known values into a folder, for
// read_with_python.py to check against docs/formats.md.
#include <openvdb/tools/LevelSetSphere.h>

#include <iostream>

#include "formats/avatar.h"
#include "formats/shape.h"
#include "formats/csv_log.h"
#include "formats/state.h"
#include "formats/terrain.h"

using namespace scree::formats;

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: write_samples DIR\n";
    return 2;
  }
  const std::filesystem::path dir = argv[1];
  std::filesystem::create_directories(dir);

  State s;
  s.kind = StateKind::checkpoint;
  s.time = 0.125;
  s.step = 500;
  s.templates = {"a.vdb", "b.vdb"};
  s.bodies.resize(5);
  for (uint32_t i = 0; i < 5; ++i) {
    s.bodies.id[i] = 10 + i;
    s.bodies.template_index[i] = i % 2;
    s.bodies.scale[i] = 1 + 0.5 * i;
    s.bodies.position[i] = {0.25 * i, 0.5 * i, -0.25 * i};
    s.bodies.orientation[i] = i % 2 ? Quat{0.6, 0, 0.8, 0} : Quat{1, 0, 0, 0};
    s.bodies.velocity[i] = {double(i), 0, 0};
    s.bodies.angular_velocity[i] = {0, 0, double(i)};
  }
  Membrane net;
  net.name = "net";
  net.position = {{0, 0, 0}, {1, 0, 0}, {2, 0, 0}};
  net.velocity = {{0, 0, 0}, {0, 0, -1}, {0, 0, 0}};
  net.radius = {0.1, 0.1, 0.1};
  net.mass = {0.5, 0.5, 0.5};
  net.anchored = {1, 0, 1};
  net.springs = {{0, 1}, {1, 2}};
  net.rest_length = {1, 1};
  net.stiffness = {100, 100};
  s.membranes = {net};
  SolverState ss;
  ss.rng_state = "12345";
  ss.next_frame_index = 3;
  ss.next_frame_time = 0.15;
  ss.next_log_time = 0.13;
  ss.next_checkpoint_time = 1;
  ss.contacts.body_a = {10, 11};
  ss.contacts.body_b = {11, terrain_id};
  ss.contacts.node = {5, -1};
  ss.contacts.impulse = {{1, 2, 3}, {4, 5, 6}};
  ss.contacts.tangential_displacement = {{0, 0, 0}, {1e-3, 0, 0}};
  s.solver = ss;
  write_state(dir / "checkpoint.h5", s);
  write_membrane(dir / "net.h5", net);

  Avatar a;
  a.phi = openvdb::tools::createLevelSetSphere<openvdb::FloatGrid>(0.5f, openvdb::Vec3f(0),
                                                                   0.05f, 3.0f);
  for (int i = 0; i < 100; ++i) a.nodes.push_back({0.001f * i, -0.002f * i, 0.5f});
  a.properties.volume = 0.5;
  a.properties.inertia_per_density = {0.1, 0.2, 0.25};
  a.properties.source_to_body = {0.001, 0, 0, 1, 0, 0.001, 0, 2, 0, 0, 0.001, 3, 0, 0, 0, 1};
  a.properties.provenance = "python sample";
  write_avatar(dir / "grain.vdb", a);

  Shape shape;
  shape.phi = a.phi;
  shape.source_scale = 0.001;
  shape.provenance = "python sample shape";
  write_shape(dir / "shape.vdb", shape);

  Terrain t;
  t.phi = a.phi;
  t.crs_wkt = "LOCAL_CS[\"test\"]";
  t.origin_offset = {618049.5, 3996199.5, 1597.25};
  t.provenance = "python sample terrain";
  write_terrain(dir / "terrain.vdb", t);

  CsvLogWriter log(dir / "log.csv", {{"time", "s"}, {"kinetic_energy", "J"}});
  log.write_row(std::vector<double>{0, 0.1});
  log.write_row(std::vector<double>{0.5, 1.0 / 3.0});
  return 0;
}
