#include "formats/csv_log.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "common/temp_dir.h"
#include "formats/error.h"

namespace scree::formats {
namespace {

using scree::testing::expect_error;
using scree::testing::TempDir;

const std::vector<CsvColumn> columns{
    {"time", "s"}, {"step", "1"}, {"kinetic_energy", "J"}, {"max_speed", "m/s"}};

TEST(CsvLog, HeaderNamesUnits) {
  EXPECT_EQ(csv_header(columns), "time[s],step[1],kinetic_energy[J],max_speed[m/s]");
}

TEST(CsvLog, RoundTripIsBitExact) {
  TempDir dir;
  const std::vector<std::vector<double>> rows{
      {0.1, 0, 1.0 / 3.0, 2.0 / 3.0},
      {std::numeric_limits<double>::min(), 1e300, -0.0, std::nextafter(1.0, 2.0)},
      {123456789.123456789, 9007199254740993.0, -1e-300, std::numeric_limits<double>::max()}};
  {
    CsvLogWriter log(dir / "log.csv", columns);
    for (const auto& r : rows) log.write_row(r);
  }
  CsvTable t = read_csv_log(dir / "log.csv");
  EXPECT_EQ(t.columns, columns);
  ASSERT_EQ(t.rows.size(), rows.size());
  for (size_t i = 0; i < rows.size(); ++i)
    for (size_t j = 0; j < columns.size(); ++j) {
      EXPECT_EQ(t.rows[i][j], rows[i][j]);
      EXPECT_EQ(std::signbit(t.rows[i][j]), std::signbit(rows[i][j]));
    }
  EXPECT_EQ(t.column("kinetic_energy"), 2u);
}

TEST(CsvLog, AppendContinuesAfterRestart) {
  TempDir dir;
  { CsvLogWriter(dir / "log.csv", columns).write_row(std::vector<double>{0, 0, 1, 1}); }
  { CsvLogWriter(dir / "log.csv", columns, true).write_row(std::vector<double>{1, 10, 2, 2}); }
  CsvTable t = read_csv_log(dir / "log.csv");
  ASSERT_EQ(t.rows.size(), 2u);
  EXPECT_EQ(t.rows[1][1], 10);
}

TEST(CsvLog, AppendToDifferentHeaderIsRefused) {
  TempDir dir;
  { CsvLogWriter log(dir / "log.csv", columns); }
  std::string before = scree::testing::read_text(dir / "log.csv");
  expect_error([&] { CsvLogWriter(dir / "log.csv", {{"time", "s"}}, true); },
               {"cannot append: its header"});
  EXPECT_EQ(scree::testing::read_text(dir / "log.csv"), before);
}

TEST(CsvLog, BadColumnsAreRefusedAndCreateNothing) {
  TempDir dir;
  auto refused = [&](std::vector<CsvColumn> cols, const std::string& reason) {
    expect_error([&] { CsvLogWriter(dir / "log.csv", cols); },
                 {(dir / "log.csv").string() + ": cannot write: ", reason});
    EXPECT_TRUE(dir.entries().empty());
  };
  refused({{"angle", "deg"}}, "column 'angle' has unit 'deg', which is not an SI unit");
  refused({{"depth", "mm"}}, "which is not an SI unit");
  refused({{"Time", "s"}}, "must be lower case letters, digits and '_'");
  refused({{"a,b", "s"}}, "must be lower case");
  refused({{"t", "s"}, {"t", "s"}}, "column 't' appears twice");
  refused({}, "at least one column");
}

TEST(CsvLog, RowOfWrongLengthIsRefused) {
  TempDir dir;
  CsvLogWriter log(dir / "log.csv", columns);
  expect_error([&] { log.write_row(std::vector<double>{1, 2}); }, {"a row needs 4 values, got 2"});
}

TEST(CsvLog, ReaderNamesLineOfBadRow) {
  TempDir dir;
  auto refused = [&](const std::string& text, const std::string& reason) {
    scree::testing::write_text(dir / "log.csv", text);
    expect_error([&] { read_csv_log(dir / "log.csv"); }, {(dir / "log.csv").string() + reason});
  };
  refused("time[s],energy[J]\n0,1\n1,x\n", ":3: column energy: 'x' is not a number");
  refused("time[s],energy[J]\n0,1\n1\n", ":3: expected 2 values, got 1");
  refused("time[s],energy[J]\n0,1e5000\n", ":2: column energy: '1e5000' is not a number");
  refused("time,energy\n", ":1: header cell 'time' is not of the form name[unit]");
  refused("", ": empty file");
  expect_error([&] { read_csv_log(dir / "absent.csv"); }, {"absent.csv: cannot open"});
}

TEST(CsvLog, ReaderAcceptsWindowsLineEnds) {
  TempDir dir;
  scree::testing::write_text(dir / "log.csv", "time[s],energy[J]\r\n0.5,2\r\n");
  CsvTable t = read_csv_log(dir / "log.csv");
  ASSERT_EQ(t.rows.size(), 1u);
  EXPECT_EQ(t.rows[0][1], 2.0);
}

}  // namespace
}  // namespace scree::formats
