#pragma once
// What the grains' contacts with walls add to a step's books: the walls' work on the grains
// and each wall's impulse, summed exactly (exact_sum.h), so that they come out the same
// whatever order the contacts come in and however they are shared among threads and ranks
// (docs/parallel.md).
#include <array>
#include <vector>

#include "solver/exact_sum.h"
#include "solver/ranks/communicator.h"
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
  // Another set of contacts' sums added to these (as many walls).
  WallBooks& operator+=(const WallBooks& other) {
    work_ += other.work_;
    for (std::size_t w = 0; w < impulse_.size(); ++w)
      for (std::size_t axis = 0; axis < 3; ++axis) impulse_[w][axis] += other.impulse_[w][axis];
    return *this;
  }
  // The sums added to the world's books and to the step's impulse on each wall.
  void book(EnergyBooks& energy, std::vector<Vec3>& wall_impulse) const {
    energy.wall_work += work_.value();
    for (std::size_t w = 0; w < impulse_.size(); ++w)
      for (int axis = 0; axis < 3; ++axis) wall_impulse[w][axis] += impulse_[w][std::size_t(axis)].value();
  }
  // Every rank's sums added up, on every rank.
  void sum_across(const Ranks& ranks) {
    std::vector<ExactSum> sums{work_};
    for (const auto& wall : impulse_) sums.insert(sums.end(), wall.begin(), wall.end());
    ranks.sum(sums);
    work_ = sums[0];
    for (std::size_t w = 0; w < impulse_.size(); ++w)
      for (std::size_t axis = 0; axis < 3; ++axis) impulse_[w][axis] = sums[1 + 3 * w + axis];
  }

 private:
  ExactSum work_;
  std::vector<std::array<ExactSum, 3>> impulse_;
};

}  // namespace scree::solver
