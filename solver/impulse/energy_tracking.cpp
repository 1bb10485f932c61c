#include "solver/impulse/energy_tracking.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <tuple>
#include <unordered_map>
#include <utility>

#include "solver/impulse/contact_impulse.h"
#include "solver/impulse/energy_release.h"

namespace scree::solver {

namespace {

// What the rounds scan contact by contact, apart from the contacts' frames (~400 bytes
// each), so that a scan of an island's contacts reads a few cache lines.
struct Tracked {
  double mass;         // m_A m_B / (m_A + m_B): weights the ordering (seed 000 §4.3)
  double step = 0;     // velocity increment: 1/α of the fastest approach seen, m/s
  double stored = 0;   // W, J
  double restitution;
  Vec3 impulse = Vec3::Zero();
};

// Release steps are this much finer than compression's. With equal steps the answer's error
// in 1/α is set by the release order: a Newton's cradle changed by 2.1 % of v0 from α = 10 to
// 100; with quarter steps by 0.56 % (docs/validation.md).
constexpr double release_refinement = 4;

double reduced_mass(const RigidBody& a, const RigidBody& b) {
  return 1.0 / (a.inverse_mass + b.inverse_mass);
}

class Resolution {
 public:
  Resolution(std::vector<RigidBody>& bodies, std::span<const Collision> collisions,
             const EnergyTrackingSettings& settings)
      : settings_(settings) {
    contacts_.reserve(collisions.size());
    std::unordered_map<std::uint32_t, std::int32_t> slot_of_body;
    for (const Collision& c : collisions) {
      RigidBody& a = bodies[c.a];
      RigidBody& b = bodies[c.b];
      const ContactPoint point{&a, &b, c.point - a.position, c.point - b.position};
      frames_.emplace_back(point, c.normal, c.friction);
      const ContactFrame& frame = frames_.back();
      sticking_.push_back(sticking_release(frame));
      sticking_n_K_d_.push_back(frame.normal.dot(frame.K * sticking_.back().direction));
      contacts_.push_back({reduced_mass(a, b), 0, 0, c.restitution});
      normal_.push_back(frames_.back().normal_velocity());
      speed_scale_ = std::max(speed_scale_, -normal_.back());
      std::array<std::int32_t, 2> slots{-1, -1};
      for (int side = 0; side < 2; ++side) {
        const std::uint32_t body = side == 0 ? c.a : c.b;
        if (bodies[body].is_static()) continue;
        auto [it, added] = slot_of_body.try_emplace(body, std::int32_t(touching_.size()));
        if (added) touching_.emplace_back();
        slots[side] = it->second;
        touching_[std::size_t(it->second)].push_back(std::uint32_t(contacts_.size() - 1));
      }
      body_slots_.push_back(slots);
    }
    group_on_body_.assign(touching_.size(), 0);
    // Velocities within this of zero count as zero: round-off of the increments that land
    // a contact exactly on u_n = 0.
    tolerance_ = 1e-12 * speed_scale_;
    increment_cap_ = std::int64_t(1000) * settings.increments * std::max<std::size_t>(contacts_.size(), 1) *
                     std::max(settings.max_rounds, 1);
  }

  CollisionBooks run() {
    while (approaching() && books_.increments < increment_cap_) {
      if (books_.rounds == settings_.max_rounds) {
        for (Tracked& c : contacts_) c.restitution = 0;
        books_.restitution_dropped = true;
      }
      ++books_.rounds;
      compress();
      double stored = 0;
      for (Tracked& c : contacts_) {
        stored += c.stored;
        books_.restitution_loss += (1 - c.restitution * c.restitution) * c.stored;
        c.stored *= c.restitution * c.restitution;
      }
      books_.stored_peak = std::max(books_.stored_peak, stored);
      books_.phases.push_back({stored, total_stored()});
      release();
    }
    // Energy still stored when the increment cap stops a pathological island is lost.
    for (const Tracked& c : contacts_) books_.restitution_loss += c.stored;
    for (const Tracked& c : contacts_) books_.impulses.push_back(c.impulse);
    return books_;
  }

 private:
  double total_stored() const {
    double sum = 0;
    for (const Tracked& c : contacts_) sum += c.stored;
    return sum;
  }

  bool approaching() const {
    return std::any_of(normal_.begin(), normal_.end(), [&](double u) { return u < -tolerance_; });
  }

  // The normal velocities of every contact that shares a moving body with the group: the only
  // ones its impulses change.
  void refresh_group() {
    for (std::size_t i : group_)
      for (std::int32_t slot : body_slots_[i])
        if (slot >= 0)
          for (std::uint32_t k : touching_[std::size_t(slot)]) normal_[k] = frames_[k].normal_velocity();
  }

  // Applies one increment of every contact of the group at once: the impulses are computed
  // from the same velocities, so contacts alike get alike impulses whatever their order
  // (a flat face gains no spin). The work at each contact is ½ (u_before + u_after)·P with
  // u_after including the other impulses of the group, and the works sum exactly to the
  // change of kinetic energy.
  struct GroupWork {
    std::vector<double> normal_before, normal_after;
  };
  // (The scratch vectors are members: an island resolves in many thousand increments.)
  // `normal_` is brought up to date when `refresh` (compression scans it; release does not).
  const GroupWork& apply_group(const std::vector<Vec3>& impulses, double scale, bool refresh) {
    GroupWork& w = work_;
    std::vector<Vec3>& before = before_;
    w.normal_before.clear(), w.normal_after.clear(), before.clear();
    for (std::size_t i : group_) {
      before.push_back(frames_[i].point.relative_velocity());
      w.normal_before.push_back(frames_[i].normal.dot(before.back()));
    }
    for (std::size_t g = 0; g < group_.size(); ++g) frames_[group_[g]].apply(scale * impulses[g]);
    for (std::size_t g = 0; g < group_.size(); ++g) {
      Tracked& c = contacts_[group_[g]];
      const ContactFrame& frame = frames_[group_[g]];
      const Vec3 after = frame.point.relative_velocity();
      const Vec3 p = scale * impulses[g];
      const Vec3 mean = 0.5 * (before[g] + after);
      const double mean_n = frame.normal.dot(mean), p_n = frame.normal.dot(p);
      w.normal_after.push_back(frame.normal.dot(after));
      c.stored -= mean_n * p_n;
      books_.friction_loss -= mean.dot(p) - mean_n * p_n;
      c.impulse += p;
      ++books_.increments;
    }
    if (refresh) refresh_group();
    return w;
  }

  // How many members of the group act on the busier of contact i's moving bodies: the
  // group's contacts on one body share its step, so that the body moves by about one step an
  // increment (a face's contacts alike); contacts on bodies of their own take theirs whole,
  // so that a group of many contacts far apart, within β of each other in a mass that lands
  // at once, does not take |group| times the increments (the count per moving body is
  // refreshed with each group, count_group()).
  double sharing(std::size_t i) const {
    std::uint32_t most = 1;
    for (std::int32_t slot : body_slots_[i])
      if (slot >= 0) most = std::max(most, group_on_body_[std::size_t(slot)]);
    return double(most);
  }
  void count_group() {
    for (std::size_t i : counted_) group_on_body_[i] = 0;
    counted_.clear();
    for (std::size_t i : group_)
      for (std::int32_t slot : body_slots_[i])
        if (slot >= 0) {
          if (group_on_body_[std::size_t(slot)]++ == 0) counted_.push_back(std::size_t(slot));
        }
  }

  // The direction contact i releases along now, and n·K d along it.
  std::pair<Vec3, double> release_along(std::size_t i) const {
    if (sticking_[i].within_cone) return {sticking_[i].direction, sticking_n_K_d_[i]};
    const ContactFrame& frame = frames_[i];
    const Vec3 d = release_direction(frame, sticking_[i]);
    return {d, frame.normal.dot(frame.K * d)};
  }

  // Velocities of the group's bodies, to undo a trial increment exactly.
  void save_group() {
    std::vector<std::pair<Vec3, Vec3>>& saved = saved_;
    saved.clear();
    for (std::size_t i : group_) {
      const ContactPoint& p = frames_[i].point;
      saved.emplace_back(p.a->velocity, p.a->angular_velocity);
      saved.emplace_back(p.b->velocity, p.b->angular_velocity);
    }
  }
  void restore_group(const std::vector<std::pair<Vec3, Vec3>>& saved) {
    for (std::size_t g = group_.size(); g-- > 0;) {
      const ContactPoint& p = frames_[group_[g]].point;
      // A static B is left unwritten, as apply() leaves it: islands resolved side by side share it.
      if (!p.b->is_static()) std::tie(p.b->velocity, p.b->angular_velocity) = saved[2 * g + 1];
      std::tie(p.a->velocity, p.a->angular_velocity) = saved[2 * g];
    }
  }

  // Seed 000 Algorithm 1 lines 8–21: the most negative weighted velocity and those within β
  // of it move up together, each by its step shared among the group's contacts on its bodies.
  void compress() {
    const std::vector<double>& u = normal_;
    std::vector<Vec3>& impulses = impulses_;
    while (books_.increments < increment_cap_) {
      double weighted_min = 0;
      for (std::size_t i = 0; i < contacts_.size(); ++i) {
        Tracked& c = contacts_[i];
        if (u[i] < -tolerance_) {
          c.step = std::max(c.step, -u[i] / settings_.increments);
          weighted_min = std::min(weighted_min, c.mass * u[i]);
        }
      }
      if (weighted_min == 0) return;
      const double limit = (1 - settings_.group_tolerance) * weighted_min;
      group_.clear();
      impulses.clear();
      for (std::size_t i = 0; i < contacts_.size(); ++i) {
        if (u[i] >= -tolerance_ || contacts_[i].mass * u[i] > limit) continue;
        group_.push_back(i);
      }
      count_group();
      for (std::size_t i : group_) {
        const Tracked& c = contacts_[i];
        impulses.push_back(compression_impulse(frames_[i], std::min(-u[i], c.step / sharing(i))));
      }
      apply_group(impulses, 1, true);
    }
  }

  // Lines 27–41: the largest store and those within β of it release together, each by its
  // step shared among the group and never more than it holds: when the group's increment
  // would take more than some contact holds, the whole increment is scaled down until it
  // takes exactly what that contact holds.
  void release() {
    std::vector<Vec3>& impulses = impulses_;
    std::vector<double>& normal_impulse = normal_impulse_;
    std::vector<double>& held = held_;
    std::vector<Vec3>& impulse_before = impulse_before_;
    while (books_.increments < increment_cap_) {
      double largest = 0;
      for (const Tracked& c : contacts_) largest = std::max(largest, c.stored);
      if (largest <= 0) break;
      const double limit = (1 - settings_.group_tolerance) * largest;
      group_.clear();
      impulses.clear();
      normal_impulse.clear();
      for (std::size_t i = 0; i < contacts_.size(); ++i)
        if (contacts_[i].stored > 0 && contacts_[i].stored >= limit) group_.push_back(i);
      count_group();
      // The largest store outside the group: no member releases below it in one increment,
      // so the order of release follows the stores, not the size of the steps.
      double next = 0;
      for (std::size_t i = 0, g = 0; i < contacts_.size(); ++i) {
        if (g < group_.size() && group_[g] == i) {
          ++g;
          continue;
        }
        next = std::max(next, contacts_[i].stored);
      }
      for (std::size_t i : group_) {
        const Tracked& c = contacts_[i];
        const ContactFrame& frame = frames_[i];
        const auto [d, n_K_d] = release_along(i);
        const double all = release_increment(frame.normal_velocity(), c.stored, n_K_d);
        double share = c.step / (release_refinement * sharing(i));
        if (next > 0) share = std::min(share, release_increment(frame.normal_velocity(), c.stored - next, n_K_d));
        impulses.push_back((share > 0 ? std::min(share, all) : all) / n_K_d * d);
        normal_impulse.push_back(frame.normal.dot(impulses.back()));
      }
      // A store so small (a denormal left by an exact increment) that it releases nothing
      // would loop: it is round-off, lost and booked so.
      if (std::all_of(impulses.begin(), impulses.end(), [](const Vec3& p) { return p.isZero(0); })) {
        for (std::size_t i : group_) books_.restitution_loss += std::exchange(contacts_[i].stored, 0.0);
        continue;
      }
      held.clear(), impulse_before.clear();
      for (std::size_t i : group_) held.push_back(contacts_[i].stored);
      save_group();
      const double friction_before = books_.friction_loss;
      for (std::size_t i : group_) impulse_before.push_back(contacts_[i].impulse);
      const GroupWork& trial = apply_group(impulses, 1, false);
      // The normal work at contact g for the increment scaled by s is
      // s a + ½ s² b with a = u_before P_n and b = (u_after − u_before) P_n.
      double scale = 1;
      std::size_t emptied = group_.size();
      for (std::size_t g = 0; g < group_.size(); ++g) {
        const double a = trial.normal_before[g] * normal_impulse[g];
        const double b = (trial.normal_after[g] - trial.normal_before[g]) * normal_impulse[g];
        if (a + 0.5 * b < held[g]) continue;
        const double s = b > 0 ? release_increment(a, held[g], b) / b : held[g] / a;
        if (s <= scale) scale = s, emptied = g;
      }
      if (emptied == group_.size()) continue;
      restore_group(saved_);
      for (std::size_t g = 0; g < group_.size(); ++g) contacts_[group_[g]].stored = held[g];
      books_.friction_loss = friction_before;
      books_.increments -= std::int64_t(group_.size());
      for (std::size_t g = 0; g < group_.size(); ++g) contacts_[group_[g]].impulse = impulse_before[g];
      apply_group(impulses, scale, false);
      // Contacts emptied by this increment hold round-off now.
      for (std::size_t g = 0; g < group_.size(); ++g) {
        double& w = contacts_[group_[g]].stored;
        if (g == emptied || w < 1e-12 * held[g]) w = 0;
      }
    }
    // The normal velocities for the next compression, once: release reads none of them.
    for (std::size_t k = 0; k < frames_.size(); ++k) normal_[k] = frames_[k].normal_velocity();
  }

  EnergyTrackingSettings settings_;
  std::vector<ContactFrame> frames_;
  std::vector<Tracked> contacts_;
  // By contact: its release's sticking part, and n·K d along it when that is the direction.
  std::vector<StickingRelease> sticking_;
  std::vector<double> sticking_n_K_d_;
  std::vector<double> normal_;  // u_n of every contact, kept current in compression
  std::vector<std::vector<std::uint32_t>> touching_;  // by moving body (its slot): its contacts
  std::vector<std::array<std::int32_t, 2>> body_slots_;  // by contact: A's and B's slots, −1 if static
  std::vector<std::uint32_t> group_on_body_;  // by slot: members of the group on the body
  std::vector<std::size_t> counted_;         // the slots counted for the present group
  std::vector<std::size_t> group_;
  // Scratch of compress(), release() and the group moves.
  std::vector<Vec3> impulses_, impulse_before_, before_;
  std::vector<double> normal_impulse_, held_;
  std::vector<std::pair<Vec3, Vec3>> saved_;
  GroupWork work_;
  CollisionBooks books_;
  double speed_scale_ = 0, tolerance_ = 0;
  std::int64_t increment_cap_;
};

}  // namespace

CollisionBooks resolve_collisions(std::vector<RigidBody>& bodies, std::span<const Collision> collisions,
                                  const EnergyTrackingSettings& settings) {
  return Resolution(bodies, collisions, settings).run();
}

}  // namespace scree::solver
