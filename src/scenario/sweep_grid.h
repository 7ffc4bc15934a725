// A sweep's `grid:` — value lists per scenario path — expanded into named cases (their Cartesian product).
#pragma once
#include <yaml-cpp/yaml.h>

#include <string>
#include <utility>
#include <vector>

namespace lossless {

struct GridCase {
  std::string name;                                       // e.g. "algorithm=dcqcn,load=0.3"
  std::vector<std::pair<std::string, std::string>> sets;  // PATH, VALUE (as --set takes them)
};

// `grid` is `{PATH: [v1, v2, ...], ...}`. Cases come in nested-loop order: the first key varies slowest.
// A case is named by its values, `KEY=VALUE` joined by commas, where KEY is the shortest dotted suffix of
// PATH that no other grid key ends with (`cc.algorithm` -> `algorithm`; `workload.0.load` and
// `workload.1.load` -> `0.load`, `1.load`). Throws ConfigError naming `file` and `grid.PATH` when the grid is
// not a non-empty map of non-empty value lists.
std::vector<GridCase> expand_grid(const YAML::Node& grid, const std::string& file);

// The short names of `paths` (see expand_grid), in the same order.
std::vector<std::string> grid_short_names(const std::vector<std::string>& paths);

}  // namespace lossless
