// One thread's share of the fabric in a partitioned run (DESIGN §4.2): the nodes assigned to it run on their
// own clock and event queue, draw packets from their own pool and count into their own counters. A run on one
// thread has one partition. Events for another partition's nodes (packets crossing a cut link) go to an
// outbox and are handed over between windows: they are due at least one link delay after they were scheduled,
// which is what lets the partitions run a window at a time without waiting for each other.
#pragma once
#include <cstdint>
#include <vector>

#include "core/simulator.h"
#include "net/net_counters.h"
#include "net/packet.h"
#include "net/shared_buffer_mmu.h"

namespace lossless {

class Network;

// An event for another partition's node and how long before its due time it was scheduled (the lane it
// belongs to, core/event_queue.h).
struct HandedOverEvent {
  Event event;
  TimePs offset_ps;
};

struct Partition {
  explicit Partition(std::uint32_t partition_id) : id(partition_id) {}
  Partition(const Partition&) = delete;
  Partition& operator=(const Partition&) = delete;

  std::uint32_t id;
  Network* net = nullptr;
  Simulator sim;
  PacketPool pool;
  NetCounters counters;
  SharedBufferMmu::AccountSlab buffer_accounts;  // of the partition's switches (Switch::configure)
  std::uint64_t flows_completed = 0;
  std::vector<std::vector<HandedOverEvent>> outbox;  // by destination partition

  // Data packets dropped here (every drop of a data packet, with its reason; other packets are only counted).
  std::vector<DataDrop> data_drops;
  // A packet dropped by the buffer (counted in `counters` by reason) or refused by a scheme's queue set
  // (counted as a scheme drop); a data packet is also recorded in data_drops. The caller frees it.
  void count_drop(const Packet& p, DropReason reason) {
    if (reason == DropReason::kScheme)
      ++counters.scheme_drops;
    else
      counters.drop(reason);
    if (p.type == PacketType::kData) [[unlikely]]
      data_drops.push_back({p.flow_id, p.payload_bytes, reason});
  }

  // This partition's flow starts, by start time, chained: only the next one waits in the queue.
  std::vector<std::uint32_t> start_sequence;
  std::size_t next_start = 0;
};

}  // namespace lossless
