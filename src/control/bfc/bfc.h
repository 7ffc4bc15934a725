// BFC, Backpressure Flow Control (Goyal et al., NSDI'22), `switch.flow_control: bfc`, as the authors' ns-3
// simulator does it (prateshg/BFC_NS3_NSDI2022@2d3a229; baselines-verified.md §4): per-hop, per-flow
// backpressure with a bounded number of physical queues per egress port.
//  - Queue assignment: a flow arriving at an egress port with no packet of it queued there (and none for
//    `sticky`) takes an empty, unpaused queue from a random start, else shares a pseudo-random one; a
//    direct-mapped flow table per egress port (colliding flows share an entry and its queue).
//  - Pause: a packet joining a queue whose bytes exceed Th = th_factor x C x hop_rtt / N_active (N_active:
//    the port's non-empty, unpaused queues) asks the upstream to pause the queue it came from: it sets the
//    bit of that upstream queue in the ingress port's bitmap, which stays set while any such packet is still
//    in this switch. Every `pause_frame_period` every port sends its bitmap to its neighbour, and at once
//    when a bit clears (resume). A port's queue whose id is set in the bitmap it last received is not served.
//  - Every data packet carries the id of the queue it left at the previous hop (BFC's packet slot bfc.hop); a
//    NIC gives each of its flows a queue id (BfcNic, which writes it into the flow's data packets) and obeys
//    the first switch's bitmap per flow; NICs send no bitmaps, so the last hop is never backpressured.
// Coexistence with PFC: BFC replaces PFC's per-priority pause as the mechanism that keeps queues short; with
// switch.pfc.enabled (the default) the shared buffer still pauses an ingress priority at its PFC threshold as
// a last resort against buffer overflow (the authors' simulator has an unlimited buffer and no PFC; set
// switch.pfc.enabled: false for that, and a large buffer). Hosts run without congestion control in the
// authors' setup (cc.algorithm: none); a congestion control with a NIC part of its own cannot be combined.
#pragma once
#include <array>
#include <cstdint>
#include <memory>
#include <unordered_map>
#include <vector>

#include "control/pfc/standard_pfc.h"
#include "control/scheme_entry.h"
#include "core/time.h"
#include "core/timer.h"
#include "net/congestion_control.h"
#include "net/flow_control.h"
#include "net/switch_architecture.h"

namespace lossless {

class Switch;
class RdmaNic;
struct SenderQp;

struct BfcParams {
  std::uint64_t data_queues = 31;
  double th_factor = 1.5;
  TimePs hop_rtt = kTimeNever;  // auto
  TimePs pause_frame_period = 1 * kPsPerUs;
  std::uint64_t bitmap_bits = 1024;
  TimePs sticky = 6 * kPsPerUs;
  std::uint64_t flow_table_buckets = 7200;
  std::uint64_t nic_queues = 2047;

  template <class V>
  void visit(V& v) {
    v.count("data_queues", data_queues, "physical data queues per egress port (authors: 31)", 1, 64);
    v.real("th_factor", th_factor, "Th = th_factor x port rate x hop_rtt / N_active (authors: 1.5)", 0.01,
           100);
    v.time_or_auto("hop_rtt", hop_rtt,
                   "one-hop RTT in Th; auto = 2 x the delay of the link the packet arrived on (the authors "
                   "hard-code 2us for their 1us links)");
    v.time("pause_frame_period", pause_frame_period,
           "every port sends its pause bitmap this often, and at once when a bit clears (authors: 1us)");
    v.require(pause_frame_period > 0, "pause_frame_period", "must be positive");
    v.count("bitmap_bits", bitmap_bits,
            "bits of the pause bitmap (upstream queue id mod bits); a frame is 28 B of headers + bits / 8 "
            "(authors: 1024, 156 B frames)",
            64, 1024);
    v.require(bitmap_bits % 64 == 0, "bitmap_bits", "must be a multiple of 64");
    v.time("sticky", sticky,
           "a flow keeps its queue this long after its last packet there left (authors: 6us)");
    v.count("flow_table_buckets", flow_table_buckets,
            "flow-table entries per egress port, direct-mapped, colliding flows share (authors: 7200)", 1,
            1'000'000);
    v.count("nic_queues", nic_queues,
            "queue ids a NIC hands to its flows (authors: 2047; we give the lowest free id, the authors a "
            "shuffled free list: the bitmap is per link, so either avoids aliasing up to bitmap_bits flows)",
            1, 65535);
  }
};

// The link-local frame: the sender's pause bitmap for the queues of the receiving port's side.
struct BfcBitmap {
  std::array<std::uint64_t, 16> words;
};
extern const PacketType kBfcPause;
// BFC's packet slot on its pause frames (the policy and its NIC part).
inline constexpr PacketSlot<BfcBitmap> kBfcBitmap{"bfc.bitmap", {"bfc.pause"}};
// BFC's per-hop fields of a data packet: the id of the queue it left at the previous hop (a NIC's queue id of
// its flow at the first hop), and whether it asked the previous hop to pause that queue (while it is here).
struct BfcHop {
  std::uint16_t queue;
  bool asked_pause;
};
inline constexpr PacketSlot<BfcHop> kBfcHop{"bfc.hop", {"data"}};

class Bfc;

// One egress port's physical queues (priority 0 stays in the port's own queue).
class BfcQueues final : public EgressQueues {
 public:
  BfcQueues(Bfc& bfc, const Port& port);
  bool enqueue(Packet* p, std::uint16_t in_port) override;
  Packet* dequeue(std::uint8_t paused, TimePs now, TimePs& retry_ps) override;
  Bytes bytes(std::uint8_t prio) const override { return prio_bytes_[prio]; }
  void for_each(const std::function<void(const Packet&)>& f) const override;
  // The downstream neighbour's bitmap: which of this port's queues it pauses. True if one was resumed.
  bool set_remote(const BfcBitmap& b);

  std::uint64_t paused_queues() const { return paused_; }
  std::uint64_t nonempty_queues() const { return nonempty_; }
  const PacketFifo& queue(unsigned q) const { return q_[q]; }
  // The queue a flow is assigned to (or -1 when its entry holds no packet and is not sticky).
  int queue_of(std::uint32_t flow_id) const;

 private:
  struct Entry {
    TimePs last_arrival_ps = 0;
    std::uint32_t packets = 0;
    std::uint8_t queue = 0;
    bool used = false;
  };
  std::size_t bucket(std::uint32_t flow_id) const;
  unsigned assign(std::size_t bucket_index);

  Bfc& bfc_;
  const Port& port_;
  std::vector<PacketFifo> q_;
  std::vector<Entry> table_;
  std::array<Bytes, kPriorities> prio_bytes_{};
  std::uint64_t nonempty_ = 0;
  std::uint64_t paused_ = 0;
  unsigned rr_ = 0;
  Slot<BfcHop> hop_;
};

class BfcNic;

class Bfc final : public FlowControlPolicy {
 public:
  static constexpr bool kLossless = true;
  static constexpr const SlotSpec* kSlots[] = {&kBfcBitmap, &kBfcHop};
  using Nic = BfcNic;
  Bfc(const BfcParams& p, Switch& sw);

  void start() override;
  bool on_packet(Port& in, Packet* p) override;

  template <class Buffer>
  void after_admit(Switch& sw, Buffer& buf, std::uint16_t port, std::uint8_t prio, const Packet& p,
                   std::uint16_t out) {
    if (pfc_enabled_) pfc_.after_admit(sw, buf, port, prio, p, out);
  }
  template <class Buffer>
  void after_release(Switch& sw, Buffer& buf, std::uint16_t port, std::uint8_t prio, const Packet& p,
                     std::uint16_t out) {
    if (resume_pending_) send_resumes();
    if (pfc_enabled_) pfc_.after_release(sw, buf, port, prio, p, out);
  }

  // The queue sets call these: a packet from upstream queue `id` at `in_port` asked for a pause / left.
  void request_pause(std::uint16_t in_port, std::uint16_t id);
  void release_pause(std::uint16_t in_port, std::uint16_t id);

  const BfcParams& params() const { return p_; }
  Switch& sw() { return sw_; }
  std::uint64_t salt() const { return salt_; }
  bool upstream_paused(std::uint16_t in_port, std::uint16_t id) const {
    const std::uint64_t bit = id % p_.bitmap_bits;
    return (ingress_[in_port].bitmap.words[bit / 64] >> (bit % 64)) & 1u;
  }
  std::uint32_t pause_requests(std::uint16_t in_port, std::uint16_t id) const {
    return ingress_[in_port].counters[id % p_.bitmap_bits];
  }
  BfcQueues& queues(std::uint16_t port) { return *queues_[port]; }
  std::uint64_t frames_sent() const { return frames_sent_; }

 private:
  struct Ingress {
    BfcBitmap bitmap{};
    std::vector<std::uint32_t> counters;
    bool resume_due = false;
  };
  void send_bitmap(std::uint16_t port);
  void send_resumes();
  void on_period();

  const BfcParams& p_;
  Switch& sw_;
  StandardPfc pfc_;
  bool pfc_enabled_;
  std::uint64_t salt_;
  std::uint32_t frame_bytes_;
  std::vector<Ingress> ingress_;    // per port, as the ingress of packets from its neighbour
  std::vector<BfcQueues*> queues_;  // per port, as an egress (owned by the switch)
  bool resume_pending_ = false;
  std::uint64_t frames_sent_ = 0;
  Timer period_;
  Slot<BfcBitmap> bitmap_slot_;
};

// A NIC's side of BFC: one queue id per flow, the first switch's bitmap, and round-robin among the flows it
// does not pause.
class BfcNic final : public NicControl {
 public:
  BfcNic(const BfcParams& p, RdmaNic& nic, const CcEnv& env);
  void on_packet(const Packet& p) override;
  void on_flow_start(SenderQp& qp) override;
  void on_flow_finish(SenderQp& qp) override;
  // Each data packet carries its flow's queue id to the first switch.
  void on_sent(SenderQp& qp, Packet& data) override { data.ext_init(hop_) = BfcHop{queue_of(qp), false}; }
  bool schedules_qps() const override { return true; }
  // The queue id a flow of this NIC holds (0 before it starts).
  std::uint16_t queue_of(const SenderQp& qp) const {
    const auto it = queue_.find(&qp);
    return it == queue_.end() ? 0 : it->second;
  }
  SenderQp* pick(const std::vector<SenderQp*>& active, TimePs now, TimePs& earliest) override;
  bool paused(std::uint16_t id) const {
    const std::uint64_t bit = id % bits_;
    return (bitmap_.words[bit / 64] >> (bit % 64)) & 1u;
  }

 private:
  RdmaNic& nic_;
  std::uint64_t bits_;
  std::uint16_t queues_;
  BfcBitmap bitmap_{};
  std::vector<std::uint32_t> in_use_;  // flows holding each queue id (more than one once every id is taken)
  std::uint16_t next_free_ = 0;
  std::uint32_t overflow_ = 0;
  std::size_t rr_ = 0;
  std::unordered_map<const SenderQp*, std::uint16_t> queue_;  // each started flow's queue id
  Slot<BfcBitmap> bitmap_slot_;
  Slot<BfcHop> hop_;
};

}  // namespace lossless
