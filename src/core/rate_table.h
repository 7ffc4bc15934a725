// Per-link-rate tables (ECN thresholds, scheme parameters given per link speed): {rate: value} entries.
#pragma once
#include <vector>

#include "core/time.h"

namespace lossless {

struct RateValue {
  RateBps rate_bps;
  double value;
};

// The value for `rate_bps`: the exact rate if present, else the entry of the nearest rate (by ratio), scaled
// linearly with the rate when `scale_with_rate` (so 40G gets 0.4 x the 100G thresholds).
double per_rate_value(const std::vector<RateValue>& table, RateBps rate_bps, bool scale_with_rate);

}  // namespace lossless
