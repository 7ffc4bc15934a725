// Arrivals' second-stage prefetch (Network::deep_prefetch) is on for a fabric whose ports outgrow four L2
// caches on one thread and off when two threads split it: what is prefetched must not change an output.
#include <gtest/gtest.h>

#include <fstream>
#include <string>

#include "test_util.h"

namespace lossless::test {
namespace {

constexpr const char* kFatTree24 = R"(name: deep-prefetch
topology: {type: fat_tree, k: 24, host_link: {rate: 100Gbps, delay: 1us}, fabric_link: {rate: 400Gbps, delay: 1us}}
cc: {algorithm: dcqcn, params: {preset: hpcc_paper}}
workload: [{type: poisson, cdf: WebSearch, load: 0.3, duration: 3us}]
)";

TEST(DeepPrefetch, AFabricRunWithItGivesTheSameOutputsAsOneWithout) {
  const std::string dir = temp_dir("deep-prefetch");
  std::ofstream(dir + "/s.yaml") << kFatTree24;
  const std::string bin = LOSSLESS_BINARY;
  const ShellResult with = shell_in(dir, bin + " run s.yaml -o with --quiet --threads 1");
  const ShellResult without = shell_in(dir, bin + " run s.yaml -o without --quiet --threads 2");
  ASSERT_EQ(with.status, 0) << with.err;
  ASSERT_EQ(without.status, 0) << without.err;
  const std::string fct = slurp(dir + "/with/fct.csv");
  EXPECT_GT(fct.size(), 1000u);
  EXPECT_EQ(fct, slurp(dir + "/without/fct.csv"));
  EXPECT_EQ(slurp(dir + "/with/pfc.csv"), slurp(dir + "/without/pfc.csv"));
}

}  // namespace
}  // namespace lossless::test
