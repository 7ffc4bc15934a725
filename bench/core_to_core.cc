// Prints the round-trip time of one cache line between two threads (bench/run.sh reports it beside the
// timings). A partitioned run hands packets between cores every window, so its speed follows this latency:
// on this project's VM it is ~55 ns most of the time and ~300-400 ns when the host places the two vCPUs far
// apart, which makes 2-thread runs up to ~40 % slower while 1-thread runs do not change.
#include <atomic>
#include <chrono>
#include <cstdio>
#include <thread>

int main() {
  constexpr int kRounds = 200'000;
  alignas(64) static std::atomic<int> line{0};
  std::thread echo([] {
    for (int i = 0; i < kRounds; ++i) {
      while (line.load(std::memory_order_acquire) != 2 * i + 1) {
      }
      line.store(2 * i + 2, std::memory_order_release);
    }
  });
  const auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < kRounds; ++i) {
    line.store(2 * i + 1, std::memory_order_release);
    while (line.load(std::memory_order_acquire) != 2 * i + 2) {
    }
  }
  const auto end = std::chrono::steady_clock::now();
  echo.join();
  std::printf("%.0f\n", std::chrono::duration<double, std::nano>(end - start).count() / kRounds);
  return 0;
}
