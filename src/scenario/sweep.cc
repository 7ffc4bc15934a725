#include "scenario/sweep.h"

#include <filesystem>

#include "core/error.h"
#include "scenario/yaml_map.h"

namespace lossless {

namespace fs = std::filesystem;

namespace {

YAML::Node load_yaml(const std::string& path) {
  if (!fs::exists(path)) throw ConfigError(path, "", "no such file");
  try {
    return YAML::LoadFile(path);
  } catch (const YAML::ParserException& e) {
    throw ConfigError(path + ":" + std::to_string(e.mark.line + 1), "", "YAML syntax error: " + e.msg);
  }
}

}  // namespace

bool looks_like_sweep(const std::string& path) {
  try {
    YAML::Node root = YAML::LoadFile(path);
    return root.IsMap() && root["cases"].IsDefined();
  } catch (const YAML::Exception&) {
    return false;  // not readable as YAML: the scenario loader reports why
  }
}

SweepPlan load_sweep(const std::string& path, const ScenarioOverrides& command_line) {
  YAML::Node root = load_yaml(path);
  YAML::Node resolved(YAML::NodeType::Map);
  YamlMap m(root, path, "", resolved);
  SweepPlan plan;
  std::string scenario = m.text("scenario", "");
  if (scenario.empty()) m.fail("scenario", "a sweep names its base scenario file");
  plan.base_scenario = (fs::path(path).parent_path() / scenario).string();
  plan.out_dir = m.text("out", "out/" + fs::path(path).stem().string());
  if (!command_line.out_dir.empty()) plan.out_dir = command_line.out_dir;
  YAML::Node cases = m.raw("cases");
  if (!cases.IsSequence() || cases.size() == 0)
    m.fail("cases", "expected a list of {name, set: {PATH: VALUE}}");
  m.finish();
  for (std::size_t i = 0; i < cases.size(); ++i) {
    YAML::Node o(YAML::NodeType::Map);
    YamlMap c(cases[i], path, "cases." + std::to_string(i), o);
    SweepCase k;
    k.name = c.text("name", "case" + std::to_string(i));
    YAML::Node sets = c.raw("set");
    if (sets.IsDefined() && !sets.IsNull() && !sets.IsMap())
      c.fail("set", "expected a mapping {PATH: VALUE}");
    k.overrides = command_line;
    k.overrides.sets.clear();
    if (sets.IsMap())
      for (auto it = sets.begin(); it != sets.end(); ++it) {
        YAML::Emitter em;
        em << YAML::Flow << it->second;
        k.overrides.sets.emplace_back(it->first.Scalar(), em.c_str());
      }
    for (const auto& s : command_line.sets) k.overrides.sets.push_back(s);
    k.overrides.out_dir = (fs::path(plan.out_dir) / k.name).string();
    c.finish();
    plan.cases.push_back(std::move(k));
  }
  // Every case must resolve to a valid scenario before anything runs.
  for (const auto& k : plan.cases) {
    try {
      load_scenario(plan.base_scenario, k.overrides);
    } catch (const ConfigError& e) {
      throw ConfigError(path, "cases." + k.name, std::string("this case's scenario is invalid: ") + e.what());
    }
  }
  return plan;
}

}  // namespace lossless
