// `switch.routing: hpcc_ecmp` puts flows on the HPCC simulator's paths. The expected paths are the
// simulator's own (alibaba-edu/High-Precision-Congestion-Control at 9f4be2a with a per-hop trace of the
// switches each packet left), for 65 single-packet flows between random hosts of different ToRs on its
// 320-host fat tree; ten of them are checked here, data and ACK, including two second flows of a host pair
// (source port 10001).
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "control/cc_scheme.h"
#include "net/network.h"
#include "scenario/scenario.h"
#include "test_util.h"

namespace lossless::test {
namespace {

struct TracedFlow {
  std::uint32_t index;  // position in the traced flow file
  std::uint32_t src, dst;
  std::vector<std::uint32_t> data_switches, ack_switches;  // the simulator's node ids, in path order
};

// Flow file of the trace: 60 distinct pairs, then the first five pairs again.
std::vector<std::pair<std::uint32_t, std::uint32_t>> traced_pairs() {
  return {{165, 77}, {202, 24},  {37, 274},  {48, 187},  {298, 29},  {259, 109}, {19, 44},   {35, 123},
          {46, 282}, {217, 30},  {289, 63},  {114, 298}, {31, 295},  {299, 203}, {25, 113},  {23, 285},
          {68, 148}, {214, 73},  {276, 60},  {292, 157}, {286, 92},  {52, 297},  {292, 96},  {190, 49},
          {280, 32}, {288, 30},  {316, 105}, {254, 272}, {218, 160}, {238, 299}, {232, 185}, {153, 127},
          {92, 124}, {41, 294},  {153, 268}, {253, 175}, {229, 147}, {311, 37},  {60, 262},  {214, 84},
          {175, 77}, {250, 215}, {20, 39},   {285, 293}, {179, 304}, {254, 296}, {233, 35},  {47, 138},
          {242, 33}, {31, 158},  {295, 228}, {145, 197}, {177, 11},  {236, 181}, {86, 312},  {59, 252},
          {30, 111}, {147, 66},  {126, 203}, {200, 254}, {165, 77},  {202, 24},  {37, 274},  {48, 187},
          {298, 29}};
}

std::vector<std::uint32_t> switches_on(Network& net, std::uint32_t from, const std::uint16_t* route) {
  const Topology& t = net.topology();
  std::vector<std::uint32_t> ids;
  const Port* p = net.nic(from).port.peer;
  for (std::uint32_t hop = 0; !t.is_host(p->node); ++hop) {
    ids.push_back(t.external_id[p->node]);
    p = net.switch_at(p->node - t.hosts).ports[route[hop]].peer;
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
  for (auto [src, dst] : traced_pairs()) {
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
  const std::vector<TracedFlow> traced = {
      {0, 165, 77, {330, 349, 364, 345, 324}, {324, 345, 365, 349, 330}},
      {1, 202, 24, {332, 354, 371, 342, 321}, {321, 343, 372, 355, 332}},
      {2, 37, 274, {322, 340, 361, 356, 337}, {337, 357, 367, 341, 322}},
      {3, 48, 187, {323, 341, 365, 349, 331}, {331, 349, 367, 341, 323}},
      {4, 298, 29, {338, 356, 363, 340, 321}, {321, 341, 366, 357, 338}},
      {5, 259, 109, {336, 357, 364, 345, 326}, {326, 346, 368, 358, 336}},
      {6, 19, 44, {321, 342, 322}, {322, 343, 321}},
      {7, 35, 123, {322, 340, 362, 344, 327}, {327, 345, 364, 341, 322}},
      {60, 165, 77, {330, 348, 361, 344, 324}, {324, 347, 375, 351, 330}},
      {61, 202, 24, {332, 353, 365, 341, 321}, {321, 342, 371, 354, 332}},
  };
  std::vector<Flow> flows;
  auto net_ptr = fat320("hpcc_ecmp", flows);
  Network& net = *net_ptr;
  for (const TracedFlow& t : traced) {
    const Flow& f = flows[t.index];
    ASSERT_EQ(f.src, t.src);
    ASSERT_EQ(f.dst, t.dst);
    EXPECT_EQ(switches_on(net, f.src, net.forward_route(f.id)), t.data_switches)
        << "data of flow " << t.index;
    EXPECT_EQ(switches_on(net, f.dst, net.reverse_route(f.id)), t.ack_switches) << "ACKs of flow " << t.index;
  }
  // lossless's own ECMP takes other paths for most of them (so the check above can fail).
  std::vector<Flow> other_flows;
  auto other_ptr = fat320("ecmp", other_flows);
  Network& other = *other_ptr;
  int differ = 0;
  for (const TracedFlow& t : traced)
    differ += switches_on(other, t.src, other.forward_route(t.index)) != t.data_switches;
  EXPECT_GE(differ, 5);
}

}  // namespace
}  // namespace lossless::test
