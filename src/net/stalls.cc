#include "net/stalls.h"

#include <cinttypes>
#include <cstdio>

#include "net/deadlock.h"
#include "net/invariants.h"
#include "net/network.h"

namespace lossless {
namespace {

std::string b(Bytes n) { return std::to_string(n) + " B"; }

// The switch port on `flow`'s path that first holds back its priority, and whether it is in a PFC deadlock
// still in force; null when none is paused (or the flow is routed per packet).
const Port* first_paused_on_path(const Network& net, const Flow& f, std::uint8_t prio,
                                 const DeadlockDetector* deadlocks, bool& deadlocked) {
  deadlocked = false;
  const std::uint16_t* route = net.forward_route(f.id);
  if (!route) return nullptr;
  const Topology& topo = net.topology();
  const Port* first = nullptr;
  std::uint32_t node = net.peer_node(f.src, 0);
  for (std::uint32_t hop = 0; !topo.is_host(node) && hop <= topo.nodes(); ++hop) {
    const Port& p = net.switch_at(node - topo.hosts).ports[route[hop]];
    if (p.paused(prio)) {
      if (!first) first = &p;
      if (deadlocks && deadlocks->in_live_cycle(&p, prio)) {
        deadlocked = true;
        return &p;
      }
    }
    node = net.peer_node(node, p.index);
  }
  return first;
}

std::string port_text(const Network& net, const Port& p) {
  const Topology& t = net.topology();
  return t.node_name(p.node) + " port " + std::to_string(p.index);
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
    const Port& nic = net.nic(f.src).port;
    FlowWait w;
    w.flow = f.id;
    w.src = topo.node_name(f.src);
    w.dst = topo.node_name(f.dst);
    w.size_bytes = f.size_bytes;
    w.acked_bytes = q.snd_una;
    w.sent_bytes = q.max_sent;
    w.delivered_bytes = rx.expected;
    w.in_flight_bytes = census && f.id < census->flow_bytes.size() ? census->flow_bytes[f.id] : 0;
    w.last_progress_ps = std::max({f.start_ps, rx.last_delivery_ps, q.last_progress_ps});
    // What holds it back, in the order of RdmaNic::may_send.
    if (q.snd_nxt >= f.size_bytes) {
      w.waits_for = "acknowledgement";
      w.detail = "all " + b(f.size_bytes) + " sent, " + b(q.snd_una) + " acknowledged, " + b(rx.expected) +
                 " delivered";
    } else if (q.snd_nxt >= q.send_limit_bytes) {
      w.waits_for = q.cc ? q.cc->send_gate_name() : "send gate";
      w.detail =
          "send gate at " + b(q.send_limit_bytes) + " of " + b(f.size_bytes) + ", " + b(q.snd_nxt) + " sent";
    } else if (nic.paused(q.priority)) {
      w.waits_for = "paused priority";
      w.detail = "priority " + std::to_string(q.priority) + " of " + port_text(net, nic) + " paused by " +
                 port_text(net, *nic.peer) + " since " + format_sim_time(nic.paused_since(q.priority));
    } else if (const Bytes win = q.window(); win && q.in_flight() >= win) {
      w.waits_for = "window";
      w.detail = "window " + b(win) + " full: " + b(q.in_flight()) + " unacknowledged";
    } else if (q.next_avail_ps > end_ps) {
      w.waits_for = "pacing";
      char buf[96];
      std::snprintf(buf, sizeof buf, "rate %.6g b/s, next packet at ", q.rate_bps);
      w.detail = buf + format_sim_time(q.next_avail_ps);
    } else {
      w.waits_for = "nothing";
      w.detail = "it may send now, and did not";
    }
    w.detail += "; " + b(w.in_flight_bytes) + " in flight";
    bool deadlocked = false;
    if (const Port* p = first_paused_on_path(net, f, q.priority, deadlocks, deadlocked))
      w.detail += "; its path is paused at " + port_text(net, *p) + " (to " +
                  topo.node_name(net.peer_node(p->node, p->index)) + ") priority " +
                  std::to_string(q.priority) + " since " + format_sim_time(p->paused_since(q.priority)) +
                  (deadlocked ? ", in a PFC deadlock" : "");
    ++r.waiting_for[w.waits_for];
    if (end == RunEnd::kDrained) {
      w.stalled = true;
      w.why = "no event left: the event queue drained at " + format_sim_time(end_ps);
    } else if (deadlocked) {
      w.stalled = true;
      w.why = "its path runs through a PFC deadlock";
    } else if (end_ps - w.last_progress_ps >= stall_after_ps) {
      w.stalled = true;
      w.why = "nothing delivered or acknowledged since " + format_sim_time(w.last_progress_ps);
    }
    if (!w.stalled) {
      ++r.active;
      continue;
    }
    ++r.stalled;
    if (r.stalls.size() < UnfinishedReport::kMaxListed) r.stalls.push_back(std::move(w));
  }
  return r;
}

}  // namespace lossless
