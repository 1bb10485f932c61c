#include "terrain/synthetic_valley.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numbers>
#include <stdexcept>
#include <string>

#include "formats/atomic_file.h"
#include "formats/error.h"

namespace scree::terrain {

namespace {

double radians(double degrees) { return degrees * std::numbers::pi / 180; }

}  // namespace

double valley_height(const ValleyShape& v, double x, double y) {
  const double t = std::tan(radians(v.slope)), L = v.channel_length, f = v.fillet;
  // The floor along the axis: a line at θ, a parabola of horizontal length f about the foot.
  double floor = 0;
  if (x <= L - f / 2)
    floor = (L - x) * t;
  else if (x < L + f / 2)
    floor = t * (L + f / 2 - x) * (L + f / 2 - x) / (2 * f);
  // Confinement: 1 up to the foot, fading to 0 over the opening.
  double confined = 1;
  if (x > L) confined = x >= L + v.opening ? 0 : 0.5 * (1 + std::cos(std::numbers::pi * (x - L) / v.opening));
  // Banks: a parabola to (w, h), then straight on at its slope there up to a crest at 2h.
  const double u = std::abs(y) / v.half_width;
  const double bank = u <= 1 ? v.bank_height * u * u : std::min(v.bank_height * (1 + 2 * (u - 1)), 2 * v.bank_height);
  const double banks = confined * bank;
  const double runout = -(1 - confined) * std::tan(radians(v.runout_slope)) * y;
  return floor + banks + runout;
}

void write_valley(const std::filesystem::path& file, const ValleyShape& v) {
  if (!(v.slope > 0 && v.slope < 60) || !(v.runout_slope >= 0 && v.runout_slope < 60))
    throw std::invalid_argument("slopes must lie in (0°, 60°) for the channel and [0°, 60°) for the runout");
  for (const double length : {v.channel_length, v.half_width, v.bank_height, v.fillet, v.opening, v.runout_length, v.half_extent, v.cell})
    if (!(length > 0)) throw std::invalid_argument("every length of the valley must be > 0");
  if (v.above < 0) throw std::invalid_argument("the slope above the channel must be ≥ 0 m long");
  if (v.fillet > v.channel_length) throw std::invalid_argument("the fillet must be shorter than the channel");
  const double x0 = -v.above, x1 = v.channel_length + v.runout_length, y0 = -v.half_extent;
  const long nx = std::lround((x1 - x0) / v.cell) + 1, ny = std::lround(2 * v.half_extent / v.cell) + 1;
  if (nx < 2 || ny < 2 || double(nx) * double(ny) > 1e8) throw std::invalid_argument("the valley's grid must have 2 to 10⁸ cells");
  formats::AtomicFile out(file);
  {
    std::FILE* f = std::fopen(out.temp_path().c_str(), "w");
    if (!f) throw formats::FileError(file, "cannot write");
    // Cell centres at x0 + i h, y0 + j h: the corner half a cell further out.
    std::fprintf(f, "ncols %ld\nnrows %ld\nxllcorner %.17g\nyllcorner %.17g\ncellsize %.17g\nNODATA_value -9999\n", nx, ny,
                 x0 - v.cell / 2, y0 - v.cell / 2, v.cell);
    for (long row = 0; row < ny; ++row) {  // first row north (largest y)
      const double y = y0 + v.cell * double(ny - 1 - row);
      for (long i = 0; i < nx; ++i) std::fprintf(f, i + 1 < nx ? "%.6f " : "%.6f\n", valley_height(v, x0 + v.cell * double(i), y));
    }
    const bool ok = std::fflush(f) == 0 && !std::ferror(f);
    std::fclose(f);
    if (!ok) throw formats::FileError(file, "cannot write (disk full?)");
  }
  out.commit();
}

}  // namespace scree::terrain
