// A scenario: the YAML file of DESIGN.md §5 parsed, validated and resolved (every default filled in).
#pragma once
#include <yaml-cpp/yaml.h>

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "core/error.h"
#include "net/config.h"
#include "net/congestion_control.h"
#include "net/run_checks.h"
#include "net/switch_mechanism.h"
#include "stats/monitor_config.h"
#include "topo/topology.h"
#include "workload/flow.h"

namespace lossless {

struct OutputConfig {
  std::string dir;
  bool hpcc_fct = false;
};

struct Scenario {
  std::string file;
  std::string name;
  std::uint64_t seed = 1;
  TimePs stop_ps = 0;
  Topology topology;
  SwitchConfig sw;
  NicConfig nic;
  std::string cc_algorithm;
  std::unique_ptr<CcFactory> cc;
  std::unique_ptr<MechanismFactory> mechanism;  // null = none (its name: sw.mechanism)
  std::vector<Flow> flows;
  MonitorConfig monitor;
  CheckConfig check;
  OutputConfig output;
  YAML::Node resolved;  // written as scenario.yaml next to the results
  // What the scenario asks for that it may regret, named as an error would be (validate and run print them
  // on stderr): e.g. a PFC headroom below the worst case of what arrives after a pause.
  std::vector<ConfigError> warnings;
};

struct ScenarioOverrides {
  std::vector<std::pair<std::string, std::string>> sets;  // --set PATH=VALUE
  bool has_seed = false;
  std::uint64_t seed = 0;
  std::string out_dir;  // -o
};

// Throws ConfigError (exit 2) naming file, key and reason.
Scenario load_scenario(const std::string& path, const ScenarioOverrides& overrides);
Scenario parse_scenario(const YAML::Node& root, const std::string& file, const ScenarioOverrides& overrides);
// The resolved scenario as YAML text (what a run writes as scenario.yaml).
std::string resolved_scenario_text(const Scenario& sc);
// Applies one --set to a YAML tree.
void apply_set(YAML::Node& root, const std::string& path, const std::string& value);
// Sets each default's path to its value where the scenario leaves the key out or sets it to auto
// (SubstrateHints::defaults, MechanismHints::defaults).
void apply_key_defaults(YAML::Node& root, const KeyDefaults& defaults);

}  // namespace lossless
