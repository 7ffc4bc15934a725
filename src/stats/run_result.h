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
  unsigned threads = 1;  // threads the run used (per rank; outputs do not depend on it)
  int ranks = 1;         // processes the fabric was split over (mpirun -n; outputs do not depend on it)
  std::uint64_t events = 0;
  std::uint64_t flows_total = 0;
  std::uint64_t flows_completed = 0;
  Distribution fct_ns;
  Distribution slowdown;
  std::vector<SizeBinStats> bins;
  NetCounters counters;  // pfc_log emptied after writing
  std::uint64_t peak_rss_kb = 0;
  std::uint64_t packets_allocated = 0;  // packets the pool ever held (peak in flight, rounded up to a chunk)
  std::uint64_t packet_struct_bytes = 0;  // the memory a packet takes in the pool (PacketPool::slot_bytes)
  std::uint64_t flow_state_bytes = 0;     // fixed state per flow (Network::flow_state_bytes)
  TimePs first_start_ps = 0;
  // Over several ranks, each rank's measurements: memory, events, and the window-end exchange.
  struct RankReport {
    std::uint64_t peak_rss_kb = 0;
    std::uint64_t packet_pool = 0;
    std::uint64_t events = 0;
    std::uint64_t windows = 0;
    std::uint64_t packets_sent = 0;  // to other ranks
    std::uint64_t bytes_sent = 0;
    double run_seconds = 0;       // running events (the rank's first thread)
    double exchange_seconds = 0;  // in the exchange between ranks, waiting included
    double pack_seconds = 0;
  };
  std::vector<RankReport> rank_reports;
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
  // Packets (of any kind) a full PFC headroom dropped on a lossless fabric, where the first was dropped, and
  // the warning printed about them (README "Flow control"); empty names: none was dropped.
  struct HeadroomDrops {
    std::uint64_t packets = 0;
    TimePs first_ps = 0;
    std::string first_switch;  // e.g. s0
    std::uint16_t first_port = 0;
    std::uint8_t first_priority = 0;
    std::string first_from;    // the node at the other end of that port's link
    Bytes headroom_bytes = 0;  // that port's headroom
    Bytes needed_bytes = 0;    // what can arrive there after a pause (net/config.h)
    std::string warning;
  } headroom_drops;
};

// Prints the human-readable results table.
void print_result_table(const RunResult& r, std::FILE* out);
// Prints a comparison of several runs (sweep / default experiment).
void print_comparison(const std::vector<std::pair<std::string, RunResult>>& runs, std::FILE* out);
std::string summary_json(const RunResult& r);

}  // namespace lossless
