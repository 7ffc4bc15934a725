// The run's own checks (README "Invariants", "Stalls and PFC deadlocks"), each demonstrated by a test-only
// scheme that breaks what it checks: a queue set that loses a packet, one that miscounts its bytes, a buffer
// that forgets bytes, a flow-control policy that holds pauses it never sends, a mechanism that pauses a port
// behind PFC's back, a sender whose credits go negative, a receiver that stops granting; and a ring of
// switches whose routes deadlock under PFC beside the same load on a line, which cannot.
#include "net/invariants.h"

#include <gtest/gtest.h>

#include <deque>
#include <fstream>
#include <sstream>

#include "control/cc_scheme.h"
#include "control/mechanism_scheme.h"
#include "control/switch_schemes.h"
#include "net/network.h"
#include "net/packet_kinds.h"
#include "test_util.h"

namespace lossless {
namespace {

// The invariant a run violates and its message ("" when it runs clean).
std::pair<std::string, std::string> run_violation(const std::string& yaml, const std::string& tag) {
  try {
    test::run_yaml(yaml, tag);
  } catch (const InvariantViolation& e) {
    return {e.invariant(), e.what()};
  }
  return {"", ""};
}

// Where test::run_yaml(yaml, tag) writes its outputs.
std::string out_dir(const std::string& tag) { return test::scratch_path(tag) + "/out"; }

std::string read_file(const std::string& path) { return test::slurp(path); }

// --- A queue set (one FIFO per port) that can lose a packet or miscount its bytes.
struct FaultyQueueParams {
  std::uint64_t lose_nth = 0;  // the n-th data packet of flow `flow` the switch sees vanishes (0 = none)
  std::uint64_t flow = 0;
  bool miscount = false;  // bytes() reports one byte more than it holds while it holds anything
  template <class V>
  void visit(V& v) {
    v.count("lose_nth", lose_nth, "lose the n-th data packet of `flow`", 0, 1'000'000);
    v.count("flow", flow, "whose packet to lose", 0, 1'000'000);
    v.flag("miscount", miscount, "report one byte too many");
  }
};

class FaultyQueues final : public EgressQueues {
 public:
  FaultyQueues(const FaultyQueueParams& p, Switch& sw, std::uint64_t& seen) : p_(p), sw_(sw), seen_(seen) {}
  bool enqueue(Packet* p, std::uint16_t) override {
    if (p->type == PacketType::kData && p->flow_id == p_.flow && ++seen_ == p_.lose_nth) {
      sw_.free_packet(p);  // gone: neither queued nor counted as a drop
      return true;
    }
    q_.push_back(p);
    return true;
  }
  Packet* dequeue(std::uint8_t paused, TimePs, TimePs&) override {
    if (q_.empty() || ((paused >> q_.front()->priority) & 1u)) return nullptr;
    Packet* p = q_.front();
    q_.pop_front();
    return p;
  }
  Bytes bytes(std::uint8_t prio) const override {
    Bytes b = 0;
    for (const Packet* p : q_)
      if (p->priority == prio) b += p->wire_bytes;
    return b && p_.miscount ? b + 1 : b;
  }
  void for_each(const std::function<void(const Packet&)>& f) const override {
    for (const Packet* p : q_) f(*p);
  }

 private:
  const FaultyQueueParams& p_;
  Switch& sw_;
  std::uint64_t& seen_;
  std::deque<Packet*> q_;
};

class FaultyQueueMechanism final : public SwitchMechanism {
 public:
  FaultyQueueMechanism(const FaultyQueueParams& p, Switch& sw, Network&) : p_(p) {
    for (const Port& port : sw.ports)
      sw.set_egress_queues(port.index, std::make_unique<FaultyQueues>(p_, sw, seen_));
  }

 private:
  FaultyQueueParams p_;
  std::uint64_t seen_ = 0;
};
LOSSLESS_REGISTER_MECHANISM(FaultyQueueParams, FaultyQueueMechanism, "test_faulty_queues",
                            "test: FIFO queues that lose a packet or miscount their bytes");

constexpr const char* kIncast = R"(
topology: {type: star, hosts: 5, host_link: {rate: 100Gbps, delay: 1us}}
switch: {buffer: 2MB}
cc: {algorithm: none}
workload: [{type: incast, receiver: 0, senders: 1-4, size: 200KB, start: 0}]
)";

TEST(Invariants, AQueueSetThatLosesAPacketFiresTheFlowBytesInvariantNamingTheFlow) {
  // The 20th data packet of flow 2 vanishes at the switch. The receiver NACKs the gap and the flow recovers,
  // but its bytes do not add up.
  const std::string scenario = R"(
topology: {type: star, hosts: 5, host_link: {rate: 100Gbps, delay: 1us}}
switch: {buffer: 2MB, mechanism: test_faulty_queues, params: {lose_nth: 20, flow: 2}}
cc: {algorithm: none}
workload: [{type: incast, receiver: 0, senders: 1-4, size: 200KB, start: 0}]
)";
  auto [name, what] = run_violation(scenario, "inv_leak");
  EXPECT_EQ(name, "flow bytes");
  EXPECT_NE(what.find("invariant violated: flow bytes: flow 2 (h3 -> h0, 200000 B) at "), std::string::npos)
      << what;
  EXPECT_NE(what.find("1000 B lost uncounted"), std::string::npos) << what;
  // The outputs are written, summary.json naming the violation.
  const std::string summary = read_file(out_dir("inv_leak") + "/summary.json");
  EXPECT_NE(summary.find("\"violation\": \"invariant violated: flow bytes: flow 2"), std::string::npos)
      << summary;
  // Without the fault the same run holds every invariant.
  EXPECT_EQ(run_violation(std::string(kIncast), "inv_clean").first, "");
}

TEST(Invariants, AQueueSetThatMiscountsItsBytesFiresTheQueueBytesInvariant) {
  auto [name, what] = run_violation(R"(
topology: {type: star, hosts: 5, host_link: {rate: 100Gbps, delay: 1us}}
switch: {buffer: 2MB, mechanism: test_faulty_queues, params: {miscount: true}}
cc: {algorithm: none}
check: {interval: 5us}
workload: [{type: incast, receiver: 0, senders: 1-4, size: 200KB, start: 0}]
)",
                                    "inv_miscount");
  EXPECT_EQ(name, "queue bytes");
  EXPECT_NE(what.find("s0 port 0 (to h0) priority 3"), std::string::npos) << what;
  EXPECT_NE(what.find("the port's queue set counts"), std::string::npos) << what;
}

// --- A buffer that forgets one byte of every release: its counters never come back to zero.
class ForgetfulBuffer final : public BufferModel {
 public:
  explicit ForgetfulBuffer(const SharedBufferMmu& mmu) : mmu_(mmu) {}
  bool admit(std::uint16_t in, std::uint8_t prio, Bytes bytes, std::uint16_t out) override {
    return mmu_.admit(in, prio, bytes, out);
  }
  void release(std::uint16_t in, std::uint8_t prio, Bytes bytes, std::uint16_t out) override {
    mmu_.release(in, prio, bytes - 1, out);
  }
  bool should_pause(std::uint16_t port, std::uint8_t prio) const override {
    return mmu_.should_pause(port, prio);
  }
  bool should_resume(std::uint16_t port, std::uint8_t prio) const override {
    return mmu_.should_resume(port, prio);
  }
  void set_paused(std::uint16_t port, std::uint8_t prio, bool paused) override {
    mmu_.set_paused(port, prio, paused);
  }
  bool paused(std::uint16_t port, std::uint8_t prio) const override { return mmu_.paused(port, prio); }
  Bytes ingress_bytes(std::uint16_t port, std::uint8_t prio) const override {
    return mmu_.ingress_bytes(port, prio) + mmu_.headroom_used(port, prio);
  }
  Bytes free_bytes() const override { return mmu_.free_bytes(); }

 private:
  SharedBufferMmu mmu_;
};
struct ForgetfulArchitecture {
  static std::unique_ptr<BufferModel> buffer(const NoParams&, Switch& sw) {
    return std::make_unique<ForgetfulBuffer>(sw.mmu);
  }
  static std::unique_ptr<EgressQueues> queues(const NoParams&, Switch&, const Port&) { return nullptr; }
};
LOSSLESS_REGISTER_ARCHITECTURE(NoParams, ForgetfulArchitecture, "test_forgetful", "",
                               "test: a shared buffer that forgets a byte of every release");

TEST(Invariants, ABufferThatDoesNotComeBackToZeroWhenEmptyFiresTheBufferInvariant) {
  auto [name, what] = run_violation(R"(
topology: {type: star, hosts: 3, host_link: {rate: 100Gbps, delay: 1us}}
switch: {architecture: test_forgetful}
cc: {algorithm: none}
workload: [{type: flows, flows: [{src: 1, dst: 0, size: 10KB}]}]
)",
                                    "inv_forgetful");
  EXPECT_EQ(name, "buffer");
  EXPECT_NE(what.find("s0 ingress port 1 priority 3"), std::string::npos) << what;
  EXPECT_NE(what.find("the buffer counts 10 B held when the switch holds no packet"), std::string::npos)
      << what;
}

// --- Standard PFC's bookkeeping without its frames: the switch believes it paused its upstream.
class SilentPause final : public FlowControlPolicy {
 public:
  static constexpr bool kLossless = true;
  SilentPause(const NoParams&, Switch&) {}
  template <class Buffer>
  void after_admit(Switch&, Buffer& buf, std::uint16_t port, std::uint8_t prio, const Packet&,
                   std::uint16_t) {
    if (buf.should_pause(port, prio)) buf.set_paused(port, prio, true);
  }
  template <class Buffer>
  void after_release(Switch&, Buffer& buf, std::uint16_t port, std::uint8_t prio, const Packet&,
                     std::uint16_t) {
    if (buf.should_resume(port, prio)) buf.set_paused(port, prio, false);
  }
};
LOSSLESS_REGISTER_FLOW_CONTROL(NoParams, SilentPause, "test_silent_pause", "",
                               "test: holds pauses without sending them");

TEST(Invariants, APauseHeldButNeverSentFiresThePauseInvariant) {
  auto [name, what] = run_violation(R"(
topology: {type: star, hosts: 5, host_link: {rate: 100Gbps, delay: 1us}}
switch: {buffer: 2MB, flow_control: test_silent_pause}
cc: {algorithm: none}
check: {interval: 5us}
workload: [{type: incast, receiver: 0, senders: 1-4, size: 500KB, start: 0}]
)",
                                    "inv_silent_pause");
  EXPECT_EQ(name, "pause");
  EXPECT_NE(what.find("the switch holds a pause of its upstream h"), std::string::npos) << what;
  EXPECT_NE(what.find("no pause frame is on its way there"), std::string::npos) << what;
}

// --- A mechanism that pauses one of its switch's ports directly, with no frame (whose time would run out).
class StuckPause final : public SwitchMechanism {
 public:
  StuckPause(const NoParams&, Switch& sw, Network&)
      : sw_(sw), timer_(Timer::bind<StuckPause, &StuckPause::stick>(this)) {}
  void start() override { timer_.arm_after(sw_.sim(), 20 * kPsPerUs); }

 private:
  void stick() { sw_.ports[0].paused_mask |= 1u << 3; }
  Switch& sw_;
  Timer timer_;
};
LOSSLESS_REGISTER_MECHANISM(NoParams, StuckPause, "test_stuck_pause",
                            "test: pauses port 0 behind PFC's back");

TEST(Invariants, APausedPortWithoutAPauseInForceFiresThePauseInvariant) {
  auto [name, what] = run_violation(R"(
topology: {type: star, hosts: 3, host_link: {rate: 100Gbps, delay: 1us}}
switch: {mechanism: test_stuck_pause}
cc: {algorithm: none}
check: {interval: 10us}
workload: [{type: flows, flows: [{src: 1, dst: 0, size: 1MB}]}]
)",
                                    "inv_stuck_pause");
  EXPECT_EQ(name, "pause");
  EXPECT_NE(what.find("pause: s0 port 0 (to h0) priority 3 at 0.0"), std::string::npos) << what;
  EXPECT_NE(what.find("still paused after its pause ran out at 0.000000 ms: neither resumed nor expired"),
            std::string::npos)
      << what;
}

// --- A sender that spends credits it does not have and declares that they must not go negative.
struct CreditParams {
  double credits = 5;
  template <class V>
  void visit(V& v) {
    v.real("credits", credits, "packets it may send", -1e9, 1e9);
  }
};
class OverspendingSender final : public CongestionControl {
 public:
  OverspendingSender(const CreditParams& p, SenderQp&, const CcEnv&) : credits_(p.credits) {}
  void on_sent(Packet&) override { credits_ -= 1; }
  void check_state(StateCheck& check) const override { check.non_negative("credits", credits_); }

 private:
  double credits_;
};
LOSSLESS_REGISTER_CC(CreditParams, OverspendingSender, "test_overspending",
                     "test: credits that go negative, declared non-negative");

TEST(Invariants, ASchemeStateOutsideWhatItDeclaresFiresTheSchemeStateInvariant) {
  auto [name, what] = run_violation(R"(
topology: {type: star, hosts: 3, host_link: {rate: 100Gbps, delay: 1us}}
cc: {algorithm: test_overspending}
workload: [{type: flows, flows: [{src: 1, dst: 0, size: 100KB}]}]
)",
                                    "inv_overspending");
  EXPECT_EQ(name, "scheme state");
  EXPECT_NE(what.find("flow 0 (h1 -> h0, 100000 B) sender at"), std::string::npos) << what;
  EXPECT_NE(what.find(": credits = -95 < 0"), std::string::npos) << what;
  EXPECT_EQ(run_violation(R"(
topology: {type: star, hosts: 3, host_link: {rate: 100Gbps, delay: 1us}}
cc: {algorithm: test_overspending, params: {credits: 100}}
workload: [{type: flows, flows: [{src: 1, dst: 0, size: 100KB}]}]
)",
                          "inv_credits_enough")
                .first,
            "");
}

// --- A receiver that grants a message up to a limit and then no more; optionally it keeps a timer running
// (the event queue then never drains).
const PacketType kStingyGrant = PacketKinds::add("test.stingy_grant", PacketKinds::kEndToEnd);
inline constexpr PacketSlot<Bytes> kStingyGrantField{"test.stingy_grant", {"test.stingy_grant"}};
struct StingyParams {
  Bytes limit = 30'000;
  TimePs heartbeat = 0;  // 0: none
  template <class V>
  void visit(V& v) {
    v.size("limit", limit, "bytes granted in all");
    v.time("heartbeat", heartbeat, "period of a timer the receiver keeps running (0: none)");
  }
};
class GrantWaitingSender final : public CongestionControl {
 public:
  GrantWaitingSender(const StingyParams&, SenderQp& qp, const CcEnv& env)
      : qp_(qp), grant_(env.slots.bind(kStingyGrantField)) {
    qp.set_send_gate(0);
  }
  void on_packet(const Packet& p) override {
    if (p.type != kStingyGrant) return;
    qp_.set_send_gate(std::max(qp_.send_gate_bytes, p.ext(grant_)));
    qp_.nic->on_qp_unblocked();
  }
  const char* send_gate_name() const override { return "grant"; }

 private:
  SenderQp& qp_;
  Slot<Bytes> grant_;
};
class StingyReceiver final : public ReceiverControl {
 public:
  StingyReceiver(const StingyParams& p, ReceiverContext&, const Flow& f, const CcEnv& env)
      : p_(p),
        flow_(f),
        nic_(env.host_nic),
        sim_(env.sim),
        timer_(Timer::bind<StingyReceiver, &StingyReceiver::beat>(this)),
        grant_(env.slots.bind(kStingyGrantField)) {
    // The first grant at once (from the receiver's side: as if the message announced itself).
    timer_.arm_at(sim_, f.start_ps);
  }

 private:
  void beat() {
    if (!granted_) {
      granted_ = true;
      Packet* g = nic_.packet_for_flow(flow_.id, kStingyGrant, 64);
      g->ext_init(grant_) = std::min(p_.limit, flow_.size_bytes);
      nic_.send(g);
    }
    if (p_.heartbeat) timer_.arm_after(sim_, p_.heartbeat);
  }
  const StingyParams& p_;
  const Flow& flow_;
  RdmaNic& nic_;
  Simulator& sim_;
  Timer timer_;
  Slot<Bytes> grant_;
  bool granted_ = false;
};
struct Stingy {
  using Params = StingyParams;
  using Sender = GrantWaitingSender;
  using Receiver = StingyReceiver;
  static constexpr const SlotSpec* kSlots[] = {&kStingyGrantField};
};
LOSSLESS_REGISTER_CC_PARTS(Stingy, "test_stingy", "test: the receiver grants once, up to a limit");

TEST(Stalls, AReceiverThatStopsGrantingLeavesItsFlowStalledWaitingForAGrant) {
  auto out = test::run_yaml(R"(
topology: {type: star, hosts: 3, host_link: {rate: 100Gbps, delay: 1us}}
cc: {algorithm: test_stingy}
workload: [{type: flows, flows: [{src: 1, dst: 0, size: 100KB}, {src: 2, dst: 0, size: 20KB}]}]
)",
                            "stall_drained");
  const RunResult& r = out.result;
  EXPECT_EQ(r.flows_completed, 1u);
  EXPECT_EQ(r.unfinished.stalled, 1u);
  EXPECT_EQ(r.unfinished.active, 0u);
  EXPECT_EQ(r.unfinished.end, RunEnd::kDrained);
  ASSERT_EQ(r.unfinished.stalls.size(), 1u);
  const FlowWait& w = r.unfinished.stalls[0];
  EXPECT_EQ(w.flow, 0u);
  EXPECT_EQ(w.waits_for, "grant");
  EXPECT_EQ(w.acked_bytes, 30'000u);
  EXPECT_NE(w.why.find("the event queue drained"), std::string::npos) << w.why;
  EXPECT_NE(w.detail.find("send gate at 30000 B of 100000 B"), std::string::npos) << w.detail;
  const std::string summary = out.read("summary.json");
  EXPECT_NE(
      summary.find(
          "\"unfinished\": {\"active\": 0, \"stalled\": 1, \"not_started\": 0, \"run_end\": \"drained\""),
      std::string::npos)
      << summary;
  EXPECT_NE(summary.find("{\"flow\": 0, \"src\": \"h1\", \"dst\": \"h0\", \"size_bytes\": 100000"),
            std::string::npos)
      << summary;
  EXPECT_NE(summary.find("\"waits_for\": \"grant\""), std::string::npos) << summary;
}

TEST(Stalls, AFlowWithNothingDeliveredForStallAfterIsStalledOtherwiseActive) {
  const std::string yaml = R"(
topology: {type: star, hosts: 3, host_link: {rate: 100Gbps, delay: 1us}}
cc: {algorithm: test_stingy, params: {heartbeat: 10us}}
stop: 500us
workload: [{type: flows, flows: [{src: 1, dst: 0, size: 100KB}]}]
)";
  // The receiver's timer keeps the run going to `stop`; the flow's last delivery is at about 5 us.
  auto stalled = test::run_yaml(yaml, "stall_after", {{"check.stall_after", "100us"}});
  EXPECT_EQ(stalled.result.unfinished.end, RunEnd::kStop);
  EXPECT_EQ(stalled.result.unfinished.end_ps, 500 * kPsPerUs);
  ASSERT_EQ(stalled.result.unfinished.stalled, 1u);
  EXPECT_NE(stalled.result.unfinished.stalls[0].why.find("nothing delivered or acknowledged since 0.00"),
            std::string::npos)
      << stalled.result.unfinished.stalls[0].why;
  auto active = test::run_yaml(yaml, "stall_after_long", {{"check.stall_after", "1ms"}});
  EXPECT_EQ(active.result.unfinished.stalled, 0u);
  EXPECT_EQ(active.result.unfinished.active, 1u);
  EXPECT_EQ(active.result.unfinished.waiting_for.at("grant"), 1u);
}

TEST(Stalls, ALossyFabricCountsEveryDataDropWithItsReasonAndHoldsItsInvariants) {
  auto out = test::run_yaml(R"(
topology: {type: star, hosts: 9, host_link: {rate: 100Gbps, delay: 1us}}
switch: {buffer: 1MB, flow_control: none}
cc: {algorithm: none}
workload: [{type: incast, receiver: 0, senders: 1-8, size: 300KB, start: 0}]
)",
                            "inv_lossy");
  const RunResult& r = out.result;
  EXPECT_EQ(r.flows_completed, 8u);
  EXPECT_GT(r.counters.drops, 0u);
  EXPECT_EQ(r.data_drops[static_cast<int>(DropReason::kBufferFull)], r.counters.drops);
  EXPECT_EQ(r.data_drops[static_cast<int>(DropReason::kHeadroomFull)], 0u);
  EXPECT_TRUE(r.violation.empty());
  EXPECT_GT(r.check_passes, 1u);
}

// --- PFC deadlock: five switches in a ring, two hosts each, every host sending to the hosts two switches
// clockwise (the shortest way): each ring link carries its switch's own traffic and the traffic turning from
// the previous link, so the buffers depend on each other in a cycle. The same hosts and flows on a line of
// five switches (the ring without s4-s0) have no cycle of turns.
std::string ring_yaml(bool ring, const std::string& name) {
  const int n = 5, per = 2;
  std::string links, flows;
  for (int s = 0; s < n; ++s)
    for (int k = 0; k < per; ++k)
      links += "[h" + std::to_string(s * per + k) + ", s" + std::to_string(s) + ", 100Gbps, 1us], ";
  for (int s = 0; s + (ring ? 0 : 1) < n; ++s)
    links += "[s" + std::to_string(s) + ", s" + std::to_string((s + 1) % n) + ", 100Gbps, 1us], ";
  for (int s = 0; s < n; ++s)
    for (int k = 0; k < per; ++k)
      flows += "{src: " + std::to_string(s * per + k) + ", dst: " + std::to_string(((s + 2) % n) * per + k) +
               ", size: 2MB, start: 0}, ";
  return "name: " + name + "\ntopology: {type: custom, hosts: " + std::to_string(n * per) +
         ", switches: " + std::to_string(n) + ", links: [" + links.substr(0, links.size() - 2) +
         "]}\nswitch: {buffer: 2MB}\ncc: {algorithm: none}\nstop: 1ms\ncheck: {stall_after: 200us}\n"
         "workload: [{type: flows, flows: [" +
         flows.substr(0, flows.size() - 2) + "]}]\n";
}

TEST(Deadlock, ARingWhoseRoutesTurnTheSameWayDeadlocksAndTheCycleIsReported) {
  auto out = test::run_yaml(ring_yaml(true, "ring"), "deadlock_ring");
  const RunResult& r = out.result;
  ASSERT_EQ(r.deadlocks_found, 1u);
  const DeadlockReport& d = r.deadlocks.at(0);
  EXPECT_EQ(d.priority, 3);
  EXPECT_EQ(d.resolved_ps, kTimeNever);  // still in force at the end
  ASSERT_EQ(d.cycle.size(), 5u);
  for (std::size_t i = 0; i < 5; ++i) {
    // Each paused port leads to the switch of the next one, clockwise.
    const DeadlockHop& h = d.cycle[i];
    EXPECT_EQ(h.peer, d.cycle[(i + 1) % 5].node);
    EXPECT_EQ(h.peer_name, "s" + std::to_string((h.node - 10 + 1) % 5));
    EXPECT_LE(h.paused_since_ps, d.formed_ps);
  }
  EXPECT_GT(d.formed_ps, 0u);
  EXPECT_LE(d.formed_ps, d.detected_ps);
  EXPECT_LT(d.detected_ps, d.formed_ps + 20 * kPsPerUs);
  // Every flow is stuck behind it.
  EXPECT_EQ(r.flows_completed, 0u);
  EXPECT_EQ(r.unfinished.stalled, 10u);
  for (const FlowWait& w : r.unfinished.stalls) {
    EXPECT_EQ(w.why, "its path runs through a PFC deadlock");
    EXPECT_NE(w.detail.find(", in a PFC deadlock"), std::string::npos) << w.detail;
  }
  const std::string summary = out.read("summary.json");
  EXPECT_NE(
      summary.find("\"deadlocks\": {\"found\": 1, \"cycles\": [\n    {\"priority\": 3, \"formed_ns\": "),
      std::string::npos)
      << summary;
  EXPECT_NE(summary.find("\"resolved_ns\": null, \"ports\": [{\"switch\": \"s"), std::string::npos)
      << summary;
  // The same on two threads.
  auto two = test::run_yaml(ring_yaml(true, "ring"), "deadlock_ring_2", {}, 2);
  ASSERT_EQ(two.result.deadlocks.size(), 1u);
  EXPECT_EQ(two.result.deadlocks[0].formed_ps, d.formed_ps);
  EXPECT_EQ(two.result.deadlocks[0].detected_ps, d.detected_ps);
  EXPECT_EQ(two.result.deadlocks[0].cycle.size(), 5u);
  EXPECT_EQ(two.result.deadlocks[0].cycle[0].node, d.cycle[0].node);
}

TEST(Deadlock, TheSameLoadOnALineReportsNone) {
  auto out = test::run_yaml(ring_yaml(false, "line"), "deadlock_line");
  EXPECT_EQ(out.result.deadlocks_found, 0u);
  EXPECT_GT(out.result.counters.pause_frames, 0u);  // paused, but nothing waits in a cycle
  EXPECT_EQ(out.result.unfinished.stalled, 0u);
  EXPECT_NE(out.read("summary.json").find("\"deadlocks\": {\"found\": 0, \"cycles\": []}"),
            std::string::npos);
}

TEST(Deadlock, CheckMakesTheCommandExitThreeOnStallsAndPrintsTheCycle) {
  const std::string dir = test::temp_dir("deadlock_cli");
  for (const char* shape : {"ring", "line"}) {
    std::ofstream(dir + "/" + shape + ".yaml") << ring_yaml(std::string(shape) == "ring", shape);
    std::string err;
    const int status =
        test::run_cli("run " + dir + "/" + shape + ".yaml --quiet --check -o " + dir + "/" + shape, &err);
    if (std::string(shape) == "ring") {
      EXPECT_EQ(status, 3) << err;
      EXPECT_NE(err.find("PFC deadlock at priority 3, formed at"), std::string::npos) << err;
      EXPECT_NE(err.find("a cycle of 5 paused ports, each waiting on the next: s"), std::string::npos) << err;
      EXPECT_NE(err.find("10 of 10 flows stalled"), std::string::npos) << err;
      EXPECT_NE(err.find("lossless: --check: 10 stalled flows"), std::string::npos) << err;
    } else {
      EXPECT_EQ(status, 0) << err;
      EXPECT_EQ(err.find("warning"), std::string::npos) << err;
    }
  }
  // Without --check a stall is a warning only.
  std::string err;
  EXPECT_EQ(test::run_cli("run " + dir + "/ring.yaml --quiet -o " + dir + "/ring-nocheck", &err), 0) << err;
  EXPECT_NE(err.find("10 of 10 flows stalled"), std::string::npos) << err;
  // A sweep with --check: the table counts them, the sweep exits 3.
  std::ofstream(dir + "/sweep.yaml") << "scenario: ring.yaml\nout: " << dir
                                     << "/sweep\ncases:\n  - {name: ring, set: {}}\n";
  EXPECT_EQ(test::run_cli("sweep " + dir + "/sweep.yaml --quiet --check", &err), 3) << err;
  EXPECT_NE(err.find("cases.ring: 10 stalled flows"), std::string::npos) << err;
}

}  // namespace
}  // namespace lossless
