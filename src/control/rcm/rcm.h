// RCM, regional congestion mitigation (Liu et al., NPC 2017; MECHANISMS.md §5), on the input-and-output-
// queued switch (`switch.architecture: voq`, control/architecture/voq.h). Four parts per switch:
//  - CRD, congestion region detection: a QCN congestion point on every queue — each VOQ (input, output) and
//    each output queue — samples arrivals every `sample_bytes` (down to a tenth of that when congested, QCN's
//    1%-10% rule) and computes Fb = Q_off + w Q_delta (paper eq. 1), quantised to 6 bits over Fb_max =
//    (1 + 2w) Q_eq (QCN's range). Fb > 0 at a VOQ sets its input's local flag and sends a congestion
//    notification (CN) upstream on that input's link: the regional degree Fb' = (1 - w_r) Fb + w_r Fb_remote
//    (eq. 2; Fb_remote: the latest CN from the output's downstream neighbour) and the harmful flows coming
//    through that input. Fb > 0 at an output queue sets the output's local flag (root congestion point). A
//    CN received on a port sets that output's remote flag (edge of the region; both flags: inside it) for
//    `remote_hold`, and its flow ids replace the port's own harmful flows (paper §3.2).
//  - CFR, congestion flow recognition: per output a CAM of `cam_depth` flow ids written cyclically with
//    packets sampled at dequeue every `cfr_sample` packets; flows in the CAM are the harmful ones — at their
//    own output those holding at least `harmful_share` times the mean share of the CAM's flows (0: all).
//  - Regional CC: per output with a flag set, a window of W = port rate x `window_period` bytes split into
//    W_c for harmful flows and W_nc = W - W_c. The first window measures W_c: what the harmful flows send in
//    it; each new Fb' then cuts it, W_c <- W_c (1 - Fb' G_d) with Fb_max G_d = 1/2 (eqs. 3-6), at most once
//    per window (when the next window starts). A harmful packet whose window share is used up (one packet
//    always may) waits in its VOQ: while another input's head may move instead (`window_mode: priority`), or
//    until the next window (`strict`). The window restarts when W bytes have moved or its period has passed.
//    It ends when the port's flags clear.
//  - SAR, switch-level adaptive routing (an adaptive RoutingPolicy the mechanism installs): while the switch
//    is in a congestion region (a local flag, or >= `sar_cn_threshold` CNs within `sar_window`), a data
//    packet of a non-harmful flow goes to the shortest-path next hop with the smallest regional degree; a
//    harmful flow (in the CAM or named by a CN at its port) keeps its path; a choice holds for `sar_hold`.
//    The paper steers "non-congested or new flows", so a flow with packets in flight may move and arrive out
//    of order (its receiver NACKs and the sender goes back N, unless nic.out_of_order is place);
//    `sar_flows: new` steers only first packets.
// End-to-end congestion control (DCQCN) stays on: RCM only acts inside the fabric.
#pragma once
#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "control/architecture/voq.h"
#include "core/rng.h"
#include "core/time.h"
#include "net/routing_policy.h"
#include "net/switch_mechanism.h"

namespace lossless {

class Switch;
class Network;

struct RcmParams {
  double q_eq_fraction = 0.25;
  double w = 2.0;
  double w_r = 0.5;
  Bytes sample_bytes = 15'000;
  std::uint64_t cam_depth = 32;
  std::uint64_t cfr_sample = 2;
  std::string cfr_sampling = "random";
  double harmful_share = 2.0;
  double harmless_share = 1.0;
  TimePs window_period = 10 * kPsPerUs;
  std::string window_mode = "priority";
  TimePs remote_hold = 20 * kPsPerUs;
  bool regional_cc = true;
  bool sar = true;
  std::uint64_t sar_cn_threshold = 3;
  TimePs sar_window = 50 * kPsPerUs;
  TimePs sar_hold = 100 * kPsPerUs;
  std::string sar_flows = "all";
  Bytes cn_size = 64;
  Bytes cn_id_size = 13;
  std::uint64_t cn_max_ids = 16;
  bool trace = false;

  // SAR steering flows under way reorders their packets (nic.rto auto arms the timeout with go-back-N).
  MechanismHints hints() const {
    MechanismHints h;
    h.moves_flows = sar && sar_flows == "all";
    return h;
  }
  template <class V>
  void visit(V& v) {
    v.real("q_eq_fraction", q_eq_fraction,
           "CRD: Q_eq, the equilibrium queue, as a fraction of switch.voq.queue_size (ours: 0.25)", 0.01, 1);
    v.real("w", w, "CRD: weight of Q_delta in Fb = Q_off + w Q_delta (paper eq. 1; ours: 2, QCN's)", 0, 100);
    v.real("w_r", w_r,
           "CRD: weight of the downstream degree, Fb' = (1 - w_r) Fb + w_r Fb_remote (eq. 2; ours: 0.5)", 0,
           1);
    v.size("sample_bytes", sample_bytes,
           "CRD: bytes of arrivals between samples of a queue, down to a tenth when congested (QCN's rule; "
           "ours: 15KB)");
    v.require(sample_bytes > 0, "sample_bytes", "must be positive");
    v.count("cam_depth", cam_depth,
            "CFR: flow ids in each output's CAM (ours: 32; MECHANISMS.md's 16 with cfr_sample 4 tells shares "
            "apart too roughly: experiments/rcm/README.md)",
            1, 1024);
    v.count("cfr_sample", cfr_sample,
            "CFR: one dequeued packet in this many is written into the CAM (ours: 2; the CAM then remembers "
            "about 64 packets, 5.4us at 100G)",
            1, 1'000'000);
    v.choice("cfr_sampling", cfr_sampling, {"random", "periodic"},
             "CFR: periodic = every cfr_sample-th packet (the paper); random = each packet with probability "
             "1/cfr_sample, so that the sample cannot alias with the round-robin of the inputs (our choice)");
    v.real(
        "harmful_share", harmful_share,
        "CFR: a CAM flow is harmful at its own output when it holds at least this multiple of the mean "
        "share of the CAM's flows (checked as each window starts); 0 with harmless_share 0 = every flow in "
        "the CAM (the paper's literal rule). Ours: 2, the paper's 'relatively high injection rate' "
        "(experiments/rcm/README.md). CNs always name every CAM flow that came through the congested input",
        0, 1000);
    v.real(
        "harmless_share", harmless_share,
        "CFR: a harmful flow stays harmful for the congestion episode until it holds less than this multiple "
        "of the mean share (ours: 1, the hysteresis that keeps a flow regional CC has slowed from being let "
        "go at once)",
        0, 1000);
    v.require(harmless_share <= harmful_share, "harmful_share", "must be at least harmless_share");
    v.time("window_period", window_period,
           "regional CC: period of the window, W = port rate x period (ours: 10us)");
    v.require(window_period > 0, "window_period", "must be positive");
    v.choice("window_mode", window_mode, {"priority", "strict"},
             "regional CC: a harmful packet beyond W_c waits while another input's packet may go instead "
             "(priority: the paper's 'increases non-congested flows' priority', our default) or until the "
             "next window even if the port idles (strict)");
    v.time("remote_hold", remote_hold,
           "how long a CN keeps its port's remote flag and flow ids (ours: 20us)");
    v.flag("regional_cc", regional_cc, "run regional CC (false: detection and CNs only)");
    v.flag("sar", sar, "run SAR adaptive routing (false: the switches keep ECMP)");
    v.count("sar_cn_threshold", sar_cn_threshold,
            "SAR: CNs received within sar_window that put a switch in a congestion region (ours: 3)", 1,
            1000);
    v.time("sar_window", sar_window, "SAR: window for counting CNs (ours: 50us)");
    v.time("sar_hold", sar_hold, "SAR: how long a flow keeps a chosen next hop (ours: 100us)");
    v.choice("sar_flows", sar_flows, {"all", "new"},
             "SAR: the flows it steers: all = new and non-harmful flows, also those with packets in flight "
             "(the paper §3.1, §3.4: 'non-congested or new flows'; a flow under way may then arrive out of "
             "order: nic.out_of_order), new = only a flow's first packet is steered and the flow keeps that "
             "next hop to its last packet (no reordering; our isolating option)");
    v.size("cn_size", cn_size, "wire bytes of a CN without flow ids (ours: 64B, a QCN CNM)");
    v.size("cn_id_size", cn_id_size, "wire bytes per flow id in a CN (an IPv4 5-tuple: 13B)");
    v.count("cn_max_ids", cn_max_ids, "most flow ids one CN carries (ours: 16)", 1, 32);
    v.flag("trace", trace, "write rcm.csv: every regional window and CN event");
  }
};

// CRD on one queue: QCN's congestion point (paper §3.2, eq. 1).
class CongestionDetector {
 public:
  struct Setting {
    Bytes q_eq;
    double w;
    Bytes sample_bytes;
    double fb_max() const { return (1.0 + 2.0 * w) * static_cast<double>(q_eq); }
  };
  static constexpr int kFbLevels = 63;  // 6-bit quantised Fb

  // A packet of `bytes` arrived and the queue holds `queue_bytes` now. True when this arrival was sampled
  // (fb(), fb_q() are new).
  bool on_arrival(Bytes bytes, Bytes queue_bytes, const Setting& s);
  // The queue emptied: not congested any more (the next sample starts from an empty queue).
  void clear() {
    fb_q_ = 0;
    q_old_ = 0;
  }
  double fb() const { return fb_; }
  // Fb quantised to 1..63 over (0, Fb_max]; 0 when Fb <= 0.
  std::uint8_t fb_q() const { return fb_q_; }
  bool congested() const { return fb_q_ > 0; }
  static std::uint8_t quantize(double fb, double fb_max);
  // Bytes of arrivals until the next sample after one with quantised Fb `fb_q` (QCN: 1% .. 10% sampling).
  static Bytes sample_interval(std::uint8_t fb_q, Bytes sample_bytes);

 private:
  std::int64_t to_sample_ = 0;  // first arrival is sampled
  Bytes q_old_ = 0;
  double fb_ = 0;
  std::uint8_t fb_q_ = 0;
};

// CFR on one output: the CAM of sampled flow ids (paper §3.3, Fig. 5).
class FlowCam {
 public:
  FlowCam() = default;
  explicit FlowCam(std::size_t depth) : entries_(depth) {}
  // Writes a sampled packet's flow (and the input it came from) at the cursor, over the oldest entry.
  void write(std::uint32_t flow, std::uint16_t in_port);
  std::size_t filled() const { return filled_; }
  std::uint32_t hits(std::uint32_t flow) const;
  bool contains(std::uint32_t flow) const { return hits(flow) > 0; }
  // Distinct flows in the CAM.
  std::size_t distinct() const { return counts_.size(); }
  // In the CAM with at least `min_share` times the mean entries of its flows (0: in the CAM at all).
  bool harmful(std::uint32_t flow, double min_share) const {
    const std::uint32_t h = hits(flow);
    return h > 0 && static_cast<double>(h) * static_cast<double>(counts_.size()) >=
                        min_share * static_cast<double>(filled_);
  }
  // f(flow, entries) for every distinct flow.
  template <class F>
  void for_each_flow(F&& f) const {
    for (const auto& c : counts_) f(c.flow, c.hits);
  }
  // Mean entries per distinct flow.
  double mean_hits() const {
    return counts_.empty() ? 0 : static_cast<double>(filled_) / static_cast<double>(counts_.size());
  }
  // Fraction of the entries whose flow `is_harmful` says is.
  template <class F>
  double share(F&& is_harmful) const {
    if (filled_ == 0) return 0;
    std::size_t n = 0;
    for (const auto& c : counts_) n += is_harmful(c.flow) ? c.hits : 0;
    return static_cast<double>(n) / static_cast<double>(filled_);
  }
  // Distinct flows of the CAM that came through `in_port` (the ids of a CN), most recent first, at most
  // `max`.
  std::vector<std::uint32_t> flows_from(std::uint16_t in_port, std::size_t max) const;

 private:
  struct Entry {
    std::uint32_t flow = 0;
    std::uint16_t in_port = 0;
  };
  struct Count {
    std::uint32_t flow, hits;
  };
  std::vector<Entry> entries_;
  std::vector<Count> counts_;  // entries per distinct flow
  std::size_t cursor_ = 0, filled_ = 0;
};

// Regional CC's window on one output (paper §3.4, eqs. 3-6).
class RegionalWindow {
 public:
  // G_d in quantised units: Fb_max G_d = 1/2.
  static constexpr double kGd = 0.5 / CongestionDetector::kFbLevels;
  // Starts at `now` with W bytes per `period`. The first window measures: nothing is held back, and what the
  // harmful flows send in it becomes W_c (paper §3.4: W_c and W_nc "are estimated by the corresponding data
  // amount sent in a time period from ... when a congestion [is] detected").
  void engage(TimePs now, Bytes w, TimePs period);
  void disengage() {
    active_ = false;
    has_new_fb_ = false;
  }
  bool active() const { return active_; }
  bool measuring() const { return measuring_; }
  // A new regional degree for this port; the next window applies it.
  void new_fb(std::uint8_t fb_q) {
    fb_q_ = fb_q;
    has_new_fb_ = true;
  }
  // This window's period has passed or W bytes have moved.
  bool due(TimePs now) const { return active_ && (now >= start_ + period_ || sent_ >= w_); }
  // Starts the next window: after the measuring one W_c = `measured_harmful` bytes; then the pending Fb, if
  // any, cuts W_c.
  void next(TimePs now, Bytes measured_harmful);
  bool may_send_harmful(Bytes bytes) const { return measuring_ || sent_c_ == 0 || sent_c_ + bytes <= w_c_; }
  void sent(Bytes bytes, bool harmful) {
    sent_ += bytes;
    if (harmful) sent_c_ += bytes;
  }
  TimePs window_end() const { return start_ + period_; }
  Bytes w() const { return w_; }
  Bytes w_c() const { return w_c_; }
  Bytes w_nc() const { return w_ - w_c_; }

 private:
  bool active_ = false, measuring_ = false;
  TimePs start_ = 0, period_ = 0;
  Bytes w_ = 0, w_c_ = 0, sent_ = 0, sent_c_ = 0;
  std::uint8_t fb_q_ = 0;
  bool has_new_fb_ = false;
};

// SAR's choices at one switch (paper §3.4). choose() gives the next hop of a data packet of `flow` while
// the switch is in a congestion region (`region`) or still holds choices; `degree(port)` is a candidate's
// regional degree Fb', `harmful(port)` whether the flow is harmful at that port (in its CAM or named by a CN
// there). The least congested candidate wins, the current next hop wins ties; a harmful flow is never moved.
//  - all flows (the paper's "non-congested or new flows"): a flow is (re)considered whenever it has no
//    choice younger than `hold`, so a flow under way moves when a less congested next hop appears; outside a
//    region an expired choice returns the flow to ECMP.
//  - new flows only (`new_only`): only a flow's first packet (`first`) is steered, in a region; its choice
//    holds until its last packet (`last`) has passed; any other packet keeps the next hop it has (the choice,
//    or ECMP), so no flow with packets in flight ever moves. (A flow that started on ECMP and goes back to
//    its first byte, a go-back-N after a loss, counts as new again.)
class SarTable {
 public:
  SarTable(TimePs hold, bool new_only) : hold_(hold), new_only_(new_only) {}
  bool empty() const { return choices_.empty(); }
  std::size_t size() const { return choices_.size(); }
  template <class Degree, class Harmful>
  std::uint16_t choose(std::uint32_t flow, bool first, bool last, std::uint16_t ecmp,
                       const std::uint16_t* cand, std::uint32_t n, bool region, TimePs now, Degree&& degree,
                       Harmful&& harmful) {
    auto it = choices_.find(flow);
    if (new_only_) {
      if (it != choices_.end()) {
        const std::uint16_t port = it->second.port;
        if (last) choices_.erase(it);
        return port;
      }
      if (!first || !region) return ecmp;
      const std::uint16_t best = least_congested(ecmp, cand, n, degree, harmful);
      if (!last) choices_[flow] = {best, kTimeNever};
      return best;
    }
    std::uint16_t current = ecmp;
    if (it != choices_.end()) {
      if (it->second.until > now) return it->second.port;
      current = it->second.port;
    }
    if (!region) {
      if (it != choices_.end()) choices_.erase(it);
      return ecmp;
    }
    const std::uint16_t best = least_congested(current, cand, n, degree, harmful);
    choices_[flow] = {best, now + hold_};
    return best;
  }

 private:
  template <class Degree, class Harmful>
  static std::uint16_t least_congested(std::uint16_t current, const std::uint16_t* cand, std::uint32_t n,
                                       Degree& degree, Harmful& harmful) {
    if (harmful(current)) return current;
    std::uint16_t best = current;
    double best_degree = degree(current);
    for (std::uint32_t i = 0; i < n; ++i) {
      const double d = degree(cand[i]);
      if (d < best_degree) {
        best = cand[i];
        best_degree = d;
      }
    }
    return best;
  }
  struct Choice {
    std::uint16_t port;
    TimePs until;
  };
  TimePs hold_;
  bool new_only_;
  std::unordered_map<std::uint32_t, Choice> choices_;
};

// What a CN carries (RCM's packet slot on its link-local CN kind).
struct RcmCnFields {
  static constexpr std::size_t kMaxIds = 32;
  std::uint8_t fb_q;
  std::uint8_t n_ids;
  std::uint32_t ids[kMaxIds];
};
inline constexpr PacketSlot<RcmCnFields> kRcmCnFields{"rcm.cn", {"rcm.cn"}};

class RcmMechanism final : public SwitchMechanism {
 public:
  static constexpr const char* kRequiredArchitecture = "voq";
  static constexpr const SlotSpec* kSlots[] = {&kRcmCnFields};
  RcmMechanism(const RcmParams& p, Switch& sw, Network& net);
  ~RcmMechanism() override;
  unsigned packet_hooks() const override { return kOnEnqueue | kOnDequeue | kOnPacket; }
  void on_enqueue(const Port& egress, const Packet& p) override;
  void on_dequeue(const Port& egress, Packet& p) override;
  bool on_packet(Port& in, Packet* p) override;
  void write_trace(std::FILE* out) const override;
  const char* trace_header() const override {
    return p_.trace ? "time_ns,node,port,event,fb_q,w_c_bytes,w_bytes,flows\n" : nullptr;
  }

  // Views for tests and SAR.
  bool local_flag(std::uint16_t port) const { return ports_[port].oq.congested(); }
  bool remote_flag(std::uint16_t port, TimePs now) const { return ports_[port].remote_until > now; }
  // Fb' of an output (quantised): its own degree combined with its downstream neighbour's.
  double regional_degree(std::uint16_t port, TimePs now) const;
  bool harmful(std::uint16_t port, std::uint32_t flow, TimePs now) const;
  // In the port's CAM or named by a CN it received (SAR never moves such a flow).
  bool seen_harmful(std::uint16_t port, std::uint32_t flow, TimePs now) const;
  bool in_region(TimePs now) const;
  const RegionalWindow& window(std::uint16_t port) const { return ports_[port].window; }
  std::uint64_t cns_sent() const { return cns_sent_; }

 private:
  class Gate;
  class Sar;
  struct PortState {
    CongestionDetector oq;  // the output queue
    FlowCam cam;
    RegionalWindow window;
    TimePs remote_until = 0;
    std::uint8_t remote_fb_q = 0;
    struct RemoteFlow {
      std::uint32_t flow;
      TimePs until;
    };
    std::vector<RemoteFlow> remote_flows;
    std::uint32_t sample_countdown = 0;  // periodic CFR
    struct Sent {
      std::uint32_t flow;
      Bytes bytes;
    };
    std::vector<Sent> measured;                // bytes per flow in the measuring window
    std::vector<std::uint32_t> harmful_flows;  // this episode's, recognised as each window starts
  };
  // Regional CC of `port` engaged or ended by its flags, its window rolled.
  void update_window(std::uint16_t port, TimePs now);
  // CFR's harmful flows of the port for the next window (with hysteresis).
  void recognize(std::uint16_t port);
  VoqGate::Verdict may_transfer(std::uint16_t port, const Packet& head, TimePs now, TimePs& retry_ps);
  void transferred(std::uint16_t port, const Packet& p, Bytes output_bytes);
  void send_cn(std::uint16_t in_port, std::uint16_t out_port, std::uint8_t fb_q);
  void set_voq_congested(std::size_t slot, bool congested);
  std::uint8_t combined(std::uint8_t local_q, std::uint16_t port, TimePs now) const;
  void trace(std::uint16_t port, const char* event, std::uint8_t fb_q, std::size_t flows);

  const RcmParams& p_;
  Switch& sw_;
  Network& net_;
  CongestionDetector::Setting voq_setting_{}, oq_setting_{};
  bool periodic_cfr_;
  bool strict_window_;
  std::vector<VoqQueues*> queues_;
  std::vector<bool> to_switch_;  // the port's peer is a switch (CNs go there)
  std::vector<PortState> ports_;
  std::vector<CongestionDetector> voq_;  // by (input, output)
  std::vector<std::uint8_t> voq_congested_;
  std::uint32_t congested_queues_ = 0;  // VOQ and output detectors with Fb > 0
  std::vector<TimePs> cn_times_;        // the latest sar_cn_threshold CN arrivals (ring)
  std::size_t cn_next_ = 0;
  std::vector<std::unique_ptr<Gate>> gates_;
  RngStream rng_;
  std::uint64_t cns_sent_ = 0;
  std::vector<std::uint32_t> scratch_ids_;
  struct TraceRow {
    TimePs time_ps;
    std::uint16_t port;
    const char* event;
    std::uint8_t fb_q;
    Bytes w_c, w;
    std::size_t flows;
  };
  std::vector<TraceRow> trace_;
  Slot<RcmCnFields> cn_;
};

}  // namespace lossless
