// Order keys for events due at the same instant, independent of how the fabric is split across threads.
//
// A key is (phase, sequence, creator node). The sequence is a per-node Lamport clock: a node's next key is
// above both its own previous key and the key of the event it is handling, so an event scheduled for "now"
// still runs after its cause, and two nodes never need to agree on a counter. Each node's clock advances only
// with the events that node handles; those are the same whichever thread runs it, so the keys — and with them
// the order of simultaneous events — are the same sequentially and in parallel (DESIGN §4.2).
#pragma once
#include <cstdint>

namespace lossless {

struct OrderKey {
  static constexpr unsigned kNodeBits = 20;
  static constexpr unsigned kSeqBits = 42;
  static constexpr std::uint64_t kNodeMask = (1ull << kNodeBits) - 1;
  static constexpr std::uint64_t kSeqMask = (1ull << kSeqBits) - 1;
  // Nodes plus the set-up context (flow starts, monitors) must fit the node field.
  static constexpr std::uint32_t kMaxNodes = static_cast<std::uint32_t>(kNodeMask);

  static std::uint64_t make(std::uint8_t phase, std::uint64_t seq, std::uint32_t node) {
    // seq < 2^42: at 20 M events/s a node would need ~2.5 days of run time to reach it.
    return (std::uint64_t{phase} << (kSeqBits + kNodeBits)) | (seq << kNodeBits) | node;
  }
  static std::uint32_t node(std::uint64_t order) { return static_cast<std::uint32_t>(order & kNodeMask); }
  static std::uint64_t seq(std::uint64_t order) { return (order >> kNodeBits) & kSeqMask; }
};

// A node's clock: the next sequence it may use. Every transmission updates its node's clock, so nodes run by
// different threads must not share a line: a run on several threads spaces the clocks a cache line apart
// (kClockLineShift, Simulator::use_node_clocks); on one thread they are packed, 8 bytes a node (fat320's 400
// clocks then take 3 KB of L1 instead of 25 KB: fat320 -1 to -3 %, k = 32 -2 to -10 %; docs/performance.md).
struct NodeClock {
  std::uint64_t next_seq = 0;
};
// Node n's clock is entry n << shift: 0 packed, kClockLineShift one cache line apart.
inline constexpr unsigned kClockLineShift = 3;
static_assert(sizeof(NodeClock) << kClockLineShift == 64);

}  // namespace lossless
