#pragma once
// Letting a loose assembly settle under gravity before its run: random sequential addition
// jams near a solid fraction of 0.2–0.3, a heap at rest holds twice that. The grains run in
// the solver with the case's materials, time step, walls and terrain, held in a box (a box
// wall around the release region) so that a release mass on a slope stays where it was put,
// and are handed back at rest for the run, which releases them by leaving the box out.
// Settling is damped (global damping ξ = 5/s, or the case's if larger): what matters is where
// the grains come to rest, not how they got there.
#include <Eigen/Geometry>

#include <functional>

#include <vector>

#include "formats/case.h"
#include "formats/state.h"
#include "geometry/grain_shape.h"
#include "pack/release_region.h"

namespace scree::pack {

struct SettleResult {
  formats::Bodies bodies;       // where the grains came to, velocities set to zero
  double kinetic_left = 0;      // J at the end, before zeroing
  double potential_drop = 0;    // J released while settling
  double top_speed = 0;         // m/s of the fastest grain at the end, before zeroing
};

// Runs `packed` (a state of the case's templates) for `duration` s inside the box wall
// `hold` (of the terrain's material, or the first material without a terrain). The
// case's own output settings are not used: nothing is written.
// The box that holds every grain of `bodies` whole: the region's bounds grown by the
// largest grain's reach (and a hundredth more).
Eigen::AlignedBox3d holding_box(const ReleaseRegion& region, const formats::Bodies& bodies,
                                const std::vector<geometry::GrainShape>& shapes);

SettleResult settle_assembly(formats::Case setup, const formats::State& packed, const Eigen::AlignedBox3d& hold,
                             double duration, const std::function<void(double, double)>& progress = {});

}  // namespace scree::pack
