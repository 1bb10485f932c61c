#pragma once
// The impulse scheme's contacts phase (seed 000 §3.4, §4.1, Fig. 5; docs/theory.md): up to
// `boundary_iterations` sweeps, every body is moved to where its current velocity (and
// correction) would take it, contacts are found there, approaching contacts (faster than the
// resting speed) are resolved by the energy tracking method island by island, and slow
// contacts that would end penetrated are held by resting contact (the predict–correct
// treatment); the last of several sweeps treats every contact as resting, so that no step
// ends penetrated. The resting impulses of the step are kept in the world for the next one.
#include <vector>

#include "solver/rigid_body.h"
#include "solver/step.h"
#include "solver/world.h"

namespace scree::solver {

// With `share`, this rank's part of the sweeps the ranks take together: the contact search
// shared (SearchShare), the collisions' and the resting contacts' islands each solved by one
// rank (collisions_across_ranks.h, resting_across_ranks.h), every decision that ends a sweep
// or the step taken on what all ranks found (docs/parallel.md).
void solve_by_impulses(World& world, const StepSettings& settings, std::vector<RigidBody>& corrections,
                       StepReport& report, RankShare* share = nullptr);

}  // namespace scree::solver
