// Flow-completion statistics: slowdown = FCT / ideal FCT, percentiles and the size bins of the HPCC paper.
#pragma once
#include <cstdint>
#include <limits>
#include <vector>

#include "core/time.h"

namespace lossless {

struct Distribution {
  std::uint64_t count = 0;
  double mean = 0, p50 = 0, p95 = 0, p99 = 0, max = 0;
};

// Percentile as the sorted value at index round(p/100 * (n-1)) (the reference results use the same rule).
Distribution summarize(std::vector<double> values);

struct SizeBinStats {
  Bytes min_bytes;
  Bytes max_bytes;  // exclusive; the last bin is open
  Distribution slowdown;
};

struct FlowRecord {
  std::uint32_t id;
  Bytes size_bytes;
  TimePs fct_ps;
  TimePs ideal_ps;
  double slowdown() const { return static_cast<double>(fct_ps) / static_cast<double>(ideal_ps); }
};

constexpr Bytes kOpenBin = std::numeric_limits<std::int64_t>::max() / 2;

// Bins [0,10K) [10K,100K) [100K,1M) [1M,10M) [10M,inf) over completed flows.
std::vector<SizeBinStats> slowdown_by_size(const std::vector<FlowRecord>& flows);

}  // namespace lossless
