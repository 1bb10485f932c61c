// scree-info as a user runs it: exit status, the one error line, the summary.
#include <gtest/gtest.h>

#include "common/run_tool.h"
#include "common/temp_dir.h"
#include "formats/avatar.h"
#include "formats/csv_log.h"
#include "formats/level_set_fixtures.h"
#include "formats/state.h"

namespace {

using scree::testing::TempDir;

using scree::testing::ToolRun;

ToolRun scree_info(const TempDir& dir, const std::string& args) {
  return scree::testing::run_tool(dir, "scree-info", args);
}

const std::string example_case = std::string(SCREE_SOURCE_DIR) + "/docs/examples/case.yaml";

TEST(ScreeInfo, HelpShowsUsageAndExamples) {
  TempDir dir;
  ToolRun r = scree_info(dir, "--help");
  EXPECT_EQ(r.status, 0);
  EXPECT_NE(r.out.find("Usage: scree-info [options] FILE..."), std::string::npos);
  EXPECT_NE(r.out.find("Examples:"), std::string::npos);
  EXPECT_TRUE(r.err.empty());
}

TEST(ScreeInfo, VersionPrintsNameAndVersion) {
  TempDir dir;
  ToolRun r = scree_info(dir, "--version");
  EXPECT_EQ(r.status, 0);
  EXPECT_EQ(r.out.rfind("scree-info 0.", 0), 0u) << r.out;
}

TEST(ScreeInfo, UsageErrorsExitTwo) {
  TempDir dir;
  ToolRun none = scree_info(dir, "");
  EXPECT_EQ(none.status, 2);
  EXPECT_EQ(none.err.rfind("scree-info: error: no FILE given\n", 0), 0u) << none.err;
  ToolRun bad = scree_info(dir, "--frobnicate x.yaml");
  EXPECT_EQ(bad.status, 2);
  EXPECT_NE(bad.err.find("unknown option '--frobnicate'"), std::string::npos);
}

TEST(ScreeInfo, DescribesValidCase) {
  TempDir dir;
  ToolRun r = scree_info(dir, example_case);
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("scheme        impulse (energy tracking)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("32000 steps"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("(missing)"), std::string::npos);  // its avatars are not shipped
}

// An analytic template has no file to miss.
TEST(ScreeInfo, DescribesASphereTemplateAsASphere) {
  TempDir dir;
  std::string text = scree::testing::read_text(std::string(SCREE_SOURCE_DIR) + "/tests/solver/cases/sphere_bounce.yaml");
  scree::testing::write_text(dir / "case.yaml", text);
  ToolRun r = scree_info(dir, (dir / "case.yaml").string());
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("template      ball: sphere of radius 0.05 m\n"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("(missing)", r.out.find("template ")), std::string::npos) << r.out;
}

TEST(ScreeInfo, InvalidCaseGivesOneErrorLineAndExitOne) {
  TempDir dir;
  std::string text = scree::testing::read_text(example_case);
  text.replace(text.find("density: 2650"), 13, "density: -1");
  scree::testing::write_text(dir / "bad.yaml", text);
  ToolRun r = scree_info(dir, (dir / "bad.yaml").string());
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.err, "scree-info: error: " + (dir / "bad.yaml").string() +
                       ":28: materials[0].density: must be > 0, got -1\n");
  EXPECT_TRUE(r.out.empty());
}

TEST(ScreeInfo, DescribesAvatarStateAndLogQuietlyOrNot) {
  TempDir dir;
  scree::formats::write_avatar(dir / "a.vdb", scree::testing::sphere_avatar());
  scree::formats::State s;
  s.kind = scree::formats::StateKind::frame;
  s.templates = {"a.vdb"};
  s.bodies.resize(2);
  s.bodies.id = {1, 2};
  s.bodies.velocity[1] = {3, 4, 0};
  scree::formats::write_state(dir / "f.h5", s);
  {
    scree::formats::CsvLogWriter log(dir / "log.csv", {{"time", "s"}});
    log.write_row(std::vector<double>{0.5});
  }
  const std::string files = (dir / "a.vdb").string() + " " + (dir / "f.h5").string() + " " +
                            (dir / "log.csv").string();
  ToolRun r = scree_info(dir, files);
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("a.vdb: avatar"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("nodes         700"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("f.h5: frame at t = 0 s"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("fastest       5 m/s"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("log.csv: CSV log, 1 rows"), std::string::npos) << r.out;
  ToolRun quiet = scree_info(dir, "-q " + files);
  EXPECT_EQ(quiet.status, 0);
  EXPECT_TRUE(quiet.out.empty());
}

TEST(ScreeInfo, EveryBadFileGetsItsOwnLine) {
  TempDir dir;
  scree::testing::write_text(dir / "x.vdb", "not a grid");
  scree::testing::write_text(dir / "notes.txt", "hello");
  ToolRun r = scree_info(dir, (dir / "x.vdb").string() + " " + (dir / "notes.txt").string() + " " +
                              example_case);
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("scree-info: error: " + (dir / "x.vdb").string() +
                       ": not a readable OpenVDB file"),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("scree-info: error: " + (dir / "notes.txt").string() +
                       ": unknown kind of file"),
            std::string::npos);
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 2);
  EXPECT_NE(r.out.find("case"), std::string::npos);  // the good file is still described
}

}  // namespace
