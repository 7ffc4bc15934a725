// Flow generators. Each returns flows in start-time order with ids left for the scenario to assign.
#pragma once
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "workload/cdf.h"
#include "workload/flow.h"

namespace lossless {

struct PoissonSpec {
  double load = 0.3;  // fraction of each sender's link rate
  TimePs start_ps = 0;
  TimePs duration_ps = 0;
  std::vector<std::uint32_t> hosts;      // senders, and the destinations they pick from uniformly
  std::vector<std::uint32_t> dst_hosts;  // when not empty: the destinations instead
  CdfSampling sampling = CdfSampling::kLinear;
  std::uint8_t priority = 3;
};

// Per sender: exponential inter-arrival times with mean = mean_size * 8 / (load * link rate), destination
// uniform among dst_hosts other than itself when given, else among the other hosts of the set. Draws come
// from a stream per (seed, entry, host). Stops after max_flows + 1 flows (the caller rejects such a spec).
std::vector<Flow> generate_poisson(const PoissonSpec& spec, const SizeCdf& cdf,
                                   const std::vector<RateBps>& host_rate_bps, std::uint64_t seed,
                                   std::uint32_t entry_index, std::uint64_t max_flows = kMaxFlows);

struct IncastSpec {
  std::uint32_t receiver = 0;
  std::vector<std::uint32_t> senders;
  Bytes size_bytes = 0;
  TimePs start_ps = 0;
  std::uint32_t count = 1;  // repeated incast rounds
  TimePs period_ps = 0;
  std::uint8_t priority = 3;
};

std::vector<Flow> generate_incast(const IncastSpec& spec);

// HPCC-simulator flow file: a count line, then `src dst pg dport size start_seconds` per flow, exactly as
// many as the count says. `host_of` maps the file's node ids to host indices. Start times are absolute and
// read exactly (decimal seconds to picoseconds). Throws ConfigError naming the file and line; a count above
// `max_flows` is one.
std::vector<Flow> read_hpcc_flow_file(const std::string& path,
                                      const std::unordered_map<std::uint32_t, std::uint32_t>& host_of,
                                      std::uint64_t max_flows = kMaxFlows);

// "2.000000098" seconds -> picoseconds, exactly; false on malformed text.
bool parse_decimal_seconds(const std::string& text, TimePs& out);

}  // namespace lossless
