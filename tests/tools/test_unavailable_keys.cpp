// Say only what runs (issue 26): a case key for what scree does not carry out yet is refused
// by every tool that reads cases, with one line naming the key, exit 1 and nothing written.
#include <gtest/gtest.h>

#include "tools/solve_case.h"

namespace scree {
namespace {

using testing::TempDir;

struct UnavailableKey {
  const char* name;
  testing::CaseEdit edit;  // into the sphere_bounce case
  const char* message;
};

struct CaseTool {
  const char* tool;
  const char* args;  // after the case file; DIR is the test's folder
  const char* output;
};

const UnavailableKey unavailable_keys[] = {
    {"Penalty", {"  type: impulse\n", "  type: penalty\n  penalty: {normal_stiffness: 1.0e5, tangential_stiffness: 7.0e4}\n"},
     "scheme.type: 'penalty' is not available yet"},
    {"Pgs", {"  type: impulse\n", "  type: pgs\n"}, "scheme.type: 'pgs' is not available yet"},
    {"Membranes", {"initial_state: state.h5\n", "initial_state: state.h5\nmembranes:\n  - {name: net, file: net.h5, material: steel}\n"},
     "membranes: flexible nets are not available yet"},
    {"Domain", {"initial_state: state.h5\n", "initial_state: state.h5\ndomain: {min: [-1, -1, -1], max: [1, 1, 1]}\n"},
     "domain: removing the grains that leave a box is not available yet"},
};

const CaseTool case_tools[] = {
    {"scree-solve", "", "out"},
    {"scree-info", "", ""},
    {"scree-pack", "--count 2 --box -0.3,-0.3,0.1,0.3,0.3,0.5 -o DIR/packed.h5", "packed.h5"},
    {"scree-vtk", "-o DIR/vtk", "vtk"},
    {"scree-runout", "-o DIR/runout", "runout"},
    {"scree-plot", "-o DIR/plots", "plots"},
};

class UnavailableKeyTest : public ::testing::TestWithParam<std::tuple<UnavailableKey, CaseTool>> {};

TEST_P(UnavailableKeyTest, IsRefusedWithOneLineAndNothingWritten) {
  const auto& [key, tool] = GetParam();
  TempDir dir;
  testing::write_validation_case(dir, "sphere_bounce", {key.edit});
  testing::write_grains(dir, {"ball"}, {{{0, 0, 0.5}}});
  const auto run = testing::run_tool(dir, tool.tool, testing::in_dir(dir, "DIR/case.yaml " + std::string(tool.args)));
  testing::expect_refusal(dir, run, tool.tool, 1, key.message, dir / (*tool.output ? tool.output : "none"));
  EXPECT_NE(run.err.find((dir / "case.yaml").string() + ":"), std::string::npos) << run.err;
}

INSTANTIATE_TEST_SUITE_P(Case, UnavailableKeyTest,
                         ::testing::Combine(::testing::ValuesIn(unavailable_keys), ::testing::ValuesIn(case_tools)),
                         [](const auto& info) {
                           std::string tool = std::get<1>(info.param).tool;
                           tool = tool.substr(tool.find('-') + 1);
                           return std::string(std::get<0>(info.param).name) + "_" + tool;
                         });

// Nets in an initial state: the solver would carry the grains and drop the net.
TEST(UnavailableKey, StateWithNetsIsRefusedBySolve) {
  TempDir dir;
  testing::write_validation_case(dir, "sphere_bounce");
  formats::State state;
  state.templates = {"ball"};
  state.bodies.resize(1);
  state.bodies.id[0] = 1;
  state.bodies.scale[0] = 1;
  state.bodies.position[0] = {0, 0, 0.5};
  state.bodies.orientation[0] = {1, 0, 0, 0};
  formats::Membrane net;
  net.name = "net";
  net.position = {{0, 0, 1}, {0.1, 0, 1}};
  net.velocity = {{0, 0, 0}, {0, 0, 0}};
  net.radius = {0.01, 0.01};
  net.mass = {0.1, 0.1};
  net.springs = {{0, 1}};
  net.rest_length = {0.1};
  net.stiffness = {1e4};
  net.anchored = {1, 0};
  state.membranes = {net};
  formats::write_state(dir / "state.h5", state);
  const auto run = testing::run_tool(dir, "scree-solve", testing::in_dir(dir, "DIR/case.yaml"));
  testing::expect_refusal(dir, run, "scree-solve", 1, "state.h5: /membranes: flexible nets are not available yet", dir / "out");
}

}  // namespace
}  // namespace scree
