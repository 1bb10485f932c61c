#include "solver/ranks/resting_across_ranks.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <map>
#include <numeric>
#include <set>
#include <tuple>

#include "solver/impulse/tiles.h"
#include "solver/id_index.h"
#include "solver/let_go.h"
#include "solver/ranks/body_records.h"
#include "solver/ranks/island_labels.h"
#include "solver/ranks/island_solvers.h"
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

// A resting face as it travels to its island's solver, its points after it.
struct FaceRecord {
  std::uint64_t a, b;  // B as BodyName
  std::uint32_t b_static, seq;  // seq: its place among its pair's faces, as found
  std::int32_t plane;
  std::uint32_t points;
  std::uint32_t big;  // its island's place among the big islands in label order, SharedIslands::none for a small one's
  double normal[3], tangent[3], friction;

  // Where one process's search puts it: pairs by their bodies, then grains against the walls
  // and the terrain, each pair's faces as found (contact_finding.h).
  auto order() const { return b_static ? std::tuple{1u, a, b, seq} : std::tuple{0u, std::min(a, b), std::max(a, b), seq}; }
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

// Sorts `items`, made of runs each in order (run k from starts[k] to starts[k + 1], the last
// start its end), by merging the runs in pairs: the ranks' lists come each in order, and a sort
// of them all was a twentieth of the sharing (docs/benchmarks.md).
template <class T, class Less>
void merge_runs(std::vector<T>& items, const std::vector<std::size_t>& starts, Less less) {
  for (std::size_t width = 1; width + 1 < starts.size(); width *= 2)
    for (std::size_t k = 0; k + width + 1 < starts.size(); k += 2 * width)
      std::inplace_merge(items.begin() + std::ptrdiff_t(starts[k]), items.begin() + std::ptrdiff_t(starts[k + width]),
                         items.begin() + std::ptrdiff_t(starts[std::min(k + 2 * width, starts.size() - 1)]), less);
}

// What one rank sends an island's solver (its own part handed over as it is, the others' as
// bytes): of a big island, the faces, points and grains of the receiver's strips.
struct Part {
  int sender;
  std::vector<FaceRecord> faces;
  std::vector<PointRecord> points;
  std::vector<GrainState> grains;
  std::vector<EntryRecord> entries;

  bool empty() const { return faces.empty() && entries.empty(); }
  Bytes bytes() const { return Parcel::of(faces, points, grains, entries); }
  static Part read(int sender, const Bytes& bytes) {
    ParcelReader in(bytes);  // in the order written: a braced list's items are read in order
    return {sender, in.take<FaceRecord>(), in.take<PointRecord>(), in.take<GrainState>(), in.take<EntryRecord>()};
  }
};

// What an island's solver sends back: the grains' new state and the points' impulses.
struct Reply {
  std::vector<Solved> solved;
  std::vector<EntryRecord> set;
  // Of this rank's own part alone, where the replies' grains and points' bodies lie in its
  // world (by solved; by set, A and B): taken by place, not by id.
  std::vector<std::uint32_t> solved_at;
  std::vector<std::array<std::uint32_t, 2>> set_at;
};

// Names of a world's bodies (GrainIndices finds them again).
struct BodyNames {
  const World& world;
  BodyName name(std::uint32_t body) const {
    const std::size_t n = world.grain_count();
    return body < n ? BodyName{world.id[body], 0} : BodyName{body - n, 1};
  }
};

// The world's index of each grain named, searched outward from the last one found: a reply
// names a face's bodies point after point and its grains in id order, so most searches end at
// or beside the last (a search through all the ids each time was a twentieth of the sharing,
// docs/benchmarks.md, "Searches that start where the last ended").
class GrainIndices {
 public:
  explicit GrainIndices(const World& world) : ids_(world.id) {}
  std::uint32_t operator()(std::uint64_t id) {
    const std::size_t n = ids_.size();
    std::size_t from = 0, to = n;  // the first id not below `id` lies in [from, to]
    if (last_ < n && ids_[last_] < id) {
      from = last_ + 1, to = from;
      for (std::size_t step = 1; to < n && ids_[to] < id; step *= 2) from = to + 1, to = std::min(n, from + step);
    } else if (last_ < n) {
      from = last_, to = last_;
      for (std::size_t step = 1; from > 0 && ids_[from - 1] >= id; step *= 2) to = from - 1, from = to > step ? to - step : 0;
    }
    last_ = std::size_t(std::lower_bound(ids_.begin() + std::ptrdiff_t(from), ids_.begin() + std::ptrdiff_t(to), id) - ids_.begin());
    return std::uint32_t(last_);
  }

 private:
  const std::vector<std::uint64_t>& ids_;
  std::size_t last_ = ~std::size_t(0);
};

EntryRecord entry_record(const BodyNames& names, const RestingKey& key, const RestingImpulses::Impulse& impulse, bool this_step) {
  const BodyName b = names.name(key.b);
  return {names.world.id[key.a], b.id, b.is_static, this_step, key.plane, key.node, {impulse.x(), impulse.y(), impulse.z()}};
}

// The passes' work of a unit beside its points', in points: a unit's bodies are read and
// written once a pass, a point's impulse once (fitted to the demo's avalanche on two ranks,
// 0.09 µs a unit and 0.018 µs a point a pass; docs/benchmarks.md, "Strips by their work and
// the ranks' pace").
constexpr std::uint64_t unit_work_in_points = 5;

// Which rank solves each tile of the big islands, on every rank (tile_share.h): each rank
// counts its faces' work (points and units) by island and cell, the counts are added up over
// the ranks, and each island's phases are cut into strips as TileShare cuts them
// (cut_strips), so that a tile's points and warm starts go to the rank that solves them alone.
// Each rank's share is its pace (`pace`: the seconds a unit of work took it in its last
// strips, StripPace; 0 where not known), every rank's gathered with the counts: a rank the
// machine slows gets less (docs/parallel.md, "A big island across ranks"). A face's cell is
// found once, as it is counted (a cell and a search of the tiles for every face and warm start
// took a twentieth of the sharing on the demo's avalanche, docs/benchmarks.md).
class StripRanks {
 public:
  StripRanks(const RestingContacts& resting, const std::vector<IslandLabel>& labels, const std::set<std::uint64_t>& big,
             const std::vector<bool>& is_static, const std::vector<RigidBody>& posed, double width, double pace,
             const Ranks& ranks)
      : is_static_(is_static), posed_(posed), width_(width), face_tile_(resting.faces.size(), none) {
    struct Count {
      Key tile;
      std::uint64_t work;
    };
    std::vector<Count> faces;  // a big island's faces' tiles and work, by face
    std::vector<std::uint32_t> face_of;
    if (!big.empty())
      for (std::size_t k = 0; k < resting.points.size();) {
        const std::uint32_t f = resting.points[k].face;
        std::size_t end = k;
        while (end < resting.points.size() && resting.points[end].face == f) ++end;
        const RestingFace& face = resting.faces[f];
        if (const std::uint64_t label = labels[face.a].id; big.count(label)) {
          const RestingFace* last = face_of.empty() ? nullptr : &resting.faces[face_of.back()];
          const bool new_unit = !last || last->a != face.a || last->b != face.b;  // a unit's faces lie together
          faces.push_back({key(label, face.a, face.b), (end - k) + (new_unit ? unit_work_in_points : 0)});
          face_of.push_back(f);
        }
        k = end;
      }
    // This rank's counts by tile (one a tile: faces lie by pair, not by tile), then every
    // rank's added up by island, column and row: the tiles in their order.
    // Added up in a table by the tiles' keys, then the tiles sorted: a sort of the faces was a
    // tenth of the sharing (docs/benchmarks.md, "Strips by their work and the ranks' pace").
    std::vector<Count> mine;
    {
      std::vector<std::uint32_t> slot_count = empty_slots(faces.size());
      for (const Count& c : faces) {
        std::uint32_t& count = slot_count[slot(slot_count, c.tile, [&](std::uint32_t k) { return mine[k].tile; })];
        if (count == none) count = std::uint32_t(mine.size()), mine.push_back(c);
        else mine[count].work += c.work;
      }
    }
    std::sort(mine.begin(), mine.end(), [](const Count& x, const Count& y) { return x.tile < y.tile; });
    // Every rank's tiles, held by each rank through its islands' setup: made at their size
    // (docs/benchmarks.md, "Held no longer than read"); each rank's pace after them.
    std::vector<Count> all;
    std::vector<double> shares;  // by rank: its share of each phase's work
    {
      Bytes bytes = to_bytes(std::span<const Count>(mine));
      bytes.resize(bytes.size() + sizeof(double));
      std::memcpy(bytes.data() + bytes.size() - sizeof(double), &pace, sizeof(double));
      std::vector<Bytes> every = ranks.gather_all(bytes);
      bytes = Bytes();
      std::vector<std::size_t> starts{0};  // each rank's, in order
      for (const Bytes& b : every) starts.push_back(starts.back() + (b.size() - sizeof(double)) / sizeof(Count));
      all.resize(starts.back());
      for (std::size_t r = 0; r < every.size(); ++r) {
        if (starts[r + 1] > starts[r]) std::memcpy(all.data() + starts[r], every[r].data(), (starts[r + 1] - starts[r]) * sizeof(Count));
        double rank_pace;
        std::memcpy(&rank_pace, every[r].data() + every[r].size() - sizeof(double), sizeof(double));
        shares.push_back(rank_pace > 0 ? 1 / rank_pace : 0);
        every[r] = Bytes();  // copied: the merge's buffer (half the tiles at most) in its place
      }
      merge_runs(all, starts, [](const Count& x, const Count& y) { return x.tile < y.tile; });
    }
    // Even shares until every rank's pace is known.
    if (std::find(shares.begin(), shares.end(), 0.0) != shares.end()) shares.assign(shares.size(), 1.0);
    std::size_t distinct = 0;
    for (std::size_t k = 0; k < all.size(); ++k) distinct += k == 0 || all[k - 1].tile != all[k].tile;
    tiles_.reserve(distinct);
    work_.reserve(distinct);
    for (const Count& c : all)
      if (!tiles_.empty() && tiles_.back().first == c.tile) work_.back() += c.work;
      else tiles_.emplace_back(c.tile, -1), work_.push_back(c.work);
    for (std::size_t at = 0; at < tiles_.size();) {
      const std::uint64_t label = tiles_[at].first.label;
      std::array<std::vector<std::uint32_t>, Tiling::phases> tiles;  // by phase, places in tiles_
      std::array<std::vector<std::uint64_t>, Tiling::phases> tile_work;
      for (; at < tiles_.size() && tiles_[at].first.label == label; ++at) {
        const std::size_t phase = std::size_t(phase_of({tiles_[at].first.column, tiles_[at].first.row}));
        tiles[phase].push_back(std::uint32_t(at));
        tile_work[phase].push_back(work_[at]);
      }
      for (std::size_t f = 0; f < tiles.size(); ++f) {
        const std::vector<std::uint32_t> cut = cut_strips(tile_work[f], shares);
        for (int r = 0; r < ranks.size(); ++r)
          for (std::uint32_t t = cut[std::size_t(r)]; t < cut[std::size_t(r) + 1]; ++t) {
            tiles_[tiles[f][t]].second = r;
            if (r == ranks.rank()) my_work_ += tile_work[f][t];
          }
      }
    }
    // Each tile's place by a hash of its key: a search of the sorted tiles for every face,
    // warm start and sharer was a fifth of the sharing (docs/benchmarks.md, "Strips by their
    // work and the ranks' pace").
    slot_tile_ = empty_slots(tiles_.size());
    for (std::uint32_t t = 0; t < tiles_.size(); ++t) slot_tile_[slot(slot_tile_, tiles_[t].first, [&](std::uint32_t k) { return tile_key(k); })] = t;
    // A pair's faces lie together, in one tile: found once.
    for (std::size_t k = 0; k < faces.size(); ++k)
      face_tile_[face_of[k]] = k > 0 && faces[k].tile == faces[k - 1].tile ? face_tile_[face_of[k - 1]] : find(faces[k].tile);
  }
  // The rank whose strip holds face f's unit (of a big island; −1 for the others).
  int rank_of_face(std::uint32_t f) const { return face_tile_[f] == none ? -1 : tiles_[face_tile_[f]].second; }
  // The rank whose strip holds the unit between A (a grain) and B of big island `label`; −1
  // where no point of the sweep lies in its tile.
  int rank_of(std::uint64_t label, std::uint32_t a, std::uint32_t b) const {
    const auto cell = unit_cell(a, b, is_static_, posed_, width_);
    return rank_of_cell(label, cell);
  }
  // The rank whose strip holds the tile of big island `label` at `cell`; −1 where it has none.
  int rank_of_cell(std::uint64_t label, const std::array<std::int64_t, 2>& cell) const {
    const std::uint32_t at = find({label, cell[0], cell[1]});
    return at == none ? -1 : tiles_[at].second;
  }
  double width() const { return width_; }
  // The work of this rank's strips (points and units, as counted for the cuts).
  std::uint64_t my_work() const { return my_work_; }
  // Lets go of the tiles once the parts and the sharers are made, before the islands' solve:
  // every rank's tiles of every big island, at a rank's peak of memory (docs/benchmarks.md,
  // "Held no longer than read"). It answers −1 for every face and tile afterwards.
  void let_go() {
    solver::let_go(tiles_);
    solver::let_go(work_);
    solver::let_go(face_tile_);
    solver::let_go(slot_tile_);
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
  // Tables of keys, open addressed: slots for `count` keys (twice as many, a power of two),
  // and the slot that holds `tile` or the free one where it would go (`key_of` an entry's key).
  static std::vector<std::uint32_t> empty_slots(std::size_t count) {
    std::size_t slots = 16;
    while (slots < 2 * count) slots *= 2;
    return std::vector<std::uint32_t>(slots, none);
  }
  template <class KeyOf>
  static std::size_t slot(const std::vector<std::uint32_t>& slots, const Key& tile, const KeyOf& key_of) {
    const std::uint64_t h = tile.label * 0x9E3779B97F4A7C15u ^ std::uint64_t(tile.column) * 0xC2B2AE3D27D4EB4Fu ^
                            std::uint64_t(tile.row) * 0x165667B19E3779F9u;
    std::size_t at = std::size_t(h ^ h >> 29) & (slots.size() - 1);
    while (slots[at] != none && key_of(slots[at]) != tile) at = (at + 1) & (slots.size() - 1);
    return at;
  }
  const Key& tile_key(std::uint32_t t) const { return tiles_[t].first; }
  std::uint32_t find(const Key& tile) const { return slot_tile_.empty() ? none : slot_tile_[slot(slot_tile_, tile, [&](std::uint32_t k) { return tile_key(k); })]; }
  const std::vector<bool>& is_static_;
  const std::vector<RigidBody>& posed_;
  double width_;
  std::vector<std::pair<Key, int>> tiles_;  // every big island's tiles in order, each with its rank
  std::vector<std::uint64_t> work_;         // by tile
  std::uint64_t my_work_ = 0;
  std::vector<std::uint32_t> face_tile_;    // by face: its tile, none if not of a big island
  std::vector<std::uint32_t> slot_tile_;    // by slot() of a tile's key: the tile, or none
};

// A face this rank solves itself, left where the sweep found it (its points
// resting.points[first .. end)) for the local island to take in place (solve_here).
struct OwnFace {
  decltype(FaceRecord().order()) order;
  std::uint32_t face, first, end, big;
};

// What this rank solves of what it holds, read where it lies rather than made into records: a
// rank solves 98 % of the points it finds, and their records beside the island made of them
// were a tenth of its heap's peak, its grains' and warm starts' another tenth
// (docs/benchmarks.md, "A rank lets go as it goes" and "Its own part where it lies").
struct OwnShare {
  std::vector<OwnFace> faces;  // in one process's order (else they go as records)
  std::vector<std::uint32_t> grains;  // the world's, in id order
  std::vector<const RestingImpulses::Entry*> entries;  // of the rank's store

  bool empty() const { return faces.empty() && grains.empty() && entries.empty(); }
};

FaceRecord face_record(const BodyNames& names, const RestingFace& face, std::uint32_t seq, std::uint32_t points, std::uint32_t big) {
  const BodyName b = names.name(face.b);
  FaceRecord record{names.world.id[face.a], b.id, b.is_static, seq, face.plane, points, big, {}, {}, face.friction};
  put(face.normal, record.normal);
  put(face.tangent, record.tangent);
  return record;
}

void add_face(Part& part, const FaceRecord& record, const RestingPoint* points) {
  part.faces.push_back(record);
  for (const RestingPoint* p = points; p != points + record.points; ++p)
    part.points.push_back({p->node, {p->arm.x(), p->arm.y(), p->arm.z()}, {p->k_nn, p->k_n1, p->k_n2, p->k_11, p->k_12, p->k_22}, p->touch});
}

// What this rank sends each island's solver (`solvers`): its faces with their points and bodies,
// and the store's entries of the grains it owns there. A big island's go to the ranks that solve it
// together (docs/parallel.md, "A big island across ranks"): each face with its points, its
// warm starts and its grains to the rank whose strip holds its tile (`strips`). What this rank
// solves itself is listed in `own`, not made into records (its faces where they lie in one
// process's order already, as the search finds them; else they are records too).
std::vector<Part> parts_for_solvers(const World& world, const RestingImpulses& impulses, const RestingContacts& resting,
                                    const RestingBodies& bodies, const std::vector<char>& owned,
                                    const std::vector<IslandLabel>& labels, const IslandSolvers& solvers,
                                    const StripRanks& strips, const Ranks& ranks, OwnShare& own) {
  const BodyNames names{world};
  const std::size_t n = world.grain_count(), rank_count = std::size_t(ranks.size());
  std::vector<Part> parts(rank_count, Part{ranks.rank(), {}, {}, {}, {}});
  // The solvers whose parts hold each grain: nearly always one, the first kept by grain, any
  // other as (grain, solver) apart (a flag by grain and rank, n × R bytes zeroed and read every
  // sweep, grew with the ranks).
  constexpr std::uint32_t no_solver = ~std::uint32_t(0);
  std::vector<std::uint32_t> first_solver(n, no_solver);
  std::vector<std::pair<std::uint32_t, std::uint32_t>> other_solvers;
  auto need = [&](std::uint32_t i, std::uint32_t solver) {
    if (first_solver[i] == no_solver) first_solver[i] = solver;
    else if (first_solver[i] != solver) other_solvers.emplace_back(i, solver);
  };
  const std::set<std::uint64_t>& big = solvers.big;
  // Each grain's big island, by its place among them in label order (none for a small one's).
  std::vector<std::uint32_t> big_of(n, SharedIslands::none);
  if (!big.empty())
    for (std::size_t i = 0; i < n; ++i)
      if (const auto at = big.find(labels[i].id); at != big.end()) big_of[i] = std::uint32_t(std::distance(big.begin(), at));
  std::uint32_t seq = 0;
  std::size_t next_point = 0;
  for (std::size_t f = 0; f < resting.faces.size(); ++f) {
    const RestingFace& face = resting.faces[f];
    std::size_t end = next_point;
    while (end < resting.points.size() && resting.points[end].face == f) ++end;
    const bool same_pair = f > 0 && std::minmax(resting.faces[f - 1].a, resting.faces[f - 1].b) == std::minmax(face.a, face.b);
    seq = same_pair ? seq + 1 : 0;
    if (end == next_point) continue;  // a face that collides: no points
    const std::size_t solver =
        std::size_t(big_of[face.a] == SharedIslands::none ? solvers.of(labels[face.a]) : strips.rank_of_face(std::uint32_t(f)));
    const FaceRecord record = face_record(names, face, seq, std::uint32_t(end - next_point), big_of[face.a]);
    need(face.a, std::uint32_t(solver));
    if (!record.b_static) need(face.b, std::uint32_t(solver));
    if (int(solver) == ranks.rank())
      own.faces.push_back({record.order(), std::uint32_t(f), std::uint32_t(next_point), std::uint32_t(end), record.big});
    else
      add_face(parts[solver], record, resting.points.data() + next_point);
    next_point = end;
  }
  if (!std::is_sorted(own.faces.begin(), own.faces.end(), [](const OwnFace& x, const OwnFace& y) { return x.order < y.order; })) {
    for (const OwnFace& o : own.faces)
      add_face(parts[std::size_t(ranks.rank())], face_record(names, resting.faces[o.face], std::get<3>(o.order), o.end - o.first, o.big),
               resting.points.data() + o.first);
    let_go(own.faces);
  }
  // By grain, then solver: each part's grains in id order.
  std::sort(other_solvers.begin(), other_solvers.end());
  other_solvers.erase(std::unique(other_solvers.begin(), other_solvers.end()), other_solvers.end());
  auto take = [&](std::uint32_t i, std::uint32_t solver) {
    if (int(solver) == ranks.rank()) {
      own.grains.push_back(i);
    } else {
      GrainState& g = parts[solver].grains.emplace_back(GrainState{world.id[i], record_of(bodies.velocities[i]), {}, {}});
      put(bodies.corrections[i].velocity, g.correction);
      put(bodies.corrections[i].angular_velocity, g.angular_correction);
    }
  };
  std::vector<std::uint32_t> solvers_of_grain;
  for (std::uint32_t i = 0, k = 0; i < n; ++i) {
    if (first_solver[i] == no_solver) continue;
    if (k == other_solvers.size() || other_solvers[k].first != i) {
      take(i, first_solver[i]);
      continue;
    }
    solvers_of_grain.assign(1, first_solver[i]);
    for (; k < other_solvers.size() && other_solvers[k].first == i; ++k) solvers_of_grain.push_back(other_solvers[k].second);
    std::sort(solvers_of_grain.begin(), solvers_of_grain.end());
    for (const std::uint32_t solver : solvers_of_grain) take(i, solver);
  }
  auto send = [&](const RestingImpulses::Entry& entry, int solver) {
    if (solver == ranks.rank()) own.entries.push_back(&entry);
    else parts[std::size_t(solver)].entries.push_back(entry_record(names, entry.first, entry.second, impulses.set_this_step(entry)));
  };
  for (std::uint32_t i = 0; i < n; ++i) {
    if (!owned[i]) continue;
    int strip = -1;  // of the last entry's unit: a unit's entries lie together (key order)
    for (const RestingImpulses::Entry* e = nullptr; const RestingImpulses::Entry& entry : impulses.of_grain(i)) {
      if (big_of[i] == SharedIslands::none) {
        send(entry, solvers.of(labels[i]));
        continue;
      }
      if (!e || e->first.b != entry.first.b) strip = strips.rank_of(labels[i].id, i, entry.first.b);
      e = &entry;
      if (strip >= 0) send(entry, strip);  // none where no point of the sweep is
    }
  }
  return parts;
}

// The other ranks whose strips of a big island move the grains this rank's strips move, and in
// which phases, by local body (SharedIslands::sharers): a grain's units lie in the cells of
// its own place and the three before it in x and y (tiles.h), so each rank tells the ranks
// whose tiles lie there which of the grain's phases are its own, and takes what they tell it
// of the grains it holds. `units` by big island: its units here (bodies of `local`).
BodySharers sharers_of(const std::vector<std::vector<std::pair<std::uint32_t, std::uint32_t>>>& units,
                       const std::set<std::uint64_t>& big, const std::vector<std::uint64_t>& ids,
                       const std::vector<bool>& is_static, const std::vector<RigidBody>& posed, const StripRanks& strips,
                       const IdIndex& index_of, const Ranks& ranks) {
  struct Claim {
    std::uint64_t id;
    std::uint32_t phases;
  };
  const double width = strips.width();
  std::vector<std::uint32_t> mine(posed.size(), 0);  // by body: the phases of its units here
  std::vector<std::uint64_t> label_of(posed.size(), 0);
  auto label = big.begin();
  for (const auto& island : units) {
    for (const auto& [a, b] : island) {
      const std::uint32_t phase_bit = 1u << phase_of(unit_cell(a, b, is_static, posed, width));
      for (const std::uint32_t body : {a, b})
        if (!is_static[body]) mine[body] |= phase_bit, label_of[body] = *label;
    }
    ++label;
  }
  std::map<int, std::vector<Claim>> claims;
  for (std::uint32_t g = 0; g < posed.size(); ++g) {
    if (!mine[g]) continue;
    const auto cell = unit_cell(g, g, is_static, posed, width);
    std::array<int, 4> told{-1, -1, -1, -1};
    for (std::size_t k = 0; k < 4; ++k) {
      const int rank = strips.rank_of_cell(label_of[g], {cell[0] - std::int64_t(k & 1), cell[1] - std::int64_t(k >> 1)});
      if (rank < 0 || rank == ranks.rank() || std::find(told.begin(), told.end(), rank) != told.end()) continue;
      told[k] = rank;
      claims[rank].push_back({ids[g], mine[g]});
    }
  }
  std::vector<std::pair<int, Bytes>> outgoing;
  for (const auto& [rank, list] : claims) outgoing.emplace_back(rank, to_bytes(std::span<const Claim>(list)));
  std::vector<std::vector<BodySharers::Sharer>> by_body(posed.size());
  for (const auto& [sender, bytes] : ranks.send_to_any(outgoing))  // by sender, ascending
    for (const Claim& claim : from_bytes<Claim>(bytes))
      if (const std::uint32_t at = index_of.find(claim.id); at != IdIndex::absent && mine[at])
        by_body[at].push_back({sender, claim.phases});
  BodySharers sharers;
  sharers.start.push_back(0);
  for (const auto& list : by_body) {
    sharers.list.insert(sharers.list.end(), list.begin(), list.end());
    sharers.start.push_back(std::uint32_t(sharers.list.size()));
  }
  return sharers;
}

// Solves the islands whose parts came here on a world of their own (their grains in id order,
// then the world's static bodies), by the rest() one process runs, the big islands with the
// other ranks (every rank calls it where there are big islands); returns the totals and, by
// sender, the new state of the grains it sent (of a big island, those this rank reports,
// SharedIslands::reports) and the impulses of the points it sent; and in `strips_seconds`,
// what its strips' passes took (SharedIslands::strips_seconds). What this rank solves of its
// own (`own`: its faces and points in `sweep`, its resting contacts; its grains in `bodies`;
// its warm starts in `impulses`) is read where it lies, the faces and points taken in place.
// `strips` is let go once this rank's sharers are known.
RestingTotals solve_here(const World& world, const RestingBodies& bodies, const RestingImpulses& impulses,
                         std::vector<Part>& parts, RestingContacts&& sweep, OwnShare&& own, const std::set<std::uint64_t>& big,
                         StripRanks& strips, const RestingSettings& settings, PhaseTimes& times, const Ranks& ranks,
                         std::map<int, Reply>& replies, double& strips_seconds) {
  // The grains, by id: the others' records, merged with this rank's own (a grain both hold is
  // the same in each: a halo's copy is its owner's).
  std::vector<const GrainState*> grains;
  for (const Part& part : parts)
    for (const GrainState& g : part.grains) grains.push_back(&g);
  std::sort(grains.begin(), grains.end(), [](const GrainState* x, const GrainState* y) { return x->id < y->id; });
  grains.erase(std::unique(grains.begin(), grains.end(), [](const GrainState* x, const GrainState* y) { return x->id == y->id; }),
               grains.end());
  // Each grain of the island once, in id order: this rank's own by its place in the world, or
  // another's record.
  auto each_grain = [&](auto&& own_grain, auto&& record) {
    for (std::size_t k = 0, j = 0; k < grains.size() || j < own.grains.size();) {
      if (j < own.grains.size() && (k == grains.size() || world.id[own.grains[j]] <= grains[k]->id)) {
        const std::uint32_t i = own.grains[j++];
        if (k < grains.size() && grains[k]->id == world.id[i]) ++k;
        own_grain(i);
      } else {
        record(*grains[k++]);
      }
    }
  };
  World local;
  local.id.reserve(grains.size() + own.grains.size());
  std::vector<std::uint32_t> own_grains;  // by own.grains, bodies here
  own_grains.reserve(own.grains.size());
  each_grain(
      [&](std::uint32_t i) {
        own_grains.push_back(std::uint32_t(local.id.size()));
        local.id.push_back(world.id[i]);
      },
      [&](const GrainState& g) { local.id.push_back(g.id); });
  // The local world names the grains and holds the walls and the terrain, all that the solve's
  // books read of it (solve_resting_islands()); the bodies are `posed`, not copied into it.
  const std::size_t n = local.id.size(), statics_from = world.grain_count(), statics = bodies.velocities.size() - statics_from;
  local.walls = world.walls;
  local.terrain = world.terrain;
  std::vector<bool> is_static(n + statics, false);
  std::fill(is_static.begin() + std::ptrdiff_t(n), is_static.end(), true);
  const BodyNames names{local};
  // A body by name: by a table of the ids, as every face and warm start asks (a search
  // through the ids each time was a tenth of the sharing, docs/benchmarks.md).
  constexpr std::uint32_t absent = IdIndex::absent;
  IdIndex index_of(local.id);
  auto held = [&](std::uint64_t id, std::uint32_t is_static_body) {
    return is_static_body ? std::uint32_t(n + id) : index_of.find(id);
  };
  // A body of the world here, as its own faces and warm starts ask: the grains of both, each in
  // id order, matched once (the table above for each was a tenth of the sharing).
  std::vector<std::uint32_t> local_of_world(statics_from, absent);
  for (std::size_t i = 0, k = 0; i < statics_from && k < n;)
    if (world.id[i] < local.id[k]) ++i;
    else if (local.id[k] < world.id[i]) ++k;
    else local_of_world[i++] = std::uint32_t(k++);
  auto here = [&](std::uint32_t body) { return body < statics_from ? local_of_world[body] : std::uint32_t(n + body - statics_from); };
  auto in_world = [&, world_of_local = std::vector<std::uint32_t>()](std::uint32_t body) mutable {
    if (world_of_local.empty()) {
      world_of_local.assign(n, absent);
      for (std::uint32_t i = 0; i < statics_from; ++i)
        if (local_of_world[i] != absent) world_of_local[local_of_world[i]] = i;
    }
    return body < n ? world_of_local[body] : std::uint32_t(statics_from + body - n);
  };

  // The others' faces in one process's order, each with its points, its bodies and where it
  // came from.
  struct Face {
    decltype(FaceRecord().order()) order;
    const FaceRecord* record;
    const PointRecord* points;
    std::uint32_t part, a, b;
  };
  // Each part's faces come in the order its sender found them, which is that order already
  // (sorted here if not): merged, not sorted (a sort was a twentieth of the sharing,
  // docs/benchmarks.md). No two faces share a key: a pair is searched by one rank.
  std::vector<Face> faces;
  std::size_t face_records = 0;
  for (const Part& part : parts) face_records += part.faces.size();
  faces.reserve(face_records);  // not doubled as they come (docs/benchmarks.md, "Arrays at their size")
  std::vector<std::size_t> part_start;  // in faces
  auto before = [](const Face& x, const Face& y) { return x.order < y.order; };
  for (std::size_t k = 0; k < parts.size(); ++k) {
    part_start.push_back(faces.size());
    for (std::size_t f = 0, point = 0; f < parts[k].faces.size(); point += parts[k].faces[f].points, ++f) {
      const FaceRecord& r = parts[k].faces[f];
      faces.push_back({r.order(), &r, parts[k].points.data() + point, std::uint32_t(k), held(r.a, 0), held(r.b, r.b_static)});
    }
    if (!std::is_sorted(faces.begin() + std::ptrdiff_t(part_start.back()), faces.end(), before))
      std::sort(faces.begin() + std::ptrdiff_t(part_start.back()), faces.end(), before);
  }
  part_start.push_back(faces.size());
  merge_runs(faces, part_start, before);

  // The local island in the sweep's own arrays: its own faces and points moved to their front
  // (in their order, which is one process's), their bodies named here; then, from the back,
  // the others' faces merged in between them, each own face moved back as far as the others'
  // before it need (docs/benchmarks.md, "A rank lets go as it goes").
  RestingContacts resting = std::move(sweep);
  constexpr std::uint32_t none = SharedIslands::none;
  std::uint32_t own_part = none;
  for (std::size_t k = 0; k < parts.size(); ++k)
    if (parts[k].sender == ranks.rank()) own_part = std::uint32_t(k);
  std::vector<std::size_t> own_start{0};  // in the moved points, by own face
  for (std::size_t k = 0; k < own.faces.size(); ++k) {
    RestingFace face = resting.faces[own.faces[k].face];
    face.a = here(face.a);
    face.b = here(face.b);
    resting.faces[k] = face;  // k ≤ its place: nothing unread is written over
    std::size_t at = own_start.back();
    for (std::uint32_t p = own.faces[k].first; p < own.faces[k].end; ++p, ++at) {
      RestingPoint& point = resting.points[at] = resting.points[p];
      point.face = std::uint32_t(k);
      point.clear_solve_state();
    }
    own_start.push_back(at);
  }
  std::size_t others_points = 0;
  for (const Face& face : faces) others_points += face.record->points;
  const std::size_t face_count = own.faces.size() + faces.size(), point_count = own_start.back() + others_points;
  // Grown to their size exactly: a resize past their capacity would double them, at a rank's
  // peak (docs/benchmarks.md, "Arrays at their size").
  resting.faces.reserve(face_count);
  resting.points.reserve(point_count);
  resting.faces.resize(face_count);
  resting.points.resize(point_count);
  std::vector<std::uint32_t> face_part(face_count), face_big(face_count);
  for (std::size_t at = face_count, point_at = point_count, i = own.faces.size(), j = faces.size(); at-- > 0;) {
    if (j == 0 || (i > 0 && own.faces[i - 1].order > faces[j - 1].order)) {
      --i;
      const std::size_t count = own_start[i + 1] - own_start[i];
      point_at -= count;
      if (at != i) {
        std::move_backward(resting.points.begin() + std::ptrdiff_t(own_start[i]), resting.points.begin() + std::ptrdiff_t(own_start[i + 1]),
                           resting.points.begin() + std::ptrdiff_t(point_at + count));
        resting.faces[at] = resting.faces[i];
        for (std::size_t p = point_at; p < point_at + count; ++p) resting.points[p].face = std::uint32_t(at);
      }
      face_part[at] = own_part;
      face_big[at] = own.faces[i].big;
      continue;
    }
    const Face& face = faces[--j];
    const FaceRecord& r = *face.record;
    point_at -= r.points;
    resting.faces[at] = {vec(r.normal), vec(r.tangent), r.friction, face.a, face.b, r.plane};
    for (std::uint32_t k = 0; k < r.points; ++k) {
      const PointRecord& q = face.points[k];
      RestingPoint& p = resting.points[point_at + k];
      p.node = q.node;
      p.face = std::uint32_t(at);
      p.arm = Eigen::Vector3f(q.arm[0], q.arm[1], q.arm[2]);
      std::tie(p.k_nn, p.k_n1, p.k_n2, p.k_11, p.k_12, p.k_22) = std::tuple(q.k[0], q.k[1], q.k[2], q.k[3], q.k[4], q.k[5]);
      p.touch = q.touch;
      p.clear_solve_state();
    }
    face_part[at] = face.part;
    face_big[at] = r.big;
  }
  let_go(faces);
  let_go(own_start);
  let_go(own.faces);
  for (Part& part : parts) let_go(part.faces), let_go(part.points);  // in the island now
  std::vector<std::uint32_t> point_part;  // by point as built: the part it came in
  point_part.reserve(point_count);
  std::vector<std::size_t> part_points(parts.size(), 0);
  SharedIslands shared{ranks, {}, {}, {}, {}, {}};
  shared.big_of_point.reserve(point_count);
  std::vector<std::vector<std::pair<std::uint32_t, std::uint32_t>>> big_units(big.size());  // by big island, its units here
  for (std::size_t f = 0, p = 0; f < face_count; ++f) {
    const RestingFace& face = resting.faces[f];
    if (face_big[f] != none && (big_units[face_big[f]].empty() || big_units[face_big[f]].back() != std::pair{face.a, face.b}))
      big_units[face_big[f]].emplace_back(face.a, face.b);
    for (; p < point_count && resting.points[p].face == f; ++p) {
      point_part.push_back(face_part[f]);
      shared.big_of_point.push_back(face_big[f]);
      ++part_points[face_part[f]];
    }
  }
  static_assert(SharedIslands::none == IdIndex::absent);  // a label not held here
  for (const std::uint64_t label : big) shared.label_bodies.push_back(index_of.find(label));
  let_go(face_part);
  let_go(face_big);
  // The store of these grains: the last step's entries, then what this step set.
  std::vector<RestingImpulses::Entry> last, now;
  // An entry, kept where both its bodies are here.
  auto keep = [&](std::uint32_t a, std::uint32_t b, std::int32_t plane, std::int32_t node, const RestingImpulses::Impulse& impulse,
                  bool this_step) {
    if (a != absent && b != absent) (this_step ? now : last).push_back({{a, b, plane, node}, impulse});
  };
  for (const RestingImpulses::Entry* e : own.entries)
    keep(here(e->first.a), here(e->first.b), e->first.plane, e->first.node, e->second, impulses.set_this_step(*e));
  let_go(own.entries);
  for (const Part& part : parts)
    for (const EntryRecord& e : part.entries)
      keep(held(e.a, 0), held(e.b, e.b_static), e.plane, e.node, RestingImpulses::Impulse(e.impulse[0], e.impulse[1], e.impulse[2]),
           e.this_step);
  RestingImpulses store(std::move(last));
  store.update(now.size(), [&](std::size_t k) { return now[k].first; }, [&](std::size_t k) { return now[k].second; });
  let_go(now);
  for (Part& part : parts) let_go(part.entries);  // in the store now

  // The bodies last, as the parts' faces, points and warm starts are let go: made beside them,
  // they were every rank's peak (docs/benchmarks.md, "Let go, room and all").
  std::vector<RigidBody> posed, corrections;
  posed.reserve(n + statics);
  corrections.reserve(n + statics);
  auto add_grain = [&](const BodyRecord& posed_record, const Vec3& correction, const Vec3& angular_correction) {
    posed.push_back(body_of(posed_record));
    corrections.push_back(posed.back());
    corrections.back().velocity = correction;
    corrections.back().angular_velocity = angular_correction;
  };
  each_grain(
      [&](std::uint32_t i) {
        add_grain(record_of(bodies.velocities[i]), bodies.corrections[i].velocity, bodies.corrections[i].angular_velocity);
      },
      [&](const GrainState& g) { add_grain(g.posed, vec(g.correction), vec(g.angular_correction)); });
  let_go(grains);  // the parts' grains are let go before the solve (below)
  let_go(own.grains);
  posed.insert(posed.end(), bodies.velocities.begin() + std::ptrdiff_t(statics_from), bodies.velocities.end());
  corrections.insert(corrections.end(), bodies.corrections.begin() + std::ptrdiff_t(statics_from), bodies.corrections.end());
  if (!big.empty()) shared.sharers = sharers_of(big_units, big, local.id, is_static, posed, strips, index_of, ranks);
  strips.let_go();
  let_go(big_units);

  // Read into the faces, points, bodies and store: the parts are let go before the solve's
  // peak, but for whom each came from and which grains it sent, whose new state goes back.
  std::vector<int> senders;
  std::vector<std::vector<std::uint32_t>> part_grains(parts.size());  // by part, bodies here
  for (std::size_t k = 0; k < parts.size(); ++k) {
    senders.push_back(parts[k].sender);
    if (k == own_part) part_grains[k] = std::move(own_grains);
    for (const GrainState& g : parts[k].grains) part_grains[k].push_back(index_of.at(g.id));
    parts[k] = Part{parts[k].sender, {}, {}, {}, {}};
  }
  RestingBodies local_bodies(posed, corrections);
  RestingTotals totals = solve_resting_islands(local, is_static, store, resting, local_bodies, settings, times, &shared);
  strips_seconds = shared.strips_seconds;

  // The replies, each made as what it is made of is let go: a rank's heap peaked here, with
  // the solve's books still held (docs/benchmarks.md, "A rank lets go as it goes").
  let_go(store);
  let_go(index_of);
  let_go(shared.big_of_point);
  let_go(shared.sharers);
  // Each point's impulse to the rank that sent it, as the store keeps it (single precision).
  std::vector<std::vector<EntryRecord>> set(senders.size());
  for (std::size_t k = 0; k < senders.size(); ++k) set[k].reserve(part_points[k]);
  std::vector<std::array<std::uint32_t, 2>> own_set_at;
  if (own_part != none) own_set_at.reserve(part_points[own_part]);
  for (std::size_t k = 0; k < point_part.size(); ++k) {
    const RestingPoint& p = resting.points[shared.placed[k]];
    const RestingFace& face = resting.faces[p.face];
    const BodyName b = names.name(face.b);
    const RestingImpulses::Impulse impulse = resting.impulse(p).cast<float>();
    set[point_part[k]].push_back({local.id[face.a], b.id, b.is_static, 1, face.plane, p.node, {impulse.x(), impulse.y(), impulse.z()}});
    if (point_part[k] == own_part) own_set_at.push_back({in_world(face.a), in_world(face.b)});
  }
  let_go(resting);
  let_go(point_part);
  let_go(shared.placed);
  for (std::size_t k = 0; k < senders.size(); ++k) {
    Reply& reply = replies[senders[k]];  // one part a sender
    reply.solved.reserve(part_grains[k].size());
    for (const std::uint32_t i : part_grains[k]) {
      if (!shared.reports[i]) continue;
      Solved s{local.id[i], {}, {}, {}, {}};
      put(posed[i].velocity, s.velocity);
      put(posed[i].angular_velocity, s.angular_velocity);
      put(corrections[i].velocity, s.correction);
      put(corrections[i].angular_velocity, s.angular_correction);
      reply.solved.push_back(s);
      if (k == own_part) reply.solved_at.push_back(in_world(i));
    }
    reply.set = std::move(set[k]);
    if (k == own_part) reply.set_at = std::move(own_set_at);
  }
  return totals;
}

}  // namespace

RestingTotals rest_across_ranks(const World& world, const std::vector<bool>& is_static, RestingImpulses& impulses,
                                RestingContacts&& resting, RestingBodies& bodies, const std::vector<char>& owned,
                                const Halo& halo, const Ranks& ranks, RestingSettings settings, PhaseTimes& times,
                                StripPace* pace) {
  const PhaseRemainder sharing(times, Phase::ranks);
  RestingTotals totals(world.walls.size());
  if (ranks.max(resting.points.empty() ? 0.0 : 1.0) == 0) return totals;
  const std::size_t n = world.grain_count();
  // The islands, and the tiles' width over every rank's faces (tiles.h); the faces' bodies
  // listed for these alone, not held through the solve (docs/benchmarks.md, "Held no longer
  // than read").
  const std::vector<IslandLabel> labels = [&] {
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
    return island_labels(world.id, links, halo, ranks);
  }();
  const IslandSolvers solvers = island_solvers(resting, labels, ranks);
  const std::set<std::uint64_t>& big = solvers.big;

  // The parts to the islands' solvers: what this rank solves of its own read where it lies
  // (`own`: its faces and points in the sweep's arrays, its grains, its warm starts), the
  // others' as bytes.
  std::vector<Part> parts;
  OwnShare own;
  std::vector<std::pair<int, Bytes>> outgoing;
  StripRanks strips(resting, labels, big, is_static, bodies.velocities,
                    tile_width(settings.touching_reach, settings.largest_reach), pace ? pace->seconds_per_work : 0, ranks);
  const std::uint64_t strips_work = strips.my_work();
  {
    std::vector<Part> to_solvers = parts_for_solvers(world, impulses, resting, bodies, owned, labels, solvers, strips, ranks, own);
    for (std::size_t r = 0; r < to_solvers.size(); ++r)
      if (int(r) == ranks.rank()) {
        if (!to_solvers[r].empty() || !own.empty()) parts.push_back(std::move(to_solvers[r]));
      } else if (!to_solvers[r].empty()) {
        outgoing.emplace_back(int(r), to_solvers[r].bytes());
        to_solvers[r] = Part();  // its bytes hold it now, each part beside its own alone
      }
  }
  std::vector<std::pair<int, Bytes>> incoming = ranks.send_to_any(outgoing);
  outgoing.clear();
  for (auto& [sender, bytes] : incoming) {
    parts.push_back(Part::read(sender, bytes));
    bytes = Bytes();  // read: each part beside its own bytes alone
  }
  // The sweep's inverse inertias served its resting points' K alone: the islands' solvers
  // make their own, and a rank's copy beside theirs stood at its peak (docs/benchmarks.md,
  // "Held no longer than read").
  bodies.inverse_inertia = std::vector<Mat3>();
  std::map<int, Reply> replies;
  double strips_seconds = 0;
  if (!parts.empty() || !big.empty())
    totals = solve_here(world, bodies, impulses, parts, std::move(resting), std::move(own), big, strips, settings, times, ranks,
                        replies, strips_seconds);
  if (pace && strips_work > 0) {
    pace->last_seconds = strips_seconds;
    const double last = strips_seconds / double(strips_work);
    pace->seconds_per_work = pace->seconds_per_work > 0 ? 0.5 * (pace->seconds_per_work + last) : last;
  }
  for (auto& [rank, reply] : replies)
    if (rank != ranks.rank()) {
      outgoing.emplace_back(rank, Parcel::of(reply.solved, reply.set));
      reply = Reply();  // its bytes hold it now
    }

  // The new state and impulses to the ranks that sent them, on to the grains' owners.
  GrainIndices solved_index(world), a_index(world), b_index(world);
  std::vector<std::uint32_t> owner_partner(n, 0);
  for (std::size_t k = 0; k < halo.partners.size(); ++k)
    for (std::uint32_t i : halo.take[k]) owner_partner[i] = std::uint32_t(k);
  std::vector<std::vector<Solved>> solved_to_owners(halo.partners.size());
  std::vector<std::vector<EntryRecord>> set_to_owners(halo.partners.size());
  std::vector<RestingImpulses::Entry> set_here;
  auto set = [&](const EntryRecord& e, std::uint32_t a, std::uint32_t b) {
    set_here.push_back({{a, b, e.plane, e.node}, RestingImpulses::Impulse(e.impulse[0], e.impulse[1], e.impulse[2])});
  };
  auto b_of = [&](const EntryRecord& e) { return e.b_static ? std::uint32_t(n + e.b) : b_index(e.b); };
  auto take_solved = [&](const Solved& s, std::uint32_t i) {
    bodies.velocities[i].velocity = vec(s.velocity);
    bodies.velocities[i].angular_velocity = vec(s.angular_velocity);
    bodies.corrections[i].velocity = vec(s.correction);
    bodies.corrections[i].angular_velocity = vec(s.angular_correction);
    return i;
  };
  // A reply's grains and points, where they lie here given (`solved_at`, `set_at`: this rank's
  // own) or found by id.
  auto take_reply = [&](const std::vector<Solved>& solved, const std::vector<EntryRecord>& entries,
                        const std::vector<std::uint32_t>& solved_at = {}, const std::vector<std::array<std::uint32_t, 2>>& set_at = {}) {
    for (std::size_t k = 0; k < solved.size(); ++k)
      if (const std::uint32_t i = take_solved(solved[k], solved_at.empty() ? solved_index(solved[k].id) : solved_at[k]); !owned[i])
        solved_to_owners[owner_partner[i]].push_back(solved[k]);
    for (std::size_t k = 0; k < entries.size(); ++k) {
      const EntryRecord& e = entries[k];
      if (const std::uint32_t a = set_at.empty() ? a_index(e.a) : set_at[k][0]; owned[a]) set(e, a, set_at.empty() ? b_of(e) : set_at[k][1]);
      else set_to_owners[owner_partner[a]].push_back(e);
    }
  };
  if (const auto own = replies.find(ranks.rank()); own != replies.end())
    take_reply(own->second.solved, own->second.set, own->second.solved_at, own->second.set_at);
  for (const auto& [sender, bytes] : ranks.send_to_any(outgoing)) {
    ParcelReader in(bytes);
    const std::vector<Solved> solved = in.take<Solved>();
    take_reply(solved, in.take<EntryRecord>());
  }
  std::vector<Bytes> to_owners;
  for (std::size_t k = 0; k < halo.partners.size(); ++k)
    to_owners.push_back(Parcel::of(solved_to_owners[k], set_to_owners[k]));
  for (const Bytes& bytes : ranks.exchange(halo.partners, to_owners)) {
    ParcelReader in(bytes);
    for (const Solved& s : in.take<Solved>()) take_solved(s, solved_index(s.id));
    for (const EntryRecord& e : in.take<EntryRecord>()) set(e, a_index(e.a), b_of(e));
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
