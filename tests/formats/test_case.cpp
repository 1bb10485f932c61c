#include "formats/case.h"

#include <gtest/gtest.h>

#include <cmath>

#include "common/temp_dir.h"
#include "formats/error.h"

namespace scree::formats {
namespace {

using scree::testing::TempDir;

// The smallest valid case; each bad case below changes one snippet of it. Line numbers in
// the expectations refer to this text.
const std::string minimal_case = R"(time:
  step: 0.001
  duration: 1.0
output:
  frame_interval: 0.01
scheme:
  type: impulse
materials:
  - name: rock
    density: 2650
    friction: 0.5
    restitution: 0.6
templates:
  - name: grain
    file: grain.vdb
    material: rock
initial_state: state.h5
)";

Case read_text_case(const TempDir& dir, const std::string& text) {
  scree::testing::write_text(dir / "case.yaml", text);
  return read_case(dir / "case.yaml");
}

// Written out and read back, the case is the same (but for the file it came from).
void expect_round_trip(const TempDir& dir, const Case& c) {
  write_case(dir / "again.yaml", c);
  Case again = read_case(dir / "again.yaml");
  again.file = c.file;
  EXPECT_EQ(again, c);
}

TEST(Case, ReferenceExampleParsesCompletely) {
  const std::filesystem::path file = std::string(SCREE_SOURCE_DIR) + "/docs/examples/case.yaml";
  Case c = read_case(file);
  const auto dir = file.parent_path();
  EXPECT_EQ(c.time.step, 2.5e-4);
  EXPECT_EQ(c.time.duration, 8.0);
  EXPECT_EQ(c.output.directory, dir / "out");
  EXPECT_EQ(c.output.log, dir / "out" / "log.csv");
  EXPECT_EQ(c.output.frame_interval, 0.05);
  ASSERT_TRUE(c.output.checkpoint_interval);
  EXPECT_EQ(*c.output.checkpoint_interval, 1.0);
  EXPECT_EQ(c.output.log_interval, 0.01);
  EXPECT_EQ(c.scheme.type, SchemeType::impulse);
  EXPECT_EQ(c.scheme.impulse.increments, 50);
  EXPECT_EQ(c.scheme.impulse.group_tolerance, 0.03);
  EXPECT_EQ(c.scheme.impulse.max_rounds, 300);
  EXPECT_EQ(c.scheme.impulse.boundary_iterations, 10);
  EXPECT_EQ(c.scheme.impulse.warm_start, 1.0);
  EXPECT_EQ(c.scheme.impulse.resting_tolerance, 1e-4);
  EXPECT_EQ(c.scheme.impulse.resting_passes, 300);
  EXPECT_EQ(c.scheme.impulse.resting_passes_per_layer, 1);
  EXPECT_TRUE(c.scheme.impulse.resting_conjugate);
  EXPECT_EQ(c.scheme.impulse.resting_coarse_every, 5);
  EXPECT_EQ(c.gravity, (Vec3{0, 0, -9.81}));
  EXPECT_EQ(c.global_damping, 0.5);
  EXPECT_EQ(c.seed, 42u);
  ASSERT_EQ(c.materials.size(), 3u);
  EXPECT_EQ(c.material("granite").density, 2650.0);
  EXPECT_FALSE(c.material("ground").density.has_value());
  ASSERT_EQ(c.templates.size(), 2u);
  EXPECT_EQ(c.templates[1].file, dir / "avatars/flake.vdb");
  EXPECT_EQ(c.initial_state, dir / "state.h5");
  ASSERT_TRUE(c.terrain);
  EXPECT_EQ(c.terrain->material, "ground");
  ASSERT_EQ(c.walls.size(), 2u);
  EXPECT_EQ(c.walls[0].type, WallType::plane);
  EXPECT_EQ(c.walls[0].normal, (Vec3{0, 0, 1}));
  EXPECT_EQ(c.walls[1].type, WallType::box);
  EXPECT_EQ(c.walls[1].max, (Vec3{10, 10, 30}));
}

TEST(Case, ContactLawUsesPairThenSmallerValues) {
  Case c = read_case(std::string(SCREE_SOURCE_DIR) + "/docs/examples/case.yaml");
  ContactLaw pair = contact_law(c, "ground", "granite");  // listed, in either order
  EXPECT_EQ(pair.friction, 0.2);
  EXPECT_EQ(pair.restitution, 0.4);
  ContactLaw mixed = contact_law(c, "granite", "steel");  // not listed
  EXPECT_EQ(mixed.friction, 0.3);
  EXPECT_EQ(mixed.restitution, 0.5);
  ContactLaw same = contact_law(c, "granite", "granite");
  EXPECT_EQ(same.friction, 0.55);
  EXPECT_EQ(same.restitution, 0.65);
}

TEST(Case, MinimalCaseGetsDocumentedDefaults) {
  TempDir dir;
  Case c = read_text_case(dir, minimal_case);
  EXPECT_EQ(c.output.directory, dir / "out");
  EXPECT_EQ(c.output.log, dir / "out" / "log.csv");
  EXPECT_EQ(c.output.log_interval, 0.01);
  EXPECT_FALSE(c.output.checkpoint_interval);
  EXPECT_EQ(c.gravity, (Vec3{0, 0, -9.81}));
  EXPECT_EQ(c.global_damping, 0.0);
  EXPECT_EQ(c.seed, 1u);
  EXPECT_EQ(c.scheme.impulse.increments, 50);
  EXPECT_FALSE(c.terrain);
  EXPECT_TRUE(c.walls.empty());
  EXPECT_EQ(c.time.courant_limit, 0.25);
  EXPECT_FALSE(c.time.allow_above_courant_limit);
}

TEST(Case, SphereTemplatesMovingWallsAndCourantLimitParse) {
  TempDir dir;
  std::string text = minimal_case;
  text.replace(text.find("    file: grain.vdb\n"), 20, "    sphere: 0.05\n");
  text.replace(text.find("  duration: 1.0\n"), 16, "  duration: 1.0\n  courant_limit: 0.5\n  allow_above_courant_limit: true\n");
  text += "walls:\n  - name: piston\n    type: plane\n    point: [0, 0, 1]\n    normal: [0, 0, -1]\n"
          "    velocity: [0, 0, -0.1]\n    material: rock\n";
  const Case c = read_text_case(dir, text);
  ASSERT_TRUE(c.templates[0].sphere_radius);
  EXPECT_EQ(*c.templates[0].sphere_radius, 0.05);
  EXPECT_TRUE(c.templates[0].file.empty());
  EXPECT_EQ(c.time.courant_limit, 0.5);
  EXPECT_TRUE(c.time.allow_above_courant_limit);
  EXPECT_EQ(c.walls[0].velocity, (Vec3{0, 0, -0.1}));
  expect_round_trip(dir, c);
}

TEST(Case, AutomaticStepParsesAndRoundTrips) {
  TempDir dir;
  std::string text = minimal_case;
  text.replace(text.find("  step: 0.001\n"), 14, "  step: auto\n  max_step: 2.0e-3\n");
  const Case c = read_text_case(dir, text);
  EXPECT_TRUE(c.time.automatic_step);
  EXPECT_EQ(c.time.step, 2e-3);
  expect_round_trip(dir, c);
}

// `auto` (regions by bisection) or a grid of regions; a grid is written back as read.
TEST(Case, RanksParse) {
  TempDir dir;
  EXPECT_FALSE(read_text_case(dir, minimal_case + "parallel:\n  ranks: auto\n").parallel.ranks);
  EXPECT_FALSE(read_text_case(dir, minimal_case).parallel.ranks);
  const Case grid = read_text_case(dir, minimal_case + "parallel:\n  ranks: [2, 1, 3]\n");
  EXPECT_EQ(grid.parallel.ranks, (std::array<int, 3>{2, 1, 3}));
  expect_round_trip(dir, grid);
}

// One bad case: replace `from` by `to` in the minimal case (or append when `from` is empty);
// the error must read "<file>:<line>: <key>: ..." and contain `reason`.
struct BadCase {
  const char* name;
  const char* from;
  const char* to;
  int line;
  const char* key;
  const char* reason;
};

void PrintTo(const BadCase& c, std::ostream* os) { *os << c.name; }

class BadCaseTest : public ::testing::TestWithParam<BadCase> {};

TEST_P(BadCaseTest, IsRefusedNamingFileLineAndKey) {
  const BadCase& bad = GetParam();
  TempDir dir;
  std::string text = minimal_case;
  if (std::string(bad.from).empty()) {
    text += bad.to;
  } else {
    size_t at = text.find(bad.from);
    ASSERT_NE(at, std::string::npos) << bad.from;
    text.replace(at, std::string(bad.from).size(), bad.to);
  }
  scree::testing::write_text(dir / "case.yaml", text);
  try {
    read_case(dir / "case.yaml");
    FAIL() << "accepted:\n" << text;
  } catch (const FileError& e) {
    EXPECT_EQ(e.file(), dir / "case.yaml");
    EXPECT_EQ(e.line(), bad.line) << e.what();
    std::string expected_prefix = (dir / "case.yaml").string() + ":" + std::to_string(bad.line) +
                                  ": " + bad.key + ": ";
    EXPECT_EQ(std::string(e.what()).rfind(expected_prefix, 0), 0u)
        << e.what() << "\nshould start with " << expected_prefix;
    EXPECT_NE(std::string(e.what()).find(bad.reason), std::string::npos) << e.what();
  }
}

const BadCase bad_cases[] = {
    // unknown keys, with a hint for typos
    {"UnknownTopKey", "", "tme:\n  step: 1\n", 18, "tme", "unknown key (did you mean 'time'?)"},
    {"UnknownNestedKey", "  duration: 1.0\n", "  duration: 1.0\n  setp: 0.1\n", 4, "time.setp",
     "unknown key (did you mean 'step'?)"},
    {"UnknownMaterialKey", "    friction: 0.5\n", "    friction: 0.5\n    colour: red\n", 12,
     "materials[0].colour", "unknown key"},
    {"DuplicateKey", "  duration: 1.0\n", "  duration: 1.0\n  step: 0.002\n", 4, "time.step",
     "duplicate key"},
    // missing required keys (reported at the enclosing mapping)
    {"MissingStep", "  step: 0.001\n", "", 2, "time.step", "required key is missing"},
    {"MissingInitialState", "initial_state: state.h5\n", "", 1, "initial_state",
     "required key is missing"},
    {"MissingFriction", "    friction: 0.5\n", "", 9, "materials[0].friction",
     "required key is missing"},
    {"EmptyValue", "  step: 0.001", "  step:", 2, "time.step", "has no value"},
    // wrong types
    {"TextForNumber", "  step: 0.001", "  step: fast", 2, "time.step",
     "expected a number, got 'fast'"},
    {"ListForNumber", "    density: 2650", "    density: [1, 2]", 10, "materials[0].density",
     "expected a number, got a list"},
    {"ScalarForSection", "scheme:\n  type: impulse\n", "scheme: impulse\n", 6, "scheme",
     "expected a mapping of keys"},
    {"BadGravity", "", "gravity: [0, -9.81]\n", 18, "gravity", "expected a list of 3 numbers"},
    {"FloatForInteger", "  type: impulse\n", "  type: impulse\n  impulse:\n    increments: 2.5\n",
     9, "scheme.impulse.increments", "expected an integer"},
    // out of range
    {"NegativeDensity", "    density: 2650", "    density: -2650", 10, "materials[0].density",
     "must be > 0"},
    {"NegativeFriction", "    friction: 0.5", "    friction: -0.1", 11, "materials[0].friction",
     "must be >= 0"},
    {"RestitutionAboveOne", "    restitution: 0.6", "    restitution: 1.2", 12,
     "materials[0].restitution", "must lie in [0, 1]"},
    {"ZeroTimeStep", "  step: 0.001", "  step: 0", 2, "time.step", "must be > 0"},
    {"NegativeTimeStep", "  step: 0.001", "  step: -1e-3", 2, "time.step", "must be > 0"},
    {"InfiniteDuration", "  duration: 1.0", "  duration: .inf", 3, "time.duration",
     "must be finite"},
    {"DurationBelowStep", "  duration: 1.0", "  duration: 0.0005", 3, "time.duration",
     "at least one time.step"},
    {"FrameIntervalBelowStep", "  frame_interval: 0.01", "  frame_interval: 0.0001", 5,
     "output.frame_interval", "must be at least time.step (0.001 s)"},
    {"DampingTooStrong", "", "global_damping: 1000\n", 18, "global_damping",
     "global_damping × time.step must be < 1"},
    {"ZeroIncrements", "  type: impulse\n", "  type: impulse\n  impulse:\n    increments: 0\n", 9,
     "scheme.impulse.increments", "must lie in [1, 1000000]"},
    {"GroupToleranceOne", "  type: impulse\n",
     "  type: impulse\n  impulse:\n    group_tolerance: 1\n", 9, "scheme.impulse.group_tolerance",
     "must lie in [0, 1), got 1"},
    {"WarmStartAboveOne", "  type: impulse\n", "  type: impulse\n  impulse:\n    warm_start: 1.5\n", 9,
     "scheme.impulse.warm_start", "must lie in [0, 1], got 1.5"},
    {"RestingToleranceZero", "  type: impulse\n", "  type: impulse\n  impulse:\n    resting_tolerance: 0\n", 9,
     "scheme.impulse.resting_tolerance", "must be > 0"},
    {"RestingPassesZero", "  type: impulse\n", "  type: impulse\n  impulse:\n    resting_passes: 0\n", 9,
     "scheme.impulse.resting_passes", "must lie in [1, "},
    {"RestingPassesPerLayerZero", "  type: impulse\n", "  type: impulse\n  impulse:\n    resting_passes_per_layer: 0\n", 9,
     "scheme.impulse.resting_passes_per_layer", "must lie in [1, "},
    {"RestingCoarseEveryNegative", "  type: impulse\n", "  type: impulse\n  impulse:\n    resting_coarse_every: -1\n", 9,
     "scheme.impulse.resting_coarse_every", "must lie in [0, "},
    {"UnknownScheme", "  type: impulse", "  type: magic", 7, "scheme.type",
     "must be one of impulse, penalty, pgs"},
    {"ParametersOfOtherScheme", "  type: impulse\n",
     "  type: impulse\n  penalty:\n    normal_stiffness: 1\n", 8, "scheme.penalty", "unknown key"},
    // keys for what scree does not carry out yet: refused, never run as something else
    {"PenaltySchemeNotAvailable", "  type: impulse\n", "  type: penalty\n  penalty: {normal_stiffness: 1.0e5}\n", 7,
     "scheme.type", "'penalty' is not available yet: scree runs the impulse scheme only"},
    {"PgsSchemeNotAvailable", "  type: impulse\n", "  type: pgs\n", 7, "scheme.type",
     "'pgs' is not available yet: scree runs the impulse scheme only"},
    {"MembranesNotAvailable", "", "membranes:\n  - {name: net, file: net.h5, material: rock}\n", 18, "membranes",
     "flexible nets are not available yet"},
    {"DomainNotAvailable", "", "domain:\n  min: [-1, -1, -1]\n  max: [1, 1, 1]\n", 18, "domain",
     "removing the grains that leave a box is not available yet"},
    // references and names
    {"UnknownMaterial", "    material: rock", "    material: granit", 16, "templates[0].material",
     "unknown material 'granit' (materials: rock)"},
    {"GrainMaterialWithoutDensity", "    density: 2650\n", "", 15, "templates[0].material",
     "has no density"},
    {"MaxStepWithFixedStep", "  step: 0.001\n", "  step: 0.001\n  max_step: 0.01\n", 3, "time.max_step",
     "goes with 'step: auto' only"},
    {"AutomaticStepWithoutMaxStep", "  step: 0.001\n", "  step: auto\n", 2, "time.max_step", "required key is missing"},
    {"DuplicateMaterial", "    restitution: 0.6\n",
     "    restitution: 0.6\n  - name: rock\n    friction: 1\n    restitution: 0\n", 13,
     "materials[1].name", "duplicate name 'rock'"},
    {"NoTemplates", "templates:\n  - name: grain\n    file: grain.vdb\n    material: rock\n",
     "templates: []\n", 13, "templates", "at least one grain template"},
    {"ZeroWallNormal", "",
     "walls:\n  - name: w\n    type: plane\n    point: [0, 0, 0]\n    normal: [0, 0, 0]\n"
     "    material: rock\n",
     22, "walls[0].normal", "must not be the zero vector"},
    {"InvertedBox", "",
     "walls:\n  - name: w\n    type: box\n    min: [0, 0, 0]\n    max: [1, -1, 1]\n"
     "    material: rock\n",
     22, "walls[0].max", "must exceed min"},
    {"PlaneWithBoxKeys", "",
     "walls:\n  - name: w\n    type: plane\n    point: [0, 0, 0]\n    normal: [0, 0, 1]\n"
     "    max: [1, 1, 1]\n    material: rock\n",
     23, "walls[0].max", "unknown key"},
    {"WallNameNotAColumnName", "",
     "walls:\n  - name: Side-Wall\n    type: plane\n    point: [0, 0, 0]\n    normal: [0, 0, 1]\n"
     "    material: rock\n",
     19, "walls[0].name", "must be lower case letters, digits and '_'"},
    {"BadRanks", "", "parallel:\n  ranks: [2, 0, 1]\n", 19, "parallel.ranks",
     "expected 'auto' or a list of 3 positive integers"},
    {"TemplateWithFileAndSphere", "    file: grain.vdb\n", "    file: grain.vdb\n    sphere: 0.1\n", 15,
     "templates[0].file", "either file (an avatar), sphere (a radius) or library"},
    {"TemplateWithNeither", "    file: grain.vdb\n", "", 14, "templates[0].file",
     "either file (an avatar), sphere (a radius) or library"},
    {"ZeroSphere", "    file: grain.vdb\n", "    sphere: 0\n", 15, "templates[0].sphere", "must be > 0"},
    {"ZeroCourantLimit", "  duration: 1.0\n", "  duration: 1.0\n  courant_limit: 0\n", 4,
     "time.courant_limit", "must be > 0"},
    {"AllowNotBoolean", "  duration: 1.0\n", "  duration: 1.0\n  allow_above_courant_limit: yes\n", 4,
     "time.allow_above_courant_limit", "must be one of true, false"},
    {"UnknownPairMaterial", "",
     "interactions:\n  - materials: [rock, ice]\n    friction: 0.1\n    restitution: 0.1\n", 19,
     "interactions[0].materials", "unknown material 'ice'"},
};

INSTANTIATE_TEST_SUITE_P(Case, BadCaseTest, ::testing::ValuesIn(bad_cases),
                         [](const auto& info) { return std::string(info.param.name); });

TEST(Case, SyntaxErrorNamesLine) {
  TempDir dir;
  scree::testing::write_text(dir / "case.yaml", "time:\n  step: [1, 2\n  duration: 1\n");
  scree::testing::expect_error([&] { read_case(dir / "case.yaml"); },
                               {(dir / "case.yaml").string() + ":", "YAML syntax error"});
}

TEST(Case, EmptyAndMissingFilesAreRefused) {
  TempDir dir;
  scree::testing::write_text(dir / "case.yaml", "# nothing\n");
  scree::testing::expect_error([&] { read_case(dir / "case.yaml"); }, {"empty case file"});
  scree::testing::expect_error([&] { read_case(dir / "absent.yaml"); },
                               {"absent.yaml: cannot open"});
}

}  // namespace
}  // namespace scree::formats

namespace scree::formats {
namespace {

// The same case read from another file: only `file` differs.
void expect_same_case(Case a, const Case& b) {
  a.file = b.file;
  EXPECT_TRUE(a == b);
  EXPECT_EQ(a.time, b.time);
  EXPECT_EQ(a.output, b.output);
  EXPECT_EQ(a.scheme, b.scheme);
  EXPECT_EQ(a.materials, b.materials);
  EXPECT_EQ(a.templates, b.templates);
  EXPECT_EQ(a.walls, b.walls);
}

TEST(CaseWriter, ReferenceExampleRoundTripsIntoAnotherFolder) {
  TempDir dir;
  std::filesystem::create_directories(dir / "elsewhere");
  Case a = read_case(std::string(SCREE_SOURCE_DIR) + "/docs/examples/case.yaml");
  write_case(dir / "elsewhere" / "case.yaml", a);
  EXPECT_EQ(dir.entries(), std::vector<std::string>{"elsewhere"});
  expect_same_case(a, read_case(dir / "elsewhere" / "case.yaml"));
}

TEST(CaseWriter, NumbersRoundTripBitExact) {
  TempDir dir;
  scree::testing::write_text(dir / "in.yaml", minimal_case);
  Case a = read_case(dir / "in.yaml");
  a.time.step = 1.0 / 3.0 * 1e-3;
  a.time.duration = 7.0 / 3.0;
  a.output.frame_interval = 0.1 + 0.2;  // 0.30000000000000004
  a.gravity = {1e-300, -0.0, -9.80665};
  a.global_damping = std::nextafter(0.5, 1.0);
  a.materials[0].friction = std::tan(25.0 * 3.141592653589793 / 180.0);
  a.scheme.impulse.group_tolerance = 1e-7 / 3;
  a.scheme.impulse.warm_start = 0.85;
  a.scheme.impulse.resting_tolerance = 1e-5 / 3;
  a.scheme.impulse.resting_passes = 77;
  a.scheme.impulse.resting_passes_per_layer = 5;
  a.scheme.impulse.resting_conjugate = false;
  a.scheme.impulse.resting_coarse_every = 3;
  a.seed = 9007199254740993ull;
  write_case(dir / "out.yaml", a);
  Case b = read_case(dir / "out.yaml");
  expect_same_case(a, b);
  EXPECT_EQ(b.gravity[0], 1e-300);
  EXPECT_TRUE(std::signbit(b.gravity[1]));
}

TEST(CaseWriter, RefusesWhatTheReaderWouldRefuseAndWritesNothing) {
  TempDir dir;
  scree::testing::write_text(dir / "in.yaml", minimal_case);
  Case a = read_case(dir / "in.yaml");
  a.materials[0].density = -1;
  scree::testing::expect_error([&] { write_case(dir / "out.yaml", a); },
                               {(dir / "out.yaml").string() + ": cannot write: ",
                                "materials[0].density: must be > 0, got -1"});
  a = read_case(dir / "in.yaml");
  a.templates[0].material = "missing";
  scree::testing::expect_error([&] { write_case(dir / "out.yaml", a); },
                               {"cannot write: ", "unknown material 'missing'"});
  EXPECT_EQ(dir.entries(), std::vector<std::string>{"in.yaml"});
}

}  // namespace
}  // namespace scree::formats
