// The synthetic valley of seed 000 §6.3: the channel falls at its angle, curves into the
// runout without a kink, its banks are symmetric and end at a crest, the runout is flat or
// falls sideways at its angle; the grid written holds those heights at its cell centres and
// scree-terrain's level set puts the ground there.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include "common/temp_dir.h"
#include "terrain/height_grid.h"
#include "terrain/synthetic_valley.h"

namespace scree::terrain {
namespace {

double degrees(double radians) { return radians * 180 / std::numbers::pi; }

TEST(SyntheticValley, ChannelFilletBanksAndRunout) {
  for (const double runout : {0.0, 3.0}) {
    ValleyShape v;
    v.runout_slope = runout;
    const double L = v.channel_length, f = v.fillet, d = 1e-4;
    auto z = [&](double x, double y) { return valley_height(v, x, y); };
    // The floor at θ along the channel, and the foot at height 0.
    for (const double x : {5.0, 40.0, L - f / 2 - 1})
      EXPECT_NEAR(degrees(std::atan((z(x - d, 0) - z(x + d, 0)) / (2 * d))), 25, 1e-6) << x;
    EXPECT_NEAR(z(L, 0), std::tan(25 * std::numbers::pi / 180) * f / 8, 1e-12);
    // No kink where the fillet begins and ends: one-sided slopes agree.
    for (const double x : {L - f / 2, L + f / 2}) {
      EXPECT_NEAR(z(x, 0), z(x - 1e-9, 0), 1e-6);
      EXPECT_NEAR((z(x, 0) - z(x - d, 0)) / d, (z(x + d, 0) - z(x, 0)) / d, 1e-3) << x;
    }
    // Banks: symmetric, h at the half-width, a crest of 2h.
    EXPECT_EQ(z(40, 7), z(40, -7));
    EXPECT_NEAR(z(40, v.half_width) - z(40, 0), v.bank_height, 1e-12);
    EXPECT_NEAR(z(40, 35) - z(40, 0), 2 * v.bank_height, 1e-12);
    // The runout past the opening: flat, or falling towards +y at its angle.
    const double x = L + v.opening + 10;
    EXPECT_NEAR(z(x, 0), 0, 1e-12);
    EXPECT_NEAR(degrees(std::atan((z(x, -d) - z(x, d)) / (2 * d))), runout, 1e-6);
    EXPECT_NEAR(z(x + 20, 5), z(x, 5), 1e-12);  // level along x
  }
}

TEST(SyntheticValley, GridHoldsTheHeightsAtCellCentres) {
  testing::TempDir dir;
  ValleyShape v;
  v.runout_slope = 3;
  v.cell = 2;
  write_valley(dir / "valley.asc", v);
  const HeightGrid g = read_raster(dir / "valley.asc");
  EXPECT_EQ(g.nx, std::size_t((v.above + v.channel_length + v.runout_length) / v.cell) + 1);
  EXPECT_EQ(g.ny, std::size_t(2 * v.half_extent / v.cell) + 1);
  EXPECT_TRUE(g.crs_wkt.empty());
  double worst = 0;
  for (std::size_t k = 0; k < g.size(); ++k) worst = std::max(worst, std::abs(g.z[k] - valley_height(v, g.x[k], g.y[k])));
  EXPECT_LT(worst, 1e-6);  // six decimals in the file
  EXPECT_DOUBLE_EQ(*std::min_element(g.x.begin(), g.x.end()), -v.above);
  v.slope = 70;
  EXPECT_THROW(write_valley(dir / "steep.asc", v), std::invalid_argument);
  EXPECT_FALSE(std::filesystem::exists(dir / "steep.asc"));
}

}  // namespace
}  // namespace scree::terrain
