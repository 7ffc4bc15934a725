#include "stats/fabric_monitor.h"

#include <algorithm>
#include <cinttypes>
#include <deque>
#include <limits>
#include <sstream>

#include "core/error.h"

namespace lossless {

namespace {

std::uint32_t saturated(Bytes b) {
  return static_cast<std::uint32_t>(std::min<Bytes>(b, std::numeric_limits<std::uint32_t>::max()));
}

std::string quoted(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

}  // namespace

FabricMonitor::FabricMonitor(Network& net, TimePs interval_ps, const std::string& json_path,
                             const std::string& bin_path)
    : net_(net), interval_ps_(interval_ps), json_path_(json_path), bin_(bin_path) {
  const Topology& t = net.topology();
  port_base_.assign(t.nodes(), 0);
  for (std::uint32_t h = 0; h < t.hosts; ++h) {
    port_base_[h] = static_cast<std::uint32_t>(ports_.size());
    ports_.push_back(&net.nic(h).port);
  }
  for (std::uint32_t s = 0; s < t.switches; ++s) {
    Switch& sw = net.switch_at(s);
    port_base_[t.switch_node(s)] = static_cast<std::uint32_t>(ports_.size());
    for (const Port& p : sw.ports) ports_.push_back(&p);
  }
  last_queue_.assign(ports_.size(), std::numeric_limits<std::uint32_t>::max());
  last_pause_.assign(ports_.size(), 0xff);
  by_start_.resize(net.flows().size());
  for (std::uint32_t i = 0; i < by_start_.size(); ++i) by_start_[i] = i;
  std::stable_sort(by_start_.begin(), by_start_.end(), [&](std::uint32_t a, std::uint32_t b) {
    return net.flow(a).start_ps < net.flow(b).start_ps;
  });
  last_delivered_.assign(net.flows().size(), 0);
  bin_.put("LLFABRIC");
  bin_bytes_ = 8;
  put<std::uint32_t>(kVersion);
  put<std::uint32_t>(static_cast<std::uint32_t>(ports_.size()));
  put<std::uint32_t>(static_cast<std::uint32_t>(net.flows().size()));
  put<std::uint64_t>(interval_ps_);
}

void FabricMonitor::start(TimePs until) {
  until_ = until;
  // Nothing moves before the first flow starts (HPCC flow files start at 2 s): the first sample is the first
  // interval boundary after it.
  TimePs first = kTimeNever;
  for (const Flow& f : net_.flows()) first = std::min(first, f.start_ps);
  if (first == kTimeNever) first = 0;
  net_.sim().at((first / interval_ps_ + 1) * interval_ps_, &FabricMonitor::sample_event, this);
}

void FabricMonitor::sample_event(void* target, std::uint64_t) {
  auto* m = static_cast<FabricMonitor*>(target);
  m->sample();
  const TimePs now = m->net_.sim().now();
  if (now + m->interval_ps_ <= m->until_ && m->net_.flows_completed() < m->net_.flows().size())
    m->net_.sim().after(m->interval_ps_, &FabricMonitor::sample_event, m);
}

void FabricMonitor::sample() {
  const TimePs now = net_.sim().now();
  const TimePs since = now - interval_ps_;
  put<std::uint64_t>(now);
  change_port_.clear();
  for (std::uint32_t i = 0; i < ports_.size(); ++i)
    if (saturated(ports_[i]->queued_bytes) != last_queue_[i] || ports_[i]->paused_mask != last_pause_[i])
      change_port_.push_back(i);
  put<std::uint32_t>(static_cast<std::uint32_t>(change_port_.size()));
  for (std::uint32_t i : change_port_) {
    last_queue_[i] = saturated(ports_[i]->queued_bytes);
    last_pause_[i] = ports_[i]->paused_mask;
    put<std::uint32_t>(i);
    put<std::uint32_t>(last_queue_[i]);
    put<std::uint8_t>(last_pause_[i]);
  }
  // Flows alive in (since, now]: started before now, not finished before since (as flow_rates.csv).
  while (next_start_ < by_start_.size() && net_.flow(by_start_[next_start_]).start_ps < now)
    active_.push_back(by_start_[next_start_++]);
  std::size_t keep = 0;
  std::uint32_t n = 0;
  for (std::uint32_t id : active_)
    if (net_.finish_ps(id) >= since) ++n;
  put<std::uint32_t>(n);
  for (std::uint32_t id : active_) {
    if (net_.finish_ps(id) < since) continue;  // reported in the interval it finished in, then dropped
    const Bytes d = net_.receiver(id).delivered();
    put<std::uint32_t>(id);
    put<std::uint32_t>(saturated(d - last_delivered_[id]));
    last_delivered_[id] = d;
    active_[keep++] = id;
  }
  active_.resize(keep);
  ++samples_;
}

void FabricMonitor::finish() {
  bin_.close();
  const Topology& t = net_.topology();
  // Tiers: hosts 0, every switch its hop distance from the nearest host (ToR 1, aggregation 2, core 3).
  std::vector<int> tier(t.nodes(), -1);
  std::deque<std::uint32_t> todo;
  for (std::uint32_t h = 0; h < t.hosts; ++h) {
    tier[h] = 0;
    todo.push_back(h);
  }
  while (!todo.empty()) {
    const std::uint32_t n = todo.front();
    todo.pop_front();
    const std::uint32_t ports =
        n < t.hosts ? 1u : static_cast<std::uint32_t>(net_.switch_at(n - t.hosts).ports.size());
    for (std::uint32_t p = 0; p < ports; ++p) {
      const std::uint32_t peer = net_.peer_node(n, p);
      if (tier[peer] < 0) {
        tier[peer] = tier[n] + 1;
        todo.push_back(peer);
      }
    }
  }
  std::ostringstream os;
  os << "{\"format\": \"lossless-fabric\", \"version\": " << kVersion
     << ", \"interval_ns\": " << static_cast<double>(interval_ps_) / kPsPerNs << ", \"samples\": " << samples_
     << ", \"bin_bytes\": " << bin_bytes_ << ",\n \"nodes\": [";
  for (std::uint32_t n = 0; n < t.nodes(); ++n)
    os << (n ? ", " : "") << "[" << quoted(t.node_name(n)) << ", \"" << (t.is_host(n) ? "host" : "switch")
       << "\", " << tier[n] << "]";
  os << "],\n \"ports\": [";
  for (std::uint32_t i = 0; i < ports_.size(); ++i) {
    const Port& p = *ports_[i];
    os << (i ? ",\n  " : "\n  ") << "[" << p.node << ", " << p.index << ", "
       << net_.peer_node(p.node, p.index) << ", " << p.peer_index << ", " << p.rate_bps() << ", "
       << static_cast<double>(p.delay_ps()) / kPsPerNs << "]";
  }
  os << "],\n \"flows\": [";
  for (std::uint32_t id = 0; id < net_.flows().size(); ++id) {
    const Flow& f = net_.flow(id);
    const TimePs fin = net_.finish_ps(id);
    os << (id ? ",\n  " : "\n  ") << "[" << id << ", " << f.src << ", " << f.dst << ", " << f.size_bytes
       << ", " << static_cast<double>(f.start_ps) / kPsPerNs << ", ";
    if (fin == kTimeNever)
      os << "null";
    else
      os << static_cast<double>(fin) / kPsPerNs;
    os << ", ";
    // The data path: the source's port, then the egress port the flow's route takes at each switch (none when
    // its packets are sprayed).
    const std::uint16_t* route = net_.forward_route(id);
    if (!route) {
      os << "null]";
      continue;
    }
    os << "[" << port_base_[f.src];
    std::uint32_t node = net_.peer_node(f.src, 0);
    for (std::size_t hop = 0; !t.is_host(node) && hop < t.nodes(); ++hop) {
      os << ", " << port_base_[node] + route[hop];
      node = net_.peer_node(node, route[hop]);
    }
    os << "]]";
  }
  os << "]}\n";
  OutputFile json(json_path_);
  json.put(os.str());
  json.close();
}

}  // namespace lossless
