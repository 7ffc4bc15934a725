// P-PFC and CaPFC scenario tests (seed paper 003, Tian et al., TPDS'20): what the paper reports on its incast
// setup (experiments/ppfc/incast.yaml: 40G, 9 MB buffer with 4 MB shared, DCQCN with Table 2's parameters),
// and the pause-kind outputs of every run.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <iterator>
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "net/pause_kinds.h"
#include "test_util.h"

namespace lossless::test {
namespace {

std::string experiment_yaml(const std::string& name) {
  std::ifstream in(std::string(LOSSLESS_SOURCE_DIR) + "/experiments/ppfc/" + name);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

// The paper's incast with `n` senders of 1 MB each (smaller than the experiment's 4 MB: the congestion phase
// the tests look at is over well before), under flow control `fc`.
RunOutput run_incast(int n, const std::string& fc, const std::string& tag,
                     std::vector<std::pair<std::string, std::string>> sets = {}) {
  const std::string yaml = experiment_yaml("incast.yaml");
  EXPECT_FALSE(yaml.empty());
  sets.insert(sets.begin(), {{"topology.hosts", std::to_string(n + 1)},
                             {"workload.0.senders", "1-" + std::to_string(n)},
                             {"workload.0.size", "1MB"},
                             {"switch.flow_control", fc},
                             {"monitor", "{pfc: true}"}});
  return run_yaml(yaml, tag, sets);
}

std::uint64_t by_kind(const RunOutput& out, const std::string& kind) {
  for (std::uint8_t k = 0; k < PauseKinds::count(); ++k)
    if (PauseKinds::name(k) == kind) return out.result.counters.pause_frames_by_kind[k];
  ADD_FAILURE() << "no pause kind " << kind;
  return 0;
}

// Bytes delivered over the time from the first start to the last finish (the receiver link's throughput).
double receiver_gbps(const RunOutput& out) {
  double bytes = 0, first = 1e300, last = 0;
  for (auto& row : out.csv("fct.csv")) {
    bytes += num(row, "size_bytes");
    first = std::min(first, num(row, "start_ns"));
    last = std::max(last, num(row, "finish_ns"));
  }
  return bytes * 8 / (last - first);
}

TEST(Ppfc, SixteenToOneIncastQueueStaysFarBelowPfcs) {
  auto pfc = run_incast(16, "pfc", "ppfc_16_pfc");
  auto ppfc = run_incast(16, "ppfc", "ppfc_16_ppfc");
  // PFC alone lets the queue fill the 4 MB shared pool (and the headrooms behind it): DCQCN's first CNPs come
  // ~50 us after the first marks (nic.cnp_timing periodic, the paper's simulator), when 15 x 40G of growth
  // has already queued ~3.7 MB.
  EXPECT_GT(pfc.result.counters.max_queue_bytes, 3'900'000u);
  EXPECT_GT(by_kind(pfc, "standard"), 0u);
  EXPECT_EQ(by_kind(pfc, "predictive"), 0u);
  // Paper Fig. 6a: P-PFC's maximum is 1,002 KB against PFC's whole buffer, ~0.24x. Ours (1 MB flows, seeds
  // 1-8): 0.66-1.03 MB, 0.16-0.25x. The bounds leave a third more than the largest of those (not one run's
  // value) and still fail if P-PFC stops holding the surge: the earlier reading (drain_rate egress) gives
  // 0.48x, no P-PFC 1x.
  EXPECT_LE(ppfc.result.counters.max_queue_bytes, 0.35 * pfc.result.counters.max_queue_bytes)
      << "P-PFC " << ppfc.result.counters.max_queue_bytes << " B, PFC "
      << pfc.result.counters.max_queue_bytes;
  EXPECT_LE(ppfc.result.counters.max_queue_bytes, 1'350'000u);
  EXPECT_GT(by_kind(ppfc, "predictive"), 0u);
  EXPECT_EQ(by_kind(ppfc, "standard"), 0u);  // the pool never fills
  for (const auto* r : {&pfc, &ppfc}) {
    EXPECT_EQ(r->result.counters.drops, 0u);
    EXPECT_EQ(r->result.flows_completed, 16u);
  }
  // Paper Fig. 7: P-PFC does not cost throughput ("almost the same"; ours 0.97-1.16x of PFC's over seeds
  // 1-8).
  EXPECT_GE(receiver_gbps(ppfc), 0.9 * receiver_gbps(pfc))
      << "P-PFC " << receiver_gbps(ppfc) << " Gb/s, PFC " << receiver_gbps(pfc);
}

TEST(Ppfc, FourToOneIncastSendsNoPredictivePause) {
  // Paper Table 3: 4:1 incast -> 0 P-PFC messages at T = 50, 100 and 150 us. DCQCN holds the queue where the
  // pool does not fill within 100 us at 3 x 40G of growth.
  auto out = run_incast(4, "ppfc", "ppfc_4");
  EXPECT_EQ(by_kind(out, "predictive"), 0u);
  EXPECT_EQ(out.result.flows_completed, 4u);
}

// Predictive pauses per host of the Fig. 8 setup (groups of 16, 4 and 1 senders into hosts 0, 1, 2).
std::map<int, int> innocent_pauses(const std::string& egress_queues, const std::string& tag) {
  auto out = run_yaml(experiment_yaml("innocent.yaml"), tag,
                      {{"workload.0.size", "1MB"},
                       {"workload.1.size", "1MB"},
                       {"workload.2.size", "1MB"},
                       {"switch.ppfc", "{egress_queues: " + egress_queues + "}"},
                       {"monitor", "{pfc: true}"}});
  EXPECT_EQ(out.result.counters.drops, 0u);
  EXPECT_EQ(out.result.flows_completed, 21u);
  std::map<int, int> predictive;
  for (auto& row : out.csv("pfc.csv"))
    if (row.at("kind") == "predictive") ++predictive[std::stoi(row.at("node").substr(1))];  // all hosts: h<i>
  return predictive;
}

int sum_over(const std::map<int, int>& by_host, int first, int last) {
  int n = 0;
  for (const auto& [h, count] : by_host) n += h >= first && h <= last ? count : 0;
  return n;
}

TEST(Ppfc, OnlyTheSendersOfCongestedEgressQueuesGetPredictivePauses) {
  // Paper Fig. 8: group 1 (16 senders -> host 0) is paused, group 3 (1 -> host 2, whose egress never queues)
  // is not. With egress_queues most_congested (the default, ruling of issue 25) each interval's pauses go to
  // the senders of one egress queue only, the fullest: group 2 (4 -> host 1) is paused only while its queue
  // is the fullest (P-PFC holds group 1's queue below it in the first ~80 us, before DCQCN's first cuts), so
  // far less than group 1; with `all` its senders share every round of pauses.
  auto most = innocent_pauses("most_congested", "ppfc_innocent_most");
  auto all = innocent_pauses("all", "ppfc_innocent_all");
  for (const auto* by_host : {&most, &all}) {
    EXPECT_EQ(sum_over(*by_host, 23, 23), 0) << "the innocent sender was paused";
    EXPECT_EQ(sum_over(*by_host, 0, 2), 0) << "a receiver was paused";
  }
  EXPECT_GT(sum_over(most, 3, 18), 4 * sum_over(most, 19, 22));
  EXPECT_GT(sum_over(all, 3, 18), 0);
}

// most_congested: the frames of one interval (received at the same instant: every host link is 40G, 1 us) all
// go to the senders of one group.
TEST(Ppfc, EachRoundOfPredictivePausesServesOneEgressQueue) {
  auto out = run_yaml(experiment_yaml("innocent.yaml"), "ppfc_innocent_rounds",
                      {{"workload.0.size", "1MB"}, {"workload.1.size", "1MB"}, {"workload.2.size", "1MB"}});
  std::map<std::string, std::set<int>> groups_at;  // arrival time -> groups paused then
  for (auto& row : out.csv("pfc.csv")) {
    if (row.at("kind") != "predictive") continue;
    const int host = std::stoi(row.at("node").substr(1));
    groups_at[row.at("time_ns")].insert(host <= 18 ? 1 : host <= 22 ? 2 : 3);
  }
  ASSERT_GT(groups_at.size(), 1u);
  for (auto& [t, groups] : groups_at) EXPECT_EQ(groups.size(), 1u) << "at " << t << " ns";
}

TEST(Ppfc, PredictivePausesExpireByThemselvesAfterTheirDuration) {
  auto out = run_incast(16, "ppfc", "ppfc_expire");
  // P-PFC keeps the queue away from the full pool: every frame here is predictive, and none is a resume.
  EXPECT_EQ(by_kind(out, "standard"), 0u);
  EXPECT_EQ(out.result.counters.resume_frames, 0u);
  // Each pause lasts its quanta of 512 bit times at 40G (12.8 ns each) from its arrival, unless a later frame
  // for the same (node, port, priority) replaces it: the union of those intervals is the paused time, and
  // every pause that is not replaced ends by itself (an expiry).
  std::map<std::tuple<std::string, std::string, std::string>, std::vector<std::pair<double, double>>> pauses;
  std::uint64_t frames = 0;
  for (auto& row : out.csv("pfc.csv")) {
    ASSERT_EQ(row.at("kind"), "predictive");
    ASSERT_EQ(row.at("event"), "pause");
    const double t = num(row, "time_ns");
    pauses[{row.at("node"), row.at("port"), row.at("priority")}].push_back(
        {t, t + num(row, "quanta") * 12.8});
    ++frames;
  }
  ASSERT_GT(frames, 0u);
  double paused_ns = 0;
  std::uint64_t ends = 0;
  for (auto& [where, list] : pauses) {
    for (std::size_t i = 0; i < list.size(); ++i) {
      const bool replaced = i + 1 < list.size() && list[i + 1].first < list[i].second;
      paused_ns += (replaced ? list[i + 1].first : list[i].second) - list[i].first;
      ends += !replaced;
    }
  }
  EXPECT_EQ(out.result.counters.pause_expiries, ends);
  EXPECT_NEAR(static_cast<double>(out.result.counters.paused_time_ps) / 1e3, paused_ns, frames * 1.0);
}

TEST(Capfc, PausesTheIncastSendersEarlyAndResumesThem) {
  auto pfc = run_incast(16, "pfc", "capfc_16_pfc");
  auto capfc = run_incast(16, "capfc", "capfc_16");
  EXPECT_GT(by_kind(capfc, "capfc"), 0u);
  EXPECT_EQ(by_kind(capfc, "predictive"), 0u);
  // X-off/X-on style: the rule's pauses end with resumes of the same kind.
  int resumes = 0;
  for (auto& row : capfc.csv("pfc.csv")) resumes += row.at("kind") == "capfc" && row.at("event") == "resume";
  EXPECT_GT(resumes, 0);
  EXPECT_LT(capfc.result.counters.max_queue_bytes, pfc.result.counters.max_queue_bytes);
  EXPECT_EQ(capfc.result.counters.drops, 0u);
  EXPECT_EQ(capfc.result.flows_completed, 16u);
}

TEST(PauseKinds, EverySummaryCountsPauseFramesByKind) {
  auto out = run_incast(4, "pfc", "kinds_pfc", {{"workload.0.size", "200KB"}});
  const std::string s = out.read("summary.json");
  const auto at = s.find("\"pause_frames_by_kind\": {");
  ASSERT_NE(at, std::string::npos) << s;
  const std::string kinds = s.substr(at, s.find('}', at) - at);
  for (const char* k : {"\"standard\": ", "\"predictive\": ", "\"capfc\": "})
    EXPECT_NE(kinds.find(k), std::string::npos) << k << " missing in " << kinds;
  EXPECT_EQ(out.read("pfc.csv").substr(0, out.read("pfc.csv").find('\n')),
            "time_ns,node,port,priority,event,quanta,kind");
}

}  // namespace
}  // namespace lossless::test
