#include "solver/ranks/collisions_across_ranks.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <map>
#include <numeric>
#include <tuple>

#include "solver/let_go.h"
#include "solver/ranks/body_records.h"
#include "solver/ranks/island_labels.h"

namespace scree::solver {

namespace {

// A colliding contact as it travels to the rank that resolves its island, with its bodies
// where the sweep posed them.
struct ContactRecord {
  std::uint64_t a, b;       // ids; a static B's place among the static bodies (its wall, the terrain after them)
  std::uint64_t island;     // its island's label (IslandLabel::id)
  std::uint32_t b_static;   // whether B is static
  std::uint32_t seq;        // its place among the contacts of its pair, as found
  double point[3], normal[3];
  double friction, restitution;
  std::int32_t wall;
  BodyRecord body_a, body_b;  // body_b unset for a static B

  // Where one process's search puts it: pairs by their bodies, then grains against the walls
  // and the terrain (contact_finding.h), each pair's contacts as found.
  auto order() const {
    return b_static ? std::tuple{1u, a, b, seq} : std::tuple{0u, std::min(a, b), std::max(a, b), seq};
  }
};

// A grain's velocities after the collisions.
struct Resolved {
  std::uint64_t id;
  double velocity[3], angular_velocity[3];
};

Resolved resolved_of(std::uint64_t id, const RigidBody& b) {
  return {id, {b.velocity.x(), b.velocity.y(), b.velocity.z()}, {b.angular_velocity.x(), b.angular_velocity.y(), b.angular_velocity.z()}};
}

void set_resolved(RigidBody& b, const Resolved& r) {
  b.velocity = Vec3(r.velocity[0], r.velocity[1], r.velocity[2]);
  b.angular_velocity = Vec3(r.angular_velocity[0], r.angular_velocity[1], r.angular_velocity[2]);
}

template <class Record>
std::vector<std::pair<int, Bytes>> packed(const std::map<int, std::vector<Record>>& by_rank) {
  std::vector<std::pair<int, Bytes>> out;
  for (const auto& [rank, records] : by_rank) out.emplace_back(rank, to_bytes<Record>(records));
  return out;
}

// Each contact's place among the contacts of its pair, as found (ContactRecord::seq): a pair's
// contacts come one after another.
std::vector<std::uint32_t> places_in_pairs(std::span<const Contact> colliding) {
  std::vector<std::uint32_t> seq(colliding.size(), 0);
  for (std::size_t k = 1; k < colliding.size(); ++k)
    if (std::minmax(colliding[k - 1].a, colliding[k - 1].b) == std::minmax(colliding[k].a, colliding[k].b)) seq[k] = seq[k - 1] + 1;
  return seq;
}

ContactRecord contact_record(const World& world, const std::vector<RigidBody>& posed, const Contact& c, std::uint32_t seq,
                             std::uint64_t island) {
  const std::size_t n = world.grain_count();
  const CollidingContact law = colliding_contact(world, c);
  const bool b_static = c.b >= n;
  return {world.id[c.a],
          b_static ? std::uint64_t(c.b - n) : world.id[c.b],
          island,
          b_static,
          seq,
          {c.point.x(), c.point.y(), c.point.z()},
          {c.normal.x(), c.normal.y(), c.normal.z()},
          law.collision.friction,
          law.collision.restitution,
          c.wall,
          record_of(posed[c.a]),
          b_static ? BodyRecord{} : record_of(posed[c.b])};
}

// Resolves the islands whose contacts came here (`records`, `sent_by` the rank each came
// from), on bodies of their own (the islands' grains
// in id order, then the world's static bodies); returns the totals and, by sender, the new
// velocities of the grains it sent. A grain several contacts name takes the body of the first
// that came (a halo's copy is its owner's: the same in each). Grains and contacts are matched
// through sorted arrays: trees of them cost 3 % of the collisions' time on two ranks
// (docs/benchmarks.md, "Collisions matched in sorted arrays").
CollisionTotals resolve_here(const World& world, std::vector<ContactRecord>&& records, const std::vector<int>& sent_by,
                             const EnergyTrackingSettings& settings, std::map<int, std::vector<Resolved>>& replies) {
  // Each grain a record names (its A, then a grain B), by id, then as they came.
  struct Named {
    std::uint64_t id;
    std::uint32_t record;
    bool is_b;
    auto operator<=>(const Named&) const = default;
  };
  std::vector<Named> named;
  named.reserve(2 * records.size());
  for (std::uint32_t k = 0; k < records.size(); ++k) {
    named.push_back({records[k].a, k, false});
    if (!records[k].b_static) named.push_back({records[k].b, k, true});
  }
  std::sort(named.begin(), named.end());
  std::vector<RigidBody> bodies;
  std::vector<std::uint64_t> ids;                // by body
  std::vector<std::uint32_t> local_a(records.size()), local_b(records.size());  // by record: its bodies here
  std::vector<std::pair<std::uint32_t, int>> senders;  // (body, rank), each once
  for (std::size_t j = 0; j < named.size();) {
    const std::uint32_t body = std::uint32_t(bodies.size());
    const ContactRecord& first = records[named[j].record];
    bodies.push_back(body_of(named[j].is_b ? first.body_b : first.body_a));
    ids.push_back(named[j].id);
    for (; j < named.size() && named[j].id == ids.back(); ++j) {
      (named[j].is_b ? local_b : local_a)[named[j].record] = body;
      senders.emplace_back(body, sent_by[named[j].record]);
    }
  }
  let_go(named);
  std::sort(senders.begin(), senders.end());
  senders.erase(std::unique(senders.begin(), senders.end()), senders.end());
  const std::size_t grain_count = bodies.size();
  bodies.insert(bodies.end(), world.bodies.begin() + std::ptrdiff_t(world.grain_count()), world.bodies.end());
  std::vector<bool> is_static(bodies.size(), false);
  std::fill(is_static.begin() + std::ptrdiff_t(grain_count), is_static.end(), true);
  // The contacts in one process's order (no two share a place in it).
  std::vector<std::uint32_t> in_order(records.size());
  std::iota(in_order.begin(), in_order.end(), 0u);
  std::sort(in_order.begin(), in_order.end(), [&](std::uint32_t x, std::uint32_t y) { return records[x].order() < records[y].order(); });
  std::vector<CollidingContact> contacts;
  contacts.reserve(records.size());
  for (const std::uint32_t k : in_order) {
    const ContactRecord& r = records[k];
    const std::uint32_t b = r.b_static ? std::uint32_t(grain_count + r.b) : local_b[k];
    contacts.push_back({{local_a[k], b, Vec3(r.point[0], r.point[1], r.point[2]), Vec3(r.normal[0], r.normal[1], r.normal[2]),
                         r.friction, r.restitution},
                        r.wall});
  }
  let_go(records);
  CollisionTotals totals = resolve_collision_islands(bodies, contacts, is_static, world.walls, settings);
  for (const auto& [body, rank] : senders) replies[rank].push_back(resolved_of(ids[body], bodies[body]));
  return totals;
}

// Resolves in place, on this rank's own bodies, the islands of `colliding[k]`, k in `contacts`:
// islands whose every contact this rank found. In the order one process takes them (as
// ContactRecord::order(): a world's grains lie in the order of their ids), so each island
// gives the bits it gives from records. Records of them, sent to itself, and the bodies made
// again from them were 3–6 % of the collisions' work on two ranks (docs/benchmarks.md,
// "Islands resolved where their contacts lie").
CollisionTotals resolve_in_place(const World& world, std::vector<RigidBody>& posed, std::span<const Contact> colliding,
                                 std::vector<std::uint32_t> contacts, const std::vector<std::uint32_t>& seq,
                                 const std::vector<bool>& is_static, const EnergyTrackingSettings& settings) {
  const std::size_t n = world.grain_count();
  auto order = [&](std::uint32_t k) {
    const Contact& c = colliding[k];
    return c.b >= n ? std::tuple{1u, c.a, c.b, seq[k]} : std::tuple{0u, std::min(c.a, c.b), std::max(c.a, c.b), seq[k]};
  };
  std::sort(contacts.begin(), contacts.end(), [&](std::uint32_t x, std::uint32_t y) { return order(x) < order(y); });
  std::vector<CollidingContact> in_order;
  in_order.reserve(contacts.size());
  for (const std::uint32_t k : contacts) in_order.push_back(colliding_contact(world, colliding[k]));
  return resolve_collision_islands(posed, in_order, is_static, world.walls, settings);
}

// By rank, its pace (ps an increment; 0: not known, taken as the mean of the known); empty where
// none is known.
std::vector<std::int64_t> paces_of(std::span<const std::int64_t> pace_ps) {
  std::int64_t known = 0, sum = 0;
  for (const std::int64_t p : pace_ps) known += p > 0, sum += p;
  if (known == 0) return {};
  std::vector<std::int64_t> paces;
  for (const std::int64_t p : pace_ps) paces.push_back(p > 0 ? p : sum / known);
  return paces;
}

// What each rank hands to others, in time (ps) at the giver's pace: from the ranks expected to
// take longer than the mean (`increments` times `paces`, by rank), in rank order, their excess to
// the ranks expected to take less, in rank order, each up to its shortfall. None where no rank
// is over the mean by more than a twentieth. The same on every rank.
struct Hand {
  int giver, taker;
  std::int64_t ps;
};
std::vector<Hand> hands_of(std::span<const std::int64_t> increments, std::span<const std::int64_t> paces) {
  const std::size_t ranks = increments.size();
  std::vector<std::int64_t> load(ranks);
  std::int64_t total = 0, most = 0;
  for (std::size_t r = 0; r < ranks; ++r) {
    load[r] = increments[r] * paces[r];
    total += load[r];
    most = std::max(most, load[r]);
  }
  const std::int64_t mean = total / std::int64_t(ranks);
  if (20 * (most - mean) <= mean) return {};
  std::vector<Hand> hands;
  std::size_t taker = 0;
  for (std::size_t giver = 0; giver < ranks; ++giver)
    for (std::int64_t excess = load[giver] - mean; excess > 0;) {
      while (taker < ranks && load[taker] >= mean) ++taker;
      if (taker == ranks) return hands;
      const std::int64_t ps = std::min(excess, mean - load[taker]);
      hands.push_back({int(giver), int(taker), ps});
      excess -= ps;
      load[taker] += ps;
    }
  return hands;
}

}  // namespace

CollisionTotals resolve_collisions_across_ranks(const World& world, std::vector<RigidBody>& posed,
                                                std::span<const Contact> colliding, const std::vector<bool>& is_static,
                                                const std::vector<char>& owned, const Halo& halo, const Ranks& ranks,
                                                const EnergyTrackingSettings& settings, CollisionPace* pace) {
  CollisionTotals totals(world.walls.size());
  if (ranks.max(colliding.empty() ? 0.0 : 1.0) == 0) return totals;  // a settled heap's every sweep
  const std::size_t n = world.grain_count();
  const int me = ranks.rank();
  std::vector<std::pair<std::uint32_t, std::uint32_t>> links;
  for (const Contact& c : colliding)
    if (!is_static[c.b]) links.emplace_back(c.a, c.b);
  const std::vector<IslandLabel> labels = island_labels(world.id, links, halo, ranks);
  let_go(links);

  // The contacts of the islands other ranks resolve, as records to them; this rank's own stay
  // where they lie.
  const std::vector<std::uint32_t> seq = places_in_pairs(colliding);
  std::vector<std::uint32_t> mine;  // into colliding
  std::map<int, std::vector<ContactRecord>> to;
  for (std::uint32_t k = 0; k < colliding.size(); ++k) {
    const IslandLabel& label = labels[colliding[k].a];
    if (label.owner == me) mine.push_back(k);
    else to[int(label.owner)].push_back(contact_record(world, posed, colliding[k], seq[k], label.id));
  }
  std::vector<ContactRecord> records;
  std::vector<int> sent_by;  // by record
  for (const auto& [rank, bytes] : ranks.send_to_any(packed(to)))
    for (const ContactRecord& r : from_bytes<ContactRecord>(bytes)) {
      records.push_back(r);
      sent_by.push_back(rank);
    }
  to.clear();
  // An island of this rank's that others found contacts of too is resolved from records, its
  // contacts here among them; the rest in place.
  std::vector<std::uint64_t> joined;  // islands others sent contacts of, by label
  for (const ContactRecord& r : records) joined.push_back(r.island);
  std::sort(joined.begin(), joined.end());
  joined.erase(std::unique(joined.begin(), joined.end()), joined.end());
  std::vector<std::uint32_t> in_place;
  for (const std::uint32_t k : mine) {
    const std::uint64_t island = labels[colliding[k].a].id;
    if (std::binary_search(joined.begin(), joined.end(), island)) {
      records.push_back(contact_record(world, posed, colliding[k], seq[k], island));
      sent_by.push_back(me);
    } else {
      in_place.push_back(k);
    }
  }
  if (pace) {
    // Islands in place handed on by pace: each rank's expected increments (its islands', by
    // their sizes, CollisionPace::islands) and its pace to every rank, which work out alike who
    // hands what to whom (hands_of).
    // Contacts by island (label, then a contact in place or 0), sorted: this rank's islands in
    // place, and those it resolves from records.
    using ByIsland = std::vector<std::pair<std::uint64_t, std::uint32_t>>;
    ByIsland by_island, record_islands;
    for (const std::uint32_t k : in_place) by_island.emplace_back(labels[colliding[k].a].id, k);
    for (const ContactRecord& r : records) record_islands.emplace_back(r.island, 0);
    // Where the island that starts at `at` ends.
    auto island_end = [](const ByIsland& items, std::size_t at) {
      std::size_t end = at;
      while (end < items.size() && items[end].first == items[at].first) ++end;
      return end;
    };
    double expected = 0;
    for (ByIsland* items : {&by_island, &record_islands}) {
      std::sort(items->begin(), items->end());
      for (std::size_t at = 0, end; at < items->size(); at = end)
        end = island_end(*items, at), expected += pace->islands.expected(end - at);
    }
    const std::size_t rank_count = std::size_t(ranks.size());
    std::vector<std::int64_t> counts(2 * rank_count, 0);
    counts[std::size_t(me)] = std::llround(expected);
    counts[rank_count + std::size_t(me)] = pace->timed ? std::llround(pace->seconds_an_increment * 1e12) : 1;
    ranks.sum(counts);
    const std::vector<std::int64_t> paces = paces_of(std::span(counts).last(rank_count));
    const std::vector<Hand> hands = paces.empty() ? std::vector<Hand>() : hands_of(std::span(counts).first(rank_count), paces);
    pace->islands_handed = 0;
    if (!hands.empty()) {
      // This rank's islands in place, by label, each its contacts as found; handed in that
      // order while an island brings the taker nearer its share.
      const std::int64_t pace_ps = paces[std::size_t(me)];
      std::map<int, std::vector<ContactRecord>> handed;
      std::vector<std::uint32_t> kept;
      std::size_t at = 0;
      for (const Hand& hand : hands) {
        if (hand.giver != me) continue;
        for (std::int64_t given = 0; at < by_island.size();) {
          const std::size_t end = island_end(by_island, at);
          const std::int64_t island_ps = std::llround(pace->islands.expected(end - at) * double(pace_ps));
          if (2 * (given + island_ps) > 2 * hand.ps + island_ps) break;
          for (; at < end; ++at) {
            const std::uint32_t k = by_island[at].second;
            handed[hand.taker].push_back(contact_record(world, posed, colliding[k], seq[k], by_island[at].first));
          }
          given += island_ps;
          ++pace->islands_handed;
        }
      }
      for (; at < by_island.size(); ++at) kept.push_back(by_island[at].second);
      in_place = std::move(kept);
      for (const auto& [rank, bytes] : ranks.send_to_any(packed(handed)))
        for (const ContactRecord& r : from_bytes<ContactRecord>(bytes)) {
          records.push_back(r);
          sent_by.push_back(rank);
        }
    }
  }
  const auto resolving = std::chrono::steady_clock::now();

  // The halo's grains each island resolved here moved, to their owners (and from them to every
  // rank that holds them).
  std::vector<std::uint32_t> owner_partner(n, 0);  // by halo grain: its owner's place among the partners
  for (std::size_t k = 0; k < halo.partners.size(); ++k)
    for (std::uint32_t i : halo.take[k]) owner_partner[i] = std::uint32_t(k);
  std::vector<std::vector<Resolved>> to_owners(halo.partners.size());
  totals = resolve_in_place(world, posed, colliding, in_place, seq, is_static, settings);
  {
    std::vector<std::uint32_t> moved;
    for (const std::uint32_t k : in_place) {
      moved.push_back(colliding[k].a);
      if (!is_static[colliding[k].b]) moved.push_back(colliding[k].b);
    }
    std::sort(moved.begin(), moved.end());
    moved.erase(std::unique(moved.begin(), moved.end()), moved.end());
    for (const std::uint32_t i : moved)
      if (!owned[i]) to_owners[owner_partner[i]].push_back(resolved_of(world.id[i], posed[i]));
  }
  std::map<int, std::vector<Resolved>> replies;
  if (!records.empty()) totals += resolve_here(world, std::move(records), sent_by, settings, replies);
  if (pace && pace->timed && totals.increments > 0) {
    const double last =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - resolving).count() / double(totals.increments);
    pace->seconds_an_increment = pace->seconds_an_increment > 0 ? 0.5 * (pace->seconds_an_increment + last) : last;
  }

  // The new velocities of the islands resolved from records to the ranks that sent the
  // grains, on to the grains' owners.
  auto index_of = [&](std::uint64_t id) {
    return std::uint32_t(std::lower_bound(world.id.begin(), world.id.end(), id) - world.id.begin());
  };
  for (const auto& [rank, bytes] : ranks.send_to_any(packed(replies)))
    for (const Resolved& r : from_bytes<Resolved>(bytes)) {
      const std::uint32_t i = index_of(r.id);
      set_resolved(posed[i], r);
      if (!owned[i]) to_owners[owner_partner[i]].push_back(r);
    }
  std::vector<Bytes> outgoing;
  for (const std::vector<Resolved>& list : to_owners) outgoing.push_back(to_bytes<Resolved>(list));
  for (const Bytes& bytes : ranks.exchange(halo.partners, outgoing))
    for (const Resolved& r : from_bytes<Resolved>(bytes)) set_resolved(posed[index_of(r.id)], r);
  refresh_halo(posed, halo, ranks);
  totals.sum_across(ranks);
  if (pace) pace->islands += totals.by_size;  // every rank's islands: the same on every rank
  return totals;
}

}  // namespace scree::solver
