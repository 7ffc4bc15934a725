// Mercury's switch (He et al., J. Cloud Computing 2024; MECHANISMS.md §4): the congestion point and the
// notification point in one. Each egress port is determined or undetermined: a PFC pause makes it
// undetermined; at the resume it is determined again if more arrived during the pause than the port could
// drain in that time (truly congested) or if its queue is short, and an undetermined port becomes determined
// at the first departure T after the last check unless its queue is still long and shrinking (the queue is
// a PFC side effect draining away). A packet queued at a determined port whose queue exceeds the threshold
// is from a congested flow: its source gets a CNP with the window C x flow_bytes / total_bytes x base RTT
// from the port's flow table (the flow's bytes in the queue). Undetermined ports send nothing, which spares
// the victim flows of PFC spreading.
#pragma once
#include <cstdint>
#include <unordered_map>
#include <vector>

#include "control/mercury/mercury_cnp.h"
#include "core/params.h"
#include "core/time.h"
#include "net/switch_mechanism.h"

namespace lossless {

class Switch;
class Network;
class Port;

struct MercuryParams {
  TimePs check_period = 10 * kPsPerUs;
  TimePs cnp_interval = 10 * kPsPerUs;
  Bytes threshold = 0;           // 0 = auto: the port's switch.ecn.kmin
  TimePs base_rtt = kTimeNever;  // auto: the fabric's largest base RTT
  bool trace = false;

  // The switch is the congestion and the notification point: no RED marks (hence no receiver CNPs).
  MechanismHints hints() const {
    MechanismHints h;
    h.ecn_enabled = false;
    return h;
  }
  template <class V>
  void visit(V& v) {
    v.time("check_period", check_period,
           "T: an undetermined port re-checks its queue at the first departure T after the last check (paper "
           "10us)");
    v.time("cnp_interval", cnp_interval,
           "at most one CNP per flow per interval from each switch (our choice, MECHANISMS §4: 10us)");
    v.require(cnp_interval > 0, "cnp_interval", "must be positive");
    v.size_or_auto("threshold", threshold,
                   "congestion threshold on the port's queue; auto = the port's switch.ecn.kmin (our choice, "
                   "MECHANISMS §4)");
    v.time_or_auto(
        "base_rtt", base_rtt,
        "baseRTT of the window C x flow share x baseRTT; auto = the fabric's largest host-pair base "
        "RTT (paper: known from the topology)");
    v.flag("trace", trace, "write mercury.csv: every port state change and every CNP");
  }
};

// One egress port's state machine, apart from the switch so that its rules can be tested with scripted
// pause/resume sequences. Queue lengths are the port's data bytes.
class MercuryPortState {
 public:
  struct Setting {
    Bytes threshold_bytes = 0;
    RateBps rate_bps = 0;
    TimePs check_period_ps = 0;
  };
  MercuryPortState() = default;
  explicit MercuryPortState(const Setting& s) : s_(s) {}

  // PFC paused the port: pause_start = now, rx_bytes = 0, undetermined.
  void on_pause(TimePs now);
  // A data packet was queued at the port (counted in rx_bytes while paused).
  void on_enqueue(Bytes wire_bytes) {
    if (paused_) rx_bytes_ += wire_bytes;
  }
  // PFC resumed the port; `queue_bytes` is its queue now.
  void on_resume(TimePs now, Bytes queue_bytes);
  // A data packet left; `queue_bytes` is what remains queued.
  void on_dequeue(TimePs now, Bytes queue_bytes);

  bool paused() const { return paused_; }
  bool determined() const { return determined_; }
  // The port is truly congested: determined with a queue above the threshold.
  bool congested(Bytes queue_bytes) const { return determined_ && queue_bytes > s_.threshold_bytes; }
  const Setting& setting() const { return s_; }

 private:
  Setting s_{};
  bool determined_ = true;  // every port starts determined (paper)
  bool paused_ = false;
  TimePs pause_start_ps_ = 0;
  TimePs last_check_ps_ = 0;
  Bytes rx_bytes_ = 0;
  Bytes q_at_last_check_ = 0;
};

class MercurySwitch final : public SwitchMechanism {
 public:
  static constexpr const SlotSpec* kSlots[] = {&kMercuryCnpSlot};
  MercurySwitch(const MercuryParams& p, Switch& sw, Network& net);
  unsigned packet_hooks() const override { return kOnEnqueue | kOnDequeue | kOnPauseChange; }
  void start() override;
  void on_enqueue(const Port& egress, const Packet& p) override;
  void on_dequeue(const Port& egress, Packet& p) override;
  void on_pause_change(const Port& port, std::uint8_t prio, bool paused) override;
  void write_trace(std::FILE* out) const override;
  const char* trace_header() const override {
    return p_.trace ? "time_ns,node,port,event,flow_id,bytes\n" : nullptr;
  }

  const MercuryPortState& port_state(std::size_t port) const { return ports_[port].state; }
  // Bytes of `flow` in the queue of `port` (its flow-table entry; 0 when it has none).
  Bytes flow_bytes(std::size_t port, std::uint32_t flow) const;
  std::size_t flow_entries(std::size_t port) const { return ports_[port].flows.size(); }
  std::uint64_t cnps_sent() const { return cnps_; }

 private:
  struct PortData {
    MercuryPortState state;
    std::unordered_map<std::uint32_t, Bytes> flows;  // the flow table: bytes of each flow in the queue
    Bytes total_bytes = 0;
  };
  struct TraceRow {
    TimePs time_ps;
    std::uint16_t port;
    std::uint8_t event;  // 0 determined, 1 undetermined, 2 cnp
    std::uint32_t flow;
    Bytes bytes;  // queue (state changes) or window (CNPs)
  };
  void send_cnp(const Port& egress, const PortData& d, std::uint32_t flow, Bytes flow_bytes);
  void trace_state(const Port& port, bool was_determined);

  const MercuryParams& p_;
  Switch& sw_;
  Network& net_;
  TimePs base_rtt_ps_ = 0;
  std::vector<PortData> ports_;
  std::unordered_map<std::uint32_t, TimePs> last_cnp_;  // per flow, at this switch
  std::size_t prune_at_ = 4096;
  std::uint64_t cnps_ = 0;
  std::vector<TraceRow> trace_;
  Slot<MercuryCnp> cnp_;
};

}  // namespace lossless
