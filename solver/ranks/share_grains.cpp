#include "solver/ranks/share_grains.h"

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <string>

#include "solver/id_index.h"
#include "solver/let_go.h"
#include "solver/ranks/body_records.h"
#include "solver/ranks/parcel.h"

namespace scree::solver {

namespace {

// A grain in plain numbers, as it travels: its body and what does not change.
struct GrainRecord {
  std::uint64_t id;
  std::uint32_t shape, material;
  double scale;
  BodyRecord body;
};

GrainRecord record_of(const Grain& g) { return {g.id, g.shape, g.material, g.scale, solver::record_of(g.body)}; }

Grain grain_of(const GrainRecord& r) { return {r.id, r.shape, r.material, r.scale, body_of(r.body)}; }

// A resting impulse by ids, as it travels with its grain A.
struct ImpulseRecord {
  std::uint64_t a;         // A's id
  std::uint64_t b;         // B's id, or (b_static) B's place among the static bodies: its wall, or the terrain after them
  std::int32_t plane, node;
  std::uint32_t b_static;
  float impulse[3];
};

// What one rank sends another: its grains, then their impulses (a Parcel of the two).
struct Message {
  std::vector<GrainRecord> grains;
  std::vector<ImpulseRecord> impulses;

  // Its bytes; the records let go, so a hand-over holds each message once.
  Bytes take_bytes() {
    Bytes bytes = Parcel::of(grains, impulses);
    let_go(grains);
    let_go(impulses);
    return bytes;
  }
  static Message from(const Bytes& bytes) {
    ParcelReader in(bytes);
    Message m;
    m.grains = in.take<GrainRecord>();
    m.impulses = in.take<ImpulseRecord>();
    return m;
  }
};

}  // namespace

Halo share_grains(World& world, std::vector<char>& owned, const Decomposition& regions, double halo, const Ranks& ranks) {
  const int me = ranks.rank();
  if (regions.ranks() != ranks.size())
    throw std::invalid_argument("share_grains: " + std::to_string(regions.ranks()) + " regions for " +
                                std::to_string(ranks.size()) + " ranks");
  if (owned.size() != world.grain_count()) throw std::invalid_argument("share_grains: one owned mark a grain");
  // The ranks whose regions lie within the halo, unless a grain must go further on any rank
  // (the first share, regions cut anew): then every rank exchanges with every other.
  const std::size_t grains = world.grain_count();
  std::vector<int> partners = regions.neighbours(me, halo);
  // The ranks each owned grain goes to, one flat array: grain i's from near_start[i] on.
  std::vector<std::uint32_t> near_start(grains + 1, 0);
  std::vector<int> near;
  double far = 0;
  for (std::uint32_t i = 0; i < grains; ++i) {
    if (owned[i])
      for (int rank : regions.ranks_near(world.bodies[i].position, halo)) {
        near.push_back(rank);
        if (rank != me && !std::binary_search(partners.begin(), partners.end(), rank)) far = 1;
      }
    near_start[i + 1] = std::uint32_t(near.size());
  }
  if (ranks.max(far) > 0) {
    partners.clear();
    for (int r = 0; r < ranks.size(); ++r)
      if (r != me) partners.push_back(r);
  }
  // Messages by slot: the partners', then this rank's own; `near` becomes slots. The grains
  // this rank keeps stay in its world until the new one is made (a copy of them in a message
  // was a tenth of a rank's peak of memory, docs/parallel.md, "Memory"); their impulses go in
  // its own message, as the others'.
  for (int& rank : near)
    rank = rank == me ? int(partners.size()) : int(std::lower_bound(partners.begin(), partners.end(), rank) - partners.begin());
  std::vector<Message> to(partners.size() + 1);
  std::vector<std::size_t> count(to.size(), 0);
  for (const int slot : near) ++count[std::size_t(slot)];
  for (std::size_t k = 0; k < partners.size(); ++k) to[k].grains.reserve(count[k]);
  std::vector<std::uint32_t> kept;
  kept.reserve(count.back());
  for (std::uint32_t i = 0; i < grains; ++i) {
    if (!owned[i]) continue;
    const GrainRecord record = record_of(world.grain(i));
    for (std::uint32_t k = near_start[i]; k < near_start[i + 1]; ++k)
      if (const std::size_t slot = std::size_t(near[k]); slot < partners.size()) to[slot].grains.push_back(record);
      else kept.push_back(i);
  }
  // Each owned grain's impulses go where it goes; the receiver keeps those whose B it holds.
  for (const auto& [key, impulse] : world.resting_impulses) {
    if (key.a >= grains || !owned[key.a]) continue;
    const bool b_static = key.b >= grains;
    const ImpulseRecord record{world.id[key.a], b_static ? key.b - grains : world.id[key.b], key.plane, key.node,
                               std::uint32_t(b_static), {impulse.x(), impulse.y(), impulse.z()}};
    for (std::uint32_t k = near_start[key.a]; k < near_start[key.a + 1]; ++k) to[std::size_t(near[k])].impulses.push_back(record);
  }
  let_go(near);
  let_go(near_start);

  std::vector<Bytes> outgoing;
  for (std::size_t k = 0; k < partners.size(); ++k) outgoing.push_back(to[k].take_bytes());
  std::vector<Message> received;
  {
    std::vector<Bytes> incoming = ranks.exchange(partners, outgoing);
    let_go(outgoing);
    for (Bytes& bytes : incoming) {
      received.push_back(Message::from(bytes));
      let_go(bytes);
    }
  }
  received.push_back(std::move(to.back()));

  std::vector<Grain> held;
  std::size_t coming = kept.size();
  for (const Message& m : received) coming += m.grains.size();
  held.reserve(coming);
  for (const std::uint32_t i : kept) held.push_back(world.grain(i));
  let_go(kept);
  for (Message& m : received) {
    for (const GrainRecord& r : m.grains) held.push_back(grain_of(r));
    let_go(m.grains);
  }
  std::sort(held.begin(), held.end(), [](const Grain& x, const Grain& y) { return x.id < y.id; });
  for (std::size_t k = 1; k < held.size(); ++k)
    if (held[k - 1].id == held[k].id)
      throw std::logic_error("share_grains: grain " + std::to_string(held[k].id) + " came from two owners");
  world.replace_grains(std::move(held));

  const IdIndex index_of(world.id);
  std::vector<RestingImpulses::Entry> entries;
  for (const Message& m : received)
    for (const ImpulseRecord& r : m.impulses) {
      const std::uint32_t a = index_of.find(r.a);
      const std::uint32_t b = r.b_static ? std::uint32_t(world.grain_count() + r.b) : index_of.find(r.b);
      if (a == IdIndex::absent || b == IdIndex::absent) continue;
      entries.push_back({RestingKey{a, b, r.plane, r.node}, RestingImpulses::Impulse(r.impulse[0], r.impulse[1], r.impulse[2])});
    }
  world.resting_impulses = RestingImpulses(std::move(entries));
  owned.assign(world.grain_count(), 0);
  Halo laid_out;
  laid_out.partners = regions.neighbours(me, halo);
  laid_out.send.resize(laid_out.partners.size());
  laid_out.take.resize(laid_out.partners.size());
  auto partner_slot = [&](int rank) {
    return std::size_t(std::lower_bound(laid_out.partners.begin(), laid_out.partners.end(), rank) - laid_out.partners.begin());
  };
  for (std::uint32_t i = 0; i < world.grain_count(); ++i) {
    const Vec3& at = world.bodies[i].position;
    const int owner = regions.owner(at);
    owned[i] = owner == me;
    if (owner != me) {
      laid_out.take[partner_slot(owner)].push_back(i);
      continue;
    }
    for (int rank : regions.ranks_near(at, halo))
      if (rank != me) laid_out.send[partner_slot(rank)].push_back(i);
  }
  return laid_out;
}

void refresh_halo(std::vector<RigidBody>& bodies, const Halo& halo, const Ranks& ranks) {
  std::vector<Bytes> outgoing;
  for (const std::vector<std::uint32_t>& send : halo.send)
    outgoing.push_back(to_bytes<Motion>(send.size(), [&](std::size_t j) { return motion_of(bodies[send[j]]); }));
  const std::vector<Bytes> incoming = ranks.exchange(halo.partners, outgoing);
  for (std::size_t k = 0; k < halo.partners.size(); ++k) {
    const std::size_t count = incoming[k].size() / sizeof(Motion);
    if (count != halo.take[k].size())
      throw std::logic_error("refresh_halo: rank " + std::to_string(halo.partners[k]) + " sent " + std::to_string(count) +
                             " grains for a halo of " + std::to_string(halo.take[k].size()));
    for (std::size_t j = 0; j < count; ++j) set_motion(bodies[halo.take[k][j]], value_at<Motion>(incoming[k], j));
  }
}

}  // namespace scree::solver
