#pragma once
// The contact schemes a case chooses by `scheme.type`, one row each in one table, as LAMMPS
// registers a granular sub-model: a scheme is the step's contacts phase (solver/step.h), which
// finds the contacts it needs and turns them into velocity changes and position corrections.
// A new scheme is a folder beside impulse/ with its solve function, and a row in schemes.cpp
// (docs/architecture.md, "A new contact scheme").
#include <vector>

#include "formats/case.h"
#include "solver/rigid_body.h"
#include "solver/step.h"
#include "solver/world.h"

namespace scree::solver {

// With a RankShare, this rank's part of the phase the ranks take together (docs/parallel.md).
using SolveContacts = void (*)(World& world, const StepSettings& settings, std::vector<RigidBody>& corrections,
                               StepReport& report, RankShare* share);

struct ContactScheme {
  formats::SchemeType type;
  const char* name;  // as the case file names it
  SolveContacts solve;
};

// The row of `type`; every type the case reader accepts has one.
const ContactScheme& contact_scheme(formats::SchemeType type);

}  // namespace scree::solver
