// Reading an HPCC-simulator config file (mix/config.txt format: one `KEY value...` per line). Every key of
// that format is either mapped onto a lossless scenario or rejected by name; unknown keys are errors.
#pragma once
#include <yaml-cpp/yaml.h>

#include <map>
#include <string>
#include <utility>

#include "scenario/scenario.h"

namespace lossless {

struct HpccConfig {
  std::string file;        // the config's path
  YAML::Node scenario;     // a lossless scenario tree, ready for parse_scenario
  std::string fct_output;  // FCT_OUTPUT_FILE, resolved against the config's folder
  std::string pfc_output;  // PFC_OUTPUT_FILE
  // Scenario key (cc.params.alpha_timer) -> the config key it was written from and that key's line.
  std::map<std::string, std::pair<std::string, int>> origin;
};

// Throws ConfigError naming the file, line and key.
HpccConfig read_hpcc_config(const std::string& path);
// The scenario of a config; an error in a key written from the config names the config's key and line.
Scenario parse_hpcc_scenario(const HpccConfig& cfg, const ScenarioOverrides& overrides);

}  // namespace lossless
