// A barrier for a few threads that meet often (thousands of times a second) and briefly. Arrivals spin
// first, since a sleep and wake-up would cost more than a short wait; then they sleep on the generation
// counter, which keeps more threads than cores (or a busy machine) from burning the cores the others need.
// With more threads than hardware threads there is no spinning at all. abort() releases every waiter for good
// (a thread failed; the others must not wait for it forever).
#pragma once
#include <atomic>
#include <thread>

namespace lossless {

class SpinBarrier {
 public:
  explicit SpinBarrier(unsigned threads)
      : threads_(threads), spins_(threads <= std::thread::hardware_concurrency() ? kSpins : 0) {}

  // False once the barrier was aborted.
  bool arrive_and_wait() {
    const unsigned gen = generation_.load(std::memory_order_acquire);
    if (arrived_.fetch_add(1, std::memory_order_acq_rel) + 1 == threads_) {
      arrived_.store(0, std::memory_order_relaxed);
      generation_.store(gen + 1, std::memory_order_release);
      generation_.notify_all();
    } else {
      for (unsigned spins = 0; generation_.load(std::memory_order_acquire) == gen; ++spins) {
        if (aborted_.load(std::memory_order_relaxed)) return false;
        if (spins < spins_)
          cpu_relax();
        else
          generation_.wait(gen, std::memory_order_acquire);
      }
    }
    return !aborted_.load(std::memory_order_relaxed);
  }
  void abort() {
    aborted_.store(true, std::memory_order_relaxed);
    generation_.fetch_add(1, std::memory_order_release);  // wakes the sleepers, who then see the abort
    generation_.notify_all();
  }

 private:
  static void cpu_relax() {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
  }
  static constexpr unsigned kSpins = 1u << 14;
  const unsigned threads_;
  const unsigned spins_;
  alignas(64) std::atomic<unsigned> arrived_{0};
  alignas(64) std::atomic<unsigned> generation_{0};
  std::atomic<bool> aborted_{false};
};

}  // namespace lossless
