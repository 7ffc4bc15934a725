#include "scenario/progress.h"

#include <cstdio>

namespace lossless {

void ProgressLine::update(const FabricProgress& p) {
  const auto now = Clock::now();
  const double since_start = std::chrono::duration<double>(now - start_).count();
  const double since_print = std::chrono::duration<double>(now - last_print_).count();
  if (since_start < 3.0 || since_print < 1.0) return;
  const double rate = static_cast<double>(p.events - last_events_) / since_print;
  const double flows_done =
      flows_total_ == 0 ? 0.0 : static_cast<double>(p.flows_completed) / static_cast<double>(flows_total_);
  std::fprintf(stderr, "\r[lossless] sim %.3f ms  flows done %.1f%%  %.2f M events/s   ",
               static_cast<double>(p.now_ps) / kPsPerMs, 100.0 * flows_done, rate / 1e6);
  std::fflush(stderr);
  printed_ = true;
  last_print_ = now;
  last_events_ = p.events;
}

void ProgressLine::finish() {
  if (printed_) std::fprintf(stderr, "\n");
  printed_ = false;
}

}  // namespace lossless
