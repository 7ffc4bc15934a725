// Packets: plain structs from a pool, moved by pointer, owned by exactly one queue or link at a time.
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

#include "core/time.h"

namespace lossless {

enum class PacketType : std::uint8_t { kData, kAck, kNack, kCnp, kPfc, kFeedback };

constexpr int kPriorities = 8;
constexpr int kControlPriority = 0;  // never paused, bypasses MMU limits
constexpr int kMaxIntHops = 5;

// One in-band telemetry record, stamped by an egress port at dequeue (HPCC).
struct IntHop {
  TimePs time_ps;
  Bytes tx_bytes;    // cumulative bytes sent by the port
  Bytes qlen_bytes;  // bytes queued at the port when this packet left
  RateBps rate_bps;
};

// Field order matters for speed: everything a switch touches per hop sits in the first 64-byte line.
struct alignas(64) Packet {
  // --- line 1: per-hop fields
  Packet* next = nullptr;  // intrusive FIFO link (queue or link)
  const std::uint16_t* route =
      nullptr;            // egress port per switch hop (per-flow ECMP path); null = route by table
  std::uint32_t dst = 0;  // host index of the receiver
  std::uint32_t ecmp_hash = 0;
  std::uint32_t wire_bytes = 0;
  std::uint32_t flow_id = 0;
  PacketType type = PacketType::kData;
  std::uint8_t priority = 0;
  bool ecn_capable = true;
  bool ecn_ce = false;        // data: Congestion Experienced; ack: echo of CE since the previous ack
  std::uint16_t in_port = 0;  // ingress port at the current switch (for MMU release)
  std::uint8_t int_hops = 0;
  std::uint8_t pfc_priority = 0;
  std::uint16_t pfc_quanta = 0;  // 0 = resume
  std::uint8_t route_hop = 0;
  std::uint32_t payload_bytes = 0;
  // --- line 2: end-host fields
  std::uint32_t src = 0;  // host index of the sender of this packet
  std::uint32_t feedback_origin = 0;
  std::uint64_t seq = 0;       // data: byte offset; ack/nack: next expected byte
  TimePs sent_ps = 0;          // data: when the sender put it on the wire; ack: echo
  std::uint64_t feedback = 0;  // scheme-defined payload of feedback packets (e.g. a fair rate)
  // --- INT records, valid up to int_hops (not cleared between uses)
  std::array<IntHop, kMaxIntHops> hops;

  // Resets every field but the INT records to its default.
  void reset() {
    std::memset(static_cast<void*>(this), 0, offsetof(Packet, hops));
    ecn_capable = true;
  }
};

// Free-list pool. Packets are never returned to the heap during a run, so steady state allocates nothing.
class PacketPool {
 public:
  PacketPool() = default;
  PacketPool(const PacketPool&) = delete;
  PacketPool& operator=(const PacketPool&) = delete;

  Packet* get() {
    if (!free_) grow();
    Packet* p = free_;
    free_ = p->next;
    p->reset();
    ++in_use_;
    return p;
  }
  void put(Packet* p) {
    p->next = free_;
    free_ = p;
    --in_use_;
  }
  std::size_t in_use() const { return in_use_; }
  std::size_t allocated() const { return chunks_.size() * kChunk; }

 private:
  static constexpr std::size_t kChunk = 4096;
  void grow() {
    chunks_.emplace_back(kChunk);
    auto& c = chunks_.back();
    for (std::size_t i = 0; i < kChunk; ++i) {
      c[i].next = free_;
      free_ = &c[i];
    }
  }
  std::vector<std::vector<Packet>> chunks_;
  Packet* free_ = nullptr;
  std::size_t in_use_ = 0;
};

class PacketFifo {
 public:
  bool empty() const { return head_ == nullptr; }
  Packet* front() const { return head_; }
  Bytes bytes() const { return bytes_; }
  std::uint32_t count() const { return count_; }
  void push(Packet* p) {
    p->next = nullptr;
    if (tail_)
      tail_->next = p;
    else
      head_ = p;
    tail_ = p;
    bytes_ += p->wire_bytes;
    ++count_;
  }
  Packet* pop() {
    Packet* p = head_;
    head_ = p->next;
    if (!head_) tail_ = nullptr;
    bytes_ -= p->wire_bytes;
    --count_;
    p->next = nullptr;
    return p;
  }
  template <class F>
  void for_each(F&& f) const {
    for (Packet* p = head_; p; p = p->next) f(*p);
  }

 private:
  Packet* head_ = nullptr;
  Packet* tail_ = nullptr;
  Bytes bytes_ = 0;
  std::uint32_t count_ = 0;
};

}  // namespace lossless
