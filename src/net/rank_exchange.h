// The window-end exchange of a fabric split over ranks (processes; net/network.h, core/rank_link.h). Each
// rank sends every other rank one message per window: a header (the earliest event it will have after the
// window, its completed flows and events, whether it was interrupted) and the packets its partitions sent to
// that rank's partitions during the window, each as a record: the delivery event's time, order key and
// offset (net/partition.h), the receiving node and port, and the packet's bytes — all of them from its
// intrusive link on, scheme extension included, with the route pointer written as an offset into the flows'
// routes (identical on every rank) — so nothing here knows a scheme's fields. The packet returns to the
// sender's pool; the receiver takes one from the receiving partition's pool, and the event goes into that
// partition's queue as a handed-over event, as between threads. Every rank reads the same headers, so all
// agree on the next window (the earliest event anywhere: a rank's header already counts the packets it
// sends), on the end (every flow done, or nothing before `stop`) and on an interrupt of any rank.
#pragma once
#include <cstdint>
#include <vector>

#include "core/rank_link.h"
#include "core/time.h"

namespace lossless {

class Network;

// What the ranks agreed on at a window end.
struct WindowDecision {
  TimePs next_ps = kTimeNever;  // the earliest pending event of the whole fabric
  std::uint64_t flows_completed = 0;
  std::uint64_t events = 0;
  TimePs last_ps = 0;        // the latest event run anywhere so far
  bool interrupted = false;  // some rank was asked to stop (SIGINT, SIGTERM)
  bool failed = false;       // some rank's run failed (it reports why; the others end theirs)
  int signal = 0;            // the signal of the lowest such rank
};

// What this rank contributes to a window's decision (its partitions' minimum and sums).
struct RankWindowState {
  TimePs next_ps = kTimeNever;
  std::uint64_t flows_completed = 0;
  std::uint64_t events = 0;
  TimePs last_ps = 0;   // the latest event its partitions ran
  bool failed = false;  // this rank's run failed after the window (net/fabric_run.cc)
  int signal = 0;       // the interrupt this rank received (core/interrupt.h), 0 if none
};

// Counts of the exchange, for the run's report (docs/performance.md "Ranks").
struct RankExchangeStats {
  std::uint64_t windows = 0;
  std::uint64_t packets_sent = 0;  // to other ranks
  std::uint64_t bytes_sent = 0;    // message bytes, headers included
  double pack_seconds = 0;         // packing and unpacking records
  double exchange_seconds = 0;     // in the link's exchange: messages plus waiting for slower ranks
};

class RankExchange {
 public:
  // `net` may be null: a rank that follows the windows of a fabric another rank runs alone (monitors of the
  // whole fabric; no lookahead), sending and receiving headers only.
  RankExchange(RankLink& link, Network* net);
  // Packs the packets this rank's partitions sent to other ranks (they wait in the partitions' outboxes),
  // sends them with `mine`, receives the others', queues their packets in this rank's partitions and returns
  // what all ranks agree on. Called by one thread while the rank's other threads wait.
  WindowDecision exchange(RankWindowState mine);
  // The earliest event of the whole fabric at the start (collective).
  TimePs agree_on_start(TimePs mine);
  const RankExchangeStats& stats() const { return stats_; }

 private:
  void pack(RankWindowState& mine);
  void unpack(const RankMessage& in);

  RankLink& link_;
  Network* net_;
  std::vector<RankMessage> out_, in_;
  RankExchangeStats stats_;
};

}  // namespace lossless
