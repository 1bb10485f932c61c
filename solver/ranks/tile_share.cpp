#include "solver/ranks/tile_share.h"

#include <cstring>
#include <map>
#include <stdexcept>

#include "solver/let_go.h"

namespace scree::solver {

std::vector<std::uint32_t> cut_strips(std::span<const std::uint64_t> tile_work, std::span<const double> shares) {
  double total = 0, all_shares = 0;
  for (const std::uint64_t work : tile_work) total += double(work);
  for (const double share : shares) all_shares += share;
  // Tile t goes before mark r while its middle lies before it: (2 before + work) · Σ shares <
  // 2 total · (shares before r), exact for even shares and works below 2^50.
  std::vector<std::uint32_t> cut;
  double before = 0, shares_before = 0;
  std::uint32_t t = 0;
  for (const double share : shares) {
    while (t < tile_work.size() && (2 * before + double(tile_work[t])) * all_shares < 2 * total * shares_before)
      before += double(tile_work[t++]);
    cut.push_back(t);
    shares_before += share;
  }
  cut.push_back(std::uint32_t(tile_work.size()));
  return cut;
}

std::vector<std::uint32_t> cut_strips(std::span<const std::uint64_t> tile_work, int ranks) {
  return cut_strips(tile_work, std::vector<double>(std::size_t(ranks), 1.0));
}

TileShare::TileShare(const Ranks& ranks, std::span<const std::uint32_t> phase_start, std::span<const std::uint32_t> tile_start,
                     const std::vector<std::pair<std::uint32_t, std::uint32_t>>& unit_bodies, const std::vector<bool>& is_static,
                     const BodySharers& sharers)
    : ranks_(ranks), keeps_(is_static.size(), 0) {
  const std::size_t phases = phase_start.size() - 1, bodies = is_static.size();
  auto each_body = [&](std::uint32_t tile, auto&& body) {
    for (std::uint32_t u = tile_start[tile]; u < tile_start[tile + 1]; ++u) {
      body(unit_bodies[u].first);
      if (!is_static[unit_bodies[u].second]) body(unit_bodies[u].second);
    }
  };
  std::vector<std::uint32_t> mine(bodies, 0);  // by body: the phases whose tiles here move it
  for (std::size_t f = 0; f < phases; ++f)
    for (std::uint32_t t = phase_start[f]; t < phase_start[f + 1]; ++t) each_body(t, [&](std::uint32_t b) { mine[b] |= 1u << f; });
  auto sharers_of = [&](std::uint32_t b) {
    return std::span<const BodySharers::Sharer>(sharers.list.data() + sharers.start[b], sharers.start[b + 1] - sharers.start[b]);
  };
  for (std::uint32_t b = 0; b < bodies; ++b)
    keeps_[b] = mine[b] != 0 && (sharers_of(b).empty() || sharers_of(b).front().rank > ranks.rank());
  // By phase, what this rank sends each sharer and takes from it: bodies in the order of
  // their ids, which both sides list alike.
  routes_.resize(phases);
  for (std::size_t f = 0; f < phases; ++f) {
    std::map<int, std::pair<std::vector<std::uint32_t>, std::vector<std::uint32_t>>> with;  // by rank: send, take
    for (std::uint32_t b = 0; b < bodies; ++b)
      if (mine[b])
        for (const BodySharers::Sharer& sharer : sharers_of(b)) {
          if (mine[b] >> f & 1) with[sharer.rank].first.push_back(b);
          if (sharer.phases >> f & 1) with[sharer.rank].second.push_back(b);
        }
    Route& route = routes_[f];
    for (auto& [rank, lists] : with) {
      route.partners.push_back(rank);
      route.send.push_back(std::move(lists.first));
      route.take.push_back(std::move(lists.second));
    }
  }
  // This rank's tiles of each phase, those that read none of the bodies the last phase's
  // route brings first.
  std::vector<char> arriving(bodies, 0);
  order_.resize(phases);
  ready_.assign(phases, 0);
  for (std::size_t f = 0; f < phases; ++f) {
    if (f > 0)
      for (const std::vector<std::uint32_t>& take : routes_[f - 1].take)
        for (std::uint32_t b : take) arriving[b] = 1;
    std::vector<std::uint32_t> waiting;
    for (std::uint32_t t = phase_start[f]; t < phase_start[f + 1]; ++t) {
      bool reads = false;
      each_body(t, [&](std::uint32_t b) { reads = reads || arriving[b]; });
      (reads ? waiting : order_[f]).push_back(t);
    }
    ready_[f] = std::uint32_t(order_[f].size());
    order_[f].insert(order_[f].end(), waiting.begin(), waiting.end());
    if (f > 0)
      for (const std::vector<std::uint32_t>& take : routes_[f - 1].take)
        for (std::uint32_t b : take) arriving[b] = 0;
  }
}

namespace {

// What a body's share of a phase's message holds, in doubles: its velocities and the pass that
// moved it, and its group impulses if it has them.
constexpr std::size_t body_values = 7, impulse_values = std::size_t(CoarseLayers::slots) * 4 * 3;

// Body b's group impulses (its slots) where `impulses` travel and b has them, else null.
GroupImpulse* group_impulses_of(std::vector<GroupImpulse>* impulses, const std::vector<std::uint32_t>* place, std::uint32_t b) {
  if (!impulses || (*place)[b] == CoarseLayers::none) return nullptr;
  return &(*impulses)[std::size_t((*place)[b]) * CoarseLayers::slots];
}

}  // namespace

void TileShare::start_phase(std::size_t phase, const std::vector<RigidBody>& bodies, const std::vector<int>& moved,
                            std::vector<GroupImpulse>* impulses, const std::vector<std::uint32_t>* place) const {
  if (under_way()) throw std::logic_error("start_phase: the last phase's bodies are still under way");
  const Route& route = routes_[phase];
  if (route.partners.empty()) return;
  constexpr int slots = CoarseLayers::slots;
  auto impulses_of = [&](std::uint32_t b) -> const GroupImpulse* { return group_impulses_of(impulses, place, b); };
  // Each message's values written where they travel, its size known first: a phase's
  // messages had been built in a growing array and copied (docs/benchmarks.md, "Instructions
  // on sixteen ranks").
  auto bytes_of = [&](const std::vector<std::uint32_t>& bodies_sent) {
    std::size_t values = 0;
    for (std::uint32_t b : bodies_sent) values += body_values + (impulses_of(b) ? impulse_values : 0);
    return values * sizeof(double);
  };
  std::vector<Bytes> to;
  for (const std::vector<std::uint32_t>& send : route.send) {
    Bytes& bytes = to.emplace_back(bytes_of(send));
    std::byte* at = bytes.data();
    auto put = [&](double value) {
      std::memcpy(at, &value, sizeof value);
      at += sizeof value;
    };
    auto put_vec = [&](const Vec3& v) { put(v.x()), put(v.y()), put(v.z()); };
    for (std::uint32_t b : send) {
      const RigidBody& body = bodies[b];
      put_vec(body.velocity);
      put_vec(body.angular_velocity);
      put(double(moved[b]));
      if (const GroupImpulse* x = impulses_of(b))
        for (int s = 0; s < slots; ++s)
          for (const Vec3* v : {&x[s].linear, &x[s].angular, &x[s].normal_linear, &x[s].normal_angular}) put_vec(*v);
    }
  }
  std::vector<std::size_t> sizes;
  for (const std::vector<std::uint32_t>& take : route.take) sizes.push_back(bytes_of(take));
  under_way_ = {ranks_.start_exchange(route.partners, std::move(to), sizes), phase, impulses, place};
}

void TileShare::finish_phase(std::vector<RigidBody>& bodies, std::vector<int>& moved) const {
  if (!under_way()) return;
  const Route& route = routes_[under_way_.phase];
  const std::vector<Bytes> from = under_way_.exchange.finish();
  constexpr int slots = CoarseLayers::slots;
  auto impulses_of = [&](std::uint32_t b) { return group_impulses_of(under_way_.impulses, under_way_.place, b); };
  for (std::size_t k = 0; k < route.partners.size(); ++k) {
    std::size_t at = 0;  // read where it came, as start_phase wrote it
    auto take = [&] { return value_at<double>(from[k], at++); };
    auto vec = [&] {
      const double x = take(), y = take();
      return Vec3(x, y, take());
    };
    for (std::uint32_t b : route.take[k]) {
      RigidBody& body = bodies[b];
      body.velocity = vec();
      body.angular_velocity = vec();
      moved[b] = int(take());
      if (GroupImpulse* x = impulses_of(b))
        for (int s = 0; s < slots; ++s)
          for (Vec3* v : {&x[s].linear, &x[s].angular, &x[s].normal_linear, &x[s].normal_angular}) *v = vec();
    }
  }
  let_go(under_way_);
}

}  // namespace scree::solver
