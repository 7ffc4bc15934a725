#include "scenario/runner.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <memory>

#include "core/error.h"
#include "net/fabric_run.h"
#include "net/network.h"
#include "scenario/output_dir.h"
#include "scenario/progress.h"
#include "stats/monitors.h"
#include "stats/run_summary.h"
#include "stats/writers.h"
#include "topo/partitioning.h"

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

// Writes the run's outputs (the caller commits the folder): every file but summary.json, then summary.json.
void write_run_outputs(Scenario& sc, const Network& net, RunResult& r,
                       const std::vector<PfcLogRecord>& pfc_log, OutputDir& out) {
  try {
    const std::string resolved = resolved_scenario_text(sc);
    write_outputs(sc, net, pfc_log, resolved, out);
    r.run_id = run_id_of(identity_text(sc));
    r.outputs = out.staged();
    write_summary_json(r, out.path("summary.json"));
  } catch (const ConfigError& e) {
    throw ConfigError(out.shown(e.where()), e.key(), e.reason());
  }
}

void write_hpcc_files(const RunOptions& opts, const Network& net, const std::vector<PfcLogRecord>& pfc_log) {
  if (!opts.hpcc_fct_path.empty())
    write_in_place(opts.hpcc_fct_path, [&](const std::string& p) { write_hpcc_fct(net, p); });
  if (!opts.hpcc_pfc_path.empty())
    write_in_place(opts.hpcc_pfc_path,
                   [&](const std::string& p) { write_hpcc_pfc(net.topology(), pfc_log, p); });
}

using Clock = std::chrono::steady_clock;

// `mpirun -n R lossless run`: the fabric split over the ranks (net/network.h), or, when it must run whole
// (monitors of the whole fabric, a link without delay), run by rank 0 while the others follow its windows.
RunResult run_over_ranks(Scenario& sc, const RunOptions& opts, RankLink& link) {
  const auto wall_start = Clock::now();
  const bool root = link.rank() == 0;
  const bool monitors = opts.write_outputs && (sc.monitor.queues || sc.monitor.flow_rates);
  const bool no_lookahead = min_link_delay(sc.topology) == 0;
  const bool solo = monitors || no_lookahead;
  if (solo && root && !opts.quiet)
    std::fprintf(stderr, "[lossless] %s: the fabric runs on rank 0 alone, on one thread (%d ranks)\n",
                 monitors ? "monitor.queues / monitor.flow_rates sample the whole fabric"
                          : "a link without delay leaves no lookahead",
                 link.size());
  std::unique_ptr<OutputDir> out;
  std::unique_ptr<Network> net;
  std::unique_ptr<QueueMonitor> qmon;
  std::unique_ptr<FlowRateMonitor> rmon;
  // Every step that may fail on some ranks only ends with all of them agreeing (core/rank_link.h); the
  // collectives between the steps are reached by every rank.
  on_every_rank(&link, [&] {
    if (root && opts.write_outputs) out = std::make_unique<OutputDir>(sc.output.dir);
    if (solo && !root) return;
    net = std::make_unique<Network>(sc.topology, sc.sw, sc.nic, sc.seed, solo ? 1 : opts.threads,
                                    solo ? nullptr : &link);
  });
  if (net) net->agree_on_global_rtt();
  on_every_rank(&link, [&] {
    if (!net) return;
    net->set_log_pfc((sc.monitor.pfc && opts.write_outputs) || !opts.hpcc_pfc_path.empty());
    if (sc.mechanism) net->install_mechanism(*sc.mechanism);
    net->install_flows(sc.flows, *sc.cc);
    if (opts.write_outputs && sc.monitor.queues) {
      qmon = std::make_unique<QueueMonitor>(*net, sc.monitor, out->path("queues.csv"));
      qmon->start(sc.stop_ps);
    }
    if (opts.write_outputs && sc.monitor.flow_rates) {
      rmon = std::make_unique<FlowRateMonitor>(*net, sc.monitor, out->path("flow_rates.csv"));
      rmon->start(sc.stop_ps);
    }
  });
  if (!solo) on_every_rank(&link, [&] { net->check_ranks_agree(); });

  ProgressLine progress(sc.flows.size());
  std::function<void(const FabricProgress&)> on_progress;
  if (root && !opts.quiet) on_progress = [&](const FabricProgress& p) { progress.update(p); };
  FabricRunStats run;
  if (net)
    run = run_fabric(*net, sc.stop_ps, on_progress, &link);
  else
    run.exchange = follow_fabric_windows(link, sc.stop_ps, sc.flows.size());
  progress.finish();

  RunResult r;
  if (solo) {
    if (root) {
      net->finish_accounting();
      if (qmon) qmon->finish();
      if (rmon) rmon->finish();
      r = summarize_run(*net);
    }
  } else {
    net->combine_ranks();
    if (root) r = summarize_run(*net);
  }
  // Each rank's measurements, to rank 0.
  RunResult::RankReport mine;
  mine.peak_rss_kb = peak_rss_kb();
  mine.events = net ? net->events_processed_here() : 0;
  if (net)
    for (std::size_t i = 0; i < net->partitions(); ++i)
      mine.packet_pool += net->partition(i).pool.allocated();
  mine.windows = run.exchange.windows;
  mine.packets_sent = run.exchange.packets_sent;
  mine.bytes_sent = run.exchange.bytes_sent;
  mine.run_seconds = run.run_seconds;
  mine.exchange_seconds = run.exchange.exchange_seconds;
  mine.pack_seconds = run.exchange.pack_seconds;
  RankMessage bytes(sizeof mine);
  std::memcpy(bytes.data(), &mine, sizeof mine);
  const std::vector<RankMessage> reports = link.gather(bytes);
  if (root) {
    r.scenario = sc.name;
    r.cc = sc.cc_algorithm;
    r.seed = sc.seed;
    r.threads = run.threads;
    r.ranks = solo ? 1 : link.size();
    for (const RankMessage& m : reports) {
      RunResult::RankReport k;
      LOSSLESS_CHECK(m.size() == sizeof k, "a rank's report has another size");
      std::memcpy(&k, m.data(), sizeof k);
      r.peak_rss_kb = std::max(r.peak_rss_kb, k.peak_rss_kb);
      if (!solo) r.rank_reports.push_back(k);
    }
    r.wall_seconds = std::chrono::duration<double>(Clock::now() - wall_start).count();
  }
  on_every_rank(&link, [&] {
    if (!root) return;
    const std::vector<PfcLogRecord> pfc_log = std::move(r.counters.pfc_log);
    r.counters.pfc_log.clear();
    if (out) write_run_outputs(sc, *net, r, pfc_log, *out);
    write_hpcc_files(opts, *net, pfc_log);
    if (out) out->commit("summary.json");
  });
  return r;
}

}  // namespace

RunResult run_scenario(Scenario& sc, const RunOptions& opts) {
  if (opts.link && opts.link->size() > 1) return run_over_ranks(sc, opts, *opts.link);
  namespace fs = std::filesystem;
  const auto wall_start = Clock::now();
  std::unique_ptr<OutputDir> out;
  if (opts.write_outputs) out = std::make_unique<OutputDir>(sc.output.dir);

  Network net(sc.topology, sc.sw, sc.nic, sc.seed, threads_for(sc, opts));
  net.set_log_pfc((sc.monitor.pfc && opts.write_outputs) || !opts.hpcc_pfc_path.empty());
  if (sc.mechanism) net.install_mechanism(*sc.mechanism);
  net.install_flows(sc.flows, *sc.cc);

  std::unique_ptr<QueueMonitor> qmon;
  std::unique_ptr<FlowRateMonitor> rmon;
  if (opts.write_outputs && sc.monitor.queues) {
    qmon = std::make_unique<QueueMonitor>(net, sc.monitor, out->path("queues.csv"));
    qmon->start(sc.stop_ps);
  }
  if (opts.write_outputs && sc.monitor.flow_rates) {
    rmon = std::make_unique<FlowRateMonitor>(net, sc.monitor, out->path("flow_rates.csv"));
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
  if (out) write_run_outputs(sc, net, r, pfc_log, *out);
  write_hpcc_files(opts, net, pfc_log);
  if (out) out->commit("summary.json");
  return r;
}

}  // namespace lossless
