#pragma once
// Flexible nets as ParaView draws them: every ball a point, every spring a line.
#include <vector>

#include "formats/state.h"
#include "formats/vtk_file.h"

namespace scree::post {

// All nets of a frame in one network, in the frame's order. Point data `radius` (m),
// `velocity` (m/s), Float32, and `anchored`, `net` (index of the net), Int64; cell data per
// spring `net` (Int64), `tension` (k (ℓ − ℓ₀), N, negative in compression) and `strain`
// ((ℓ − ℓ₀) / ℓ₀, 0 for springs of no rest length), Float32.
formats::LineNetwork net_lines(const std::vector<formats::Membrane>& nets);

}  // namespace scree::post
