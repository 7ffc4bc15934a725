// The invariants of a fabric (README "Invariants"): what must hold between any two events of any run, checked
// at the end of every run and, with `--check`, periodically during it (net/run_checks.h). Each one is a check
// on the state as it stands — counters recomputed from where the packets actually are — so a scheme or a
// substrate change that loses a packet, miscounts a buffer or leaves a pause behind is caught by name:
//   flow bytes      per flow: payload sent = arrived at the receiver + on the wire or queued + dropped (each
//                   drop with its reason); nothing lost uncounted, lossless fabric or not
//   flow state      per flow: acknowledged <= sent <= size, acknowledged <= delivered <= arrived, a positive
//                   finite pacing rate
//   scheme state    the conditions a scheme declares on its windows, rates and credits (net/state_check.h)
//   queue bytes     every port's byte counters equal the packets it holds, and a switch port never holds more
//                   than its switch's memory
//   buffer          the shared buffer's counters per (ingress port, priority) equal the bytes of the packets
//                   it holds, the shared pool and each headroom stay within their sizes; any buffer holds
//                   nothing when its switch holds no packet
//   pause           a paused priority is paused by a frame whose time has not run out (every pause is
//                   resumed or expires), nothing is paused once the event queue drained, and a pause a switch
//                   holds on an ingress is in force at its upstream port or on its way there
// A violation is an internal error (exit 1): InvariantViolation names the invariant, the node, port or flow,
// and the simulated time.
// Over ranks (a fabric split over processes, net/network.h) each rank checks the ports, buffers, queue pairs
// and receivers it holds; what spans ranks comes from sums over every rank: a flow's bytes (sent on its
// sender's rank, arrived on its receiver's, in flight or dropped anywhere) and, for a pause a switch holds
// toward a port of another rank, whether that port is paused or a pause frame is on its way there.
#pragma once
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/error.h"
#include "core/time.h"

namespace lossless {

class Network;
class Port;

class InvariantViolation : public InternalError {
 public:
  InvariantViolation(const std::string& invariant, const std::string& where, TimePs at,
                     const std::string& detail);
  const std::string& invariant() const { return invariant_; }

 private:
  std::string invariant_;
};

// "1.234567 ms": a simulated time in messages, in whole nanoseconds (as summary.json's *_ns keys).
std::string format_sim_time(TimePs t);

// Where the packets of the fabric are at one moment between events: queued at a port or on a link (their
// delivery pending in an event queue).
struct PacketCensus {
  std::vector<Bytes> flow_bytes;            // payload of each flow's data packets
  std::vector<std::uint32_t> flow_packets;  // and how many
  std::vector<std::vector<Bytes>> held;  // per switch: data-priority bytes per (ingress port x 8 + priority)
  std::vector<Bytes> held_total;         // per switch: all data-priority bytes it holds
  std::unordered_map<const Port*, std::uint8_t>
      pauses_heading_to;      // pause frames on their way: bit per priority
  std::uint64_t packets = 0;  // every packet found (any kind)
};

class FabricChecker {
 public:
  explicit FabricChecker(const Network& net);
  // Checks every invariant on the fabric as it stands at `now`, when every event due at or before `now` has
  // run and none is running (between windows). `drained`: no event is left. Throws InvariantViolation.
  // Over ranks every rank calls it (collective); the sums over ranks are taken before anything is checked,
  // so a rank that finds a violation leaves no other rank waiting.
  void check(TimePs now, bool drained);
  // What the last check found (stall reports read where a flow's bytes are).
  const PacketCensus& census() const { return census_; }
  // Bytes of each flow's data dropped so far (with the last check).
  const std::vector<Bytes>& dropped_bytes() const { return dropped_; }
  // Each flow's bytes delivered in order at its receiver and in flight anywhere (over ranks: summed over
  // every rank), as of the last check.
  Bytes delivered_bytes(std::uint32_t flow) const { return flow_sums_[std::size_t{flow} * kFlowSums + 2]; }
  Bytes in_flight_bytes(std::uint32_t flow) const { return flow_sums_[std::size_t{flow} * kFlowSums + 3]; }
  std::uint64_t passes() const { return passes_; }

 private:
  void take_census();
  void collect_drops();
  void sum_flows();
  void sum_pauses_over_ranks();
  void check_flows(TimePs now) const;
  void check_ports(TimePs now, bool drained) const;
  void check_buffers(TimePs now) const;
  std::string port_name(const Port& p) const;

  const Network& net_;
  PacketCensus census_;
  std::vector<Bytes> dropped_;
  std::vector<std::size_t> drops_seen_;  // per partition: records of data_drops already counted
  // Per flow, kFlowSums values (sent, arrived, delivered, in flight bytes and packets, dropped): over ranks
  // summed over every rank.
  static constexpr std::size_t kFlowSums = 6;
  std::vector<std::uint64_t> flow_sums_;
  // Over ranks: each node's first port in a fabric-wide port numbering, and per (port, priority) whether some
  // rank sees it paused or a pause frame on its way to it.
  std::vector<std::uint32_t> first_port_;
  std::vector<std::uint64_t> pause_seen_;
  std::uint64_t passes_ = 0;
};

}  // namespace lossless
