// `switch.routing: hpcc_ecmp` puts flows on the HPCC simulator's paths. The expected paths are the
// simulator's own (alibaba-edu/High-Precision-Congestion-Control at 9f4be2a with a per-hop trace of the
// switches each packet left), committed in experiments/hpcc-fidelity/micro/ecmp_paths/: 65 single-packet
// flows between random hosts of different ToRs on its 320-host fat tree, five of them a host pair's second
// flow (source port 10001); data and ACK paths.
#include <gtest/gtest.h>

#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "control/cc_scheme.h"
#include "net/network.h"
#include "scenario/scenario.h"
#include "test_util.h"

namespace lossless::test {
namespace {

const std::string kCase = std::string(LOSSLESS_SOURCE_DIR) + "/experiments/hpcc-fidelity/micro/ecmp_paths/";

struct TracedFlow {
  std::uint32_t src = 0, dst = 0;
  std::vector<std::uint32_t> data_switches, ack_switches;  // the simulator's node ids, in path order
};

std::vector<TracedFlow> read_trace() {
  std::ifstream in(kCase + "ns3_paths.txt");
  std::vector<TracedFlow> out;
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream ss(line);
    std::uint32_t index = 0;
    TracedFlow t;
    ss >> index >> t.src >> t.dst;
    EXPECT_EQ(index, out.size());
    auto* into = &t.data_switches;
    for (std::string tok; ss >> tok;) {
      if (tok == ";")
        into = &t.ack_switches;
      else
        into->push_back(static_cast<std::uint32_t>(std::stoul(tok)));
    }
    out.push_back(t);
  }
  return out;
}

std::vector<std::uint32_t> switches_on(Network& net, std::uint32_t from, const std::uint16_t* route) {
  const Topology& t = net.topology();
  std::vector<std::uint32_t> ids;
  const Port* p = &net.peer_of(net.nic(from).port);
  for (std::uint32_t hop = 0; !t.is_host(p->node); ++hop) {
    ids.push_back(t.external_id[p->node]);
    p = &net.peer_of(net.switch_at(p->node - t.hosts).ports[route[hop]]);
  }
  return ids;
}

std::unique_ptr<Network> fat320(const std::string& routing, std::vector<Flow>& flows) {
  auto sc = parse_scenario(YAML::Load(R"(
topology: {type: hpcc_file, path: )" + std::string(LOSSLESS_SOURCE_DIR) +
                                      R"(/experiments/hpcc-ws30/fat320.txt}
switch: {routing: )" + routing + R"(}
cc: {algorithm: dcqcn}
workload: [{type: incast, receiver: 0, senders: 1-2, size: 1KB}]
)"),
                           "test.yaml", ScenarioOverrides{});
  auto net = std::make_unique<Network>(sc.topology, sc.sw, sc.nic, sc.seed);
  // The file's node ids are host indices here (hosts are 0..319).
  for (const TracedFlow& t : read_trace()) {
    const std::uint32_t src = t.src, dst = t.dst;
    Flow f;
    f.id = static_cast<std::uint32_t>(flows.size());
    f.src = src;
    f.dst = dst;
    f.size_bytes = 1000;
    f.sport =
        static_cast<std::uint16_t>(10000 + f.id);  // not the simulator's numbering: the router has its own
    flows.push_back(f);
  }
  net->install_flows(flows, *sc.cc);
  return net;
}

TEST(HpccEcmp, FlowsTakeTheHpccSimulatorsPaths) {
  const std::vector<TracedFlow> traced = read_trace();
  ASSERT_EQ(traced.size(), 65u);
  std::vector<Flow> flows;
  auto net = fat320("hpcc_ecmp", flows);
  for (std::uint32_t i = 0; i < traced.size(); ++i) {
    const Flow& f = flows[i];
    EXPECT_EQ(switches_on(*net, f.src, net->forward_route(f.id)), traced[i].data_switches)
        << "data of flow " << i;
    EXPECT_EQ(switches_on(*net, f.dst, net->reverse_route(f.id)), traced[i].ack_switches)
        << "ACKs of flow " << i;
  }
  // lossless's own ECMP takes other paths for most of them (so the check above can fail).
  std::vector<Flow> other_flows;
  auto other = fat320("ecmp", other_flows);
  int differ = 0;
  for (std::uint32_t i = 0; i < traced.size(); ++i)
    differ += switches_on(*other, traced[i].src, other->forward_route(i)) != traced[i].data_switches;
  EXPECT_GE(differ, 40);
}

}  // namespace
}  // namespace lossless::test
