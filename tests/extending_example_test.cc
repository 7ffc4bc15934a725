// The worked examples of docs/extending.md, compiled and run: a receiver-driven window (a congestion-control
// scheme with a receiver part and a per-NIC part) and a flow-control policy that pauses with a computed
// duration. The document quotes the code between the BEGIN/END marks verbatim (test
// Docs.ExtendingExamplesAreTheTestedCode).
#include <gtest/gtest.h>

#include <algorithm>

#include "test_util.h"

// BEGIN example: receiver-window
#include "control/cc_scheme.h"
#include "net/rdma_nic.h"

namespace lossless {

// Each receiver gives every flow it is receiving an equal share of its link's bandwidth-delay product; the
// share rides on every ACK and the sender keeps at most that much in flight.
struct ReceiverWindowParams {
  double share_of_bdp = 1.0;
  template <class V>
  void visit(V& v) {
    v.real("share_of_bdp", share_of_bdp, "the window all flows of a receiver share, in BDPs", 0.1, 100);
  }
};

// What an ACK (or NACK) carries: the scheme's packet slot. The run lays it out beside the slots of the other
// schemes it selects; only parts that bind it reach those bytes.
struct WindowField {
  Bytes window_bytes;
};
inline constexpr PacketSlot<WindowField> kWindowField{"example_receiver_window.window", {"ack", "nack"}};

// Per receiving NIC: how many flows it is receiving now.
class ReceiverWindowNic final : public NicControl {
 public:
  ReceiverWindowNic(const ReceiverWindowParams&, RdmaNic&, const CcEnv&) {}
  std::uint32_t active_flows = 0;
};

// Per flow, at its receiver.
class ReceiverWindowReceiver final : public ReceiverControl {
 public:
  ReceiverWindowReceiver(const ReceiverWindowParams& p, ReceiverContext&, const Flow& flow, const CcEnv& env)
      : nic_(static_cast<ReceiverWindowNic&>(*env.host_nic.control())),
        flow_bytes_(flow.size_bytes),
        mtu_bytes_(env.nic.mtu_bytes),
        shared_bytes_(p.share_of_bdp * static_cast<double>(env.max_bdp_bytes)),
        window_(env.slots.bind(kWindowField)) {}

  void on_data(const Packet& data) override {
    if (!counted_) {
      counted_ = true;
      ++nic_.active_flows;
    }
    if (data.seq + data.payload_bytes >= flow_bytes_ && !done_) {
      done_ = true;
      --nic_.active_flows;
    }
  }
  void on_ack(Packet& ack) override {
    const double share = shared_bytes_ / std::max<std::uint32_t>(nic_.active_flows, 1);
    ack.ext_init(window_).window_bytes = std::max(static_cast<Bytes>(share), mtu_bytes_);
  }

 private:
  ReceiverWindowNic& nic_;
  Bytes flow_bytes_, mtu_bytes_;
  double shared_bytes_;
  Slot<WindowField> window_;
  bool counted_ = false, done_ = false;
};

// Per flow, at its sender: the window from the latest ACK (until the first, one BDP).
class ReceiverWindowSender final : public CongestionControl {
 public:
  ReceiverWindowSender(const ReceiverWindowParams&, SenderQp& qp, const CcEnv& env)
      : qp_(qp), window_(env.slots.bind(kWindowField)) {
    qp.window_bytes = env.max_bdp_bytes;
  }
  void on_ack(const Packet& ack) override {
    if (ack.type == PacketType::kAck) qp_.window_bytes = ack.ext(window_).window_bytes;
  }

 private:
  SenderQp& qp_;
  Slot<WindowField> window_;
};

struct ReceiverWindow {
  using Params = ReceiverWindowParams;
  using Sender = ReceiverWindowSender;
  using Receiver = ReceiverWindowReceiver;
  using Nic = ReceiverWindowNic;
  static constexpr const SlotSpec* kSlots[] = {&kWindowField};  // the slots its parts bind
};

LOSSLESS_REGISTER_CC_PARTS(ReceiverWindow, "example_receiver_window",
                           "docs/extending.md: a receiver shares its BDP among its flows");

}  // namespace lossless
// END example: receiver-window

// BEGIN example: timed-pause
#include "control/switch_schemes.h"
#include "net/switch.h"

namespace lossless {

// Pauses an ingress (port, priority) when the buffer says it crossed its threshold, for as long as the bytes
// it holds take to leave at the link's rate. Half-way through, it pauses again if the ingress is still over
// its threshold; otherwise the pause runs out by itself: no resume frame is ever sent.
class TimedPause final : public FlowControlPolicy {
 public:
  static constexpr bool kLossless = true;
  TimedPause(const NoParams&, Switch& sw) : sw_(sw) {}

  template <class Buffer>
  void after_admit(Switch&, Buffer& buf, std::uint16_t port, std::uint8_t prio, const Packet&,
                   std::uint16_t) {
    if (buf.should_pause(port, prio)) pause(port, prio);  // false while a pause of ours runs
  }
  template <class Buffer>
  void after_release(Switch&, Buffer&, std::uint16_t, std::uint8_t, const Packet&, std::uint16_t) {}

 private:
  void pause(std::uint16_t port, std::uint8_t prio) {
    const Bytes held = sw_.buffer().ingress_bytes(port, prio);
    const auto quanta = static_cast<std::uint16_t>(std::min<Bytes>(held * 8 / 512 + 1, 65535));
    sw_.buffer().set_paused(port, prio, true);
    sw_.queue_pause_frame(port, prio, quanta);
    const TimePs duration = sw_.ports[port].clock().tx_time(std::uint64_t{quanta} * 64);
    sw_.sim().after(duration / 2, &TimedPause::half_way, this, (std::uint64_t{port} << 3) | prio);
    sw_.ports[port].kick_or_wait();
  }
  static void half_way(void* self, std::uint64_t slot) {
    auto* policy = static_cast<TimedPause*>(self);
    const auto port = static_cast<std::uint16_t>(slot >> 3);
    const auto prio = static_cast<std::uint8_t>(slot & 7);
    policy->sw_.buffer().set_paused(port, prio, false);
    if (policy->sw_.buffer().should_pause(port, prio)) policy->pause(port, prio);
  }

  Switch& sw_;
};

LOSSLESS_REGISTER_FLOW_CONTROL(NoParams, TimedPause, "example_timed_pause", "",
                               "docs/extending.md: pauses for the time the held bytes take to leave");

}  // namespace lossless
// END example: timed-pause

namespace lossless::test {
namespace {

constexpr const char* kIncast = R"(
topology: {type: star, hosts: 9, host_link: {rate: 100Gbps, delay: 1us}}
switch: {buffer: 2MB}
cc: {algorithm: none}
workload: [{type: incast, receiver: 0, senders: 1-8, size: 500KB, start: 0}]
monitor: {queues: {interval: 1us, where: ["s0:0"]}}
)";

double max_queue(const RunOutput& out) {
  double q = 0;
  for (const auto& row : out.csv("queues.csv")) q = std::max(q, num(row, "bytes"));
  return q;
}

TEST(ExtendingExample, TheReceiverWindowKeepsTheIncastQueueNearOneBdp) {
  auto plain = run_yaml(kIncast, "example_none");
  auto shared = run_yaml(kIncast, "example_window", {{"cc.algorithm", "example_receiver_window"}});
  EXPECT_EQ(shared.result.flows_completed, 8u);
  EXPECT_GT(plain.result.counters.pause_frames, 0u);
  EXPECT_EQ(shared.result.counters.pause_frames, 0u);
  // One BDP of this star (2 hops, 100G) is ~63 KB: the senders' first windows, then the shares.
  EXPECT_GT(max_queue(plain), 400'000);
  EXPECT_LT(max_queue(shared), 8 * 70'000);
  // The receiver link stays busy: the last flow ends within 5 % of the link's time for all the bytes.
  double last = 0;
  for (const auto& row : shared.csv("fct.csv")) last = std::max(last, num(row, "finish_ns"));
  EXPECT_LT(last, 1.05 * 8 * 500 * 1048 * 8 / 100.0 + 10'000);
}

TEST(ExtendingExample, TimedPausesExpireByThemselves) {
  auto out = run_yaml(kIncast, "example_timed", {{"switch.flow_control", "example_timed_pause"}});
  const auto& c = out.result.counters;
  EXPECT_EQ(out.result.flows_completed, 8u);
  EXPECT_EQ(c.drops, 0u);
  EXPECT_GT(c.pause_frames, 0u);
  EXPECT_EQ(c.resume_frames, 0u);
  EXPECT_GT(c.pause_expiries, 0u);
  for (const auto& row : out.csv("pfc.csv")) {
    EXPECT_EQ(row.at("event"), "pause");
    EXPECT_LT(num(row, "quanta"), 65535);
  }
}

}  // namespace
}  // namespace lossless::test
