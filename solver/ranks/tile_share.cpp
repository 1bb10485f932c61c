#include "solver/ranks/tile_share.h"

#include <bit>
#include <stdexcept>

namespace scree::solver {

std::vector<std::uint32_t> cut_strips(std::span<const std::uint64_t> tile_points, int ranks) {
  const std::uint64_t rank_count = std::uint64_t(ranks);
  std::uint64_t total = 0;
  for (const std::uint64_t points : tile_points) total += points;
  std::vector<std::uint32_t> cut;
  std::uint64_t before = 0;
  std::uint32_t t = 0;
  for (std::uint64_t r = 0; r < rank_count; ++r) {
    while (t < tile_points.size() && before * rank_count < total * r) before += tile_points[t++];
    cut.push_back(t);
  }
  cut.push_back(std::uint32_t(tile_points.size()));
  return cut;
}

TileShare::TileShare(const Ranks& ranks, std::span<const std::uint32_t> phase_start, std::span<const std::uint32_t> tile_start,
                     std::span<const std::uint32_t> unit_start,
                     const std::vector<std::pair<std::uint32_t, std::uint32_t>>& unit_bodies, const std::vector<bool>& is_static)
    : ranks_(ranks), words_((std::size_t(ranks.size()) + 63) / 64), needs_(is_static.size() * words_, 0) {
  const std::size_t phases = phase_start.size() - 1, tiles = tile_start.size() - 1;
  const std::size_t rank_total = std::size_t(ranks.size());
  solves_.assign(tiles, 0);
  // Each phase's tiles cut where the points before them pass r / R of the phase's: strips
  // across x (tiles lie by column), so that a rank's tiles are neighbours.
  std::vector<std::vector<std::uint32_t>> cut(phases);  // by phase: rank r's first tile, then the end
  for (std::size_t f = 0; f < phases; ++f) {
    std::vector<std::uint64_t> tile_points;
    for (std::uint32_t t = phase_start[f]; t < phase_start[f + 1]; ++t)
      tile_points.push_back(unit_start[tile_start[t + 1]] - unit_start[tile_start[t]]);
    cut[f] = cut_strips(tile_points, ranks.size());
    for (std::uint32_t& t : cut[f]) t += phase_start[f];
  }
  const std::size_t me = std::size_t(ranks.rank());
  for (std::size_t f = 0; f < phases; ++f)
    for (std::uint32_t t = cut[f][me]; t < cut[f][me + 1]; ++t) solves_[t] = 1;
  // Each body's ranks, then by phase what each rank's tiles touch, in the order they meet it:
  // what it sends to the others that hold it and what it takes from them.
  auto each_body = [&](std::uint32_t first_tile, std::uint32_t end_tile, auto&& body) {
    for (std::uint32_t t = first_tile; t < end_tile; ++t)
      for (std::uint32_t u = tile_start[t]; u < tile_start[t + 1]; ++u) {
        body(unit_bodies[u].first);
        if (!is_static[unit_bodies[u].second]) body(unit_bodies[u].second);
      }
  };
  for (std::size_t f = 0; f < phases; ++f)
    for (std::size_t r = 0; r < rank_total; ++r)
      each_body(cut[f][r], cut[f][r + 1], [&](std::uint32_t b) { needs_[b * words_ + r / 64] |= std::uint64_t(1) << (r % 64); });
  std::vector<std::uint32_t> met(is_static.size(), 0);  // the run of tiles that met a body last, + 1
  std::uint32_t run = 0;
  auto needs = [&](std::uint32_t b, std::size_t r) { return (needs_[b * words_ + r / 64] >> (r % 64)) & 1; };
  routes_.resize(phases);
  for (std::size_t f = 0; f < phases; ++f) {
    Route& route = routes_[f];
    std::vector<std::vector<std::uint32_t>> send(rank_total), take(rank_total);
    for (std::size_t r = 0; r < rank_total; ++r) {
      ++run;
      each_body(cut[f][r], cut[f][r + 1], [&](std::uint32_t b) {
        if (met[b] == run) return;
        met[b] = run;
        if (r == me) {
          for (std::size_t q = 0; q < rank_total; ++q)
            if (q != me && needs(b, q)) send[q].push_back(b);
        } else if (needs(b, me)) {
          take[r].push_back(b);
        }
      });
    }
    for (std::size_t r = 0; r < rank_total; ++r)
      if (!send[r].empty() || !take[r].empty()) {
        route.partners.push_back(int(r));
        route.send.push_back(std::move(send[r]));
        route.take.push_back(std::move(take[r]));
      }
  }
  // This rank's tiles of each phase, those that read none of the bodies the last phase's
  // route brings first.
  std::vector<char> arriving(is_static.size(), 0);
  order_.resize(phases);
  ready_.assign(phases, 0);
  for (std::size_t f = 0; f < phases; ++f) {
    if (f > 0)
      for (const std::vector<std::uint32_t>& take : routes_[f - 1].take)
        for (std::uint32_t b : take) arriving[b] = 1;
    std::vector<std::uint32_t> waiting;
    for (std::uint32_t t = cut[f][me]; t < cut[f][me + 1]; ++t) {
      bool reads = false;
      each_body(t, t + 1, [&](std::uint32_t b) { reads = reads || arriving[b]; });
      (reads ? waiting : order_[f]).push_back(t);
    }
    ready_[f] = std::uint32_t(order_[f].size());
    order_[f].insert(order_[f].end(), waiting.begin(), waiting.end());
    if (f > 0)
      for (const std::vector<std::uint32_t>& take : routes_[f - 1].take)
        for (std::uint32_t b : take) arriving[b] = 0;
  }
}

bool TileShare::solves(std::uint32_t tile) const { return solves_[tile] != 0; }

bool TileShare::holds(std::uint32_t body) const {
  const std::size_t me = std::size_t(ranks_.rank());
  return (needs_[body * words_ + me / 64] >> (me % 64)) & 1;
}

bool TileShare::keeps(std::uint32_t body) const {
  for (std::size_t w = 0; w < words_; ++w)
    if (const std::uint64_t word = needs_[body * words_ + w]; word != 0)
      return w * 64 + std::size_t(std::countr_zero(word)) == std::size_t(ranks_.rank());
  return false;
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
  std::vector<Bytes> to;
  for (const std::vector<std::uint32_t>& send : route.send) {
    std::vector<double> values;
    for (std::uint32_t b : send) {
      const RigidBody& body = bodies[b];
      values.insert(values.end(), {body.velocity.x(), body.velocity.y(), body.velocity.z(), body.angular_velocity.x(),
                                   body.angular_velocity.y(), body.angular_velocity.z(), double(moved[b])});
      if (const GroupImpulse* x = impulses_of(b))
        for (int s = 0; s < slots; ++s)
          for (const Vec3* v : {&x[s].linear, &x[s].angular, &x[s].normal_linear, &x[s].normal_angular})
            values.insert(values.end(), {v->x(), v->y(), v->z()});
    }
    to.push_back(to_bytes(std::span<const double>(values)));
  }
  std::vector<std::size_t> sizes;
  for (const std::vector<std::uint32_t>& take : route.take) {
    std::size_t values = 0;
    for (std::uint32_t b : take) values += body_values + (impulses_of(b) ? impulse_values : 0);
    sizes.push_back(values * sizeof(double));
  }
  under_way_ = {ranks_.start_exchange(route.partners, std::move(to), sizes), phase, impulses, place};
}

void TileShare::finish_phase(std::vector<RigidBody>& bodies, std::vector<int>& moved) const {
  if (!under_way()) return;
  const Route& route = routes_[under_way_.phase];
  const std::vector<Bytes> from = under_way_.exchange.finish();
  constexpr int slots = CoarseLayers::slots;
  auto impulses_of = [&](std::uint32_t b) { return group_impulses_of(under_way_.impulses, under_way_.place, b); };
  for (std::size_t k = 0; k < route.partners.size(); ++k) {
    const std::vector<double> values = from_bytes<double>(from[k]);
    const double* at = values.data();
    auto vec = [&] {
      const Vec3 v(at[0], at[1], at[2]);
      at += 3;
      return v;
    };
    for (std::uint32_t b : route.take[k]) {
      RigidBody& body = bodies[b];
      body.velocity = vec();
      body.angular_velocity = vec();
      moved[b] = int(*at++);
      if (GroupImpulse* x = impulses_of(b))
        for (int s = 0; s < slots; ++s)
          for (Vec3* v : {&x[s].linear, &x[s].angular, &x[s].normal_linear, &x[s].normal_angular}) *v = vec();
    }
  }
  under_way_ = {};
}

}  // namespace scree::solver
