// Regression tests of what the randomized cross-scheme testing found (tools/random_scenarios.py, issue 26
// item 4; tests/random/README.md): each TEST is one finding, its minimal scenario under
// tests/inputs/random-*.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "test_util.h"

namespace lossless::test {
namespace {

std::string input(const std::string& name) {
  return std::string(LOSSLESS_SOURCE_DIR) + "/tests/inputs/" + name + ".yaml";
}

std::string read_text(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// `lossless validate` exits 2 with one message naming the file and every one of `want`, as `lossless run`
// refuses the scenario (before the fix validate said ok: only the built fabric checks these).
void expect_refused(const std::string& name, const std::vector<std::string>& want) {
  std::string err;
  EXPECT_EQ(run_cli("validate " + input(name), &err), 2) << err;
  for (const auto& w : want) EXPECT_NE(err.find(w), std::string::npos) << "wanted: " << w << "\n" << err;
  EXPECT_NE(err.find(input(name) + ": "), std::string::npos) << "names the file: " << err;
  EXPECT_EQ(std::count(err.begin(), err.end(), '\n'), 1) << err;
  const std::string out = temp_dir("random_" + name);
  EXPECT_EQ(run_cli("run " + input(name) + " --quiet -o " + out, &err), 2) << err;
}

TEST(RandomFindings, ValidateRefusesWhatOnlyTheBuiltFabricChecks) {
  expect_refused("random-voq-headroom", {"switch.voq.queue_size", "PFC headroom", "switch s0 port 1"});
}

TEST(RandomFindings, TwoSchemesThatEachWantThePortsQueuesAreRefusedByValidateNamingBoth) {
  expect_refused("random-two-queue-sets",
                 {"switch.architecture: voq", "switch.flow_control: bfc", "cannot be combined"});
}

TEST(RandomFindings, TheResolvedScenarioRunAgainResolvesToTheSameText) {
  const std::string a = temp_dir("random_rerun_a"), b = temp_dir("random_rerun_b");
  std::string err;
  ASSERT_EQ(run_cli("run " + input("random-resolved-rerun") + " --quiet -o " + a, &err), 0) << err;
  ASSERT_EQ(run_cli("run " + a + "/scenario.yaml --quiet -o " + b, &err), 0) << err;
  auto without_dir = [](std::string s, const std::string& dir) {
    for (auto p = s.find(dir); p != std::string::npos; p = s.find(dir)) s.replace(p, dir.size(), "OUT");
    return s;
  };
  EXPECT_EQ(without_dir(read_text(a + "/scenario.yaml"), a), without_dir(read_text(b + "/scenario.yaml"), b));
}

// A window of 2 packets with an ACK every 4: before the fix the receiver waited for packets the sender could
// not send before an ACK (a stall, exit 3). The packet that fills the window asks for its ACK.
TEST(RandomFindings, AWindowBelowTheAckIntervalStillGetsItsAcks) {
  const std::string out = temp_dir("random_window_ack");
  std::string err;
  EXPECT_EQ(run_cli("run " + input("random-window-below-ack-interval") + " --check --quiet -o " + out, &err),
            0)
      << err;
  const std::string s = read_text(out + "/summary.json");
  EXPECT_NE(s.find("\"completed\": 1"), std::string::npos) << s;
}

// ExpressPass on a lossy fabric: an ACK that moved the next byte past the credited bytes after a go-back made
// the sender's state check fail (exit 1) before the fix.
TEST(RandomFindings, ExpressPassCreditsFollowAnAckPastThem) {
  const std::string out = temp_dir("random_xpass_ack");
  std::string err;
  EXPECT_EQ(
      run_cli("run " + input("random-expresspass-ack-past-credits") + " --check --quiet -o " + out, &err), 0)
      << err;
}

// HPCC with per-packet spraying: each ACK's INT records describe another path than the previous ACK's, which
// HPCC compares hop by hop; before the fix large flows crawled until the stop (seed 3, 8 of 17 findings).
TEST(RandomFindings, HpccWithPerPacketSprayIsRefused) {
  std::string err;
  EXPECT_EQ(run_cli("validate " + input("random-hpcc-spray"), &err), 2) << err;
  for (const char* w : {"switch.routing", "one path", "spray", "HPCC"})
    EXPECT_NE(err.find(w), std::string::npos) << "wanted: " << w << "\n" << err;
  EXPECT_NE(err.find(input("random-hpcc-spray") + ":"), std::string::npos) << "names the file: " << err;
  EXPECT_EQ(std::count(err.begin(), err.end(), '\n'), 1) << err;
  // The same scenario with one path per flow runs.
  EXPECT_EQ(run_cli("validate " + input("random-hpcc-spray") + " --set switch.routing=ecmp", &err), 0) << err;
}

// An ACK every 2 packets with HPCC's window shrinking below it: before the fix the receiver waited for a
// second packet the window did not allow (3 of 21 flows stalled, exit 3). The ACK coalescing timeout sends
// it.
TEST(RandomFindings, ACoalescedAckIsSentWhenTheTimeoutRunsOut) {
  const std::string out = temp_dir("random_ack_timeout");
  std::string err;
  EXPECT_EQ(run_cli("run " + input("random-ack-timeout") + " --check --quiet -o " + out, &err), 0) << err;
  const std::string s = read_text(out + "/summary.json");
  EXPECT_NE(s.find("\"completed\": 21"), std::string::npos) << s;
  EXPECT_NE(read_text(out + "/scenario.yaml").find("ack_timeout: 4us"), std::string::npos);
  // Bad values exit 2 naming the key; with an ACK for every packet the key is left out of the resolved
  // scenario.
  EXPECT_EQ(run_cli("validate " + input("random-ack-timeout") + " --set nic.ack_timeout=0ns", &err), 2);
  EXPECT_NE(err.find("nic.ack_timeout"), std::string::npos) << err;
  EXPECT_NE(err.find("must be positive"), std::string::npos) << err;
  const std::string one = temp_dir("random_ack_timeout_1");
  ASSERT_EQ(
      run_cli("run " + input("random-ack-timeout") + " --set nic.ack_interval=1 --quiet -o " + one, &err), 0)
      << err;
  EXPECT_EQ(read_text(one + "/scenario.yaml").find("ack_timeout:"), std::string::npos);
}

// A VOQ switch whose queues (1MB each) hold more than switch.buffer (2MB) toward one output: its own sizes
// are its memory. Before the fix the queue-bytes invariant compared with switch.buffer (exit 1).
TEST(RandomFindings, AVoqSwitchIsBoundedByItsQueuesNotBySwitchBuffer) {
  const std::string out = temp_dir("random_voq_memory");
  std::string err;
  EXPECT_EQ(run_cli("run " + input("random-voq-memory") + " --check --quiet -o " + out, &err), 0) << err;
  EXPECT_NE(read_text(out + "/summary.json").find("\"completed\": 3"), std::string::npos);
}

// ExpressPass on a lossy fabric with spray: a flow waited for credits at 994,000 of 1,000,000 B until the
// stop (exit 3) while the receiver's RESUME went unanswered.
TEST(RandomFindings, ExpressPassAsksAgainWhenItsCreditRequestIsLost) {
  const std::string out = temp_dir("random_xpass_request");
  std::string err;
  EXPECT_EQ(run_cli("run " + input("random-expresspass-lost-request") + " --check --quiet -o " + out, &err),
            0)
      << err;
  EXPECT_NE(read_text(out + "/summary.json").find("\"completed\": 3"), std::string::npos);
}

TEST(RandomFindings, SwiftAloneOnTwoMicrosecondLinksRunsAtLineRate) {
  const std::string out = temp_dir("random_swift_2us");
  std::string err;
  ASSERT_EQ(run_cli("run " + input("random-swift-2us-links") + " --check --quiet -o " + out, &err), 0) << err;
  RunOutput o;
  o.dir = out;
  const auto rows = o.csv("fct.csv");
  ASSERT_EQ(rows.size(), 1u);
  ASSERT_FALSE(rows[0].at("finish_ns").empty())
      << "the 5 MB flow did not finish by 2 ms (it crawled at 161 Mb/s)";
  EXPECT_LT(num(rows[0], "slowdown"), 1.05);
}

}  // namespace
}  // namespace lossless::test
