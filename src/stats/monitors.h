// Periodic samplers that stream rows to CSV while the run goes: queue occupancy per switch port and delivered
// rate per flow. Rows are written through a large buffer; nothing is kept in memory.
#pragma once
#include <cstdio>
#include <string>
#include <vector>

#include "core/simulator.h"
#include "net/network.h"
#include "stats/monitor_config.h"
#include "stats/output_file.h"

namespace lossless {

class QueueMonitor {
 public:
  QueueMonitor(Network& net, const MonitorConfig& cfg, const std::string& path);
  void start(TimePs until);
  // Closes the CSV once the run is over (write errors surface here).
  void finish() { out_.close(); }

 private:
  static void sample_event(void* target, std::uint64_t);
  Network& net_;
  TimePs interval_ps_;
  TimePs until_ = 0;
  std::vector<const Port*> ports_;
  std::vector<std::string> names_;
  OutputFile out_;
};

class FlowRateMonitor {
 public:
  FlowRateMonitor(Network& net, const MonitorConfig& cfg, const std::string& path);
  void start(TimePs until);
  void finish() { out_.close(); }

 private:
  static void sample_event(void* target, std::uint64_t);
  Network& net_;
  TimePs interval_ps_;
  TimePs until_ = 0;
  std::vector<std::uint32_t> flows_;
  std::vector<Bytes> last_delivered_;
  OutputFile out_;
};

}  // namespace lossless
