// The contact search shared among ranks (SearchShare in solver/contacts/contact_finding.h), on
// 1, 2, 3 and 4 ranks: each rank searches its part of its own grains and halo, and together
// they find every contact of the whole world once, bit for bit as one process finds it.
#include <gtest/gtest.h>

#include <Eigen/Geometry>

#include <algorithm>
#include <cstdio>
#include <map>
#include <sstream>
#include <random>
#include <string>
#include <tuple>

#include "ranks/box_stack.h"
#include "solver/contacts/contact_finding.h"
#include "solver/ranks/share_grains.h"
#include "solver/world.h"

namespace scree::solver {
namespace {

// What a body is, by name: a grain's id or a wall.
std::string body_name(const World& w, std::uint32_t body) {
  if (body < w.grain_count()) return std::to_string(w.id[body]);
  return "wall " + std::to_string(body - w.grain_count());
}

std::string hex(double x) {
  char text[40];
  std::snprintf(text, sizeof text, "%a", x);
  return text;
}

// Each contact and face found, as a line holding every value to the last bit, keyed by the
// place one process's search gives it: pairs by their ids, then grains against the walls, in
// the order found within each.
using Keyed = std::tuple<int, std::uint64_t, std::uint64_t, std::size_t, std::string>;

std::vector<Keyed> lines(const World& w, const FoundContacts& found) {
  std::vector<Keyed> out;
  auto key = [&](std::uint32_t a, std::uint32_t b) {
    return b < w.grain_count() ? std::tuple{0, w.id[a], w.id[b]} : std::tuple{1, w.id[a], std::uint64_t(b - w.grain_count())};
  };
  std::map<std::tuple<int, std::uint64_t, std::uint64_t>, std::size_t> seen;
  for (const Contact& c : found.contacts) {
    const auto k = key(c.a, c.b);
    std::string text = "contact " + body_name(w, c.a) + " " + body_name(w, c.b);
    for (int d = 0; d < 3; ++d) text += " " + hex(c.point[d]) + " " + hex(c.normal[d]);
    text += " " + hex(c.depth);
    out.emplace_back(std::get<0>(k), std::get<1>(k), std::get<2>(k), seen[k]++, text);
  }
  for (const SupportFace& f : found.faces) {
    const auto k = key(f.grain, f.body);
    std::string text = "face " + body_name(w, f.grain) + " " + body_name(w, f.body) + " " + std::to_string(f.plane);
    for (int d = 0; d < 3; ++d) text += " " + hex(f.normal[d]);
    for (const SupportPoint& p : found.points_of(f))
      text += " | " + hex(p.arm.x()) + " " + hex(p.arm.y()) + " " + hex(p.arm.z()) + " " + std::to_string(p.node) + " " + hex(p.depth);
    out.emplace_back(std::get<0>(k) + 2, std::get<1>(k), std::get<2>(k), seen[k]++, text);
  }
  return out;
}

TEST(ContactSearch, TheRanksFindEveryContactOnceAsOneProcessFindsIt) {
  const Ranks ranks = Ranks::world();
  const World whole = stack();
  const double dt = 1e-3, margin = 1e-5;
  std::vector<Keyed> expected = lines(whole, find_contacts(whole, whole.bodies, dt, margin));
  std::sort(expected.begin(), expected.end());

  // This rank's grains: every ranks-th at first, then its region's and its halo's.
  std::vector<Vec3> places;
  for (std::size_t i = 0; i < whole.grain_count(); ++i) places.push_back(whole.bodies[i].position);
  const Decomposition regions =
      Decomposition::bisection(places, std::vector<std::int64_t>(places.size(), 1), ranks.size());
  World mine = stack();
  std::vector<Grain> first;
  for (std::size_t i = std::size_t(ranks.rank()); i < whole.grain_count(); i += std::size_t(ranks.size()))
    first.push_back(whole.grain(std::uint32_t(i)));
  mine.replace_grains(first);
  std::vector<char> owned(mine.grain_count(), 1);
  const double reach = 2 * whole.shapes[0].bounding_radius + margin;
  share_grains(mine, owned, regions, 2 * reach, ranks);

  const SearchShare share{regions, ranks.rank(), owned};
  NeighbourList neighbours;  // as the step keeps one, over two searches
  for (int search = 0; search < 2; ++search) {
    const FoundContacts found = find_contacts(mine, mine.bodies, dt, margin, &neighbours, 0.05, &mine.near_nodes, nullptr, &share);
    std::string text;
    for (const Keyed& line : lines(mine, found))
      text += std::to_string(std::get<0>(line)) + " " + std::to_string(std::get<1>(line)) + " " +
              std::to_string(std::get<2>(line)) + " " + std::to_string(std::get<3>(line)) + " " + std::get<4>(line) + "\n";
    std::vector<Keyed> together;
    for (const Bytes& part : ranks.gather_all(to_bytes(std::span<const char>(text.data(), text.size())))) {
      const std::vector<char> chars = from_bytes<char>(part);
      std::istringstream in(std::string(chars.begin(), chars.end()));
      Keyed line;
      while (in >> std::get<0>(line) >> std::get<1>(line) >> std::get<2>(line) >> std::get<3>(line)) {
        in.get();
        std::getline(in, std::get<4>(line));
        together.push_back(line);
      }
    }
    std::sort(together.begin(), together.end());
    EXPECT_GT(expected.size(), 1000u);
    EXPECT_EQ(together.size(), expected.size()) << "search " << search;
    EXPECT_TRUE(together == expected) << "search " << search;
    for (std::size_t k = 0; k < std::min(together.size(), expected.size()); ++k)
      if (together[k] != expected[k]) {
        ADD_FAILURE() << std::get<4>(together[k]) << "\n" << std::get<4>(expected[k]);
        break;
      }
  }
}

}  // namespace
}  // namespace scree::solver
