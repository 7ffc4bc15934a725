#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <thread>
#include <vector>

#include "core/event_queue.h"
#include "core/near_events.h"
#include "core/rng.h"
#include "core/simulator.h"
#include "core/spin_barrier.h"
#include "core/units.h"

namespace lossless {
namespace {

TEST(Units, ParsesAndFormatsExactly) {
  EXPECT_EQ(*parse_time("10ms"), 10 * kPsPerMs);
  EXPECT_EQ(*parse_time("1.5us"), 1500 * kPsPerNs);
  EXPECT_EQ(*parse_time("0"), 0u);
  EXPECT_FALSE(parse_time("10"));
  EXPECT_FALSE(parse_time("0.5ps"));
  EXPECT_EQ(*parse_rate("100Gbps"), 100'000'000'000u);
  EXPECT_FALSE(parse_rate("100Gbs"));
  EXPECT_FALSE(parse_rate("-1Gbps"));
  EXPECT_EQ(*parse_size("32MB"), 32'000'000u);
  EXPECT_EQ(*parse_size("4KiB"), 4096u);
  EXPECT_EQ(*parse_size("1000"), 1000u);
  EXPECT_EQ(format_time(55 * kPsPerUs), "55us");
  EXPECT_EQ(format_rate(40'000'000), "40Mbps");
  EXPECT_EQ(format_size(4096), "4KiB");
  EXPECT_EQ(*parse_size(format_size(1'234'567)), 1'234'567u);
}

TEST(Units, SerializationRoundsUp) {
  EXPECT_EQ(tx_time_ps(1000, 100'000'000'000), 80'000u);
  EXPECT_EQ(tx_time_ps(1, 3), 2'666'666'666'667u);
  SerializationClock c(100'000'000'000);
  EXPECT_EQ(c.tx_time(1048), 83'840u);
  SerializationClock odd(3);
  EXPECT_EQ(odd.tx_time(1), tx_time_ps(1, 3));
}

TEST(EventQueue, OrdersByTimeThenPhaseThenFifo) {
  EventQueue q;
  std::vector<int> order;
  auto fn = [](void* t, std::uint64_t a) {
    static_cast<std::vector<int>*>(t)->push_back(static_cast<int>(a));
  };
  q.push(20, fn, &order, 1);
  q.push(10, fn, &order, 2, EventPhase::kLate);
  q.push(10, fn, &order, 3);
  q.push(10, fn, &order, 4);
  q.push(10, fn, &order, 5, EventPhase::kEarly);
  q.push(5, fn, &order, 6);
  while (!q.empty()) {
    Event e = q.pop();
    e.fn(e.target, e.arg);
  }
  EXPECT_EQ(order, (std::vector<int>{6, 5, 3, 4, 2, 1}));
}

TEST(EventQueue, HeapStaysSortedUnderRandomLoad) {
  EventQueue q;
  RngStream rng(3, "heap");
  auto fn = [](void*, std::uint64_t) {};
  for (int i = 0; i < 10000; ++i) q.push(rng.below(1000), fn, nullptr, static_cast<std::uint64_t>(i));
  TimePs last = 0;
  while (!q.empty()) {
    Event e = q.pop();
    EXPECT_GE(e.time, last);
    last = e.time;
  }
}

// The queue compares the lanes' first key with the heap's without asking whether either holds one: an empty
// heap must report a key after every event's, before its first push and after its last pop.
TEST(EventQueue, EmptyHeapReportsAnAbsentKey) {
  EventHeap heap;
  auto fn = [](void*, std::uint64_t) {};
  EXPECT_TRUE(heap.empty());
  EXPECT_EQ(heap.top_key().time, EventHeap::kAbsentKey.time);
  EXPECT_EQ(heap.top_key().order, EventHeap::kAbsentKey.order);
  heap.push(EventKey{5, 1}, EventPayload{fn, nullptr, 0});
  heap.push(EventKey{3, 2}, EventPayload{fn, nullptr, 1});
  EXPECT_EQ(heap.top_key().time, 3u);
  heap.pop();
  heap.pop();
  EXPECT_TRUE(heap.empty());
  EXPECT_EQ(heap.top_key().time, EventHeap::kAbsentKey.time);
  EXPECT_EQ(heap.top_key().order, EventHeap::kAbsentKey.order);
}

// A queue drained to empty and filled again, each time with an event only the heap holds (a one-off offset)
// and one a lane holds: whichever store is empty, the other's event comes out, and both in key order.
TEST(EventQueue, EitherStoreAloneOrBothEmptyPopInKeyOrder) {
  EventQueue q;
  auto fn = [](void*, std::uint64_t) {};
  TimePs now = 0;
  for (int round = 0; round < 50; ++round) {
    // A one-off offset goes to the heap; the same offset twice gets a lane the second time.
    const TimePs heap_at = now + 1000 + static_cast<TimePs>(round) * 7;
    q.push(heap_at, fn, nullptr, 1);
    if (round % 3 != 0) {
      q.push(now + 500, fn, nullptr, 2);
      q.push(now + 500, fn, nullptr, 3);
    }
    TimePs last = now;
    while (!q.empty()) {
      const TimePs due = q.top_time();
      Event e = q.pop();
      EXPECT_EQ(e.time, due);
      EXPECT_GE(e.time, last);
      last = e.time;
    }
    EXPECT_EQ(q.top_time(), kTimeNever);
    now = last;
  }
}

// Pushes made while popping, as a simulation does: mostly at a few fixed offsets from the current time (FIFO
// lanes), some at random offsets, some with order keys reserved earlier (out of order within their lane).
// Whatever store holds them, events must come out in (time, order) order.
TEST(EventQueue, LanesAndHeapTogetherPopInKeyOrder) {
  EventQueue q;
  RngStream rng(7, "lanes");
  auto fn = [](void*, std::uint64_t) {};
  const TimePs offsets[] = {1'083'840, 1'020'960, 83'840, 20'960, 55'000'000};
  std::vector<std::uint64_t> reserved;
  TimePs now = 0;
  std::uint64_t last_order = 0;
  std::size_t popped = 0;
  for (int i = 0; i < 200; ++i) q.push(rng.below(2'000'000), fn, nullptr, 0);
  while (!q.empty()) {
    Event e = q.pop();
    ASSERT_GE(e.time, now);
    if (e.time == now && popped > 0) {
      ASSERT_GT(e.order, last_order);
    }
    now = e.time;
    last_order = e.order;
    if (++popped > 200'000) continue;
    const std::uint64_t r = rng.below(100);
    if (r < 70) {
      q.push(now + offsets[rng.below(5)], fn, nullptr, 0);
    } else if (r < 80) {
      q.push(now + rng.below(3'000'000), fn, nullptr, 0);
    } else if (r < 90) {
      reserved.push_back(q.reserve());
    } else if (!reserved.empty()) {
      q.push_ordered(now + offsets[rng.below(5)], reserved.front(), fn, nullptr, 0);
      reserved.erase(reserved.begin());
    }
    if (r < 30) q.push(now + offsets[0], fn, nullptr, 0);  // keep the population up
  }
  EXPECT_GT(popped, 200'000u);
}

// The near-event ring holds an event due within its horizon of the last pop if the event's bucket has room,
// and refuses the rest (the queue keeps those in its heap); what it holds comes out in key order.
TEST(NearEvents, HoldsWhatIsDueSoonInKeyOrderAndRefusesTheRest) {
  NearEvents near;
  auto fn = [](void*, std::uint64_t) {};
  const TimePs bucket = TimePs{1} << NearEvents::kBucketShift;
  const TimePs floor = 5 * bucket + 17;
  EXPECT_EQ(near.top_key().time, EventHeap::kAbsentKey.time);
  EXPECT_FALSE(
      near.try_push(EventKey{(5 + NearEvents::kBuckets) * bucket, 1}, EventPayload{fn, nullptr, 0}, floor));
  ASSERT_TRUE(
      near.try_push(EventKey{(4 + NearEvents::kBuckets) * bucket, 1}, EventPayload{fn, nullptr, 9}, floor));
  // One bucket, out of order: keys 30, 10, 20 at one time, then an earlier time.
  const TimePs t = 7 * bucket + 3;
  for (std::uint64_t order : {30, 10, 20})
    ASSERT_TRUE(near.try_push(EventKey{t, order}, EventPayload{fn, nullptr, order}, floor));
  EXPECT_EQ(near.top_key().time, t);
  EXPECT_EQ(near.top_key().order, 10u);
  ASSERT_TRUE(near.try_push(EventKey{t - 1, 50}, EventPayload{fn, nullptr, 50}, floor));
  EXPECT_FALSE(near.try_push(EventKey{t + 1, 5}, EventPayload{fn, nullptr, 5}, floor));  // the bucket is full
  EXPECT_EQ(near.size(), 5u);
  // The key it reports is the event it pops (the argument names the key's order, 9 the far event's).
  std::vector<std::uint64_t> orders, args;
  while (near.size() > 0) {
    orders.push_back(near.top_key().order);
    args.push_back(near.top_payload().arg);
    near.pop();
  }
  EXPECT_EQ(orders, (std::vector<std::uint64_t>{50, 10, 20, 30, 1}));
  EXPECT_EQ(args, (std::vector<std::uint64_t>{50, 10, 20, 30, 9}));
  EXPECT_EQ(near.top_key().time, EventHeap::kAbsentKey.time);
}

// Events due soon at arbitrary times (ends of transmission asked for late, pacing wake-ups), many at one
// instant, some beyond the ring's horizon, some with keys reserved earlier, pushed while popping over a span
// that wraps the ring many times, half of them by push_soon: every event comes out once, in key order,
// whichever store held it.
TEST(EventQueue, NearEventsRingAndHeapTogetherPopInKeyOrder) {
  EventQueue q;
  RngStream rng(11, "near");
  auto fn = [](void*, std::uint64_t) {};
  std::set<std::pair<TimePs, std::uint64_t>> pending;
  std::vector<std::uint64_t> reserved;
  // push_soon (straight to the ring, an end of transmission asked for late) for every other event.
  bool soon = false;
  auto push = [&](TimePs at, std::uint64_t order) {
    if ((soon = !soon))
      q.push_soon(at, order, fn, nullptr, 0);
    else
      q.push_ordered(at, order, fn, nullptr, 0);
    pending.insert({at, order});
  };
  for (int i = 0; i < 100; ++i) push(rng.below(300'000), q.reserve());
  std::size_t popped = 0, most_outside_lanes = 0;
  while (!q.empty()) {
    const Event e = q.pop();
    ASSERT_FALSE(pending.empty());
    ASSERT_EQ(*pending.begin(), std::make_pair(e.time, e.order)) << "pop " << popped;
    pending.erase(pending.begin());
    most_outside_lanes = std::max(most_outside_lanes, q.heap_size());
    if (++popped > 300'000) continue;
    const std::uint64_t r = rng.below(100);
    if (r < 60) {
      push(e.time + rng.below(100'000), q.reserve());  // within the horizon
    } else if (r < 70) {
      for (int k = 0; k < 6; ++k) push(e.time + 2'000, q.reserve());  // more than a bucket holds
    } else if (r < 80) {
      push(e.time + rng.below(2'000'000), q.reserve());  // mostly beyond it
    } else if (r < 90) {
      reserved.push_back(q.reserve());
    } else if (!reserved.empty()) {
      push(e.time + rng.below(50'000), reserved.front());
      reserved.erase(reserved.begin());
    }
    if (r < 35) push(e.time + rng.below(80'000), q.reserve());  // keep the population up
    if (popped % 1000 == 0) {
      std::size_t seen = 0;
      q.for_each([&](const EventKey&, const EventPayload&) { ++seen; });
      ASSERT_EQ(seen, q.size());
    }
  }
  EXPECT_TRUE(pending.empty());
  EXPECT_GT(popped, 300'000u);
  EXPECT_GT(most_outside_lanes, 0u);
}

// Two busy offsets that hash to the same lane: the second takes another lane of the group, so neither falls
// back to the heap once both are established.
TEST(EventQueue, TwoOffsetsHashingToOneLaneBothGetLanes) {
  const TimePs a = 1'000'000;
  TimePs b = a + 1;
  EventFn fn = [](void*, std::uint64_t) {};
  while (EventQueue::lane_of(b, fn) != EventQueue::lane_of(a, fn)) ++b;
  const TimePs both[2] = {a, b};
  EventQueue q;
  // Two streams, each rescheduled at its own offset: a stream's events are pushed in time order.
  for (std::uint64_t s = 0; s < 2; ++s)
    for (int i = 0; i < 8; ++i) q.push(both[s] + static_cast<TimePs>(i) * 1000, fn, nullptr, s);
  TimePs last = 0;
  for (int i = 0; i < 10'000; ++i) {
    Event e = q.pop();
    ASSERT_GE(e.time, last);
    last = e.time;
    q.push(e.time + both[e.arg], fn, nullptr, e.arg);
  }
  EXPECT_EQ(q.heap_size(), 0u);
}

// Four busy offsets that hash to one lane: each takes a lane of the group of four (lane ^ j), so none falls
// back to the heap once all are established. With two choices two of them would.
TEST(EventQueue, FourOffsetsHashingToOneLaneAllGetLanes) {
  EventFn fn = [](void*, std::uint64_t) {};
  TimePs offsets[4] = {1'000'000};
  for (int s = 1; s < 4; ++s) {
    offsets[s] = offsets[s - 1] + 1;
    while (EventQueue::lane_of(offsets[s], fn) != EventQueue::lane_of(offsets[0], fn)) ++offsets[s];
  }
  EventQueue q;
  for (std::uint64_t s = 0; s < 4; ++s)
    for (int i = 0; i < 8; ++i) q.push(offsets[s] + static_cast<TimePs>(i) * 1000, fn, nullptr, s);
  TimePs last = 0;
  std::size_t outside_late = 0;
  for (int i = 0; i < 20'000; ++i) {
    Event e = q.pop();
    ASSERT_GE(e.time, last);
    last = e.time;
    q.push(e.time + offsets[e.arg], fn, nullptr, e.arg);
    if (i >= 10'000) outside_late = std::max(outside_late, q.heap_size());
  }
  EXPECT_EQ(outside_late, 0u);
}

// The lanes' heads are merged by a tree of 32 slots; a lane that becomes non-empty while all are taken sends
// its event to the general heap. 60 streams at 60 offsets, each rescheduled at its own offset and joined and
// left at different moments: events pop in strict key order, each stream's in FIFO order, with the heap used
// while more than 32 lanes are busy and every slot free again at the end.
TEST(EventQueue, MoreBusyLanesThanMergeSlotsPopInKeyOrder) {
  EventQueue q;
  auto fn = [](void*, std::uint64_t) {};
  constexpr std::uint64_t kStreams = 60;
  std::uint64_t serial[kStreams] = {}, last_popped[kStreams] = {};
  auto offset = [](std::uint64_t s) { return static_cast<TimePs>(1'000'000 + 7'919 * s); };
  auto push = [&](TimePs at, std::uint64_t s) { q.push(at, fn, nullptr, s | (++serial[s] << 8)); };
  // Each offset is seen twice before its first event pops (a lane is granted the second time), so every
  // stream runs in a lane unless the slots are full.
  for (std::uint64_t s = 0; s < kStreams; ++s) {
    push(offset(s), s);
    push(offset(s) + 1, s);
  }
  EventKey last{0, 0};
  std::size_t most_in_heap = 0;
  for (int i = 0; i < 200'000; ++i) {
    const Event e = q.pop();
    const EventKey k{e.time, e.order};
    ASSERT_TRUE(event_before(last, k)) << "pop " << i;
    last = k;
    const std::uint64_t s = e.arg & 0xff, n = e.arg >> 8;
    ASSERT_GT(n, last_popped[s]);
    last_popped[s] = n;
    most_in_heap = std::max(most_in_heap, q.heap_size());
    // Streams take turns pausing: stream s skips its rescheduling in one phase of every 5,000 pops.
    if ((i / 5'000 + s) % 7 != 0) push(e.time + offset(s), s);
    if (q.empty()) push(e.time + offset(s), s);
  }
  EXPECT_GT(most_in_heap, 0u);
  while (!q.empty()) {
    const Event e = q.pop();
    ASSERT_TRUE(event_before(last, EventKey{e.time, e.order}));
    last = EventKey{e.time, e.order};
  }
  // Emptied, the queue grants lanes (and slots) again: two streams run without the heap.
  for (std::uint64_t s = 0; s < 2; ++s) {
    push(last.time + offset(s), s);
    push(last.time + offset(s) + 1, s);
  }
  for (int i = 0; i < 1000; ++i) {
    const Event e = q.pop();
    push(e.time + offset(e.arg & 0xff), e.arg & 0xff);
  }
  EXPECT_EQ(q.heap_size(), 0u);
}

// Lanes hold their events in chained blocks that pass from lane to lane through a free list. Three streams,
// each rescheduled at its own offset, double in number each generation until their lanes span many blocks,
// then drain to empty, twice: every event comes out once, in key order, each stream's in FIFO order with its
// payload intact, and for_each sees every pending event once.
TEST(EventQueue, LanesThatGrowDrainAndRegrowKeepEveryEvent) {
  EventQueue q;
  auto fn = [](void*, std::uint64_t) {};
  const TimePs offsets[3] = {1'000'000, 1'083'840, 2'020'960};
  std::uint64_t serial[3] = {0, 0, 0};
  std::uint64_t last_popped[3] = {0, 0, 0};
  auto push = [&](TimePs at, std::uint64_t s) { q.push(at, fn, nullptr, s | (++serial[s] << 2)); };
  std::size_t pushes = 0, pops = 0, most_pending = 0, heap_then = 0;
  TimePs last = 0;
  for (int round = 0; round < 2; ++round) {
    const TimePs start = last;  // the second round reuses the blocks the first one freed
    for (std::uint64_t s = 0; s < 3; ++s, ++pushes) push(start + offsets[s], s);
    while (!q.empty()) {
      const Event e = q.pop();
      ++pops;
      ASSERT_GE(e.time, last);
      last = e.time;
      const std::uint64_t s = e.arg & 3, n = e.arg >> 2;
      ASSERT_LT(s, 3u);
      ASSERT_GT(n, last_popped[s]);  // FIFO within a stream, nothing popped twice
      last_popped[s] = n;
      // Generations 1-9 double, 10-12 keep the number, then the streams drain.
      const TimePs gen = (e.time - start) / offsets[s];
      const int copies = gen < 10 ? 2 : gen < 13 ? 1 : 0;
      for (int c = 0; c < copies; ++c, ++pushes) push(e.time + offsets[s], s);
      if (q.size() > most_pending) {
        most_pending = q.size();
        heap_then = q.heap_size();
        std::size_t seen = 0;
        q.for_each([&](const EventKey&, const EventPayload&) { ++seen; });
        ASSERT_EQ(seen, q.size());
      }
    }
  }
  EXPECT_EQ(pops, pushes);
  EXPECT_GT(most_pending, 1000u);  // lanes of 512 events: ten blocks each
  EXPECT_EQ(heap_then, 0u);        // all of them in lanes
}

// A handler's second-stage prefetcher is called for the next event, before the current one runs, when that
// event's handler is the one it was registered for; events run as without it.
TEST(Simulator, CallsAHandlersPrefetcherForTheNextEventOnly) {
  static std::vector<std::uint64_t> ran, looked_ahead;
  ran.clear();
  looked_ahead.clear();
  auto a = [](void*, std::uint64_t arg) { ran.push_back(arg); };
  auto b = [](void*, std::uint64_t arg) { ran.push_back(100 + arg); };
  auto deps = [](const void*, std::uint64_t arg) { looked_ahead.push_back(arg); };
  Simulator sim;
  sim.add_prefetcher(a, deps);
  sim.add_prefetcher(a, deps);  // once is enough
  for (std::uint64_t i = 0; i < 6; ++i) sim.at(10 * (i + 1), i % 2 ? EventFn{b} : EventFn{a}, nullptr, i);
  sim.run(kTimeNever);
  EXPECT_EQ(ran, (std::vector<std::uint64_t>{0, 101, 2, 103, 4, 105}));
  // The first a-event is never "next" (nothing runs before it); the others are looked at once each.
  EXPECT_EQ(looked_ahead, (std::vector<std::uint64_t>{2, 4}));
}

TEST(Simulator, StopsAtHorizonAndOnRequest) {
  Simulator sim;
  int fired = 0;
  auto fn = [](void* t, std::uint64_t) { ++*static_cast<int*>(t); };
  sim.at(10, fn, &fired);
  sim.at(100, fn, &fired);
  sim.run(50);
  EXPECT_EQ(fired, 1);
  EXPECT_EQ(sim.now(), 10u);
}

// Order keys come from per-node clocks: an event scheduled for "now" sorts after its cause even when the
// cause came from a node with a higher clock, and a node's keys do not depend on what other nodes do.
TEST(OrderKeys, ZeroDelayEventsFollowTheirCause) {
  std::vector<NodeClock> clocks(3);  // nodes 0 and 1, then the set-up context
  Simulator sim;
  sim.use_node_clocks(clocks.data(), 2);
  std::vector<std::uint64_t> ran;
  struct Ctx {
    Simulator* sim;
    std::vector<std::uint64_t>* ran;
  } ctx{&sim, &ran};
  // Node 1 runs many events first, so its clock is far ahead of node 0's.
  auto node1 = [](void* t, std::uint64_t) {
    auto* c = static_cast<Ctx*>(t);
    c->ran->push_back(c->sim->current_order());
  };
  sim.act_as(1);
  for (int i = 0; i < 50; ++i) sim.at(10, node1, &ctx);
  // Node 1's last event hands a packet to node 0, which schedules an event for the same instant.
  auto on_node0 = [](void* t, std::uint64_t) {
    auto* c = static_cast<Ctx*>(t);
    c->ran->push_back(c->sim->current_order());
  };
  auto handover = [](void* t, std::uint64_t fn) {
    auto* c = static_cast<Ctx*>(t);
    c->ran->push_back(c->sim->current_order());
    c->sim->act_as(0);
    c->sim->at(c->sim->now(), reinterpret_cast<EventFn>(fn), t);
  };
  sim.at(20, handover, &ctx, reinterpret_cast<std::uint64_t>(+on_node0));
  sim.run(100);
  ASSERT_EQ(ran.size(), 52u);
  for (std::size_t i = 1; i < 50; ++i) EXPECT_LT(ran[i - 1], ran[i]) << i;  // same instant: key order
  EXPECT_EQ(OrderKey::node(ran.back()), 0u);
  EXPECT_GT(OrderKey::seq(ran.back()), OrderKey::seq(ran[50]));
}

TEST(OrderKeys, ANodesKeysDoNotDependOnOtherNodes) {
  auto keys_of_node0 = [](int other_events) {
    std::vector<NodeClock> clocks(3);
    Simulator sim;
    sim.use_node_clocks(clocks.data(), 2);
    std::vector<std::uint64_t> keys;
    sim.act_as(1);
    for (int i = 0; i < other_events; ++i) sim.reserve_order();
    sim.act_as(0);
    for (int i = 0; i < 5; ++i) keys.push_back(sim.reserve_order());
    return keys;
  };
  EXPECT_EQ(keys_of_node0(0), keys_of_node0(1000));
}

// Threads sharing the clocks get them a cache line apart (kClockLineShift): node n's clock is entry n << 3,
// and the entries between stay untouched.
TEST(OrderKeys, SpacedClocksUseEveryEighthEntry) {
  std::vector<NodeClock> clocks(std::size_t{3} << kClockLineShift);
  Simulator sim;
  sim.use_node_clocks(clocks.data(), 2, kClockLineShift);
  sim.act_as(1);
  const std::uint64_t key = sim.reserve_order();
  EXPECT_EQ(OrderKey::node(key), 1u);
  EXPECT_EQ(clocks[std::size_t{1} << kClockLineShift].next_seq, OrderKey::seq(key) + 1);
  for (std::size_t i = 0; i < clocks.size(); ++i) {
    if (i != (std::size_t{1} << kClockLineShift)) {
      EXPECT_EQ(clocks[i].next_seq, 0u) << i;
    }
  }
}

TEST(SpinBarrier, MeetsAndAborts) {
  SpinBarrier barrier(2);
  int shared = 0;
  std::thread t([&] {
    shared = 1;
    EXPECT_TRUE(barrier.arrive_and_wait());
    EXPECT_TRUE(barrier.arrive_and_wait());  // meets the main thread's last arrival
  });
  EXPECT_TRUE(barrier.arrive_and_wait());
  EXPECT_EQ(shared, 1);  // written before the other thread arrived
  SpinBarrier lone(2);
  lone.abort();
  EXPECT_FALSE(lone.arrive_and_wait());  // nobody else will come: abort lets it go
  barrier.arrive_and_wait();
  t.join();
}

TEST(Rng, StreamsAreDeterministicAndIndependent) {
  RngStream a(1, "x", 0), b(1, "x", 0), c(1, "x", 1), d(2, "x", 0);
  std::uint64_t va = a.next();
  EXPECT_EQ(va, b.next());
  EXPECT_NE(va, c.next());
  EXPECT_NE(va, d.next());
  RngStream e(5, "u");
  double sum = 0;
  for (int i = 0; i < 100000; ++i) sum += e.uniform();
  EXPECT_NEAR(sum / 100000, 0.5, 0.01);
}

}  // namespace
}  // namespace lossless
