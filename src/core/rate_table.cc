#include "core/rate_table.h"

#include <cmath>

namespace lossless {

double per_rate_value(const std::vector<RateValue>& table, RateBps rate_bps, bool scale_with_rate) {
  if (table.empty()) return 0;
  const RateValue* best = &table.front();
  double best_dist = 1e300;
  for (const auto& e : table) {
    if (e.rate_bps == rate_bps) return e.value;
    double d = std::fabs(std::log(static_cast<double>(e.rate_bps) / static_cast<double>(rate_bps)));
    if (d < best_dist) {
      best_dist = d;
      best = &e;
    }
  }
  if (!scale_with_rate) return best->value;
  return best->value * static_cast<double>(rate_bps) / static_cast<double>(best->rate_bps);
}

}  // namespace lossless
