#include "stats/monitors.h"

#include <cinttypes>
#include <set>

#include "core/error.h"

namespace lossless {

QueueMonitor::QueueMonitor(Network& net, const MonitorConfig& cfg, const std::string& path)
    : net_(net), interval_ps_(cfg.queue_interval_ps), out_(path) {
  out_.put("time_ns,node,port,bytes\n");
  const Topology& t = net.topology();
  // A port named twice (["s0:3", "s0:*"]) is sampled once, where it was first named: a second row for the
  // same (time, node, port) would leave queues.csv ambiguous.
  std::set<const Port*> named;
  auto add = [&](std::uint32_t s, int port) {
    Switch& sw = net.switch_at(s);
    for (std::size_t p = 0; p < sw.ports.size(); ++p)
      if ((port < 0 || static_cast<std::size_t>(port) == p) && named.insert(&sw.ports[p]).second) {
        ports_.push_back(&sw.ports[p]);
        names_.push_back(t.node_name(sw.node()));
      }
  };
  if (cfg.queue_ports.empty()) {
    for (std::uint32_t s = 0; s < t.switches; ++s) add(s, -1);
  } else {
    for (const auto& r : cfg.queue_ports) {
      std::uint32_t s = r.node - t.hosts;
      if (r.port >= 0 && static_cast<std::size_t>(r.port) >= net.switch_at(s).ports.size())
        throw ConfigError("", "monitor.queues.where",
                          t.node_name(r.node) + " has no port " + std::to_string(r.port));
      add(s, r.port);
    }
  }
}

void QueueMonitor::start(TimePs until) {
  until_ = until;
  net_.sim().at(0, &QueueMonitor::sample_event, this);
}

void QueueMonitor::sample_event(void* target, std::uint64_t) {
  auto* m = static_cast<QueueMonitor*>(target);
  TimePs now = m->net_.sim().now();
  for (std::size_t i = 0; i < m->ports_.size(); ++i)
    std::fprintf(m->out_.f(), "%.3f,%s,%u,%" PRIu64 "\n", ps_to_ns(now), m->names_[i].c_str(),
                 static_cast<unsigned>(m->ports_[i]->index), m->ports_[i]->queued_bytes);
  if (now + m->interval_ps_ <= m->until_ && m->net_.flows_completed() < m->net_.flows().size())
    m->net_.sim().after(m->interval_ps_, &QueueMonitor::sample_event, m);
}

FlowRateMonitor::FlowRateMonitor(Network& net, const MonitorConfig& cfg, const std::string& path)
    : net_(net), interval_ps_(cfg.flow_rate_interval_ps), out_(path) {
  out_.put("time_ns,flow_id,rate_bps\n");
  if (cfg.rate_flows.empty()) {
    for (std::uint32_t i = 0; i < net.flows().size(); ++i) flows_.push_back(i);
  } else {
    // A flow listed twice is sampled once (one row per flow and interval).
    std::set<std::uint32_t> listed;
    for (std::uint32_t id : cfg.rate_flows)
      if (listed.insert(id).second) flows_.push_back(id);
  }
  last_delivered_.assign(flows_.size(), 0);
}

void FlowRateMonitor::start(TimePs until) {
  until_ = until;
  net_.sim().at(interval_ps_, &FlowRateMonitor::sample_event, this);
}

void FlowRateMonitor::sample_event(void* target, std::uint64_t) {
  auto* m = static_cast<FlowRateMonitor*>(target);
  TimePs now = m->net_.sim().now();
  TimePs since = now - m->interval_ps_;
  for (std::size_t i = 0; i < m->flows_.size(); ++i) {
    std::uint32_t id = m->flows_[i];
    const Flow& f = m->net_.flow(id);
    // A row for every interval the flow was alive in (started before its end, not finished before its start).
    if (f.start_ps >= now || m->net_.finish_ps(id) < since) continue;
    Bytes d = m->net_.receiver(id).delivered();
    double rate = static_cast<double>(d - m->last_delivered_[i]) * 8.0 * static_cast<double>(kPsPerSec) /
                  static_cast<double>(m->interval_ps_);
    m->last_delivered_[i] = d;
    std::fprintf(m->out_.f(), "%.3f,%u,%.0f\n", ps_to_ns(now), id, rate);
  }
  if (now + m->interval_ps_ <= m->until_ && m->net_.flows_completed() < m->net_.flows().size())
    m->net_.sim().after(m->interval_ps_, &FlowRateMonitor::sample_event, m);
}

}  // namespace lossless
