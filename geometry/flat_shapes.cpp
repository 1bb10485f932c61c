#include "geometry/flat_shapes.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <stdexcept>

namespace scree::geometry {

namespace {

// Each part at a multiple of 8 bytes, so that an array read in place is aligned.
constexpr std::size_t padded(std::size_t bytes) { return (bytes + 7) / 8 * 8; }

class FlatWriter {
 public:
  template <class T>
  void value(const T& v) {
    array(std::span<const T>(&v, 1), false);
  }
  template <class T>
  void array(std::span<const T> values, bool counted = true) {
    static_assert(std::is_trivially_copyable_v<T>);
    if (counted) value<std::uint64_t>(values.size());
    const std::size_t at = bytes_.size();
    bytes_.resize(at + padded(values.size_bytes()));
    if (!values.empty()) std::memcpy(bytes_.data() + at, values.data(), values.size_bytes());
  }
  std::vector<std::byte> take() { return std::move(bytes_); }

 private:
  std::vector<std::byte> bytes_;
};

class FlatReader {
 public:
  explicit FlatReader(std::span<const std::byte> block) : block_(block) {}
  template <class T>
  T value() {
    T v;
    std::memcpy(&v, next(sizeof v), sizeof v);
    return v;
  }
  template <class T>
  std::span<const T> array() {
    return fixed<T>(value<std::uint64_t>());
  }
  template <class T>
  std::span<const T> fixed(std::uint64_t count) {
    if (count > block_.size() / sizeof(T)) throw std::invalid_argument("flat shapes: an array runs past the block");
    return {reinterpret_cast<const T*>(next(count * sizeof(T))), std::size_t(count)};
  }
  bool done() const { return at_ == block_.size(); }

 private:
  const std::byte* next(std::size_t bytes) {
    if (at_ + padded(bytes) > block_.size()) throw std::invalid_argument("flat shapes: the block ends early");
    const std::byte* here = block_.data() + at_;
    at_ += padded(bytes);
    return here;
  }
  std::span<const std::byte> block_;
  std::size_t at_ = 0;
};

}  // namespace

static_assert(sizeof(Eigen::Vector3f) == 3 * sizeof(float));  // nodes as a run of floats

std::vector<std::byte> flat_shapes(const std::vector<GrainShape>& shapes) {
  FlatWriter out;
  out.value<std::uint64_t>(shapes.size());
  for (const GrainShape& s : shapes) {
    out.value<std::uint8_t>(s.level_set ? 1 : 0);
    if (!s.level_set) {
      out.value(s.sphere_radius);
      continue;
    }
    const ShapeTemplate& t = *s.level_set;
    out.value(s.volume);
    out.array(std::span<const double>(s.inertia_per_density.data(), 3), false);
    out.value(t.dims());
    out.value(t.background());
    out.array(std::span<const double>(t.body_to_index().data(), 9), false);
    out.array(std::span<const double>(t.index_offset().data(), 3), false);
    out.array(std::span<const float>(reinterpret_cast<const float*>(t.nodes().data()), 3 * t.nodes().size()));
    out.array(t.values());
  }
  return out.take();
}

std::vector<GrainShape> shapes_in_place(std::span<const std::byte> block, const std::shared_ptr<const void>& keep) {
  FlatReader in(block);
  std::vector<GrainShape> shapes(in.value<std::uint64_t>());
  for (GrainShape& s : shapes) {
    if (in.value<std::uint8_t>() == 0) {
      s = GrainShape::sphere(in.value<double>());
      continue;
    }
    const auto volume = in.value<double>();
    const Eigen::Vector3d inertia(in.fixed<double>(3).data());
    const auto dims = in.value<std::array<int, 3>>();
    const auto background = in.value<float>();
    const Eigen::Matrix3d body_to_index(in.fixed<double>(9).data());
    const Eigen::Vector3d index_offset(in.fixed<double>(3).data());
    const std::span<const float> coordinates = in.array<float>();
    std::vector<Eigen::Vector3f> nodes(coordinates.size() / 3);
    for (std::size_t k = 0; k < nodes.size(); ++k) nodes[k] = Eigen::Vector3f(coordinates.data() + 3 * k);
    const std::span<const float> values = in.array<float>();
    s = GrainShape::from_level_set(ShapeTemplate(dims, values, keep, background, body_to_index, index_offset, std::move(nodes)),
                                   volume, inertia);
  }
  if (!in.done()) throw std::invalid_argument("flat shapes: bytes past the last shape");
  return shapes;
}

}  // namespace scree::geometry
