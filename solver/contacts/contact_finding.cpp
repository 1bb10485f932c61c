#include "solver/contacts/contact_finding.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <numbers>
#include <numeric>

#include <omp.h>

#include "solver/contacts/contact_points.h"
#include "solver/contacts/narrow_phase.h"
#include "solver/parallel_loops.h"

namespace scree::solver {

namespace {

// Grains whose bounding radii differ by less than this factor sample each other both ways.
constexpr double both_ways_ratio = 2;

// A pair's near nodes are listed this many of the other's voxels beyond the margin.
constexpr double near_node_skin = 1;

// The support points of the face of `members` (SupportPoint: the deepest node and the extremes
// along eight directions across the normal `n`), added at the end of `points`. Extremes within
// a thousandth of the glue distance of each other are ties, broken by node index, so that a
// resting face keeps its support points (and their warm start) from step to step while it
// jiggles by round-off.
void add_support_points(std::vector<SupportPoint>& points, const std::vector<NodeContact>& nodes,
                        const std::vector<std::uint32_t>& members, const Vec3& n, double glue_distance,
                        const Vec3& centroid) {
  const Vec3 t1 = n.unitOrthogonal(), t2 = n.cross(t1);
  const double tie = 1e-3 * glue_distance;
  // The nine measures of every member, found once: its depth, then its reach along the eight
  // directions, measure by measure.
  constexpr int measures = 9;
  std::array<Vec3, measures - 1> directions;
  for (int d = 0; d < measures - 1; ++d) {
    const double angle = d * std::numbers::pi / 4;
    directions[d] = std::cos(angle) * t1 + std::sin(angle) * t2;
  }
  const std::size_t m = members.size();
  thread_local std::vector<double> value;
  value.resize(measures * m);
  for (std::size_t k = 0; k < m; ++k) {
    const NodeContact& c = nodes[members[k]];
    value[k] = c.depth;
    for (int d = 0; d < measures - 1; ++d) value[(d + 1) * m + k] = directions[d].dot(c.point);
  }
  std::array<std::uint32_t, measures> chosen;
  for (int measure = 0; measure < measures; ++measure) {
    const double* of = value.data() + measure * m;
    const double top = *std::max_element(of, of + m);
    std::size_t best = m;
    for (std::size_t k = 0; k < m; ++k)
      if (of[k] >= top - tie && (best == m || nodes[members[k]].node < nodes[members[best]].node)) best = k;
    chosen[std::size_t(measure)] = members[best];
  }
  std::sort(chosen.begin(), chosen.end());
  const auto distinct = std::unique(chosen.begin(), chosen.end());
  for (auto k = chosen.begin(); k != distinct; ++k)
    points.push_back({(nodes[*k].point - centroid).cast<float>(), std::int32_t(nodes[*k].node), nodes[*k].depth});
}

// Adds to a face's support points (those of `points` from `first` on, in node order) each of
// its `nodes` (sorted by node) that carries an impulse in `loaded` under `face`'s grain, body
// and plane; the store holds a face's keys side by side, so one search finds them.
void keep_loaded_nodes(std::vector<SupportPoint>& points, std::size_t first, const std::vector<NodeContact>& nodes,
                       const RestingImpulses& loaded, const RestingKey& face, const Vec3& centroid) {
  const std::size_t chosen = points.size();
  const auto same_face = [&](const RestingKey& k) { return k.a == face.a && k.b == face.b && k.plane == face.plane; };
  const std::span<const RestingImpulses::Entry> of_a = loaded.of_grain(face.a);
  auto entry = std::lower_bound(of_a.begin(), of_a.end(), RestingKey{face.a, face.b, face.plane, INT32_MIN},
                                [](const RestingImpulses::Entry& e, const RestingKey& k) { return e.first < k; });
  for (; entry != of_a.end() && same_face(entry->first); ++entry) {
    if (entry->second.isZero()) continue;
    const std::uint32_t node = std::uint32_t(entry->first.node);
    const auto at = std::lower_bound(nodes.begin(), nodes.end(), node,
                                     [](const NodeContact& c, std::uint32_t k) { return c.node < k; });
    if (at == nodes.end() || at->node != node) continue;
    const auto begin = points.begin() + std::ptrdiff_t(first), end = points.begin() + std::ptrdiff_t(chosen);
    if (std::find_if(begin, end, [&](const SupportPoint& p) { return p.node == entry->first.node; }) != end) continue;
    points.push_back({(at->point - centroid).cast<float>(), entry->first.node, at->depth});
  }
  if (points.size() > chosen)  // the extremes come in node order already
    std::sort(points.begin() + std::ptrdiff_t(first), points.end(),
              [](const SupportPoint& a, const SupportPoint& b) { return a.node < b.node; });
}

// The faces of a wall as planes (point, inward normal).
std::vector<std::pair<Vec3, Vec3>> wall_planes(const Wall& wall, const Vec3& offset) {
  if (wall.shape == WallShape::plane) return {{wall.point + offset, wall.normal}};
  std::vector<std::pair<Vec3, Vec3>> f;
  for (int axis = 0; axis < 3; ++axis) {
    f.emplace_back(wall.min + offset, Vec3::Unit(axis));
    f.emplace_back(wall.max + offset, -Vec3::Unit(axis));
  }
  return f;
}

class ContactFinder {
 public:
  // Contacts take the nodes inside and those within `margin` outside: a resting contact keeps
  // its points while round-off moves it in and out, and a face about to strike collides as a
  // whole, not first with the half that happens to be a hair deeper.
  ContactFinder(const World& world, const std::vector<RigidBody>& posed, double dt, double margin,
                NearNodeCache* near_nodes, const RestingImpulses* loaded, const SearchShare* share)
      : world_(world), posed_(posed), dt_(dt), margin_(margin), cache_(near_nodes), loaded_(loaded), share_(share) {
    for (std::size_t i = 0; i < world.grain_count(); ++i)
      poses_.push_back({posed[i].position, posed[i].orientation, world.scale[i]});
  }

  // Pairs from `neighbours` when given (a Verlet list kept from step to step, rebuilt with
  // `skin`), else from a fresh broad phase. Pairs and grains are searched in parallel, each
  // thread into its own batch, noting where each pair's and grain's finds lie in it; they are
  // joined in pair order, then grain order, so the contacts do not depend on the number of
  // threads.
  FoundContacts find(NeighbourList* neighbours = nullptr, double skin = 0) {
    const std::uint32_t n = std::uint32_t(world_.grain_count());
    skin_ = skin;
    if (cache_ && world_.terrain) cache_->terrain.resize(n);
    std::vector<Vec3> centres;
    std::vector<double> radii;
    for (std::size_t i = 0; i < n; ++i) {
      centres.push_back(posed_[i].position);
      radii.push_back(radius(i));
    }
    double widest = 0;
    for (std::size_t i = 0; i < n; ++i) widest = std::max(widest, margin(i));
    std::vector<BodyPair> pairs =
        neighbours ? neighbours->pairs(centres, radii, widest, skin) : overlapping_pairs(centres, radii, widest);
    if (share_)
      std::erase_if(pairs, [&](const BodyPair& p) { return !share_->searches(centres[p.first], centres[p.second]); });
    std::vector<Batch> batches(static_cast<std::size_t>(omp_get_max_threads()));
    std::vector<Piece> pieces(pairs.size() + n);  // the pairs', then the grains'
    // Each pair takes its cached near nodes over, or starts none (the cache then holds the
    // pairs of this search, in its order). Where the pairs are the cache's, as in most of a
    // settled heap's searches, they are searched in the cache's own lists: a second array of
    // them would be a step's peak of memory (docs/benchmarks.md, "The eighth pass").
    const bool cached_pairs = cache_ && cache_->pairs.size() == pairs.size() &&
                              std::equal(pairs.begin(), pairs.end(), cache_->pairs.begin(), [](const BodyPair& p, std::uint64_t key) {
                                return pair_key(p.first, p.second) == key;
                              });
    std::vector<std::array<NearNodes, 2>> near(cache_ && !cached_pairs ? pairs.size() : 0);
    // One team for both loops (waking it costs more than either loop of a small step).
#pragma omp parallel if (pairs.size() + n >= smallest_parallel_loop)
    {
      const int me = omp_get_thread_num();
      Batch& batch = batches[std::size_t(me)];
#pragma omp for schedule(dynamic, 16) nowait
      for (std::size_t k = 0; k < pairs.size(); ++k) {
        std::array<NearNodes, 2>* pair_near = nullptr;
        if (cached_pairs) {
          pair_near = &cache_->near[k];
        } else if (cache_) {
          pair_near = &near[k];
          const std::uint64_t key = pair_key(pairs[k].first, pairs[k].second);
          const auto it = std::lower_bound(cache_->pairs.begin(), cache_->pairs.end(), key);
          if (it != cache_->pairs.end() && *it == key) *pair_near = std::move(cache_->near[std::size_t(it - cache_->pairs.begin())]);
        }
        pieces[k].begin(batch, me);
        grain_pair(batch, pairs[k].first, pairs[k].second, pair_near);
        pieces[k].end(batch);
      }
#pragma omp for schedule(dynamic, 16)
      for (std::uint32_t i = 0; i < n; ++i) {
        pieces[pairs.size() + i].begin(batch, me);
        if (!share_ || share_->owned[i]) {
          for (std::size_t w = 0; w < world_.walls.size(); ++w) grain_wall(batch, i, w);
          if (world_.terrain) grain_terrain(batch, i);
        }
        pieces[pairs.size() + i].end(batch);
      }
    }
    if (cache_ && !cached_pairs) {
      cache_->pairs.clear();
      for (const BodyPair& p : pairs) cache_->pairs.push_back(pair_key(p.first, p.second));
      cache_->near = std::move(near);
    }
    // Joined into arrays of their exact size: grown by doubling, the faces' array alone held
    // up to twice its size at the step's peak of memory (docs/benchmarks.md, "The ninth
    // pass"). A contact's face and a face's first point are numbered anew. Each piece is
    // copied to where the pieces before it end, side by side (docs/benchmarks.md, "The
    // twenty-third pass").
    struct Place {
      std::uint32_t contact, face, point;
    };
    std::vector<Place> at(pieces.size() + 1, Place{0, 0, 0});
    for (std::size_t k = 0; k < pieces.size(); ++k) {
      const Piece& piece = pieces[k];
      at[k + 1] = {at[k].contact + piece.last_contact - piece.first_contact, at[k].face + piece.last_face - piece.first_face,
                   at[k].point + piece.last_point - piece.first_point};
    }
    FoundContacts found;
    found.contacts.resize(at.back().contact);
    found.faces.resize(at.back().face);
    found.points.resize(at.back().point);
#pragma omp parallel for schedule(dynamic, 64) if (pieces.size() >= smallest_parallel_loop)
    for (std::size_t k = 0; k < pieces.size(); ++k) {
      const Piece& piece = pieces[k];
      const Batch& batch = batches[piece.thread];
      const std::int32_t face_shift = std::int32_t(at[k].face) - std::int32_t(piece.first_face);
      const std::uint32_t point_shift = at[k].point - piece.first_point;
      for (std::uint32_t c = piece.first_contact, to = at[k].contact; c < piece.last_contact; ++c, ++to) {
        found.contacts[to] = batch.contacts[c];
        found.contacts[to].face += face_shift;
      }
      for (std::uint32_t f = piece.first_face, to = at[k].face; f < piece.last_face; ++f, ++to) {
        found.faces[to] = batch.faces[f];
        found.faces[to].first_point += point_shift;
      }
      std::copy(batch.points.begin() + piece.first_point, batch.points.begin() + piece.last_point,
                found.points.begin() + at[k].point);
    }
    return found;
  }

 private:
  double radius(std::size_t i) const { return world_.shapes[world_.shape[i]].bounding_radius * world_.scale[i]; }
  const GrainShape& shape(std::size_t i) const { return world_.shapes[world_.shape[i]]; }
  // The bounding radius is the farthest node; the level set's surface bulges a little beyond
  // it between nodes, so node culling reaches a glue distance further.
  double reach(std::size_t i) const { return radius(i) + shape(i).glue_distance * world_.scale[i]; }
  // The margin of grain i's nodes: at least a millionth of its size, so that a face touching
  // to within round-off counts as touching all over.
  double margin(std::size_t i) const { return std::max(margin_, 1e-6 * radius(i)); }

  // What the pairs and grains one thread searched touch, one after another: contacts (their
  // faces numbered within the batch), faces (their points numbered within the batch) and
  // their support points. One a thread rather than one a pair, with an array of points a face:
  // a 4000-grain heap's search let go of 27 500 faces' arrays a sweep, besides two a pair
  // (docs/benchmarks.md, "The fifteenth pass").
  struct Batch {
    std::vector<Contact> contacts;
    std::vector<SupportFace> faces;
    std::vector<SupportPoint> points;
  };
  // Where what one pair, or one grain against the walls and the terrain, touches lies in the
  // batch of the thread that searched it.
  struct Piece {
    std::uint32_t thread;
    std::uint32_t first_contact, last_contact, first_face, last_face, first_point, last_point;
    void begin(const Batch& batch, int by) {
      thread = std::uint32_t(by);
      first_contact = std::uint32_t(batch.contacts.size());
      first_face = std::uint32_t(batch.faces.size());
      first_point = std::uint32_t(batch.points.size());
    }
    void end(const Batch& batch) {
      last_contact = std::uint32_t(batch.contacts.size());
      last_face = std::uint32_t(batch.faces.size());
      last_point = std::uint32_t(batch.points.size());
    }
  };
  // A face of A on B ending the batch, its support points to come after its first.
  static void add_face(Batch& batch, std::uint32_t a, std::uint32_t b, std::int32_t wall, std::int32_t plane,
                       const Vec3& normal, std::size_t first_point) {
    batch.faces.push_back({a, b, wall, plane, normal, std::uint32_t(first_point),
                           std::uint32_t(batch.points.size() - first_point)});
  }

  static std::uint64_t pair_key(std::uint32_t first, std::uint32_t second) {
    return std::uint64_t(first) << 32 | second;
  }

  // The master's nodes in the other's level set, through the pair's near nodes when kept.
  std::vector<NodeContact> sample_pair(std::uint32_t m, std::uint32_t o, NearNodes* near) {
    const ShapeTemplate& master = *shape(m).level_set;
    const ShapeTemplate& other = *shape(o).level_set;
    if (!near) return node_contacts(master, poses_[m], other, poses_[o], margin(m), reach(o));
    const double skin = near_node_skin * other.voxel_size() * world_.scale[o];
    return node_contacts(master, poses_[m], other, poses_[o], margin(m), reach(o), skin, *near);
  }

  // Glued contacts of A's nodes in B. Against a wall they share the plane's support face;
  // between grains each is a face of its own.
  void add_patches(Batch& batch, std::uint32_t a, std::uint32_t b, std::int32_t wall, std::int32_t face,
                   const std::vector<NodeContact>& nodes) {
    if (nodes.empty()) return;
    const double glue = shape(a).glue_distance * world_.scale[a];
    for (const ContactPatch& p : glue_contacts(nodes, shape(a).glued_nodes, default_glue_angle, margin(a))) {
      std::int32_t patch_face = face;
      if (wall < 0) {
        patch_face = std::int32_t(batch.faces.size());
        const std::size_t first_point = batch.points.size();
        add_support_points(batch.points, nodes, p.members, p.normal, glue, posed_[a].position);
        add_face(batch, a, b, -1, 0, p.normal, first_point);
      }
      batch.contacts.push_back({a, b, p.point, p.normal, p.weighted_depth, wall, patch_face});
    }
  }

  // A contact of one point (a sphere's), with its face.
  void add_point_contact(Batch& batch, std::uint32_t a, std::uint32_t b, std::int32_t wall, std::int32_t plane, const Vec3& point,
                         const Vec3& normal, double depth) {
    batch.contacts.push_back({a, b, point, normal, depth, wall, std::int32_t(batch.faces.size())});
    batch.points.push_back({(point - posed_[a].position).cast<float>(), -1, depth});
    add_face(batch, a, b, wall, plane, normal, batch.points.size() - 1);
  }

  // `near`: the pair's near nodes, i's in j and j's in i, when kept.
  void grain_pair(Batch& batch, std::uint32_t i, std::uint32_t j, std::array<NearNodes, 2>* near) {
    const bool sphere_i = !shape(i).level_set, sphere_j = !shape(j).level_set;
    if (sphere_i && sphere_j) {
      const Vec3 d = posed_[i].position - posed_[j].position;
      const double gap = d.norm() - radius(i) - radius(j);
      if (gap >= std::max(margin(i), margin(j))) return;
      const Vec3 n = d / d.norm();
      add_point_contact(batch, i, j, -1, 0, posed_[j].position + n * (radius(j) + 0.5 * gap), n, -gap);
    } else if (sphere_i || sphere_j) {
      const std::uint32_t s = sphere_i ? i : j, g = sphere_i ? j : i;
      Vec3 gradient;
      const double phi = posed_value(*shape(g).level_set, poses_[g], posed_[s].position, &gradient);
      if (phi >= radius(s) + margin(s) || gradient.squaredNorm() == 0) return;
      const Vec3 n = gradient.normalized();
      add_point_contact(batch, s, g, -1, 0, posed_[s].position - 0.5 * (radius(s) + phi) * n, n, radius(s) - phi);
    } else {
      // The smaller grain's nodes sample the larger one's level set (seed 004). Between grains
      // of like size an edge of either can strike a face of the other, which the face's nodes
      // miss: both directions then (World.FastGrainsDoNotTunnel fails with one).
      const bool i_master = radius(i) <= radius(j);
      const std::uint32_t m = i_master ? i : j, o = i_master ? j : i;
      auto kept = [&](std::uint32_t master) { return near ? &(*near)[master == i ? 0 : 1] : nullptr; };
      add_patches(batch, m, o, -1, -1, sample_pair(m, o, kept(m)));
      if (radius(o) <= both_ways_ratio * radius(m)) add_patches(batch, o, m, -1, -1, sample_pair(o, m, kept(o)));
    }
  }

  void grain_wall(Batch& batch, std::uint32_t i, std::size_t w) {
    const Wall& wall = world_.walls[w];
    const std::uint32_t body = std::uint32_t(world_.grain_count() + w);
    const auto planes = wall_planes(wall, wall.velocity * dt_);
    for (std::int32_t plane = 0; plane < std::int32_t(planes.size()); ++plane) {
      const auto& [point, normal] = planes[plane];
      const double centre = normal.dot(posed_[i].position - point);
      if (centre >= radius(i) + margin(i)) continue;
      if (!shape(i).level_set) {
        add_point_contact(batch, i, body, std::int32_t(w), plane, posed_[i].position - normal * 0.5 * (centre + radius(i)), normal,
                          radius(i) - centre);
        continue;
      }
      // A node's height above the plane is the centre's plus s n_body·node: the plane's normal
      // turned into the body frame once, then a dot product a node, a cluster at a time.
      std::vector<NodeContact> nodes;
      const ShapeTemplate& level_set = *shape(i).level_set;
      const Pose& pose = poses_[i];
      const Vec3 body_normal = pose.orientation.conjugate() * normal;
      const Eigen::Vector3f body_normal_f = body_normal.cast<float>();
      const double low = (margin(i) - centre) / pose.scale;  // a node below this height touches
      level_set.for_nodes_near(
          [&](const Eigen::Vector3f& c, float radius) {
            return double(body_normal_f.dot(c)) - 1.0001 * double(radius) < low + 1e-6 * double(c.norm());  // float round-off
          },
          [&](std::uint32_t k) {
            const Vec3 node = level_set.nodes()[k].cast<double>();
            const double d = centre + pose.scale * body_normal.dot(node);
            if (d < margin(i)) nodes.push_back({k, pose.position + pose.orientation * (pose.scale * node), normal, -d});
          });
      if (nodes.empty()) continue;
      std::sort(nodes.begin(), nodes.end(), [](const NodeContact& a, const NodeContact& b) { return a.node < b.node; });
      std::vector<std::uint32_t> all(nodes.size());
      std::iota(all.begin(), all.end(), 0u);
      const std::int32_t face = std::int32_t(batch.faces.size());
      const std::size_t first_point = batch.points.size();
      add_support_points(batch.points, nodes, all, normal, shape(i).glue_distance * world_.scale[i], posed_[i].position);
      if (loaded_) keep_loaded_nodes(batch.points, first_point, nodes, *loaded_, {i, body, plane, 0}, posed_[i].position);
      add_face(batch, i, body, std::int32_t(w), plane, normal, first_point);
      add_patches(batch, i, body, std::int32_t(w), face, nodes);
    }
  }

  // The grain's nodes sampled in the terrain's level set, glued into contacts as against a
  // grain. A node below the band has no gradient there; the ground lies above it.
  void grain_terrain(Batch& batch, std::uint32_t i) {
    const TerrainField& ground = *world_.terrain;
    const std::uint32_t body = world_.terrain_body();
    if (ground.clear_of(posed_[i].position, reach(i) + margin(i))) return;
    Vec3 gradient;
    if (!shape(i).level_set) {
      const double phi = ground.value_and_gradient(posed_[i].position, gradient);
      if (phi >= radius(i) + margin(i)) return;
      const Vec3 n = gradient.squaredNorm() > 0 ? Vec3(gradient.normalized()) : Vec3::UnitZ();
      add_point_contact(batch, i, body, -1, 0, posed_[i].position - 0.5 * (radius(i) + phi) * n, n, radius(i) - phi);
      return;
    }
    // The node hierarchy walked first: a part whose ball the terrain's slope bound clears
    // holds no node below the margin (exactly: the same nodes as sampling every one, then put
    // in node order). A grain on the ground samples the parts near it, not its top
    // (docs/benchmarks.md, "Grains on the terrain"). A part's radius, kept in single
    // precision, is taken a millionth larger than it may have been rounded to.
    std::vector<NodeContact> nodes;
    const ShapeTemplate& master = *shape(i).level_set;
    const Pose& pose = poses_[i];
    const auto& template_nodes = master.nodes();
    auto node_at = [&](std::uint32_t k) { return Vec3(pose.position + pose.orientation * (pose.scale * template_nodes[k].cast<double>())); };
    // Node k at x, whose value() is `value`, where it lies below the margin.
    auto add_if_below = [&](std::uint32_t k, const Vec3& x, double value) {
      if (value >= margin(i)) return;
      const double phi = ground.value_and_gradient(x, gradient);
      const double norm = gradient.norm();
      nodes.push_back({k, x, norm > 0 ? Vec3(gradient / norm) : Vec3::UnitZ(), -phi});
    };
    // The nodes whose parts may reach below `below`, each with its value (the cheap test first).
    auto walk = [&](double below, auto&& node) {
      master.for_nodes_near(
          [&](const Eigen::Vector3f& centre, float radius) {
            return ground.may_be_below(pose.position + pose.orientation * (pose.scale * centre.cast<double>()),
                                       pose.scale * double(radius) * (1 + 1e-6), below);
          },
          [&](std::uint32_t k) {
            const Vec3 x = node_at(k);
            node(k, x, ground.value(x));
          });
    };
    // The nodes listed by the last search while they cover the grain, as a pair's are (no
    // sample where none can be below the margin, the listed ones alone where only they can);
    // else a walk a skin wider that lists them anew (docs/theory.md, "Contacts").
    TerrainNearNodes* kept = cache_ ? &cache_->terrain[i] : nullptr;
    const Pose terrain_pose{ground.origin(), Eigen::Quaterniond::Identity(), 1};
    const NearNodesState state = kept ? terrain_nodes_cover(*kept, master, pose, terrain_pose, ground.voxel_size(), margin(i))
                                      : NearNodesState{NearNodesCover::stale, 0};
    switch (state.cover) {
      case NearNodesCover::clear:
        return;
      case NearNodesCover::listed: {
        const double below = margin(i) + state.drift;
        kept->near.for_each_listed([&](std::uint32_t k, double phi) {
          if (phi >= below) return;
          const Vec3 x = node_at(k);
          add_if_below(k, x, ground.value(x));
        });
        break;  // in node order, as listed
      }
      case NearNodesCover::stale:
        if (!kept) {
          walk(margin(i), add_if_below);
        } else {
          const double listed_below = margin(i) + skin_;
          thread_local std::vector<NearNode> listed;
          listed.clear();
          walk(listed_below, [&](std::uint32_t k, const Vec3& x, double value) {
            if (value >= listed_below) return;
            listed.push_back({k, value});
            add_if_below(k, x, value);
          });
          // The slope under the ball every node stays in while the grain roams a skin.
          list_terrain_nodes(*kept, pose, terrain_pose, listed_below, listed,
                             ground.steepest_slope_under(pose.position, radius(i) * (1 + 1e-6) + skin_), skin_);
        }
        sort_by_node(nodes);
        break;
    }
    add_patches(batch, i, body, -1, -1, nodes);
  }

  const World& world_;
  const std::vector<RigidBody>& posed_;
  double dt_, margin_, skin_ = 0;
  NearNodeCache* cache_;
  const RestingImpulses* loaded_;  // nodes that carry resting impulse stay support points (find_contacts)
  const SearchShare* share_;       // this rank's part of the search; null: all
  std::vector<Pose> poses_;
};

}  // namespace

FoundContacts find_contacts(const World& world, const std::vector<RigidBody>& posed, double dt, double margin,
                            NeighbourList* neighbours, double skin, NearNodeCache* near_nodes,
                            const RestingImpulses* loaded, const SearchShare* share) {
  return ContactFinder(world, posed, dt, margin, near_nodes, loaded, share).find(neighbours, skin);
}

ContactPoint contact_point(std::vector<RigidBody>& bodies, const Contact& c) {
  return {&bodies[c.a], &bodies[c.b], c.point - bodies[c.a].position, c.point - bodies[c.b].position};
}

std::vector<Overlap> overlaps(const World& world, double fraction, const SearchShare* share) {
  auto half_width = [&](std::size_t i) { return world.shapes[world.shape[i]].smallest_half_extent * world.scale[i]; };
  std::vector<Overlap> found;
  for (const Contact& c : find_contacts(world, world.bodies, 0, 0, nullptr, 0, nullptr, nullptr, share).contacts) {
    const bool with_static = c.b >= world.grain_count();
    const double allowed = fraction * (with_static ? half_width(c.a) : std::min(half_width(c.a), half_width(c.b)));
    if (c.depth > allowed) found.push_back({c.a, with_static ? -1 : std::int64_t(c.b), c.wall, c.depth});
  }
  return found;
}

}  // namespace scree::solver
