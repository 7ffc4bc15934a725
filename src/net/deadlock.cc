#include "net/deadlock.h"

#include <algorithm>

#include "net/network.h"

namespace lossless {
namespace {

// Turn tables larger than this many entries are not built: every turn is then taken as possible.
constexpr std::size_t kMaxTurnEntries = std::size_t{1} << 24;

}  // namespace

DeadlockDetector::DeadlockDetector(Network& net) : net_(net), logs_(net.partitions()) {
  recheck_interval_ps_ = 8 * std::max<TimePs>(net_.lookahead_ps(), 1);
  // Every change of pause state between two switches is logged; the routes' turns are looked at when the
  // first one comes (most runs never pause a switch-to-switch link), and a fabric whose routes cannot form a
  // cycle stops logging then.
  const Topology& topo = net_.topology();
  for (std::uint32_t s = 0; s < net_.switch_count(); ++s) {
    Switch& sw = net_.switch_at(s);
    const std::size_t part = net_.partition_of(sw.node()).id;
    for (Port& p : sw.ports)
      if (!topo.is_host(net_.peer_node(p.node, p.index))) p.set_pause_log(&logs_[part]);
  }
}

DeadlockDetector::~DeadlockDetector() { stop_logging(); }

void DeadlockDetector::stop_logging() {
  for (std::uint32_t s = 0; s < net_.switch_count(); ++s)
    for (Port& p : net_.switch_at(s).ports) p.set_pause_log(nullptr);
  for (auto& log : logs_) log.clear();
}

bool DeadlockDetector::watching() {
  if (!turns_built_) {
    turns_built_ = true;
    watching_ = build_turns();
    if (!watching_) stop_logging();
  }
  return watching_;
}

bool DeadlockDetector::build_turns() {
  const Topology& topo = net_.topology();
  const RoutingTable& routes = net_.routes();
  const std::uint32_t switches = static_cast<std::uint32_t>(net_.switch_count());
  link_index_.assign(switches, {});
  link_count_.assign(switches, 0);
  turns_.assign(switches, {});
  std::vector<std::size_t> channel_base(switches + 1, 0);  // channel id = base[s] + index of the port
  for (std::uint32_t s = 0; s < switches; ++s) {
    const Switch& sw = net_.switch_at(s);
    std::vector<std::int32_t>& idx = link_index_[s];
    idx.assign(sw.ports.size(), -1);
    std::int32_t m = 0;
    for (const Port& p : sw.ports)
      if (!topo.is_host(net_.peer_node(p.node, p.index))) idx[p.index] = m++;
    link_count_[s] = static_cast<std::size_t>(m);
    channel_base[s + 1] = channel_base[s] + static_cast<std::size_t>(m);
    const std::size_t entries = static_cast<std::size_t>(m) * static_cast<std::size_t>(m);
    if (entries == 0 || entries > kMaxTurnEntries) continue;  // none, or too many to tabulate: all possible
    std::vector<bool>& t = turns_[s];
    t.assign(entries, false);
    std::vector<std::int32_t> ins, outs;
    for (std::uint32_t d = 0; d < topo.hosts; ++d) {
      const std::uint32_t here = routes.hops(sw.node(), d);
      ins.clear();
      outs.clear();
      for (const Port& p : sw.ports) {
        if (idx[p.index] < 0) continue;
        const std::uint32_t there = routes.hops(net_.peer_node(p.node, p.index), d);
        if (there == here + 1) ins.push_back(idx[p.index]);   // the neighbour routes to d through us
        if (there + 1 == here) outs.push_back(idx[p.index]);  // we route to d through the neighbour
      }
      for (std::int32_t i : ins)
        for (std::int32_t o : outs) t[static_cast<std::size_t>(i) * static_cast<std::size_t>(m) + o] = true;
    }
  }
  // Channels: the switch-to-switch directions. Channel (P -> s) leads to channel (s -> Q) when the turn at s
  // is possible. Any cycle among them?
  const std::size_t channels = channel_base[switches];
  if (channels == 0) return false;
  std::vector<std::uint32_t> ch_switch(channels);
  std::vector<std::uint16_t> ch_port(channels);
  for (std::uint32_t s = 0; s < switches; ++s)
    for (const Port& p : net_.switch_at(s).ports)
      if (link_index_[s][p.index] >= 0) {
        const std::size_t c = channel_base[s] + static_cast<std::size_t>(link_index_[s][p.index]);
        ch_switch[c] = s;
        ch_port[c] = p.index;
      }
  auto next_channels = [&](std::size_t c, std::vector<std::size_t>& out) {
    out.clear();
    const Port& from = net_.switch_at(ch_switch[c]).ports[ch_port[c]];
    const std::uint32_t s = net_.peer_node(from.node, from.index) - topo.hosts;
    const std::uint16_t in = from.peer_index;
    for (const Port& p : net_.switch_at(s).ports)
      if (link_index_[s][p.index] >= 0 && p.index != in && turn(s, in, p.index))
        out.push_back(channel_base[s] + static_cast<std::size_t>(link_index_[s][p.index]));
  };
  // Iterative depth-first search with colours: a grey channel reached again closes a cycle.
  std::vector<std::uint8_t> colour(channels, 0);
  std::vector<std::pair<std::size_t, std::vector<std::size_t>>> stack;
  std::vector<std::size_t> next;
  for (std::size_t root = 0; root < channels; ++root) {
    if (colour[root]) continue;
    colour[root] = 1;
    next_channels(root, next);
    stack.emplace_back(root, next);
    while (!stack.empty()) {
      auto& [c, succ] = stack.back();
      if (succ.empty()) {
        colour[c] = 2;
        stack.pop_back();
        continue;
      }
      const std::size_t n = succ.back();
      succ.pop_back();
      if (colour[n] == 1) return true;
      if (colour[n] == 2) continue;
      colour[n] = 1;
      next_channels(n, next);
      stack.emplace_back(n, next);
    }
  }
  return false;
}

bool DeadlockDetector::turn(std::uint32_t s, std::uint16_t in, std::uint16_t out) const {
  const std::vector<bool>& t = turns_[s];
  const std::int32_t i = link_index_[s][in], o = link_index_[s][out];
  if (i < 0 || o < 0) return false;
  if (t.empty()) return true;  // not tabulated
  return t[static_cast<std::size_t>(i) * link_count_[s] + static_cast<std::size_t>(o)];
}

bool DeadlockDetector::wants(std::size_t partition, TimePs end_ps) const {
  if (turns_built_ && !watching_) return false;
  return !logs_[partition].empty() || (!pending_.empty() && end_ps >= recheck_ps_);
}

bool DeadlockDetector::holds_from(const Port& y, std::uint16_t in_port, std::uint8_t prio) {
  auto [it, fresh] = holds_memo_.try_emplace({&y, (std::uint32_t{in_port} << 3) | prio}, false);
  if (!fresh) return it->second;
  bool found = false;
  if (y.custom_queues()) {
    y.custom_queues()->for_each(
        [&](const Packet& p) { found = found || (p.in_port == in_port && p.priority == prio); });
  } else {
    for (const Packet* p = y.queues()[prio].front(); p && !found; p = p->next) found = p->in_port == in_port;
  }
  it->second = found;
  return found;
}

bool DeadlockDetector::search(const Port* start, std::uint8_t prio, std::vector<const Port*>& cycle) {
  const Topology& topo = net_.topology();
  // Depth-first from `start` along "waits on" edges, back to `start`.
  std::map<const Port*, bool> visited;
  struct Frame {
    const Port* port;
    std::size_t next;  // the next port of the downstream switch to try
  };
  std::vector<Frame> path{{start, 0}};
  visited[start] = true;
  while (!path.empty()) {
    Frame& f = path.back();
    const std::uint32_t down = net_.peer_node(f.port->node, f.port->index);
    const std::uint32_t s = down - topo.hosts;
    Switch& sw = net_.switch_at(s);
    const std::uint16_t in = f.port->peer_index;
    bool advanced = false;
    while (f.next < sw.ports.size()) {
      const Port& y = sw.ports[f.next++];
      if (!y.paused(prio) || !y.pause_log() || !turn(s, in, y.index) || !holds_from(y, in, prio)) continue;
      if (&y == start) {
        for (const Frame& g : path) cycle.push_back(g.port);
        return true;
      }
      if (visited[&y]) continue;
      visited[&y] = true;
      path.push_back({&y, 0});
      advanced = true;
      break;
    }
    if (!advanced) path.pop_back();
  }
  return false;
}

void DeadlockDetector::report(const std::vector<const Port*>& cycle, std::uint8_t prio, TimePs end_ps) {
  ++found_;
  LiveCycle live{{}, kNotKept};
  if (reports_.size() < kMaxReports) {
    DeadlockReport r;
    r.priority = prio;
    r.detected_ps = end_ps;
    for (const Port* p : cycle) {
      const std::uint32_t peer = net_.peer_node(p->node, p->index);
      r.cycle.push_back({p->node, p->index, peer, p->paused_since(prio), net_.topology().node_name(p->node),
                         net_.topology().node_name(peer)});
      r.formed_ps = std::max(r.formed_ps, p->paused_since(prio));
    }
    live.report = reports_.size();
    reports_.push_back(std::move(r));
  }
  for (const Port* p : cycle) {
    live.ports.emplace_back(key(p, prio), p);
    live_[key(p, prio)] = cycles_.size();
    pending_.erase(key(p, prio));
  }
  cycles_.push_back(std::move(live));
}

std::vector<std::size_t> DeadlockDetector::at_window_end(TimePs end_ps) {
  std::vector<std::size_t> found;
  bool news = !pending_.empty();
  for (const auto& log : logs_) news = news || !log.empty();
  if (!news || !watching()) return found;
  std::vector<PauseTransition> events;
  for (auto& log : logs_) {
    events.insert(events.end(), log.begin(), log.end());
    log.clear();
  }
  // One order whatever the partitioning; a port's own changes keep their order.
  std::stable_sort(events.begin(), events.end(), [](const PauseTransition& a, const PauseTransition& b) {
    if (a.time_ps != b.time_ps) return a.time_ps < b.time_ps;
    if (a.port->node != b.port->node) return a.port->node < b.port->node;
    if (a.port->index != b.port->index) return a.port->index < b.port->index;
    return a.prio < b.prio;
  });
  for (const PauseTransition& e : events) {
    const Key k = key(e.port, e.prio);
    if (e.paused) {
      if (!live_.count(k)) pending_[k] = e.port;
      continue;
    }
    pending_.erase(k);
    auto it = live_.find(k);
    if (it == live_.end()) continue;
    // A port of a live cycle resumed: the cycle is resolved; its other ports still paused are pending again.
    const LiveCycle& c = cycles_[it->second];
    if (c.report != kNotKept) reports_[c.report].resolved_ps = e.time_ps;
    for (const auto& [pk, port] : c.ports) {
      live_.erase(pk);
      if (port != e.port && port->paused(pk.prio)) pending_[pk] = port;
    }
  }
  if (!events.empty() || end_ps >= recheck_ps_) {
    holds_memo_.clear();
    std::vector<const Port*> cycle;
    for (auto it = pending_.begin(); it != pending_.end();) {
      const Key k = it->first;
      const Port* p = it->second;
      ++it;
      if (!p->paused(k.prio) || live_.count(k)) {
        pending_.erase(k);
        continue;
      }
      cycle.clear();
      if (search(p, k.prio, cycle)) {
        report(cycle, k.prio, end_ps);
        if (cycles_.back().report != kNotKept) found.push_back(cycles_.back().report);
        it = pending_.upper_bound(k);
      }
    }
    recheck_ps_ = end_ps + recheck_interval_ps_;
  }
  return found;
}

}  // namespace lossless
