// Drives a fabric's event loop, on one thread or on one thread per partition (DESIGN §4.2: conservative
// parallel simulation with the shortest link delay as lookahead). Time advances in windows one lookahead
// long, starting at the earliest pending event: within a window every partition runs its own events, since
// nothing another partition does in it can reach them before the window ends; between windows the partitions
// hand each other the packets that crossed. A run on one thread goes through the same windows, so both end at
// the same event and their outputs are byte-identical.
//
// Over ranks (processes, net/rank_exchange.h) the same windows: at each window end, after the rank's threads
// have handed over their packets, one thread per rank exchanges the packets that cross to other ranks and the
// ranks agree on the next window, the end, and an interrupt of any rank.
#pragma once
#include <cstdint>
#include <functional>

#include "core/rank_link.h"
#include "core/time.h"
#include "net/rank_exchange.h"

namespace lossless {

class Network;

struct FabricProgress {
  TimePs now_ps;
  std::uint64_t events;
  std::uint64_t flows_completed;
};

// Why a run ended.
enum class RunEnd : std::uint8_t {
  kAllDone,    // every flow completed (the run ends with the window in which the last one did)
  kDrained,    // no event was left: nothing could happen any more
  kStop,       // the next event was due after `stop`
  kViolation,  // an invariant was violated (net/invariants.h): the run was stopped there
};
const char* run_end_name(RunEnd e);

struct FabricRunStats {
  unsigned threads =
      1;  // partitions the fabric ran as on this rank (--threads may be reduced: net/network.h)
  RunEnd end = RunEnd::kAllDone;
  // When the run ended: `stop` (kStop), the last event (kDrained), the end of the window in which the last
  // flow completed (kAllDone). Every event due at or before it has run.
  TimePs end_ps = 0;
  RankExchangeStats exchange;  // over ranks
  double run_seconds = 0;  // the first partition's thread running events (over ranks: the work of windows)
};

// Looks at the whole fabric between windows, when no partition runs (invariant checks, PFC deadlock
// detection: net/run_checks.h). `wants` is asked by every partition's thread before the window's results are
// exchanged and must answer from what only that partition (or at_window_end) writes, so that all threads
// agree; at_window_end then runs once, on the calling thread, with every event due at or before `end_ps` run.
// An exception from it ends the run (rethrown by run_fabric).
class WindowObserver {
 public:
  virtual ~WindowObserver() = default;
  virtual bool wants(std::size_t partition, TimePs end_ps) const = 0;
  virtual void at_window_end(TimePs end_ps) = 0;
};

// Runs events due at or before `stop_ps` until the queues drain or, once every flow has completed, to the end
// of that window. `progress` is called between windows on the calling thread; so is `observer` (may be null)
// when a partition wants it. With `link` (the network's own when it is split over ranks, or the ranks that
// follow a fabric this rank runs alone) every rank must run this or follow_fabric_windows; an interrupt on
// any rank stops all at the same window (Interrupted).
FabricRunStats run_fabric(Network& net, TimePs stop_ps,
                          const std::function<void(const FabricProgress&)>& progress,
                          WindowObserver* observer = nullptr, RankLink* link = nullptr);

// A rank without partitions: takes part in the windows of a fabric that another rank runs alone (whole-fabric
// monitors, no lookahead) until they end, so that it stops with the others, interrupted or not.
RankExchangeStats follow_fabric_windows(RankLink& link, TimePs stop_ps, std::uint64_t flows);

}  // namespace lossless
