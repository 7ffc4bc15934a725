// PACC (Zhong et al., INFOCOM'22; baselines.md §5, baselines-verified.md §5): the congested switch generates
// CNPs itself and sends them straight to the flows' sources, whose NICs run DCQCN's reaction point unchanged;
// the switch does not mark and the receivers send nothing. Verified (third-party texts): switch-generated
// CNPs, a PI controller on the queue length, a flow table, an 80 us update-and-send period, CNPs "in
// proportion to the number of congested packets", threshold-based flow discrimination and weight-based
// allocation. Everything else is reconstructed (baselines-verified.md §5.2) and a parameter: every period T
// each egress port updates x <- clip(x + a (q - q_ref)/q_ref + b (q - q_old)/q_ref, 0, 1), picks the flows
// that sent at least `flow_threshold` of the fair share (1/N) of the period's bytes, and sends them
// round(x x packets of the period) CNPs split by byte share (largest remainders), at most
// `max_cnps_per_flow` each, then clears the table.
#pragma once
#include <cstdint>
#include <unordered_map>
#include <vector>

#include "core/params.h"
#include "core/timer.h"
#include "net/switch_mechanism.h"

namespace lossless {

class Switch;
class Network;

struct PaccParams {
  TimePs period = 80 * kPsPerUs;
  Bytes q_ref = 0;  // 0 = auto: the port's switch.ecn.kmin
  double a = 0.25;
  double b = 0.5;
  double flow_threshold = 0.5;
  std::uint64_t max_cnps_per_flow = 1;

  // CNPs come from the switch: no RED marks (so the receivers' notification points stay silent).
  MechanismHints hints() const {
    MechanismHints h;
    h.defaults.set("switch.ecn.enabled", "false");
    return h;
  }
  template <class V>
  void visit(V& v) {
    v.time(
        "period", period,
        "T_update: flow-table update and CNP period (80us, the Mercury paper's statement of PACC's default)");
    v.require(period > 0, "period", "must be positive");
    v.size_or_auto("q_ref", q_ref,
                   "PI reference queue; auto = the port's switch.ecn.kmin (reconstructed, UNVERIFIED)");
    v.real("a", a,
           "PI gain on the queue's distance from q_ref, per q_ref, per period (reconstructed, UNVERIFIED)", 0,
           1000);
    v.real("b", b, "PI gain on the queue's growth in the period, per q_ref (reconstructed, UNVERIFIED)", 0,
           1000);
    v.real("flow_threshold", flow_threshold,
           "a flow gets CNPs if it sent at least this fraction of the fair share (1/N) of the period's bytes "
           "(reconstructed, UNVERIFIED)",
           0, 1000);
    v.count("max_cnps_per_flow", max_cnps_per_flow,
            "CNPs one flow can get per period (reconstructed, UNVERIFIED; 1 keeps DCQCN's NP density)", 1,
            1'000'000);
  }
};

// One egress port's controller and flow table, apart from the switch so that its rules can be tested.
class PaccPort {
 public:
  struct Setting {
    Bytes q_ref_bytes = 1;
    double a = 0, b = 0, flow_threshold = 0;
    std::uint64_t max_cnps_per_flow = 1;
  };
  struct Allocation {
    std::uint32_t flow;
    std::uint64_t cnps;
  };
  PaccPort() = default;
  explicit PaccPort(const Setting& s) : s_(s) {}

  // A data packet of `flow` was queued at the port during this period.
  void on_enqueue(std::uint32_t flow, Bytes wire_bytes) {
    Entry& e = flows_[flow];
    e.bytes += wire_bytes;
    ++e.packets;
    period_bytes_ += wire_bytes;
    ++period_packets_;
  }
  // The period ends with `queue_bytes` queued: the PI update, then the CNPs of each flow (ordered by flow
  // id), and a new period.
  const std::vector<Allocation>& end_period(Bytes queue_bytes);
  double x() const { return x_; }

 private:
  struct Entry {
    Bytes bytes = 0;
    std::uint64_t packets = 0;
  };
  Setting s_{};
  double x_ = 0;
  Bytes q_old_ = 0;
  std::unordered_map<std::uint32_t, Entry> flows_;
  Bytes period_bytes_ = 0;
  std::uint64_t period_packets_ = 0;
  std::vector<Allocation> out_;
  std::vector<std::pair<std::uint32_t, Bytes>> contributors_;  // scratch
  std::vector<double> remainders_;                             // scratch
};

class PaccSwitch final : public SwitchMechanism {
 public:
  PaccSwitch(const PaccParams& p, Switch& sw, Network& net);
  unsigned packet_hooks() const override { return kOnEnqueue; }
  void start() override;
  void on_enqueue(const Port& egress, const Packet& p) override;
  const PaccPort& port(std::size_t i) const { return ports_[i]; }
  std::uint64_t cnps_sent() const { return cnps_; }

 private:
  void on_tick();

  const PaccParams& p_;
  Switch& sw_;
  Network& net_;
  std::vector<PaccPort> ports_;
  std::uint64_t cnps_ = 0;
  Timer tick_;
};

}  // namespace lossless
