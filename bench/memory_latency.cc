// What a cache line costs on this machine at each working-set size (docs/performance.md "Fourth pass"): the
// time of one load that depends on the previous one (a random cyclic walk over 64-byte lines: no prefetcher
// can follow it), and with 16 independent walks at once, the time per line when misses overlap (the
// memory-level parallelism the core offers), and with 32 at once, which shows where that parallelism runs out
// (docs/performance.md "Seventh pass"). The simulator's cost per packet-hop is set by how many of the lines a
// hop touches come from beyond L2, and by how many of those it can have in flight together.
//   build/memory_latency [MiB ...]   (default: 1 2 4 16 64 256)
#include <sys/mman.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <numeric>
#include <vector>

namespace {

struct alignas(64) Line {
  Line* next;
};

// A random cyclic order of the lines (one cycle through all of them), from a fixed seed.
std::vector<std::size_t> cycle_order(std::size_t n) {
  std::vector<std::size_t> order(n);
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::uint64_t x = 0x9E3779B97F4A7C15ull;
  for (std::size_t i = n - 1; i > 0; --i) {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    std::swap(order[i], order[x % (i + 1)]);
  }
  return order;
}

double ns_per_line(Line* lines, const std::vector<std::size_t>& order, int walks) {
  const std::size_t n = order.size();
  Line* at[32];
  for (int w = 0; w < walks; ++w) at[w] = &lines[order[n / static_cast<std::size_t>(walks) * w]];
  const std::size_t steps = 20'000'000 / static_cast<std::size_t>(walks);
  const auto start = std::chrono::steady_clock::now();
  for (std::size_t s = 0; s < steps; ++s)
    for (int w = 0; w < walks; ++w) at[w] = at[w]->next;
  const auto end = std::chrono::steady_clock::now();
  std::uintptr_t sink = 0;
  for (int w = 0; w < walks; ++w) sink ^= reinterpret_cast<std::uintptr_t>(at[w]);
  if (sink == 1) std::puts("");  // keeps the walks
  return std::chrono::duration<double, std::nano>(end - start).count() / static_cast<double>(steps * walks);
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::size_t> sizes_mib;
  for (int i = 1; i < argc; ++i) sizes_mib.push_back(std::strtoul(argv[i], nullptr, 10));
  if (sizes_mib.empty()) sizes_mib = {1, 2, 4, 16, 64, 256};
  std::printf("%10s %16s %20s %20s\n", "MiB", "ns/dependent", "ns/line (16 walks)", "ns/line (32 walks)");
  for (std::size_t mib : sizes_mib) {
    const std::size_t bytes = mib << 20;
    const std::size_t n = bytes / sizeof(Line);
    if (n < 32) continue;
    void* mem = std::aligned_alloc(std::size_t{2} << 20, bytes);
    if (!mem) return 1;
    madvise(mem, bytes, MADV_HUGEPAGE);  // like the simulator's heap (cli/huge_pages.cc): no page walks
    auto* lines = static_cast<Line*>(mem);
    const std::vector<std::size_t> order = cycle_order(n);
    for (std::size_t i = 0; i < n; ++i) lines[order[i]].next = &lines[order[(i + 1) % n]];
    const double one = ns_per_line(lines, order, 1);
    const double sixteen = ns_per_line(lines, order, 16);
    const double thirty_two = ns_per_line(lines, order, 32);
    std::printf("%10zu %16.1f %20.2f %20.2f\n", mib, one, sixteen, thirty_two);
    std::free(mem);
  }
  return 0;
}
