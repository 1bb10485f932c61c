#pragma once
// A barrier for the threads of one OpenMP team that spins for a few microseconds before it
// sleeps. The resting solve of a big island meets one barrier per phase of every pass
// (hundreds a step); OpenMP's own barrier with passive waiting (every tool's default,
// docs/tools.md "Threads") puts a thread to sleep and wakes it at each, which cost a 1000-grain
// heap more on two threads than the work it shared (docs/benchmarks.md). Threads that arrive
// within the spin pass on at once; a thread that waits longer sleeps on the futex, so that
// runs sharing cores with other processes do not burn them. It counts the waits and those that
// ended in sleep: when other processes hold the cores, most do, and the caller had better go
// on with one thread (CrowdWatch).
#include <atomic>
#include <chrono>
#include <cstdint>

namespace scree::solver {

class TeamBarrier {
 public:
  explicit TeamBarrier(int threads) : threads_(threads) {}

  // Every write a thread made before arriving is seen by every thread after it passes.
  void arrive_and_wait() {
    const std::uint32_t phase = phase_.load(std::memory_order_acquire);
    if (arrived_.fetch_add(1, std::memory_order_acq_rel) + 1 == threads_) {
      arrived_.store(0, std::memory_order_relaxed);
      phase_.store(phase + 1, std::memory_order_release);
      phase_.notify_all();
      return;
    }
    waits_.fetch_add(1, std::memory_order_relaxed);
    const auto give_up = std::chrono::steady_clock::now() + spin;
    for (int k = 1;; ++k) {
      if (phase_.load(std::memory_order_acquire) != phase) return;
      if (k % 64 == 0 && std::chrono::steady_clock::now() > give_up) break;
    }
    sleeps_.fetch_add(1, std::memory_order_relaxed);
    while (phase_.load(std::memory_order_acquire) == phase) phase_.wait(phase, std::memory_order_acquire);
  }

  std::uint64_t waits() const { return waits_.load(std::memory_order_relaxed); }
  std::uint64_t sleeps() const { return sleeps_.load(std::memory_order_relaxed); }

 private:
  // Longer than most threads wait for each other: 1.5–2 % of the waits of a 1000-grain heap's
  // passes on two threads end in sleep (docs/benchmarks.md, "The nineteenth pass").
  static constexpr std::chrono::microseconds spin{50};
  const int threads_;
  std::atomic<int> arrived_{0};
  std::atomic<std::uint32_t> phase_{0};
  std::atomic<std::uint64_t> waits_{0}, sleeps_{0};
};

// Whether other processes hold the cores, judged over the waits of many teams in turn: a
// window closes after `window` waits or more, crowded when more than three quarters of them
// ended in sleep. With another process busy on the other core of two, 89–100 % of a 1000-grain
// heap's waits end in sleep; on a machine of its own 1–5 % a window, and up to 48 % in one (a
// team's first passes). A team's own verdict (most of its waits, and more than 16) sent two
// threads' big islands to one thread each for seconds, a team of tiles meeting only a few
// dozen times (docs/benchmarks.md, "The nineteenth pass").
class CrowdWatch {
 public:
  static constexpr std::uint64_t window = 256;

  // Adds a team's waits and how many ended in sleep; true when they close a window of which
  // more than three quarters ended in sleep.
  bool add(std::uint64_t waits, std::uint64_t sleeps) {
    waits_ += waits;
    sleeps_ += sleeps;
    if (waits_ < window) return false;
    const bool crowded = 4 * sleeps_ > 3 * waits_;
    waits_ = sleeps_ = 0;
    return crowded;
  }

 private:
  std::uint64_t waits_ = 0, sleeps_ = 0;
};

}  // namespace scree::solver
