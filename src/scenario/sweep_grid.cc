#include "scenario/sweep_grid.h"

#include <cstddef>

#include "core/error.h"

namespace lossless {

namespace {

// Beyond this a grid is almost certainly a mistake (and would fill the disk with output directories).
constexpr std::size_t kMaxGridCases = 10'000;

std::vector<std::string> split_path(const std::string& path) {
  std::vector<std::string> parts;
  std::size_t start = 0;
  while (true) {
    auto dot = path.find('.', start);
    parts.push_back(path.substr(start, dot - start));
    if (dot == std::string::npos) return parts;
    start = dot + 1;
  }
}

std::string suffix(const std::vector<std::string>& parts, std::size_t n) {
  std::string s;
  for (std::size_t i = parts.size() - n; i < parts.size(); ++i) s += (s.empty() ? "" : ".") + parts[i];
  return s;
}

std::string value_text(const YAML::Node& v) {
  if (v.IsScalar()) return v.Scalar();
  YAML::Emitter em;
  em << YAML::Flow << v;
  return em.c_str();
}

// Case names are directory names under the sweep's output directory.
std::string path_safe(std::string s) {
  for (char& c : s)
    if (c == '/') c = '_';
  return s;
}

}  // namespace

std::vector<std::string> grid_short_names(const std::vector<std::string>& paths) {
  std::vector<std::vector<std::string>> parts;
  for (const auto& p : paths) parts.push_back(split_path(p));
  std::vector<std::string> names;
  for (std::size_t i = 0; i < paths.size(); ++i) {
    std::size_t n = 1;
    for (; n < parts[i].size(); ++n) {
      bool unique = true;
      for (std::size_t j = 0; j < paths.size() && unique; ++j)
        if (j != i && parts[j].size() >= n && suffix(parts[j], n) == suffix(parts[i], n)) unique = false;
      if (unique) break;
    }
    names.push_back(suffix(parts[i], n));
  }
  return names;
}

std::vector<GridCase> expand_grid(const YAML::Node& grid, const std::string& file) {
  if (!grid.IsMap() || grid.size() == 0)
    throw ConfigError(file, "grid", "expected a mapping {PATH: [VALUE, ...]} with at least one key");
  std::vector<std::string> paths;
  std::vector<std::vector<std::string>> values;
  std::size_t total = 1;
  for (auto it = grid.begin(); it != grid.end(); ++it) {
    const std::string path = it->first.Scalar();
    const YAML::Node list = it->second;
    if (path.empty() || path.front() == '.' || path.back() == '.' || path.find("..") != std::string::npos)
      throw ConfigError(file, "grid." + path, "not a dotted scenario path");
    if (!list.IsSequence() || list.size() == 0)
      throw ConfigError(file, "grid." + path, "expected a non-empty list of values");
    paths.push_back(path);
    values.emplace_back();
    for (const auto& v : list) values.back().push_back(value_text(v));
    total *= list.size();
    if (total > kMaxGridCases)
      throw ConfigError(file, "grid", "more than " + std::to_string(kMaxGridCases) + " cases");
  }
  const std::vector<std::string> short_names = grid_short_names(paths);
  std::vector<GridCase> cases;
  std::vector<std::size_t> at(paths.size(), 0);  // odometer over the value lists, last key fastest
  for (std::size_t c = 0; c < total; ++c) {
    GridCase g;
    for (std::size_t k = 0; k < paths.size(); ++k) {
      const std::string& v = values[k][at[k]];
      g.sets.emplace_back(paths[k], v);
      g.name += (k ? "," : "") + short_names[k] + "=" + path_safe(v);
    }
    cases.push_back(std::move(g));
    for (std::size_t k = paths.size(); k-- > 0;) {
      if (++at[k] < values[k].size()) break;
      at[k] = 0;
    }
  }
  return cases;
}

}  // namespace lossless
