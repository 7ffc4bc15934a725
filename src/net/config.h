// Resolved substrate configuration (what the scenario's switch: and nic: sections become). Each section lists
// its keys once, in visit() (core/params.h): the scenario reader, `lossless list switch|nic`, the README
// table and the resolved scenario.yaml all come from there.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/rate_table.h"
#include "core/time.h"

namespace lossless {

enum class PfcThreshold : std::uint8_t { kDynamic, kStatic };

class FlowControlFactory;
class RoutingFactory;
class ArchitectureFactory;
class MarkingFactory;
class PacketLayout;
class ParamSource;

// Names of the registered switch schemes of each kind (for the choices below).
std::vector<std::string> flow_control_names();
std::vector<std::string> routing_names();
std::vector<std::string> architecture_names();
// `red` (built in) and the registered marking schemes.
std::vector<std::string> marking_names();
// The registered marking scheme `name` with its parameters from `params` (switch.ecn.<name>).
std::shared_ptr<const MarkingFactory> make_marking_scheme(const std::string& name, ParamSource& params);

struct SwitchConfig {
  Bytes buffer_bytes = 32'000'000;
  Bytes shared_buffer_bytes = 0;  // 0 = auto (buffer minus reserves and headrooms)
  std::string architecture = "shared";
  std::string flow_control = "pfc";
  bool pfc_enabled = true;
  PfcThreshold threshold = PfcThreshold::kDynamic;
  double alpha = 0.125;        // dynamic threshold factor for ports at host speed
  Bytes xoff_bytes = 320'000;  // static thresholds
  Bytes xon_bytes = 318'000;
  // Static thresholds per link rate of the ingress port (empty: xoff/xon for every port).
  std::vector<RateValue> xoff_by_rate, xon_by_rate;
  Bytes headroom_bytes = 0;  // 0 = auto: 3 x link BDP + 2 max packets, per port
  Bytes reserve_bytes = 4096;
  Bytes resume_offset_bytes = 3072;
  std::uint16_t pause_quanta = 65535;  // quanta of 512 bit times carried by a pause frame
  bool ecn_enabled = true;
  std::vector<RateValue> kmin_bytes{{100'000'000'000, 400'000}, {400'000'000'000, 1'600'000}};
  std::vector<RateValue> kmax_bytes{{100'000'000'000, 1'600'000}, {400'000'000'000, 6'400'000}};
  std::vector<RateValue> pmax{{100'000'000'000, 0.2}, {400'000'000'000, 0.2}};
  std::string ecn_marking = "red";
  std::string routing = "ecmp";
  std::string mechanism = "none";

  // The schemes the names above select, with their parameters (null: the registered scheme with its defaults;
  // Network resolves them).
  std::shared_ptr<const FlowControlFactory> flow_control_factory;
  std::shared_ptr<const RoutingFactory> routing_factory;
  std::shared_ptr<const ArchitectureFactory> architecture_factory;
  std::shared_ptr<const MarkingFactory> marking_factory;  // null: RED (ecn_marking: red)

  // The static pause / resume thresholds of an ingress port at `rate_bps`: the entry of xoff_by_rate
  // (xon_by_rate) for its rate or the nearest listed rate; without xoff_by_rate, xoff (xon); an xoff_by_rate
  // entry without an xon_by_rate resumes at its xoff minus the gap between xoff and xon.
  Bytes static_xoff(RateBps rate_bps) const;
  Bytes static_xon(RateBps rate_bps) const;

  // The flow-control policy keeps the fabric lossless (PFC headroom); otherwise switches tail-drop.
  bool lossless() const;
  // The registered policy `flow_control` selects: `pfc` with PFC disabled is a lossy switch (`none`).
  std::string flow_control_policy() const;

  template <class V>
  void visit(V& v) {
    v.size("buffer", buffer_bytes, "packet memory per switch");
    v.require(buffer_bytes > 0, "buffer", "must be positive");
    v.size_or_auto("shared_buffer", shared_buffer_bytes, "shared pool; auto = buffer - reserves - headrooms");
    v.choice("architecture", architecture, architecture_names(),
             "how the switch buffers and queues packets (`lossless list mechanisms`)");
    v.choice("flow_control", flow_control, flow_control_names(),
             "who decides pauses (`lossless list mechanisms`); none = lossy: tail drop at the threshold, "
             "drops counted; a policy's parameters are under switch.<name>");
    pfc_enabled = flow_control != "none";
    v.section("pfc", "standard PFC and the buffer thresholds", [&](auto& s) {
      s.flag("enabled", pfc_enabled,
             "send PFC pauses (default: true unless flow_control is none; false with pfc = lossy)");
      s.require(!(flow_control == "none" && pfc_enabled), "enabled",
                "PFC cannot be enabled with flow_control: none");
      std::string th = threshold == PfcThreshold::kDynamic ? "dynamic" : "static";
      s.choice("threshold", th, {"dynamic", "static"},
               "dynamic: pause when an ingress (port, priority)'s shared bytes >= alpha x free shared pool; "
               "static: pause at xoff ingress bytes, resume below xon");
      threshold = th == "dynamic" ? PfcThreshold::kDynamic : PfcThreshold::kStatic;
      s.real(
          "alpha", alpha,
          "dynamic-threshold factor for ports at host speed; doubled per doubling of port speed (as in the "
          "HPCC simulator)",
          1.0 / 1024, 64);
      s.size("xoff", xoff_bytes, "static pause threshold (ingress bytes of a port and priority)");
      s.size("xon", xon_bytes, "static resume threshold");
      s.require(xon_bytes <= xoff_bytes, "xon", "must not exceed xoff");
      s.size_table(
          "xoff_by_rate", xoff_by_rate,
          "static pause thresholds per link rate of the ingress port, e.g. {40Gbps: 500KB, 100Gbps: "
          "800KB}: a port takes its rate's entry or the nearest listed rate's (not scaled); {} = xoff "
          "for every port");
      s.size_table("xon_by_rate", xon_by_rate,
                   "static resume thresholds per link rate (as xoff_by_rate); {} = each xoff_by_rate entry "
                   "minus (xoff - xon)");
      // A pause resumes when the ingress bytes fall below xon: below 0 B they never do. (With xoff_by_rate,
      // xon only sets the gap below each entry.)
      const bool static_pfc = pfc_enabled && threshold == PfcThreshold::kStatic;
      s.require(!static_pfc || xon_bytes > 0 || !xoff_by_rate.empty() || !xon_by_rate.empty(), "xon",
                "must be above 0B with static thresholds (a pause resumes below xon: never below 0B)");
      for (const auto& e : xon_by_rate)
        s.require(!static_pfc || e.value > 0, "xon_by_rate",
                  "entries must be above 0B (a pause resumes below xon: never below 0B)");
      for (const auto& e : xoff_by_rate)
        s.require(static_xon(e.rate_bps) <= static_xoff(e.rate_bps), "xon_by_rate",
                  "must not exceed xoff_by_rate at the same rate");
      for (const auto& e : xon_by_rate)
        s.require(static_xon(e.rate_bps) <= static_xoff(e.rate_bps), "xon_by_rate",
                  "must not exceed the pause threshold at the same rate");
      s.size_or_auto("headroom", headroom_bytes,
                     "per-port headroom; auto = 3 x link BDP + 2 maximum packets; a size below what can "
                     "arrive after a pause in the worst case, 2 x link BDP + 3 maximum packets + a pause "
                     "frame, is a warning (README \"Flow control\")");
      s.size("reserve", reserve_bytes, "private bytes per (ingress port, priority)");
      s.size("resume_offset", resume_offset_bytes, "dynamic: resume when shared + offset <= threshold");
      std::uint64_t quanta = pause_quanta;
      s.count("quanta", quanta,
              "pause duration a standard pause frame carries (512-bit times); refreshed at half its duration "
              "while congestion lasts, resumed explicitly (quanta 0), expires by itself otherwise",
              1, 65535);
      pause_quanta = static_cast<std::uint16_t>(quanta);
    });
    v.section("ecn", "RED/ECN marking", [&](auto& s) {
      s.flag("enabled", ecn_enabled,
             "RED on the instantaneous egress queue of (port, priority), decided at dequeue (default: true "
             "unless the congestion control or switch.mechanism replaces it, e.g. mercury, pacc, tcd)");
      s.size_table("kmin", kmin_bytes, "per link rate; other rates scale linearly from the nearest entry");
      s.size_table("kmax", kmax_bytes, "per link rate; marking is certain above it");
      s.real_table("pmax", pmax, "marking probability at kmax (value or per-rate map)", 0, 1);
      for (const auto& e : kmin_bytes)
        s.require(per_rate_value(kmax_bytes, e.rate_bps, true) >= e.value, "kmax", "must not be below kmin");
      s.choice("marking", ecn_marking, marking_names(),
               "red: RED with kmin/kmax/pmax, inline in the packet path; another name: a registered marking "
               "scheme that marks at dequeue, its parameters under switch.ecn.<name> (`lossless list "
               "mechanisms`), e.g. pi = the PI controller of DCQCN+PI");
      if (ecn_marking != "red")
        s.scheme_section(ecn_marking.c_str(),
                         [&](ParamSource& p) { marking_factory = make_marking_scheme(ecn_marking, p); });
    });
    v.choice("routing", routing, routing_names(),
             "next hop among the shortest paths: ecmp = per-switch-seeded 5-tuple hash (one path per flow), "
             "hpcc_ecmp = the HPCC simulator's hash and next-hop order (its paths; `lossless hpcc` sets it), "
             "spray = random per packet");
    v.text("mechanism", mechanism,
           "switch-side scheme (`lossless list mechanisms`); parameters under params");
  }
};

// Fills the scheme factories a configuration names but does not hold, with the schemes' default parameters.
void resolve_switch_schemes(SwitchConfig& c);
// Lays out the packet slots of the switch configuration's schemes (resolved): flow control, routing,
// architecture and marking, in that order (net/packet_layout.h).
void lay_out_switch_slots(PacketLayout& layout, const SwitchConfig& c);

struct NicConfig {
  Bytes mtu_bytes = 1000;  // payload per packet
  Bytes data_header_bytes = 48;
  // Bytes a scheme's own header adds to every data packet beyond data_header, which the ideal FCT leaves out
  // (as the HPCC simulator's standalone FCT leaves out TIMELY's 8-B timestamp).
  Bytes data_extra_bytes = 0;
  Bytes ack_bytes = 64;
  Bytes cnp_bytes = 64;
  Bytes pfc_bytes = 64;
  Bytes int_hop_bytes = 8;  // wire bytes added per INT record (HPCC)
  std::uint32_t ack_interval = 1;
  // With ack_interval > 1: the receiver ACKs what it has counted when the interval is not complete this long
  // after its first unacknowledged packet arrived (ACK coalescing with a timer, as RNICs coalesce ACKs).
  TimePs ack_timeout_ps = 4 * kPsPerUs;
  TimePs cnp_interval_ps = 50 * kPsPerUs;  // 0: the ACK of each marked packet carries the CNP
  // false: a CNP at once on a marked packet, then at most one per interval (the DCQCN paper); true: checks
  // every interval from the flow's first packet (the DCQCN authors' ns-3, bobzhuyb/ns3-rdma)
  bool cnp_periodic = false;
  bool ack_high_priority = true;
  // ACK/NACK at the data priority in switches, but sent by the NIC even while that priority is paused (the
  // HPCC simulator's ACK_HIGH_PRIO 1, which raises ACKs only at the sending NIC).
  bool ack_unpaused_at_nic = false;
  std::uint8_t data_priority = 3;
  TimePs nack_interval_ps = 500 * kPsPerUs;  // at most one NACK per expected sequence in this interval
  TimePs rto_ps = 0;                         // retransmission timeout (go-back-N); 0 = off
  // Data beyond the expected sequence: false = NACK it (go-back-N), true = place it and acknowledge once the
  // gap fills (nic.out_of_order).
  bool place_out_of_order = false;

  // cnp_interval and rto read `auto` as kTimeNever; the scenario parser resolves them (the congestion
  // control's choice; off on a lossless fabric, 1ms when lossy).
  template <class V>
  void visit(V& v) {
    v.size("mtu", mtu_bytes, "payload bytes per packet");
    v.require(mtu_bytes > 0, "mtu", "must be at least 1 byte");
    v.require(mtu_bytes <= 65536, "mtu", "must not exceed 64KiB");
    v.size("data_header", data_header_bytes, "header bytes on each data packet");
    v.size("data_extra", data_extra_bytes,
           "wire bytes each data packet carries beyond data_header that the ideal FCT does not count (the "
           "HPCC simulator's TIMELY timestamp: 8B)");
    v.require(mtu_bytes + data_header_bytes + data_extra_bytes <= 65536 + 4096, "data_extra",
              "a data packet must stay within 68KiB on the wire");
    v.size("ack_size", ack_bytes, "wire bytes of an ACK/NACK (plus INT records it echoes)");
    v.size("cnp_size", cnp_bytes, "wire bytes of a CNP");
    v.size("pfc_size", pfc_bytes, "wire bytes of a PFC frame");
    v.size("int_hop_size", int_hop_bytes, "wire bytes per INT record (HPCC)");
    v.require(ack_bytes > 0, "ack_size", "must be positive");
    v.require(cnp_bytes > 0, "cnp_size", "must be positive");
    v.require(pfc_bytes > 0, "pfc_size", "must be positive");
    std::uint64_t every = ack_interval;
    v.count("ack_interval", every, "ACK every N data packets (and the last one)", 1, 1'000'000);
    ack_interval = static_cast<std::uint32_t>(every);
    v.time("ack_timeout", ack_timeout_ps,
           "with ack_interval > 1: an ACK for the packets counted so far when the interval is not complete "
           "this long after the first unacknowledged one arrived (a window or ACK-clocked rate that shrank "
           "below ack_interval packets would otherwise wait forever); default 4us, below a datacenter base "
           "RTT (tests/random/README.md)");
    v.require(ack_timeout_ps > 0, "ack_timeout", "must be positive (ack_interval: 1 ACKs every packet)");
    v.unused(ack_interval == 1, "ack_timeout");
    v.time_or_auto(
        "cnp_interval", cnp_interval_ps,
        "at most one CNP per flow per interval while marked packets arrive; 0 = the ACK of each "
        "marked packet carries the CNP (HPCC code); auto = the congestion control's choice (50us for "
        "DCQCN paper, 0 for DCQCN hpcc)");
    std::string timing = cnp_periodic ? "periodic" : "immediate";
    v.choice("cnp_timing", timing, {"immediate", "periodic"},
             "when the notification point sends CNPs (cnp_interval > 0): immediate = at once on a marked "
             "packet if none was sent in the last interval (the DCQCN paper); periodic = at checks every "
             "interval from the flow's first packet, if a marked packet arrived since the last check (the "
             "DCQCN authors' ns-3, bobzhuyb/ns3-rdma: the first CNP comes up to one interval after the "
             "first mark)");
    cnp_periodic = timing == "periodic";
    std::string ack = ack_high_priority ? "high" : ack_unpaused_at_nic ? "data_unpaused" : "data";
    v.choice("ack_priority", ack, {"high", "data", "data_unpaused"},
             "high (priority 0, never paused) | data (the flow's priority) | data_unpaused (the flow's "
             "priority in switches; the NIC sends them even while that priority is paused: HPCC code "
             "ACK_HIGH_PRIO 1); default: the congestion control's");
    ack_high_priority = ack == "high";
    ack_unpaused_at_nic = ack == "data_unpaused";
    std::uint64_t prio = data_priority;
    v.count("data_priority", prio, "priority of data packets", 1, 7);
    data_priority = static_cast<std::uint8_t>(prio);
    v.time("nack_interval", nack_interval_ps, "at most one NACK per expected sequence in this interval");
    std::string ooo = place_out_of_order ? "place" : "go_back_n";
    v.choice(
        "out_of_order", ooo, {"go_back_n", "place"},
        "data beyond the expected sequence: go_back_n = NACK it and drop it, the sender goes back to the "
        "NACKed sequence (RoCEv2 NICs); place = keep it and acknowledge cumulatively once the gap fills, "
        "no NACK (NICs built for adaptive routing, IRN's out-of-order placement); losses are then "
        "recovered by nic.rto only");
    place_out_of_order = ooo == "place";
    v.time_or_auto(
        "rto", rto_ps,
        "go-back-N timeout without ACK progress; 0 = off; auto = 1ms when data may be lost (lossy) or "
        "reordered with go_back_n receivers (switch.routing spray, a mechanism that moves flows under way: "
        "RCM's SAR), else off, and off when the congestion control recovers losses itself");
  }
};

// PFC headroom of a port when the scenario says `auto`: what can arrive after the pause is sent — three
// times the link's bandwidth-delay product (the HPCC simulator's rule) plus two maximum-size packets in
// serialization at either end.
inline Bytes auto_headroom_bytes(RateBps rate_bps, TimePs delay_ps, const NicConfig& nic) {
  unsigned __int128 bdp = static_cast<unsigned __int128>(rate_bps) * delay_ps / (8 * kPsPerSec);
  return static_cast<Bytes>(3 * bdp) + 2 * (nic.mtu_bytes + nic.data_header_bytes);
}

// The most that can arrive at a port after the buffer decides to pause it (the bytes its headroom must hold,
// README "Flow control"): the data packet that crossed the threshold; what the link carries in a round trip,
// 2 x rate x delay (the bytes on the wire toward the port, and those sent while the pause travels back); the
// packet the port is sending when the pause is queued behind it, and the pause frame; the packet the upstream
// is sending when the pause arrives. A maximum packet is mtu + data_header + data_extra (a scheme's INT
// records are not counted). An explicit switch.pfc.headroom below it is a warning (Scenario::warnings);
// `auto` (3 BDP + 2 packets of mtu + data_header) covers it once the link's BDP is at least a maximum packet,
// a pause frame and 2 x data_extra (89 ns at 100 Gb/s with the default sizes). Saturates at the largest Bytes
// (a delay of days).
inline Bytes pfc_headroom_needed_bytes(RateBps rate_bps, TimePs delay_ps, const NicConfig& nic) {
  const unsigned __int128 bdp = static_cast<unsigned __int128>(rate_bps) * delay_ps / (8 * kPsPerSec);
  const unsigned __int128 need =
      2 * bdp +
      3 * static_cast<unsigned __int128>(nic.mtu_bytes + nic.data_header_bytes + nic.data_extra_bytes) +
      nic.pfc_bytes;
  return need > ~Bytes{0} ? ~Bytes{0} : static_cast<Bytes>(need);
}

struct Topology;
struct TopoLink;

// The switch port of a fabric whose headroom must hold the most after a pause (pfc_headroom_needed_bytes of
// its link): switch.pfc.headroom is one size for every port, so this is the least an explicit one may be (the
// validation warning, the advice of a run that dropped packets). Every port of every switch counts, hosts'
// NIC ports not; of ports that need the same, the lowest switch, then the lowest port (port i of a node is
// its i-th link, topo/routing.h), whatever order the links are listed in. Bytes 0 and no link on a fabric
// without switches.
struct MostHeadroomNeeded {
  Bytes bytes = 0;
  std::uint32_t node = 0;  // the switch (global node id)
  std::uint32_t port = 0;
  const TopoLink* link = nullptr;  // the port's link (in topo.links)
};
MostHeadroomNeeded most_headroom_needed(const Topology& topo, const NicConfig& nic);

}  // namespace lossless
