#include "solver/ranks/resting_across_ranks.h"

#include <algorithm>
#include <array>
#include <map>
#include <numeric>
#include <set>
#include <tuple>
#include <unordered_map>

#include "solver/impulse/tiles.h"
#include "solver/ranks/body_records.h"
#include "solver/ranks/island_labels.h"
#include "solver/ranks/parcel.h"
#include "solver/ranks/tile_share.h"

namespace scree::solver {

namespace {

// A body as a resting face names it: a grain's id, or a static body's place among the static
// bodies (its wall, the terrain after them).
struct BodyName {
  std::uint64_t id;
  std::uint32_t is_static;
};

// Where one process's search puts a face: pairs by their bodies, then grains against the walls
// and the terrain, each pair's faces as found (contact_finding.h).
auto face_order(std::uint64_t a, std::uint64_t b, std::uint32_t b_static, std::uint32_t seq) {
  return b_static ? std::tuple{1u, a, b, seq} : std::tuple{0u, std::min(a, b), std::max(a, b), seq};
}

// A resting face as it travels to its island's solver, its points after it.
struct FaceRecord {
  std::uint64_t a, b;  // B as BodyName
  std::uint32_t b_static, seq;  // seq: its place among its pair's faces, as found
  std::int32_t plane;
  std::uint32_t points;
  std::uint32_t with_points;  // 0: the points went to the rank whose strip holds them (a big island's)
  double normal[3], tangent[3], friction;

  auto order() const { return face_order(a, b, b_static, seq); }
};

// A face between two grains whose points another rank solves, as the ranks that solve none of
// them need it: its bodies, its place in the order and how many points it stands for (a big
// island's schedule and strips; its frame and points stay with the rank that solves them).
struct FaceStub {
  std::uint64_t a, b;
  std::uint32_t seq;
  std::int32_t plane;
  std::uint32_t points;

  auto order() const { return face_order(a, b, 0, seq); }
};

// A grain as a rank that solves none of its units sees it: where it lies (its units' tiles)
// and how fast it moves (whether the island takes coarse steps, coarse_units()).
struct GrainGlimpse {
  std::uint64_t id;
  double position[3], velocity[3];
};

// A resting point as resting_point() built it.
struct PointRecord {
  std::int32_t node;
  float arm[3];
  double k[6];  // k_nn, k_n1, k_n2, k_11, k_12, k_22
  double touch;
};

// A grain where the sweep posed it, and its corrections so far (all a correction holds that
// the passes read or write: its velocities; the rest is the posed body's).
struct GrainState {
  std::uint64_t id;
  BodyRecord posed;
  double correction[3], angular_correction[3];
};

// A resting impulse by ids (RestingKey), and whether this step set it.
struct EntryRecord {
  std::uint64_t a, b;
  std::uint32_t b_static, this_step;
  std::int32_t plane, node;
  float impulse[3];
};

// A grain's velocities and corrections after the solve.
struct Solved {
  std::uint64_t id;
  double velocity[3], angular_velocity[3], correction[3], angular_correction[3];
};

Vec3 vec(const double* x) { return Vec3(x[0], x[1], x[2]); }
void put(const Vec3& v, double* x) { x[0] = v.x(), x[1] = v.y(), x[2] = v.z(); }

// What one rank sends an island's solver (its own part handed over as it is, the others' as
// bytes): of a big island, the faces, points and grains of the receiver's strips whole, and of
// the others' strips what the schedule needs (stubs, glimpses, a face with a static body whole
// for whether it bears the load, its points left out).
struct Part {
  int sender;
  std::vector<FaceRecord> faces;
  std::vector<FaceStub> stubs;
  std::vector<PointRecord> points;
  std::vector<GrainState> grains;
  std::vector<GrainGlimpse> glimpses;
  std::vector<EntryRecord> entries;

  bool empty() const { return faces.empty() && stubs.empty() && entries.empty(); }
  Bytes bytes() const {
    return std::move(Parcel().put(faces).put(stubs).put(points).put(grains).put(glimpses).put(entries)).bytes();
  }
  static Part read(int sender, const Bytes& bytes) {
    ParcelReader in(bytes);  // in the order written: a braced list's items are read in order
    return {sender, in.take<FaceRecord>(), in.take<FaceStub>(), in.take<PointRecord>(), in.take<GrainState>(),
            in.take<GrainGlimpse>(), in.take<EntryRecord>()};
  }
};

// What an island's solver sends back: the grains' new state and the points' impulses.
struct Reply {
  std::vector<Solved> solved;
  std::vector<EntryRecord> set;
};

// Names and indices of a world's bodies.
struct BodyNames {
  const World& world;
  BodyName name(std::uint32_t body) const {
    const std::size_t n = world.grain_count();
    return body < n ? BodyName{world.id[body], 0} : BodyName{body - n, 1};
  }
  std::uint32_t index(std::uint64_t id) const {
    return std::uint32_t(std::lower_bound(world.id.begin(), world.id.end(), id) - world.id.begin());
  }
  std::uint32_t index(std::uint64_t b, std::uint32_t b_static) const {
    return b_static ? std::uint32_t(world.grain_count() + b) : index(b);
  }
};

EntryRecord entry_record(const BodyNames& names, const RestingKey& key, const RestingImpulses::Impulse& impulse, bool this_step) {
  const BodyName b = names.name(key.b);
  return {names.world.id[key.a], b.id, b.is_static, this_step, key.plane, key.node, {impulse.x(), impulse.y(), impulse.z()}};
}

// The islands of shared_island_points or more, by label id, on every rank: each rank counts
// its faces' points by island, the island's solver adds them up, and the ranks tell each other
// which of theirs are big.
std::set<std::uint64_t> big_islands(const RestingContacts& resting, const std::vector<IslandLabel>& labels, const Ranks& ranks) {
  struct Count {
    std::uint64_t label, points;
  };
  std::map<std::uint64_t, std::pair<int, std::uint64_t>> here;  // by label: its solver, the points here
  for (const RestingPoint& p : resting.points) {
    const IslandLabel& label = labels[resting.face_of(p).a];
    auto& [solver, points] = here[label.id];
    solver = int(label.owner);
    ++points;
  }
  std::map<int, std::vector<Count>> to_solvers;
  for (const auto& [id, at] : here) to_solvers[at.first].push_back({id, at.second});
  std::vector<std::pair<int, Bytes>> outgoing;
  for (const auto& [rank, counts] : to_solvers) outgoing.emplace_back(rank, to_bytes(std::span<const Count>(counts)));
  std::map<std::uint64_t, std::uint64_t> points;
  for (const auto& [sender, bytes] : ranks.send_to_any(outgoing))
    for (const Count& c : from_bytes<Count>(bytes)) points[c.label] += c.points;
  std::vector<std::uint64_t> mine;
  for (const auto& [id, count] : points)
    if (count >= shared_island_points) mine.push_back(id);
  std::set<std::uint64_t> big;
  for (const Bytes& bytes : ranks.gather_all(to_bytes(std::span<const std::uint64_t>(mine))))
    for (std::uint64_t id : from_bytes<std::uint64_t>(bytes)) big.insert(id);
  return big;
}

// Which rank solves each tile of the big islands, on every rank (tile_share.h): each rank
// counts its faces' points by island and cell, the counts are added up over the ranks, and
// each island's phases are cut into strips as TileShare cuts them (cut_strips), so that a
// tile's points and warm starts go to the rank that solves them alone. A face's cell is found
// once, as it is counted (a cell and a search of the tiles for every face and warm start took
// a twentieth of the sharing on the demo's avalanche, docs/benchmarks.md).
class StripRanks {
 public:
  StripRanks(const RestingContacts& resting, const std::vector<IslandLabel>& labels, const std::set<std::uint64_t>& big,
             const std::vector<bool>& is_static, const std::vector<RigidBody>& posed, double width, const Ranks& ranks)
      : is_static_(is_static), posed_(posed), width_(width), face_tile_(resting.faces.size(), none) {
    struct Count {
      Key tile;
      std::uint64_t points;
    };
    std::vector<Count> mine;
    std::vector<std::pair<std::uint32_t, std::size_t>> face_count;  // a big island's face, and its count's place
    if (!big.empty())
      for (std::size_t k = 0; k < resting.points.size();) {
        const std::uint32_t f = resting.points[k].face;
        std::size_t end = k;
        while (end < resting.points.size() && resting.points[end].face == f) ++end;
        const RestingFace& face = resting.faces[f];
        if (const std::uint64_t label = labels[face.a].id; big.count(label)) {
          const Key tile = key(label, face.a, face.b);
          if (mine.empty() || mine.back().tile != tile) mine.push_back({tile, 0});
          mine.back().points += end - k;
          face_count.emplace_back(f, mine.size() - 1);
        }
        k = end;
      }
    // By island, then column and row: the tiles in their order, each rank's counts added up.
    std::vector<Count> all;
    for (const Bytes& bytes : ranks.gather_all(to_bytes(std::span<const Count>(mine)))) {
      const std::vector<Count> counts = from_bytes<Count>(bytes);
      all.insert(all.end(), counts.begin(), counts.end());
    }
    std::sort(all.begin(), all.end(), [](const Count& x, const Count& y) { return x.tile < y.tile; });
    for (const Count& c : all)
      if (!tiles_.empty() && tiles_.back().first == c.tile) points_.back() += c.points;
      else tiles_.emplace_back(c.tile, -1), points_.push_back(c.points);
    for (std::size_t at = 0; at < tiles_.size();) {
      const std::uint64_t label = tiles_[at].first.label;
      std::array<std::vector<std::uint32_t>, Tiling::phases> tiles;  // by phase, places in tiles_
      std::array<std::vector<std::uint64_t>, Tiling::phases> tile_points;
      for (; at < tiles_.size() && tiles_[at].first.label == label; ++at) {
        const std::size_t phase = std::size_t(phase_of({tiles_[at].first.column, tiles_[at].first.row}));
        tiles[phase].push_back(std::uint32_t(at));
        tile_points[phase].push_back(points_[at]);
      }
      for (std::size_t f = 0; f < tiles.size(); ++f) {
        const std::vector<std::uint32_t> cut = cut_strips(tile_points[f], ranks.size());
        for (int r = 0; r < ranks.size(); ++r)
          for (std::uint32_t t = cut[std::size_t(r)]; t < cut[std::size_t(r) + 1]; ++t) tiles_[tiles[f][t]].second = r;
      }
    }
    for (const auto& [f, count] : face_count) face_tile_[f] = find(mine[count].tile);
  }
  // The rank whose strip holds face f's unit (of a big island; −1 for the others).
  int rank_of_face(std::uint32_t f) const { return face_tile_[f] == none ? -1 : tiles_[face_tile_[f]].second; }
  // The rank whose strip holds the unit between A (a grain) and B of big island `label`; −1
  // where no point of the sweep lies in its tile.
  int rank_of(std::uint64_t label, std::uint32_t a, std::uint32_t b) const {
    const std::uint32_t at = find(key(label, a, b));
    return at == none ? -1 : tiles_[at].second;
  }

 private:
  struct Key {
    std::uint64_t label;
    std::int64_t column, row;
    auto operator<=>(const Key&) const = default;
  };
  static constexpr std::uint32_t none = ~std::uint32_t(0);
  Key key(std::uint64_t label, std::uint32_t a, std::uint32_t b) const {
    const auto cell = unit_cell(a, b, is_static_, posed_, width_);
    return {label, cell[0], cell[1]};
  }
  std::uint32_t find(const Key& tile) const {
    const auto at = std::lower_bound(tiles_.begin(), tiles_.end(), tile, [](const auto& x, const Key& k) { return x.first < k; });
    return at == tiles_.end() || at->first != tile ? none : std::uint32_t(at - tiles_.begin());
  }
  const std::vector<bool>& is_static_;
  const std::vector<RigidBody>& posed_;
  double width_;
  std::vector<std::pair<Key, int>> tiles_;  // every big island's tiles in order, each with its rank
  std::vector<std::uint64_t> points_;       // by tile
  std::vector<std::uint32_t> face_tile_;    // by face: its tile, none if not of a big island
};

// What this rank sends each island's solver: its faces with their points and bodies, and the
// store's entries of the grains it owns there. A big island goes to every rank, which solve it
// together (docs/parallel.md, "A big island across ranks"): its points, warm starts and the
// grains they touch whole to the rank whose strip holds their tile (`strips`), and to the others
// what their schedules need (Part).
std::vector<Part> parts_for_solvers(const World& world, const RestingImpulses& impulses, const RestingContacts& resting,
                                    const RestingBodies& bodies, const std::vector<char>& owned,
                                    const std::vector<IslandLabel>& labels, const std::set<std::uint64_t>& big,
                                    const StripRanks& strips, const Ranks& ranks) {
  const BodyNames names{world};
  const std::size_t n = world.grain_count(), rank_count = std::size_t(ranks.size());
  std::vector<Part> parts(rank_count, Part{ranks.rank(), {}, {}, {}, {}, {}, {}});
  enum Need : std::uint8_t { nothing, glimpse, whole };
  std::vector<std::uint8_t> need(n * rank_count, nothing);  // by grain and rank: what its part holds of it
  auto add_need = [&](std::uint32_t body, std::size_t solver, Need what) {
    if (body < n) need[body * rank_count + solver] = std::max(need[body * rank_count + solver], std::uint8_t(what));
  };
  // Each grain's solvers: its island's owner, or every rank for a big island.
  std::vector<char> in_big(n, 0);
  if (!big.empty())
    for (std::size_t i = 0; i < n; ++i) in_big[i] = big.count(labels[i].id) > 0;
  auto each_solver = [&](std::uint32_t grain, auto&& to) {
    if (!in_big[grain]) return to(std::size_t(labels[grain].owner));
    for (std::size_t r = 0; r < rank_count; ++r) to(r);
  };
  std::uint32_t seq = 0;
  std::size_t next_point = 0;
  for (std::size_t f = 0; f < resting.faces.size(); ++f) {
    const RestingFace& face = resting.faces[f];
    std::size_t end = next_point;
    while (end < resting.points.size() && resting.points[end].face == f) ++end;
    const bool same_pair = f > 0 && std::minmax(resting.faces[f - 1].a, resting.faces[f - 1].b) == std::minmax(face.a, face.b);
    seq = same_pair ? seq + 1 : 0;
    if (end == next_point) continue;  // a face that collides: no points
    const BodyName b = names.name(face.b);
    const std::uint32_t point_count = std::uint32_t(end - next_point);
    FaceRecord record{names.world.id[face.a], b.id, b.is_static, seq, face.plane, point_count, 1, {}, {}, face.friction};
    put(face.normal, record.normal);
    put(face.tangent, record.tangent);
    const int strip = strips.rank_of_face(std::uint32_t(f));
    each_solver(face.a, [&](std::size_t solver) {
      Part& part = parts[solver];
      const Need what = in_big[face.a] && int(solver) != strip ? glimpse : whole;
      add_need(face.a, solver, what);
      add_need(face.b, solver, what);
      if (what == glimpse && !b.is_static) {
        part.stubs.push_back({record.a, record.b, seq, face.plane, point_count});
        return;
      }
      part.faces.push_back(record);
      if (what == glimpse) {
        part.faces.back().with_points = 0;
        return;
      }
      for (std::size_t k = next_point; k < end; ++k) {
        const RestingPoint& p = resting.points[k];
        part.points.push_back({p.node, {p.arm.x(), p.arm.y(), p.arm.z()}, {p.k_nn, p.k_n1, p.k_n2, p.k_11, p.k_12, p.k_22}, p.touch});
      }
    });
    next_point = end;
  }
  for (std::uint32_t i = 0; i < n; ++i)
    for (std::size_t solver = 0; solver < rank_count; ++solver) {
      const RigidBody& posed = bodies.velocities[i];
      if (need[i * rank_count + solver] == glimpse) {
        GrainGlimpse& g = parts[solver].glimpses.emplace_back(GrainGlimpse{world.id[i], {}, {}});
        put(posed.position, g.position);
        put(posed.velocity, g.velocity);
      } else if (need[i * rank_count + solver] == whole) {
        GrainState& g = parts[solver].grains.emplace_back(GrainState{world.id[i], record_of(posed), {}, {}});
        put(bodies.corrections[i].velocity, g.correction);
        put(bodies.corrections[i].angular_velocity, g.angular_correction);
      }
    }
  for (std::uint32_t i = 0; i < n; ++i) {
    if (!owned[i]) continue;
    int strip = -1;  // of the last entry's unit: a unit's entries lie together (key order)
    for (const RestingImpulses::Entry* e = nullptr; const RestingImpulses::Entry& entry : impulses.of_grain(i)) {
      const EntryRecord record = entry_record(names, entry.first, entry.second, impulses.set_this_step(entry));
      if (!in_big[i]) {
        parts[std::size_t(labels[i].owner)].entries.push_back(record);
        continue;
      }
      if (!e || e->first.b != entry.first.b) strip = strips.rank_of(labels[i].id, i, entry.first.b);
      e = &entry;
      if (strip >= 0) parts[std::size_t(strip)].entries.push_back(record);  // none where no point of the sweep is
    }
  }
  return parts;
}

// Solves the islands whose parts came here on a world of their own (their grains in id order,
// then the world's static bodies), by the rest() one process runs; returns the totals and, by
// sender, the new state of the grains it sent and the impulses of the points it sent (of a
// big island, those this rank reports: shared.reports and shared.solved).
RestingTotals solve_here(const World& world, const RestingBodies& bodies, std::vector<Part>& parts,
                         const RestingSettings& settings, PhaseTimes& times, const Ranks& ranks,
                         std::map<int, Reply>& replies) {
  std::vector<const GrainState*> grains;
  for (const Part& part : parts)
    for (const GrainState& g : part.grains) grains.push_back(&g);
  std::sort(grains.begin(), grains.end(), [](const GrainState* x, const GrainState* y) { return x->id < y->id; });
  grains.erase(std::unique(grains.begin(), grains.end(), [](const GrainState* x, const GrainState* y) { return x->id == y->id; }),
               grains.end());
  // The grains this rank sees only (another rank solves all their units), where none came whole.
  std::vector<const GrainGlimpse*> glimpses;
  for (const Part& part : parts)
    for (const GrainGlimpse& g : part.glimpses) glimpses.push_back(&g);
  std::sort(glimpses.begin(), glimpses.end(), [](const GrainGlimpse* x, const GrainGlimpse* y) { return x->id < y->id; });
  World local;
  std::vector<RigidBody> posed, corrections;
  const std::size_t statics = bodies.velocities.size() - world.grain_count();
  posed.reserve(grains.size() + glimpses.size() + statics);
  corrections.reserve(grains.size() + glimpses.size() + statics);
  // Both in id order, merged: a grain seen only has its place and velocity and no mass (the
  // passes never move it here), and no correction.
  auto glimpse = glimpses.begin();
  auto add_glimpses_below = [&](std::uint64_t id) {
    for (; glimpse != glimpses.end() && (*glimpse)->id < id; ++glimpse) {
      if (!local.id.empty() && local.id.back() == (*glimpse)->id) continue;
      local.id.push_back((*glimpse)->id);
      RigidBody& body = posed.emplace_back();
      body.position = vec((*glimpse)->position);
      body.velocity = vec((*glimpse)->velocity);
      corrections.push_back(body);
      corrections.back().velocity = Vec3::Zero();
    }
    for (; glimpse != glimpses.end() && (*glimpse)->id == id; ++glimpse) {}
  };
  for (const GrainState* g : grains) {
    add_glimpses_below(g->id);
    local.id.push_back(g->id);
    posed.push_back(body_of(g->posed));
    corrections.push_back(posed.back());
    corrections.back().velocity = vec(g->correction);
    corrections.back().angular_velocity = vec(g->angular_correction);
  }
  add_glimpses_below(~std::uint64_t(0));
  // The local world names the grains and holds the walls and the terrain, all that the solve's
  // books read of it (solve_resting_islands()); the bodies are `posed`, not copied into it.
  const std::size_t n = local.id.size(), statics_from = world.grain_count();
  local.walls = world.walls;
  local.terrain = world.terrain;
  posed.insert(posed.end(), bodies.velocities.begin() + std::ptrdiff_t(statics_from), bodies.velocities.end());
  corrections.insert(corrections.end(), bodies.corrections.begin() + std::ptrdiff_t(statics_from), bodies.corrections.end());
  std::vector<bool> is_static(posed.size(), false);
  std::fill(is_static.begin() + std::ptrdiff_t(n), is_static.end(), true);
  const BodyNames names{local};
  // A body by name, if held here: by a table of the ids, as every face and warm start asks
  // (a search through the ids each time was a tenth of the sharing, docs/benchmarks.md).
  constexpr std::uint32_t absent = ~std::uint32_t(0);
  std::unordered_map<std::uint64_t, std::uint32_t> index_of;
  index_of.reserve(2 * n);
  for (std::uint32_t i = 0; i < n; ++i) index_of.emplace(local.id[i], i);
  auto held = [&](std::uint64_t id, std::uint32_t is_static_body) {
    if (is_static_body) return names.index(id, 1);
    const auto at = index_of.find(id);
    return at == index_of.end() ? absent : at->second;
  };

  // The faces in one process's order, each with its points, its bodies and where it came from
  // (a face whose points another rank solves: a stub, or a record without points).
  struct Face {
    decltype(FaceRecord().order()) order;
    const FaceRecord* record;
    const FaceStub* stub;
    const PointRecord* points;
    std::uint32_t part, a, b;
  };
  // Each part's faces and stubs come in the order its sender found them, which is that order
  // already (sorted here if not): merged, not sorted (a sort was a twentieth of the sharing,
  // docs/benchmarks.md). No two faces share a key: a pair is searched by one rank.
  std::vector<Face> faces;
  std::vector<std::size_t> part_start;  // in faces
  auto before = [](const Face& x, const Face& y) { return x.order < y.order; };
  auto merge_runs = [&](std::size_t first, std::size_t middle) {
    const auto begin = faces.begin() + std::ptrdiff_t(first), cut = faces.begin() + std::ptrdiff_t(middle);
    if (std::is_sorted(begin, cut, before) && std::is_sorted(cut, faces.end(), before)) std::inplace_merge(begin, cut, faces.end(), before);
    else std::sort(begin, faces.end(), before);
  };
  for (std::size_t k = 0; k < parts.size(); ++k) {
    part_start.push_back(faces.size());
    for (std::size_t f = 0, point = 0; f < parts[k].faces.size(); point += parts[k].faces[f].with_points ? parts[k].faces[f].points : 0, ++f) {
      const FaceRecord& r = parts[k].faces[f];
      faces.push_back({r.order(), &r, nullptr, parts[k].points.data() + point, std::uint32_t(k), held(r.a, 0), held(r.b, r.b_static)});
    }
    const std::size_t stubs_start = faces.size();
    for (const FaceStub& stub : parts[k].stubs)
      faces.push_back({stub.order(), nullptr, &stub, nullptr, std::uint32_t(k), held(stub.a, 0), held(stub.b, 0)});
    merge_runs(part_start.back(), stubs_start);
  }
  part_start.push_back(faces.size());
  for (std::size_t width = 1; width + 1 < part_start.size(); width *= 2)  // runs of `width` parts merged in pairs
    for (std::size_t k = 0; k + width + 1 < part_start.size(); k += 2 * width)
      std::inplace_merge(faces.begin() + std::ptrdiff_t(part_start[k]), faces.begin() + std::ptrdiff_t(part_start[k + width]),
                         faces.begin() + std::ptrdiff_t(part_start[std::min(k + 2 * width, part_start.size() - 1)]), before);
  RestingContacts resting;
  std::size_t point_count = 0;
  for (const Face& face : faces) point_count += face.record && face.record->with_points ? face.record->points : 1;
  resting.faces.reserve(faces.size());
  resting.points.reserve(point_count);
  std::vector<const Face*> face_of_point;  // as built
  face_of_point.reserve(point_count);
  SharedIslands shared{ranks, {}, {}, {}, {}, {}};
  shared.given.reserve(point_count);
  shared.stands_for.reserve(point_count);
  // One place holder for a face's points that another rank solves.
  auto hold_place = [&](const Face& face, std::uint32_t index, std::uint32_t points) {
    face_of_point.push_back(&face);
    shared.given.push_back(0);
    shared.stands_for.push_back(points);
    RestingPoint& p = resting.points.emplace_back();
    p.node = -1;
    p.face = index;
    p.stored = RestingImpulses::none;
  };
  for (const Face& face : faces) {
    const std::uint32_t index = std::uint32_t(resting.faces.size());
    if (face.stub) {  // its frame is never read here: no point of it is solved or booked here
      resting.faces.push_back({Vec3::Zero(), Vec3::Zero(), 0, face.a, face.b, face.stub->plane});
      hold_place(face, index, face.stub->points);
      continue;
    }
    const FaceRecord& r = *face.record;
    resting.faces.push_back({vec(r.normal), vec(r.tangent), r.friction, face.a, face.b, r.plane});
    if (!r.with_points) {
      hold_place(face, index, r.points);
      continue;
    }
    for (std::uint32_t k = 0; k < r.points; ++k) {
      face_of_point.push_back(&face);
      shared.given.push_back(1);
      shared.stands_for.push_back(1);
      const PointRecord& q = face.points[k];
      RestingPoint& p = resting.points.emplace_back();
      p.node = q.node;
      p.face = index;
      p.arm = Eigen::Vector3f(q.arm[0], q.arm[1], q.arm[2]);
      p.stored = RestingImpulses::none;
      std::tie(p.k_nn, p.k_n1, p.k_n2, p.k_11, p.k_12, p.k_22) = std::tuple(q.k[0], q.k[1], q.k[2], q.k[3], q.k[4], q.k[5]);
      p.touch = q.touch;
      p.held = Vec3::Zero();
      p.push_impulse = 0;
      p.change = p.direction = Eigen::Vector3f::Zero();
    }
  }
  // The store of these grains: the last step's entries, then what this step set.
  std::vector<RestingImpulses::Entry> last, now;
  for (const Part& part : parts)
    for (const EntryRecord& e : part.entries) {
      const std::uint32_t a = held(e.a, 0), b = held(e.b, e.b_static);
      if (a == absent || b == absent) continue;
      const RestingImpulses::Entry entry{{a, b, e.plane, e.node}, RestingImpulses::Impulse(e.impulse[0], e.impulse[1], e.impulse[2])};
      (e.this_step ? now : last).push_back(entry);
    }
  RestingImpulses store(std::move(last));
  store.update(now.size(), [&](std::size_t k) { return now[k].first; }, [&](std::size_t k) { return now[k].second; });

  // Read into the faces, points, bodies and store: let go before the solve's peak (the faces
  // and grains stay for the replies).
  for (Part& part : parts) {
    part.stubs = {};
    part.points = {};
    part.glimpses = {};
    part.entries = {};
  }
  RestingBodies local_bodies(posed, corrections);
  RestingTotals totals = solve_resting_islands(local, is_static, store, resting, local_bodies, settings, times, &shared);

  // Each point's impulse to the rank that sent it, as the store keeps it (single precision).
  std::vector<std::vector<EntryRecord>> set(parts.size());
  for (std::size_t k = 0; k < face_of_point.size(); ++k) {
    const std::uint32_t at = shared.placed[k];
    if (!shared.solved[at]) continue;
    const FaceRecord& r = *face_of_point[k]->record;
    const RestingImpulses::Impulse impulse = resting.impulse(resting.points[at]).cast<float>();
    set[face_of_point[k]->part].push_back({r.a, r.b, r.b_static, 1, r.plane, resting.points[at].node, {impulse.x(), impulse.y(), impulse.z()}});
  }
  for (std::size_t k = 0; k < parts.size(); ++k) {
    Reply& reply = replies[parts[k].sender];  // one part a sender
    for (const GrainState& g : parts[k].grains) {
      const std::uint32_t i = names.index(g.id);
      if (!shared.reports[i]) continue;
      Solved s{g.id, {}, {}, {}, {}};
      put(posed[i].velocity, s.velocity);
      put(posed[i].angular_velocity, s.angular_velocity);
      put(corrections[i].velocity, s.correction);
      put(corrections[i].angular_velocity, s.angular_correction);
      reply.solved.push_back(s);
    }
    reply.set = std::move(set[k]);
  }
  return totals;
}

}  // namespace

RestingTotals rest_across_ranks(const World& world, const std::vector<bool>& is_static, RestingImpulses& impulses,
                                const RestingContacts& resting, RestingBodies& bodies, const std::vector<char>& owned,
                                const Halo& halo, const Ranks& ranks, RestingSettings settings, PhaseTimes& times) {
  const PhaseRemainder sharing(times, Phase::ranks);
  RestingTotals totals(world.walls.size());
  if (ranks.max(resting.points.empty() ? 0.0 : 1.0) == 0) return totals;
  const std::size_t n = world.grain_count();
  // The islands, and the tiles' width over every rank's faces (tiles.h).
  std::vector<std::pair<std::uint32_t, std::uint32_t>> links, units;
  for (std::size_t f = 0, k = 0; f < resting.faces.size(); ++f) {
    const RestingFace& face = resting.faces[f];
    const bool has_points = k < resting.points.size() && resting.points[k].face == f;
    while (k < resting.points.size() && resting.points[k].face == f) ++k;
    if (!has_points) continue;
    units.emplace_back(face.a, face.b);
    if (!is_static[face.b]) links.emplace_back(face.a, face.b);
  }
  settings.touching_reach = ranks.max(farthest_touching(units, is_static, bodies.velocities));
  const std::vector<IslandLabel> labels = island_labels(world.id, links, halo, ranks);
  const std::set<std::uint64_t> big = big_islands(resting, labels, ranks);

  // The parts to the islands' solvers: this rank's own kept as they are, the others' as bytes.
  std::vector<Part> parts;
  std::vector<std::pair<int, Bytes>> outgoing;
  {
    const StripRanks strips(resting, labels, big, is_static, bodies.velocities,
                            tile_width(settings.touching_reach, settings.largest_reach), ranks);
    std::vector<Part> to_solvers = parts_for_solvers(world, impulses, resting, bodies, owned, labels, big, strips, ranks);
    for (std::size_t r = 0; r < to_solvers.size(); ++r)
      if (to_solvers[r].empty()) continue;
      else if (int(r) == ranks.rank()) parts.push_back(std::move(to_solvers[r]));
      else outgoing.emplace_back(int(r), to_solvers[r].bytes());
  }
  for (const auto& [sender, bytes] : ranks.send_to_any(outgoing)) parts.push_back(Part::read(sender, bytes));
  std::map<int, Reply> replies;
  if (!parts.empty()) totals = solve_here(world, bodies, parts, settings, times, ranks, replies);
  outgoing.clear();
  for (const auto& [rank, reply] : replies)
    if (rank != ranks.rank()) outgoing.emplace_back(rank, std::move(Parcel().put(reply.solved).put(reply.set)).bytes());

  // The new state and impulses to the ranks that sent them, on to the grains' owners.
  const BodyNames names{world};
  std::vector<std::uint32_t> owner_partner(n, 0);
  for (std::size_t k = 0; k < halo.partners.size(); ++k)
    for (std::uint32_t i : halo.take[k]) owner_partner[i] = std::uint32_t(k);
  std::vector<std::vector<Solved>> solved_to_owners(halo.partners.size());
  std::vector<std::vector<EntryRecord>> set_to_owners(halo.partners.size());
  std::vector<RestingImpulses::Entry> set_here;
  auto set = [&](const EntryRecord& e, std::uint32_t a) {
    set_here.push_back({{a, names.index(e.b, e.b_static), e.plane, e.node},
                        RestingImpulses::Impulse(e.impulse[0], e.impulse[1], e.impulse[2])});
  };
  auto take_solved = [&](const Solved& s) {
    const std::uint32_t i = names.index(s.id);
    bodies.velocities[i].velocity = vec(s.velocity);
    bodies.velocities[i].angular_velocity = vec(s.angular_velocity);
    bodies.corrections[i].velocity = vec(s.correction);
    bodies.corrections[i].angular_velocity = vec(s.angular_correction);
    return i;
  };
  auto take_reply = [&](const std::vector<Solved>& solved, const std::vector<EntryRecord>& entries) {
    for (const Solved& s : solved)
      if (const std::uint32_t i = take_solved(s); !owned[i]) solved_to_owners[owner_partner[i]].push_back(s);
    for (const EntryRecord& e : entries)
      if (const std::uint32_t a = names.index(e.a); owned[a]) set(e, a);
      else set_to_owners[owner_partner[a]].push_back(e);
  };
  if (const auto own = replies.find(ranks.rank()); own != replies.end()) take_reply(own->second.solved, own->second.set);
  for (const auto& [sender, bytes] : ranks.send_to_any(outgoing)) {
    ParcelReader in(bytes);
    const std::vector<Solved> solved = in.take<Solved>();
    take_reply(solved, in.take<EntryRecord>());
  }
  std::vector<Bytes> to_owners;
  for (std::size_t k = 0; k < halo.partners.size(); ++k)
    to_owners.push_back(std::move(Parcel().put(solved_to_owners[k]).put(set_to_owners[k])).bytes());
  for (const Bytes& bytes : ranks.exchange(halo.partners, to_owners)) {
    ParcelReader in(bytes);
    for (const Solved& s : in.take<Solved>()) take_solved(s);
    for (const EntryRecord& e : in.take<EntryRecord>()) set(e, names.index(e.a));
  }
  // Set in place where the store has the key (a settled heap meets nearly every point again,
  // as rest()'s books do); the rest merged in.
  std::vector<RestingImpulses::Entry> added;
  for (const RestingImpulses::Entry& e : set_here)
    if (const std::uint32_t place = impulses.place_of(e.first); place != RestingImpulses::none) impulses.set_at(place, e.second);
    else added.push_back(e);
  impulses.update(
      added.size(), [&](std::size_t k) { return added[k].first; }, [&](std::size_t k) { return added[k].second; });
  refresh_halo(bodies.velocities, halo, ranks);
  refresh_halo(bodies.corrections, halo, ranks);
  totals.sum_across(ranks);
  return totals;
}

}  // namespace scree::solver
