#include "scenario/runner.h"

#include <chrono>
#include <cstdio>
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
  write_cc_trace(net, *sc.cc, (dir / (sc.cc_algorithm + ".csv")).string());
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
  const FabricRunStats run = run_fabric(net, sc.stop_ps, on_progress);
  progress.finish();
  net.finish_accounting();
  if (qmon) qmon->finish();
  if (rmon) rmon->finish();

  RunResult r = summarize_run(net);
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
  return r;
}

}  // namespace lossless
