// ParaView surfaces (.vtp) through VTK's writer: every number comes back through VTK's reader,
// the data is compressed binary, and bad surfaces or places are refused with nothing written.
#include "formats/vtk_file.h"

#include <gtest/gtest.h>

#include <stdexcept>

#include "common/temp_dir.h"
#include "common/vtk_read_back.h"
#include "formats/error.h"

namespace scree::formats {
namespace {

using scree::testing::TempDir;

// A unit square in two triangles, a vector per point and an id per triangle.
TriangleSurface square() {
  TriangleSurface s;
  s.points = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0.5}, {0, 1, 0.5}};
  s.triangles = {{0, 1, 2}, {0, 2, 3}};
  s.point_data.push_back({"velocity", 3, {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}, ValueType::float64, {}});
  s.point_data.push_back({"speed", 1, {0.5, 1.5, 2.5, 3.5}, ValueType::float32, {}});
  s.cell_data.push_back({"id", 1, {}, ValueType::int64, {7, (std::int64_t(1) << 53) + 1}});
  return s;
}

TEST(WriteVtp, EveryNumberComesBackThroughVtk) {
  TempDir dir;
  write_vtp(dir / "square.vtp", square());
  const auto back = scree::testing::read_vtp(dir / "square.vtp");
  ASSERT_TRUE(back.ok);
  ASSERT_EQ(back.points.size(), 4u);
  EXPECT_EQ(back.points[2], (std::array<double, 3>{1, 1, 0.5}));
  ASSERT_EQ(back.cells.size(), 2u);
  EXPECT_EQ(back.cells[1], (std::vector<vtkIdType>{0, 2, 3}));
  ASSERT_EQ(back.point_data.count("velocity"), 1u);
  EXPECT_EQ(back.point_data.at("velocity").components, 3);
  EXPECT_EQ(back.point_data.at("velocity").values, square().point_data[0].values);
  ASSERT_EQ(back.point_data.count("speed"), 1u);
  EXPECT_EQ(back.point_data.at("speed").type, VTK_FLOAT);
  EXPECT_EQ(back.point_data.at("speed").values, square().point_data[1].values);
  EXPECT_EQ(back.point_data.at("velocity").type, VTK_DOUBLE);
  ASSERT_EQ(back.cell_data.count("id"), 1u);
  EXPECT_TRUE(back.cell_data.at("id").integer);
  EXPECT_EQ(back.cell_data.at("id").integers, square().cell_data[0].integers);  // exact beyond 2⁵³
  // Compressed raw binary after the XML header, not ASCII or base64.
  const std::string text = scree::testing::read_text(dir / "square.vtp");
  EXPECT_NE(text.find("compressor=\"vtkZLibDataCompressor\""), std::string::npos);
  EXPECT_NE(text.find("<AppendedData encoding=\"raw\">"), std::string::npos);
  EXPECT_EQ(dir.entries(), std::vector<std::string>{"square.vtp"});
}

TEST(WriteVtp, RefusesArraysThatDoNotFitAndWritesNothing) {
  TempDir dir;
  TriangleSurface s = square();
  s.point_data[0].values.pop_back();
  EXPECT_THROW(write_vtp(dir / "s.vtp", s), std::invalid_argument);
  s = square();
  s.cell_data[0].integers.pop_back();
  EXPECT_THROW(write_vtp(dir / "s.vtp", s), std::invalid_argument);
  s = square();
  s.triangles[1][2] = 4;
  EXPECT_THROW(write_vtp(dir / "s.vtp", s), std::invalid_argument);
  LineNetwork lines{{{0, 0, 0}, {1, 0, 0}}, {{0, 2}}, {}, {}};
  EXPECT_THROW(write_vtp(dir / "l.vtp", lines), std::invalid_argument);
  lines.lines = {{0, 1}};
  lines.cell_data = {{"tension", 1, {1, 2}, ValueType::float32, {}}};
  EXPECT_THROW(write_vtp(dir / "l.vtp", lines), std::invalid_argument);
  EXPECT_TRUE(dir.entries().empty());
}

TEST(WriteVtp, RefusesAMissingDirectory) {
  TempDir dir;
  try {
    write_vtp(dir / "nowhere" / "s.vtp", square());
    FAIL() << "no error";
  } catch (const FileError& e) {
    EXPECT_NE(std::string(e.what()).find("does not exist"), std::string::npos) << e.what();
  }
  EXPECT_TRUE(dir.entries().empty());
}

}  // namespace
}  // namespace scree::formats
