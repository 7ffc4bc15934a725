// Packets: plain structs from a pool, moved by pointer, owned by exactly one queue or link at a time.
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <new>
#include <type_traits>
#include <vector>

#include "core/time.h"
#include "net/packet_slot.h"

namespace lossless {

// What a packet is. The RoCEv2 kinds are fixed here; schemes register their own (net/packet_kinds.h). Kinds
// below kPfc travel end to end (routed toward `dst`); kPfc and the kinds above it are link-local: the node at
// the other end of the link consumes them (PFC frames, a scheme's hop-by-hop messages).
enum class PacketType : std::uint8_t { kData = 0, kAck = 1, kNack = 2, kCnp = 3, kPfc = 128 };
constexpr std::uint8_t kFirstSchemeKind = 4;             // end-to-end kinds of schemes: 4..127
constexpr std::uint8_t kFirstLinkLocalSchemeKind = 129;  // link-local kinds of schemes: 129..255
inline bool is_link_local(PacketType t) { return t >= PacketType::kPfc; }

constexpr int kPriorities = 8;
constexpr int kControlPriority = 0;  // never paused, bypasses MMU limits

// A packet routed by the switches' tables (topo/routing.h, Switch::route_by_table), not along a flow's route.
constexpr std::uint32_t kNoRoute = ~std::uint32_t{0};

// Field order matters for speed: every header field is in the first 64-byte line, so that a hop, and a
// packet's whole life at the NICs (made, sent, turned into its ACK, taken by the sender), touches that line
// only; the schemes' fields follow.
struct alignas(64) Packet {
  Packet* next = nullptr;  // intrusive FIFO link (queue or link)
  std::uint64_t seq = 0;   // data: byte offset; ack/nack: next expected byte
  TimePs sent_ps = 0;      // data: when the sender put it on the wire; ack: echo
  // The flow's route (egress port per switch hop, per-flow ECMP path) as an offset into the network's flow
  // routes (Network::route_ports; an offset, not a pointer: valid on every rank), or kNoRoute: route by
  // table.
  std::uint32_t route_offset = kNoRoute;
  std::uint32_t dst = 0;  // host index of the receiver
  std::uint32_t ecmp_hash = 0;
  std::uint32_t wire_bytes = 0;
  std::uint32_t flow_id = 0;
  std::uint32_t payload_bytes = 0;
  std::uint32_t src = 0;  // host index of the sender of this packet
  PacketType type = PacketType::kData;
  std::uint8_t priority = 0;
  bool ecn_capable = true;
  bool ecn_ce = false;  // data: Congestion Experienced; ack: echo of CE since the previous ack
  // The port it arrived on at the current node, written by the sending port (Port::peer_index): the arrival
  // and the MMU's release find the ingress port through it.
  std::uint16_t in_port = 0;
  std::uint8_t pfc_priority = 0;
  std::uint8_t route_hop = 0;
  std::uint16_t pfc_quanta = 0;  // 0 = resume
  // Data: the sender asks for an ACK of this packet at once (the AckReq bit of the InfiniBand BTH), set when
  // its window is full after it, so that ACK coalescing (nic.ack_interval > 1) cannot leave it waiting.
  std::uint8_t ack_req = 0;
  std::uint8_t pad0_ = 0;

  // --- the schemes' fields: the bytes from here to the end of the packet hold the packet slots of the run's
  // schemes (net/packet_slot.h), each at the offset the run's layout gave it (net/packet_layout.h). A scheme
  // reaches only its own slots, through the Slot<T> it bound: ext_init(slot) where it writes the fields of a
  // packet it makes or sends (it starts the struct's lifetime; no bytes are cleared), ext(slot) after. The
  // bytes are not cleared between uses: whoever creates a packet writes the fields that will be read; an ACK
  // is the data packet turned around and keeps the data packet's slots; a NACK or CNP starts with none.
  static constexpr std::size_t kExtOffset = 64;
  static constexpr std::size_t kExtBytes = 256 - kExtOffset;
  template <class T>
  T& ext(const Slot<T>& s) {
    check_slot(s, false);
    return *std::launder(reinterpret_cast<T*>(ext_area.bytes_ + s.offset_));
  }
  template <class T>
  const T& ext(const Slot<T>& s) const {
    check_slot(s);
    return *std::launder(reinterpret_cast<const T*>(ext_area.bytes_ + s.offset_));
  }
  template <class T>
  T& ext_init(const Slot<T>& s) {
    check_slot(s, true);
    return *::new (static_cast<void*>(ext_area.bytes_ + s.offset_)) T;
  }

  // Resets every field but the schemes' to its default; the schemes' bytes hold nothing a slot may read (a
  // packet fresh from the pool).
  void reset() {
    reset_header();
#ifdef LOSSLESS_SLOT_CHECKS
    ext_area.live_ = 0;
#endif
  }
  // Resets every field but the schemes', which keep what their owners wrote: a data packet turned around into
  // its ACK carries the schemes' fields (HPCC's INT records) on.
  void reset_header() {
    std::memset(static_cast<void*>(this), 0, kExtOffset);
    route_offset = kNoRoute;
    ecn_capable = true;
  }

  // The offset of the schemes' bytes (kPacketSlotsFrom).
  static constexpr std::size_t slots_offset() { return offsetof(Packet, ext_area.bytes_); }

  // The slots' bytes: private, reached only through ext / ext_init.
  class ExtArea {
    friend struct Packet;
#ifdef LOSSLESS_SLOT_CHECKS
    // The slots whose bytes in this packet hold what their owner wrote (a bit per placed slot). Before the
    // bytes, so that a pool slot cut to the run's layout (PacketPool::fit_to_layout) holds it.
    std::uint64_t live_ = 0;
#endif
    alignas(8) unsigned char bytes_[kExtBytes];
  } ext_area;

 private:
#ifdef LOSSLESS_SLOT_CHECKS
  template <class T>
  void check_slot(const Slot<T>& s, bool init) {
    check_kind(s.check_);
    if (init)
      ext_area.live_ = (ext_area.live_ & ~s.check_->overlaps) | s.check_->bit;
    else
      check_live(s.check_);
  }
  template <class T>
  void check_slot(const Slot<T>& s) const {
    check_kind(s.check_);
    check_live(s.check_);
  }
  void check_kind(const SlotCheck* c) const {
    const auto k = static_cast<std::uint8_t>(type);
    if (!c || !((c->kinds[k >> 6] >> (k & 63)) & 1)) slot_violation(c, static_cast<unsigned>(k), false);
  }
  void check_live(const SlotCheck* c) const {
    if (!(ext_area.live_ & c->bit)) slot_violation(c, static_cast<std::uint8_t>(type), true);
  }
#else
  template <class T>
  static void check_slot(const Slot<T>&, bool) {}
  template <class T>
  static void check_slot(const Slot<T>&) {}
#endif
};
static_assert(offsetof(Packet, ext_area) == Packet::kExtOffset &&
              sizeof(Packet) == (kSlotChecks ? 320 : 256));
static_assert(Packet::kExtBytes == kPacketExtBytes);
// Where the schemes' bytes start: a packet whose run lays out `n` bytes of slots reaches nothing beyond
// kPacketSlotsFrom + n.
constexpr std::size_t kPacketSlotsFrom = Packet::slots_offset();
static_assert(kPacketSlotsFrom == Packet::kExtOffset + (kSlotChecks ? sizeof(std::uint64_t) : 0));
// Every header field is in the first cache line (pad0_: free; a pause frame's kind is the pause policies'
// packet slot, net/pause_kinds.h).
static_assert(offsetof(Packet, sent_ps) == 16 && offsetof(Packet, route_offset) == 24 &&
              offsetof(Packet, type) == 52 && offsetof(Packet, ack_req) == 62 &&
              offsetof(Packet, pad0_) == 63);

// Free-list pool. Packets are never returned to the heap during a run, so steady state allocates nothing.
// Chunks are carved from 2 MiB-aligned blocks the kernel is asked to back with huge pages (packet_pool.cc):
// every hop touches a packet at random among all in flight (72 MB of pool at fattree k = 32), and glibc's
// huge-page tunable (cli/huge_pages.cc) leaves a 1 MiB chunk, which it maps on its own, on 4 KiB pages, so
// most of those touches also missed the TLB (k = 32: 75.8 of 155.6 MB on huge pages before, 141.3 of 156.7
// after; -4 to -7 % wall, docs/performance.md), at a stride that spreads them over the caches' sets.
//
// Once the run's packet layout is final (fit_to_layout), a chunk's packets are cut to what the run reaches:
// the header and the slots its schemes placed, not the whole 192-byte extension area. A run without slots
// (DCQCN, DCTCP, TIMELY) then keeps a packet in one cache line: at k = 32, 14 MB of pool instead of 72 MB,
// and five times more packets to a 4 KiB page, which in a virtual machine whose host maps guest memory with
// 4 KiB pages is what a TLB entry covers (docs/performance.md "Twenty-third pass"). A packet's bytes beyond
// its slot are never read or written: nothing copies a packet by value out of the pool, and the rank
// exchange moves the bytes in use only (Network::packet_bytes_in_use).
class PacketPool {
 public:
  PacketPool() = default;
  PacketPool(const PacketPool&) = delete;
  PacketPool& operator=(const PacketPool&) = delete;
  ~PacketPool();

  // Packets carved from now on hold the header and `slot_bytes_in_use` bytes of the schemes' area (the
  // run's PacketLayout::used_bytes(), which must not grow afterwards); those carved before keep the whole
  // struct, so calling it late is safe.
  void fit_to_layout(std::size_t slot_bytes_in_use);
  // The bytes of a packet the run reaches when its slots use `slot_bytes_in_use` bytes.
  static std::size_t bytes_in_use(std::size_t slot_bytes_in_use) {
    return kPacketSlotsFrom + slot_bytes_in_use;
  }

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
  std::size_t allocated() const { return chunks_ * kChunk; }
  // The memory a packet carved now takes in the pool: the bytes in use, in whole cache lines, and the padding
  // that spreads packets over the cache sets (packet_pool.cc).
  std::size_t slot_bytes() const { return slot_bytes_; }
  static std::size_t slot_bytes_for(std::size_t bytes_in_use);

 private:
  static constexpr std::size_t kChunk = 4096;
  void grow();
  std::vector<void*> blocks_;   // each 2 MiB-aligned, a whole number of huge pages
  char* block_next_ = nullptr;  // where the next chunk of the last block starts
  char* block_end_ = nullptr;
  std::size_t slot_bytes_ = slot_bytes_for(sizeof(Packet));
  std::size_t chunks_ = 0;
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
    // The next pop reads the new head's link, one transmission later: start fetching its line now. Reading it
    // cold held a port's dequeue (6 % of fat320's time, most of it on this load).
    if (!head_)
      tail_ = nullptr;
    else
      __builtin_prefetch(head_);
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
