#include "scenario/runner.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
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
  const FabricRunStats run = run_fabric(net, sc.stop_ps, on_progress);
  progress.finish();
  net.finish_accounting();
  if (qmon) qmon->finish();
  if (rmon) rmon->finish();
  if (fmon) fmon->finish();

  RunResult r = summarize_run(net);
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
  return r;
}

}  // namespace lossless
