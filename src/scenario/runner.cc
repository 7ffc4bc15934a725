#include "scenario/runner.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <exception>
#include <filesystem>
#include <memory>

#include "core/error.h"
#include "net/fabric_run.h"
#include "net/invariants.h"
#include "net/network.h"
#include "net/stalls.h"
#include "scenario/output_dir.h"
#include "scenario/progress.h"
#include "stats/fabric_monitor.h"
#include "stats/monitors.h"
#include "stats/run_summary.h"
#include "stats/writers.h"
#include "topo/partitioning.h"

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
  if (threads > 1 && min_link_delay(sc.topology) == 0) {
    // The partitions would have no lookahead to run ahead by (Network reduces them to one): say so.
    if (!opts.quiet)
      std::fprintf(stderr, "[lossless] a link without delay leaves no lookahead: one thread\n");
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

// Packets a full PFC headroom dropped: losses on a fabric PFC keeps lossless (README "Flow control"). Where
// the first was dropped, what that port's headroom holds and must hold, and a warning naming the cause and
// the keys to change (empty when nothing was dropped there).
RunResult::HeadroomDrops headroom_drops_of(const Scenario& sc, const NetCounters& c, std::uint64_t data_drops,
                                           const UnfinishedReport& u) {
  RunResult::HeadroomDrops h;
  h.packets = c.drops_headroom_full;
  const HeadroomDrop& d = c.first_headroom_drop;
  if (h.packets == 0 || d.at_ps == kTimeNever) return h;
  // Port i of a node is its i-th link (topo/routing.h).
  const Topology& t = sc.topology;
  const TopoLink* link = nullptr;
  std::uint32_t seen = 0;
  for (const TopoLink& l : t.links)
    if ((l.a == d.node || l.b == d.node) && seen++ == d.port) {
      link = &l;
      break;
    }
  LOSSLESS_CHECK(link, "a headroom drop at a port the topology does not have");
  h.first_ps = d.at_ps;
  h.first_switch = t.node_name(d.node);
  h.first_port = d.port;
  h.first_priority = d.priority;
  h.first_from = t.node_name(link->a == d.node ? link->b : link->a);
  h.headroom_bytes = sc.sw.headroom_bytes ? sc.sw.headroom_bytes
                                          : auto_headroom_bytes(link->rate_bps, link->delay_ps, sc.nic);
  h.needed_bytes = pfc_headroom_needed_bytes(link->rate_bps, link->delay_ps, sc.nic);
  std::string w =
      std::to_string(h.packets) + " packets (" + std::to_string(data_drops) +
      " of them data) were dropped at a full PFC headroom on this lossless fabric, the first at " +
      format_sim_time(d.at_ps) + " at port " + std::to_string(d.port) + " of " + h.first_switch +
      " (priority " + std::to_string(d.priority) + ", the " + format_rate(link->rate_bps) + " " +
      format_time(link->delay_ps) + " link from " + h.first_from + "), whose headroom of " +
      std::to_string(h.headroom_bytes) + " B ";
  if (h.headroom_bytes < h.needed_bytes) {
    // switch.pfc.headroom is one size for every port: advise the largest need, as validation's warning does.
    const Bytes most_needed = most_headroom_needed(t, sc.nic).bytes;
    w += "is less than the " + std::to_string(h.needed_bytes) +
         " B that can arrive after a pause there (2 x rate x delay + 3 maximum packets + a pause frame" +
         (sc.sw.headroom_bytes
              ? ""
              : "; auto, 3 x link BDP + 2 maximum packets, falls short on a link this short") +
         "): set switch.pfc.headroom to at least " + std::to_string(most_needed) + "B" +
         (most_needed > h.needed_bytes ? " (one size for every port: the most any port of the fabric needs)"
                                       : "");
  } else if (sc.nic.ack_unpaused_at_nic) {
    w += "holds the " + std::to_string(h.needed_bytes) +
         " B that can arrive after a pause from that link, but ACKs are sent through pauses "
         "(nic.ack_priority: data_unpaused, the HPCC code's ACK_HIGH_PRIO 1) and nothing bounds what they "
         "add: set nic.ack_priority to high or data, or raise switch.pfc.headroom";
  } else {
    w +=
        "holds the " + std::to_string(h.needed_bytes) +
        " B that can arrive after a pause from that link (packets of nic.mtu + data_header + data_extra; the "
        "INT records a scheme adds come on top): raise switch.pfc.headroom";
  }
  if (sc.nic.rto_ps == 0)
    w += "; nic.rto is 0 (off), so a flow whose last packets were lost (no later packet reveals the gap) "
         "never finishes" +
         std::string(u.stalled ? " (" + std::to_string(u.stalled) + " flows stalled)" : "") +
         ": set nic.rto (e.g. 1ms) to recover them";
  h.warning = w;
  return h;
}

void print_headroom_drops(const Scenario& sc, const RunResult& r) {
  if (!r.headroom_drops.warning.empty())
    std::fprintf(stderr, "lossless: warning: %s: %s\n", sc.output.dir.c_str(),
                 r.headroom_drops.warning.c_str());
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

// Runs `build` (a step of building the fabric), naming the scenario file in a ConfigError that names none,
// as `validate` does: what only a built fabric checks (schemes that cannot be combined) has no file of its
// own.
template <class F>
void naming_the_file(const Scenario& sc, F&& build) {
  try {
    build();
  } catch (const ConfigError& e) {
    if (!e.where().empty() || sc.file.empty()) throw;
    throw ConfigError(sc.file, e.key(), e.reason());
  }
}

// A run of the whole fabric in this process, in three steps (a run over ranks interleaves them with the
// other ranks: run_over_ranks).
class WholeRun {
 public:
  WholeRun(Scenario& sc, const RunOptions& opts) : sc_(sc), opts_(opts), wall_start_(Clock::now()) {}

  void set_up(unsigned threads) {
    // The fabric first: what only a built fabric checks (schemes that cannot be combined) fails before the
    // output folder exists, naming the scenario file as `validate` does.
    naming_the_file(sc_, [&] {
      net_ = std::make_unique<Network>(sc_.topology, sc_.sw, sc_.nic, sc_.seed, threads);
      net_->set_log_pfc((sc_.monitor.pfc && opts_.write_outputs) || !opts_.hpcc_pfc_path.empty());
      if (sc_.mechanism) net_->install_mechanism(*sc_.mechanism);
      net_->install_flows(sc_.flows, *sc_.cc);
    });
    Network& net = *net_;
    if (opts_.write_outputs) out_ = std::make_unique<OutputDir>(sc_.output.dir);
    if (opts_.write_outputs && sc_.monitor.queues) {
      qmon_ = std::make_unique<QueueMonitor>(net, sc_.monitor, out_->path("queues.csv"));
      qmon_->start(sc_.stop_ps);
    }
    if (opts_.write_outputs && sc_.monitor.flow_rates) {
      rmon_ = std::make_unique<FlowRateMonitor>(net, sc_.monitor, out_->path("flow_rates.csv"));
      rmon_->start(sc_.stop_ps);
    }
    if (out_ && sc_.monitor.fabric) {
      fmon_ = std::make_unique<FabricMonitor>(net, sc_.monitor.fabric_interval_ps, out_->path("fabric.json"),
                                              out_->path("fabric.bin"));
      fmon_->start(sc_.stop_ps);
    }
    checks_ = std::make_unique<RunChecks>(net, sc_.check, opts_.check, [this](const DeadlockReport& d) {
      if (deadlocks_printed_++ < kWarningsPrinted) print_deadlock(sc_, net_->topology(), d);
    });
  }

  // `link`: the other ranks, which follow the windows (follow_fabric_windows); null on one process.
  void run(RankLink* link) {
    ProgressLine progress(sc_.flows.size());
    std::function<void(const FabricProgress&)> on_progress;
    if (!opts_.quiet) on_progress = [&](const FabricProgress& p) { progress.update(p); };
    try {
      run_ = run_fabric(*net_, sc_.stop_ps, on_progress, checks_.get(), link);
      checks_->finish(run_);
    } catch (const InvariantViolation& e) {
      violation_ = std::current_exception();
      violation_text_ = e.what();
    }
    progress.finish();
  }

  // Writes the outputs; rethrows a violated invariant after them.
  RunResult finish(int ranks) {
    Network& net = *net_;
    net.finish_accounting();
    if (qmon_) qmon_->finish();
    if (rmon_) rmon_->finish();
    if (fmon_) fmon_->finish();

    RunResult r = summarize_run(net);
    r.unfinished = checks_->unfinished();
    r.deadlocks = checks_->deadlocks().reports();
    r.deadlocks_found = checks_->deadlocks().cycles_found();
    r.checks_full = checks_->full();
    r.check_passes = checks_->passes();
    r.violation = violation_text_;
    for (std::size_t i = 0; i < net.partitions(); ++i)
      for (const DataDrop& d : net.partition(i).data_drops)
        ++r.data_drops[static_cast<std::size_t>(d.reason)];
    r.headroom_drops = headroom_drops_of(
        sc_, r.counters, r.data_drops[static_cast<std::size_t>(DropReason::kHeadroomFull)], r.unfinished);
    if (deadlocks_printed_ > kWarningsPrinted)
      std::fprintf(stderr, "lossless: warning: %s: %zu more PFC deadlocks (summary.json deadlocks)\n",
                   sc_.output.dir.c_str(), deadlocks_printed_ - kWarningsPrinted);
    print_headroom_drops(sc_, r);
    if (!violation_ && r.unfinished.stalled > 0) print_stalls(sc_, r);
    r.scenario = sc_.name;
    r.cc = sc_.cc_algorithm;
    r.seed = sc_.seed;
    r.threads = run_.threads;
    r.ranks = ranks;
    r.wall_seconds = std::chrono::duration<double>(Clock::now() - wall_start_).count();
    r.peak_rss_kb = peak_rss_kb();
    const std::vector<PfcLogRecord> pfc_log = std::move(r.counters.pfc_log);
    r.counters.pfc_log.clear();
    if (out_) write_run_outputs(sc_, net, r, pfc_log, *out_);
    write_hpcc_files(opts_, net, pfc_log);
    if (out_) out_->commit("summary.json");
    // A violated invariant is reported after the outputs, which show the run up to it.
    if (violation_) std::rethrow_exception(violation_);
    return r;
  }

 private:
  Scenario& sc_;
  const RunOptions& opts_;
  Clock::time_point wall_start_;
  std::unique_ptr<OutputDir> out_;
  std::unique_ptr<Network> net_;
  std::unique_ptr<QueueMonitor> qmon_;
  std::unique_ptr<FlowRateMonitor> rmon_;
  std::unique_ptr<FabricMonitor> fmon_;
  std::unique_ptr<RunChecks> checks_;
  std::size_t deadlocks_printed_ = 0;
  FabricRunStats run_;
  std::exception_ptr violation_;
  std::string violation_text_;
};

// Why a run over ranks must run the whole fabric on rank 0 (null: it can be split).
const char* whole_fabric_reason(const Scenario& sc, const RunOptions& opts) {
  if (opts.write_outputs && (sc.monitor.queues || sc.monitor.flow_rates || sc.monitor.fabric))
    return "monitor.queues / flow_rates / fabric sample the whole fabric";
  if (opts.check) return "--check looks at the whole fabric between windows";
  if (min_link_delay(sc.topology) == 0) return "a link without delay leaves no lookahead";
  return nullptr;
}

// Rank 0 runs the whole fabric on one thread, as without mpirun; the other ranks follow its windows, so that
// all stop together (an interrupt of any of them included) and exit with the same status.
RunResult run_whole_on_rank0(Scenario& sc, const RunOptions& opts, RankLink& link, const char* why) {
  const bool root = link.rank() == 0;
  if (root && !opts.quiet)
    std::fprintf(stderr, "[lossless] %s: the fabric runs on rank 0 alone, on one thread (%d ranks)\n", why,
                 link.size());
  WholeRun whole(sc, opts);
  on_every_rank(&link, [&] {
    if (root) whole.set_up(1);
  });
  if (root)
    whole.run(&link);
  else
    follow_fabric_windows(link, sc.stop_ps, sc.flows.size());
  RunResult r;
  on_every_rank(&link, [&] {
    if (root) r = whole.finish(1);
  });
  return r;
}

// `mpirun -n R lossless run`: the fabric split over the ranks (net/network.h).
RunResult run_over_ranks(Scenario& sc, const RunOptions& opts, RankLink& link) {
  if (const char* why = whole_fabric_reason(sc, opts)) return run_whole_on_rank0(sc, opts, link, why);
  const auto wall_start = Clock::now();
  const bool root = link.rank() == 0;
  std::unique_ptr<OutputDir> out;
  std::unique_ptr<Network> net;
  // Every step that may fail on some ranks only ends with all of them agreeing (core/rank_link.h); the
  // collectives between the steps are reached by every rank. The fabric first, as on one process: what only
  // a built fabric checks fails naming the scenario file, before the output folder exists.
  on_every_rank(&link, [&] {
    naming_the_file(sc, [&] {
      net = std::make_unique<Network>(sc.topology, sc.sw, sc.nic, sc.seed, opts.threads, &link);
    });
  });
  net->agree_on_global_rtt();
  on_every_rank(&link, [&] {
    naming_the_file(sc, [&] {
      net->set_log_pfc((sc.monitor.pfc && opts.write_outputs) || !opts.hpcc_pfc_path.empty());
      if (sc.mechanism) net->install_mechanism(*sc.mechanism);
      net->install_flows(sc.flows, *sc.cc);
    });
  });
  on_every_rank(&link, [&] { net->check_ranks_agree(); });
  on_every_rank(&link, [&] {
    if (root && opts.write_outputs) out = std::make_unique<OutputDir>(sc.output.dir);
  });

  ProgressLine progress(sc.flows.size());
  std::function<void(const FabricProgress&)> on_progress;
  if (root && !opts.quiet) on_progress = [&](const FabricProgress& p) { progress.update(p); };
  const FabricRunStats run = run_fabric(*net, sc.stop_ps, on_progress, nullptr, &link);
  progress.finish();

  // The invariants at the end of the run (net/invariants.h), each rank checking what it holds and the sums
  // over ranks; a violation is reported after the outputs, as on one process. The unfinished flows are
  // classified and the stalled ones listed as on one process; PFC deadlocks are not looked for, which needs
  // the whole fabric in one process (docs/performance.md "Ranks").
  std::string violation;
  FabricChecker checker(*net);
  try {
    checker.check(run.end_ps, run.end == RunEnd::kDrained);
  } catch (const InvariantViolation& e) {
    violation = e.what();
  }
  const std::vector<RankMessage> violations = link.gather(RankMessage(violation.begin(), violation.end()));
  const PausedPorts paused = paused_ports_here(*net);
  net->combine_ranks();
  const TimePs stall_after =
      sc.check.stall_after_ps != kTimeNever ? sc.check.stall_after_ps : 1000 * net->max_base_rtt_ps();
  UnfinishedReport unfinished =
      classify_unfinished_over_ranks(*net, link, run.end, run.end_ps, stall_after, checker, paused);
  RunResult r;
  if (root) {
    r = summarize_run(*net);
    r.unfinished = std::move(unfinished);
    r.check_passes = 1;
    for (const RankMessage& m : violations)
      if (r.violation.empty()) r.violation.assign(m.begin(), m.end());
    if (!opts.quiet)
      std::fprintf(stderr,
                   "[lossless] over %d ranks the invariants are checked at the end of the run only and PFC "
                   "deadlocks are not looked for (they need the whole fabric in one process: run without "
                   "mpirun, or with --check to run it on rank 0)\n",
                   link.size());
  }
  // Data packets dropped, by reason, on every rank.
  std::array<std::uint64_t, 3> drops{};
  for (std::size_t i = 0; i < net->partitions(); ++i)
    for (const DataDrop& d : net->partition(i).data_drops) ++drops[static_cast<std::size_t>(d.reason)];
  link.all_sum(drops);
  if (root) {
    r.data_drops = drops;
    r.headroom_drops = headroom_drops_of(
        sc, r.counters, drops[static_cast<std::size_t>(DropReason::kHeadroomFull)], r.unfinished);
    print_headroom_drops(sc, r);
    if (r.violation.empty() && r.unfinished.stalled > 0) print_stalls(sc, r);
  }
  // Each rank's measurements, to rank 0.
  RunResult::RankReport mine;
  mine.peak_rss_kb = peak_rss_kb();
  mine.events = net->events_processed_here();
  for (std::size_t i = 0; i < net->partitions(); ++i) mine.packet_pool += net->partition(i).pool.allocated();
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
    r.ranks = link.size();
    for (const RankMessage& m : reports) {
      RunResult::RankReport k;
      LOSSLESS_CHECK(m.size() == sizeof k, "a rank's report has another size");
      std::memcpy(&k, m.data(), sizeof k);
      r.peak_rss_kb = std::max(r.peak_rss_kb, k.peak_rss_kb);
      r.rank_reports.push_back(k);
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
  // Every rank stops with exit 1 when one found a violation; rank 0 prints the lowest such rank's.
  on_every_rank(&link, [&] {
    if (!violation.empty()) throw InternalError(violation);
  });
  return r;
}

}  // namespace

void build_fabric(Scenario& sc) {
  Network net(sc.topology, sc.sw, sc.nic, sc.seed, 1);
  if (sc.mechanism) net.install_mechanism(*sc.mechanism);
  net.install_flows(sc.flows, *sc.cc);
}

RunResult run_scenario(Scenario& sc, const RunOptions& opts) {
  if (!opts.link || opts.link->rank() == 0)
    for (const ConfigError& w : sc.warnings) std::fprintf(stderr, "lossless: warning: %s\n", w.what());
  if (opts.link && opts.link->size() > 1) return run_over_ranks(sc, opts, *opts.link);
  WholeRun whole(sc, opts);
  whole.set_up(threads_for(sc, opts));
  whole.run(nullptr);
  return whole.finish(1);
}

}  // namespace lossless
