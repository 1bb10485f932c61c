#pragma once
// Running a validation case of tests/solver/cases through scree-solve, LAMMPS style: the case
// file as written there (with textual edits for the setting under test), an initial state
// the test builds, and the frames and log the run leaves.
#include <gtest/gtest.h>

#include <Eigen/Geometry>

#include <array>
#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "common/run_tool.h"
#include "common/temp_dir.h"
#include "formats/avatar.h"
#include "formats/csv_log.h"
#include "formats/state.h"

namespace scree::testing {

inline const std::filesystem::path validation_cases = std::filesystem::path(SCREE_SOURCE_DIR) / "tests/solver/cases";

// One text replacement in a case file: every `from` must be there (a typo fails loudly).
using CaseEdit = std::pair<std::string, std::string>;

// tests/solver/cases/<name>.yaml, edited, as dir/case.yaml.
inline void write_validation_case(const TempDir& dir, const std::string& name, const std::vector<CaseEdit>& edits = {}) {
  std::string text = read_text(validation_cases / (name + ".yaml"));
  for (const auto& [from, to] : edits) {
    const std::size_t at = text.find(from);
    if (at == std::string::npos) throw std::invalid_argument(name + ".yaml has no '" + from + "'");
    text.replace(at, from.size(), to);
  }
  write_text(dir / "case.yaml", text);
}

struct Grain {
  formats::Vec3 position{};
  formats::Vec3 velocity{};
  formats::Vec3 angular_velocity{};
  std::array<double, 4> orientation{1, 0, 0, 0};  // w, x, y, z
  std::uint32_t template_index = 0;
};

// dir/state.h5 with grains numbered from 1.
inline void write_grains(const TempDir& dir, const std::vector<std::string>& templates, const std::vector<Grain>& grains) {
  formats::State state;
  state.templates = templates;
  state.bodies.resize(grains.size());
  for (std::size_t i = 0; i < grains.size(); ++i) {
    state.bodies.id[i] = i + 1;
    state.bodies.template_index[i] = grains[i].template_index;
    state.bodies.scale[i] = 1;
    state.bodies.position[i] = grains[i].position;
    state.bodies.orientation[i] = grains[i].orientation;
    state.bodies.velocity[i] = grains[i].velocity;
    state.bodies.angular_velocity[i] = grains[i].angular_velocity;
  }
  formats::write_state(dir / "state.h5", state);
}

// The orientation that lays an avatar's source axes (the shape as scree-shape built it) on the
// world axes: the inverse of its source-to-body rotation.
inline std::array<double, 4> source_orientation(const formats::Avatar& avatar) {
  Eigen::Matrix3d to_body;
  for (int i = 0; i < 9; ++i) to_body(i / 3, i % 3) = avatar.properties.source_to_body[4 * (i / 3) + i % 3];
  const Eigen::Quaterniond q = Eigen::Quaterniond(to_body.transpose()).normalized();
  return {q.w(), q.x(), q.y(), q.z()};
}

// Runs scree-solve on dir/case.yaml.
inline void solve(const TempDir& dir) {
  const auto run = run_tool(dir, "scree-solve", (dir / "case.yaml").string());
  ASSERT_EQ(run.status, 0) << run.err;
}

inline formats::State checkpoint(const TempDir& dir) { return formats::read_state(dir / "out" / "checkpoint.h5"); }

struct Box {
  formats::Avatar avatar;
  std::array<double, 4> orientation;  // faces on the world axes
};

// scree-shape box with grid nodes, as the case files say: dir/<name>.vdb.
inline Box make_box(const TempDir& dir, const std::string& name, const std::string& size, int nodes) {
  const std::string args = "box --size " + size + " --voxels 20 --avatar --nodes " + std::to_string(nodes) +
                           " --node-method grid -o " + (dir / (name + ".vdb")).string();
  const auto run = run_tool(dir, "scree-shape", args);
  EXPECT_EQ(run.status, 0) << run.err;
  Box box{formats::read_avatar(dir / (name + ".vdb")), {}};
  box.orientation = source_orientation(box.avatar);
  return box;
}

// Frame f of the run in `dir`.
inline std::filesystem::path frame_file(const TempDir& dir, int f) {
  char name[32];
  std::snprintf(name, sizeof name, "frame_%06d.h5", f);
  return dir / "out" / name;
}

inline formats::CsvTable run_log(const TempDir& dir) { return formats::read_csv_log(dir / "out" / "log.csv"); }

// The largest value of a log column, in absolute value.
inline double largest(const formats::CsvTable& log, const std::string& column) {
  double top = 0;
  for (const auto& row : log.rows) top = std::max(top, std::abs(row[log.column(column)]));
  return top;
}

// The heights of a falling body's centre at the top of each rebound, from the log's potential
// energy (one body, dropped from rest at `drop`); tops less than 0.1 mm above `contact` (the
// height at which it rests) are left out.
inline std::vector<double> rebound_apexes(const formats::CsvTable& log, double drop, double contact) {
  const std::size_t potential = log.column("potential");
  const double per_metre = log.rows.at(0)[potential] / drop;
  std::vector<double> tops;
  for (std::size_t k = 1; k + 1 < log.rows.size(); ++k) {
    const double z = log.rows[k][potential] / per_metre;
    if (log.rows[k - 1][potential] / per_metre < z && z >= log.rows[k + 1][potential] / per_metre && z > contact + 1e-4)
      tops.push_back(z);
  }
  return tops;
}

}  // namespace scree::testing
