#include "net/stalls.h"

#include <algorithm>
#include <cinttypes>
#include <cstddef>
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
    const Wait wait = wait_of(net, f, end_ps);
    const Bytes win = q.window();
    const char* waits_for = wait_name(q, wait);
    ++r.waiting_for[waits_for];
    const TimePs last_progress = std::max({f.start_ps, rx.last_delivery_ps, q.last_progress_ps});
    bool deadlocked = false;
    const Port* paused_on_path = first_paused_on_path(net, f, q.priority, deadlocks, deadlocked);
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
    // The listed ones in words.
    FlowWait w;
    w.flow = f.id;
    w.stalled = true;
    w.src = topo.node_name(f.src);
    w.dst = topo.node_name(f.dst);
    w.size_bytes = f.size_bytes;
    w.acked_bytes = q.snd_una;
    w.sent_bytes = q.max_sent;
    w.delivered_bytes = rx.expected;
    w.in_flight_bytes = census && f.id < census->flow_bytes.size() ? census->flow_bytes[f.id] : 0;
    w.last_progress_ps = last_progress;
    w.waits_for = waits_for;
    w.why = why;
    if (end == RunEnd::kDrained)
      w.why += format_sim_time(end_ps);
    else if (!deadlocked)
      w.why += format_sim_time(last_progress);
    switch (wait) {
      case Wait::kAck:
        w.detail = "all " + b(f.size_bytes) + " sent, " + b(q.snd_una) + " acknowledged, " + b(rx.expected) +
                   " delivered";
        break;
      case Wait::kGate:
        w.detail = "send gate at " + b(q.send_limit_bytes) + " of " + b(f.size_bytes) + ", " + b(q.snd_nxt) +
                   " sent";
        break;
      case Wait::kPaused:
        w.detail = "priority " + std::to_string(q.priority) + " of " + port_text(net, nic) + " paused by " +
                   port_text(net, *nic.peer) + " since " + format_sim_time(nic.paused_since(q.priority));
        break;
      case Wait::kWindow:
        w.detail = "window " + b(win) + " full: " + b(q.in_flight()) + " unacknowledged";
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
    if (paused_on_path)
      w.detail += "; its path is paused at " + port_text(net, *paused_on_path) + " (to " +
                  topo.node_name(net.peer_node(paused_on_path->node, paused_on_path->index)) + ") priority " +
                  std::to_string(q.priority) + " since " +
                  format_sim_time(paused_on_path->paused_since(q.priority)) +
                  (deadlocked ? ", in a PFC deadlock" : "");
    r.stalls.push_back(std::move(w));
  }
  return r;
}

UnfinishedReport classify_unfinished_over_ranks(const Network& net, RankLink& link, RunEnd end, TimePs end_ps,
                                                TimePs stall_after_ps) {
  UnfinishedReport r;
  r.end = end;
  r.end_ps = end_ps;
  r.stall_after_ps = stall_after_ps;
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
  for (const Flow& f : net.flows()) {
    if (net.finish_ps(f.id) != kTimeNever || !net.is_local(f.src)) continue;
    if (f.start_ps > end_ps) {
      ++counts[2];
      continue;
    }
    names += wait_name(net.qp(f.id), wait_of(net, f, end_ps));
    names += '\n';
    const bool stalled = end == RunEnd::kDrained || end_ps - progress[f.id] >= stall_after_ps;
    ++counts[stalled ? 1 : 0];
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
  return r;
}

}  // namespace lossless
