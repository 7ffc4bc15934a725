// Homa (Montazeri et al., SIGCOMM'18; baselines.md §7), as the authors' simulator HomaSimulation runs it:
// message-based and receiver-driven, over in-network priorities with strict priority at every switch egress.
//  - Sender: the first `unscheduled_bytes` (RTTbytes) of every message leave at once, at the unscheduled
//    priority its size gives (cut-offs that split the workload's unscheduled bytes evenly over the
//    unscheduled levels); the rest waits for grants (the QP's send gate) and travels at the priority each
//    grant carries. Among its messages a NIC sends the one with the fewest bytes left first (SRBF).
//  - Receiver (per NIC): SRPT over the messages it is receiving that still need grants, at most one per
//    sender; the best `overcommitment` of them are granted, each keeping RTTbytes granted but not yet
//    received. The i-th of m granted messages gets scheduled level (S - m + i) of the S scheduled levels, so
//    few messages use the lowest levels and leave the higher ones free; the last RTTbytes of a message may
//    travel at the unscheduled priority its remaining size gives (HomaSimulation's boostTailBytesPrio).
//  - A message is a flow: the receiver reassembles (packets of a message may overtake each other when
//    priorities change) and acknowledges only the last byte, so the FCT is the message's.
//  - Loss recovery (a lossy fabric): a receiver that hears nothing of an incomplete message for
//    `resend_timeout` asks for the missing range (RESEND); a sender that never heard from the receiver
//    retransmits its unscheduled bytes after twice that time (the receiver never saw the message).
// Levels: the 8 switch queues are priority 0 (grants, RESENDs, ACKs: never paused, served first) and the 7
// data priorities 1-7, which carry HomaSimulation's levels 0 (highest) .. 6: one fewer than its 8 levels.
#pragma once
#include <algorithm>
#include <array>
#include <cstdint>
#include <exception>
#include <functional>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "core/params.h"
#include "core/timer.h"
#include "net/congestion_control.h"
#include "net/queue_pair.h"
#include "net/switch_architecture.h"
#include "net/switch_mechanism.h"

namespace lossless {

class Switch;
class Network;

constexpr int kHomaLevels = kPriorities - 1;  // data priorities 1..7

extern const PacketType kHomaGrant;
extern const PacketType kHomaResend;

// What a grant carries: the sender may send below `offset`, at `priority`.
struct HomaGrantField {
  Bytes offset;
  std::uint8_t priority;
};
// What a RESEND asks for: [offset, end).
struct HomaResendField {
  Bytes offset;
  Bytes end;
};
inline constexpr PacketSlot<HomaGrantField> kHomaGrantField{"homa.grant", {"homa.grant"}};
inline constexpr PacketSlot<HomaResendField> kHomaResendField{"homa.resend", {"homa.resend"}};

// Message sizes that end each unscheduled level but the last (ascending): a message of size s uses the
// first level whose cut-off is >= s. The cut-offs split the unscheduled bytes of a size distribution (sizes
// interpolated linearly between the points of its CDF, as the workload generators sample them) evenly over
// `levels` levels.
std::vector<Bytes> homa_unscheduled_cutoffs(const std::vector<std::pair<double, double>>& cdf_points,
                                            Bytes unscheduled_bytes, unsigned levels);

struct HomaParams {
  Bytes rtt_bytes = 0;          // 0 = auto: the largest host-pair bandwidth-delay product
  Bytes unscheduled_bytes = 0;  // 0 = auto: rtt_bytes
  std::uint64_t scheduled_levels = 6;
  std::uint64_t overcommitment = 0;  // 0 = auto: scheduled_levels
  std::string cdf = "WebSearch";
  bool boost_tail = true;
  std::string loss_recovery = "auto";
  TimePs resend_timeout = kTimeNever;  // auto: 10 x the largest base RTT
  Bytes grant_bytes = 64;
  // The points of `cdf`, loaded when the parameters are read (else by the first NIC part).
  std::shared_ptr<const std::vector<std::pair<double, double>>> cdf_points;

  unsigned unscheduled_levels() const { return kHomaLevels - static_cast<unsigned>(scheduled_levels); }
  unsigned granted_messages() const {
    return static_cast<unsigned>(overcommitment ? overcommitment : scheduled_levels);
  }
  void load_cdf();

  SubstrateHints hints() const {
    SubstrateHints h;
    h.defaults.set("nic.rto", "0ns");    // RESENDs and timers, not the NIC's go-back-N timeout
    h.required_architecture = "shared";  // strict-priority queues on every port (HomaSwitch)
    return h;
  }

  template <class V>
  void visit(V& v) {
    v.size_or_auto("rtt_bytes", rtt_bytes,
                   "RTTbytes: bytes a receiver keeps granted but not received per granted message (Homa's "
                   "maxOutstandingRecvBytes); auto = the largest host-pair bandwidth-delay product");
    v.size_or_auto("unscheduled_bytes", unscheduled_bytes,
                   "bytes of each message sent without a grant; auto = rtt_bytes (HomaSimulation)");
    v.count("scheduled_levels", scheduled_levels,
            "data priorities for scheduled packets (the lowest ones); the others (7 minus this) carry "
            "unscheduled packets. HomaSimulation uses 7 of its 8 levels for WebSearch, Hadoop and "
            "CacheFollower, 6 for WebServer; here data has 7 levels (priority 0 carries grants), so 6",
            1, kHomaLevels - 1);
    v.count("overcommitment", overcommitment,
            "messages granted at once at a receiver (HomaSimulation's numSendersToKeepGranted); 0 = "
            "scheduled_levels, as in every HomaSimulation configuration",
            0, kHomaLevels - 1);
    v.require(overcommitment <= scheduled_levels, "overcommitment",
              "must not exceed scheduled_levels (each granted message has its own level)");
    v.text("cdf", cdf,
           "message-size distribution the unscheduled cut-offs are computed from (a name in data/cdf or a "
           "file path, relative to the scenario's folder, else to the working folder; resolved as an "
           "absolute path): the workload's, as Homa derives them from the workload");
    v.flag("boost_tail", boost_tail,
           "the last rtt_bytes of a scheduled message travel at the unscheduled priority their size gives "
           "when that is higher (HomaSimulation's boostTailBytesPrio = RTTbytes)");
    v.choice("loss_recovery", loss_recovery, {"auto", "on", "off"},
             "RESEND requests and timers; auto = on when the fabric is lossy (switch.flow_control: none), "
             "off when PFC keeps it lossless (nothing is lost; our choice: a timer could only fire "
             "spuriously)");
    v.time_or_auto(
        "resend_timeout", resend_timeout,
        "silence after which a receiver asks for the missing bytes of an incomplete message (and a "
        "sender retransmits unscheduled bytes nobody acknowledged); auto = 10 x the largest base "
        "RTT (our choice: the paper gives no value)");
    v.size("grant_size", grant_bytes, "wire bytes of a grant or RESEND packet (our choice: an ACK's size)");
    v.require(grant_bytes > 0, "grant_size", "must be positive");
    if constexpr (std::is_same_v<V, ParamReader>) {
      try {
        load_cdf();
      } catch (const std::exception& e) {
        v.require(false, "cdf", e.what());
      }
    }
  }
};

class HomaNic;

// Per QP at the sender.
class HomaSender final : public CongestionControl {
 public:
  HomaSender(const HomaParams& p, SenderQp& qp, const CcEnv& env);
  void on_start() override;
  void on_packet(const Packet& p) override;
  void on_sent(Packet& data) override;
  void on_finish() override { timer_.cancel(); }
  const char* send_gate_name() const override { return "grant"; }

  std::uint8_t unscheduled_priority() const { return unsched_prio_; }
  std::uint8_t scheduled_priority() const { return sched_prio_; }

 private:
  void set_next_priority();
  void on_timeout();

  SenderQp& qp_;
  Simulator& sim_;
  Bytes unsched_end_;  // bytes below this offset need no grant
  std::uint8_t unsched_prio_;
  std::uint8_t sched_prio_;
  bool recover_;
  bool heard_ = false;  // a grant or RESEND came back: the receiver knows the message
  TimePs timeout_ps_;
  Bytes resend_end_ = 0;  // going back for a RESEND: up to here, then on from resume_
  Bytes resume_ = 0;
  Timer timer_;
  Slot<HomaGrantField> grant_;
  Slot<HomaResendField> resend_;
};

// Per flow at the receiver: reassembly and the RESEND timer; scheduling is the NIC's (HomaNic).
class HomaReceiver final : public ReceiverControl {
 public:
  HomaReceiver(const HomaParams& p, ReceiverContext& rx, const Flow& flow, const CcEnv& env);
  void on_data(const Packet& data) override;
  Bytes contiguous_end(Bytes in_order_end) override;

  const Flow& flow() const { return flow_; }
  Bytes received_bytes() const { return received_; }
  Bytes granted_bytes() const { return granted_; }
  // Granted but not yet received. The NIC sends a packet whole while its first byte is below the send
  // gate (as Homa's Linux sender does; HomaSimulation grants whole packets instead), and RTTbytes need not
  // be a multiple of the MTU, so a sender may go up to a packet beyond a grant: once all of a message's
  // granted bytes have arrived, received can exceed granted, and nothing is outstanding.
  Bytes outstanding_bytes() const { return granted_ > received_ ? granted_ - received_ : 0; }
  // The NIC's scheduler extends the grant.
  void grant(Bytes offset, std::uint8_t priority);
  std::uint8_t last_grant_priority() const { return last_prio_; }
  TimePs first_arrival_ps() const { return first_ps_; }
  // Granted and received bytes within the message.
  void check_state(StateCheck& check) const override;

 private:
  void on_timeout();

  const HomaParams& p_;
  ReceiverContext& rx_;
  const Flow& flow_;
  HomaNic& nic_;
  Simulator& sim_;
  Bytes granted_;
  Bytes received_ = 0;  // distinct payload bytes
  TimePs first_ps_ = 0;
  TimePs last_arrival_ps_ = 0;
  std::uint8_t last_prio_ = 0;
  bool known_ = false;
  bool recover_;
  TimePs timeout_ps_;
  // Out-of-order data beyond the in-order end: disjoint [start, end) ranges, ascending.
  std::vector<std::pair<Bytes, Bytes>> held_;
  Timer timer_;
  Slot<HomaGrantField> grant_;
  Slot<HomaResendField> resend_;
};

// Per NIC: the sender's SRBF choice among its QPs and the receiver's grant scheduler.
class HomaNic final : public NicControl {
 public:
  HomaNic(const HomaParams& p, RdmaNic& nic, const CcEnv& env);
  bool schedules_qps() const override { return true; }
  SenderQp* pick(const std::vector<SenderQp*>& active, TimePs now, TimePs& earliest) override;

  RdmaNic& nic() { return nic_; }
  const HomaParams& params() const { return p_; }
  Bytes rtt_bytes() const { return rtt_bytes_; }
  Bytes unscheduled_bytes() const { return unsched_bytes_; }
  // The level (0 = highest) among the unscheduled levels of a message, or of the rest of one, of `size`
  // bytes.
  unsigned unscheduled_level(Bytes size) const {
    return static_cast<unsigned>(std::lower_bound(cutoffs_.begin(), cutoffs_.end(), size) - cutoffs_.begin());
  }
  const std::vector<Bytes>& cutoffs() const { return cutoffs_; }
  // A data packet of `m` arrived (and was counted): grant where SRPT says so.
  void on_arrival(HomaReceiver& m);
  // The messages being granted now, best first (tests).
  const std::vector<HomaReceiver*>& granted() const { return chosen_; }

 private:
  void schedule();

  const HomaParams& p_;
  RdmaNic& nic_;
  Bytes rtt_bytes_;
  Bytes unsched_bytes_;
  std::vector<Bytes> cutoffs_;
  std::vector<HomaReceiver*> waiting_;  // scheduled messages that still need grants
  std::vector<HomaReceiver*> chosen_;
  std::vector<std::uint32_t> senders_;  // of chosen_ (scratch)
};

// The 7 data priorities of a port served in strict priority (the lowest number first, paused ones skipped).
class StrictPriorityQueues final : public EgressQueues {
 public:
  bool enqueue(Packet* p, std::uint16_t in_port) override;
  Packet* dequeue(std::uint8_t paused, TimePs now, TimePs& retry_ps) override;
  Bytes bytes(std::uint8_t prio) const override { return q_[prio].bytes(); }
  void for_each(const std::function<void(const Packet&)>& f) const override;

 private:
  std::array<PacketFifo, kPriorities> q_;
  std::uint8_t nonempty_ = 0;
};

// Homa's switch part: every egress port of every switch serves its priorities strictly.
class HomaSwitch final : public SwitchMechanism {
 public:
  HomaSwitch(const HomaParams& p, Switch& sw, Network& net);
};

struct Homa {
  using Params = HomaParams;
  using Sender = HomaSender;
  using Receiver = HomaReceiver;
  using Nic = HomaNic;
  using SwitchPart = HomaSwitch;
  static constexpr const SlotSpec* kSlots[] = {&kHomaGrantField, &kHomaResendField};
};

}  // namespace lossless
