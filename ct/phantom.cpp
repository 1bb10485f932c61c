#include "ct/phantom.h"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <stdexcept>

#include "levelset/shapes.h"

namespace scree::ct {

namespace {

using levelset::Vec3d;
using Mat3 = std::array<std::array<double, 3>, 3>;

// Bits to doubles and normals by hand: the same phantom from every standard library.
struct Random {
  explicit Random(std::uint64_t seed) : state(seed * 0x9E3779B97F4A7C15ull + 0x2545F4914F6CDD1Dull) {}
  std::uint64_t next() {  // splitmix64
    std::uint64_t z = (state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  double uniform() { return double(next() >> 11) * 0x1.0p-53; }
  double normal() {
    const double u = 1 - uniform(), v = uniform();
    return std::sqrt(-2 * std::log(u)) * std::cos(2 * M_PI * v);
  }
  Vec3d direction() {
    Vec3d d(normal(), normal(), normal());
    return d / d.length();
  }
  std::uint64_t state;
};

// A uniformly random rotation from a random unit quaternion.
Mat3 random_rotation(Random& random) {
  double q[4];
  double n = 0;
  for (double& x : q) x = random.normal(), n += x * x;
  for (double& x : q) x /= std::sqrt(n);
  const double w = q[0], x = q[1], y = q[2], z = q[3];
  return {{{1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)},
           {2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)},
           {2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)}}};
}

struct Recipe {
  Vec3d radii;  // voxels
  double eps_e = 1, eps_n = 1;
  bool sphere = true;
  int touches = 0;  // 1-based grain placed against, 0: free
};

// Twelve grains 5 to 11 voxels in radius: free ones, two touching pairs of spheres, a
// superellipsoid with a sphere against it, and a chain of three spheres.
const std::vector<Recipe> recipes = {
    {{9, 9, 9}},
    {{7, 7, 7}, 1, 1, true, 1},
    {{11, 7, 6}, 0.6, 0.8, false},
    {{6, 6, 6}, 1, 1, true, 3},
    {{9, 8, 6}, 1.0, 0.5, false},
    {{8, 8, 8}},
    {{7, 7, 7}, 1, 1, true, 6},
    {{6, 6, 6}, 1, 1, true, 7},
    {{10, 6, 5}, 0.8, 1.2, false},
    {{10, 10, 10}},
    {{8, 8, 8}, 0.4, 0.4, false},
    {{5, 5, 5}},
};

struct Placed {
  levelset::ImplicitShape body;  // body frame, voxels
  Mat3 rotation;                 // body to scan
  Vec3d centre;                  // voxels
  double reach;                  // bounding radius, voxels
};

Vec3d rotate_back(const Mat3& r, const Vec3d& v) {
  return Vec3d(r[0][0] * v[0] + r[1][0] * v[1] + r[2][0] * v[2], r[0][1] * v[0] + r[1][1] * v[1] + r[2][1] * v[2],
               r[0][2] * v[0] + r[1][2] * v[1] + r[2][2] * v[2]);
}
double inside_function(const Placed& p, const Vec3d& x) { return p.body.f(rotate_back(p.rotation, x - p.centre)); }

// The surface point of a convex grain along scan direction d from its centre, and the
// outward normal there.
void surface_along(const Placed& p, const Vec3d& d, Vec3d& point, Vec3d& normal) {
  double lo = 0, hi = p.reach * 1.01;
  for (int i = 0; i < 80; ++i) {
    const double mid = 0.5 * (lo + hi);
    (inside_function(p, p.centre + d * mid) < 0 ? lo : hi) = mid;
  }
  point = p.centre + d * lo;
  const double step = 1e-5;
  for (int a = 0; a < 3; ++a) {
    Vec3d e(0);
    e[a] = step;
    normal[a] = inside_function(p, point + e) - inside_function(p, point - e);
  }
  normal /= normal.length();
}

std::vector<Placed> place(const std::array<std::size_t, 3>& size, Random& random) {
  constexpr double gap = 3, border = 2;  // voxels between free grains, and to the faces
  for (int attempt = 0; attempt < 1000; ++attempt) {
    std::vector<Placed> placed;
    for (const Recipe& r : recipes) {
      Placed p;
      p.body = r.sphere ? levelset::make_sphere(r.radii[0]) : levelset::make_superellipsoid(r.radii, r.eps_e, r.eps_n);
      p.rotation = random_rotation(random);
      p.reach = r.sphere ? r.radii[0] : r.radii.length();  // convex: within the box's half-diagonal
      bool fits = false;
      for (int tries = 0; tries < 2000 && !fits; ++tries) {
        if (r.touches) {
          const Placed& parent = placed[r.touches - 1];
          Vec3d point, normal;
          surface_along(parent, random.direction(), point, normal);
          p.centre = point + normal * r.radii[0];
        } else {
          for (int a = 0; a < 3; ++a)
            p.centre[a] = p.reach + border + random.uniform() * (double(size[a]) - 1 - 2 * (p.reach + border));
        }
        fits = true;
        for (int a = 0; a < 3; ++a)
          fits &= p.centre[a] >= p.reach + border && p.centre[a] <= double(size[a]) - 1 - p.reach - border;
        for (std::size_t q = 0; q < placed.size() && fits; ++q)
          if (int(q) + 1 != r.touches) fits = (p.centre - placed[q].centre).length() >= p.reach + placed[q].reach + gap;
      }
      if (!fits) break;
      placed.push_back(std::move(p));
    }
    if (placed.size() == recipes.size()) return placed;
  }
  throw std::invalid_argument("the phantom's grains do not fit in the volume");
}

// Separable Gaussian blur along each axis, edges clamped.
void blur(Volume& v, double sigma) {
  if (!(sigma > 0)) return;
  const int radius = int(std::ceil(3 * sigma));
  std::vector<double> kernel(2 * radius + 1);
  double sum = 0;
  for (int i = -radius; i <= radius; ++i) sum += kernel[i + radius] = std::exp(-0.5 * i * i / (sigma * sigma));
  for (double& k : kernel) k /= sum;
  std::vector<float> out(v.values.size());
  for (int axis = 0; axis < 3; ++axis) {
    const std::size_t stride = axis == 0 ? 1 : axis == 1 ? v.size[0] : v.size[0] * v.size[1];
    const long n = long(v.size[axis]);
    for (std::size_t at = 0; at < v.values.size(); ++at) {
      const long i = long(at / stride % v.size[axis]);
      double s = 0;
      for (int k = -radius; k <= radius; ++k) {
        const long j = std::clamp(i + k, 0l, n - 1);
        s += kernel[k + radius] * v.values[at + std::size_t(j - i) * stride];
      }
      out[at] = float(s);
    }
    v.values.swap(out);
  }
}

}  // namespace

Phantom make_phantom(const PhantomOptions& o) {
  for (auto n : o.size)
    if (n < 64) throw std::invalid_argument("the phantom needs at least 64 voxels along each axis");
  if (!(o.voxel_size > 0)) throw std::invalid_argument("voxel size must be > 0");
  if (!(o.blur >= 0 && o.noise >= 0)) throw std::invalid_argument("blur and noise must be ≥ 0");
  Random random(o.seed);
  const std::vector<Placed> placed = place(o.size, random);

  Phantom ph;
  ph.grey.size = ph.labels.size = o.size;
  ph.grey.spacing = {o.voxel_size, o.voxel_size, o.voxel_size};
  ph.grey.voxel_type = "float32";
  std::vector<double> fill(ph.grey.voxel_count(), 0.0);
  ph.labels.values.assign(fill.size(), 0);
  ph.labels.count = std::uint32_t(placed.size());
  constexpr int sub = 4;  // sub-samples per voxel edge for the fill fraction
  for (std::size_t g = 0; g < placed.size(); ++g) {
    const Placed& p = placed[g];
    const Recipe& r = recipes[g];
    PhantomGrain grain;
    std::ostringstream shape;
    if (r.sphere) {
      shape << "sphere r=" << r.radii[0] << " voxels";
      grain.volume = 4.0 / 3 * M_PI * std::pow(r.radii[0], 3);
    } else {
      shape << "superellipsoid radii " << r.radii[0] << " " << r.radii[1] << " " << r.radii[2] << " voxels eps "
            << r.eps_e << " " << r.eps_n;
      grain.volume = levelset::superellipsoid_mass(r.radii, r.eps_e, r.eps_n).volume;
    }
    grain.shape = shape.str();
    grain.volume *= std::pow(o.voxel_size, 3);
    for (int a = 0; a < 3; ++a) grain.centre[a] = p.centre[a] * o.voxel_size;
    grain.touches = std::uint32_t(r.touches);
    ph.grains.push_back(grain);

    std::array<std::size_t, 3> lo{}, hi{};
    for (int a = 0; a < 3; ++a) {
      lo[a] = std::size_t(std::max(0.0, std::floor(p.centre[a] - p.reach - 1)));
      hi[a] = std::min(o.size[a] - 1, std::size_t(std::ceil(p.centre[a] + p.reach + 1)));
    }
    for (std::size_t k = lo[2]; k <= hi[2]; ++k)
      for (std::size_t j = lo[1]; j <= hi[1]; ++j)
        for (std::size_t i = lo[0]; i <= hi[0]; ++i) {
          const Vec3d c{double(i), double(j), double(k)};
          int in = 0;
          for (int s = 0; s < sub * sub * sub; ++s) {
            const Vec3d offset((s % sub + 0.5) / sub - 0.5, (s / sub % sub + 0.5) / sub - 0.5, (s / (sub * sub) + 0.5) / sub - 0.5);
            in += inside_function(p, c + offset) < 0;
          }
          const std::size_t at = ph.grey.index(i, j, k);
          fill[at] += double(in) / (sub * sub * sub);
          if (inside_function(p, c) < 0) ph.labels.values[at] = std::uint32_t(g + 1);
        }
  }
  ph.grey.values.resize(fill.size());
  for (std::size_t n = 0; n < fill.size(); ++n)
    ph.grey.values[n] = float(o.pore_grey + (o.solid_grey - o.pore_grey) * std::min(fill[n], 1.0));
  blur(ph.grey, o.blur);
  if (o.noise > 0)
    for (float& v : ph.grey.values) v = float(v + o.noise * random.normal());
  return ph;
}

}  // namespace scree::ct
