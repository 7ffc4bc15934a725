// The event queue: a 4-ary min-heap of small POD entries ordered by (time, phase, insertion sequence).
// Simultaneous events run in a deterministic order: lower phase first, then FIFO. No fudge deltas (STYLE P3).
#pragma once
#include <cstdint>
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
  void push(TimePs time, EventFn fn, void* target, std::uint64_t arg, EventPhase phase = EventPhase::kNormal) {
    push_ordered(time, reserve(phase), fn, target, arg);
  }
  // An order key taken now for an event that may be pushed later: the event then runs exactly where it would
  // have run had it been pushed now. Lets a component keep one pending event (the head of a link, a port's
  // next transmission) instead of one per packet, without changing the simulation.
  std::uint64_t reserve(EventPhase phase = EventPhase::kNormal) {
    return (static_cast<std::uint64_t>(phase) << 56) | (seq_++ & kSeqMask);
  }
  void push_ordered(TimePs time, std::uint64_t order, EventFn fn, void* target, std::uint64_t arg) {
    heap_.push_back(Event{time, order, fn, target, arg});
    sift_up(heap_.size() - 1);
  }
  bool empty() const { return heap_.empty(); }
  std::size_t size() const { return heap_.size(); }
  const Event& top() const { return heap_.front(); }
  Event pop() {
    Event e = heap_.front();
    Event last = heap_.back();
    heap_.pop_back();
    if (!heap_.empty()) sift_down(last);
    return e;
  }

 private:
  static constexpr std::uint64_t kSeqMask = (1ull << 56) - 1;
  static bool before(const Event& a, const Event& b) {
    return a.time < b.time || (a.time == b.time && a.order < b.order);
  }
  void sift_up(std::size_t i) {
    Event e = heap_[i];
    while (i > 0) {
      std::size_t parent = (i - 1) / 4;
      if (!before(e, heap_[parent])) break;
      heap_[i] = heap_[parent];
      i = parent;
    }
    heap_[i] = e;
  }
  // Places `e` (the former last element) starting from the root.
  void sift_down(const Event& e) {
    std::size_t n = heap_.size();
    std::size_t i = 0;
    while (true) {
      std::size_t first = 4 * i + 1;
      if (first >= n) break;
      std::size_t best = first;
      std::size_t end = first + 4 < n ? first + 4 : n;
      for (std::size_t c = first + 1; c < end; ++c)
        if (before(heap_[c], heap_[best])) best = c;
      if (!before(heap_[best], e)) break;
      heap_[i] = heap_[best];
      i = best;
    }
    heap_[i] = e;
  }

  std::vector<Event> heap_;
  std::uint64_t seq_ = 0;
};

}  // namespace lossless
