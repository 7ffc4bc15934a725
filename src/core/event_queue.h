// The event queue, ordered by (time, phase, insertion sequence): simultaneous events run in a deterministic
// order, lower phase first, then FIFO. No fudge deltas (STYLE P3).
//
// Most events of a packet simulator are due a fixed offset after the moment they are scheduled: a packet
// reaches the far end of a link serialization + propagation after it starts, a timer fires one period after
// it is armed. Events scheduled with the same offset from a clock that never goes back arrive already sorted,
// so they need a FIFO, not a heap. The queue keeps a few such FIFOs ("lanes", one per offset and handler,
// chosen by a hash of the two; the handler is the lane's, so an entry is 32 bytes) and merges the heads of up
// to 32 of them with a winner tree; an event whose lane would go out of order, or would be a 33rd non-empty
// one, goes to the near-event ring if it is due soon (core/near_events.h), else to the general heap. Which
// store holds an event never changes when it runs: the pop order is the key order in all cases.
#pragma once
#include <cstdint>
#include <vector>

#include "core/event_heap.h"
#include "core/near_events.h"
#include "core/order_key.h"
#include "core/time.h"

namespace lossless {

// Phases for events due at the same instant. Most events are kNormal; a scheme that needs "A before B at the
// same time" (DCQCN's alpha update before its rate decrease) says so with a phase instead of adding 1 ns.
enum class EventPhase : std::uint8_t { kEarly = 0, kNormal = 1, kLate = 2 };

struct Event {
  TimePs time;
  std::uint64_t order;  // core/order_key.h
  EventFn fn;
  void* target;
  std::uint64_t arg;
};

class EventQueue {
  static constexpr std::uint32_t kLaneBits = 8;
  static constexpr std::uint32_t kLaneChoices = 4;  // a power of two: the lanes li ^ j, j < kLaneChoices

 public:
  EventQueue() : lanes_(kLanes) {
    for (std::uint32_t s = 0; s < kSlots; ++s) {
      slot_key_[s] = kNoKey;
      win_[kSlots + s] = static_cast<std::uint16_t>(s * sizeof(EventKey));
      free_slots_[s] = static_cast<std::uint8_t>(kSlots - 1 - s);
    }
    // Every node names a slot of its own subtree (all keys are kNoKey yet).
    for (std::uint32_t node = kSlots; node-- > 1;) win_[node] = win_[2 * node];
    win_[0] = 0;
  }
  EventQueue(const EventQueue&) = delete;
  EventQueue& operator=(const EventQueue&) = delete;

  void push(TimePs time, EventFn fn, void* target, std::uint64_t arg,
            EventPhase phase = EventPhase::kNormal) {
    push_ordered(time, reserve(phase), fn, target, arg);
  }
  // A FIFO order key for the queue used on its own (the Simulator makes its own keys, core/order_key.h): an
  // event pushed later with it runs exactly where it would have run had it been pushed now.
  std::uint64_t reserve(EventPhase phase = EventPhase::kNormal) {
    return OrderKey::make(static_cast<std::uint8_t>(phase), seq_++, 0);
  }
  void push_ordered(TimePs time, std::uint64_t order, EventFn fn, void* target, std::uint64_t arg) {
    // Events in the past of the last pop cannot be scheduled; the offset is what groups events into lanes.
    push_in_lane(EventKey{time, order}, EventPayload{fn, target, arg}, time - last_time_);
  }
  // An event due at a time no lane serves, soon after now (an end of transmission asked for while the
  // transmission runs): straight to the near-event ring, without trying a lane; where the ring refuses it,
  // as push_ordered.
  void push_soon(TimePs time, std::uint64_t order, EventFn fn, void* target, std::uint64_t arg) {
    const EventKey k{time, order};
    const EventPayload p{fn, target, arg};
    if (!near_.try_push(k, p, last_time_)) {
      push_in_lane(k, p, time - last_time_);
      return;
    }
    ++n_;
    if (event_before(k, other_key_)) {
      other_key_ = k;
      other_in_near_ = true;
    }
  }
  // An event scheduled elsewhere (another partition) `offset` before it is due, handed over later: it gets a
  // lane of its own kind, so that handed-over events, which arrive in batches, stay in order in their lanes.
  void push_handed_over(TimePs time, std::uint64_t order, EventFn fn, void* target, std::uint64_t arg,
                        TimePs offset) {
    push_in_lane(EventKey{time, order}, EventPayload{fn, target, arg}, offset | kHandedOverTag);
  }
  bool empty() const { return n_ == 0; }
  std::size_t size() const { return n_; }
  // Events held outside the lanes: the near-event ring and the general heap (tests and diagnostics).
  std::size_t heap_size() const { return heap_.size() + near_.size(); }
  // The lane the events of one handler at one offset hash to first (their other choices are the rest of its
  // group of kLaneChoices lanes, lane ^ j).
  static std::uint32_t lane_of(TimePs offset, EventFn fn) {
    const TimePs h = offset + reinterpret_cast<std::uintptr_t>(fn);
    return static_cast<std::uint32_t>((h * 0x9E3779B97F4A7C15ull) >> (64 - kLaneBits));
  }
  // The time of the next event, or kTimeNever.
  TimePs top_time() const {
    if (n_ == 0) return kTimeNever;
    return from_lane() ? top_key_.time : other_key_.time;
  }
  // Calls f(key, payload) for every pending event, in no particular order (diagnostics: the invariant checker
  // counts the packets on the wire). The queue must not change meanwhile.
  template <class F>
  void for_each(F&& f) const {
    heap_.for_each(f);
    near_.for_each(f);
    for (const Lane& lane : lanes_) lane.for_each(f);
  }
  // Whether the lanes' look-ahead prefetch takes the first three lines of an event's argument (Simulator::
  // set_prefetch_whole_arg) rather than its first.
  void set_touch_whole_arg(bool on) { touch_whole_arg_ = on; }
  // The next event's payload (the event loop prefetches what it will touch). The queue must not be empty.
  EventPayload top_payload() const {
    if (from_lane()) return lanes_[slot_lane_[top_slot_]].front_payload();
    return other_in_near_ ? near_.top_payload() : heap_.top_payload();
  }
  Event pop() {
    Event e;
    pop_until(~TimePs{0}, e);
    return e;
  }
  // Pops the next event into `e` if there is one due at or before `until`; false otherwise. One comparison
  // of the two stores per call: the event loop's hot path.
  bool pop_until(TimePs until, Event& e) {
    if (n_ == 0) return false;
    if (from_lane()) {
      if (top_key_.time > until) return false;
      const std::uint32_t slot = top_slot_;
      Lane& lane = lanes_[slot_lane_[slot]];
      const EventPayload p = lane.front_payload();
      e = Event{top_key_.time, top_key_.order, p.fn, p.target, p.arg};
      lane.pop_front(touch_whole_arg_, blocks_);
      if (lane.empty())
        slot_release(slot);
      else
        slot_update(slot, lane.front_key());
    } else {
      if (other_key_.time > until) return false;
      if (other_in_near_) {
        const EventPayload& p = near_.top_payload();
        e = Event{other_key_.time, other_key_.order, p.fn, p.target, p.arg};
        near_.pop();
      } else {
        const EventPayload& p = heap_.top_payload();
        e = Event{other_key_.time, other_key_.order, p.fn, p.target, p.arg};
        heap_.pop();
      }
      update_other();
    }
    --n_;
    last_time_ = e.time;
    return true;
  }

 private:
  static constexpr TimePs kHandedOverTag = TimePs{1} << 63;

  // The common case inline: the offset owns its first-choice lane, which holds earlier events.
  void push_in_lane(const EventKey& k, const EventPayload& p, TimePs offset) {
    const std::uint32_t li = lane_of(offset, p.fn);
    Lane& lane = lanes_[li];
    if (lane.serves(offset, p.fn) && !lane.empty() && !event_before(k, lane.back_key())) {
      lane.append(k, p, blocks_);
      ++n_;
      return;
    }
    push_elsewhere(k, p, offset, li);
  }
  [[gnu::noinline]] void push_elsewhere(const EventKey& k, const EventPayload& p, TimePs offset,
                                        std::uint32_t li) {
    if (!lanes_[li].serves(offset, p.fn)) {
      // Busy offsets can hash to one lane: each may take any lane of its group of kLaneChoices. With two
      // (the lane and its neighbour), HPCC's ~30 busy keys (its packets grow by a record a hop) could leave
      // one without a lane, its events all through the heap: the hash takes handler addresses, which move
      // with every build and run, and one build ran 5 % more instructions for it (docs/performance.md,
      // twenty-fifth pass).
      std::uint32_t found = kLanes;
      for (std::uint32_t j = 1; j < kLaneChoices; ++j)
        if (lanes_[li ^ j].serves(offset, p.fn)) {
          found = li ^ j;
          break;
        }
      if (found == kLanes) {
        // A lane serves one offset and handler; it changes hands only when empty, and an offset gets a lane
        // the second time it is seen: one-off offsets (a flow's odd-sized last packet) would only crowd the
        // merge tree.
        for (std::uint32_t j = 0; j < kLaneChoices; ++j)
          if (lanes_[li ^ j].empty()) {
            lanes_[li ^ j].claim(offset, p.fn);
            break;
          }
        push_other(k, p);
        ++n_;
        return;
      }
      li = found;
    }
    Lane& lane = lanes_[li];
    if (lane.empty()) {
      if (nfree_ == 0) {
        // Every slot of the merge tree serves a lane: the event waits in another store.
        push_other(k, p);
        ++n_;
        return;
      }
      lane.append(k, p, blocks_);
      const std::uint32_t slot = free_slots_[--nfree_];
      slot_lane_[slot] = static_cast<std::uint16_t>(li);
      slot_update(slot, k);
    } else if (!event_before(k, lane.back_key())) {
      lane.append(k, p, blocks_);
    } else {
      push_other(k, p);
    }
    ++n_;
  }
  // An event no lane takes: the near-event ring if due soon and its bucket has room, else the heap.
  void push_other(const EventKey& k, const EventPayload& p) {
    const bool near = near_.try_push(k, p, last_time_);
    if (!near) heap_.push(k, p);
    // Only the pushed key can have become the least of the two stores.
    if (event_before(k, other_key_)) {
      other_key_ = k;
      other_in_near_ = near;
    }
  }
  // The least key of the two stores besides the lanes, and which holds it.
  void update_other() {
    other_in_near_ = event_before(near_.top_key(), heap_.top_key());
    other_key_ = other_in_near_ ? near_.top_key() : heap_.top_key();
  }
  static constexpr std::uint32_t kLanes = 1u << kLaneBits;

  // A FIFO of events whose keys never decrease, in a chain of fixed-size blocks. A block a lane has read to
  // its end goes back to the queue's free list, and the next block any lane needs is the one freed last: the
  // lines a lane appends to were read a few hundred events ago and are still in the cache, where a ring's
  // next slot was last touched a ring-length (about one link delay of events) earlier. Reads are far behind
  // the writes and interleaved over the lanes, more streams than the hardware prefetcher follows, so pops
  // prefetch ahead.
  // The lane's handler is the lane's, not the entry's: 32 bytes, two to a cache line.
  struct Entry {
    EventKey key;
    void* target;
    std::uint64_t arg;
  };
  static_assert(sizeof(Entry) == 32);
  // 63 entries and the link: 2 KiB, a whole number of cache lines.
  static constexpr std::uint32_t kBlockEntries = 63;
  struct alignas(64) Block {
    Entry entries[kBlockEntries];
    Block* next;
  };
  static_assert(sizeof(Block) == 2048);
  // Blocks for all lanes: a LIFO free list over blocks allocated in chunks, freed with the queue.
  class BlockPool {
   public:
    BlockPool() = default;
    BlockPool(const BlockPool&) = delete;
    BlockPool& operator=(const BlockPool&) = delete;
    ~BlockPool() {
      for (Block* chunk : chunks_) ::operator delete[](chunk, std::align_val_t{alignof(Block)});
    }
    Block* take() {
      if (!free_) refill();
      Block* b = free_;
      free_ = b->next;
      b->next = nullptr;
      return b;
    }
    void give(Block* b) {
      b->next = free_;
      free_ = b;
    }

   private:
    [[gnu::noinline]] void refill() {
      constexpr std::size_t kChunkBlocks = 32;
      auto* chunk = static_cast<Block*>(
          ::operator new[](kChunkBlocks * sizeof(Block), std::align_val_t{alignof(Block)}));
      chunks_.push_back(chunk);
      for (std::size_t i = kChunkBlocks; i-- > 0;) give(&chunk[i]);
    }
    Block* free_ = nullptr;
    std::vector<Block*> chunks_;
  };

  class alignas(64) Lane {
   public:
    static constexpr std::uint32_t kPrefetchAhead = 4;
    static constexpr std::uint32_t kTouchAhead = 2;
    TimePs tag = ~TimePs{0};  // the offset this lane serves
    EventFn fn = nullptr;     // and the handler of its events
    bool serves(TimePs offset, EventFn f) const { return tag == offset && fn == f; }
    void claim(TimePs offset, EventFn f) {
      tag = offset;
      fn = f;
    }
    bool empty() const { return count_ == 0; }
    const EventKey& front_key() const { return head_->entries[head_at_].key; }
    EventPayload front_payload() const { return payload_of(head_->entries[head_at_]); }
    const EventKey& back_key() const { return back_; }
    void append(const EventKey& k, const EventPayload& p, BlockPool& pool) {
      if (tail_at_ == kBlockEntries) [[unlikely]]  // also before the first block: tail_at_ starts there
        new_tail_block(pool);
      // The key as two words in registers: a caller's key is a temporary its two halves were just stored
      // to, and gcc copied it with one 16-byte load, which the store buffer cannot forward from two 8-byte
      // stores (the load waited for both to reach the cache: the push's costliest instruction in perf).
      TimePs time = k.time;
      std::uint64_t order = k.order;
      asm("" : "+r"(time), "+r"(order));
      Entry& e = tail_->entries[tail_at_++];
      e.key.time = time;
      e.key.order = order;
      e.target = p.target;
      e.arg = p.arg;
      back_.time = time;
      back_.order = order;
      ++count_;
    }
    template <class F>
    void for_each(F& f) const {
      const Block* b = head_;
      std::uint32_t at = head_at_;
      for (std::size_t i = 0; i < count_; ++i, ++at) {
        if (at == kBlockEntries) {
          b = b->next;
          at = 0;
        }
        f(b->entries[at].key, payload_of(b->entries[at]));
      }
    }
    void pop_front(bool whole_arg, BlockPool& pool) {
      --count_;
      if (++head_at_ == kBlockEntries) [[unlikely]]
        next_head_block(pool);
      __builtin_prefetch(entry_ahead(kPrefetchAhead));
      // And what the lane's event kTouchAhead behind this one will touch (its entry came in with an earlier
      // pop): the event loop's own prefetch of the next event's target and argument starts one event before
      // it runs, less than a miss takes when the fabric outgrows the caches. Measured (one thread,
      // alternated A/B): fattree k = 16 -5 %, k = 24 -8 % wall; kTouchAhead 2 with kPrefetchAhead 8 gained
      // less.
      if (count_ > kTouchAhead) prefetch_event(payload_of(*entry_ahead(kTouchAhead)), whole_arg);
    }

   private:
    EventPayload payload_of(const Entry& e) const { return EventPayload{fn, e.target, e.arg}; }
    // The entry `n` places behind the front; the lane must hold more than n entries, or the address is only
    // good for a prefetch (which never faults).
    const Entry* entry_ahead(std::uint32_t n) const {
      const std::uint32_t at = head_at_ + n;
      if (at < kBlockEntries) return &head_->entries[at];
      const Block* next = head_->next;
      return next ? &next->entries[at - kBlockEntries] : &head_->entries[kBlockEntries - 1];
    }
    [[gnu::noinline]] void new_tail_block(BlockPool& pool) {
      Block* b = pool.take();
      if (tail_)
        tail_->next = b;
      else
        head_ = b;
      tail_ = b;
      tail_at_ = 0;
    }
    [[gnu::noinline]] void next_head_block(BlockPool& pool) {
      if (head_ == tail_) {
        // Read to the end and empty: the block starts over (its lines are the freshest there are).
        head_at_ = 0;
        tail_at_ = 0;
        return;
      }
      Block* done = head_;
      head_ = head_->next;
      head_at_ = 0;
      pool.give(done);
    }
    Block* head_ = nullptr;
    Block* tail_ = nullptr;
    std::uint32_t head_at_ = 0;
    std::uint32_t tail_at_ = kBlockEntries;
    std::size_t count_ = 0;
    EventKey back_{};
  };
  // A lane is one cache line: a push reads and writes only its own.
  static_assert(sizeof(Lane) == 64);

  // The non-empty lanes' head keys, merged by a winner tree over kSlots leaves: node i (1 <= i < kSlots)
  // holds the slot whose key is the least of its subtree, node kSlots + s is leaf s. Changing a leaf replays
  // the matches on its path to the root: always kSlotBits of them, each a compare and conditional moves, so
  // the merge has no data-dependent branch (a binary heap's sift stops at a place no predictor can guess: 0.8
  // mispredictions per event at fat320).
  static constexpr std::uint32_t kSlotBits = 5;
  static constexpr std::uint32_t kSlots = 1u << kSlotBits;
  static constexpr EventKey kNoKey = EventHeap::kAbsentKey;
  // One match of a replay: node's sibling's winner against (kw, w), the winner written to node's parent, and
  // node moved up. w and the nodes hold a slot's byte offset in slot_key_ (slot * 16), so the sibling's key
  // is one indexed load away. A conditional move, not a branch: which of two lanes' heads comes first
  // mispredicts as a heap's sift does, and gcc turns ?: and even masks here into branches.
  [[gnu::always_inline]] void match_up(std::uint32_t& node, std::uint32_t& w, EventKey& kw) {
#if defined(__x86_64__)
    std::uint64_t sib, sw, ks_order, time_scratch;
    asm("movl %k[node], %k[sib]\n\t"
        "xorl $1, %k[sib]\n\t"
        "movzwl (%[win],%[sib],2), %k[sw]\n\t"
        "movq 8(%[keys],%[sw]), %[kso]\n\t"
        "cmpq %[kwo], %[kso]\n\t"
        "movq (%[keys],%[sw]), %[ts]\n\t"
        "sbbq %[kwt], %[ts]\n\t"
        "cmovbq %[kso], %[kwo]\n\t"
        "cmovbq (%[keys],%[sw]), %[kwt]\n\t"
        "cmovbl %k[sw], %[w]\n\t"
        "shrl $1, %k[node]\n\t"
        "movw %w[w], (%[win],%q[node],2)"
        : [node] "+r"(node), [w] "+r"(w), [kwt] "+r"(kw.time), [kwo] "+r"(kw.order), [sib] "=&r"(sib),
          [sw] "=&r"(sw), [kso] "=&r"(ks_order), [ts] "=&r"(time_scratch), "+m"(win_)
        : [win] "r"(win_), [keys] "r"(slot_key_), "m"(slot_key_)
        : "cc");
#else
    const std::uint32_t sw = win_[node ^ 1u];
    const EventKey& ks = slot_key_[sw / sizeof(EventKey)];
    const std::uint64_t take = 0 - static_cast<std::uint64_t>(event_before(ks, kw));
    w ^= (w ^ sw) & static_cast<std::uint32_t>(take);
    kw.time ^= (kw.time ^ ks.time) & take;
    kw.order ^= (kw.order ^ ks.order) & take;
    node >>= 1;
    win_[node] = static_cast<std::uint16_t>(w);
#endif
  }
  // Every store reports an absent key (all ones, after every event's) when empty: the lanes' top_key_ is the
  // winner of slots that all hold kNoKey, the heap's and the ring's top_key() kAbsentKey.
  bool from_lane() const { return event_before(top_key_, other_key_); }
  static_assert(sizeof(EventKey) == 16, "match_up indexes keys by byte offset, scale 1");
  void slot_update(std::uint32_t slot, const EventKey& k) {
    slot_key_[slot] = k;
    std::uint32_t w = slot * sizeof(EventKey);
    EventKey kw = k;
    std::uint32_t node = kSlots + slot;
#pragma GCC unroll 8
    for (std::uint32_t level = 0; level < kSlotBits; ++level) match_up(node, w, kw);
    top_slot_ = w / sizeof(EventKey);
    top_key_ = kw;
  }
  void slot_release(std::uint32_t slot) {
    free_slots_[nfree_++] = static_cast<std::uint8_t>(slot);
    slot_update(slot, kNoKey);
  }
  EventHeap heap_;
  NearEvents near_;
  EventKey other_key_ = kNoKey;  // the least of heap_'s and near_'s
  bool other_in_near_ = false;
  BlockPool blocks_;  // before the lanes that hold its blocks
  std::vector<Lane> lanes_;
  EventKey slot_key_[kSlots];
  std::uint16_t win_[2 * kSlots];  // a slot's byte offset in slot_key_
  std::uint16_t slot_lane_[kSlots] = {};
  std::uint8_t free_slots_[kSlots];
  std::uint32_t nfree_ = kSlots;
  EventKey top_key_ = kNoKey;
  std::uint32_t top_slot_ = 0;
  std::size_t n_ = 0;
  TimePs last_time_ = 0;
  std::uint64_t seq_ = 0;
  bool touch_whole_arg_ = false;
};

}  // namespace lossless
