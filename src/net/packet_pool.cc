#include <sys/mman.h>

#include <cstdlib>
#include <new>
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

void PacketPool::grow() {
  constexpr std::size_t kChunkBytes = kChunk * sizeof(Packet);
  // A whole number of huge pages holding at least one chunk (two at 256 bytes a packet; one when the slot
  // checks make a packet 320 bytes).
  constexpr std::size_t kBlockBytes = (kChunkBytes + kHugePageBytes - 1) / kHugePageBytes * kHugePageBytes;
  constexpr std::size_t kChunksPerBlock = kBlockBytes / kChunkBytes;
  if (block_free_ == 0) {
    void* b = std::aligned_alloc(kHugePageBytes, kBlockBytes);
    if (!b) throw std::bad_alloc();
    // A hint: where the kernel grants no huge page the block is plain memory.
    madvise(b, kBlockBytes, MADV_HUGEPAGE);
    blocks_.push_back(b);
    block_free_ = kChunksPerBlock;
  }
  auto* c = reinterpret_cast<Packet*>(static_cast<char*>(blocks_.back()) +
                                      (kChunksPerBlock - block_free_) * kChunkBytes);
  --block_free_;
  ++chunks_;
  for (std::size_t i = 0; i < kChunk; ++i) {
    Packet* p = ::new (static_cast<void*>(c + i)) Packet;
    p->next = free_;
    free_ = p;
  }
}

}  // namespace lossless
