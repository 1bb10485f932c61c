#include "post/net_lines.h"

#include <cmath>

namespace scree::post {

formats::LineNetwork net_lines(const std::vector<formats::Membrane>& nets) {
  formats::LineNetwork n;
  formats::DataArray radius{"radius", 1, {}, formats::ValueType::float32, {}};
  formats::DataArray velocity{"velocity", 3, {}, formats::ValueType::float32, {}};
  formats::DataArray anchored{"anchored", 1, {}, formats::ValueType::int64, {}};
  formats::DataArray ball_net{"net", 1, {}, formats::ValueType::int64, {}};
  formats::DataArray spring_net{"net", 1, {}, formats::ValueType::int64, {}};
  formats::DataArray tension{"tension", 1, {}, formats::ValueType::float32, {}};
  formats::DataArray strain{"strain", 1, {}, formats::ValueType::float32, {}};
  for (std::size_t m = 0; m < nets.size(); ++m) {
    const formats::Membrane& net = nets[m];
    const auto first = std::uint32_t(n.points.size());
    for (std::size_t b = 0; b < net.position.size(); ++b) {
      n.points.push_back(net.position[b]);
      radius.values.push_back(net.radius[b]);
      velocity.values.insert(velocity.values.end(), net.velocity[b].begin(), net.velocity[b].end());
      anchored.integers.push_back(net.anchored[b]);
      ball_net.integers.push_back(std::int64_t(m));
    }
    for (std::size_t s = 0; s < net.springs.size(); ++s) {
      const auto [a, b] = net.springs[s];
      n.lines.push_back({first + a, first + b});
      const auto &p = net.position[a], &q = net.position[b];
      const double length = std::hypot(q[0] - p[0], q[1] - p[1], q[2] - p[2]), rest = net.rest_length[s];
      spring_net.integers.push_back(std::int64_t(m));
      tension.values.push_back(net.stiffness[s] * (length - rest));
      strain.values.push_back(rest > 0 ? (length - rest) / rest : 0.0);
    }
  }
  n.point_data = {radius, velocity, anchored, ball_net};
  n.cell_data = {spring_net, tension, strain};
  return n;
}

}  // namespace scree::post
