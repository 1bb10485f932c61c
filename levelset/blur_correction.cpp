#include "levelset/blur_correction.h"

#include <algorithm>
#include <vector>

namespace scree::levelset {

void undo_blur(openvdb::FloatGrid& phi, double sigma) {
  if (!(sigma > 0)) return;
  const double h = phi.voxelSize()[0], cap = 1 / h;
  auto values = phi.getConstAccessor();
  std::vector<std::pair<openvdb::Coord, float>> moved;
  for (auto it = phi.cbeginValueOn(); it; ++it) {
    if (!it.isVoxelValue()) continue;
    const openvdb::Coord c = it.getCoord();
    double laplacian = -6.0 * *it;
    for (int a = 0; a < 3; ++a) {
      openvdb::Coord up = c, down = c;
      up[a] += 1, down[a] -= 1;
      laplacian += values.getValue(up) + values.getValue(down);
    }
    laplacian = std::clamp(laplacian / (h * h), -cap, cap);
    moved.emplace_back(c, float(*it - 0.5 * sigma * sigma * laplacian));
  }
  auto write = phi.getAccessor();
  for (const auto& [c, value] : moved) write.setValueOn(c, value);
}

}  // namespace scree::levelset
