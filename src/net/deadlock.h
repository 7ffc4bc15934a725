// PFC deadlock detection (README "Stalls and PFC deadlocks"). A switch port X is paused at priority q by the
// switch N at its other end because N's ingress from X is full; the packets of that ingress wait in N's
// egress queues, and if one of them waits at a port Y of N that is itself paused at q, X waits on Y. When
// these waits close a cycle, no port of the cycle can send until one of them is resumed from outside the
// cycle: a PFC deadlock (Hu et al., "Deadlocks in Datacenter Networks: Why Do They Form, and How to Avoid
// Them", HotNets'16: a cyclic buffer dependency).
//
// A cycle needs a cycle of possible turns (ingress port -> egress port) among the links between switches —
// the channel dependency graph of the routes (Dally and Seitz). Routes are shortest paths, so the turns are
// known from the routing table before the run: fabrics whose graph has no cycle (leaf-spine, fat tree: up and
// down) cannot deadlock and are not watched (from their first pause between switches on: the graph is built
// then). Otherwise every pause and resume of a port between two switches is logged (net/port.h,
// PauseTransition) and, between windows (when no partition runs), the
// detector looks for a cycle through each port paused since: X -> Y when Y is a port of X's downstream
// switch, paused at the same priority, whose queue holds a packet that arrived from X. Ports that stay paused
// are looked at again every few windows (a packet in flight when the pause began may close the cycle later).
// A cycle is reported once, when found: its ports, priority, when it formed (the latest of its pauses to
// begin) and, later, when it was resolved (one of its ports resumed), or never.
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "core/time.h"
#include "net/port.h"

namespace lossless {

class Network;

struct DeadlockHop {
  std::uint32_t node;  // the switch whose egress port is paused
  std::uint16_t port;
  std::uint32_t peer;  // the switch at the other end, which paused it
  TimePs paused_since_ps;
  std::string name, peer_name;  // of node and peer (s<j>)
};

struct DeadlockReport {
  std::uint8_t priority = 0;
  TimePs formed_ps = 0;             // when the last of its ports was paused
  TimePs detected_ps = 0;           // the end of the window in which it was found
  TimePs resolved_ps = kTimeNever;  // when one of its ports resumed; kTimeNever: in force at the end
  std::vector<DeadlockHop> cycle;   // each hop's peer is the next hop's switch
};

class DeadlockDetector {
 public:
  // Reports kept (further cycles are counted only).
  static constexpr std::size_t kMaxReports = 1000;
  static constexpr std::size_t kNotKept = ~std::size_t{0};

  explicit DeadlockDetector(Network& net);
  DeadlockDetector(const DeadlockDetector&) = delete;
  DeadlockDetector& operator=(const DeadlockDetector&) = delete;
  ~DeadlockDetector();

  // Whether the routes can form a cyclic buffer dependency (false: nothing is watched). Worked out from the
  // routing table when first asked (at_window_end asks when the first pause between switches comes).
  bool watching();
  // Whether partition `i` has something for at_window_end (pause changes it logged), or a recheck is due.
  bool wants(std::size_t partition, TimePs end_ps) const;
  // Takes in the pause changes logged up to `end_ps` and looks for cycles; returns the indices (in reports())
  // of the cycles found now.
  std::vector<std::size_t> at_window_end(TimePs end_ps);

  const std::vector<DeadlockReport>& reports() const { return reports_; }
  std::uint64_t cycles_found() const { return found_; }
  // Whether `port`'s priority `prio` is part of a cycle still in force.
  bool in_live_cycle(const Port* port, std::uint8_t prio) const { return live_.count(key(port, prio)) > 0; }

 private:
  struct Key {
    std::uint32_t node;
    std::uint16_t port;
    std::uint8_t prio;
    bool operator<(const Key& o) const {
      return node != o.node ? node < o.node : port != o.port ? port < o.port : prio < o.prio;
    }
  };
  static Key key(const Port* p, std::uint8_t prio) { return {p->node, p->index, prio}; }
  bool build_turns();
  void stop_logging();
  bool turn(std::uint32_t s, std::uint16_t in, std::uint16_t out) const;
  bool holds_from(const Port& y, std::uint16_t in_port, std::uint8_t prio);
  bool search(const Port* start, std::uint8_t prio, std::vector<const Port*>& cycle);
  void report(const std::vector<const Port*>& cycle, std::uint8_t prio, TimePs end_ps);

  Network& net_;
  bool turns_built_ = false;
  bool watching_ = false;
  // Per switch: its ports that lead to switches (compact index), and the possible turns among them.
  std::vector<std::vector<std::int32_t>> link_index_;  // port -> index among switch-facing ports, or -1
  std::vector<std::size_t> link_count_;                // switch-facing ports per switch
  std::vector<std::vector<bool>> turns_;               // [in index x count + out index]
  std::vector<std::vector<PauseTransition>> logs_;     // per partition
  std::map<Key, const Port*> pending_;                 // paused, not in a cycle found so far
  struct LiveCycle {
    std::vector<std::pair<Key, const Port*>> ports;
    std::size_t report;  // index in reports_, or kNotKept
  };
  std::vector<LiveCycle> cycles_;    // every cycle found (its ports stay listed once resolved)
  std::map<Key, std::size_t> live_;  // a port in a cycle still in force: the cycle's index in cycles_
  std::map<std::pair<const Port*, std::uint32_t>, bool> holds_memo_;  // per call of at_window_end
  std::vector<DeadlockReport> reports_;
  std::uint64_t found_ = 0;
  TimePs recheck_ps_ = 0;
  TimePs recheck_interval_ps_ = 0;
};

}  // namespace lossless
