#include "stats/run_summary.h"

#include <algorithm>
#include <fstream>

#include "net/network.h"

namespace lossless {

RunResult summarize_run(const Network& net) {
  RunResult r;
  r.sim_time_ps = net.now();
  r.events = net.events_processed();
  r.flows_total = net.flows().size();
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
  r.packet_struct_bytes = net.packet_slot_bytes();
  r.flow_state_bytes = net.flow_state_bytes();
  r.first_start_ps = net.flows().empty() ? 0 : net.flows().front().start_ps;
  for (const Flow& f : net.flows()) r.first_start_ps = std::min(r.first_start_ps, f.start_ps);
  // All partitions' counts, merged (and the PFC log sorted) once.
  r.counters = net.counters();
  return r;
}

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

}  // namespace lossless
