// Flow-size distributions: two columns `size_bytes cdf` (see data/cdf/README.md), sampled by linear
// interpolation between points (HPCC / ns-2 generators) or as steps (Homa).
#pragma once
#include <string>
#include <vector>

#include "core/rng.h"
#include "core/time.h"

namespace lossless {

enum class CdfSampling { kLinear, kStep };

class SizeCdf {
 public:
  // Throws ConfigError naming `path` and the line on malformed or non-monotonic data.
  static SizeCdf load(const std::string& path);
  static SizeCdf from_points(std::vector<std::pair<double, double>> points, const std::string& where);

  Bytes sample(RngStream& rng, CdfSampling mode) const;
  double mean_bytes(CdfSampling mode) const;
  const std::vector<std::pair<double, double>>& points() const { return points_; }

 private:
  std::vector<std::pair<double, double>> points_;  // (size, cdf)
};

// Resolves a CDF name (WebSearch) to the project's data/cdf/<name>.txt; anything else is a file path,
// relative to `scenario_dir` when a file is there, else to the working folder. A path that is found nowhere
// comes back as data/cdf/<name>.txt (for the caller's error) or unchanged.
std::string resolve_cdf_path(const std::string& name_or_path, const std::string& scenario_dir);
// The library file of a CDF name, or empty when `name` is not one.
std::string named_cdf_path(const std::string& name);

}  // namespace lossless
