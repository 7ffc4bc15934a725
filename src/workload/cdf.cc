#include "workload/cdf.h"

#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/error.h"

namespace lossless {

SizeCdf SizeCdf::from_points(std::vector<std::pair<double, double>> points, const std::string& where) {
  if (points.empty()) throw ConfigError(where, "", "CDF has no points");
  for (std::size_t i = 0; i < points.size(); ++i) {
    auto [s, c] = points[i];
    if (!(c >= 0 && c <= 1))
      throw ConfigError(where, "", "cdf value " + std::to_string(c) + " is outside [0, 1]");
    if (s < 0) throw ConfigError(where, "", "negative flow size");
    if (i > 0 && (c < points[i - 1].second || s < points[i - 1].first))
      throw ConfigError(where, "",
                        "CDF is not monotonic at point " + std::to_string(i + 1) + " (size " +
                            std::to_string(static_cast<long long>(s)) + ")");
  }
  if (std::fabs(points.back().second - 1.0) > 1e-9) throw ConfigError(where, "", "CDF must end at 1");
  // Flows of at least one byte, at most kMaxBytes: a CDF of zero sizes has no mean to space arrivals by.
  if (points.back().first < 1) throw ConfigError(where, "", "CDF sizes are all below 1 byte");
  if (points.back().first > static_cast<double>(kMaxBytes))
    throw ConfigError(where, "", "CDF sizes go above " + std::to_string(kMaxBytes) + " bytes");
  SizeCdf cdf;
  cdf.points_ = std::move(points);
  // Every flow is at least 1 byte, and the Poisson generator spaces arrivals by the mean: a CDF whose
  // probability sits on sizes below 1 byte (`0 1` before its last point) has no such mean (a fuzz finding).
  // Interpolated sampling gives the smaller mean of the two.
  if (!(cdf.mean_bytes(CdfSampling::kLinear) >= 1))
    throw ConfigError(where, "",
                      "CDF's mean flow size is below 1 byte (its probability sits on sizes below 1 byte)");
  return cdf;
}

SizeCdf SizeCdf::load(const std::string& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) throw ConfigError(path, "", "is a directory, not a CDF file");
  std::ifstream in(path);
  if (!in) throw ConfigError(path, "", "cannot open CDF file");
  std::vector<std::pair<double, double>> pts;
  std::string line;
  int lineno = 0;
  while (std::getline(in, line)) {
    ++lineno;
    auto first = line.find_first_not_of(" \t\r");
    if (first == std::string::npos || line[first] == '#') continue;
    std::istringstream ss(line);
    double s, c;
    std::string extra;
    if (!(ss >> s >> c) || (ss >> extra) || !std::isfinite(s) || !std::isfinite(c))
      throw ConfigError(path + ":" + std::to_string(lineno), "", "expected two numbers 'size_bytes cdf'");
    pts.emplace_back(s, c);
    auto& p = pts;
    if (p.size() > 1 && (p.back().second < p[p.size() - 2].second || p.back().first < p[p.size() - 2].first))
      throw ConfigError(path + ":" + std::to_string(lineno), "",
                        "CDF is not monotonic (size and cdf must not decrease)");
  }
  return from_points(std::move(pts), path);
}

Bytes SizeCdf::sample(RngStream& rng, CdfSampling mode) const {
  double u = rng.uniform();
  double size = points_.back().first;
  for (std::size_t i = 0; i < points_.size(); ++i) {
    if (u <= points_[i].second) {
      if (mode == CdfSampling::kStep || i == 0) {
        size = points_[i].first;
      } else {
        auto [x0, y0] = points_[i - 1];
        auto [x1, y1] = points_[i];
        size = y1 > y0 ? x0 + (x1 - x0) * (u - y0) / (y1 - y0) : x1;
      }
      break;
    }
  }
  Bytes b = static_cast<Bytes>(std::ceil(size));
  return b == 0 ? 1 : b;
}

double SizeCdf::mean_bytes(CdfSampling mode) const {
  double mean = points_[0].first * points_[0].second;
  for (std::size_t i = 1; i < points_.size(); ++i) {
    double w = points_[i].second - points_[i - 1].second;
    mean +=
        w * (mode == CdfSampling::kStep ? points_[i].first : (points_[i].first + points_[i - 1].first) / 2);
  }
  return mean;
}

std::string resolve_cdf_path(const std::string& name, const std::string& scenario_dir) {
  namespace fs = std::filesystem;
  if (name.find('/') != std::string::npos || name.find(".txt") != std::string::npos) {
    fs::path p(name);
    std::error_code ec;
    if (p.is_relative() && !scenario_dir.empty() && fs::exists(fs::path(scenario_dir) / p, ec))
      return (fs::path(scenario_dir) / p).string();
    return name;
  }
  if (std::string named = named_cdf_path(name); !named.empty()) return named;
  // Not a name: a file of any name beside the scenario, else in the working folder.
  std::error_code ec;
  if (!scenario_dir.empty() && fs::is_regular_file(fs::path(scenario_dir) / name, ec))
    return (fs::path(scenario_dir) / name).string();
  if (fs::is_regular_file(name, ec)) return name;
  return (fs::path(LOSSLESS_SOURCE_DIR) / "data" / "cdf" / (name + ".txt")).string();
}

std::string named_cdf_path(const std::string& name) {
  namespace fs = std::filesystem;
  if (name.find('/') != std::string::npos || name.find(".txt") != std::string::npos) return "";
  for (const fs::path& base : {fs::path(LOSSLESS_SOURCE_DIR) / "data" / "cdf", fs::path("data") / "cdf"}) {
    fs::path p = base / (name + ".txt");
    std::error_code ec;
    if (fs::exists(p, ec)) return p.string();
  }
  return "";
}

}  // namespace lossless
