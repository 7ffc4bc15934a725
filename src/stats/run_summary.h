// The statistics of a finished fabric run: FCT and slowdown distributions, counters, memory of the fabric.
#pragma once
#include "stats/run_result.h"

namespace lossless {

class Network;

// Fills everything RunResult knows from the network itself (not the scenario's name, seed or wall time). The
// PFC log is left in `counters.pfc_log` (time order) for the writers.
RunResult summarize_run(const Network& net);

std::uint64_t peak_rss_kb();

}  // namespace lossless
