#include "geometry/terrain_field.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "geometry/trilinear.h"

namespace scree::geometry {

namespace {

struct Arrays {
  std::vector<std::int32_t> first_k;
  std::vector<std::uint32_t> start;
  std::vector<float> values;
};

// The head of a flat field: its sizes and place, then the three arrays and the tiles' slopes
// one after another.
struct FlatHead {
  double origin[3], voxel;
  std::int32_t nx, ny;
  float band;
  std::uint32_t values;
};

}  // namespace

namespace {

// A field of arrays of its own, held by the field (and its copies).
TerrainField own_arrays(const Eigen::Vector3d& origin, double voxel, int nx, int ny, std::shared_ptr<const Arrays> arrays,
                        float band) {
  const Arrays& a = *arrays;
  return TerrainField::in_place_arrays(origin, voxel, nx, ny, a.first_k, a.start, a.values, band, std::move(arrays));
}

}  // namespace

TerrainField::TerrainField(const Eigen::Vector3d& origin, double voxel, int nx, int ny, std::vector<std::int32_t> first_k,
                           std::vector<std::uint32_t> start, std::vector<float> values, float band)
    : TerrainField(own_arrays(origin, voxel, nx, ny,
                              std::make_shared<const Arrays>(Arrays{std::move(first_k), std::move(start), std::move(values)}),
                              band)) {}

TerrainField::TerrainField(const Eigen::Vector3d& origin, double voxel, int nx, int ny, std::span<const std::int32_t> first_k,
                           std::span<const std::uint32_t> start, std::span<const float> values, float band,
                           std::shared_ptr<const void> keep, std::span<const float> tile_slopes)
    : origin_(origin), voxel_(voxel), nx_(nx), ny_(ny), keep_(std::move(keep)), first_k_(first_k), start_(start),
      values_(values), band_(band), tiles_y_(tiles_along(ny)), tile_slopes_(tile_slopes) {
  const std::size_t columns = std::size_t(nx_) * std::size_t(ny_);
  if (!(voxel_ > 0) || !(band_ > 0) || nx_ < 1 || ny_ < 1 || first_k_.size() != columns || start_.size() != columns + 1 ||
      start_.front() != 0 || start_.back() != values_.size() || !std::is_sorted(start_.begin(), start_.end()))
    throw std::invalid_argument("terrain field: columns and values do not match");
  if (tile_slopes_.empty()) {
    own_slopes_ = std::make_shared<const std::vector<float>>(steepest_slopes());
    tile_slopes_ = *own_slopes_;
  }
  if (tile_slopes_.size() != tile_count()) throw std::invalid_argument("terrain field: tiles and columns do not match");
}

TerrainField TerrainField::in_place_arrays(const Eigen::Vector3d& origin, double voxel, int nx, int ny,
                                           std::span<const std::int32_t> first_k, std::span<const std::uint32_t> start,
                                           std::span<const float> values, float band, std::shared_ptr<const void> keep) {
  return TerrainField(origin, voxel, nx, ny, first_k, start, values, band, std::move(keep));
}

std::vector<std::byte> TerrainField::flat() const {
  const FlatHead head{{origin_.x(), origin_.y(), origin_.z()}, voxel_, nx_, ny_, band_, std::uint32_t(values_.size())};
  std::vector<std::byte> block(sizeof head + first_k_.size_bytes() + start_.size_bytes() + values_.size_bytes() +
                               tile_slopes_.size_bytes());
  std::byte* at = block.data();
  for (const std::span<const std::byte> part : {std::as_bytes(std::span(&head, 1)), std::as_bytes(first_k_),
                                                std::as_bytes(start_), std::as_bytes(values_), std::as_bytes(tile_slopes_)}) {
    std::copy(part.begin(), part.end(), at);
    at += part.size();
  }
  return block;
}

TerrainField TerrainField::in_place(std::span<const std::byte> block, std::shared_ptr<const void> keep) {
  FlatHead head;
  if (block.size() < sizeof head) throw std::invalid_argument("terrain field: a flat block without its head");
  std::copy_n(block.data(), sizeof head, reinterpret_cast<std::byte*>(&head));
  const std::size_t columns = std::size_t(head.nx) * std::size_t(head.ny);
  const std::size_t tiles = std::size_t(tiles_along(head.nx)) * std::size_t(tiles_along(head.ny));
  if (head.nx < 1 || head.ny < 1 ||
      block.size() != sizeof head + columns * 4 + (columns + 1) * 4 + std::size_t(head.values) * 4 + tiles * 4)
    throw std::invalid_argument("terrain field: a flat block of the wrong size");
  const std::byte* at = block.data() + sizeof head;
  const std::span first_k(reinterpret_cast<const std::int32_t*>(at), columns);
  const std::span start(reinterpret_cast<const std::uint32_t*>(at + columns * 4), columns + 1);
  const std::span values(reinterpret_cast<const float*>(at + (2 * columns + 1) * 4), head.values);
  const std::span slopes(reinterpret_cast<const float*>(at + (2 * columns + 1 + head.values) * 4), tiles);
  return TerrainField(Eigen::Vector3d(head.origin[0], head.origin[1], head.origin[2]), head.voxel, head.nx, head.ny, first_k,
                      start, values, head.band, std::move(keep), slopes);
}

void TerrainField::column_pair(int i, int j, int k, float* pair) const {
  if (i < 0 || j < 0 || i >= nx_ || j >= ny_) {
    pair[0] = pair[1] = band_;
    return;
  }
  const std::size_t c = std::size_t(i) * std::size_t(ny_) + std::size_t(j);
  const std::int64_t count = std::int64_t(start_[c + 1] - start_[c]);
  for (int dk = 0; dk < 2; ++dk) {
    const std::int64_t offset = std::int64_t(k) + dk - first_k_[c];
    pair[dk] = offset < 0 ? -band_ : offset >= count ? band_ : values_[start_[c] + std::size_t(offset)];
  }
}

bool TerrainField::cell(const Eigen::Vector3d& world, std::array<float, 8>& corner, Eigen::Vector3d& local) const {
  const Eigen::Vector3d p = (world - origin_) / voxel_;
  int c[3];
  for (int a = 0; a < 3; ++a) {
    const double f = std::floor(p[a]);
    if (!(std::abs(f) < 1e9)) return false;  // also false for NaN
    c[a] = int(f);
    local[a] = p[a] - f;
  }
  // Corner 4i + 2j + k: the cell's four columns, two values each.
  for (int n = 0; n < 4; ++n) column_pair(c[0] + (n >> 1), c[1] + (n & 1), c[2], &corner[2 * n]);
  return true;
}

double TerrainField::value(const Eigen::Vector3d& world) const {
  std::array<float, 8> v;
  Eigen::Vector3d t;
  if (!cell(world, v, t)) return band_;
  return trilinear(v, t);
}

double TerrainField::value_and_gradient(const Eigen::Vector3d& world, Eigen::Vector3d& gradient) const {
  std::array<float, 8> v;
  Eigen::Vector3d t;
  if (!cell(world, v, t)) {
    gradient.setZero();
    return band_;
  }
  const double value = trilinear(v, t, &gradient);
  gradient /= voxel_;
  return value;
}

std::optional<double> TerrainField::ground_height(double x, double y) const {
  const double u = (x - origin_.x()) / voxel_, v = (y - origin_.y()) / voxel_;
  const int i = int(std::floor(u)), j = int(std::floor(v));
  if (!(u >= 0 && v >= 0) || i + 1 >= nx_ || j + 1 >= ny_) return std::nullopt;
  const double a = u - i, b = v - j;
  const double weight[4] = {(1 - a) * (1 - b), (1 - a) * b, a * (1 - b), a * b};  // columns 2i' + j'
  std::int64_t k_low = std::numeric_limits<std::int64_t>::max(), k_high = std::numeric_limits<std::int64_t>::min();
  for (int n = 0; n < 4; ++n) {
    const std::size_t c = std::size_t(i + (n >> 1)) * std::size_t(ny_) + std::size_t(j + (n & 1));
    if (start_[c + 1] == start_[c]) return std::nullopt;  // no ground in this column
    k_low = std::min<std::int64_t>(k_low, first_k_[c]);
    k_high = std::max<std::int64_t>(k_high, first_k_[c] + std::int64_t(start_[c + 1] - start_[c]));
  }
  auto level = [&](std::int64_t k) {
    double value = 0;
    for (int n = 0; n < 4; ++n) {
      float pair[2];
      column_pair(i + (n >> 1), j + (n & 1), int(k), pair);
      value += weight[n] * pair[0];
    }
    return value;
  };
  double below = level(k_low - 1);
  for (std::int64_t k = k_low; k <= k_high; ++k) {
    const double above = level(k);
    if (below <= 0 && above > 0) return origin_.z() + voxel_ * (double(k - 1) + below / (below - above));
    below = above;
  }
  return std::nullopt;
}

bool TerrainField::clear_of(const Eigen::Vector3d& centre, double radius) const {
  const double phi = value(centre);
  if (phi < band_ - voxel_) return phi > radius;  // within the band: an exact distance
  if (radius < band_ - voxel_) return true;
  // The highest band value under the ball: each column's run ends within the band above the
  // ground, so a ball above every run's top is in the air.
  const Eigen::Vector3d low = (centre - origin_) / voxel_ - Eigen::Vector3d::Constant(radius / voxel_);
  const Eigen::Vector3d high = low + Eigen::Vector3d::Constant(2 * radius / voxel_);
  const int i0 = std::max(0, int(std::floor(low.x()))), i1 = std::min(nx_ - 1, int(std::ceil(high.x())));
  const int j0 = std::max(0, int(std::floor(low.y()))), j1 = std::min(ny_ - 1, int(std::ceil(high.y())));
  double top = -std::numeric_limits<double>::infinity();
  for (int i = i0; i <= i1; ++i)
    for (int j = j0; j <= j1; ++j) {
      const std::size_t c = std::size_t(i) * std::size_t(ny_) + std::size_t(j);
      top = std::max(top, double(first_k_[c]) + double(start_[c + 1] - start_[c]));
    }
  return low.z() > top;
}

std::size_t TerrainField::tile_count() const {
  return std::size_t(tiles_along(nx_)) * std::size_t(tiles_y_);
}

std::vector<float> TerrainField::steepest_slopes() const {
  // A cell's steepest corner bounds its slope (trilinear.h). Each column quadruple over the
  // levels where one of its columns changes (its run and the clamps on either side), and one
  // cell below them: there every corner is its column's clamp, the same at all lower levels
  // (the ground's, or the air's in a column without ground), and above them the air's, nil.
  std::vector<double> steepest2(tile_count(), 0.0);
  std::array<float, 8> v;
  for (int i = 0; i + 1 < nx_; ++i)
    for (int j = 0; j + 1 < ny_; ++j) {
      std::int64_t low = std::numeric_limits<std::int64_t>::max(), high = std::numeric_limits<std::int64_t>::min();
      for (int n = 0; n < 4; ++n) {
        const std::size_t c = std::size_t(i + (n >> 1)) * std::size_t(ny_) + std::size_t(j + (n & 1));
        if (start_[c + 1] == start_[c]) continue;  // no ground: air at every level
        low = std::min<std::int64_t>(low, first_k_[c]);
        high = std::max<std::int64_t>(high, first_k_[c] + std::int64_t(start_[c + 1] - start_[c]));
      }
      double& tile_steepest2 = steepest2[std::size_t(i / tile) * std::size_t(tiles_y_) + std::size_t(j / tile)];
      for (std::int64_t k = low - 2; k < high; ++k) {  // none where all four lack ground
        for (int n = 0; n < 4; ++n) column_pair(i + (n >> 1), j + (n & 1), int(k), &v[2 * std::size_t(n)]);
        tile_steepest2 = std::max(tile_steepest2, steepest_slope2(v));
      }
    }
  std::vector<float> slopes;
  for (const double s2 : steepest2) slopes.push_back(std::nextafter(float(std::sqrt(s2) / voxel_), HUGE_VALF));
  return slopes;
}

std::optional<double> TerrainField::steepest_slope_under(const Eigen::Vector3d& centre, double radius) const {
  const Eigen::Vector3d p = (centre - origin_) / voxel_;
  const double reach = radius / voxel_;
  // The cells under the ball, all the grid's: from 0 to n − 2 along x and y (none for NaN).
  const double x0 = std::floor(p.x() - reach), x1 = std::floor(p.x() + reach);
  const double y0 = std::floor(p.y() - reach), y1 = std::floor(p.y() + reach);
  if (!(x0 >= 0 && x1 <= nx_ - 2 && y0 >= 0 && y1 <= ny_ - 2)) return std::nullopt;
  float slope = 0;
  for (int ti = int(x0) / tile; ti <= int(x1) / tile; ++ti)
    for (int tj = int(y0) / tile; tj <= int(y1) / tile; ++tj)
      slope = std::max(slope, tile_slopes_[std::size_t(ti) * std::size_t(tiles_y_) + std::size_t(tj)]);
  return double(slope);
}

bool TerrainField::may_be_below(const Eigen::Vector3d& centre, double radius, double below) const {
  const std::optional<double> slope = steepest_slope_under(centre, radius);
  // The margin covers the round-off of two interpolations at nearby points.
  return !slope || value(centre) - *slope * radius * (1 + 1e-6) < below + 1e-6 * voxel_;
}

std::size_t TerrainField::bytes() const {
  return values_.size_bytes() + first_k_.size_bytes() + start_.size_bytes() + tile_slopes_.size_bytes() + sizeof(*this);
}

}  // namespace scree::geometry
