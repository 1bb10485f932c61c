#include "solver/ranks/communicator.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <exception>
#include <stdexcept>
#include <string>

#if SCREE_WITH_MPI
#include <mpi.h>
#endif

namespace scree::solver {

Ranks::Ranks() = default;

namespace {

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

void check(int status, const char* what) {
  if (status != MPI_SUCCESS) throw std::runtime_error(std::string("MPI: ") + what + " failed");
}

// Messages of the solver's exchanges; one tag, as a pair of ranks has one exchange at a time.
constexpr int exchange_tag = 28;

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
  check(MPI_Allreduce(MPI_IN_PLACE, x.data(), int(x.size()), MPI_DOUBLE, MPI_MAX, communicator_->comm), "MPI_Allreduce");
}

void Ranks::min(std::span<double> x) const {
  if (!communicator_ || x.empty()) return;
  check(MPI_Allreduce(MPI_IN_PLACE, x.data(), int(x.size()), MPI_DOUBLE, MPI_MIN, communicator_->comm), "MPI_Allreduce");
}

std::uint64_t Ranks::min(std::uint64_t x) const {
  if (communicator_) check(MPI_Allreduce(MPI_IN_PLACE, &x, 1, MPI_UINT64_T, MPI_MIN, communicator_->comm), "MPI_Allreduce");
  return x;
}

void Ranks::sum(std::span<std::int64_t> x) const {
  if (!communicator_ || x.empty()) return;
  check(MPI_Allreduce(MPI_IN_PLACE, x.data(), int(x.size()), MPI_INT64_T, MPI_SUM, communicator_->comm), "MPI_Allreduce");
}

void Ranks::sum(std::span<ExactSum> partial) const {
  if (!communicator_ || partial.empty()) return;
  // The digits as integers (carried first, so that they cannot overflow), the infinite and
  // NaN terms as doubles: their sum does not depend on its order either. The doubles go in a
  // second reduction only when some rank has such a term (the digits' last place counts them):
  // an exact sum is a reduction, and a step takes ~115 of them (docs/parallel.md).
  std::vector<std::int64_t> digits;
  std::vector<double> non_finite;
  std::int64_t ranks_with_non_finite = 0;
  for (ExactSum& s : partial) {
    s.normalise();
    digits.insert(digits.end(), s.limbs_.begin(), s.limbs_.end());
    non_finite.push_back(s.non_finite_);
    if (s.non_finite_ != 0) ranks_with_non_finite = 1;  // NaN too: NaN != 0
  }
  digits.push_back(ranks_with_non_finite);
  sum(std::span<std::int64_t>(digits));
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

std::vector<Bytes> Ranks::gather_all(const Bytes& mine) const {
  if (!communicator_) return {mine};
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
  if (communicator_) check(MPI_Barrier(communicator_->comm), "MPI_Barrier");
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
std::vector<Bytes> Ranks::exchange(std::span<const int> partners, const std::vector<Bytes>& to) const {
  if (to.size() != partners.size()) throw std::invalid_argument("exchange: one message a partner");
  if (!partners.empty()) throw std::invalid_argument("exchange: one rank alone has no partners");
  return {};
}
std::vector<Bytes> Ranks::gather_all(const Bytes& mine) const { return {mine}; }
std::vector<Bytes> Ranks::gather(const Bytes& mine) const { return {mine}; }
std::vector<std::pair<int, Bytes>> Ranks::send_to_any(const std::vector<std::pair<int, Bytes>>& to) const {
  for (const auto& message : to)
    if (message.first != 0 || to.size() > 1)
      throw std::invalid_argument("send_to_any: rank " + std::to_string(message.first) + " is not a rank, or named twice");
  return to;
}
void Ranks::barrier() const {}
Ranks::NodeBlock Ranks::share_on_node(const std::function<Bytes()>& make) const { return block_of_own(make); }

#endif

}  // namespace scree::solver
