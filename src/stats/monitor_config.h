// What the scenario's `monitor:` section asks for: periodic samplers of queues and flow rates, and the PFC
// log.
#pragma once
#include <cstdint>
#include <vector>

#include "core/time.h"

namespace lossless {

struct PortRef {
  std::uint32_t node;  // global node id (a switch)
  int port;            // -1 = every port
};

struct MonitorConfig {
  bool queues = false;
  TimePs queue_interval_ps = kPsPerUs;
  std::vector<PortRef> queue_ports;  // empty with queues = all switch ports
  bool flow_rates = false;
  TimePs flow_rate_interval_ps = 10 * kPsPerUs;
  std::vector<std::uint32_t> rate_flows;  // empty = all
  // monitor.fabric: the recording `lossless view` draws (stats/fabric_monitor.h).
  bool fabric = false;
  TimePs fabric_interval_ps = 10 * kPsPerUs;
  bool pfc = true;
};

}  // namespace lossless
