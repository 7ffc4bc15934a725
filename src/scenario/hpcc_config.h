// Reading an HPCC-simulator config file (mix/config.txt format: one `KEY value...` per line). Every key of
// that format is either mapped onto a lossless scenario or rejected by name; unknown keys are errors.
#pragma once
#include <yaml-cpp/yaml.h>

#include <string>

namespace lossless {

struct HpccConfig {
  YAML::Node scenario;     // a lossless scenario tree, ready for parse_scenario
  std::string fct_output;  // FCT_OUTPUT_FILE, resolved against the config's folder
  std::string pfc_output;  // PFC_OUTPUT_FILE
};

// Throws ConfigError naming the file, line and key.
HpccConfig read_hpcc_config(const std::string& path);

}  // namespace lossless
