// Runs a resolved scenario: builds the fabric, installs the schemes and flows, drives the event loop with a
// progress line, and writes the output directory of DESIGN.md §5 (stats/writers.h).
#pragma once
#include <string>

#include "core/rank_link.h"
#include "scenario/scenario.h"
#include "stats/run_result.h"

namespace lossless {

struct RunOptions {
  bool quiet = false;  // no results table on stdout, no progress line
  bool write_outputs = true;
  // Threads for one run (the fabric is split into that many partitions; outputs do not depend on it).
  unsigned threads = 1;
  // HPCC-simulator format files at these paths (the `lossless hpcc` command); empty = not written.
  std::string hpcc_fct_path;
  std::string hpcc_pfc_path;
  // Several ranks (`mpirun -n R lossless run`): the fabric split over them, every rank running this with the
  // same scenario and options; rank 0 writes the outputs and prints. Null: one process.
  RankLink* link = nullptr;
  // `--check`: every invariant every check.interval of simulated time, not only at the end
  // (net/run_checks.h).
  bool check = false;
};

// A violated invariant (net/invariants.h) throws InvariantViolation once the outputs are written
// (summary.json then names it under invariants.violation). Stalled flows and PFC deadlocks are warnings on
// stderr and keys of summary.json; the caller decides what they mean for the exit status.
// Over ranks, a failure of any rank's set-up or of rank 0's outputs ends every rank with RanksFailed, and an
// interrupt of any rank every rank with Interrupted.
RunResult run_scenario(Scenario& sc, const RunOptions& opts);

// Builds the scenario's fabric with its schemes and flows as a run does, without running it: what only the
// built fabric can check (a switch architecture's queues against the PFC headroom, two schemes that each want
// a port's queue set, ...) exits 2 at `lossless validate` as it does at `lossless run`.
void build_fabric(Scenario& sc);

}  // namespace lossless
