#include "scenario/sweep.h"

#include <filesystem>

#include "core/error.h"
#include "core/units.h"
#include "scenario/sweep_grid.h"
#include "scenario/yaml_map.h"

namespace lossless {

namespace fs = std::filesystem;

namespace {

// A case's name is the name of its output folder, directly under the sweep's.
void check_case_name(const std::string& name, const std::string& where, const std::string& key) {
  if (name.empty()) throw ConfigError(where, key, "a case name must not be empty");
  if (name == "." || name == ".." || name.find('/') != std::string::npos)
    throw ConfigError(where, key,
                      "case name '" + name +
                          "' is not one folder name (no '/', '.' or '..'): it names the "
                          "case's output folder inside the sweep's");
  for (unsigned char c : name)
    if (c < 0x20 || c == 0x7f) throw ConfigError(where, key, "case name holds a control character");
  if (name.size() > 255)
    throw ConfigError(where, key,
                      "case name is longer than 255 bytes (a folder name): '" + name.substr(0, 40) + "...'");
}

// True if the dotted `path` leads to a value in `node` (a resolved scenario).
bool has_path(YAML::Node node, const std::string& path) {
  std::size_t start = 0;
  while (true) {
    const auto dot = path.find('.', start);
    const std::string part = path.substr(start, dot - start);
    if (node.IsSequence()) {
      auto index = parse_uint(part);
      if (!index || *index >= node.size()) return false;
      node = node[static_cast<std::size_t>(*index)];
    } else if (node.IsMap() && node[part].IsDefined()) {
      node = node[part];
    } else {
      return false;
    }
    if (dot == std::string::npos) return true;
    start = dot + 1;
  }
}

// Sum of the bytes the case's flows carry: what the run's cost grows with (packets, hence events).
double estimated_weight(const Scenario& sc) {
  double bytes = 0;
  for (const auto& f : sc.flows) bytes += static_cast<double>(f.size_bytes);
  return bytes;
}

}  // namespace

std::string case_warning(const std::string& sweep_file, const std::string& case_name, const ConfigError& w) {
  std::string key = w.key();
  // A value of the case's set or grid comes back named as a --set (load_scenario), "--set KEY=VALUE" with no
  // key of its own when the warning is about KEY itself.
  if (key.empty() && w.where().rfind("--set ", 0) == 0) key = w.where().substr(6, w.where().find('=') - 6);
  return sweep_file + ": cases." + case_name + ": " + (key.empty() ? "" : key + ": ") + w.reason();
}

bool looks_like_sweep(const std::string& path) {
  try {
    YAML::Node root = load_yaml_file(path);
    return root.IsMap() && (root["cases"].IsDefined() || root["grid"].IsDefined());
  } catch (const ConfigError&) {
    return false;  // not readable as YAML: the scenario loader reports why
  } catch (const YAML::Exception&) {
    return false;
  }
}

SweepPlan load_sweep(const std::string& path, const ScenarioOverrides& command_line, InvalidCases invalid) {
  YAML::Node root = load_yaml_file(path);
  if (!root.IsMap()) throw ConfigError(path, "", "a sweep is a YAML mapping (scenario, out, cases or grid)");
  YAML::Node resolved(YAML::NodeType::Map);
  YamlMap m(root, path, "", resolved);
  SweepPlan plan;
  std::string scenario = m.text("scenario", "");
  if (scenario.empty()) m.fail("scenario", "a sweep names its base scenario file");
  plan.base_scenario = (fs::path(path).parent_path() / scenario).string();
  plan.out_dir = m.text("out", "out/" + fs::path(path).stem().string());
  if (plan.out_dir.empty()) m.fail("out", "must name a folder, not be empty");
  check_path_length(plan.out_dir, where_of(path, root["out"]), "out");
  if (!command_line.out_dir.empty()) plan.out_dir = command_line.out_dir;
  const bool has_cases = m.has("cases"), has_grid = m.has("grid");
  YAML::Node cases = m.raw("cases");
  YAML::Node grid = m.raw("grid");
  if (!has_grid && !has_cases) m.fail("cases", "a sweep lists `cases` or spans a `grid`");
  if (has_cases && (!cases.IsSequence() || cases.size() == 0))
    m.fail("cases", "expected a list of {name, set: {PATH: VALUE}}");
  m.finish();
  std::vector<GridCase> grid_cases;
  if (has_grid) grid_cases = expand_grid(grid, path);
  for (std::size_t i = 0; has_cases && i < cases.size(); ++i) {
    YAML::Node o(YAML::NodeType::Map);
    YamlMap c(cases[i], path, "cases." + std::to_string(i), o);
    SweepCase k;
    k.name = c.text("name", "case" + std::to_string(i));
    check_case_name(k.name, where_of(path, cases[i]["name"].IsDefined() ? cases[i]["name"] : cases[i]),
                    c.key_path("name"));
    YAML::Node sets = c.raw("set");
    if (sets.IsDefined() && !sets.IsNull() && !sets.IsMap())
      c.fail("set", "expected a mapping {PATH: VALUE}");
    k.overrides = command_line;
    k.overrides.sets.clear();
    if (sets.IsMap())
      for (auto it = sets.begin(); it != sets.end(); ++it) {
        if (it->second.IsNull()) c.fail_at(it->first, "set." + it->first.Scalar(), "has no value");
        YAML::Emitter em;
        em << YAML::Flow << it->second;
        k.overrides.sets.emplace_back(it->first.Scalar(), em.c_str());
      }
    for (const auto& s : command_line.sets) k.overrides.sets.push_back(s);
    k.overrides.out_dir = (fs::path(plan.out_dir) / k.name).string();
    c.finish();
    plan.cases.push_back(std::move(k));
  }
  const std::size_t first_grid_case = plan.cases.size();
  for (auto& g : grid_cases) {
    SweepCase k;
    check_case_name(g.name, where_of(path, grid), "grid");
    k.name = std::move(g.name);
    k.overrides = command_line;
    k.overrides.sets = std::move(g.sets);
    for (const auto& s : command_line.sets) k.overrides.sets.push_back(s);
    k.overrides.out_dir = (fs::path(plan.out_dir) / k.name).string();
    plan.cases.push_back(std::move(k));
  }
  for (std::size_t i = 0; i < plan.cases.size(); ++i)
    for (std::size_t j = 0; j < i; ++j)
      if (plan.cases[i].name == plan.cases[j].name)
        throw ConfigError(path, "cases." + plan.cases[i].name,
                          "two cases have this name (and output directory)");
  // Every case must resolve to a valid scenario before anything runs.
  for (auto& k : plan.cases) {
    try {
      k.weight = estimated_weight(load_scenario(plan.base_scenario, k.overrides));
    } catch (const ConfigError& e) {
      k.error = e.what();
    }
  }
  // A grid none of whose cases is valid has a wrong key (or a key that takes none of its values): say which,
  // rather than run nothing and report every case as failed.
  bool grid_all_invalid = first_grid_case < plan.cases.size();
  for (std::size_t i = first_grid_case; i < plan.cases.size(); ++i)
    if (plan.cases[i].error.empty()) grid_all_invalid = false;
  if (grid_all_invalid) {
    std::string key;
    try {
      const Scenario base = load_scenario(plan.base_scenario, command_line);
      for (auto it = grid.begin(); it != grid.end() && key.empty(); ++it)
        if (!has_path(base.resolved, it->first.Scalar())) key = it->first.Scalar();
    } catch (const ConfigError&) {
      // The base needs the cases' settings to be valid: no key to blame beyond the case's own message.
    }
    const SweepCase& first = plan.cases[first_grid_case];
    throw ConfigError(path, key.empty() ? "grid" : "grid." + key,
                      std::string(key.empty() ? "no case of the grid is valid"
                                              : "not a key of the scenario (no case of the grid is valid)") +
                          "; case " + first.name + ": " + first.error);
  }
  if (invalid == InvalidCases::kThrow)
    for (const auto& k : plan.cases)
      if (!k.error.empty())
        throw ConfigError(path, "cases." + k.name, "this case's scenario is invalid: " + k.error);
  return plan;
}

}  // namespace lossless
