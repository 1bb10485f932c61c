#include "solver/schemes.h"

#include <stdexcept>

#include "solver/impulse/predict_correct.h"

namespace scree::solver {

namespace {
const ContactScheme schemes[] = {
    {formats::SchemeType::impulse, "impulse", &solve_by_impulses},
};
}  // namespace

const ContactScheme& contact_scheme(formats::SchemeType type) {
  for (const ContactScheme& s : schemes)
    if (s.type == type) return s;
  throw std::logic_error("no contact scheme registered for this scheme.type");
}

}  // namespace scree::solver
