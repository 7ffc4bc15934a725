// Periodic samplers that stream rows to CSV while the run goes: queue occupancy per switch port and delivered
// rate per flow. Rows are written through a large buffer; nothing is kept in memory.
#pragma once
#include <cstdio>
#include <string>
#include <vector>

#include "core/simulator.h"
#include "net/network.h"
#include "scenario/scenario.h"

namespace lossless {

class CsvStream {
 public:
  CsvStream() = default;
  CsvStream(const std::string& path, const char* header);
  ~CsvStream();
  CsvStream(const CsvStream&) = delete;
  CsvStream& operator=(const CsvStream&) = delete;
  std::FILE* f() { return f_; }
  bool open() const { return f_ != nullptr; }

 private:
  std::FILE* f_ = nullptr;
  std::vector<char> buffer_;
};

class QueueMonitor {
 public:
  QueueMonitor(Network& net, const MonitorConfig& cfg, const std::string& path);
  void start(TimePs until);

 private:
  static void sample_event(void* target, std::uint64_t);
  Network& net_;
  TimePs interval_ps_;
  TimePs until_ = 0;
  std::vector<const Port*> ports_;
  std::vector<std::string> names_;
  CsvStream out_;
};

class FlowRateMonitor {
 public:
  FlowRateMonitor(Network& net, const MonitorConfig& cfg, const std::string& path);
  void start(TimePs until);

 private:
  static void sample_event(void* target, std::uint64_t);
  Network& net_;
  TimePs interval_ps_;
  TimePs until_ = 0;
  std::vector<std::uint32_t> flows_;
  std::vector<Bytes> last_delivered_;
  CsvStream out_;
};

}  // namespace lossless
