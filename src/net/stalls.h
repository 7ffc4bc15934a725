// Every flow unfinished at the end of a run, classified (README "Stalls and PFC deadlocks"):
//   stalled  it can make no more progress, or has made none for `check.stall_after`: the event queue
//            drained (nothing can happen any more), its path runs through a PFC deadlock still in force, or
//            nothing of it was delivered or acknowledged for stall_after while it had data left;
//   active   otherwise: it was still moving when the run reached `stop`;
//   not started: its start time is after the end of the run.
// For each, what it waits for at the end, in the order the NIC decides whether a QP may send
// (RdmaNic::may_send): the acknowledgement of bytes all sent, its send gate (the scheme names it: grant,
// credit), a paused priority at its NIC (and the switch port that paused it), its window, its pacer; or
// nothing (it may send but did not). The first paused switch port on its path is added when there is one.
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "core/rank_link.h"
#include "core/time.h"
#include "net/fabric_run.h"

namespace lossless {

class Network;
class DeadlockDetector;
class FabricChecker;
struct PacketCensus;

struct FlowWait {
  std::uint32_t flow = 0;
  std::string src, dst;  // host names
  Bytes size_bytes = 0;
  bool stalled = false;
  std::string why;        // why it counts as stalled
  std::string waits_for;  // one word or two: "grant", "window", "paused priority", ...
  std::string detail;     // the numbers behind it
  TimePs last_progress_ps = 0;
  Bytes acked_bytes = 0, sent_bytes = 0, delivered_bytes = 0, in_flight_bytes = 0;
};

struct UnfinishedReport {
  // Stalled flows listed (all are counted).
  static constexpr std::size_t kMaxListed = 1000;
  std::uint64_t active = 0, stalled = 0, not_started = 0;
  RunEnd end = RunEnd::kAllDone;
  TimePs end_ps = 0;
  TimePs stall_after_ps = 0;
  std::map<std::string, std::uint64_t>
      waiting_for;               // every unfinished flow that started, by what it waits for
  std::vector<FlowWait> stalls;  // the stalled flows, by id
};

// `census` (where the packets are, from the last invariant check) and `deadlocks` may be null.
UnfinishedReport classify_unfinished(const Network& net, RunEnd end, TimePs end_ps, TimePs stall_after_ps,
                                     const PacketCensus* census, const DeadlockDetector* deadlocks);

// Over ranks: this rank's switch ports paused at the end of the run and since when, taken before
// Network::combine_ranks closes the pause accounting (a port numbering of the whole fabric: each node's
// first port, then its port index).
struct PausedPorts {
  std::vector<std::uint32_t> first_port;               // per node, + one past the last
  std::vector<std::pair<std::size_t, TimePs>> paused;  // (port x 8 + priority, paused since)
};
PausedPorts paused_ports_here(const Network& net);

// The same over ranks (collective; a fabric split over processes, net/network.h): every unfinished flow
// counted and classified by what it waits for (its sender's rank decides, with its last progress the latest
// of its sender's and receiver's), on rank 0, and the stalled ones listed: their delivered and in-flight
// bytes from `checker`'s sums over ranks (its end-of-run check), the first paused port on their path from
// every rank's ports (`paused`). Not there: PFC deadlocks (not looked for over ranks).
UnfinishedReport classify_unfinished_over_ranks(const Network& net, RankLink& link, RunEnd end, TimePs end_ps,
                                                TimePs stall_after_ps, const FabricChecker& checker,
                                                const PausedPorts& paused);

}  // namespace lossless
