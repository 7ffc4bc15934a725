// The general store of the event queue: a 4-ary min-heap ordered by (time, order). Keys and payloads live in
// parallel arrays: sifting compares only keys, and the four 16-byte keys of a node's children share one
// 64-byte cache line (the key array is offset so that each group is aligned).
#pragma once
#include <algorithm>
#include <cstdint>
#include <new>
#include <vector>

#include "core/time.h"

namespace lossless {

using EventFn = void (*)(void* target, std::uint64_t arg);
// An event handler's second-stage prefetch (Simulator::add_prefetcher): given an event that has not run yet,
// whose target and argument lines are already on their way, it starts fetching what the handler will reach
// through them. It must only read the target and argument (and what they point to) and prefetch.
using PrefetchFn = void (*)(const void* target, std::uint64_t arg);

struct EventKey {
  TimePs time;
  std::uint64_t order;  // ties at the same time: phase, then sequence (core/order_key.h)
};
struct EventPayload {
  EventFn fn;
  void* target;
  std::uint64_t arg;
};
// Starts fetching what an event will touch: its target and its argument (the first line, or with `whole_arg`
// the three of a 192-byte packet: an HPCC packet with its INT records, net/int_stamp.h). Prefetches never
// fault, whatever the argument holds. Always inlined: gcc deletes calls to a small out-of-line function that
// only prefetches (it has no side effects).
[[gnu::always_inline]] inline void prefetch_event(const EventPayload& p, bool whole_arg) {
  __builtin_prefetch(p.target);
  const auto* arg = reinterpret_cast<const char*>(p.arg);
  __builtin_prefetch(arg);
  if (whole_arg) {
    __builtin_prefetch(arg + 64);
    __builtin_prefetch(arg + 128);
  }
}
// One 128-bit comparison (cmp + sbb): cheaper than comparing time, then order.
inline bool event_before(const EventKey& a, const EventKey& b) {
  const unsigned __int128 ka = (static_cast<unsigned __int128>(a.time) << 64) | a.order;
  const unsigned __int128 kb = (static_cast<unsigned __int128>(b.time) << 64) | b.order;
  return ka < kb;
}

class EventHeap {
 public:
  EventHeap() {
    grow();
    keys_[0] = kAbsentKey;
  }
  EventHeap(const EventHeap&) = delete;
  EventHeap& operator=(const EventHeap&) = delete;
  ~EventHeap() { ::operator delete[](keys_raw_, std::align_val_t{64}); }

  bool empty() const { return n_ == 0; }
  std::size_t size() const { return n_; }
  // The least key, or kAbsentKey (which sorts after every event's) when empty: the event queue compares it
  // with its lanes' first without asking whether there is one.
  const EventKey& top_key() const { return keys_[0]; }
  static constexpr EventKey kAbsentKey{~TimePs{0}, ~std::uint64_t{0}};
  const EventPayload& top_payload() const { return pay_[0]; }

  void push(const EventKey& k, const EventPayload& p) {
    if (n_ == cap_) grow();
    sift_up(n_++, k, p);
  }
  // Calls f(key, payload) for every event held, in heap order.
  template <class F>
  void for_each(F& f) const {
    for (std::size_t i = 0; i < n_; ++i) f(keys_[i], pay_[i]);
  }
  void pop() {
    --n_;
    if (n_ > 0)
      sift_down(keys_[n_], pay_[n_]);
    else
      keys_[0] = kAbsentKey;
  }

 private:
  void grow() {
    std::size_t cap = cap_ ? 2 * cap_ : 1024;
    auto* raw = static_cast<EventKey*>(::operator new[]((cap + 3) * sizeof(EventKey), std::align_val_t{64}));
    if (n_) std::copy(keys_, keys_ + n_, raw + 3);
    ::operator delete[](keys_raw_, std::align_val_t{64});
    keys_raw_ = raw;
    keys_ = raw + 3;  // children 4i+1..4i+4 of node i sit at raw[4(i+1)..4(i+1)+3]: one aligned line
    pay_.resize(cap);
    cap_ = cap;
  }
  void sift_up(std::size_t i, EventKey k, EventPayload p) {
    while (i > 0) {
      std::size_t parent = (i - 1) / 4;
      if (!event_before(k, keys_[parent])) break;
      keys_[i] = keys_[parent];
      pay_[i] = pay_[parent];
      i = parent;
    }
    keys_[i] = k;
    pay_[i] = p;
  }
  // Places the former last element, starting from the root.
  void sift_down(EventKey k, EventPayload p) {
    const std::size_t n = n_;
    std::size_t i = 0;
    while (true) {
      std::size_t c = 4 * i + 1;
      if (c >= n) break;
      std::size_t best;
      if (c + 3 < n) {
        std::size_t a = c + event_before(keys_[c + 1], keys_[c]);
        std::size_t b = c + 2 + event_before(keys_[c + 3], keys_[c + 2]);
        best = event_before(keys_[b], keys_[a]) ? b : a;
      } else {
        best = c;
        for (std::size_t x = c + 1; x < n; ++x)
          if (event_before(keys_[x], keys_[best])) best = x;
      }
      if (!event_before(keys_[best], k)) break;
      keys_[i] = keys_[best];
      pay_[i] = pay_[best];
      i = best;
    }
    keys_[i] = k;
    pay_[i] = p;
  }

  EventKey* keys_raw_ = nullptr;
  EventKey* keys_ = nullptr;
  std::vector<EventPayload> pay_;
  std::size_t n_ = 0;
  std::size_t cap_ = 0;
};

}  // namespace lossless
