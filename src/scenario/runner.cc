#include "scenario/runner.h"

#include <chrono>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <memory>

#include "core/error.h"
#include "net/fabric_run.h"
#include "net/network.h"
#include "scenario/progress.h"
#include "stats/monitors.h"
#include "stats/run_summary.h"
#include "stats/writers.h"

namespace lossless {
namespace {

// Queue and flow-rate monitors sample the whole fabric at once: they need it on one thread.
unsigned threads_for(const Scenario& sc, const RunOptions& opts) {
  const bool monitors = opts.write_outputs && (sc.monitor.queues || sc.monitor.flow_rates);
  unsigned threads = std::max(1u, opts.threads);
  if (monitors && threads > 1) {
    if (!opts.quiet)
      std::fprintf(stderr,
                   "[lossless] monitor.queues / monitor.flow_rates sample the whole fabric: one thread\n");
    threads = 1;
  }
  return threads;
}

// Warnings printed per run (the rest are counted; summary.json lists them all).
constexpr std::size_t kWarningsPrinted = 10;

void print_deadlock(const Scenario& sc, const Topology& topo, const DeadlockReport& d) {
  std::string ports;
  for (const DeadlockHop& h : d.cycle)
    ports += (ports.empty() ? "" : ", ") + h.name + " port " + std::to_string(h.port) + " -> " + h.peer_name +
             " (paused since " + format_sim_time(h.paused_since_ps) + ")";
  (void)topo;
  std::fprintf(
      stderr,
      "lossless: warning: %s: PFC deadlock at priority %u, formed at %s (found at the window ending %s): "
      "a cycle of %zu paused ports, each waiting on the next: %s\n",
      sc.output.dir.c_str(), unsigned{d.priority}, format_sim_time(d.formed_ps).c_str(),
      format_sim_time(d.detected_ps).c_str(), d.cycle.size(), ports.c_str());
}

void print_stalls(const Scenario& sc, const RunResult& r) {
  const UnfinishedReport& u = r.unfinished;
  std::fprintf(
      stderr,
      "lossless: warning: %s: %llu of %llu flows stalled (unfinished: %llu active, %llu stalled; the run "
      "ended at %s: %s)\n",
      sc.output.dir.c_str(), static_cast<unsigned long long>(u.stalled),
      static_cast<unsigned long long>(r.flows_total), static_cast<unsigned long long>(u.active),
      static_cast<unsigned long long>(u.stalled), format_sim_time(u.end_ps).c_str(), run_end_name(u.end));
  for (std::size_t i = 0; i < u.stalls.size() && i < kWarningsPrinted; ++i) {
    const FlowWait& w = u.stalls[i];
    std::fprintf(stderr, "  flow %u (%s -> %s, %llu B): %s; waits for %s: %s\n", w.flow, w.src.c_str(),
                 w.dst.c_str(), static_cast<unsigned long long>(w.size_bytes), w.why.c_str(),
                 w.waits_for.c_str(), w.detail.c_str());
  }
  if (u.stalled > kWarningsPrinted)
    std::fprintf(stderr, "  ... and %llu more (summary.json stalls)\n",
                 static_cast<unsigned long long>(u.stalled - kWarningsPrinted));
}

void write_outputs(const Scenario& sc, const Network& net, const RunResult& r,
                   const std::vector<PfcLogRecord>& pfc_log, const std::filesystem::path& dir) {
  write_summary_json(r, (dir / "summary.json").string());
  write_fct_csv(net, (dir / "fct.csv").string());
  if (sc.monitor.pfc) write_pfc_csv(net.topology(), pfc_log, (dir / "pfc.csv").string());
  if (sc.output.hpcc_fct) write_hpcc_fct(net, (dir / "fct.txt").string());
  write_text((dir / "scenario.yaml").string(),
             "# fully resolved scenario: `lossless run` on this file repeats the run exactly\n" +
                 resolved_scenario_text(sc) + "\n");
  if (sc.mechanism) write_mechanism_trace(net, (dir / (sc.sw.mechanism + ".csv")).string());
}

}  // namespace

RunResult run_scenario(Scenario& sc, const RunOptions& opts) {
  namespace fs = std::filesystem;
  using Clock = std::chrono::steady_clock;
  const auto wall_start = Clock::now();
  fs::path dir = sc.output.dir;
  if (opts.write_outputs) {
    std::error_code ec;
    fs::create_directories(dir, ec);
    if (ec) throw ConfigError(dir.string(), "output.dir", "cannot create directory: " + ec.message());
  }

  Network net(sc.topology, sc.sw, sc.nic, sc.seed, threads_for(sc, opts));
  net.set_log_pfc((sc.monitor.pfc && opts.write_outputs) || !opts.hpcc_pfc_path.empty());
  if (sc.mechanism) net.install_mechanism(*sc.mechanism);
  net.install_flows(sc.flows, *sc.cc);

  std::unique_ptr<QueueMonitor> qmon;
  std::unique_ptr<FlowRateMonitor> rmon;
  if (opts.write_outputs && sc.monitor.queues) {
    qmon = std::make_unique<QueueMonitor>(net, sc.monitor, (dir / "queues.csv").string());
    qmon->start(sc.stop_ps);
  }
  if (opts.write_outputs && sc.monitor.flow_rates) {
    rmon = std::make_unique<FlowRateMonitor>(net, sc.monitor, (dir / "flow_rates.csv").string());
    rmon->start(sc.stop_ps);
  }

  ProgressLine progress(sc.flows.size());
  std::function<void(const FabricProgress&)> on_progress;
  if (!opts.quiet) on_progress = [&](const FabricProgress& p) { progress.update(p); };
  std::size_t deadlocks_printed = 0;
  RunChecks checks(net, sc.check, opts.check, [&](const DeadlockReport& d) {
    if (deadlocks_printed++ < kWarningsPrinted) print_deadlock(sc, net.topology(), d);
  });
  FabricRunStats run;
  std::exception_ptr violation;
  std::string violation_text;
  try {
    run = run_fabric(net, sc.stop_ps, on_progress, &checks);
    checks.finish(run);
  } catch (const InvariantViolation& e) {
    violation = std::current_exception();
    violation_text = e.what();
  }
  progress.finish();
  net.finish_accounting();
  if (qmon) qmon->finish();
  if (rmon) rmon->finish();

  RunResult r = summarize_run(net);
  r.unfinished = checks.unfinished();
  r.deadlocks = checks.deadlocks().reports();
  r.deadlocks_found = checks.deadlocks().cycles_found();
  r.checks_full = checks.full();
  r.check_passes = checks.passes();
  r.violation = violation_text;
  for (std::size_t i = 0; i < net.partitions(); ++i)
    for (const DataDrop& d : net.partition(i).data_drops) ++r.data_drops[static_cast<std::size_t>(d.reason)];
  if (deadlocks_printed > kWarningsPrinted)
    std::fprintf(stderr, "lossless: warning: %s: %zu more PFC deadlocks (summary.json deadlocks)\n",
                 sc.output.dir.c_str(), deadlocks_printed - kWarningsPrinted);
  if (!violation && r.unfinished.stalled > 0) print_stalls(sc, r);
  r.scenario = sc.name;
  r.cc = sc.cc_algorithm;
  r.seed = sc.seed;
  r.threads = run.threads;
  r.wall_seconds = std::chrono::duration<double>(Clock::now() - wall_start).count();
  r.peak_rss_kb = peak_rss_kb();
  const std::vector<PfcLogRecord> pfc_log = std::move(r.counters.pfc_log);
  r.counters.pfc_log.clear();
  if (opts.write_outputs) write_outputs(sc, net, r, pfc_log, dir);
  if (!opts.hpcc_fct_path.empty()) write_hpcc_fct(net, opts.hpcc_fct_path);
  if (!opts.hpcc_pfc_path.empty()) write_hpcc_pfc(net.topology(), pfc_log, opts.hpcc_pfc_path);
  if (violation) std::rethrow_exception(violation);
  return r;
}

}  // namespace lossless
