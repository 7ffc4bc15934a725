// Runs a resolved scenario: builds the fabric, starts the flows, drives the event loop with a progress line,
// and writes the output directory of DESIGN.md §5.
#pragma once
#include "scenario/scenario.h"
#include "stats/run_result.h"

namespace lossless {

struct RunOptions {
  bool quiet = false;  // no results table on stdout, no progress line
  bool write_outputs = true;
};

RunResult run_scenario(Scenario& sc, const RunOptions& opts);

std::uint64_t peak_rss_kb();

}  // namespace lossless
