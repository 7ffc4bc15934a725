#include "scenario/runner.h"

#include <chrono>
#include <cinttypes>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>

#include "core/error.h"
#include "net/fabric_run.h"
#include "net/network.h"
#include "stats/monitors.h"

namespace lossless {
namespace {

std::string fmt_ns(TimePs ps) {
  char buf[32];
  if (ps % kPsPerNs == 0) {
    std::snprintf(buf, sizeof buf, "%" PRIu64, ps / kPsPerNs);
  } else {
    std::snprintf(buf, sizeof buf, "%" PRIu64 ".%03u", ps / kPsPerNs, static_cast<unsigned>(ps % kPsPerNs));
    std::string s = buf;
    while (s.back() == '0') s.pop_back();
    return s;
  }
  return buf;
}

std::uint32_t hpcc_ip(std::uint32_t id) {
  return 0x0b000001u + ((id / 256) * 0x00010000u) + ((id % 256) * 0x00000100u);
}

std::FILE* open_out(const std::filesystem::path& p) {
  std::FILE* f = std::fopen(p.string().c_str(), "w");
  if (!f) throw ConfigError(p.string(), "", "cannot write output file");
  return f;
}

// `sip dip sport dport size start_ns fct_ns standalone_fct_ns`, IPs as the HPCC simulator derives them from
// ids.
void write_hpcc_fct(const Network& net, const std::filesystem::path& path) {
  std::FILE* f = open_out(path);
  const Topology& t = net.topology();
  for (const Flow& fl : net.flows()) {
    TimePs fin = net.finish_ps(fl.id);
    if (fin == kTimeNever) continue;
    std::uint32_t s = t.external_id.empty() ? fl.src : t.external_id[fl.src];
    std::uint32_t d = t.external_id.empty() ? fl.dst : t.external_id[fl.dst];
    std::fprintf(f, "%08x %08x %u %u %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64 "\n", hpcc_ip(s),
                 hpcc_ip(d), fl.sport, fl.dport, fl.size_bytes, fl.start_ps / kPsPerNs,
                 (fin - fl.start_ps) / kPsPerNs, net.ideal_fct_ps(fl) / kPsPerNs);
  }
  std::fclose(f);
}

// `time_ns node_id node_type(0 host, 1 switch) if_index(ns-3: port + 1) type(1 pause, 0 resume)`, logged at
// the device that received the frame, as the HPCC simulator's PFC_OUTPUT_FILE.
void write_hpcc_pfc(const Network& net, const std::vector<PfcLogRecord>& pfc_log,
                    const std::filesystem::path& path) {
  std::FILE* f = open_out(path);
  const Topology& t = net.topology();
  for (const auto& e : pfc_log) {
    std::uint32_t id = t.external_id.empty() ? e.node : t.external_id[e.node];
    std::fprintf(f, "%" PRIu64 " %u %u %u %u\n", e.time_ps / kPsPerNs, id, t.is_host(e.node) ? 0u : 1u,
                 e.port + 1u, e.pause ? 1u : 0u);
  }
  std::fclose(f);
}

void write_outputs(const Scenario& sc, const Network& net, const RunResult& r,
                   const std::vector<PfcLogRecord>& pfc_log, const std::filesystem::path& dir) {
  {
    std::ofstream os(dir / "summary.json");
    os << summary_json(r);
  }
  {
    std::FILE* f = open_out(dir / "fct.csv");
    std::fputs("flow_id,src,dst,size_bytes,start_ns,finish_ns,fct_ns,ideal_fct_ns,slowdown\n", f);
    for (const Flow& fl : net.flows()) {
      TimePs fin = net.finish_ps(fl.id);
      TimePs ideal = net.ideal_fct_ps(fl);
      if (fin == kTimeNever) {
        std::fprintf(f, "%u,%u,%u,%" PRIu64 ",%s,,,%s,\n", fl.id, fl.src, fl.dst, fl.size_bytes,
                     fmt_ns(fl.start_ps).c_str(), fmt_ns(ideal).c_str());
      } else {
        TimePs fct = fin - fl.start_ps;
        std::fprintf(f, "%u,%u,%u,%" PRIu64 ",%s,%s,%s,%s,%.6f\n", fl.id, fl.src, fl.dst, fl.size_bytes,
                     fmt_ns(fl.start_ps).c_str(), fmt_ns(fin).c_str(), fmt_ns(fct).c_str(),
                     fmt_ns(ideal).c_str(), static_cast<double>(fct) / static_cast<double>(ideal));
      }
    }
    std::fclose(f);
  }
  if (sc.monitor.pfc) {
    std::FILE* f = open_out(dir / "pfc.csv");
    std::fputs("time_ns,node,port,priority,event,quanta\n", f);
    const Topology& t = net.topology();
    for (const auto& e : pfc_log)
      std::fprintf(f, "%s,%s,%u,%u,%s,%u\n", fmt_ns(e.time_ps).c_str(), t.node_name(e.node).c_str(), e.port,
                   e.priority, e.pause ? "pause" : "resume", e.quanta);
    std::fclose(f);
  }
  if (sc.output.hpcc_fct) write_hpcc_fct(net, dir / "fct.txt");
  {
    YAML::Emitter em;
    em << sc.resolved;
    std::ofstream os(dir / "scenario.yaml");
    os << "# fully resolved scenario: `lossless run` on this file repeats the run exactly\n"
       << em.c_str() << "\n";
  }
}

}  // namespace

std::uint64_t peak_rss_kb() {
  std::ifstream in("/proc/self/status");
  std::string key;
  while (in >> key) {
    if (key == "VmHWM:") {
      std::uint64_t kb = 0;
      in >> kb;
      return kb;
    }
    std::getline(in, key);
  }
  return 0;
}

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

  // Queue and flow-rate monitors sample the whole fabric at once: they need it on one thread.
  const bool monitors = opts.write_outputs && (sc.monitor.queues || sc.monitor.flow_rates);
  unsigned threads = std::max(1u, opts.threads);
  if (monitors && threads > 1) {
    if (!opts.quiet)
      std::fprintf(stderr,
                   "[lossless] monitor.queues / monitor.flow_rates sample the whole fabric: one thread\n");
    threads = 1;
  }
  Network net(sc.topology, sc.sw, sc.nic, sc.seed, threads);
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

  // Progress on stderr for runs longer than a few seconds: simulated time, share done, events/s.
  bool printed = false;
  auto last_print = wall_start;
  std::uint64_t last_events = 0;
  std::function<void(const FabricProgress&)> progress;
  if (!opts.quiet)
    progress = [&](const FabricProgress& p) {
      auto now = Clock::now();
      double since_start = std::chrono::duration<double>(now - wall_start).count();
      double since_print = std::chrono::duration<double>(now - last_print).count();
      if (since_start < 3.0 || since_print < 1.0) return;
      double rate = static_cast<double>(p.events - last_events) / since_print;
      double flows_done = sc.flows.empty()
                              ? 0.0
                              : static_cast<double>(p.flows_completed) / static_cast<double>(sc.flows.size());
      std::fprintf(stderr, "\r[lossless] sim %.3f ms  flows done %.1f%%  %.2f M events/s   ",
                   static_cast<double>(p.now_ps) / kPsPerMs, 100.0 * flows_done, rate / 1e6);
      std::fflush(stderr);
      printed = true;
      last_print = now;
      last_events = p.events;
    };
  const FabricRunStats run = run_fabric(net, sc.stop_ps, progress);
  if (printed) std::fprintf(stderr, "\n");
  net.finish_accounting();

  RunResult r;
  r.scenario = sc.name;
  r.cc = sc.cc_algorithm;
  r.seed = sc.seed;
  r.sim_time_ps = net.now();
  r.events = net.events_processed();
  r.threads = run.threads;
  r.flows_total = sc.flows.size();
  r.flows_completed = net.flows_completed();
  std::vector<FlowRecord> done;
  std::vector<double> fct_ns, slow;
  for (const Flow& f : net.flows()) {
    TimePs fin = net.finish_ps(f.id);
    if (fin == kTimeNever) continue;
    FlowRecord rec{f.id, f.size_bytes, fin - f.start_ps, net.ideal_fct_ps(f)};
    done.push_back(rec);
    fct_ns.push_back(static_cast<double>(rec.fct_ps) / kPsPerNs);
    slow.push_back(rec.slowdown());
  }
  r.fct_ns = summarize(std::move(fct_ns));
  r.slowdown = summarize(std::move(slow));
  r.bins = slowdown_by_size(done);
  r.packets_allocated = net.packets_allocated();
  r.packet_struct_bytes = sizeof(Packet);
  r.flow_state_bytes = net.flow_state_bytes();
  r.first_start_ps = sc.flows.empty() ? 0 : sc.flows.front().start_ps;
  for (const Flow& f : sc.flows) r.first_start_ps = std::min(r.first_start_ps, f.start_ps);
  r.wall_seconds = std::chrono::duration<double>(Clock::now() - wall_start).count();
  r.peak_rss_kb = peak_rss_kb();
  // All partitions' counts, merged (and the PFC log sorted) once.
  r.counters = net.counters();
  const std::vector<PfcLogRecord> pfc_log = std::move(r.counters.pfc_log);
  r.counters.pfc_log.clear();
  if (opts.write_outputs) {
    write_outputs(sc, net, r, pfc_log, dir);
    if (sc.mechanism && net.switch_count() > 0 && net.switch_at(0).mechanism()->trace_header()) {
      std::FILE* f = open_out(dir / (sc.mechanism_name + ".csv"));
      std::fputs(net.switch_at(0).mechanism()->trace_header(), f);
      for (std::size_t s = 0; s < net.switch_count(); ++s) net.switch_at(s).mechanism()->write_trace(f);
      std::fclose(f);
    }
  }
  if (!opts.hpcc_fct_path.empty()) write_hpcc_fct(net, opts.hpcc_fct_path);
  if (!opts.hpcc_pfc_path.empty()) write_hpcc_pfc(net, pfc_log, opts.hpcc_pfc_path);
  return r;
}

}  // namespace lossless
