// A sweep file: a base scenario and named cases, each a set of --set overrides on it.
#pragma once
#include <string>
#include <vector>

#include "scenario/scenario.h"

namespace lossless {

struct SweepCase {
  std::string name;
  ScenarioOverrides overrides;  // the case's sets, then the command line's; out_dir = OUT/<name>
};

struct SweepPlan {
  std::string base_scenario;  // path of the base scenario file
  std::string out_dir;
  std::vector<SweepCase> cases;
};

// True if `path` parses as a YAML map with a `cases` key (a sweep rather than a scenario).
bool looks_like_sweep(const std::string& path);
// Reads a sweep file and checks every case's resolved scenario. Throws ConfigError (exit 2) naming file, key
// and reason.
SweepPlan load_sweep(const std::string& path, const ScenarioOverrides& command_line);

}  // namespace lossless
