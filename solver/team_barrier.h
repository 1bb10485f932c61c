#pragma once
// A barrier for the threads of one OpenMP team that spins for a few microseconds before it
// sleeps. The resting solve of a big island meets one barrier per colour of every pass
// (thousands a step); OpenMP's own barrier with passive waiting (every tool's default,
// docs/tools.md "Threads") puts a thread to sleep and wakes it at each, which cost a 1000-grain
// heap more on two threads than the work it shared (docs/benchmarks.md). Threads that arrive
// within the spin pass on at once; a thread that waits longer sleeps on the futex, so that
// runs sharing cores with other processes do not burn them. It counts the waits that ended
// in sleep: when other processes hold the cores, most do, and the caller had better go on
// with one thread (crowded()).
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

  // Whether most waits (and more than 16) ended in sleep: a thread a team waited for was off
  // its core. With another process busy on the other core of two, 99 % of a heap's waits end
  // in sleep; on a machine of its own, none in most solves, 0.07 % in one of ten, and up to
  // 19 % in a rare one (a colour's work held up by the machine).
  bool crowded() const {
    const auto sleeps = sleeps_.load(std::memory_order_relaxed);
    return sleeps > 16 && 2 * sleeps > waits_.load(std::memory_order_relaxed);
  }

 private:
  // About one colour's work for a thread in a heap of a few thousand grains.
  static constexpr std::chrono::microseconds spin{50};
  const int threads_;
  std::atomic<int> arrived_{0};
  std::atomic<std::uint32_t> phase_{0};
  std::atomic<std::uint64_t> waits_{0}, sleeps_{0};
};

}  // namespace scree::solver
