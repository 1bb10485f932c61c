#include "solver/ranks/communicator.h"

#include "solver/phase_times.h"

#include <algorithm>
#include <bit>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <exception>
#include <limits>
#include <stdexcept>
#include <string>
#include <thread>

#include <sched.h>

#if SCREE_WITH_MPI
#include <mpi.h>
#endif

namespace scree::solver {

Ranks::Ranks() = default;

namespace {

// The CPUs this process may run on (all the machine's where its affinity is not known).
cpu_set_t own_cpus() {
  cpu_set_t cpus;
  CPU_ZERO(&cpus);
  if (sched_getaffinity(0, sizeof cpus, &cpus) != 0)
    for (unsigned k = 0; k < std::max(1u, std::thread::hardware_concurrency()) && k < CPU_SETSIZE; ++k) CPU_SET(k, &cpus);
  return cpus;
}

// Whether this process's scheduler cuts it into time slices beside its peers: not under first
// in, first out (SCHED_FIFO), where a thread keeps its core until it blocks or yields.
bool time_sliced() { return sched_getscheduler(0) != SCHED_FIFO; }

// What one rank alone shares with itself: `make`'s bytes, kept by the block.
[[maybe_unused]] Ranks::NodeBlock block_of_own(const std::function<Bytes()>& make) {
  auto made = std::make_shared<const Bytes>(make());
  return {std::span<const std::byte>(*made), made};
}

}  // namespace

#if SCREE_WITH_MPI

struct Ranks::Communicator {
  MPI_Comm comm;
};

namespace {

bool session_open = false;
std::vector<MPI_Win> node_windows;  // Ranks::share_on_node's, freed as the session ends
// Ranks::max_and_sum's records (the digits of an exact sum, its count of non-finite terms, an
// ordered double) and their reduction, made when first asked for, freed as the session ends.
constexpr int record_length = ExactSum::limb_count + 2;
MPI_Datatype record_type = MPI_DATATYPE_NULL;
MPI_Op sum_then_max = MPI_OP_NULL;

void check(int status, const char* what) {
  if (status != MPI_SUCCESS) throw std::runtime_error(std::string("MPI: ") + what + " failed");
}

// Adds the wall time from its making to its end to seconds_with_other_ranks (phase_times.h):
// the calls that meet other ranks are timed whole, their own packing included, which is small
// beside the wait.
class MeetingClock {
 public:
  MeetingClock() : start_(std::chrono::steady_clock::now()) {}
  ~MeetingClock() { seconds_with_other_ranks += std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count(); }
  MeetingClock(const MeetingClock&) = delete;
  MeetingClock& operator=(const MeetingClock&) = delete;

 private:
  std::chrono::steady_clock::time_point start_;
};

// Messages of the solver's exchanges; one tag, as a pair of ranks has one exchange at a time.
constexpr int exchange_tag = 28;
// Those of exchanges under way (Ranks::Exchange), which are matched in the order they start.
constexpr int started_tag = 29;

}  // namespace

MpiSession::MpiSession(int& argc, char**& argv) {
  int initialised = 0;
  check(MPI_Initialized(&initialised), "MPI_Initialized");
  if (initialised) return;
  int provided = 0;
  check(MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided), "MPI_Init_thread");
  started_ = session_open = true;
}

MpiSession::~MpiSession() {
  if (!started_) return;
  session_open = false;
  if (sum_then_max != MPI_OP_NULL) MPI_Op_free(&sum_then_max), MPI_Type_free(&record_type);
  for (MPI_Win& window : node_windows) MPI_Win_free(&window);
  node_windows.clear();
  MPI_Finalize();
}

bool MpiSession::open() { return session_open; }

Ranks Ranks::world() {
  Ranks r;
  if (!session_open) return r;
  r.communicator_ = std::make_shared<const Communicator>(Communicator{MPI_COMM_WORLD});
  check(MPI_Comm_size(MPI_COMM_WORLD, &r.size_), "MPI_Comm_size");
  check(MPI_Comm_rank(MPI_COMM_WORLD, &r.rank_), "MPI_Comm_rank");
  return r;
}

double Ranks::max(double x) const {
  max(std::span<double>(&x, 1));
  return x;
}

double Ranks::min(double x) const {
  min(std::span<double>(&x, 1));
  return x;
}

void Ranks::max(std::span<double> x) const {
  if (!communicator_ || x.empty()) return;
  const MeetingClock clock;
  check(MPI_Allreduce(MPI_IN_PLACE, x.data(), int(x.size()), MPI_DOUBLE, MPI_MAX, communicator_->comm), "MPI_Allreduce");
}

void Ranks::min(std::span<double> x) const {
  if (!communicator_ || x.empty()) return;
  const MeetingClock clock;
  check(MPI_Allreduce(MPI_IN_PLACE, x.data(), int(x.size()), MPI_DOUBLE, MPI_MIN, communicator_->comm), "MPI_Allreduce");
}

std::uint64_t Ranks::min(std::uint64_t x) const {
  if (!communicator_) return x;
  const MeetingClock clock;
  check(MPI_Allreduce(MPI_IN_PLACE, &x, 1, MPI_UINT64_T, MPI_MIN, communicator_->comm), "MPI_Allreduce");
  return x;
}

void Ranks::sum(std::span<std::int64_t> x) const {
  if (!communicator_ || x.empty()) return;
  const MeetingClock clock;
  check(MPI_Allreduce(MPI_IN_PLACE, x.data(), int(x.size()), MPI_INT64_T, MPI_SUM, communicator_->comm), "MPI_Allreduce");
}

// The digits of exact sums as integers (carried first, so that they cannot overflow), and
// after them how many have an infinite or NaN term (NaN too: NaN != 0), which go as doubles,
// in a second reduction, only when some rank has one: their sum does not depend on its order
// either.
std::vector<std::int64_t> Ranks::digits_of(std::span<ExactSum> partial) {
  std::vector<std::int64_t> digits;
  digits.reserve(partial.size() * ExactSum::limb_count + 2);
  std::int64_t with_non_finite = 0;
  for (ExactSum& s : partial) {
    s.normalise();
    digits.insert(digits.end(), s.limbs_.begin(), s.limbs_.end());
    if (s.non_finite_ != 0) with_non_finite = 1;
  }
  digits.push_back(with_non_finite);
  return digits;
}

namespace {

// A double as an integer of the same order (the sign's bit set: the others flipped), so that
// the largest of some doubles is the largest of their integers; its own inverse. NaN, with
// its sign's bit clear, is above every number: the largest of a NaN and numbers is NaN.
std::int64_t ordered(std::int64_t bits) { return bits >= 0 ? bits : bits ^ std::numeric_limits<std::int64_t>::max(); }

// max_and_sum's reduction: the digits and counts added, the largest ordered double kept.
void add_then_keep_largest(void* in, void* in_out, int* records, MPI_Datatype*) {
  const std::int64_t* a = static_cast<const std::int64_t*>(in);
  std::int64_t* b = static_cast<std::int64_t*>(in_out);
  for (int r = 0; r < *records; ++r, a += record_length, b += record_length) {
    for (int k = 0; k + 1 < record_length; ++k) b[k] += a[k];
    b[record_length - 1] = std::max(b[record_length - 1], a[record_length - 1]);
  }
}

}  // namespace

void Ranks::sum(std::span<ExactSum> partial) const {
  if (!communicator_ || partial.empty()) return;
  // One reduction, and a step takes ~115 (docs/parallel.md).
  std::vector<std::int64_t> digits = digits_of(partial);
  sum(std::span<std::int64_t>(digits));
  take_sums(partial, digits);
}

void Ranks::max_and_sum(double& largest, ExactSum& partial) const {
  if (!communicator_) return;
  const MeetingClock clock;
  if (sum_then_max == MPI_OP_NULL) {
    check(MPI_Type_contiguous(record_length, MPI_INT64_T, &record_type), "MPI_Type_contiguous");
    check(MPI_Type_commit(&record_type), "MPI_Type_commit");
    check(MPI_Op_create(&add_then_keep_largest, 1, &sum_then_max), "MPI_Op_create");
  }
  std::vector<std::int64_t> record = digits_of(std::span<ExactSum>(&partial, 1));
  record.push_back(ordered(std::bit_cast<std::int64_t>(largest)));
  check(MPI_Allreduce(MPI_IN_PLACE, record.data(), 1, record_type, sum_then_max, communicator_->comm), "MPI_Allreduce");
  largest = std::bit_cast<double>(ordered(record.back()));
  record.pop_back();
  take_sums(std::span<ExactSum>(&partial, 1), record);
}

void Ranks::take_sums(std::span<ExactSum> partial, const std::vector<std::int64_t>& digits) const {
  std::vector<double> non_finite;
  for (const ExactSum& s : partial) non_finite.push_back(s.non_finite_);
  if (digits.back() > 0)
    check(MPI_Allreduce(MPI_IN_PLACE, non_finite.data(), int(non_finite.size()), MPI_DOUBLE, MPI_SUM, communicator_->comm),
          "MPI_Allreduce");
  for (std::size_t k = 0; k < partial.size(); ++k) {
    ExactSum& s = partial[k];
    std::copy_n(digits.begin() + std::ptrdiff_t(k * ExactSum::limb_count), ExactSum::limb_count, s.limbs_.begin());
    s.non_finite_ = non_finite[k];
    s.normalise();
  }
}

std::vector<Bytes> Ranks::exchange(std::span<const int> partners, const std::vector<Bytes>& to) const {
  if (to.size() != partners.size()) throw std::invalid_argument("exchange: one message a partner");
  std::vector<Bytes> from(partners.size());
  if (!communicator_) {
    if (!partners.empty()) throw std::invalid_argument("exchange: one rank alone has no partners");
    return from;
  }
  const MeetingClock clock;
  // Sends posted first, then each partner's message received whatever its size (probed).
  std::vector<MPI_Request> sends(partners.size());
  for (std::size_t k = 0; k < partners.size(); ++k)
    check(MPI_Isend(to[k].data(), int(to[k].size()), MPI_BYTE, partners[k], exchange_tag, communicator_->comm, &sends[k]),
          "MPI_Isend");
  for (std::size_t k = 0; k < partners.size(); ++k) {
    MPI_Message message;
    MPI_Status status;
    check(MPI_Mprobe(partners[k], exchange_tag, communicator_->comm, &message, &status), "MPI_Mprobe");
    int count = 0;
    check(MPI_Get_count(&status, MPI_BYTE, &count), "MPI_Get_count");
    from[k].resize(std::size_t(count));
    check(MPI_Mrecv(from[k].data(), count, MPI_BYTE, &message, MPI_STATUS_IGNORE), "MPI_Mrecv");
  }
  check(MPI_Waitall(int(sends.size()), sends.data(), MPI_STATUSES_IGNORE), "MPI_Waitall");
  return from;
}

struct Ranks::Exchange::State {
  std::vector<Bytes> to, from;
  std::vector<MPI_Request> requests;  // the receives, then the sends
};

Ranks::Exchange Ranks::start_exchange(std::span<const int> partners, std::vector<Bytes> to,
                                      std::span<const std::size_t> sizes) const {
  if (to.size() != partners.size() || sizes.size() != partners.size())
    throw std::invalid_argument("start_exchange: one message and one size a partner");
  Exchange exchange;
  if (!communicator_) {
    if (!partners.empty()) throw std::invalid_argument("start_exchange: one rank alone has no partners");
    return exchange;
  }
  exchange.state_ = std::make_shared<Exchange::State>();
  Exchange::State& state = *exchange.state_;
  state.to = std::move(to);
  state.from.resize(partners.size());
  state.requests.resize(2 * partners.size());
  for (std::size_t k = 0; k < partners.size(); ++k) {
    state.from[k].resize(sizes[k]);
    check(MPI_Irecv(state.from[k].data(), int(sizes[k]), MPI_BYTE, partners[k], started_tag, communicator_->comm,
                    &state.requests[k]),
          "MPI_Irecv");
  }
  for (std::size_t k = 0; k < partners.size(); ++k)
    check(MPI_Isend(state.to[k].data(), int(state.to[k].size()), MPI_BYTE, partners[k], started_tag, communicator_->comm,
                    &state.requests[partners.size() + k]),
          "MPI_Isend");
  return exchange;
}

std::vector<Bytes> Ranks::Exchange::finish() {
  if (!state_) return {};
  const MeetingClock clock;
  std::vector<MPI_Status> statuses(state_->requests.size());
  check(MPI_Waitall(int(state_->requests.size()), state_->requests.data(), statuses.data()), "MPI_Waitall");
  for (std::size_t k = 0; k < state_->from.size(); ++k) {
    int count = 0;
    check(MPI_Get_count(&statuses[k], MPI_BYTE, &count), "MPI_Get_count");
    if (std::size_t(count) != state_->from[k].size())
      throw std::logic_error("an exchange under way: a partner sent another size than its receiver expected");
  }
  std::vector<Bytes> from = std::move(state_->from);
  state_.reset();
  return from;
}

std::vector<Bytes> Ranks::gather_all(const Bytes& mine) const {
  if (!communicator_) return {mine};
  const MeetingClock clock;
  const std::size_t n = static_cast<std::size_t>(size_);
  std::vector<int> sizes(n), offsets(n);
  const int own = int(mine.size());
  check(MPI_Allgather(&own, 1, MPI_INT, sizes.data(), 1, MPI_INT, communicator_->comm), "MPI_Allgather");
  int total = 0;
  for (int r = 0; r < size_; ++r) {
    offsets[std::size_t(r)] = total;
    total += sizes[std::size_t(r)];
  }
  Bytes all(static_cast<std::size_t>(total));
  check(MPI_Allgatherv(mine.data(), own, MPI_BYTE, all.data(), sizes.data(), offsets.data(), MPI_BYTE, communicator_->comm),
        "MPI_Allgatherv");
  std::vector<Bytes> by_rank(n);
  for (int r = 0; r < size_; ++r)
    by_rank[std::size_t(r)].assign(all.begin() + offsets[std::size_t(r)],
                                   all.begin() + offsets[std::size_t(r)] + sizes[std::size_t(r)]);
  return by_rank;
}

std::vector<Bytes> Ranks::gather(const Bytes& mine) const {
  if (!communicator_) return {mine};
  const MeetingClock clock;
  const std::size_t n = static_cast<std::size_t>(size_);
  const bool root = rank_ == 0;
  std::vector<int> sizes(root ? n : 0), offsets(root ? n : 0);
  const int own = int(mine.size());
  check(MPI_Gather(&own, 1, MPI_INT, sizes.data(), 1, MPI_INT, 0, communicator_->comm), "MPI_Gather");
  int total = 0;
  for (std::size_t r = 0; r < sizes.size(); ++r) {
    offsets[r] = total;
    total += sizes[r];
  }
  Bytes all(static_cast<std::size_t>(total));
  check(MPI_Gatherv(mine.data(), own, MPI_BYTE, all.data(), sizes.data(), offsets.data(), MPI_BYTE, 0, communicator_->comm),
        "MPI_Gatherv");
  std::vector<Bytes> by_rank(sizes.size());
  for (std::size_t r = 0; r < sizes.size(); ++r)
    by_rank[r].assign(all.begin() + offsets[r], all.begin() + offsets[r] + sizes[r]);
  return by_rank;
}

std::vector<std::pair<int, Bytes>> Ranks::send_to_any(const std::vector<std::pair<int, Bytes>>& to) const {
  const std::size_t n = static_cast<std::size_t>(size_);
  std::vector<int> sizes(n, -1), incoming(n, -1);  // −1: no message
  for (const auto& [rank, bytes] : to) {
    if (rank < 0 || rank >= size_ || sizes[std::size_t(rank)] >= 0)
      throw std::invalid_argument("send_to_any: rank " + std::to_string(rank) + " is not a rank, or named twice");
    sizes[std::size_t(rank)] = int(bytes.size());
  }
  if (!communicator_) return to;
  const MeetingClock clock;
  check(MPI_Alltoall(sizes.data(), 1, MPI_INT, incoming.data(), 1, MPI_INT, communicator_->comm), "MPI_Alltoall");
  std::vector<std::pair<int, Bytes>> from;
  std::vector<MPI_Request> requests;
  requests.reserve(2 * n);
  for (int r = 0; r < size_; ++r)
    if (incoming[std::size_t(r)] >= 0) from.emplace_back(r, Bytes(std::size_t(incoming[std::size_t(r)])));
  for (auto& [rank, bytes] : from) {
    requests.emplace_back();
    check(MPI_Irecv(bytes.data(), int(bytes.size()), MPI_BYTE, rank, exchange_tag, communicator_->comm, &requests.back()),
          "MPI_Irecv");
  }
  for (const auto& [rank, bytes] : to) {
    requests.emplace_back();
    check(MPI_Isend(bytes.data(), int(bytes.size()), MPI_BYTE, rank, exchange_tag, communicator_->comm, &requests.back()),
          "MPI_Isend");
  }
  check(MPI_Waitall(int(requests.size()), requests.data(), MPI_STATUSES_IGNORE), "MPI_Waitall");
  return from;
}

void Ranks::barrier() const {
  if (!communicator_) return;
  const MeetingClock clock;
  check(MPI_Barrier(communicator_->comm), "MPI_Barrier");
}

bool Ranks::share_cores(int threads_each) const {
  cpu_set_t cpus = own_cpus();
  if (!communicator_) return threads_each > CPU_COUNT(&cpus) && time_sliced();
  MPI_Comm node;
  check(MPI_Comm_split_type(communicator_->comm, MPI_COMM_TYPE_SHARED, rank_, MPI_INFO_NULL, &node), "MPI_Comm_split_type");
  int counts[2] = {threads_each, time_sliced() ? 1 : 0};  // the node's threads, its ranks cut into time slices
  check(MPI_Allreduce(MPI_IN_PLACE, &cpus, int(sizeof cpus), MPI_BYTE, MPI_BOR, node), "MPI_Allreduce");
  check(MPI_Allreduce(MPI_IN_PLACE, counts, 2, MPI_INT, MPI_SUM, node), "MPI_Allreduce");
  MPI_Comm_free(&node);
  return max(counts[0] > CPU_COUNT(&cpus) && counts[1] > 0 ? 1.0 : 0.0) > 0;
}

Ranks::NodeBlock Ranks::share_on_node(const std::function<Bytes()>& make) const {
  if (!communicator_) return block_of_own(make);
  MPI_Comm node;
  check(MPI_Comm_split_type(communicator_->comm, MPI_COMM_TYPE_SHARED, rank_, MPI_INFO_NULL, &node), "MPI_Comm_split_type");
  int node_rank = 0;
  check(MPI_Comm_rank(node, &node_rank), "MPI_Comm_rank");
  Bytes made;
  std::exception_ptr failure;
  if (node_rank == 0) {
    try {
      made = make();
    } catch (...) {
      failure = std::current_exception();
    }
  }
  if (max(failure ? 1.0 : 0.0) > 0) {
    MPI_Comm_free(&node);
    if (failure) std::rethrow_exception(failure);
    throw std::runtime_error("the first rank of another node could not make what its node shares");
  }
  std::uint64_t size = made.size();
  check(MPI_Bcast(&size, 1, MPI_UINT64_T, 0, node), "MPI_Bcast");
  void* base = nullptr;
  MPI_Win window;
  check(MPI_Win_allocate_shared(MPI_Aint(node_rank == 0 ? size : 0), 1, MPI_INFO_NULL, node, &base, &window),
        "MPI_Win_allocate_shared");
  check(MPI_Win_fence(0, window), "MPI_Win_fence");
  if (node_rank == 0 && size > 0) std::memcpy(base, made.data(), size);
  made = Bytes();
  check(MPI_Win_fence(0, window), "MPI_Win_fence");
  if (node_rank != 0) {
    MPI_Aint first_size = 0;
    int unit = 0;
    check(MPI_Win_shared_query(window, 0, &first_size, &unit, &base), "MPI_Win_shared_query");
  }
  node_windows.push_back(window);
  MPI_Comm_free(&node);
  return {std::span<const std::byte>(static_cast<const std::byte*>(base), size), nullptr};
}

#else  // one rank alone

struct Ranks::Communicator {};
MpiSession::MpiSession(int&, char**&) {}
MpiSession::~MpiSession() = default;
bool MpiSession::open() { return false; }
Ranks Ranks::world() { return Ranks(); }
double Ranks::max(double x) const { return x; }
double Ranks::min(double x) const { return x; }
std::uint64_t Ranks::min(std::uint64_t x) const { return x; }
void Ranks::max(std::span<double>) const {}
void Ranks::min(std::span<double>) const {}
void Ranks::sum(std::span<std::int64_t>) const {}
void Ranks::sum(std::span<ExactSum>) const {}
void Ranks::max_and_sum(double&, ExactSum&) const {}
std::vector<Bytes> Ranks::exchange(std::span<const int> partners, const std::vector<Bytes>& to) const {
  if (to.size() != partners.size()) throw std::invalid_argument("exchange: one message a partner");
  if (!partners.empty()) throw std::invalid_argument("exchange: one rank alone has no partners");
  return {};
}
struct Ranks::Exchange::State {};
Ranks::Exchange Ranks::start_exchange(std::span<const int> partners, std::vector<Bytes> to,
                                      std::span<const std::size_t> sizes) const {
  if (to.size() != partners.size() || sizes.size() != partners.size())
    throw std::invalid_argument("start_exchange: one message and one size a partner");
  if (!partners.empty()) throw std::invalid_argument("start_exchange: one rank alone has no partners");
  return {};
}
std::vector<Bytes> Ranks::Exchange::finish() { return {}; }
std::vector<Bytes> Ranks::gather_all(const Bytes& mine) const { return {mine}; }
std::vector<Bytes> Ranks::gather(const Bytes& mine) const { return {mine}; }
std::vector<std::pair<int, Bytes>> Ranks::send_to_any(const std::vector<std::pair<int, Bytes>>& to) const {
  for (const auto& message : to)
    if (message.first != 0 || to.size() > 1)
      throw std::invalid_argument("send_to_any: rank " + std::to_string(message.first) + " is not a rank, or named twice");
  return to;
}
void Ranks::barrier() const {}
bool Ranks::share_cores(int threads_each) const {
  const cpu_set_t cpus = own_cpus();
  return threads_each > CPU_COUNT(&cpus) && time_sliced();
}
Ranks::NodeBlock Ranks::share_on_node(const std::function<Bytes()>& make) const { return block_of_own(make); }

#endif

}  // namespace scree::solver
