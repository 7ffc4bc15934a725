// Packet slots across schemes (net/packet_slot.h): schemes that cannot fit together are refused naming both;
// HPCC with TCD keeps both schemes' fields intact; every congestion control with every switch mechanism it
// validates with completes a small incast (in the builds with LOSSLESS_SLOT_CHECKS every slot access of those
// runs is checked for its owner as well).
#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <fstream>
#include <sstream>

#include "control/cc_scheme.h"
#include "control/hpcc/int_records.h"
#include "control/mechanism_scheme.h"
#include "control/tcd/tcd.h"
#include "net/fabric_run.h"
#include "net/network.h"
#include "test_util.h"

namespace lossless {
namespace {

// --- Two test-only schemes whose fields cannot share a data packet: 120 + 100 bytes > 192.
struct BigCcField {
  std::array<std::uint8_t, 120> bytes;
};
struct BigMechanismField {
  std::array<std::uint8_t, 100> bytes;
};
inline constexpr PacketSlot<BigCcField> kBigCcField{"test_big_cc.field", {"data", "ack"}};
inline constexpr PacketSlot<BigMechanismField> kBigMechanismField{"test_big_mechanism.field", {"data"}};

class BigSender final : public CongestionControl {
 public:
  static constexpr const SlotSpec* kSlots[] = {&kBigCcField};
  BigSender(const NoParams&, SenderQp&, const CcEnv&) {}
};
LOSSLESS_REGISTER_CC(NoParams, BigSender, "test_big_cc", "test: 120 bytes in every data packet and ACK");

class BigMechanism final : public SwitchMechanism {
 public:
  static constexpr const SlotSpec* kSlots[] = {&kBigMechanismField};
  BigMechanism(const NoParams&, Switch&, Network&) {}
};
LOSSLESS_REGISTER_MECHANISM(NoParams, BigMechanism, "test_big_mechanism",
                            "test: 100 bytes in every data packet");

Scenario parse_text(const std::string& yaml, const std::string& file = "slots.yaml") {
  return parse_scenario(YAML::Load(yaml), file, ScenarioOverrides{});
}

TEST(PacketSlots, SchemesWhoseFieldsCannotFitTogetherAreRefusedNamingBoth) {
  const std::string yaml = R"(topology: {type: star, hosts: 3}
workload: [{type: flows, flows: [{src: 1, dst: 0, size: 10KB}]}]
cc: {algorithm: test_big_cc}
switch: {mechanism: test_big_mechanism}
)";
  try {
    parse_text(yaml);
    FAIL() << "120 + 100 bytes of fields in one data packet were accepted";
  } catch (const ConfigError& e) {  // `lossless run` and `validate` exit 2 with this message
    const std::string what = e.what();
    EXPECT_NE(what.find("test_big_cc (cc.algorithm)"), std::string::npos) << what;
    EXPECT_NE(what.find("test_big_mechanism (switch.mechanism)"), std::string::npos) << what;
    EXPECT_NE(what.find("192-byte"), std::string::npos) << what;
    EXPECT_EQ(e.where(), "slots.yaml:3") << what;  // the line that selects the scheme laid out last
    EXPECT_EQ(e.key(), "cc.algorithm");
  }
  // Each alone fits; so do both beside schemes with small fields.
  EXPECT_NO_THROW(parse_text(R"(topology: {type: star, hosts: 3}
workload: [{type: flows, flows: [{src: 1, dst: 0, size: 10KB}]}]
cc: {algorithm: test_big_cc}
switch: {mechanism: tcd}
)"));
  EXPECT_NO_THROW(parse_text(R"(topology: {type: star, hosts: 3}
workload: [{type: flows, flows: [{src: 1, dst: 0, size: 10KB}]}]
cc: {algorithm: rcc}
switch: {mechanism: test_big_mechanism}
)"));
}

// --- HPCC with TCD. Both write into data packets: HPCC's switches stamp INT records, TCD's mark packets
// leaving an undetermined port (a port PFC pauses). A probe after both on every switch checks that the
// records are HPCC's (one per switch crossed, the port's rate) and that every packet TCD marked still carries
// the mark.
struct IntAndMarks {
  std::uint64_t data = 0, bad_hops = 0, marked = 0, lost_marks = 0;
};

class IntAndMarkProbe final : public SwitchMechanism {
 public:
  IntAndMarkProbe(Switch& sw, Network& net, IntAndMarks& seen)
      : sw_(sw),
        tcd_(static_cast<const TcdSwitch&>(*sw.mechanism())),
        int_(net.slots().bind(kIntRecords)),
        mark_(net.slots().bind(kTcdMark)),
        rates_(net.link_rates()),
        seen_(seen) {}
  unsigned packet_hooks() const override { return kOnDequeue; }
  void on_dequeue(const Port& egress, Packet& p) override {
    if (p.type != PacketType::kData) return;
    ++seen_.data;
    // A dumbbell: data from the left hosts crosses switch 0, then switch 1.
    const IntRecords& r = p.ext(int_);
    if (r.hops != sw_.index() + 1 ||
        rates_.as_double()[r.hop[r.hops - 1].rate_index()] != static_cast<double>(egress.rate_bps()))
      ++seen_.bad_hops;
    if (tcd_.port_state(egress.index).state() == TcdPortState::State::kUndetermined) {
      ++seen_.marked;
      if (!p.ext(mark_).ue) ++seen_.lost_marks;
    }
  }

 private:
  Switch& sw_;
  const TcdSwitch& tcd_;
  Slot<IntRecords> int_;
  Slot<TcdMark> mark_;
  const LinkRates& rates_;
  IntAndMarks& seen_;
};

// 9 senders into 1 through a 400 G core: the right switch's 100 G port to the receiver is the bottleneck,
// so it pauses the core and the left switch's core port turns undetermined.
const char* kNineToOne = R"(
topology: {type: dumbbell, left: 9, right: 1, core_link: {rate: 400Gbps, delay: 1us}}
workload: [{type: incast, receiver: 9, senders: 0-8, size: 1MB}]
cc: {algorithm: hpcc}
switch: {mechanism: tcd, buffer: 1MB}
)";

TEST(PacketSlots, HpccWithTcdCompletesEveryFlowWithBothSchemesFieldsIntact) {
  // Before the slots, TCD's UE mark went to byte 0 of data packets, HPCC's record count: this incast ended
  // with 0 of 9 flows done (the event queue drained at 572 us) and exit status 0.
  Scenario sc = parse_text(kNineToOne);
  Network net(sc.topology, sc.sw, sc.nic, sc.seed);
  net.install_mechanism(*sc.mechanism);
  net.install_flows(sc.flows, *sc.cc);
  IntAndMarks seen;
  for (std::size_t s = 0; s < net.switch_count(); ++s)
    net.switch_at(static_cast<std::uint32_t>(s))
        .add_companion(
            std::make_unique<IntAndMarkProbe>(net.switch_at(static_cast<std::uint32_t>(s)), net, seen));
  run_fabric(net, sc.stop_ps, {});
  EXPECT_EQ(net.flows_completed(), 9u);
  EXPECT_EQ(seen.data, 2 * 9 * 1000u);  // 1000 packets per flow, each through both switches
  EXPECT_EQ(seen.bad_hops, 0u);
  EXPECT_GT(seen.marked, 100u) << "TCD never saw an undetermined port: the test does not exercise the marks";
  EXPECT_EQ(seen.lost_marks, 0u);
  // HPCC ignores ECN and UE marks, so what HPCC sees is what it sees without TCD: the same completions.
  auto with = test::run_yaml(kNineToOne, "slots_hpcc_tcd");
  auto without = test::run_yaml(kNineToOne, "slots_hpcc_alone", {{"switch.mechanism", "none"}});
  EXPECT_EQ(with.result.flows_completed, 9u);
  EXPECT_EQ(with.read("fct.csv"), without.read("fct.csv"));
}

// --- Every congestion control with every switch mechanism that validates with it, on a small incast.

// Standard output of `lossless ARGS`.
std::string cli_stdout(const std::string& args) {
  std::string out;
  std::FILE* p = ::popen((std::string(LOSSLESS_BINARY) + " " + args).c_str(), "r");
  if (!p) return out;
  char buf[4096];
  for (std::size_t n; (n = std::fread(buf, 1, sizeof buf, p)) > 0;) out.append(buf, n);
  ::pclose(p);
  return out;
}

// The names of one part of `lossless list` ("  NAME — summary" lines after the line starting with `from`, up
// to the next line starting with `until`): the registered schemes, not this binary's test-only ones.
std::vector<std::string> listed(const std::string& what, const std::string& from, const std::string& until) {
  std::vector<std::string> names;
  std::istringstream in(cli_stdout("list " + what));
  bool inside = false;
  for (std::string line; std::getline(in, line);) {
    if (line.rfind(from, 0) == 0) {
      inside = true;
      continue;
    }
    if (inside && !until.empty() && line.rfind(until, 0) == 0) break;
    if (inside && line.rfind("  ", 0) == 0 && line.rfind("    ", 0) != 0 &&
        line.find(" — ") != std::string::npos)
      names.push_back(line.substr(2, line.find(' ', 2) - 2));
  }
  return names;
}

TEST(PacketSlots, EveryCongestionControlWithEveryMechanismItValidatesWithCompletesAnIncast) {
  const auto ccs = listed("cc", "congestion control", "");
  const auto mechanisms = listed("mechanisms", "switch mechanisms", "switch flow control");
  ASSERT_GE(ccs.size(), 10u);
  ASSERT_GE(mechanisms.size(), 7u);
  int ran = 0, refused = 0;
  std::string refusals;
  for (const std::string& cc : ccs)
    for (const std::string& mech : mechanisms) {
      // 4 senders of 30 KB into one host behind a 400 G core, twice: queues, pauses, every scheme's
      // feedback. A mechanism that needs its own switch architecture gets it, with VOQs that hold the
      // headroom of a 400 G port (the scenario reader does not check that; the switch does as it is built).
      std::string arch;
      if (const MechanismScheme* m = MechanismRegistry::find(mech)) {
        DefaultParams none;
        if (const char* a = m->make(none)->required_architecture())
          arch = std::string(", architecture: ") + a +
                 (std::string(a) == "voq" ? ", voq: {queue_size: 400KB}" : "");
      }
      const std::string yaml =
          "topology: {type: dumbbell, left: 4, right: 1, core_link: {rate: 400Gbps, delay: 1us}}\n"
          "workload: [{type: incast, receiver: 4, senders: 0-3, size: 30KB, count: 2, period: 20us}]\n"
          "cc: {algorithm: " +
          cc + "}\nswitch: {mechanism: " + mech + ", buffer: 1MB" + arch + "}\nstop: 20ms\n";
      Scenario sc;
      try {
        sc = parse_text(yaml, cc + "+" + mech + ".yaml");
      } catch (const ConfigError& e) {
        ++refused;
        refusals += std::string("\n  ") + e.what();
        continue;
      }
      ++ran;
      RunOptions opts;
      opts.quiet = true;
      opts.write_outputs = false;
      try {
        const RunResult r = run_scenario(sc, opts);
        EXPECT_EQ(r.flows_completed, 8u) << cc << " with switch.mechanism " << mech;
      } catch (const std::exception& e) {
        ADD_FAILURE() << cc << " with switch.mechanism " << mech << ": " << e.what();
      }
    }
  // The pairs refused are those where a congestion control needs another mechanism (RoCC, QCN, Mercury,
  // dcqcn_tcd) or another architecture (Homa and ExpressPass bring their own queues, RCM needs VOQs) — none
  // for a clash of packet fields. 58 of the 84 pairs run.
  EXPECT_EQ(refusals.find("cannot run together"), std::string::npos) << refusals;
  EXPECT_EQ(static_cast<std::size_t>(ran + refused), ccs.size() * mechanisms.size());
  EXPECT_GE(ran, 55);
  std::printf("%d pairs ran, %d refused:%s\n", ran, refused, refusals.c_str());
}

}  // namespace
}  // namespace lossless
