// What a run checks about itself (README "Invariants", "Stalls and PFC deadlocks"): the invariants
// (net/invariants.h) at the end of every run and, with `--check` (`full`), every `check.interval` of
// simulated time during it; PFC deadlocks (net/deadlock.h) as they form; and, at the end, what every
// unfinished flow waits for (net/stalls.h). It looks at the fabric between windows (net/fabric_run.h), when
// no partition runs, so a run on N threads checks exactly what a run on one does. The cheap part — end-of-run
// checks, deadlock detection on fabrics whose routes can form a cycle — is always on.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>

#include "core/params.h"
#include "core/time.h"
#include "net/deadlock.h"
#include "net/fabric_run.h"
#include "net/invariants.h"
#include "net/stalls.h"

namespace lossless {

class Network;

// The scenario's `check:` section.
struct CheckConfig {
  // An unfinished flow that has had nothing delivered or acknowledged for this long counts as stalled;
  // kTimeNever = auto: 1000 x the largest base RTT of the fabric.
  TimePs stall_after_ps = kTimeNever;
  // How often `--check` runs every invariant during the run (simulated time).
  TimePs interval_ps = 100 * kPsPerUs;

  template <class V>
  void visit(V& v) {
    v.time_or_auto(
        "stall_after", stall_after_ps,
        "an unfinished flow with nothing delivered or acknowledged for this long counts as stalled "
        "(summary.json unfinished, stalls); auto = 1000 x the largest base RTT of the fabric");
    v.require(stall_after_ps > 0, "stall_after", "must be positive (or auto)");
    v.time("interval", interval_ps,
           "how often `--check` checks every invariant during a run (simulated time)", kPositive);
  }
};

class RunChecks final : public WindowObserver {
 public:
  // `full`: every invariant every cfg.interval during the run (--check), not only at its end.
  // `on_deadlock` is told of each cycle when it is found (between windows, on the calling thread).
  RunChecks(Network& net, const CheckConfig& cfg, bool full,
            std::function<void(const DeadlockReport&)> on_deadlock = {});

  bool wants(std::size_t partition, TimePs end_ps) const override;
  void at_window_end(TimePs end_ps) override;
  // After the run: the invariants at its end and the classification of the unfinished flows. Throws
  // InvariantViolation.
  void finish(const FabricRunStats& run);

  bool full() const { return full_; }
  std::uint64_t passes() const { return checker_.passes(); }
  TimePs stall_after_ps() const { return stall_after_ps_; }
  const UnfinishedReport& unfinished() const { return unfinished_; }
  const DeadlockDetector& deadlocks() const { return deadlocks_; }

 private:
  Network& net_;
  bool full_;
  TimePs interval_ps_;
  TimePs stall_after_ps_;
  TimePs next_check_ps_;
  FabricChecker checker_;
  DeadlockDetector deadlocks_;
  std::function<void(const DeadlockReport&)> on_deadlock_;
  UnfinishedReport unfinished_;
};

}  // namespace lossless
