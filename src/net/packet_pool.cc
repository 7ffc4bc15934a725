#include <sys/mman.h>

#include <cstdlib>
#include <new>
#include <numeric>
#include <type_traits>

#include "net/packet.h"

namespace lossless {

namespace {
constexpr std::size_t kHugePageBytes = std::size_t{2} << 20;
}  // namespace

// Blocks are freed without running destructors.
static_assert(std::is_trivially_destructible_v<Packet>);

PacketPool::~PacketPool() {
  for (void* b : blocks_) std::free(b);
}

// Packets at a stride of an odd number of cache lines. At 256 bytes every packet's first line, the one each
// hop touches, would sit at the same offset modulo four lines, so the packets in flight would compete for a
// quarter of each cache's sets (a cache set is chosen by the address's low line bits). cachegrind with a
// 2 MiB 16-way last level: fat320 DCQCN 1.61 M -> 0.41 M misses over 0.6 ms, fattree k = 16 6.23 M -> 1.80 M
// (docs/performance.md). The cost is 64 bytes a packet.
constexpr std::size_t kSlotBytes = sizeof(Packet) / 64 % 2 ? sizeof(Packet) : sizeof(Packet) + 64;

std::size_t PacketPool::slot_bytes() { return kSlotBytes; }

void PacketPool::grow() {
  constexpr std::size_t kChunkBytes = kChunk * kSlotBytes;
  // The fewest chunks that fill whole huge pages (8 chunks of 1.25 MiB: 10 MiB).
  constexpr std::size_t kBlockBytes = kChunkBytes / std::gcd(kChunkBytes, kHugePageBytes) * kHugePageBytes;
  constexpr std::size_t kChunksPerBlock = kBlockBytes / kChunkBytes;
  if (block_free_ == 0) {
    void* b = std::aligned_alloc(kHugePageBytes, kBlockBytes);
    if (!b) throw std::bad_alloc();
    // A hint: where the kernel grants no huge page the block is plain memory.
    madvise(b, kBlockBytes, MADV_HUGEPAGE);
    blocks_.push_back(b);
    block_free_ = kChunksPerBlock;
  }
  char* c = static_cast<char*>(blocks_.back()) + (kChunksPerBlock - block_free_) * kChunkBytes;
  --block_free_;
  ++chunks_;
  for (std::size_t i = 0; i < kChunk; ++i) {
    // Value-initialised, as std::vector made them: a fresh packet's slot bytes are zeros, whatever the
    // memory held before (no slot may read them before writing, but if one did, the run stays deterministic).
    Packet* p = ::new (static_cast<void*>(c + i * kSlotBytes)) Packet();
    p->next = free_;
    free_ = p;
  }
}

}  // namespace lossless
