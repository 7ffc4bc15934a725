#include "cli/mpi_sweep.h"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <numeric>
#include <thread>

#include "core/error.h"

namespace lossless {

namespace fs = std::filesystem;

namespace {

int parse_int(const char* name, const char* value) {
  const std::string v = value;
  if (v.empty() || v.size() > 7 || v.find_first_not_of("0123456789") != std::string::npos)
    throw ConfigError("environment", name, "expected a non-negative integer, got '" + v + "'");
  return std::stoi(v);
}

std::string safe_name(const std::string& s) {
  std::string out;
  for (char c : s) out += (std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '.') ? c : '_';
  return out;
}

}  // namespace

RankInfo ranks_from_env(const std::function<const char*(const char*)>& env) {
  RankInfo ri;
  const char* pairs[][2] = {{"OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_SIZE"}, {"PMI_RANK", "PMI_SIZE"}};
  for (const auto& p : pairs) {
    const char* rank = env(p[0]);
    const char* size = env(p[1]);
    if (!rank || !size) continue;
    ri.rank = parse_int(p[0], rank);
    ri.size = parse_int(p[1], size);
    if (ri.size < 1 || ri.rank >= ri.size)
      throw ConfigError("environment", p[0],
                        "rank " + std::to_string(ri.rank) + " of " + std::to_string(ri.size));
    break;
  }
  ri.job = "run";
  for (const char* name : {"PMIX_NAMESPACE", "OMPI_MCA_ess_base_jobid"})
    if (const char* j = env(name); j && *j) {
      ri.job = safe_name(j);
      break;
    }
  return ri;
}

RankInfo ranks_from_env() {
  return ranks_from_env([](const char* name) { return static_cast<const char*>(std::getenv(name)); });
}

std::vector<std::size_t> cases_of_rank(const std::vector<double>& weights, int rank, int size) {
  std::vector<std::size_t> order(weights.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return weights[a] > weights[b]; });
  std::vector<double> load(static_cast<std::size_t>(size), 0.0);
  std::vector<std::size_t> mine;
  for (std::size_t i : order) {
    const auto least = static_cast<int>(std::min_element(load.begin(), load.end()) - load.begin());
    // Zero-weight cases still cost something: count each as one byte so they spread too.
    load[static_cast<std::size_t>(least)] += std::max(weights[i], 1.0);
    if (least == rank) mine.push_back(i);
  }
  return mine;
}

std::string exchange_dir(const std::string& out_dir, const RankInfo& ri) {
  return (fs::path(out_dir) / ".mpi-sweep" / ri.job).string();
}

std::string record_path(const std::string& exchange, std::size_t case_index) {
  return (fs::path(exchange) / ("case-" + std::to_string(case_index) + ".json")).string();
}

void announce_rank(const std::string& exchange, const RankInfo& ri) {
  std::error_code ec;
  fs::create_directories(exchange, ec);
  const fs::path hello = fs::path(exchange) / ("rank-" + std::to_string(ri.rank));
  std::ofstream(hello) << ri.size << "\n";
  if (!fs::exists(hello)) throw ConfigError(exchange, "", "cannot write to the sweep's output directory");
}

void wait_for_ranks(const std::string& exchange, const RankInfo& ri, double timeout_s) {
  const auto start = std::chrono::steady_clock::now();
  while (true) {
    std::string missing;
    for (int r = 0; r < ri.size; ++r)
      if (!fs::exists(fs::path(exchange) / ("rank-" + std::to_string(r))))
        missing += (missing.empty() ? "" : ", ") + std::to_string(r);
    if (missing.empty()) return;
    if (std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() > timeout_s)
      throw ConfigError(exchange, "",
                        "ranks " + missing + " wrote nothing here within " + std::to_string(int(timeout_s)) +
                            " s: every rank must see the sweep's output directory (one machine, or a shared "
                            "filesystem)");
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
}

}  // namespace lossless
