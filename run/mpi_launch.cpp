#include "run/mpi_launch.h"

#include <cstdlib>
#include <string>

namespace scree::run {

namespace {
int variable(const char* name, int fallback) {
  const char* text = std::getenv(name);
  if (!text || !*text) return fallback;
  try {
    return std::stoi(text);
  } catch (const std::exception&) {
    return fallback;
  }
}
}  // namespace

MpiLaunch mpi_launch() {
  constexpr const char* launchers[][2] = {
      {"OMPI_COMM_WORLD_SIZE", "OMPI_COMM_WORLD_RANK"}, {"PMI_SIZE", "PMI_RANK"}, {"MV2_COMM_WORLD_SIZE", "MV2_COMM_WORLD_RANK"}};
  for (const auto& [size, rank] : launchers)
    if (const int ranks = variable(size, 0); ranks > 0) return {ranks, variable(rank, 0)};
  return {};
}

}  // namespace scree::run
