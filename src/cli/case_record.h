// How one case of a sweep ended, and its record file: how an MPI rank hands a case's result to rank 0 through
// the (shared) output directory.
#pragma once
#include <yaml-cpp/yaml.h>

#include <string>

#include "stats/run_result.h"

namespace lossless {

struct CaseOutcome {
  std::string name;
  bool ok = false;
  bool bad_input = false;    // failed on a ConfigError (exit 2) rather than an internal error (exit 1)
  std::string error;         // why it failed
  int rank = 0;              // the MPI rank that ran it
  bool interrupted = false;  // stopped by Ctrl-C / SIGTERM (or never started because of one)
  bool resumed = false;      // complete in an earlier sweep into the same folder (`--resume`): not run again
  RunResult result;          // when ok
};

// `s` as a JSON string literal (quotes and escapes included).
std::string json_quote(const std::string& s);

// The record holds what the sweep's comparison table prints (print_comparison), with every number exact:
// doubles in round-trip form, paused time in picoseconds. A field added to that table must be added here,
// or `mpirun ... sweep` prints it as zero (the test MpiSweep.SameTableAsJobs compares the two tables).
std::string case_record_json(const CaseOutcome& c);
// Writes the record so that a reader never sees it half-written (a temporary file, then rename).
void write_case_record(const std::string& path, const CaseOutcome& c);
// Throws InternalError if the file is not a record.
CaseOutcome read_case_record(const std::string& path);
// The same from a record already parsed (sweep.json keeps every complete case's record); `where` names it in
// the InternalError.
CaseOutcome case_from_record(const YAML::Node& record, const std::string& where);

}  // namespace lossless
