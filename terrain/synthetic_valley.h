#pragma once
// A synthetic valley after seed 000 §6.3: a channel inclined at θ that opens onto a runout
// area, flat or sloping sideways. The project's own terrain for the rock-avalanche pipeline
// and its demo. Light header.
#include <filesystem>

namespace scree::terrain {

struct ValleyShape {
  double slope = 25;            // channel floor, degrees
  double runout_slope = 0;      // runout area, degrees, falling towards +y (sideways)
  double channel_length = 80;   // m, horizontal, from the top (x = 0) to the foot (x = L)
  double half_width = 10;       // m, where the banks reach bank_height
  double bank_height = 4;       // m (the crest beyond is twice as high)
  double fillet = 10;           // m, the curve from the channel floor into the runout
  double opening = 20;          // m past the foot over which the banks die away
  double runout_length = 80;    // m past the foot
  double half_extent = 40;      // m either side of the axis
  double above = 10;            // m of slope above the top of the channel (x < 0)
  double cell = 0.5;            // m
};

// Height of the ground at (x, y): x along the channel downhill, y across, the foot of the
// channel at (L, 0, 0). The floor falls at θ, then curves into the runout by a parabola
// matching both slopes (no kink); the banks rise as h (y/w)² to (w, h), then straight on at
// that slope to a crest at 2h, and fade over `opening` by a half cosine; the runout area falls at `runout_slope` towards +y where the banks have gone.
double valley_height(const ValleyShape& v, double x, double y);

// The valley as an ESRI ASCII grid (cell centres on the grid, no CRS: local metres). Atomic.
// std::invalid_argument for a shape out of range (slopes outside [0°, 60°), lengths ≤ 0).
void write_valley(const std::filesystem::path& file, const ValleyShape& v);

}  // namespace scree::terrain
