#include "solver/ranks/share_grains.h"

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <string>
#include <unordered_map>

#include "solver/ranks/body_records.h"

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

// What one rank sends another: how many grains, the grains, then the impulses.
struct Message {
  std::vector<GrainRecord> grains;
  std::vector<ImpulseRecord> impulses;

  Bytes bytes() const {
    const std::uint64_t count = grains.size();
    Bytes out = to_bytes<std::uint64_t>(std::span(&count, 1));
    const Bytes g = to_bytes<GrainRecord>(grains), i = to_bytes<ImpulseRecord>(impulses);
    out.insert(out.end(), g.begin(), g.end());
    out.insert(out.end(), i.begin(), i.end());
    return out;
  }
  static Message from(const Bytes& bytes) {
    Message m;
    std::uint64_t count = 0;
    std::memcpy(&count, bytes.data(), sizeof count);
    const std::size_t grains_end = sizeof count + count * sizeof(GrainRecord);
    m.grains = from_bytes<GrainRecord>(Bytes(bytes.begin() + sizeof count, bytes.begin() + std::ptrdiff_t(grains_end)));
    m.impulses = from_bytes<ImpulseRecord>(Bytes(bytes.begin() + std::ptrdiff_t(grains_end), bytes.end()));
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
  std::vector<std::vector<int>> destinations(grains);
  double far = 0;
  for (std::uint32_t i = 0; i < grains; ++i) {
    if (!owned[i]) continue;
    destinations[i] = regions.ranks_near(world.bodies[i].position, halo);
    for (int rank : destinations[i])
      if (rank != me && !std::binary_search(partners.begin(), partners.end(), rank)) far = 1;
  }
  if (ranks.max(far) > 0) {
    partners.clear();
    for (int r = 0; r < ranks.size(); ++r)
      if (r != me) partners.push_back(r);
  }
  // Messages by slot: the partners', then this rank's own.
  std::vector<Message> to(partners.size() + 1);
  auto slot_of = [&](int rank) -> std::size_t {
    if (rank == me) return partners.size();
    return std::size_t(std::lower_bound(partners.begin(), partners.end(), rank) - partners.begin());
  };
  std::vector<std::vector<std::size_t>> slots_of(grains);  // where each owned grain goes
  for (std::uint32_t i = 0; i < grains; ++i) {
    if (!owned[i]) continue;
    for (int rank : destinations[i]) slots_of[i].push_back(slot_of(rank));
    const GrainRecord record = record_of(world.grain(i));
    for (std::size_t slot : slots_of[i]) to[slot].grains.push_back(record);
  }
  // Each owned grain's impulses go where it goes; the receiver keeps those whose B it holds.
  for (const auto& [key, impulse] : world.resting_impulses) {
    if (key.a >= grains || !owned[key.a]) continue;
    const bool b_static = key.b >= grains;
    const ImpulseRecord record{world.id[key.a], b_static ? key.b - grains : world.id[key.b], key.plane, key.node,
                               std::uint32_t(b_static), {impulse.x(), impulse.y(), impulse.z()}};
    for (std::size_t slot : slots_of[key.a]) to[slot].impulses.push_back(record);
  }

  std::vector<Bytes> outgoing;
  for (std::size_t k = 0; k < partners.size(); ++k) outgoing.push_back(to[k].bytes());
  std::vector<Message> received;
  for (const Bytes& bytes : ranks.exchange(partners, outgoing)) received.push_back(Message::from(bytes));
  received.push_back(std::move(to.back()));

  std::vector<Grain> held;
  for (const Message& m : received)
    for (const GrainRecord& r : m.grains) held.push_back(grain_of(r));
  std::sort(held.begin(), held.end(), [](const Grain& x, const Grain& y) { return x.id < y.id; });
  for (std::size_t k = 1; k < held.size(); ++k)
    if (held[k - 1].id == held[k].id)
      throw std::logic_error("share_grains: grain " + std::to_string(held[k].id) + " came from two owners");
  world.replace_grains(std::move(held));

  std::unordered_map<std::uint64_t, std::uint32_t> index_of;
  for (std::uint32_t i = 0; i < world.grain_count(); ++i) index_of.emplace(world.id[i], i);
  std::vector<RestingImpulses::Entry> entries;
  for (const Message& m : received)
    for (const ImpulseRecord& r : m.impulses) {
      const auto a = index_of.find(r.a);
      if (a == index_of.end()) continue;
      std::uint32_t b = 0;
      if (r.b_static) {
        b = std::uint32_t(world.grain_count() + r.b);
      } else {
        const auto found = index_of.find(r.b);
        if (found == index_of.end()) continue;
        b = found->second;
      }
      entries.push_back({RestingKey{a->second, b, r.plane, r.node}, RestingImpulses::Impulse(r.impulse[0], r.impulse[1], r.impulse[2])});
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
  for (const std::vector<std::uint32_t>& send : halo.send) {
    std::vector<Motion> motions;
    for (std::uint32_t i : send) motions.push_back(motion_of(bodies[i]));
    outgoing.push_back(to_bytes<Motion>(motions));
  }
  const std::vector<Bytes> incoming = ranks.exchange(halo.partners, outgoing);
  for (std::size_t k = 0; k < halo.partners.size(); ++k) {
    const std::vector<Motion> motions = from_bytes<Motion>(incoming[k]);
    if (motions.size() != halo.take[k].size())
      throw std::logic_error("refresh_halo: rank " + std::to_string(halo.partners[k]) + " sent " +
                             std::to_string(motions.size()) + " grains for a halo of " + std::to_string(halo.take[k].size()));
    for (std::size_t j = 0; j < motions.size(); ++j) set_motion(bodies[halo.take[k][j]], motions[j]);
  }
}

}  // namespace scree::solver
