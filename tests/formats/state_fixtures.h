#pragma once
// Sample states, frames and checkpoints with every field set, and a comparison of every field
// bit for bit: for the tests of state files written whole, in blocks and from many ranks.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <sstream>

#include "formats/state.h"

namespace scree::formats::testing {

inline Quat random_unit_quaternion(std::mt19937_64& rng) {
  std::normal_distribution<double> g;
  Quat q{g(rng), g(rng), g(rng), g(rng)};
  double n = std::sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
  for (auto& c : q) c /= n;
  return q;
}

inline Vec3 random_vector(std::mt19937_64& rng, double scale) {
  std::uniform_real_distribution<double> u(-scale, scale);
  return {u(rng), u(rng), u(rng)};
}

inline Membrane sample_membrane(std::mt19937_64& rng, const std::string& name, uint32_t balls) {
  Membrane m;
  m.name = name;
  for (uint32_t i = 0; i < balls; ++i) {
    m.position.push_back(random_vector(rng, 10));
    m.velocity.push_back(random_vector(rng, 1));
    m.radius.push_back(0.05 + 0.01 * i);
    m.mass.push_back(0.2 + 0.001 * i);
    m.anchored.push_back(i % 5 == 0);
  }
  for (uint32_t i = 0; i + 1 < balls; ++i) {
    m.springs.push_back({i, i + 1});
    m.rest_length.push_back(0.1 + 1e-3 * i);
    m.stiffness.push_back(1e4 / (i + 1));
  }
  return m;
}

inline State sample_state(StateKind kind, size_t n = 1000, unsigned seed = 7) {
  std::mt19937_64 rng(seed);
  State s;
  s.kind = kind;
  s.time = 1.0 / 3.0;  // not representable in decimal: round trips must be binary exact
  s.step = 123456789012;
  if (kind != StateKind::state) s.run = "00c0ffee12345678";
  if (kind == StateKind::frame) s.georeference = Georeference{{618127.25, 3996262.5, 1609}, "PROJCS[\"WGS 84 / UTM zone 13N\"]"};
  s.templates = {"avatars/A.vdb", "avatars/boulder ü.vdb", "/abs/path/E.vdb"};
  s.bodies.resize(n);
  for (size_t i = 0; i < n; ++i) {
    s.bodies.id[i] = 1000 + 7 * i;
    s.bodies.template_index[i] = uint32_t(i % 3);
    s.bodies.scale[i] = 0.5 + std::ldexp(double(i), -11);
    s.bodies.position[i] = random_vector(rng, 100);
    s.bodies.orientation[i] = random_unit_quaternion(rng);
    s.bodies.velocity[i] = random_vector(rng, 10);
    s.bodies.angular_velocity[i] = random_vector(rng, 30);
  }
  s.membranes = {sample_membrane(rng, "net", 40), sample_membrane(rng, "fence", 7)};
  if (kind == StateKind::checkpoint) {
    SolverState ss;
    std::mt19937_64 generator(99);
    generator.discard(17);
    std::ostringstream text;
    text << generator;
    ss.rng_state = text.str();
    ss.next_frame_index = 42;
    ss.next_frame_time = 2.1;
    ss.next_log_time = 2.01;
    ss.next_checkpoint_time = 3.0;
    for (size_t c = 0; c < 25; ++c) {
      ss.contacts.body_a.push_back(1000 + 7 * c);
      ss.contacts.body_b.push_back(c % 2 ? wall_id(uint32_t(c)) : membrane_ball_id(1, uint32_t(c)));
      ss.contacts.node.push_back(c % 3 ? int32_t(c) : -1);
      ss.contacts.impulse.push_back(random_vector(rng, 1e-3));
      ss.contacts.tangential_displacement.push_back(random_vector(rng, 1e-6));
    }
    s.solver = ss;
  }
  return s;
}

inline void expect_same_membrane(const Membrane& a, const Membrane& b) {
  EXPECT_EQ(a.name, b.name);
  EXPECT_EQ(a.position, b.position);
  EXPECT_EQ(a.velocity, b.velocity);
  EXPECT_EQ(a.radius, b.radius);
  EXPECT_EQ(a.mass, b.mass);
  EXPECT_EQ(a.anchored, b.anchored);
  EXPECT_EQ(a.springs, b.springs);
  EXPECT_EQ(a.rest_length, b.rest_length);
  EXPECT_EQ(a.stiffness, b.stiffness);
}

// Every field compared with ==: doubles must come back bit for bit.
inline void expect_same_state(const State& a, const State& b) {
  EXPECT_EQ(a.kind, b.kind);
  EXPECT_EQ(a.time, b.time);
  EXPECT_EQ(a.step, b.step);
  EXPECT_EQ(a.run, b.run);
  EXPECT_EQ(a.georeference, b.georeference);
  EXPECT_EQ(a.templates, b.templates);
  EXPECT_EQ(a.bodies.id, b.bodies.id);
  EXPECT_EQ(a.bodies.template_index, b.bodies.template_index);
  EXPECT_EQ(a.bodies.scale, b.bodies.scale);
  EXPECT_EQ(a.bodies.position, b.bodies.position);
  EXPECT_EQ(a.bodies.orientation, b.bodies.orientation);
  EXPECT_EQ(a.bodies.velocity, b.bodies.velocity);
  EXPECT_EQ(a.bodies.angular_velocity, b.bodies.angular_velocity);
  ASSERT_EQ(a.membranes.size(), b.membranes.size());
  // Membranes come back in name order.
  auto by_name = [](std::vector<Membrane> ms) {
    std::sort(ms.begin(), ms.end(), [](auto& x, auto& y) { return x.name < y.name; });
    return ms;
  };
  auto ma = by_name(a.membranes), mb = by_name(b.membranes);
  for (size_t i = 0; i < ma.size(); ++i) expect_same_membrane(ma[i], mb[i]);
  ASSERT_EQ(a.solver.has_value(), b.solver.has_value());
  if (a.solver) {
    const auto &x = *a.solver, &y = *b.solver;
    EXPECT_EQ(x.rng_state, y.rng_state);
    EXPECT_EQ(x.next_frame_index, y.next_frame_index);
    EXPECT_EQ(x.next_frame_time, y.next_frame_time);
    EXPECT_EQ(x.next_log_time, y.next_log_time);
    EXPECT_EQ(x.next_checkpoint_time, y.next_checkpoint_time);
    EXPECT_EQ(x.contacts.body_a, y.contacts.body_a);
    EXPECT_EQ(x.contacts.body_b, y.contacts.body_b);
    EXPECT_EQ(x.contacts.node, y.contacts.node);
    EXPECT_EQ(x.contacts.impulse, y.contacts.impulse);
    EXPECT_EQ(x.contacts.tangential_displacement, y.contacts.tangential_displacement);
  }
}

}  // namespace scree::formats::testing
