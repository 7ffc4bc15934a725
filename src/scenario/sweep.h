// A sweep file: a base scenario and named cases, each a set of --set overrides on it, listed (`cases:`) or
// spanned by a grid of values (`grid:`, see sweep_grid.h).
#pragma once
#include <string>
#include <vector>

#include "scenario/scenario.h"

namespace lossless {

struct SweepCase {
  std::string name;
  ScenarioOverrides overrides;  // the case's sets, then the command line's; out_dir = OUT/<name>
  std::string error;            // why its scenario is invalid (InvalidCases::kCollect); empty = valid
  double weight = 0;            // estimated cost (bytes its flows carry): MPI ranks take the largest first
};

struct SweepPlan {
  std::string base_scenario;  // path of the base scenario file
  std::string out_dir;
  std::vector<SweepCase> cases;
};

// What load_sweep does with a case whose scenario is invalid: throw (`validate`), or record it in
// SweepCase::error so that `sweep` runs the others and reports it as failed.
enum class InvalidCases { kThrow, kCollect };

// A warning about one case's scenario (Scenario::warnings) as `validate` and `sweep` print it: the sweep file
// and the case, then the key and the reason (the case's values are the sweep's, not a --set the user typed).
std::string case_warning(const std::string& sweep_file, const std::string& case_name, const ConfigError& w);

// True if `path` parses as a YAML map with a `cases` or `grid` key (a sweep rather than a scenario).
bool looks_like_sweep(const std::string& path);
// Reads a sweep file and checks every case's resolved scenario. Throws ConfigError (exit 2) naming file, key
// and reason; with kCollect only when the file itself is wrong, or when every case of its grid is invalid
// (the error names the grid key, e.g. a misspelt path).
SweepPlan load_sweep(const std::string& path, const ScenarioOverrides& command_line,
                     InvalidCases invalid = InvalidCases::kThrow);

}  // namespace lossless
