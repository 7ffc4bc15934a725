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
#include <vector>

#include "core/rank_link.h"
#include "core/time.h"
#include "net/fabric_run.h"

namespace lossless {

class Network;
class DeadlockDetector;
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

// The same over ranks (collective; a fabric split over processes, net/network.h): every unfinished flow
// counted and classified by what it waits for (its sender's rank decides, with its last progress the latest
// of its sender's and receiver's), on rank 0. Not there: the stalled flows' listing (`stalls`: it reads where
// their bytes are, which no rank knows whole) and PFC deadlocks (not looked for over ranks).
UnfinishedReport classify_unfinished_over_ranks(const Network& net, RankLink& link, RunEnd end, TimePs end_ps,
                                                TimePs stall_after_ps);

}  // namespace lossless
