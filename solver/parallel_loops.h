#pragma once
// When a loop of the step is worth a team of OpenMP threads.
#include <cstddef>

namespace scree::solver {

// A loop over fewer pairs, grains or resting points than this runs on the calling thread:
// waking a team of threads costs more than the loop, and on cores other processes hold a
// woken thread may wait for a core for milliseconds (docs/benchmarks.md, "Shared cores").
// Parallel loops join their results in a fixed order, so this changes no result.
constexpr std::size_t smallest_parallel_loop = 32;

}  // namespace scree::solver
