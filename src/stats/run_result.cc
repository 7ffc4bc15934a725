#include "stats/run_result.h"

#include <cinttypes>
#include <cstdio>
#include <sstream>
#include <string>

#include "core/units.h"
#include "net/pause_kinds.h"

namespace lossless {
namespace {

const char* bin_label(const SizeBinStats& b) {
  switch (b.min_bytes) {
    case 0:
      return "<10KB";
    case 10'000:
      return "10KB-100KB";
    case 100'000:
      return "100KB-1MB";
    case 1'000'000:
      return "1MB-10MB";
    default:
      return ">=10MB";
  }
}

std::string dist_json(const Distribution& d, bool with_max) {
  std::ostringstream os;
  os << "{\"mean\": " << format_double(d.mean) << ", \"p50\": " << format_double(d.p50)
     << ", \"p95\": " << format_double(d.p95) << ", \"p99\": " << format_double(d.p99);
  if (with_max) os << ", \"max\": " << format_double(d.max);
  os << "}";
  return os.str();
}

std::string quoted(const std::string& s) {
  std::string out = "\"";
  for (unsigned char ch : s) {
    if (ch == '"' || ch == '\\') {
      out += '\\';
      out += static_cast<char>(ch);
    } else if (ch < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", ch);
      out += buf;
    } else {
      out += static_cast<char>(ch);
    }
  }
  return out + "\"";
}

std::string ns_or_null(TimePs t) { return t == kTimeNever ? "null" : std::to_string(t / kPsPerNs); }

// The keys of the run's own checks (net/run_checks.h; README "Stalls and PFC deadlocks").
void checks_json(const RunResult& r, std::ostringstream& os) {
  const UnfinishedReport& u = r.unfinished;
  os << "  \"unfinished\": {\"active\": " << u.active << ", \"stalled\": " << u.stalled
     << ", \"not_started\": " << u.not_started << ", \"run_end\": \"" << run_end_name(u.end)
     << "\", \"end_ns\": " << u.end_ps / kPsPerNs << ", \"stall_after_ns\": " << u.stall_after_ps / kPsPerNs
     << ", \"waiting_for\": {";
  bool first = true;
  for (const auto& [what, n] : u.waiting_for) {
    os << (first ? "" : ", ") << quoted(what) << ": " << n;
    first = false;
  }
  os << "}},\n";
  os << "  \"stalls\": [";
  for (std::size_t i = 0; i < u.stalls.size(); ++i) {
    const FlowWait& w = u.stalls[i];
    os << (i ? ",\n    " : "\n    ") << "{\"flow\": " << w.flow << ", \"src\": " << quoted(w.src)
       << ", \"dst\": " << quoted(w.dst) << ", \"size_bytes\": " << w.size_bytes
       << ", \"acked_bytes\": " << w.acked_bytes << ", \"sent_bytes\": " << w.sent_bytes
       << ", \"delivered_bytes\": " << w.delivered_bytes << ", \"in_flight_bytes\": " << w.in_flight_bytes
       << ", \"last_progress_ns\": " << w.last_progress_ps / kPsPerNs << ", \"why\": " << quoted(w.why)
       << ", \"waits_for\": " << quoted(w.waits_for) << ", \"detail\": " << quoted(w.detail) << "}";
  }
  os << (u.stalls.empty() ? "],\n" : "\n  ],\n");
  os << "  \"deadlocks\": {\"found\": " << r.deadlocks_found << ", \"cycles\": [";
  for (std::size_t i = 0; i < r.deadlocks.size(); ++i) {
    const DeadlockReport& d = r.deadlocks[i];
    os << (i ? ",\n    " : "\n    ") << "{\"priority\": " << unsigned{d.priority}
       << ", \"formed_ns\": " << d.formed_ps / kPsPerNs << ", \"detected_ns\": " << d.detected_ps / kPsPerNs
       << ", \"resolved_ns\": " << ns_or_null(d.resolved_ps) << ", \"ports\": [";
    for (std::size_t k = 0; k < d.cycle.size(); ++k) {
      const DeadlockHop& h = d.cycle[k];
      os << (k ? ", " : "") << "{\"switch\": " << quoted(h.name) << ", \"port\": " << h.port
         << ", \"to\": " << quoted(h.peer_name) << ", \"paused_since_ns\": " << h.paused_since_ps / kPsPerNs
         << "}";
    }
    os << "]}";
  }
  os << (r.deadlocks.empty() ? "]},\n" : "\n  ]},\n");
  os << "  \"invariants\": {\"full\": " << (r.checks_full ? "true" : "false")
     << ", \"passes\": " << r.check_passes
     << ", \"violation\": " << (r.violation.empty() ? "null" : quoted(r.violation)) << "},\n";
}

}  // namespace

// A statistic of a table cell; "-" where no flow was measured (a 0 there would read as a measurement).
std::string stat_cell(const Distribution& d, double value, int decimals) {
  if (d.count == 0) return "-";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, value);
  return buf;
}

std::string summary_json(const RunResult& r) {
  std::ostringstream os;
  const NetCounters& c = r.counters;
  os << "{\n";
  os << "  \"scenario\": \"" << r.scenario << "\",\n";
  os << "  \"cc\": \"" << r.cc << "\",\n";
  os << "  \"seed\": " << r.seed << ",\n";
  os << "  \"sim_time_ns\": " << r.sim_time_ps / kPsPerNs << ",\n";
  os << "  \"wall_seconds\": " << format_double(r.wall_seconds) << ",\n";
  os << "  \"threads\": " << r.threads << ",\n";
  os << "  \"ranks\": " << r.ranks << ",\n";
  // Measurements of this process (vary from run to run, like wall_seconds); over ranks, the largest peak of
  // any rank, every pool, and each rank's.
  os << "  \"memory\": {\"peak_rss_kb\": " << r.peak_rss_kb << ", \"packet_pool\": " << r.packets_allocated
     << ", \"packet_bytes\": " << r.packet_struct_bytes << ", \"flow_state_bytes\": " << r.flow_state_bytes;
  if (!r.rank_reports.empty()) {
    os << ", \"by_rank\": [";
    for (std::size_t i = 0; i < r.rank_reports.size(); ++i)
      os << (i ? ", " : "") << "{\"peak_rss_kb\": " << r.rank_reports[i].peak_rss_kb
         << ", \"packet_pool\": " << r.rank_reports[i].packet_pool << "}";
    os << "]";
  }
  os << "},\n";
  if (!r.rank_reports.empty()) {
    // The window-end exchange between ranks, measured on each (docs/performance.md, "Ranks").
    os << "  \"exchange\": {\"windows\": " << r.rank_reports[0].windows << ", \"by_rank\": [";
    for (std::size_t i = 0; i < r.rank_reports.size(); ++i) {
      const auto& k = r.rank_reports[i];
      os << (i ? ", " : "") << "{\"events\": " << k.events << ", \"packets_sent\": " << k.packets_sent
         << ", \"bytes_sent\": " << k.bytes_sent << ", \"run_seconds\": " << format_double(k.run_seconds)
         << ", \"exchange_seconds\": " << format_double(k.exchange_seconds)
         << ", \"pack_seconds\": " << format_double(k.pack_seconds) << "}";
    }
    os << "]},\n";
  }
  os << "  \"events\": " << r.events << ",\n";
  os << "  \"flows\": {\"total\": " << r.flows_total << ", \"completed\": " << r.flows_completed << "},\n";
  os << "  \"fct_ns\": " << dist_json(r.fct_ns, true) << ",\n";
  os << "  \"slowdown\": " << dist_json(r.slowdown, true) << ",\n";
  os << "  \"slowdown_by_size\": [\n";
  for (std::size_t i = 0; i < r.bins.size(); ++i) {
    const auto& b = r.bins[i];
    os << "    {\"min_bytes\": " << b.min_bytes << ", \"max_bytes\": " << b.max_bytes
       << ", \"count\": " << b.slowdown.count << ", \"mean\": " << format_double(b.slowdown.mean)
       << ", \"p50\": " << format_double(b.slowdown.p50) << ", \"p95\": " << format_double(b.slowdown.p95)
       << ", \"p99\": " << format_double(b.slowdown.p99) << "}" << (i + 1 < r.bins.size() ? "," : "") << "\n";
  }
  os << "  ],\n";
  os << "  \"pfc\": {\"pause_frames\": " << c.pause_frames << ", \"resume_frames\": " << c.resume_frames
     << ", \"expired_pauses\": " << c.pause_expiries
     << ", \"paused_time_ns\": " << c.paused_time_ps / kPsPerNs << ", \"pause_frames_by_kind\": {";
  const std::vector<std::uint8_t> kinds = PauseKinds::output_order();
  for (std::size_t i = 0; i < kinds.size(); ++i)
    os << (i ? ", " : "") << "\"" << PauseKinds::name(kinds[i]) << "\": " << c.pause_frames_by_kind[kinds[i]];
  os << "}},\n";
  os << "  \"drops\": " << c.drops << ",\n";
  os << "  \"queue\": {\"max_bytes\": " << c.max_queue_bytes << "},\n";
  os << "  \"first_start_ns\": " << r.first_start_ps / kPsPerNs << ",\n";
  os << "  \"packets\": {\"data\": " << c.data_packets << ", \"control\": " << c.control_packets
     << ", \"hops\": " << c.packet_hops << ", \"retransmitted_bytes\": " << c.retransmitted_bytes
     << ", \"nacks\": " << c.nacks << ", \"cnps\": " << c.cnps << ", \"ecn_marks\": " << c.ecn_marks
     << ", \"timeouts\": " << c.timeouts << ", \"scheme_drops\": " << c.scheme_drops << "},\n";
  checks_json(r, os);
  os << "  \"data_drops\": {\"buffer_full\": " << r.data_drops[0]
     << ", \"headroom_full\": " << r.data_drops[1] << ", \"scheme\": " << r.data_drops[2] << "},\n";
  const RunResult::HeadroomDrops& h = r.headroom_drops;
  os << "  \"headroom_drops\": {\"packets\": " << h.packets << ", \"first\": ";
  if (h.first_switch.empty()) {
    os << "null";
  } else {
    os << "{\"time_ns\": " << h.first_ps / kPsPerNs << ", \"switch\": " << quoted(h.first_switch)
       << ", \"port\": " << h.first_port << ", \"priority\": " << unsigned{h.first_priority}
       << ", \"from\": " << quoted(h.first_from) << ", \"headroom_bytes\": " << h.headroom_bytes
       << ", \"needed_bytes\": " << h.needed_bytes << "}";
  }
  os << ", \"warning\": " << (h.warning.empty() ? "null" : quoted(h.warning)) << "}";
  if (!r.run_id.empty()) {
    os << ",\n  \"run_id\": \"" << r.run_id << "\",\n  \"outputs\": [";
    for (std::size_t i = 0; i < r.outputs.size(); ++i)
      os << (i ? ", " : "") << "{\"file\": \"" << r.outputs[i].first
         << "\", \"bytes\": " << r.outputs[i].second << "}";
    os << "]";
  }
  os << "\n}\n";
  return os.str();
}

void print_result_table(const RunResult& r, std::FILE* out) {
  const NetCounters& c = r.counters;
  std::fprintf(out, "scenario %s  (cc %s, seed %" PRIu64 ")\n", r.scenario.c_str(), r.cc.c_str(), r.seed);
  std::fprintf(out,
               "flows %" PRIu64 "/%" PRIu64
               " completed; simulated %.3f ms in %.2f s wall on %s%u thread%s; %" PRIu64
               " events (%.2f M/s)\n",
               r.flows_completed, r.flows_total, static_cast<double>(r.sim_time_ps) / kPsPerMs,
               r.wall_seconds, r.ranks > 1 ? (std::to_string(r.ranks) + " ranks x ").c_str() : "", r.threads,
               r.threads == 1 ? "" : "s", r.events,
               r.wall_seconds > 0 ? static_cast<double>(r.events) / r.wall_seconds / 1e6 : 0.0);
  std::fprintf(out, "\n%-12s %7s %8s %8s %8s %8s   (slowdown = FCT / ideal FCT)\n", "size", "flows", "mean",
               "p50", "p95", "p99");
  for (const auto& b : r.bins)
    std::fprintf(
        out, "%-12s %7" PRIu64 " %8s %8s %8s %8s\n", bin_label(b), b.slowdown.count,
        stat_cell(b.slowdown, b.slowdown.mean, 3).c_str(), stat_cell(b.slowdown, b.slowdown.p50, 3).c_str(),
        stat_cell(b.slowdown, b.slowdown.p95, 3).c_str(), stat_cell(b.slowdown, b.slowdown.p99, 3).c_str());
  std::fprintf(
      out, "%-12s %7" PRIu64 " %8s %8s %8s %8s\n", "all", r.slowdown.count,
      stat_cell(r.slowdown, r.slowdown.mean, 3).c_str(), stat_cell(r.slowdown, r.slowdown.p50, 3).c_str(),
      stat_cell(r.slowdown, r.slowdown.p95, 3).c_str(), stat_cell(r.slowdown, r.slowdown.p99, 3).c_str());
  std::fprintf(out,
               "\nPFC pause frames %" PRIu64 " (paused %.1f us summed over ports), drops %" PRIu64
               ", max switch queue %" PRIu64 " B, CNPs %" PRIu64 ", ECN marks %" PRIu64 "\n",
               c.pause_frames, static_cast<double>(c.paused_time_ps) / kPsPerUs, c.drops, c.max_queue_bytes,
               c.cnps, c.ecn_marks);
  const UnfinishedReport& u = r.unfinished;
  if (u.active + u.stalled + u.not_started > 0)
    std::fprintf(out,
                 "unfinished flows: %" PRIu64 " active at the end, %" PRIu64 " stalled, %" PRIu64
                 " not started (run ended: %s)\n",
                 u.active, u.stalled, u.not_started, run_end_name(u.end));
  if (r.deadlocks_found > 0)
    std::fprintf(out, "PFC deadlocks: %" PRIu64 " cycles of paused ports found\n", r.deadlocks_found);
}

void print_comparison(const std::vector<std::pair<std::string, RunResult>>& runs, std::FILE* out) {
  std::fprintf(
      out,
      "\nslowdown (FCT / ideal FCT): overall and p50/p99 per flow-size bin; unfinished flows active at the "
      "end or stalled\n");
  std::fprintf(out, "%-18s %6s %6s %6s %6s |", "case", "done%", "mean", "p50", "p99");
  const char* bins[] = {"<10KB", "10K-100K", "100K-1M", "1M-10M", ">=10M"};
  for (auto b : bins) std::fprintf(out, " %13s", b);
  std::fprintf(out, " | %9s %9s %6s %6s %7s\n", "pauses", "paused_us", "drops", "active", "stalled");
  for (const auto& [name, r] : runs) {
    std::fprintf(
        out, "%-18s %6.1f %6s %6s %6s |", name.c_str(),
        r.flows_total ? 100.0 * static_cast<double>(r.flows_completed) / static_cast<double>(r.flows_total)
                      : 0.0,
        stat_cell(r.slowdown, r.slowdown.mean, 2).c_str(), stat_cell(r.slowdown, r.slowdown.p50, 2).c_str(),
        stat_cell(r.slowdown, r.slowdown.p99, 2).c_str());
    for (const auto& b : r.bins)
      std::fprintf(out, " %6s/%6s", stat_cell(b.slowdown, b.slowdown.p50, 2).c_str(),
                   stat_cell(b.slowdown, b.slowdown.p99, 2).c_str());
    std::fprintf(out, " | %9" PRIu64 " %9.1f %6" PRIu64 " %6" PRIu64 " %7" PRIu64 "\n",
                 r.counters.pause_frames, static_cast<double>(r.counters.paused_time_ps) / kPsPerUs,
                 r.counters.drops, r.unfinished.active, r.unfinished.stalled);
  }
}

}  // namespace lossless
