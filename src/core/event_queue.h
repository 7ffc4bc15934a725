// The event queue: a 4-ary min-heap of small POD entries ordered by (time, phase, insertion sequence).
// Simultaneous events run in a deterministic order: lower phase first, then FIFO. No fudge deltas (STYLE P3).
#pragma once
#include <algorithm>
#include <cstdint>
#include <new>
#include <vector>

#include "core/time.h"

namespace lossless {

using EventFn = void (*)(void* target, std::uint64_t arg);

// Phases for events due at the same instant. Most events are kNormal; a scheme that needs "A before B at the
// same time" (DCQCN's alpha update before its rate decrease) says so with a phase instead of adding 1 ns.
enum class EventPhase : std::uint8_t { kEarly = 0, kNormal = 1, kLate = 2 };

struct Event {
  TimePs time;
  std::uint64_t order;  // phase in the top 8 bits, insertion sequence below
  EventFn fn;
  void* target;
  std::uint64_t arg;
};

class EventQueue {
 public:
  EventQueue() = default;
  EventQueue(const EventQueue&) = delete;
  EventQueue& operator=(const EventQueue&) = delete;
  ~EventQueue() { ::operator delete[](keys_raw_, std::align_val_t{64}); }

  void push(TimePs time, EventFn fn, void* target, std::uint64_t arg,
            EventPhase phase = EventPhase::kNormal) {
    push_ordered(time, reserve(phase), fn, target, arg);
  }
  // An order key taken now for an event that may be pushed later: the event then runs exactly where it would
  // have run had it been pushed now. Lets a component keep one pending event (the head of a link, a port's
  // next transmission) instead of one per packet, without changing the simulation.
  std::uint64_t reserve(EventPhase phase = EventPhase::kNormal) {
    return (static_cast<std::uint64_t>(phase) << 56) | (seq_++ & kSeqMask);
  }
  void push_ordered(TimePs time, std::uint64_t order, EventFn fn, void* target, std::uint64_t arg) {
    if (n_ == cap_) grow();
    sift_up(n_++, Key{time, order}, Payload{fn, target, arg});
  }
  bool empty() const { return n_ == 0; }
  std::size_t size() const { return n_; }
  Event top() const { return Event{keys_[0].time, keys_[0].order, pay_[0].fn, pay_[0].target, pay_[0].arg}; }
  TimePs top_time() const { return keys_[0].time; }
  void* top_target() const { return pay_[0].target; }
  std::uint64_t top_arg() const { return pay_[0].arg; }
  Event pop() {
    Event e = top();
    --n_;
    if (n_ > 0) sift_down(keys_[n_], pay_[n_]);
    return e;
  }

 private:
  // Keys and payloads live in parallel arrays: sifting compares only keys, and the four 16-byte keys of a
  // node's children share one 64-byte cache line (the key array is offset so that each group is aligned).
  struct Key {
    TimePs time;
    std::uint64_t order;
  };
  struct Payload {
    EventFn fn;
    void* target;
    std::uint64_t arg;
  };
  static constexpr std::uint64_t kSeqMask = (1ull << 56) - 1;
  static bool before(const Key& a, const Key& b) {
    return (a.time < b.time) | ((a.time == b.time) & (a.order < b.order));
  }
  void grow() {
    std::size_t cap = cap_ ? 2 * cap_ : 1024;
    auto* raw = static_cast<Key*>(::operator new[]((cap + 3) * sizeof(Key), std::align_val_t{64}));
    if (n_) std::copy(keys_, keys_ + n_, raw + 3);
    ::operator delete[](keys_raw_, std::align_val_t{64});
    keys_raw_ = raw;
    keys_ = raw + 3;  // children 4i+1..4i+4 of node i sit at raw[4(i+1)..4(i+1)+3]: one aligned line
    pay_.resize(cap);
    cap_ = cap;
  }
  void sift_up(std::size_t i, Key k, Payload p) {
    while (i > 0) {
      std::size_t parent = (i - 1) / 4;
      if (!before(k, keys_[parent])) break;
      keys_[i] = keys_[parent];
      pay_[i] = pay_[parent];
      i = parent;
    }
    keys_[i] = k;
    pay_[i] = p;
  }
  // Places the former last element, starting from the root.
  void sift_down(Key k, Payload p) {
    const std::size_t n = n_;
    std::size_t i = 0;
    while (true) {
      std::size_t c = 4 * i + 1;
      if (c >= n) break;
      std::size_t best;
      if (c + 3 < n) {
        std::size_t a = c + before(keys_[c + 1], keys_[c]);
        std::size_t b = c + 2 + before(keys_[c + 3], keys_[c + 2]);
        best = before(keys_[b], keys_[a]) ? b : a;
      } else {
        best = c;
        for (std::size_t x = c + 1; x < n; ++x)
          if (before(keys_[x], keys_[best])) best = x;
      }
      if (!before(keys_[best], k)) break;
      keys_[i] = keys_[best];
      pay_[i] = pay_[best];
      i = best;
    }
    keys_[i] = k;
    pay_[i] = p;
  }

  Key* keys_raw_ = nullptr;
  Key* keys_ = nullptr;
  std::vector<Payload> pay_;
  std::size_t n_ = 0;
  std::size_t cap_ = 0;
  std::uint64_t seq_ = 0;
};

}  // namespace lossless
