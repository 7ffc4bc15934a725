#include "net/run_checks.h"

#include <exception>

#include "net/network.h"

namespace lossless {

RunChecks::RunChecks(Network& net, const CheckConfig& cfg, bool full,
                     std::function<void(const DeadlockReport&)> on_deadlock)
    : net_(net),
      full_(full),
      interval_ps_(std::max<TimePs>(cfg.interval_ps, 1)),
      stall_after_ps_(cfg.stall_after_ps != kTimeNever ? cfg.stall_after_ps : 1000 * net.max_base_rtt_ps()),
      next_check_ps_(interval_ps_),
      checker_(net),
      deadlocks_(net),
      on_deadlock_(std::move(on_deadlock)) {}

bool RunChecks::wants(std::size_t partition, TimePs end_ps) const {
  return (full_ && end_ps >= next_check_ps_) || deadlocks_.wants(partition, end_ps);
}

void RunChecks::at_window_end(TimePs end_ps) {
  for (std::size_t i : deadlocks_.at_window_end(end_ps))
    if (on_deadlock_) on_deadlock_(deadlocks_.reports()[i]);
  if (full_ && end_ps >= next_check_ps_) {
    try {
      checker_.check(end_ps, false);
    } catch (const InvariantViolation&) {
      // The run stops here: its unfinished flows as they stand.
      unfinished_ = classify_unfinished(net_, RunEnd::kViolation, end_ps, stall_after_ps_, &checker_.census(),
                                        &deadlocks_);
      throw;
    }
    next_check_ps_ = end_ps + interval_ps_;
  }
}

void RunChecks::finish(const FabricRunStats& run) {
  // The census is taken before any invariant is checked: the stall report can read it after a violation.
  std::exception_ptr violation;
  try {
    checker_.check(run.end_ps, run.end == RunEnd::kDrained);
  } catch (const InvariantViolation&) {
    violation = std::current_exception();
  }
  unfinished_ =
      classify_unfinished(net_, run.end, run.end_ps, stall_after_ps_, &checker_.census(), &deadlocks_);
  if (violation) std::rethrow_exception(violation);
}

}  // namespace lossless
