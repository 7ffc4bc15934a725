// What a finished run reports: summary.json, the results table and comparisons are all made from this.
#pragma once
#include <array>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "net/deadlock.h"
#include "net/net_counters.h"
#include "net/stalls.h"
#include "stats/fct_stats.h"

namespace lossless {

struct RunResult {
  std::string scenario;
  std::string cc;
  std::uint64_t seed = 0;
  TimePs sim_time_ps = 0;
  double wall_seconds = 0;
  unsigned threads = 1;  // threads the run used (outputs do not depend on it)
  std::uint64_t events = 0;
  std::uint64_t flows_total = 0;
  std::uint64_t flows_completed = 0;
  Distribution fct_ns;
  Distribution slowdown;
  std::vector<SizeBinStats> bins;
  NetCounters counters;  // pfc_log emptied after writing
  std::uint64_t peak_rss_kb = 0;
  std::uint64_t packets_allocated = 0;  // packets the pool ever held (peak in flight, rounded up to a chunk)
  std::uint64_t packet_struct_bytes = 0;  // sizeof(Packet)
  std::uint64_t flow_state_bytes = 0;     // fixed state per flow (Network::flow_state_bytes)
  TimePs first_start_ps = 0;
  // The run's id (a hash of its resolved scenario) and the other files of its output folder with their sizes:
  // `lossless plot` reads only files listed here, at these sizes (a folder never mixes two runs).
  std::string run_id;
  std::vector<std::pair<std::string, std::uint64_t>> outputs;
  // What the run checked about itself (net/run_checks.h): its unfinished flows, the PFC deadlocks found, the
  // invariant checks (every invariant at the end; `full`: also every check.interval) and the one violated.
  UnfinishedReport unfinished;
  std::vector<DeadlockReport> deadlocks;
  std::uint64_t deadlocks_found = 0;
  bool checks_full = false;
  std::uint64_t check_passes = 0;
  std::string violation;
  std::array<std::uint64_t, 3> data_drops{};  // data packets dropped, by DropReason
};

// Prints the human-readable results table.
void print_result_table(const RunResult& r, std::FILE* out);
// Prints a comparison of several runs (sweep / default experiment).
void print_comparison(const std::vector<std::pair<std::string, RunResult>>& runs, std::FILE* out);
std::string summary_json(const RunResult& r);

}  // namespace lossless
