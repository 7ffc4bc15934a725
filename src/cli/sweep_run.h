// The `sweep` command once the plan is loaded: runs the cases (-j N side by side; over MPI ranks when mpirun
// started the process), prints the comparison table and reports failed cases without losing the others.
#pragma once
#include <cstdio>
#include <string>
#include <vector>

#include "cli/case_record.h"
#include "scenario/sweep.h"

namespace lossless {

struct SweepRunOptions {
  std::string file;  // the sweep file, for messages and sweep.json
  int jobs = 1;      // cases side by side in this process (each MPI rank runs its share this way)
  bool quiet = false;
  // Keep the cases that an earlier sweep into the same folder completed (listed as ok in its sweep.json, with
  // their summary.json in place) and run only the others.
  bool resume = false;
  bool check = false;  // --check: every case checks every invariant during its run; a stalled flow fails it
  // The command that resumes this sweep (its own options, -o and --set included), for the interrupt message.
  std::string resume_command;
};

// Returns the exit status: 0; 2 when a case failed on bad input (or the folder is in use by another sweep); 1
// when one failed on an internal error; with `check`, 3 when no case failed but one has stalled flows; 130
// when interrupted (Ctrl-C, SIGTERM: the cases that completed keep their outputs, and `--resume` runs the
// rest). Rank 0 (or the only process) prints the table on stdout, one error line per failed case on stderr,
// and writes OUT/sweep.json (the cases in order, their directories, how each ended and the numbers of its
// table row) after every case.
int run_sweep(const SweepPlan& plan, const SweepRunOptions& opts);

// The comparison table of print_comparison, with a failed case shown as failed in its place and the case
// column widened to the longest name (grid names are long). Identical to print_comparison when every case
// ran and no name is longer than its 18 columns.
void print_sweep_table(const std::vector<CaseOutcome>& outcomes, std::FILE* out);

}  // namespace lossless
