#pragma once
// What the grains' contacts with walls add to a step's books: the walls' work on the grains
// and each wall's impulse, summed exactly (exact_sum.h), so that they come out the same
// whatever order the contacts come in and however they are shared among threads and ranks
// (docs/parallel.md).
#include <array>
#include <vector>

#include "solver/exact_sum.h"
#include "solver/world.h"

namespace scree::solver {

class WallBooks {
 public:
  explicit WallBooks(std::size_t walls) : impulse_(walls) {}

  // The impulse `on_grain` a grain takes from wall `wall`, which moves at `velocity`.
  void add(std::size_t wall, const Vec3& velocity, const Vec3& on_grain) {
    work_ += velocity.dot(on_grain);
    for (int axis = 0; axis < 3; ++axis) impulse_[wall][std::size_t(axis)] -= on_grain[axis];
  }
  // The sums added to the world's books and to the step's impulse on each wall.
  void book(EnergyBooks& energy, std::vector<Vec3>& wall_impulse) const {
    energy.wall_work += work_.value();
    for (std::size_t w = 0; w < impulse_.size(); ++w)
      for (int axis = 0; axis < 3; ++axis) wall_impulse[w][axis] += impulse_[w][std::size_t(axis)].value();
  }

 private:
  ExactSum work_;
  std::vector<std::array<ExactSum, 3>> impulse_;
};

}  // namespace scree::solver
