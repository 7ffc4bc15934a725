// The progress line of long runs on stderr: simulated time, share of flows done, events per second. Silent
// for the first three seconds, then at most once a second.
#pragma once
#include <chrono>
#include <cstdint>

#include "net/fabric_run.h"

namespace lossless {

class ProgressLine {
 public:
  explicit ProgressLine(std::uint64_t flows_total) : flows_total_(flows_total) {}
  void update(const FabricProgress& p);
  // Ends the line if one was printed.
  void finish();

 private:
  using Clock = std::chrono::steady_clock;
  std::uint64_t flows_total_;
  Clock::time_point start_ = Clock::now();
  Clock::time_point last_print_ = start_;
  std::uint64_t last_events_ = 0;
  bool printed_ = false;
};

}  // namespace lossless
