#include "solver/ranks/resting_across_ranks.h"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

#include "solver/impulse/tiles.h"
#include "solver/ranks/body_records.h"
#include "solver/ranks/island_labels.h"
#include "solver/ranks/parcel.h"

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
  double normal[3], tangent[3], friction;

  // Where one process's search puts it: pairs by their bodies, then grains against the walls
  // and the terrain, each pair's faces as found (contact_finding.h).
  auto order() const {
    return b_static ? std::tuple{1u, a, b, seq} : std::tuple{0u, std::min(a, b), std::max(a, b), seq};
  }
};

// A resting point as resting_point() built it.
struct PointRecord {
  std::int32_t node;
  float arm[3];
  double k[6];  // k_nn, k_n1, k_n2, k_11, k_12, k_22
  double touch;
};

// A grain where the sweep posed it, and its corrections so far.
struct GrainState {
  std::uint64_t id;
  BodyRecord posed, correction;
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

// What this rank sends each island's solver: its faces with their points and bodies, and the
// store's entries of the grains it owns there.
std::map<int, Parcel> parts_for_solvers(const World& world, const RestingImpulses& impulses, const RestingContacts& resting,
                                        const RestingBodies& bodies, const std::vector<char>& owned,
                                        const std::vector<IslandLabel>& labels, const Ranks& ranks) {
  const BodyNames names{world};
  const std::size_t n = world.grain_count();
  std::map<int, std::vector<FaceRecord>> faces;
  std::map<int, std::vector<PointRecord>> points;
  std::map<int, std::vector<GrainState>> grains;
  std::map<int, std::set<std::uint32_t>> sent;  // grains already in a part
  std::map<int, std::vector<EntryRecord>> entries;
  std::uint32_t seq = 0;
  std::size_t next_point = 0;
  for (std::size_t f = 0; f < resting.faces.size(); ++f) {
    const RestingFace& face = resting.faces[f];
    std::size_t end = next_point;
    while (end < resting.points.size() && resting.points[end].face == f) ++end;
    const bool same_pair = f > 0 && std::minmax(resting.faces[f - 1].a, resting.faces[f - 1].b) == std::minmax(face.a, face.b);
    seq = same_pair ? seq + 1 : 0;
    if (end == next_point) continue;  // a face that collides: no points
    const int solver = int(labels[face.a].owner);
    const BodyName b = names.name(face.b);
    FaceRecord record{names.world.id[face.a], b.id, b.is_static, seq, face.plane, std::uint32_t(end - next_point), {}, {}, face.friction};
    put(face.normal, record.normal);
    put(face.tangent, record.tangent);
    faces[solver].push_back(record);
    for (; next_point < end; ++next_point) {
      const RestingPoint& p = resting.points[next_point];
      points[solver].push_back({p.node, {p.arm.x(), p.arm.y(), p.arm.z()}, {p.k_nn, p.k_n1, p.k_n2, p.k_11, p.k_12, p.k_22}, p.touch});
    }
    for (const std::uint32_t body : {face.a, face.b})
      if (body < n && sent[solver].insert(body).second)
        grains[solver].push_back({world.id[body], record_of(bodies.velocities[body]), record_of(bodies.corrections[body])});
  }
  for (std::uint32_t i = 0; i < n; ++i) {
    if (!owned[i]) continue;
    for (const auto& [key, impulse] : impulses.of_grain(i))
      entries[int(labels[i].owner)].push_back(entry_record(names, key, impulse, impulses.find(key).this_step));
  }
  std::map<int, Parcel> parts;
  for (int r = 0; r < ranks.size(); ++r)
    if (faces.count(r) || entries.count(r)) parts[r].put(faces[r]).put(points[r]).put(grains[r]).put(entries[r]);
  return parts;
}

// What one rank sent an island's solver, as it came.
struct Part {
  int sender;
  std::vector<FaceRecord> faces;
  std::vector<PointRecord> points;
  std::vector<GrainState> grains;
  std::vector<EntryRecord> entries;
};

// Solves the islands whose parts came here on a world of their own (their grains in id order,
// then the world's static bodies), by the rest() one process runs; returns the totals and, by
// sender, the new state of the grains it sent and the impulses of the points it sent.
RestingTotals solve_here(const World& world, const RestingBodies& bodies, std::vector<Part>& parts,
                         const RestingSettings& settings, PhaseTimes& times, std::map<int, Parcel>& replies) {
  std::map<std::uint64_t, GrainState> grains;
  for (const Part& part : parts)
    for (const GrainState& g : part.grains) grains.emplace(g.id, g);
  World local;
  std::vector<RigidBody> posed, corrections;
  for (const auto& [id, g] : grains) {
    local.id.push_back(id);
    posed.push_back(body_of(g.posed));
    corrections.push_back(body_of(g.correction));
  }
  const std::size_t n = local.id.size(), statics_from = world.grain_count();
  local.shape.assign(n, 0);
  local.material.assign(n, 0);
  local.scale.assign(n, 1);
  local.walls = world.walls;
  local.terrain = world.terrain;
  posed.insert(posed.end(), bodies.velocities.begin() + std::ptrdiff_t(statics_from), bodies.velocities.end());
  corrections.insert(corrections.end(), bodies.corrections.begin() + std::ptrdiff_t(statics_from), bodies.corrections.end());
  local.bodies = posed;
  std::vector<bool> is_static(posed.size(), false);
  std::fill(is_static.begin() + std::ptrdiff_t(n), is_static.end(), true);
  const BodyNames names{local};
  auto held = [&](const BodyName& b) { return b.is_static || std::binary_search(local.id.begin(), local.id.end(), b.id); };

  // The faces in one process's order, each with its points and where they came from.
  struct Face {
    const FaceRecord* record;
    const PointRecord* points;
    std::size_t part;
  };
  std::vector<Face> faces;
  for (std::size_t k = 0; k < parts.size(); ++k)
    for (std::size_t f = 0, point = 0; f < parts[k].faces.size(); point += parts[k].faces[f++].points)
      faces.push_back({&parts[k].faces[f], parts[k].points.data() + point, k});
  std::sort(faces.begin(), faces.end(), [](const Face& x, const Face& y) { return x.record->order() < y.record->order(); });
  RestingContacts resting;
  for (const Face& face : faces) {
    const FaceRecord& r = *face.record;
    const std::uint32_t index = std::uint32_t(resting.faces.size());
    resting.faces.push_back({vec(r.normal), vec(r.tangent), r.friction, names.index(r.a), names.index(r.b, r.b_static), r.plane});
    for (std::uint32_t k = 0; k < r.points; ++k) {
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
      if (!held({e.a, 0}) || !held({e.b, e.b_static})) continue;
      const RestingImpulses::Entry entry{{names.index(e.a), names.index(e.b, e.b_static), e.plane, e.node},
                                         RestingImpulses::Impulse(e.impulse[0], e.impulse[1], e.impulse[2])};
      (e.this_step ? now : last).push_back(entry);
    }
  RestingImpulses store(std::move(last));
  store.update(now.size(), [&](std::size_t k) { return now[k].first; }, [&](std::size_t k) { return now[k].second; });

  RestingBodies local_bodies(posed, corrections);
  // Keys before the solve: rest() leaves the points in solve order.
  std::vector<std::vector<RestingKey>> keys_by_part(parts.size());
  for (const Face& face : faces) {
    const FaceRecord& r = *face.record;
    for (std::uint32_t k = 0; k < r.points; ++k)
      keys_by_part[face.part].push_back({names.index(r.a), names.index(r.b, r.b_static), r.plane, face.points[k].node});
  }
  RestingTotals totals = solve_resting_islands(local, is_static, store, resting, local_bodies, settings, times);

  for (std::size_t k = 0; k < parts.size(); ++k) {
    std::vector<Solved> solved;
    for (const GrainState& g : parts[k].grains) {
      const std::uint32_t i = names.index(g.id);
      Solved s{g.id, {}, {}, {}, {}};
      put(posed[i].velocity, s.velocity);
      put(posed[i].angular_velocity, s.angular_velocity);
      put(corrections[i].velocity, s.correction);
      put(corrections[i].angular_velocity, s.angular_correction);
      solved.push_back(s);
    }
    std::vector<EntryRecord> set;
    for (const RestingKey& key : keys_by_part[k]) set.push_back(entry_record(names, key, *store.find(key).impulse, true));
    replies[parts[k].sender].put(solved).put(set);
  }
  return totals;
}

}  // namespace

RestingTotals rest_across_ranks(const World& world, const std::vector<bool>& is_static, RestingImpulses& impulses,
                                const RestingContacts& resting, RestingBodies& bodies, const std::vector<char>& owned,
                                const Halo& halo, const Ranks& ranks, RestingSettings settings, PhaseTimes& times) {
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

  std::vector<std::pair<int, Bytes>> outgoing;
  for (const auto& [rank, parcel] : parts_for_solvers(world, impulses, resting, bodies, owned, labels, ranks))
    outgoing.emplace_back(rank, parcel.bytes());
  std::vector<Part> parts;
  for (const auto& [sender, bytes] : ranks.send_to_any(outgoing)) {
    ParcelReader in(bytes);
    Part& part = parts.emplace_back();
    part.sender = sender;
    part.faces = in.take<FaceRecord>();
    part.points = in.take<PointRecord>();
    part.grains = in.take<GrainState>();
    part.entries = in.take<EntryRecord>();
  }
  std::map<int, Parcel> replies;
  if (!parts.empty()) totals = solve_here(world, bodies, parts, settings, times, replies);
  outgoing.clear();
  for (const auto& [rank, parcel] : replies) outgoing.emplace_back(rank, parcel.bytes());

  // The new state and impulses to the ranks that sent them, on to the grains' owners.
  const BodyNames names{world};
  std::vector<std::uint32_t> owner_partner(n, 0);
  for (std::size_t k = 0; k < halo.partners.size(); ++k)
    for (std::uint32_t i : halo.take[k]) owner_partner[i] = std::uint32_t(k);
  std::vector<std::vector<Solved>> solved_to_owners(halo.partners.size());
  std::vector<std::vector<EntryRecord>> set_to_owners(halo.partners.size());
  std::vector<EntryRecord> set_here;
  auto take_solved = [&](const Solved& s) {
    const std::uint32_t i = names.index(s.id);
    bodies.velocities[i].velocity = vec(s.velocity);
    bodies.velocities[i].angular_velocity = vec(s.angular_velocity);
    bodies.corrections[i].velocity = vec(s.correction);
    bodies.corrections[i].angular_velocity = vec(s.angular_correction);
    return i;
  };
  for (const auto& [sender, bytes] : ranks.send_to_any(outgoing)) {
    ParcelReader in(bytes);
    for (const Solved& s : in.take<Solved>())
      if (const std::uint32_t i = take_solved(s); !owned[i]) solved_to_owners[owner_partner[i]].push_back(s);
    for (const EntryRecord& e : in.take<EntryRecord>()) {
      const std::uint32_t a = names.index(e.a);
      (owned[a] ? set_here : set_to_owners[owner_partner[a]]).push_back(e);
    }
  }
  std::vector<Bytes> to_owners;
  for (std::size_t k = 0; k < halo.partners.size(); ++k)
    to_owners.push_back(Parcel().put(solved_to_owners[k]).put(set_to_owners[k]).bytes());
  for (const Bytes& bytes : ranks.exchange(halo.partners, to_owners)) {
    ParcelReader in(bytes);
    for (const Solved& s : in.take<Solved>()) take_solved(s);
    const std::vector<EntryRecord> set = in.take<EntryRecord>();
    set_here.insert(set_here.end(), set.begin(), set.end());
  }
  impulses.update(
      set_here.size(),
      [&](std::size_t k) {
        const EntryRecord& e = set_here[k];
        return RestingKey{names.index(e.a), names.index(e.b, e.b_static), e.plane, e.node};
      },
      [&](std::size_t k) { return RestingImpulses::Impulse(set_here[k].impulse[0], set_here[k].impulse[1], set_here[k].impulse[2]); });
  refresh_halo(bodies.velocities, halo, ranks);
  refresh_halo(bodies.corrections, halo, ranks);
  totals.sum_across(ranks);
  return totals;
}

}  // namespace scree::solver
