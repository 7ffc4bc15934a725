// The BDP window the HPCC code gives rate-based schemes (HAS_WIN 1, GLOBAL_T 1): the largest host-pair
// bandwidth-delay product, scaled by rate / line rate (VAR_WIN 1) so the window shrinks with the rate.
#pragma once
#include <string>

#include "net/congestion_control.h"
#include "net/queue_pair.h"

namespace lossless {

inline void apply_window_mode(const std::string& mode, SenderQp& qp, const CcEnv& env) {
  if (mode == "bdp") {
    qp.window_bytes = env.max_bdp_bytes;
    qp.window_follows_rate = true;
  } else if (mode == "bdp_fixed") {
    qp.window_bytes = env.max_bdp_bytes;
    qp.window_follows_rate = false;
  }
}

#define LOSSLESS_WINDOW_CHOICES \
  { "none", "bdp", "bdp_fixed" }
#define LOSSLESS_WINDOW_DOC \
  "none | bdp: max host-pair BDP x rate/line (HPCC VAR_WIN) | bdp_fixed: max BDP (HAS_WIN, no VAR_WIN)"

}  // namespace lossless
