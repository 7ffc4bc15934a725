// What a cache line costs on this machine at each working-set size (docs/performance.md "Fourth pass"): the
// time of one load that depends on the previous one (a random cyclic walk over 64-byte lines: no prefetcher
// can follow it), and with 16 independent walks at once, the time per line when misses overlap (the
// memory-level parallelism the core offers), and with 32 at once, which shows where that parallelism runs out
// (docs/performance.md "Seventh pass"). The simulator's cost per packet-hop is set by how many of the lines a
// hop touches come from beyond L2, and by how many of those it can have in flight together.
// With --spread, the same lines are placed one per 4 KiB page (4,160 bytes apart, so that they still fall in
// different cache sets) instead of side by side: the data are the same, only the address translations
// differ. In a virtual machine whose host maps its memory with 4 KiB pages, a TLB entry covers 4 KiB however
// large the guest's pages are, and the difference is what a page walk costs (docs/performance.md
// "Fourteenth pass").
//   build/memory_latency [--spread] [MiB ...]   (default: 1 2 4 16 64 256; with --spread 0.5 1 2 4 8)
#include <sys/mman.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <numeric>
#include <vector>

namespace {

struct Line {
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

// Line i of a walk at base + i * stride.
Line* line_at(void* base, std::size_t stride, std::size_t i) {
  return reinterpret_cast<Line*>(static_cast<char*>(base) + i * stride);
}

double ns_per_line(void* base, std::size_t stride, const std::vector<std::size_t>& order, int walks) {
  const std::size_t n = order.size();
  Line* at[32];
  for (int w = 0; w < walks; ++w)
    at[w] = line_at(base, stride, order[n / static_cast<std::size_t>(walks) * w]);
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
  bool spread = false;
  std::vector<double> sizes_mib;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--spread") == 0) {
      spread = true;
      continue;
    }
    char* end = nullptr;
    const double mib = std::strtod(argv[i], &end);
    if (end == argv[i] || *end || !(mib > 0)) {
      std::fprintf(stderr,
                   "memory_latency: '%s' is not a size in MiB (usage: memory_latency [--spread] [MiB ...])\n",
                   argv[i]);
      return 2;
    }
    sizes_mib.push_back(mib);
  }
  if (sizes_mib.empty())
    sizes_mib = spread ? std::vector<double>{0.5, 1, 2, 4, 8} : std::vector<double>{1, 2, 4, 16, 64, 256};
  const std::size_t stride = spread ? 4096 + 64 : 64;
  std::printf("%10s %12s %16s %20s %20s\n", "MiB", "span MiB", "ns/dependent", "ns/line (16 walks)",
              "ns/line (32 walks)");
  for (double mib : sizes_mib) {
    const std::size_t n = static_cast<std::size_t>(mib * (1 << 20)) / 64;
    if (n < 32) continue;
    const std::size_t huge = std::size_t{2} << 20;
    const std::size_t span = (n * stride + huge - 1) / huge * huge;
    void* mem = std::aligned_alloc(huge, span);
    if (!mem) return 1;
    // Like the simulator's heap (cli/huge_pages.cc): the guest's page tables then end a level earlier.
    madvise(mem, span, MADV_HUGEPAGE);
    const std::vector<std::size_t> order = cycle_order(n);
    for (std::size_t i = 0; i < n; ++i)
      line_at(mem, stride, order[i])->next = line_at(mem, stride, order[(i + 1) % n]);
    const double one = ns_per_line(mem, stride, order, 1);
    const double sixteen = ns_per_line(mem, stride, order, 16);
    const double thirty_two = ns_per_line(mem, stride, order, 32);
    std::printf("%10g %12zu %16.1f %20.2f %20.2f\n", mib, span >> 20, one, sixteen, thirty_two);
    std::free(mem);
  }
  return 0;
}
