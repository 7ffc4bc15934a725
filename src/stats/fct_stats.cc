#include "stats/fct_stats.h"

#include <algorithm>
#include <cmath>

namespace lossless {

Distribution summarize(std::vector<double> v) {
  Distribution d;
  d.count = v.size();
  if (v.empty()) return d;
  std::sort(v.begin(), v.end());
  double sum = 0;
  for (double x : v) sum += x;
  d.mean = sum / static_cast<double>(v.size());
  auto pct = [&](double p) {
    return v[static_cast<std::size_t>(std::llround(p / 100.0 * static_cast<double>(v.size() - 1)))];
  };
  d.p50 = pct(50);
  d.p95 = pct(95);
  d.p99 = pct(99);
  d.max = v.back();
  return d;
}

std::vector<SizeBinStats> slowdown_by_size(const std::vector<FlowRecord>& flows) {
  const Bytes edges[] = {0, 10'000, 100'000, 1'000'000, 10'000'000, kOpenBin};
  std::vector<SizeBinStats> bins;
  for (int b = 0; b < 5; ++b) {
    std::vector<double> v;
    for (const auto& f : flows)
      if (f.size_bytes >= edges[b] && f.size_bytes < edges[b + 1]) v.push_back(f.slowdown());
    bins.push_back({edges[b], edges[b + 1], summarize(std::move(v))});
  }
  return bins;
}

}  // namespace lossless
