#pragma once
// The ranks a run is shared among (docs/parallel.md): MPI_COMM_WORLD in a build with MPI
// once MpiSession has started it, else one rank alone. What the solver asks of the others —
// the largest of a value, bytes to and from the ranks it shares grains with — is said here;
// mpi.h stays in the .cpp, out of every header that includes this one. The wall time of each
// call that meets other ranks goes to seconds_with_other_ranks (phase_times.h).
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <memory>
#include <span>
#include <type_traits>
#include <utility>
#include <vector>

#include "solver/exact_sum.h"

namespace scree::solver {

using Bytes = std::vector<std::byte>;

class Ranks {
 public:
  Ranks();  // this process alone
  // Every rank of the run: MPI_COMM_WORLD when an MpiSession is open, else this process alone.
  static Ranks world();

  int size() const { return size_; }
  int rank() const { return rank_; }

  // The largest and the least of `x` over the ranks (exact: the same on every rank, in any order).
  double max(double x) const;
  double min(double x) const;
  // Element by element over the ranks, in place.
  void max(std::span<double> x) const;
  void min(std::span<double> x) const;
  std::uint64_t min(std::uint64_t x) const;
  // Sums of counts over the ranks (exact: integers).
  void sum(std::span<std::int64_t> x) const;
  // Partial sums of every rank added up, exactly: each rank gets the sum of all their terms,
  // the same bits as one ExactSum of them all (exact_sum.h).
  void sum(std::span<ExactSum> partial) const;
  // Both at once, in one reduction: the largest of `largest` and the exact sum of `partial`
  // over the ranks (a pass of a shared island needs the two, and each meeting of the ranks
  // costs the slower's wait, docs/parallel.md).
  void max_and_sum(double& largest, ExactSum& partial) const;

  // Sends to[k] to partners[k] and returns what each partner sent back, by the same k.
  // Partners must name each other (if r lists s, s lists r), each once, never this rank.
  std::vector<Bytes> exchange(std::span<const int> partners, const std::vector<Bytes>& to) const;
  // An exchange() under way, without waiting: each message's size is known to its receiver
  // beforehand (`sizes`, by partner), so that a rank goes on with work that needs nothing the
  // partners send while the messages travel (docs/parallel.md, "A big island across ranks").
  class Exchange {
   public:
    Exchange() = default;  // none under way
    bool under_way() const { return state_ != nullptr; }
    // Waits for the messages both ways and returns what came, by partner; then none is under way.
    std::vector<Bytes> finish();

   private:
    friend class Ranks;
    struct State;
    std::shared_ptr<State> state_;
  };
  Exchange start_exchange(std::span<const int> partners, std::vector<Bytes> to, std::span<const std::size_t> sizes) const;
  // Everyone's `mine`, by rank (this rank's own included).
  std::vector<Bytes> gather_all(const Bytes& mine) const;
  // Everyone's `mine`, by rank, on rank 0 (empty on the others).
  std::vector<Bytes> gather(const Bytes& mine) const;
  // Messages to any ranks, none of them named beforehand by the receiver: (rank, bytes), at
  // most one a rank, this rank's own included; returns what came, (sender, bytes), by sender.
  // The ranks learn who writes to them from a count each rank sends every other (all to all).
  std::vector<std::pair<int, Bytes>> send_to_any(const std::vector<std::pair<int, Bytes>>& to) const;

  void barrier() const;

  // Whether the ranks of some node, `threads_each` threads a rank, run more threads than the
  // CPUs they may run on together (the union of their affinity masks) and some rank is cut into
  // time slices: their threads then take turns on cores, and the time a rank's work takes
  // measures its time slices, not its speed (docs/parallel.md, "Shares by pace"). Ranks that
  // all run first in, first out (`chrt -f`) take turns only where they wait, so each keeps a
  // core while it works (bench/ranks/critical_path.sh runs them so). The same answer on every
  // rank.
  bool share_cores(int threads_each) const;

  // Memory the ranks of one node share (an MPI shared-memory window), so that what every rank
  // reads alike (the terrain) lies once on a node (docs/parallel.md, "Memory"): `make` runs on
  // the node's first rank alone, its bytes are copied into the block, and every rank of the
  // node reads the block. Should `make` throw on any rank, every rank throws, the node's first
  // ranks what it threw. The block lasts until the MpiSession ends (or while `keep` lives, on
  // one rank alone, which keeps `make`'s bytes).
  struct NodeBlock {
    std::span<const std::byte> bytes;
    std::shared_ptr<const void> keep;
  };
  NodeBlock share_on_node(const std::function<Bytes()>& make) const;

 private:
  static std::vector<std::int64_t> digits_of(std::span<ExactSum> partial);
  // Each exact sum's digits and count of non-finite terms, summed over the ranks: the sums,
  // their non-finite terms summed too where some rank has one.
  void take_sums(std::span<ExactSum> partial, const std::vector<std::int64_t>& digits) const;

  struct Communicator;
  std::shared_ptr<const Communicator> communicator_;  // null: this process alone
  int size_ = 1, rank_ = 0;
};

// MPI started for as long as it lives (a tool's main under a launcher, an MPI test's), with
// threads funneled through the thread that started it; in a build without MPI it starts
// nothing and the process runs as one rank.
class MpiSession {
 public:
  MpiSession(int& argc, char**& argv);
  ~MpiSession();
  MpiSession(const MpiSession&) = delete;
  MpiSession& operator=(const MpiSession&) = delete;
  static bool open();  // whether one is open in this process

 private:
  bool started_ = false;
};

// Plain values to bytes and back, for exchange() and gather_all().
template <class T>
Bytes to_bytes(std::span<const T> values) {
  static_assert(std::is_trivially_copyable_v<T>);
  Bytes bytes(values.size_bytes());
  if (!values.empty()) std::memcpy(bytes.data(), values.data(), values.size_bytes());
  return bytes;
}
template <class T>
std::vector<T> from_bytes(const Bytes& bytes) {
  static_assert(std::is_trivially_copyable_v<T>);
  std::vector<T> values(bytes.size() / sizeof(T));
  if (!values.empty()) std::memcpy(values.data(), bytes.data(), values.size() * sizeof(T));
  return values;
}
// `count` values, the k-th value(k), written into bytes where they travel, and the k-th read
// where it came: no array between (a message a sweep each way to every partner).
template <class T, class Value>
Bytes to_bytes(std::size_t count, Value value) {
  static_assert(std::is_trivially_copyable_v<T>);
  Bytes bytes(count * sizeof(T));
  for (std::size_t k = 0; k < count; ++k) {
    const T v = value(k);
    std::memcpy(bytes.data() + k * sizeof(T), &v, sizeof(T));
  }
  return bytes;
}
template <class T>
T value_at(const Bytes& bytes, std::size_t k) {
  static_assert(std::is_trivially_copyable_v<T>);
  T v;
  std::memcpy(&v, bytes.data() + k * sizeof(T), sizeof(T));
  return v;
}

}  // namespace scree::solver
