#include "net/stalls.h"

#include <algorithm>
#include <cinttypes>
#include <cstddef>
#include <cstdio>
#include <cstring>

#include "net/deadlock.h"
#include "net/invariants.h"
#include "net/network.h"
#include "topo/routing.h"

namespace lossless {
namespace {

std::string b(Bytes n) { return std::to_string(n) + " B"; }

// The first switch port on a flow's path that holds back its priority.
struct PathPause {
  bool found = false;
  std::uint32_t node = 0;
  std::uint16_t port = 0;
  TimePs since = 0;
};

// The switch port on `flow`'s path that first holds back its priority, and whether it is in a PFC deadlock
// still in force; none when no port is paused (or the flow is routed per packet). `paused_since(node, port)`
// says when the port's priority was paused, kTimeNever when it is not.
template <class PausedSince>
PathPause first_paused_on_path(const Network& net, const Flow& f, PausedSince paused_since,
                               const DeadlockDetector* deadlocks, std::uint8_t prio, bool& deadlocked) {
  deadlocked = false;
  PathPause first;
  const std::uint16_t* route = net.forward_route(f.id);
  if (!route) return first;
  const Topology& topo = net.topology();
  std::uint32_t node = net.peer_node(f.src, 0);
  for (std::uint32_t hop = 0; !topo.is_host(node) && hop <= topo.nodes(); ++hop) {
    const std::uint16_t port = route[hop];
    const TimePs since = paused_since(node, port);
    if (since != kTimeNever) {
      if (!first.found) first = {true, node, port, since};
      if (deadlocks && deadlocks->in_live_cycle(&net.switch_at(node - topo.hosts).ports[port], prio)) {
        deadlocked = true;
        return {true, node, port, since};
      }
    }
    node = net.peer_node(node, port);
  }
  return first;
}

// What holds a flow back at `end_ps`, in the order of RdmaNic::may_send (its sender's state only).
enum class Wait { kAck, kGate, kPaused, kWindow, kPacing, kNothing };

Wait wait_of(const Network& net, const Flow& f, TimePs end_ps) {
  const SenderQp& q = net.qp(f.id);
  const Port& nic = net.nic(f.src).port;
  const Bytes win = q.window();
  if (q.snd_nxt >= f.size_bytes) return Wait::kAck;
  if (q.snd_nxt >= q.send_limit_bytes) return Wait::kGate;
  if (nic.paused(q.priority)) return Wait::kPaused;
  if (win && q.in_flight() >= win) return Wait::kWindow;
  if (q.next_avail_ps > end_ps) return Wait::kPacing;
  return Wait::kNothing;
}

const char* wait_name(const SenderQp& q, Wait wait) {
  static constexpr const char* kWaitNames[] = {"acknowledgement", "send gate", "paused priority",
                                               "window",          "pacing",    "nothing"};
  return wait == Wait::kGate && q.cc ? q.cc->send_gate_name() : kWaitNames[static_cast<int>(wait)];
}

std::string port_text(const Network& net, const Port& p) {
  const Topology& t = net.topology();
  return t.node_name(p.node) + " port " + std::to_string(p.index);
}

// A listed stall as bytes (the sender's rank sends it to rank 0), and back.
void put_u64(RankMessage& m, std::uint64_t v) {
  const auto* p = reinterpret_cast<const unsigned char*>(&v);
  m.insert(m.end(), p, p + sizeof v);
}
std::uint64_t get_u64(const RankMessage& m, std::size_t& at) {
  std::uint64_t v = 0;
  std::memcpy(&v, m.data() + at, sizeof v);
  at += sizeof v;
  return v;
}
void put_text(RankMessage& m, const std::string& s) {
  put_u64(m, s.size());
  m.insert(m.end(), s.begin(), s.end());
}
std::string get_text(const RankMessage& m, std::size_t& at) {
  const std::size_t n = get_u64(m, at);
  std::string s(m.begin() + static_cast<std::ptrdiff_t>(at), m.begin() + static_cast<std::ptrdiff_t>(at + n));
  at += n;
  return s;
}

// A stalled flow in words: its sender's state (local), what it waits for, and the numbers from wherever they
// are (one process, or summed over ranks).
FlowWait describe_stall(const Network& net, const Flow& f, RunEnd end, TimePs end_ps, Wait wait,
                        const char* why, bool deadlocked, TimePs last_progress, Bytes delivered,
                        Bytes in_flight, const PathPause& paused_on_path) {
  const Topology& topo = net.topology();
  const SenderQp& q = net.qp(f.id);
  const Port& nic = net.nic(f.src).port;
  FlowWait w;
  w.flow = f.id;
  w.stalled = true;
  w.src = topo.node_name(f.src);
  w.dst = topo.node_name(f.dst);
  w.size_bytes = f.size_bytes;
  w.acked_bytes = q.snd_una;
  w.sent_bytes = q.max_sent;
  w.delivered_bytes = delivered;
  w.in_flight_bytes = in_flight;
  w.last_progress_ps = last_progress;
  w.waits_for = wait_name(q, wait);
  w.why = why;
  if (end == RunEnd::kDrained)
    w.why += format_sim_time(end_ps);
  else if (!deadlocked)
    w.why += format_sim_time(last_progress);
  switch (wait) {
    case Wait::kAck:
      w.detail = "all " + b(f.size_bytes) + " sent, " + b(q.snd_una) + " acknowledged, " + b(delivered) +
                 " delivered";
      break;
    case Wait::kGate:
      w.detail =
          "send gate at " + b(q.send_limit_bytes) + " of " + b(f.size_bytes) + ", " + b(q.snd_nxt) + " sent";
      break;
    case Wait::kPaused:
      w.detail = "priority " + std::to_string(q.priority) + " of " + port_text(net, nic) + " paused by " +
                 port_text(net, net.peer_of(nic)) + " since " + format_sim_time(nic.paused_since(q.priority));
      break;
    case Wait::kWindow:
      w.detail = "window " + b(q.window()) + " full: " + b(q.in_flight()) + " unacknowledged";
      break;
    case Wait::kPacing: {
      char buf[96];
      std::snprintf(buf, sizeof buf, "rate %.6g b/s, next packet at ", q.rate_bps);
      w.detail = buf + format_sim_time(q.next_avail_ps);
      break;
    }
    case Wait::kNothing:
      w.detail = "it may send now, and did not";
      break;
  }
  w.detail += "; " + b(w.in_flight_bytes) + " in flight";
  if (paused_on_path.found)
    w.detail += "; its path is paused at " + topo.node_name(paused_on_path.node) + " port " +
                std::to_string(paused_on_path.port) + " (to " +
                topo.node_name(net.peer_node(paused_on_path.node, paused_on_path.port)) + ") priority " +
                std::to_string(q.priority) + " since " + format_sim_time(paused_on_path.since) +
                (deadlocked ? ", in a PFC deadlock" : "");
  return w;
}

}  // namespace

UnfinishedReport classify_unfinished(const Network& net, RunEnd end, TimePs end_ps, TimePs stall_after_ps,
                                     const PacketCensus* census, const DeadlockDetector* deadlocks) {
  UnfinishedReport r;
  r.end = end;
  r.end_ps = end_ps;
  r.stall_after_ps = stall_after_ps;
  const Topology& topo = net.topology();
  for (const Flow& f : net.flows()) {
    if (net.finish_ps(f.id) != kTimeNever) continue;
    if (f.start_ps > end_ps) {
      ++r.not_started;
      continue;
    }
    const SenderQp& q = net.qp(f.id);
    const ReceiverContext& rx = net.receiver(f.id);
    const Wait wait = wait_of(net, f, end_ps);
    ++r.waiting_for[wait_name(q, wait)];
    const TimePs last_progress = std::max({f.start_ps, rx.last_delivery_ps, q.last_progress_ps});
    bool deadlocked = false;
    const PathPause paused_on_path = first_paused_on_path(
        net, f,
        [&](std::uint32_t node, std::uint16_t port) {
          const Port& p = net.switch_at(node - topo.hosts).ports[port];
          return p.paused(q.priority) ? p.paused_since(q.priority) : kTimeNever;
        },
        deadlocks, q.priority, deadlocked);
    const char* why = nullptr;
    if (end == RunEnd::kDrained)
      why = "no event left: the event queue drained at ";
    else if (deadlocked)
      why = "its path runs through a PFC deadlock";
    else if (end_ps - last_progress >= stall_after_ps)
      why = "nothing delivered or acknowledged since ";
    if (!why) {
      ++r.active;
      continue;
    }
    ++r.stalled;
    if (r.stalls.size() >= UnfinishedReport::kMaxListed) continue;
    const Bytes in_flight = census && f.id < census->flow_bytes.size() ? census->flow_bytes[f.id] : 0;
    r.stalls.push_back(describe_stall(net, f, end, end_ps, wait, why, deadlocked, last_progress, rx.expected,
                                      in_flight, paused_on_path));
  }
  return r;
}

PausedPorts paused_ports_here(const Network& net) {
  const Topology& topo = net.topology();
  PausedPorts r;
  r.first_port = first_port_of_nodes(topo);
  for (std::uint32_t s = 0; s < net.switch_count(); ++s)
    if (net.has_switch(s))
      for (const Port& p : net.switch_at(s).ports)
        for (std::uint8_t q = 0; q < kPriorities; ++q)
          if (p.paused(q))
            r.paused.emplace_back((std::size_t{r.first_port[p.node]} + p.index) * kPriorities + q,
                                  p.paused_since(q));
  return r;
}

UnfinishedReport classify_unfinished_over_ranks(const Network& net, RankLink& link, RunEnd end, TimePs end_ps,
                                                TimePs stall_after_ps, const FabricChecker& checker,
                                                const PausedPorts& paused_here) {
  UnfinishedReport r;
  r.end = end;
  r.end_ps = end_ps;
  r.stall_after_ps = stall_after_ps;
  const Topology& topo = net.topology();
  const std::size_t n = net.flows().size();
  // The last progress of each flow: its sender's (acknowledged) on one rank, its receiver's (delivered) on
  // another; the maximum over ranks.
  std::vector<std::uint64_t> progress(n, 0);
  for (const Flow& f : net.flows()) {
    if (net.finish_ps(f.id) != kTimeNever || f.start_ps > end_ps) continue;
    TimePs t = f.start_ps;
    if (net.is_local(f.src)) t = std::max(t, net.qp(f.id).last_progress_ps);
    if (net.is_local(f.dst)) t = std::max(t, net.receiver(f.id).last_delivery_ps);
    progress[f.id] = t;
  }
  link.all_max(progress);
  // Each sender's rank classifies its flows; the counts are summed, the names merged on rank 0.
  std::uint64_t counts[3] = {0, 0, 0};  // active, stalled, not started
  std::string names;
  std::vector<std::uint32_t> stalled;
  for (const Flow& f : net.flows()) {
    if (net.finish_ps(f.id) != kTimeNever || !net.is_local(f.src)) continue;
    if (f.start_ps > end_ps) {
      ++counts[2];
      continue;
    }
    names += wait_name(net.qp(f.id), wait_of(net, f, end_ps));
    names += '\n';
    const bool stall = end == RunEnd::kDrained || end_ps - progress[f.id] >= stall_after_ps;
    ++counts[stall ? 1 : 0];
    if (stall) stalled.push_back(f.id);
  }
  link.all_sum(counts);
  r.active = counts[0];
  r.stalled = counts[1];
  r.not_started = counts[2];
  const std::vector<RankMessage> all = link.gather(RankMessage(names.begin(), names.end()));
  for (const RankMessage& m : all) {
    std::size_t at = 0;
    for (std::size_t i = 0; i < m.size(); ++i)
      if (m[i] == '\n') {
        ++r.waiting_for[std::string(m.begin() + static_cast<std::ptrdiff_t>(at),
                                    m.begin() + static_cast<std::ptrdiff_t>(i))];
        at = i + 1;
      }
  }
  if (r.stalled == 0) return r;
  // The listing: each sender's rank describes its stalled flows (the first kMaxListed by id over ranks), with
  // the pauses on their paths as every rank saw them (when each switch port's priorities were paused: the
  // latest over ranks, + 1 so that 0 means not paused).
  const std::vector<std::uint32_t>& first_port = paused_here.first_port;
  std::vector<std::uint64_t> paused(std::size_t{first_port.back()} * kPriorities, 0);
  for (const auto& [at, since] : paused_here.paused) paused[at] = since + 1;
  link.all_max(paused);
  // Only the first kMaxListed stalled flows by id are described: their ids, over ranks.
  std::vector<std::uint64_t> listed(n, 0);
  for (std::uint32_t id : stalled) listed[id] = 1;
  link.all_sum(listed);
  std::vector<bool> describe(n, false);
  for (std::size_t id = 0, k = 0; id < n && k < UnfinishedReport::kMaxListed; ++id)
    if (listed[id]) {
      describe[id] = true;
      ++k;
    }
  RankMessage mine;
  for (std::uint32_t id : stalled) {
    if (!describe[id]) continue;
    const Flow& f = net.flow(id);
    const SenderQp& q = net.qp(id);
    const Wait wait = wait_of(net, f, end_ps);
    const char* why = end == RunEnd::kDrained ? "no event left: the event queue drained at "
                                              : "nothing delivered or acknowledged since ";
    bool deadlocked = false;
    const PathPause on_path = first_paused_on_path(
        net, f,
        [&](std::uint32_t node, std::uint16_t port) {
          const std::uint64_t v = paused[(std::size_t{first_port[node]} + port) * kPriorities + q.priority];
          return v ? v - 1 : kTimeNever;
        },
        nullptr, q.priority, deadlocked);
    const FlowWait w = describe_stall(net, f, end, end_ps, wait, why, false, progress[id],
                                      checker.delivered_bytes(id), checker.in_flight_bytes(id), on_path);
    put_u64(mine, w.flow);
    for (std::uint64_t v :
         {w.last_progress_ps, w.acked_bytes, w.sent_bytes, w.delivered_bytes, w.in_flight_bytes})
      put_u64(mine, v);
    put_text(mine, w.why);
    put_text(mine, w.waits_for);
    put_text(mine, w.detail);
  }
  for (const RankMessage& m : link.gather(mine)) {
    std::size_t at = 0;
    while (at < m.size()) {
      FlowWait w;
      w.flow = static_cast<std::uint32_t>(get_u64(m, at));
      const Flow& f = net.flow(w.flow);
      w.stalled = true;
      w.src = topo.node_name(f.src);
      w.dst = topo.node_name(f.dst);
      w.size_bytes = f.size_bytes;
      w.last_progress_ps = get_u64(m, at);
      w.acked_bytes = get_u64(m, at);
      w.sent_bytes = get_u64(m, at);
      w.delivered_bytes = get_u64(m, at);
      w.in_flight_bytes = get_u64(m, at);
      w.why = get_text(m, at);
      w.waits_for = get_text(m, at);
      w.detail = get_text(m, at);
      r.stalls.push_back(std::move(w));
    }
  }
  std::sort(r.stalls.begin(), r.stalls.end(),
            [](const FlowWait& a, const FlowWait& b) { return a.flow < b.flow; });
  return r;
}

}  // namespace lossless
