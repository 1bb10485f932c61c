#pragma once
// Letting go of what a container holds, its room too.

namespace scree::solver {

// Empties `held` and hands its room back to the allocator. `v = {}` is no way to do it: on a
// std::vector or a hash table it assigns an empty list, and the room stays, counted at every
// later peak (docs/benchmarks.md, "Let go, room and all").
template <class T>
void let_go(T& held) {
  held = T();
}

}  // namespace scree::solver
