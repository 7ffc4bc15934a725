// The extension points (docs/extending.md), each exercised by a small scheme registered in this test binary
// only: switch per-packet hooks, PFC pause/resume seen by a mechanism, link-local scheme packets, routing
// policies, custom egress queue sets (with a shaper), and at the NIC a send gate opened by grants, scheme
// packets both ways, timers, a QP scheduler and per-packet priorities.
#include <gtest/gtest.h>

#include <algorithm>
#include <deque>
#include <map>
#include <set>

#include "control/cc_scheme.h"
#include "control/hpcc/int_records.h"
#include "control/mechanism_scheme.h"
#include "control/switch_schemes.h"
#include "net/network.h"
#include "net/packet_kinds.h"
#include "test_util.h"

namespace lossless {
namespace {

// --- A mechanism that observes everything a switch does with data packets.
struct Observed {
  std::map<std::uint32_t, std::uint64_t> enqueued, dequeued;  // by switch node
  std::map<int, std::uint64_t> by_priority;
  std::uint64_t view_errors = 0;  // a queued packet the egress view did not show
  std::uint64_t pauses = 0, resumes = 0;
  std::uint64_t hellos = 0;
};
Observed observed;

class Observer final : public SwitchMechanism {
 public:
  Observer(const NoParams&, Switch& sw, Network&) : sw_(sw) {}
  unsigned packet_hooks() const override { return kOnEnqueue | kOnDequeue | kOnPauseChange; }
  void on_enqueue(const Port& egress, const Packet& p) override {
    ++observed.enqueued[sw_.node()];
    ++observed.by_priority[p.priority];
    bool seen = false;
    egress.for_each_data_packet([&](const Packet& q) { seen = seen || &q == &p; });
    if (!seen || egress.queued_bytes < p.wire_bytes) ++observed.view_errors;
  }
  void on_dequeue(const Port&, Packet&) override { ++observed.dequeued[sw_.node()]; }
  void on_pause_change(const Port&, std::uint8_t, bool paused) override {
    ++(paused ? observed.pauses : observed.resumes);
  }

 private:
  Switch& sw_;
};
LOSSLESS_REGISTER_MECHANISM(NoParams, Observer, "test_observer", "test: counts hook calls");

constexpr const char* kDumbbellIncast = R"(
topology: {type: dumbbell, left: 8, right: 1, host_link: {rate: 100Gbps, delay: 1us}, core_link: {rate: 400Gbps, delay: 1us}}
switch: {buffer: 1MB, mechanism: test_observer}
cc: {algorithm: none}
workload: [{type: incast, receiver: 8, senders: 0-7, size: 500KB, start: 0}]
)";

TEST(SwitchHooks, EnqueueAndDequeueSeeEveryDataPacketAndPausesAreObserved) {
  observed = {};
  auto out = test::run_yaml(kDumbbellIncast, "hooks_observer");
  const auto& r = out.result;
  ASSERT_EQ(r.flows_completed, 8u);
  EXPECT_EQ(r.counters.drops, 0u);
  // Every data packet crosses both switches (ACKs travel at priority 0, which bypasses the hooks).
  for (const auto& [node, n] : observed.enqueued) {
    EXPECT_EQ(n, r.counters.data_packets) << "switch node " << node;
    EXPECT_EQ(observed.dequeued[node], n) << "switch node " << node;
  }
  EXPECT_EQ(observed.enqueued.size(), 2u);
  EXPECT_EQ(observed.view_errors, 0u);
  // The right switch paused the left one's core port: the left switch's mechanism saw it start and end.
  std::uint64_t frames_at_switches = 0;
  for (const auto& row : out.csv("pfc.csv"))
    if (row.at("node")[0] == 's' && row.at("event") == "pause") ++frames_at_switches;
  EXPECT_GT(observed.pauses, 0u);
  EXPECT_LE(observed.pauses, frames_at_switches);
  EXPECT_EQ(observed.resumes, observed.pauses);
}

TEST(SwitchHooks, RunsWithoutHooksGiveTheSameOutputs) {
  // The observer changes nothing: the run with it equals the run without it, byte for byte.
  auto with = test::run_yaml(kDumbbellIncast, "hooks_with");
  auto without = test::run_yaml(kDumbbellIncast, "hooks_without", {{"switch.mechanism", "none"}});
  EXPECT_EQ(with.read("fct.csv"), without.read("fct.csv"));
  EXPECT_EQ(with.read("pfc.csv"), without.read("pfc.csv"));
}

// --- Link-local scheme packets between neighbouring switches.
const PacketType kHello = PacketKinds::add("test.hello", PacketKinds::kLinkLocal);

class Hello final : public SwitchMechanism {
 public:
  Hello(const NoParams&, Switch& sw, Network& net) : sw_(sw), net_(net) {}
  unsigned packet_hooks() const override { return kOnPacket; }
  void start() override {
    for (const Port& p : sw_.ports)
      if (!net_.topology().is_host(net_.peer_node(p.node, p.index))) {
        Packet* h = sw_.new_packet();
        h->type = kHello;
        h->priority = kControlPriority;
        h->wire_bytes = 64;
        sw_.send_on(p.index, h);
      }
  }
  bool on_packet(Port&, Packet* p) override {
    if (p->type != kHello) return false;
    ++observed.hellos;
    sw_.free_packet(p);
    return true;
  }

 private:
  Switch& sw_;
  Network& net_;
};
LOSSLESS_REGISTER_MECHANISM(NoParams, Hello, "test_hello", "test: link-local packets to neighbour switches");

TEST(SwitchHooks, LinkLocalPacketsReachTheNeighbourSwitch) {
  observed = {};
  auto out = test::run_yaml(R"(
topology: {type: leaf_spine, leaves: 3, spines: 2, hosts_per_leaf: 2}
switch: {mechanism: test_hello}
cc: {algorithm: none}
workload: [{type: flows, flows: [{src: 0, dst: 5, size: 10KB}]}]
)",
                            "hooks_hello");
  EXPECT_EQ(out.result.flows_completed, 1u);
  EXPECT_EQ(observed.hellos, 2u * 3 * 2);  // every leaf-spine link, both ways
}

// --- Routing: a policy deciding per packet (here: always the first candidate).
class FirstHop final : public RoutingPolicy {
 public:
  FirstHop(const NoParams&, Switch&, Network&) {}
  std::uint16_t choose(const Packet&, const std::uint16_t* candidates, std::uint32_t) override {
    return candidates[0];
  }
};
LOSSLESS_REGISTER_ROUTING(NoParams, FirstHop, "test_first_hop", "test: always the first shortest-path port");

TEST(RoutingHook, APerPacketPolicyDecidesEveryHop) {
  constexpr const char* kLeafSpine = R"(
topology: {type: leaf_spine, leaves: 2, spines: 4, hosts_per_leaf: 8}
switch: {mechanism: test_observer}
cc: {algorithm: dcqcn}
workload: [{type: incast, receiver: 8, senders: 0-7, size: 100KB, start: 0}]
)";
  observed = {};
  auto ecmp = test::run_yaml(kLeafSpine, "routing_ecmp");
  const auto ecmp_spines = std::count_if(observed.enqueued.begin(), observed.enqueued.end(),
                                         [](const auto& e) { return e.first >= 16 + 2; });
  observed = {};
  auto first = test::run_yaml(kLeafSpine, "routing_first", {{"switch.routing", "test_first_hop"}});
  const auto first_spines = std::count_if(observed.enqueued.begin(), observed.enqueued.end(),
                                          [](const auto& e) { return e.first >= 16 + 2; });
  EXPECT_EQ(first.result.flows_completed, 8u);
  EXPECT_GT(ecmp_spines, 1);
  EXPECT_EQ(first_spines, 1);
}

// --- Egress queue sets: one FIFO for all data priorities, optionally shaped to half the line rate.
class FifoQueues final : public EgressQueues {
 public:
  explicit FifoQueues(const Port& port, bool shaped) : port_(port), shaped_(shaped) {}
  bool enqueue(Packet* p, std::uint16_t) override {
    q_.push_back(p);
    return true;
  }
  Packet* dequeue(std::uint8_t paused, TimePs now, TimePs& retry_ps) override {
    if (q_.empty() || ((paused >> q_.front()->priority) & 1u)) return nullptr;
    if (shaped_ && now < next_ps_) {
      retry_ps = next_ps_;
      return nullptr;
    }
    Packet* p = q_.front();
    q_.pop_front();
    next_ps_ = now + 2 * port_.clock().tx_time(p->wire_bytes);  // half the line rate
    return p;
  }
  Bytes bytes(std::uint8_t prio) const override {
    Bytes b = 0;
    for (const Packet* p : q_)
      if (p->priority == prio) b += p->wire_bytes;
    return b;
  }
  void for_each(const std::function<void(const Packet&)>& f) const override {
    for (const Packet* p : q_) f(*p);
  }

 private:
  const Port& port_;
  bool shaped_;
  std::deque<Packet*> q_;
  TimePs next_ps_ = 0;
};

struct FifoParams {
  bool shaped = false;
  template <class V>
  void visit(V& v) {
    v.flag("shaped", shaped, "release at half the line rate");
  }
};

class FifoMechanism final : public SwitchMechanism {
 public:
  FifoMechanism(const FifoParams& p, Switch& sw, Network&) {
    for (const Port& port : sw.ports)
      sw.set_egress_queues(port.index, std::make_unique<FifoQueues>(port, p.shaped));
  }
};
LOSSLESS_REGISTER_MECHANISM(FifoParams, FifoMechanism, "test_fifo", "test: one FIFO per egress port");

TEST(EgressQueues, ACustomQueueSetCarriesTheTrafficLosslessly) {
  auto out = test::run_yaml(R"(
topology: {type: star, hosts: 9, host_link: {rate: 100Gbps, delay: 1us}}
switch: {buffer: 1MB, mechanism: test_fifo}
cc: {algorithm: none}
workload: [{type: incast, receiver: 0, senders: 1-8, size: 200KB, start: 0}]
)",
                            "queues_fifo");
  EXPECT_EQ(out.result.flows_completed, 8u);
  EXPECT_EQ(out.result.counters.drops, 0u);
  EXPECT_GT(out.result.counters.pause_frames, 0u);
}

TEST(EgressQueues, AShaperHoldsPacketsAndTheSwitchRetries) {
  const char* yaml = R"(
topology: {type: star, hosts: 2, host_link: {rate: 100Gbps, delay: 1us}}
switch: {mechanism: test_fifo, params: {shaped: true}}
cc: {algorithm: none}
workload: [{type: flows, flows: [{src: 1, dst: 0, size: 1MB}]}]
)";
  auto out = test::run_yaml(yaml, "queues_shaped");
  auto rows = out.csv("fct.csv");
  ASSERT_EQ(rows.size(), 1u);
  // The switch sends at half the line rate: about twice the ideal FCT.
  EXPECT_NEAR(test::num(rows[0], "slowdown"), 2.0, 0.1);
}

// --- NIC side: a receiver grants bytes (a send gate), the sender asks for them; both ways are scheme
// packets; the receiver grants on a timer.
const PacketType kRequest = PacketKinds::add("test.request", PacketKinds::kEndToEnd);
const PacketType kGrant = PacketKinds::add("test.grant", PacketKinds::kEndToEnd);
struct GrantField {
  Bytes offset;
};
inline constexpr PacketSlot<GrantField> kGrantField{"test.grant", {"test.grant"}};

struct GrantParams {
  Bytes grant = 10'000;
  TimePs period = 10 * kPsPerUs;
  template <class V>
  void visit(V& v) {
    v.size("grant", grant, "bytes per grant");
    v.time("period", period, "time between grants");
  }
};

class GrantedSender final : public CongestionControl {
 public:
  GrantedSender(const GrantParams&, SenderQp& qp, const CcEnv& env)
      : qp_(qp), nic_(env.host_nic), grant_(env.slots.bind(kGrantField)) {
    qp.set_send_gate(0);
  }
  void on_start() override { nic_.send(nic_.packet_for_flow(qp_.flow->id, kRequest, 64)); }
  void on_packet(const Packet& p) override {
    if (p.type != kGrant) return;
    qp_.set_send_gate(std::max(qp_.send_gate_bytes, p.ext(grant_).offset));
    qp_.nic->on_qp_unblocked();
  }

 private:
  SenderQp& qp_;
  RdmaNic& nic_;
  Slot<GrantField> grant_;
};

class GrantingReceiver final : public ReceiverControl {
 public:
  GrantingReceiver(const GrantParams& p, ReceiverContext&, const Flow& f, const CcEnv& env)
      : p_(p),
        flow_(f),
        nic_(env.host_nic),
        sim_(env.sim),
        timer_(Timer::bind<GrantingReceiver, &GrantingReceiver::grant>(this)),
        grant_(env.slots.bind(kGrantField)) {}
  void on_packet(const Packet& p) override {
    if (p.type == kRequest) grant();
  }

 private:
  void grant() {
    granted_ = std::min(granted_ + p_.grant, flow_.size_bytes);
    Packet* g = nic_.packet_for_flow(flow_.id, kGrant, 64);
    g->ext_init(grant_).offset = granted_;
    nic_.send(g);
    if (granted_ < flow_.size_bytes) timer_.arm_after(sim_, p_.period);
  }
  const GrantParams& p_;
  const Flow& flow_;
  RdmaNic& nic_;
  Simulator& sim_;
  Timer timer_;
  Slot<GrantField> grant_;
  Bytes granted_ = 0;
};

struct Granted {
  using Params = GrantParams;
  using Sender = GrantedSender;
  using Receiver = GrantingReceiver;
  static constexpr const SlotSpec* kSlots[] = {&kGrantField};
};
LOSSLESS_REGISTER_CC_PARTS(Granted, "test_granted", "test: the receiver grants bytes on a timer");

TEST(NicHooks, GrantsOpenTheSendGate) {
  auto out = test::run_yaml(R"(
topology: {type: star, hosts: 2, host_link: {rate: 100Gbps, delay: 1us}}
cc: {algorithm: test_granted}
workload: [{type: flows, flows: [{src: 1, dst: 0, size: 100KB}]}]
)",
                            "nic_granted");
  auto rows = out.csv("fct.csv");
  ASSERT_EQ(rows.size(), 1u);
  // 10 grants 10 us apart after the request's one-way trip: the last 10 KB leave ~92 us after the first
  // grant.
  const double fct_us = test::num(rows[0], "fct_ns") / 1000;
  EXPECT_GT(fct_us, 95);
  EXPECT_LT(fct_us, 105);
}

// --- A QP scheduler (shortest remaining first) and per-packet priorities.
class SrptNic final : public NicControl {
 public:
  SrptNic(const NoParams&, RdmaNic& nic, const CcEnv&) : nic_(nic) {}
  bool schedules_qps() const override { return true; }
  SenderQp* pick(const std::vector<SenderQp*>& active, TimePs now, TimePs& earliest) override {
    SenderQp* best = nullptr;
    for (SenderQp* qp : active)
      if (nic_.may_send(*qp, now, earliest) &&
          (!best || qp->size() - qp->snd_nxt < best->size() - best->snd_nxt))
        best = qp;
    return best;
  }

 private:
  RdmaNic& nic_;
};

// Alternates its packets between priorities 1 and 2.
class AlternatingSender final : public CongestionControl {
 public:
  AlternatingSender(const NoParams&, SenderQp& qp, const CcEnv&) : qp_(qp) {}
  void on_sent(Packet&) override { qp_.priority = qp_.priority == 1 ? 2 : 1; }

 private:
  SenderQp& qp_;
};

struct Srpt {
  using Params = NoParams;
  using Sender = AlternatingSender;
  using Nic = SrptNic;
};
LOSSLESS_REGISTER_CC_PARTS(Srpt, "test_srpt", "test: SRPT among a NIC's QPs, packets on priorities 1 and 2");

TEST(NicHooks, AQpSchedulerAndPerPacketPriorities) {
  const char* yaml = R"(
topology: {type: star, hosts: 2, host_link: {rate: 100Gbps, delay: 1us}}
switch: {mechanism: test_observer}
cc: {algorithm: test_srpt}
workload: [{type: flows, flows: [{src: 1, dst: 0, size: 2MB, start: 0}, {src: 1, dst: 0, size: 200KB, start: 10us}]}]
)";
  observed = {};
  auto srpt = test::run_yaml(yaml, "nic_srpt");
  auto rr = test::run_yaml(yaml, "nic_rr", {{"cc.algorithm", "none"}});
  const double short_srpt = test::num(srpt.csv("fct.csv")[1], "slowdown");
  const double short_rr = test::num(rr.csv("fct.csv")[1], "slowdown");
  EXPECT_LT(short_srpt, 1.1);  // served alone as soon as it starts
  EXPECT_GT(short_rr, 1.5);    // shares the NIC round-robin with the long flow
  EXPECT_GT(observed.by_priority[1], 0u);
  EXPECT_GT(observed.by_priority[2], 0u);
  EXPECT_EQ(srpt.result.flows_completed, 2u);
}

// --- Packet kinds (packet slots: net/packet_layout_test.cc).
TEST(PacketKinds, KindsHaveNames) {
  EXPECT_EQ(PacketKinds::name(kGrant), "test.grant");
  EXPECT_EQ(PacketKinds::find("test.grant"), kGrant);
  EXPECT_EQ(PacketKinds::find("data"), PacketType::kData);
  EXPECT_FALSE(PacketKinds::find("test.no_such_kind").has_value());
  EXPECT_EQ(PacketKinds::name(PacketType::kPfc), "pfc");
  EXPECT_FALSE(is_link_local(kGrant));
  EXPECT_TRUE(is_link_local(kHello));
}

// --- HPCC's INT records are its switch part's work: each switch adds one to every data packet, and the ACK
// carries them back (8 B each on the wire).
struct IntSeen {
  std::map<std::uint32_t, std::set<int>> data_hops;  // by switch node: records a data packet held on arrival
  std::set<std::uint32_t> ack_bytes;
};
IntSeen int_seen;

class IntProbe final : public SwitchMechanism {
 public:
  // It reads HPCC's slot, so it lists it (a scheme lists every slot it binds).
  static constexpr const SlotSpec* kSlots[] = {&kIntRecords};
  IntProbe(const NoParams&, Switch& sw, Network& net) : sw_(sw), int_(net.slots().bind(kIntRecords)) {}
  unsigned packet_hooks() const override { return kOnDequeue; }
  void on_dequeue(const Port&, Packet& p) override {
    // The scenario's mechanism runs before the congestion control's switch part: the records so far.
    if (p.type == PacketType::kData) int_seen.data_hops[sw_.node()].insert(p.ext(int_).hops);
    if (p.type == PacketType::kAck) int_seen.ack_bytes.insert(p.wire_bytes);
  }

 private:
  Switch& sw_;
  Slot<IntRecords> int_;
};
LOSSLESS_REGISTER_MECHANISM(NoParams, IntProbe, "test_int_probe", "test: reads HPCC's INT records");

TEST(HpccInt, EverySwitchAddsOneRecordAndTheAckCarriesThemBack) {
  int_seen = {};
  auto out = test::run_yaml(R"(
topology: {type: dumbbell, left: 1, right: 1}
switch: {mechanism: test_int_probe}
cc: {algorithm: hpcc, params: {preset: hpcc_paper}}
workload: [{type: flows, flows: [{src: 0, dst: 1, size: 100KB}]}]
)",
                            "hpcc_int");
  EXPECT_EQ(out.result.flows_completed, 1u);
  // Hosts 0-1, then the left switch (node 2) and the right one (node 3).
  EXPECT_EQ(int_seen.data_hops[2], std::set<int>{0});
  EXPECT_EQ(int_seen.data_hops[3], std::set<int>{1});
  // ACKs (at data priority with this preset) carry both records: 64 + 2 x 8 bytes.
  EXPECT_EQ(int_seen.ack_bytes, std::set<std::uint32_t>{80});
}

}  // namespace
}  // namespace lossless
