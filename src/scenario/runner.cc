#include "scenario/runner.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <memory>

#include "core/error.h"
#include "net/fabric_run.h"
#include "net/network.h"
#include "scenario/output_dir.h"
#include "scenario/progress.h"
#include "stats/fabric_monitor.h"
#include "stats/monitors.h"
#include "stats/run_summary.h"
#include "stats/writers.h"

namespace lossless {
namespace {

// Queue and flow-rate monitors sample the whole fabric at once: they need it on one thread.
unsigned threads_for(const Scenario& sc, const RunOptions& opts) {
  const bool monitors =
      opts.write_outputs && (sc.monitor.queues || sc.monitor.flow_rates || sc.monitor.fabric);
  unsigned threads = std::max(1u, opts.threads);
  if (monitors && threads > 1) {
    if (!opts.quiet)
      std::fprintf(stderr,
                   "[lossless] monitor.queues / flow_rates / fabric sample the whole fabric: one thread\n");
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

// Every file but summary.json, which lists them (with their sizes) and is written last.
void write_outputs(const Scenario& sc, const Network& net, const std::vector<PfcLogRecord>& pfc_log,
                   const std::string& resolved, const OutputDir& dir) {
  write_fct_csv(net, dir.path("fct.csv"));
  if (sc.monitor.pfc) write_pfc_csv(net.topology(), pfc_log, dir.path("pfc.csv"));
  if (sc.output.hpcc_fct) write_hpcc_fct(net, dir.path("fct.txt"));
  write_text(
      dir.path("scenario.yaml"),
      "# fully resolved scenario: `lossless run` on this file repeats the run exactly\n" + resolved + "\n");
  if (sc.mechanism) write_mechanism_trace(net, dir.path(sc.sw.mechanism + ".csv"));
  write_cc_trace(net, *sc.cc, dir.path(sc.cc_algorithm + ".csv"));
}

// A YAML tree as text with every mapping's keys in order: the same values give the same text whatever order
// they were resolved in (a run of a resolved scenario.yaml resolves its keys in file order).
void canonical(const YAML::Node& n, std::string& out) {
  if (n.IsMap()) {
    std::vector<std::pair<std::string, YAML::Node>> items;
    for (const auto& kv : n) items.emplace_back(kv.first.Scalar(), kv.second);
    std::sort(items.begin(), items.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    out += '{';
    for (const auto& [k, v] : items) {
      out += k + ':';
      canonical(v, out);
      out += ',';
    }
    out += '}';
  } else if (n.IsSequence()) {
    out += '[';
    for (const auto& v : n) {
      canonical(v, out);
      out += ',';
    }
    out += ']';
  } else if (n.IsScalar()) {
    out += std::to_string(n.Scalar().size()) + '"' + n.Scalar();
  }
}

// The resolved scenario without its output folder: the same run written elsewhere keeps its id.
std::string identity_text(const Scenario& sc) {
  YAML::Node n = YAML::Clone(sc.resolved);
  if (n["output"].IsMap()) n["output"].remove("dir");
  std::string out;
  canonical(n, out);
  return out;
}

// A file named by the user outside the output folder (the HPCC formats): written beside its place, then
// renamed, so an interrupted run never leaves it half-written.
template <class Write>
void write_in_place(const std::string& path, Write write) {
  std::error_code ec;
  // A device or pipe (/dev/stdout, a FIFO) is written as it is: there is nothing to replace.
  if (std::filesystem::exists(path, ec) && !std::filesystem::is_regular_file(path, ec)) {
    write(path);
    return;
  }
  const std::string partial = path + ".partial";
  write(partial);
  std::filesystem::rename(partial, path, ec);
  if (ec) throw ConfigError(path, "", "cannot move the output into place: " + ec.message());
}

}  // namespace

void build_fabric(Scenario& sc) {
  Network net(sc.topology, sc.sw, sc.nic, sc.seed, 1);
  if (sc.mechanism) net.install_mechanism(*sc.mechanism);
  net.install_flows(sc.flows, *sc.cc);
}

RunResult run_scenario(Scenario& sc, const RunOptions& opts) {
  namespace fs = std::filesystem;
  using Clock = std::chrono::steady_clock;
  const auto wall_start = Clock::now();
  std::unique_ptr<OutputDir> out;
  if (opts.write_outputs) out = std::make_unique<OutputDir>(sc.output.dir);

  Network net(sc.topology, sc.sw, sc.nic, sc.seed, threads_for(sc, opts));
  net.set_log_pfc((sc.monitor.pfc && opts.write_outputs) || !opts.hpcc_pfc_path.empty());
  if (sc.mechanism) net.install_mechanism(*sc.mechanism);
  net.install_flows(sc.flows, *sc.cc);

  std::unique_ptr<QueueMonitor> qmon;
  std::unique_ptr<FlowRateMonitor> rmon;
  std::unique_ptr<FabricMonitor> fmon;
  if (opts.write_outputs && sc.monitor.queues) {
    qmon = std::make_unique<QueueMonitor>(net, sc.monitor, out->path("queues.csv"));
    qmon->start(sc.stop_ps);
  }
  if (opts.write_outputs && sc.monitor.flow_rates) {
    rmon = std::make_unique<FlowRateMonitor>(net, sc.monitor, out->path("flow_rates.csv"));
    rmon->start(sc.stop_ps);
  }
  if (out && sc.monitor.fabric) {
    fmon = std::make_unique<FabricMonitor>(net, sc.monitor.fabric_interval_ps, out->path("fabric.json"),
                                           out->path("fabric.bin"));
    fmon->start(sc.stop_ps);
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
  if (fmon) fmon->finish();

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
  if (out) {
    try {
      const std::string resolved = resolved_scenario_text(sc);
      write_outputs(sc, net, pfc_log, resolved, *out);
      r.run_id = run_id_of(identity_text(sc));
      r.outputs = out->staged();
      write_summary_json(r, out->path("summary.json"));
    } catch (const ConfigError& e) {
      throw ConfigError(out->shown(e.where()), e.key(), e.reason());
    }
  }
  if (!opts.hpcc_fct_path.empty())
    write_in_place(opts.hpcc_fct_path, [&](const std::string& p) { write_hpcc_fct(net, p); });
  if (!opts.hpcc_pfc_path.empty())
    write_in_place(opts.hpcc_pfc_path,
                   [&](const std::string& p) { write_hpcc_pfc(net.topology(), pfc_log, p); });
  if (out) out->commit("summary.json");
  // A violated invariant is reported after the outputs, which show the run up to it.
  if (violation) std::rethrow_exception(violation);
  return r;
}

}  // namespace lossless
